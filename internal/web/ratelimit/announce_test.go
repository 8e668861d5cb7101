package ratelimit_test

import (
	"context"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

// peerOf is b as another process sees it: the same buckets, an
// announcement origin of its own.
func peerOf(t *testing.T, b backend) ratelimit.Announcer {
	t.Helper()
	switch b := b.(type) {
	case *ratelimit.Postgres:
		return b.Peer()
	case *ratelimit.Redis:
		return b.Peer()
	}
	t.Fatalf("no peer for %T", b)
	return nil
}

type heardGrant struct {
	bucket string
	busy   time.Duration
}

// listen subscribes a to announcements and returns what it hears of the
// buckets named, once it is subscribed. Other tests of the package share
// the PostgreSQL channel.
func listen(t *testing.T, a ratelimit.Announcer, buckets ...string) <-chan heardGrant {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	heard := make(chan heardGrant, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = a.Listen(ctx, func() { close(ready) }, func(bucket string, busy time.Duration) {
			if slices.Contains(buckets, bucket) {
				heard <- heardGrant{bucket, busy}
			}
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the announcement listener did not subscribe")
	}
	return heard
}

func nextHeard(t *testing.T, heard <-chan heardGrant) heardGrant {
	t.Helper()
	select {
	case h := <-heard:
		return h
	case <-time.After(10 * time.Second):
		t.Fatal("no announcement arrived")
		return heardGrant{}
	}
}

// A grant of a leased limit is announced to the other processes, with how
// long the bucket is busy; a process does not hear its own grants, and
// neither a refusal nor a grant of a limit too small to lease is
// announced. Announcements arrive in the order of the takes, so the next
// one heard being a later take's proves the ones between were not sent.
func TestBackendAnnouncesLeasedGrants(t *testing.T) {
	t.Parallel()
	sharedBackends(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		leased := ratelimit.Limit{Rate: 1000, Period: 24 * time.Hour}
		small := ratelimit.PerMinute(10)
		bucket, smallBucket, other := "test:"+uuid.NewString(), "test:"+uuid.NewString(), "test:"+uuid.NewString()
		peer := peerOf(t, b)
		heardByPeer := listen(t, peer, bucket, smallBucket, other)
		heardBySelf := listen(t, b.(ratelimit.Announcer), bucket, smallBucket, other)

		g, err := b.Take(ctx, smallBucket, small, 1)
		require.NoError(t, err)
		require.Equal(t, 1, g.Granted)
		g, err = b.Take(ctx, bucket, leased, 20)
		require.NoError(t, err)
		require.Equal(t, 20, g.Granted)
		h := nextHeard(t, heardByPeer)
		require.Equal(t, bucket, h.bucket)
		// 20 emissions of 86.4 s, as the take said.
		require.Equal(t, g.Busy, h.busy)
		require.InDelta(t, float64(20*86400*time.Millisecond), float64(h.busy), float64(time.Second))

		// A refusal changes nothing and is not announced.
		full := ratelimit.Limit{Rate: 100, Period: 24 * time.Hour}
		g, err = b.Take(ctx, other, full, 100)
		require.NoError(t, err)
		require.Equal(t, 100, g.Granted)
		require.Equal(t, other, nextHeard(t, heardByPeer).bucket)
		g, err = b.Take(ctx, other, full, 1)
		require.NoError(t, err)
		require.Zero(t, g.Granted)
		// The exact limiter holds no lease and announces nothing either.
		_, err = b.Allow(ctx, bucket, leased)
		require.NoError(t, err)

		// The peer's grant reaches b, which heard nothing of its own before
		// it; the peer does not hear it, but the grant b takes next.
		g, err = peer.Take(ctx, bucket, leased, 3)
		require.NoError(t, err)
		require.Equal(t, 3, g.Granted)
		h = nextHeard(t, heardBySelf)
		require.Equal(t, heardGrant{bucket, g.Busy}, h)
		g, err = b.Take(ctx, smallBucket, ratelimit.PerMinute(100), 2)
		require.NoError(t, err)
		require.Equal(t, 2, g.Granted)
		require.Equal(t, heardGrant{smallBucket, g.Busy}, nextHeard(t, heardByPeer))
	})
}

// countingBackend counts the takes of one process, to tell an exchange
// with the backend from an announcement.
type countingBackend struct {
	ratelimit.Announcer
	started, finished atomic.Int64
}

func (c *countingBackend) Take(ctx context.Context, bucket string, limit ratelimit.Limit, n int) (ratelimit.Grant, error) {
	c.started.Add(1)
	defer c.finished.Add(1)
	return c.Announcer.Take(ctx, bucket, limit, n)
}

// running starts l following announcements and waits until it hears them.
func running(t *testing.T, l *ratelimit.Leased) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	_, ok := poll.For(t, 10*time.Second, func() (bool, bool) { return true, l.Listening() })
	require.True(t, ok, "the limiter does not hear announcements")
}

// With two processes, one serving a bucket's traffic and the other quiet,
// the quiet one's Remaining follows what the busy one spent, without an
// exchange of its own: once the announcements have arrived it does not
// overstate what is left (but for rounding), and it understates it by no
// more than what the busy one still holds, at most one share.
func TestLeasedRemainingFollowsOtherProcesses(t *testing.T) {
	t.Parallel()
	sharedBackends(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		// A day's period: the bucket refills by one request every 86 s. Long
		// leases: nothing expires and is given back during the test.
		limit := ratelimit.Limit{Rate: 1000, Period: 24 * time.Hour}
		share := ratelimit.MaxShare(limit)
		bucket := "test:" + uuid.NewString()
		quietBackend := &countingBackend{Announcer: b.(ratelimit.Announcer)}
		quiet := ratelimit.NewLeasedTTL(quietBackend, slog.New(slog.DiscardHandler), time.Minute)
		busy := ratelimit.NewLeasedTTL(peerOf(t, b), slog.New(slog.DiscardHandler), time.Minute)
		for _, l := range []*ratelimit.Leased{quiet, busy} {
			t.Cleanup(func() { l.Close(context.Background()) })
			running(t, l)
		}

		const quietSpent, busySpent = 10, 500
		for range quietSpent {
			res, err := quiet.Allow(ctx, bucket, limit)
			require.NoError(t, err)
			require.True(t, res.Allowed)
		}
		// The quiet process's takes are over (a lease may be fetched in
		// the background after a request); it takes no more from here on.
		_, ok := poll.For(t, 10*time.Second, func() (bool, bool) {
			return true, quietBackend.started.Load() == quietBackend.finished.Load()
		})
		require.True(t, ok)
		exchanges := quietBackend.started.Load()
		before := quiet.RemainingNow(bucket)
		require.GreaterOrEqual(t, before, limit.Rate-quietSpent)

		require.Equal(t, busySpent, spend(t, []ratelimit.Limiter{busy}, bucket, limit, busySpent))
		// What both processes can still admit, give or take one refill.
		left := limit.Rate - quietSpent - busySpent
		remaining, ok := poll.For(t, 10*time.Second, func() (int, bool) {
			r := quiet.RemainingNow(bucket)
			return r, r <= left+1
		})
		require.True(t, ok, "the quiet process says %d remain (%d before the busy one spent %d); %d do", remaining, before, busySpent, left)
		require.GreaterOrEqual(t, remaining, left-share, "understates by more than the busy process can hold")
		require.Equal(t, exchanges, quietBackend.started.Load(), "the quiet process exchanged with the backend")

		// Its answers say so too.
		res, err := quiet.Allow(ctx, bucket, limit)
		require.NoError(t, err)
		require.True(t, res.Allowed)
		require.LessOrEqual(t, res.Remaining, left)
		require.GreaterOrEqual(t, res.Remaining, left-1-share)
	})
}
