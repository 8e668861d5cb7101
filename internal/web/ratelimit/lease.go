package ratelimit

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Leased decides requests in process from leases on the shared buckets, so
// that a request costs a mutex and a few comparisons instead of a round
// trip to the backend.
//
// A process takes a share of a bucket's allowance from the backend (Take n,
// one atomic statement) and spends it locally, one token per request. Its
// next lease is fetched in the background when a quarter of the current one
// is left, so a busy bucket rarely makes a request wait; a request waits
// only when the process holds no token, which is always the case for its
// first request and for limits too small to share (below). The lease size
// follows demand: it starts at one request, doubles each time a lease is
// spent within half of LeaseTTL, and halves when one expires unspent.
//
// Accuracy. Nothing is spent that was not taken from the shared bucket, and
// a process never holds more than MaxShare(limit) = max(1, rate/50) tokens.
// The tokens spent in any interval are those the shared bucket granted in
// it, plus at most what the processes held when it began, so with P
// processes an organization (or address) gets at most P × MaxShare(limit)
// more requests in any window than one exact bucket would give it: 2 % of
// the limit per process, and none at all for limits under 100 a minute,
// where every request is decided by the backend exactly. The other way, a
// request can be refused while other processes hold up to (P-1) ×
// MaxShare(limit) unspent tokens; unspent tokens expire after LeaseTTL and
// are given back, so this lasts at most LeaseTTL. A refusal by the backend
// is remembered until its Retry-After, so a client over its limit costs
// no round trip either.
//
// Remaining. X-RateLimit-Remaining is the tokens this process holds plus
// what its view of the shared bucket holds now. The view is the bucket's
// theoretical arrival time (tat) as of this process's last exchange with
// the backend, moved forward (never back) by every grant another process
// announces (Announcer; Run listens). What all processes can still admit
// is the shared bucket plus every unspent lease, so Remaining
//
//   - understates it by what the other processes hold, plus what they gave
//     back since (giving back is not announced), at most (P-1) ×
//     MaxShare(limit) in all: each process's part is at most one share;
//   - overstates it only by what the other processes were granted in
//     announcements still in flight and have already spent: at most (P-1)
//     × MaxShare(limit) while each process has at most one take in flight
//     that this one has not heard of, which holds as long as an
//     announcement arrives faster than a process takes and spends a lease.
//
// An announcement is applied on arrival as "busy for that long from now",
// so its delivery delay only moves the view later, the understating side,
// by the delay's worth of refill. While the listener is down (or Run is not
// called) the view is only the last exchange, refilled since, and Remaining
// overstates by what other processes took since then, at most one LeaseTTL
// of their traffic for a busy bucket.
type Leased struct {
	// base is the context of background work (janitor, Close): the
	// creator's, without its cancellation.
	base    context.Context //nolint:containedctx // see above
	backend Backend
	logger  *slog.Logger
	ttl     time.Duration

	mu      sync.RWMutex
	buckets map[string]*leasedBucket

	// listening is true while announcements are heard.
	listening atomic.Bool

	stop chan struct{}
	done chan struct{}
}

// LeaseTTL is how long a process keeps tokens it has not spent before
// giving them back.
const LeaseTTL = time.Second

// maxBuckets bounds the buckets a process tracks; idle ones are forgotten
// first, and a forgotten bucket costs one round trip when it comes back.
const maxBuckets = 100_000

// MaxShare is the most tokens of limit one process holds at once.
func MaxShare(limit Limit) int { return max(1, limit.Rate/50) }

type leasedBucket struct {
	mu    sync.Mutex
	limit Limit
	// tokens are this process's unspent share, valid until expires.
	tokens  int
	expires time.Time
	// lease is the size of the next take; fetched is when the last began.
	lease   int
	fetched time.Time
	// tat is this process's view of the shared bucket's theoretical
	// arrival time, on the local clock: as of the last exchange, or later
	// if another process announced a grant since.
	tat time.Time
	// heard is when an announcement last moved tat.
	heard time.Time
	// refusedUntil is when the backend's last refusal ends.
	refusedUntil time.Time
	lastUse      time.Time
	inflight     *fetchCall
	// forgotten is set when the bucket left the map; a request that got
	// it just before looks it up again.
	forgotten bool
}

type fetchCall struct {
	done chan struct{}
	err  error
}

