// Package ratelimit owns API rate limiting: the Limiter interface, the
// shared GCRA buckets in PostgreSQL (default) or Redis, the leases through
// which each process decides locally from its share of a bucket (Leased),
// the limit groups and cost classes, the bucket names, the X-RateLimit-*
// headers, and the fail-open policy when a backend cannot answer. Which
// requests are limited, and where in the middleware chain, is
// internal/web/httpserver's business; a handler charges a cost class
// through the request's context (Charge).
package ratelimit

import (
	"context"
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// Group names a limit; it is sent as X-RateLimit-Group.
type Group string

// The limit groups: the organization's writes and reads after
// authentication, and the client address before it. GroupRender is a cost
// class rather than a method's group: work far dearer than a read (a PDF
// rendered rather than served from the cache) counts against it as well as
// against its method's group; the handler that does the work charges it
// (Charge).
const (
	GroupWrite  Group = "api_write"
	GroupRead   Group = "api_read"
	GroupRender Group = "api_render"
	GroupIP     Group = "ip"
)

// GroupFor gives the organization group a request method counts against:
// anything that may change state is a write.
func GroupFor(method string) Group {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return GroupRead
	}
	return GroupWrite
}

// Limit allows Rate requests per Period, all of them at once if they
// arrive together (the burst equals the rate), refilling evenly.
type Limit struct {
	Rate   int
	Period time.Duration
}

// PerMinute is n requests a minute.
func PerMinute(n int) Limit { return Limit{Rate: n, Period: time.Minute} }

// emission is the time one request occupies: a refused client may send
// again after at most this long. It is whole microseconds, the backends'
// resolution, so that period/emission is never below the rate.
func (l Limit) emission() time.Duration {
	rate := max(l.Rate, 1)
	return max((l.Period / time.Duration(rate)).Truncate(time.Microsecond), time.Microsecond)
}

// Result is the decision on one request.
type Result struct {
	Allowed bool
	Limit   Limit
	// Remaining is how many more requests would be allowed right now.
	Remaining int
	// RetryAfter is, for a refused request, how long until one is allowed.
	RetryAfter time.Duration
	// ResetAfter is how long until the whole allowance is back.
	ResetAfter time.Duration
}

// Limiter decides and records one request against a bucket. Every process
// sharing the same backend shares the buckets.
type Limiter interface {
	Allow(ctx context.Context, bucket string, limit Limit) (Result, error)
}

// Backend is the shared store of buckets. Take removes up to n requests
// from a bucket's allowance at once, atomically, and Give puts back
// requests taken and not spent (never beyond the burst).
type Backend interface {
	Take(ctx context.Context, bucket string, limit Limit, n int) (Grant, error)
	Give(ctx context.Context, bucket string, limit Limit, n int) error
}

// Grant is the outcome of a Take.
type Grant struct {
	// Granted is how many requests were taken, 0 when the bucket is empty.
	Granted int
	// Busy is how long until the bucket's whole allowance is back (its
	// theoretical arrival time minus now, on the backend's clock).
	Busy time.Duration
	// RetryAfter is, when nothing was granted, how long until one request
	// can be.
	RetryAfter time.Duration
}

func grant(limit Limit, granted int, busy time.Duration) Grant {
	g := Grant{Granted: granted, Busy: max(busy, 0)}
	if granted == 0 {
		// busy - period is how far the next emission lies beyond a full
		// bucket; one more emission frees a request.
		g.RetryAfter = max(g.Busy+limit.emission()-limit.Period, time.Millisecond)
	}
	return g
}

// available is how many requests a bucket that is busy for busy holds.
func (l Limit) available(busy time.Duration) int {
	return min(max(int((l.Period-max(busy, 0))/l.emission()), 0), max(l.Rate, 1))
}

// result is the decision on one request of a Take of one.
func (g Grant) result(limit Limit) Result {
	res := Result{Allowed: g.Granted > 0, Limit: limit, ResetAfter: g.Busy}
	if res.Allowed {
		res.Remaining = min(limit.available(g.Busy), limit.Rate-1)
	} else {
		res.RetryAfter = g.RetryAfter
	}
	return res
}

// OrgBucket is the bucket of an organization's group.
func OrgBucket(org uuid.UUID, g Group) string { return "org:" + org.String() + ":" + string(g) }

