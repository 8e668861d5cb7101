package ratelimit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

const redisAddr = "127.0.0.1:6379"

// redisLimiter connects to a local Redis, or skips: Redis is optional for
// GeoScan and for its tests.
func redisLimiter(tb testing.TB) *ratelimit.Redis {
	tb.Helper()
	conn, err := (&net.Dialer{Timeout: 500 * time.Millisecond}).DialContext(context.Background(), "tcp", redisAddr)
	if err != nil {
		tb.Skipf("Redis backend not tested: no Redis at %s (%v); start one there to run this test", redisAddr, err)
	}
	_ = conn.Close()
	r, err := ratelimit.NewRedis("redis://" + redisAddr + "/0")
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = r.Close() })
	require.NoError(tb, r.Ping(context.Background()))
	// Buckets of earlier runs stay in Redis until they expire; a fresh
	// prefix keeps each run to itself.
	return r.WithPrefix("geoscan-test:" + uuid.NewString() + ":")
}

func postgresLimiter(tb testing.TB) *ratelimit.Postgres {
	tb.Helper()
	return ratelimit.NewPostgres(store.New(pgtest.Pool(tb)))
}

type backend interface {
	ratelimit.Limiter
	ratelimit.Backend
}

// sharedBackends runs fn against each shared store.
func sharedBackends(t *testing.T, fn func(t *testing.T, b backend)) {
	t.Helper()
	t.Run("Postgres", func(t *testing.T) {
		t.Parallel()
		fn(t, postgresLimiter(t))
	})
	t.Run("Redis", func(t *testing.T) {
		t.Parallel()
		fn(t, redisLimiter(t))
	})
}

// backends runs fn against each implementation: the shared stores decided
// per request, and the leased limiter over each.
func backends(t *testing.T, fn func(t *testing.T, l ratelimit.Limiter)) {
	t.Helper()
	sharedBackends(t, func(t *testing.T, b backend) {
		t.Run("Exact", func(t *testing.T) { fn(t, b) })
		t.Run("Leased", func(t *testing.T) { fn(t, leased(t, b)) })
	})
}

func leased(tb testing.TB, b ratelimit.Backend) *ratelimit.Leased {
	tb.Helper()
	l := ratelimit.NewLeased(context.Background(), b, slog.New(slog.DiscardHandler))
	tb.Cleanup(func() { l.Close(context.Background()) })
	return l
}

func TestLimiterAllowsTheBurstThenRefuses(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, l ratelimit.Limiter) {
		ctx := context.Background()
		bucket := "test:" + uuid.NewString()
		// 3 a minute: one request occupies 20 s, far longer than this test
		// needs, so the outcome does not depend on how fast it runs.
		limit := ratelimit.PerMinute(3)
		for i := range 3 {
			res, err := l.Allow(ctx, bucket, limit)
			require.NoError(t, err)
			require.True(t, res.Allowed, "request %d", i+1)
			require.Equal(t, 2-i, res.Remaining, "request %d", i+1)
			require.Equal(t, limit, res.Limit)
			require.Positive(t, res.ResetAfter)
			require.LessOrEqual(t, res.ResetAfter, time.Minute)
		}
		for range 2 {
			res, err := l.Allow(ctx, bucket, limit)
			require.NoError(t, err)
			require.False(t, res.Allowed)
			require.Zero(t, res.Remaining)
			// The next request is allowed once the first one's 20 s are over.
			require.Positive(t, res.RetryAfter)
			require.LessOrEqual(t, res.RetryAfter, 20*time.Second)
			require.GreaterOrEqual(t, ratelimit.RetryAfterSeconds(res), 1)
		}

		// Buckets are independent.
		res, err := l.Allow(ctx, bucket+":other", limit)
		require.NoError(t, err)
		require.True(t, res.Allowed)
		require.Equal(t, 2, res.Remaining)
	})
}

func TestLimiterIsExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, l ratelimit.Limiter) {
		bucket := "test:" + uuid.NewString()
		limit := ratelimit.PerMinute(10)
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			allowed int
		)
		for range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := l.Allow(context.Background(), bucket, limit)
				if err != nil {
					t.Errorf("allow: %v", err)
					return
				}
				if res.Allowed {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		require.Equal(t, 10, allowed)
	})
}