// NewLeased returns a limiter over backend; ctx carries the values of its
// background work, never its end: Close stops that work and gives back the
// tokens it holds.
func NewLeased(ctx context.Context, backend Backend, logger *slog.Logger) *Leased {
	return newLeased(ctx, backend, logger, LeaseTTL)
}

func newLeased(ctx context.Context, backend Backend, logger *slog.Logger, ttl time.Duration) *Leased {
	l := &Leased{
		base: context.WithoutCancel(ctx), backend: backend, logger: logger, ttl: ttl,
		buckets: map[string]*leasedBucket{},
		stop:    make(chan struct{}), done: make(chan struct{}),
	}
	go l.janitor()
	return l
}

// bucket returns name's bucket, locked.
func (l *Leased) bucket(name string) *leasedBucket {
	for {
		l.mu.RLock()
		b := l.buckets[name]
		l.mu.RUnlock()
		if b == nil {
			b = l.addBucket(name)
		}
		b.mu.Lock()
		if !b.forgotten {
			return b
		}
		b.mu.Unlock()
	}
}

func (l *Leased) addBucket(name string) *leasedBucket {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[name]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			l.forgetIdleLocked(time.Now(), 0)
		}
		b = &leasedBucket{lease: 1, lastUse: time.Now()}
		l.buckets[name] = b
	}
	return b
}