// IPBucket is the bucket of a client address. An IPv6 client usually holds
// a whole /64, so the bucket is the /64: otherwise a single client could
// rotate through addresses and never be limited.
func IPBucket(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return "ip:" + addr
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return "ip:" + p.String()
	}
	return "ip:" + ip.String()
}

// Header names sent on limited responses.
const (
	HeaderLimit     = "X-RateLimit-Limit"
	HeaderRemaining = "X-RateLimit-Remaining"
	HeaderReset     = "X-RateLimit-Reset"
	HeaderGroup     = "X-RateLimit-Group"
)

// SetHeaders writes the X-RateLimit-* headers of r; Reset is the Unix
// second by which the whole allowance is back, rounded up.
func SetHeaders(h http.Header, g Group, r Result, now time.Time) {
	reset := now.Add(max(r.ResetAfter, 0))
	// Every limited request sets these, twice when both layers apply: the
	// keys are canonicalized once, the four values share one array, and the
	// three numbers one string.
	var digits [64]byte
	b := strconv.AppendInt(digits[:0], int64(r.Limit.Rate), 10)
	limitEnd := len(b)
	b = strconv.AppendInt(b, int64(max(r.Remaining, 0)), 10)
	remainingEnd := len(b)
	b = strconv.AppendInt(b, int64(math.Ceil(float64(reset.UnixNano())/1e9)), 10)
	numbers := string(b)
	v := make([]string, 4)
	v[0], v[1], v[2] = numbers[:limitEnd], numbers[limitEnd:remainingEnd], numbers[remainingEnd:]
	v[3] = string(g)
	h[canonicalLimit], h[canonicalRemaining], h[canonicalReset], h[canonicalGroup] = v[0:1:1], v[1:2:2], v[2:3:3], v[3:4:4]
}

var (
	canonicalLimit     = http.CanonicalHeaderKey(HeaderLimit)
	canonicalRemaining = http.CanonicalHeaderKey(HeaderRemaining)
	canonicalReset     = http.CanonicalHeaderKey(HeaderReset)
	canonicalGroup     = http.CanonicalHeaderKey(HeaderGroup)
)

// RetryAfterSeconds is the Retry-After value of a refused request: whole
// seconds, rounded up and at least 1, so a client that waits that long is
// allowed.
func RetryAfterSeconds(r Result) int {
	return max(int(math.Ceil(r.RetryAfter.Seconds())), 1)
}

// Guard applies a Limiter and fails open: when the backend cannot answer
// the request is allowed and the failure logged (at most every
// logInterval), because a rate-limit outage must not become an API outage.
// After a failure the backend is left alone for pauseAfterFailure, so
// requests during an outage do not each wait for a connection attempt.
type Guard struct {
	Limiter Limiter
	Logger  *slog.Logger

	lastLog     atomic.Int64
	failed      atomic.Int64
	pausedUntil atomic.Int64
}

const (
	logInterval       = 10 * time.Second
	pauseAfterFailure = time.Second
)

// NewGuard returns a fail-open guard over l.
func NewGuard(l Limiter, logger *slog.Logger) *Guard { return &Guard{Limiter: l, Logger: logger} }

// Check decides one request. ok is false when the backend failed: the
// request is then allowed and no numbers are known.
func (g *Guard) Check(ctx context.Context, bucket string, limit Limit) (res Result, ok bool) {
	now := time.Now().UnixNano()
	if now < g.pausedUntil.Load() {
		g.failed.Add(1)
		return Result{Allowed: true, Limit: limit}, false
	}
	res, err := g.Limiter.Allow(ctx, bucket, limit)
	if err == nil {
		return res, true
	}
	if ctx.Err() != nil {
		// The client went away; that says nothing about the backend.
		return Result{Allowed: true, Limit: limit}, false
	}
	g.pausedUntil.Store(now + int64(pauseAfterFailure))
	n := g.failed.Add(1)
	if last := g.lastLog.Load(); now-last >= int64(logInterval) && g.lastLog.CompareAndSwap(last, now) {
		g.failed.Store(0)
		// The bucket names an organization or an address, never a key.
		g.Logger.ErrorContext(ctx, "rate limiter unavailable; allowing requests (fail open)",
			slog.String("error", err.Error()), slog.Int64("failures_since_last_log", n))
	}
	return Result{Allowed: true, Limit: limit}, false
}