// spend sends n requests through the limiters, spread over them and
// over concurrent callers, and counts the allowed ones.
func spend(t *testing.T, limiters []ratelimit.Limiter, bucket string, limit ratelimit.Limit, n int) int {
	t.Helper()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		allowed int
	)
	const callers = 8
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; i < n; i += callers {
				res, err := limiters[i%len(limiters)].Allow(context.Background(), bucket, limit)
				if err != nil {
					t.Errorf("allow: %v", err)
					return
				}
				if res.Allowed {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return allowed
}

// The accuracy bound of Leased: P processes sharing a bucket never get
// more than one exact bucket gives plus P × MaxShare, and once the shared
// bucket is empty they have had all of it but what they still hold, at
// most P × MaxShare, which they give back when they stop.
func TestLeasedStaysWithinItsBoundAcrossProcesses(t *testing.T) {
	t.Parallel()
	sharedBackends(t, func(t *testing.T, b backend) {
		const processes = 4
		// A day's period: the bucket refills by one request every 86 s, so
		// at most one during the test.
		limit := ratelimit.Limit{Rate: 1000, Period: 24 * time.Hour}
		share := ratelimit.MaxShare(limit)
		require.Equal(t, 20, share)
		bucket := "test:" + uuid.NewString()
		var limiters []ratelimit.Limiter
		var leases []*ratelimit.Leased
		for range processes {
			l := ratelimit.NewLeased(context.Background(), b, slog.New(slog.DiscardHandler))
			leases = append(leases, l)
			limiters = append(limiters, l)
		}
		allowed := spend(t, limiters, bucket, limit, 3000)
		require.LessOrEqual(t, allowed, limit.Rate+1+processes*share)
		require.GreaterOrEqual(t, allowed, limit.Rate-processes*share)

		// Stopping gives back what was held: the shared bucket then holds
		// exactly what was not spent (and what refilled).
		for _, l := range leases {
			l.Close(context.Background())
		}
		g, err := b.Take(context.Background(), bucket, limit, limit.Rate)
		require.NoError(t, err)
		require.GreaterOrEqual(t, g.Granted, max(limit.Rate-allowed, 0))
		require.LessOrEqual(t, g.Granted, max(limit.Rate-allowed, 0)+1)
	})
}

// Below 100 a minute nothing is leased ahead: every request is decided by
// the shared bucket, exactly, however many processes there are.
func TestLeasedIsExactForSmallLimits(t *testing.T) {
	t.Parallel()
	sharedBackends(t, func(t *testing.T, b backend) {
		limit := ratelimit.PerMinute(10)
		require.Equal(t, 1, ratelimit.MaxShare(limit))
		var limiters []ratelimit.Limiter
		for range 4 {
			limiters = append(limiters, leased(t, b))
		}
		require.Equal(t, 10, spend(t, limiters, "test:"+uuid.NewString(), limit, 40))
	})
}

// One process sees the exact count in its headers: what it holds plus what
// the shared bucket holds is what remains. Hearing announcements changes
// nothing for a process alone: it does not hear its own.
func TestLeasedRemainingIsExactInOneProcess(t *testing.T) {
	t.Parallel()
	sharedBackends(t, func(t *testing.T, b backend) {
		for _, listening := range []bool{false, true} {
			t.Run(fmt.Sprintf("listening=%v", listening), func(t *testing.T) {
				remainingIsExact(t, b, listening)
			})
		}
	})
}

func remainingIsExact(t *testing.T, b backend, listening bool) {
	t.Helper()
	l := leased(t, b)
	if listening {
		running(t, l)
	}
	limit := ratelimit.Limit{Rate: 1000, Period: 24 * time.Hour}
	bucket := "test:" + uuid.NewString()
	for i := range 300 {
		res, err := l.Allow(context.Background(), bucket, limit)
		require.NoError(t, err)
		require.True(t, res.Allowed)
		// +1 at most: the bucket refills by one request every 86 s.
		require.GreaterOrEqual(t, res.Remaining, limit.Rate-i-1, "request %d", i+1)
		require.LessOrEqual(t, res.Remaining, limit.Rate-i, "request %d", i+1)
		require.Positive(t, res.ResetAfter)
	}
}

// Tokens a process took and did not spend go back to the shared bucket
// once their lease expires, so other processes can use them.
func TestLeasedGivesBackUnspentTokens(t *testing.T) {
	t.Parallel()
	sharedBackends(t, func(t *testing.T, b backend) {
		l := ratelimit.NewLeasedTTL(b, slog.New(slog.DiscardHandler), 200*time.Millisecond)
		t.Cleanup(func() { l.Close(context.Background()) })
		limit := ratelimit.Limit{Rate: 5000, Period: 24 * time.Hour}
		bucket := "test:" + uuid.NewString()
		// A quick run of requests grows the lease beyond what is spent.
		const spent = 400
		for range spent {
			res, err := l.Allow(context.Background(), bucket, limit)
			require.NoError(t, err)
			require.True(t, res.Allowed)
		}
		// What the shared bucket holds, measured without changing it: take
		// all, give back all.
		held, ok := poll.For(t, 10*time.Second, func() (int, bool) {
			g, err := b.Take(context.Background(), bucket, limit, limit.Rate)
			require.NoError(t, err)
			require.NoError(t, b.Give(context.Background(), bucket, limit, g.Granted))
			return g.Granted, g.Granted >= limit.Rate-spent
		})
		require.True(t, ok, "the unspent tokens were not given back: the shared bucket holds %d", held)
		require.LessOrEqual(t, held, limit.Rate-spent+1)
	})
}

type brokenBackend struct{}

func (brokenBackend) Take(context.Context, string, ratelimit.Limit, int) (ratelimit.Grant, error) {
	return ratelimit.Grant{}, errors.New("connection refused")
}

func (brokenBackend) Give(context.Context, string, ratelimit.Limit, int) error {
	return errors.New("connection refused")
}

// A leased limiter whose backend fails reports the failure, and the guard
// over it allows the request.
func TestLeasedFailsOpenThroughTheGuard(t *testing.T) {
	t.Parallel()
	l := leased(t, brokenBackend{})
	_, err := l.Allow(context.Background(), "org:x:api_read", ratelimit.PerMinute(1000))
	require.Error(t, err)
	g := ratelimit.NewGuard(l, slog.New(slog.DiscardHandler))
	res, ok := g.Check(context.Background(), "org:x:api_read", ratelimit.PerMinute(1000))
	require.False(t, ok)
	require.True(t, res.Allowed)
}

// A changed limit (an organization's new override) applies to the next
// request: tokens leased under the old, larger one are not spent under the
// new one.
func TestLeasedFollowsAChangedLimit(t *testing.T) {
	t.Parallel()
	sharedBackends(t, func(t *testing.T, b backend) {
		l := leased(t, b)
		bucket := "test:" + uuid.NewString()
		for range 100 {
			res, err := l.Allow(context.Background(), bucket, ratelimit.PerMinute(6000))
			require.NoError(t, err)
			require.True(t, res.Allowed)
		}
		allowed := 0
		for range 20 {
			res, err := l.Allow(context.Background(), bucket, ratelimit.PerMinute(10))
			require.NoError(t, err)
			require.Equal(t, ratelimit.PerMinute(10), res.Limit)
			require.LessOrEqual(t, res.Remaining, 9)
			if res.Allowed {
				allowed++
			}
		}
		require.LessOrEqual(t, allowed, 10)
		require.Positive(t, allowed)
	})
}

type brokenLimiter struct{}

func (brokenLimiter) Allow(context.Context, string, ratelimit.Limit) (ratelimit.Result, error) {
	return ratelimit.Result{}, errors.New("connection refused")
}

func TestGuardFailsOpen(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	g := ratelimit.NewGuard(brokenLimiter{}, slog.New(slog.NewJSONHandler(&logs, nil)))
	for range 3 {
		res, ok := g.Check(context.Background(), "org:x:api_write", ratelimit.PerMinute(1))
		require.False(t, ok)
		require.True(t, res.Allowed)
	}
	require.Contains(t, logs.String(), "fail open")
	require.Contains(t, logs.String(), "connection refused")
	// Logged once, not once per request.
	require.Equal(t, 1, bytes.Count(logs.Bytes(), []byte("fail open")))
}

func TestRedisUnreachableIsAnError(t *testing.T) {
	t.Parallel()
	// Port 1 on loopback has no listener: the guard turns this error into
	// an allowed request.
	r, err := ratelimit.NewRedis("redis://127.0.0.1:1/0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.Close() })
	_, err = r.Allow(context.Background(), "test:x", ratelimit.PerMinute(1))
	require.Error(t, err)
}

func TestIPBucket(t *testing.T) {
	t.Parallel()
	require.Equal(t, "ip:203.0.113.7", ratelimit.IPBucket("203.0.113.7"))
	require.Equal(t, "ip:203.0.113.7", ratelimit.IPBucket("::ffff:203.0.113.7"))
	// One IPv6 client usually owns a /64.
	require.Equal(t, "ip:2001:db8:1:2::/64", ratelimit.IPBucket("2001:db8:1:2:aaaa::1"))
	require.Equal(t, ratelimit.IPBucket("2001:db8:1:2::1"), ratelimit.IPBucket("2001:db8:1:2:ffff::9"))
	require.NotEqual(t, ratelimit.IPBucket("2001:db8:1:2::1"), ratelimit.IPBucket("2001:db8:1:3::1"))
}

func TestGroupFor(t *testing.T) {
	t.Parallel()
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		require.Equal(t, ratelimit.GroupRead, ratelimit.GroupFor(m))
	}
	for _, m := range []string{http.MethodPost, http.MethodPatch, http.MethodDelete, http.MethodPut} {
		require.Equal(t, ratelimit.GroupWrite, ratelimit.GroupFor(m))
	}
}

func TestSetHeaders(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	now := time.Unix(1_800_000_000, 0)
	ratelimit.SetHeaders(h, ratelimit.GroupWrite, ratelimit.Result{Limit: ratelimit.PerMinute(10), Remaining: 4, ResetAfter: 30*time.Second + time.Millisecond}, now)
	require.Equal(t, "10", h.Get("X-RateLimit-Limit"))
	require.Equal(t, "4", h.Get("X-RateLimit-Remaining"))
	require.Equal(t, "1800000031", h.Get("X-RateLimit-Reset"))
	require.Equal(t, "api_write", h.Get("X-RateLimit-Group"))
	// The second layer's headers replace the first's, and the values do
	// not share what one of them appends.
	ratelimit.SetHeaders(h, ratelimit.GroupRead, ratelimit.Result{Limit: ratelimit.PerMinute(600), Remaining: -2}, now)
	h.Add("X-RateLimit-Limit", "appended")
	require.Equal(t, []string{"600", "appended"}, h.Values("X-RateLimit-Limit"))
	require.Equal(t, []string{"0"}, h.Values("X-RateLimit-Remaining"))
	require.Equal(t, []string{"1800000000"}, h.Values("X-RateLimit-Reset"))
	require.Equal(t, []string{"api_read"}, h.Values("X-RateLimit-Group"))
	require.Len(t, h, 4)
	require.Equal(t, 1, ratelimit.RetryAfterSeconds(ratelimit.Result{RetryAfter: time.Millisecond}))
	require.Equal(t, 7, ratelimit.RetryAfterSeconds(ratelimit.Result{RetryAfter: 6*time.Second + time.Millisecond}))
}

func BenchmarkAllow(b *testing.B) {
	run := func(b *testing.B, l ratelimit.Limiter) {
		b.Helper()
		ctx := context.Background()
		// Many organizations, as in production: no single hot row.
		buckets := make([]string, 64)
		for i := range buckets {
			buckets[i] = "bench:" + uuid.NewString()
		}
		limit := ratelimit.PerMinute(1 << 30)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			i := 0
			for pb.Next() {
				if _, err := l.Allow(ctx, buckets[i%len(buckets)], limit); err != nil {
					b.Error(err)
					return
				}
				i++
			}
		})
	}
	b.Run("Postgres", func(b *testing.B) { run(b, postgresLimiter(b)) })
	b.Run("Redis", func(b *testing.B) { run(b, redisLimiter(b)) })
	b.Run("LeasedPostgres", func(b *testing.B) { run(b, leased(b, postgresLimiter(b))) })
	b.Run("LeasedRedis", func(b *testing.B) { run(b, leased(b, redisLimiter(b))) })
}
