package crawl

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jimsmart/grobotstxt"
	"golang.org/x/time/rate"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

// Token is the product token GeoScan obeys robots.txt as: the group that
// names it, else the * group.
const Token = fetch.AuditorToken

// maxDelay bounds a Crawl-delay or Retry-After value as read, so that a
// hostile number cannot overflow a duration; the crawl's own bounds
// (MaxRetryWait, the time budget) decide what is actually waited.
const maxDelay = 24 * time.Hour

// host paces the requests of one crawl to its site: the rate (slowed by
// Crawl-delay) and the pause a 429 or 503 asked for. Concurrency is the
// number of workers, not counted here.
type host struct {
	clock clock
	// limiter is nil when the crawl is unthrottled.
	limiter *rate.Limiter
	every   time.Duration // the interval Rate gives

	mu    sync.Mutex
	until time.Time // no request before this (Retry-After)
}

func newHost(o Options) *host {
	h := &host{clock: o.clock}
	if !o.Unthrottled {
		h.every = time.Duration(float64(time.Second) / o.Rate)
		// Burst 1: requests are spaced evenly, never bunched.
		h.limiter = rate.NewLimiter(rate.Every(h.every), 1)
	}
	return h
}

// setDelay spaces requests at least d apart (a Crawl-delay), never
// closer than Rate allows.
func (h *host) setDelay(d time.Duration) {
	if h.limiter == nil {
		return
	}
	h.limiter.SetLimitAt(h.clock.Now(), rate.Every(max(d, h.every)))
}

// interval is the spacing of requests in force; 0 when unthrottled.
func (h *host) interval() time.Duration {
	if h.limiter == nil {
		return 0
	}
	l := h.limiter.Limit()
	if l <= 0 || math.IsInf(float64(l), 1) {
		return 0
	}
	return time.Duration(float64(time.Second) / float64(l))
}

// wait blocks until the next request may start: after any pause a
// Retry-After asked for, then at the rate.
func (h *host) wait(ctx context.Context) error {
	h.mu.Lock()
	until := h.until
	h.mu.Unlock()
	if d := until.Sub(h.clock.Now()); d > 0 {
		if err := h.clock.Sleep(ctx, d); err != nil {
			return err
		}
	}
	if h.limiter == nil {
		return ctx.Err()
	}
	now := h.clock.Now()
	r := h.limiter.ReserveN(now, 1)
	d := r.DelayFrom(now)
	if err := h.clock.Sleep(ctx, d); err != nil {
		r.CancelAt(h.clock.Now())
		return err
	}
	return nil
}

// pause holds every request of the crawl for d: a 429 or 503 speaks for
// the host, not only for the URL that got it.
func (h *host) pause(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t := h.clock.Now().Add(d); t.After(h.until) {
		h.until = t
	}
}

// retryable reports a status that asks the client to come back later.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// retryAfter reads a Retry-After header: delay-seconds or an HTTP date.
// ok is false when there is none or it cannot be read.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(maxDelay/time.Second) {
			return maxDelay, true
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), maxDelay), true
	}
	return 0, false
}

// backoff is the wait before try n+1 (n ≥ 1) when the site gave no
// Retry-After: 1 s, 2 s, 4 s …
func backoff(n int) time.Duration {
	return time.Second << min(n-1, 10)
}

// crawlDelay reads the Crawl-delay of robots.txt that applies to GeoScan:
// the one of a group naming Token, else the one of the * group, as the
// rules are chosen. Groups are read with Google's parser; a value that is
// no non-negative number is ignored. 0 means none.
func crawlDelay(resp *fetch.Response, file *robots.File) time.Duration {
	if resp == nil || file == nil || file.State() != robots.Rules {
		return 0
	}
	body := resp.Body
	if len(body) > robots.MaxParseBytes {
		body = body[:robots.MaxParseBytes]
	}
	d := &delays{named: -1, star: -1}
	grobotstxt.Parse(string(body), d)
	if d.named >= 0 {
		return d.named
	}
	return max(d.star, 0)
}

// delays collects Crawl-delay values per group (grobotstxt.ParseHandler).
type delays struct {
	agents  []string // the user agents of the group being read
	inRules bool     // a record other than User-agent followed them
	// named and star are the first values of the groups naming Token
	// and *; -1 while none was read.
	named time.Duration
	star  time.Duration
}

func (d *delays) HandleRobotsStart() {}
func (d *delays) HandleRobotsEnd()   {}
func (d *delays) HandleUserAgent(_ int, v string) {
	if d.inRules {
		d.agents, d.inRules = nil, false
	}
	d.agents = append(d.agents, productToken(v))
}
func (d *delays) HandleAllow(int, string)    { d.inRules = true }
func (d *delays) HandleDisallow(int, string) { d.inRules = true }
func (d *delays) HandleSitemap(int, string)  {}
func (d *delays) HandleUnknownAction(_ int, action, value string) {
	d.inRules = true
	if !strings.EqualFold(action, "crawl-delay") {
		return
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || math.IsNaN(secs) || secs < 0 {
		return
	}
	v := maxDelay
	if secs < maxDelay.Seconds() {
		v = time.Duration(secs * float64(time.Second))
	}
	for _, a := range d.agents {
		switch {
		case strings.EqualFold(a, Token) && d.named < 0:
			d.named = v
		case a == "*" && d.star < 0:
			d.star = v
		}
	}
}

// productToken is the leading product token of a User-agent value, as
// Google's matcher reads it: letters, '-' and '_'; "*" for the wildcard.
func productToken(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	i := strings.IndexFunc(v, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && r != '-' && r != '_'
	})
	if i >= 0 {
		v = v[:i]
	}
	return v
}