// Allow implements Limiter.
func (l *Leased) Allow(ctx context.Context, name string, limit Limit) (Result, error) {
	b := l.bucket(name)
	for {
		now := time.Now()
		if b.limit != limit {
			// A new bucket, or the organization's limit changed: what is
			// held was taken under the old one.
			l.giveBackLocked(ctx, name, b)
			b.limit, b.lease, b.tat, b.refusedUntil = limit, 1, time.Time{}, time.Time{}
		}
		if b.tokens > 0 && now.Before(b.expires) {
			b.tokens--
			b.lastUse = now
			res := Result{Allowed: true, Limit: limit, ResetAfter: max(b.tat.Sub(now), 0)}
			res.Remaining = min(b.tokens+limit.available(b.tat.Sub(now)), limit.Rate-1)
			if b.inflight == nil && b.lease > 1 && b.tokens <= b.lease/4 {
				l.startFetch(ctx, name, b, now)
			}
			b.mu.Unlock()
			return res, nil
		}
		l.giveBackLocked(ctx, name, b)
		if now.Before(b.refusedUntil) {
			res := Result{Limit: limit, RetryAfter: b.refusedUntil.Sub(now), ResetAfter: max(b.tat.Sub(now), 0)}
			b.mu.Unlock()
			return res, nil
		}
		call := b.inflight
		if call == nil {
			call = l.startFetch(ctx, name, b, now)
		}
		b.mu.Unlock()
		select {
		case <-call.done:
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		if call.err != nil {
			return Result{}, call.err
		}
		b.mu.Lock()
	}
}

// startFetch takes the next lease in the background; b.mu is held.
func (l *Leased) startFetch(ctx context.Context, name string, b *leasedBucket, now time.Time) *fetchCall {
	limit := b.limit
	share := MaxShare(limit)
	if !b.fetched.IsZero() && now.Sub(b.fetched) < l.ttl/2 {
		b.lease = min(b.lease*2, share)
	}
	n := max(min(b.lease, share-b.tokens), 1)
	b.fetched = now
	start := now
	call := &fetchCall{done: make(chan struct{})}
	b.inflight = call
	go func() {
		// Not the request's cancellation: the lease serves every request of
		// the bucket, and a waiting request gives up on its own.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		g, err := l.backend.Take(ctx, name, limit, n)
		b.mu.Lock()
		now := time.Now()
		b.inflight = nil
		call.err = err
		switch {
		case err != nil:
		case b.limit != limit:
			// The limit changed while the take was under way.
			l.giveLocked(ctx, name, limit, g.Granted)
		default:
			// The take's answer is the bucket as it is, unless another
			// process's grant was heard while it was under way: that grant
			// may be the later one, and the view only moves forward.
			if tat := now.Add(g.Busy); !b.heard.After(start) || tat.After(b.tat) {
				b.tat = tat
			}
			if g.Granted > 0 {
				b.tokens += g.Granted
				b.expires = now.Add(l.ttl)
				b.refusedUntil = time.Time{}
			} else {
				b.refusedUntil = now.Add(g.RetryAfter)
			}
		}
		b.mu.Unlock()
		close(call.done)
	}()
	return call
}

// Run follows the grants other processes announce until ctx ends, when
// the backend is an Announcer, reconnecting after a failure with a backoff
// of up to maxListenBackoff. Without it the limiter decides the same, and
// Remaining is as of each process's last exchange (see Leased).
func (l *Leased) Run(ctx context.Context) {
	a, ok := l.backend.(Announcer)
	if !ok {
		return
	}
	backoff := minListenBackoff
	var lastLog time.Time
	for {
		err := a.Listen(ctx, func() {
			l.listening.Store(true)
			backoff = minListenBackoff
			// Once per connection, so the return after an outage shows.
			l.logger.Info("rate limit announcements on: following other processes' leases")
		}, l.heard)
		wasListening := l.listening.Swap(false)
		if ctx.Err() != nil {
			return
		}
		if wasListening || time.Since(lastLog) >= 10*time.Second {
			lastLog = time.Now()
			l.logger.Warn("rate limit announcements off: X-RateLimit-Remaining is as of each process's last exchange with the store",
				slog.String("error", err.Error()))
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, maxListenBackoff)
	}
}

const (
	minListenBackoff = 100 * time.Millisecond
	maxListenBackoff = 5 * time.Second
)

// Listening reports whether announcements are heard.
func (l *Leased) Listening() bool { return l.listening.Load() }

// heard moves the view of a bucket this process tracks to another
// process's grant, never back: announcements of one bucket may arrive in
// any order relative to this process's own takes.
func (l *Leased) heard(bucket string, busy time.Duration) {
	l.mu.RLock()
	b := l.buckets[bucket]
	l.mu.RUnlock()
	if b == nil {
		return
	}
	now := time.Now()
	b.mu.Lock()
	if tat := now.Add(busy); tat.After(b.tat) {
		b.tat = tat
		b.heard = now
	}
	b.mu.Unlock()
}

// giveBackLocked gives back tokens that expired unspent; b.mu is held.
func (l *Leased) giveBackLocked(ctx context.Context, name string, b *leasedBucket) {
	if b.tokens == 0 {
		return
	}
	l.giveLocked(ctx, name, b.limit, b.tokens)
	b.tokens = 0
	b.lease = max(1, b.lease/2)
}

func (l *Leased) giveLocked(ctx context.Context, name string, limit Limit, n int) {
	if n <= 0 {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := l.backend.Give(ctx, name, limit, n); err != nil {
			// Lost tokens only lower the allowance until they refill.
			l.logger.Debug("give back rate limit tokens", slog.String("error", err.Error()))
		}
	}()
}

// janitor gives back expired leases and forgets idle buckets.
func (l *Leased) janitor() {
	defer close(l.done)
	t := time.NewTicker(l.ttl / 2)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case now := <-t.C:
			// Requests only read the map; this write lock is held for one
			// pass over the buckets every LeaseTTL/2.
			l.mu.Lock()
			for name, b := range l.buckets {
				b.mu.Lock()
				if b.tokens > 0 && !now.Before(b.expires) {
					l.giveBackLocked(l.base, name, b)
				}
				b.mu.Unlock()
			}
			l.forgetIdleLocked(now, 10*l.ttl)
			l.mu.Unlock()
		}
	}
}

// forgetIdleLocked drops buckets unused for idle that hold nothing; l.mu
// is held.
func (l *Leased) forgetIdleLocked(now time.Time, idle time.Duration) {
	for name, b := range l.buckets {
		b.mu.Lock()
		if b.tokens == 0 && b.inflight == nil && now.Sub(b.lastUse) >= idle && !now.Before(b.refusedUntil) {
			b.forgotten = true
			delete(l.buckets, name)
		}
		b.mu.Unlock()
	}
}

// Close stops the background work and gives back every token held, within
// two seconds at most.
func (l *Leased) Close(ctx context.Context) {
	select {
	case <-l.stop:
		return
	default:
	}
	close(l.stop)
	<-l.done
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	for name, b := range l.buckets {
		b.mu.Lock()
		if b.tokens > 0 {
			_ = l.backend.Give(ctx, name, b.limit, b.tokens)
			b.tokens = 0
		}
		b.mu.Unlock()
	}
}
