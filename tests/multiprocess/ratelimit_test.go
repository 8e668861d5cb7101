package multiprocess

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
)

// The limits under test are large enough to be leased (100 a minute or
// more); smaller ones are decided by the store exactly.
const (
	orgReadLimit = 500 // set with geoscan org set-limits
	ipLimit      = 200 // GEOSCAN_IP_RATE_LIMIT
	processes    = 2
)

// share is the most of a limit one process holds, as documented: 2 %.
func share(limit int) int { return limit / 50 }

// TestRateLimitsAcrossProcesses hammers two API processes that share one
// organization's api_read limit (500 a minute, set with `geoscan org
// set-limits`; requests spread evenly, then one in ten to one process) and
// one client address's limit (200 a minute), with the
// PostgreSQL store and, when a Redis answers, with Redis. Across both
// processes the requests admitted stay within the documented bound (the
// limit, plus what refilled during the run, plus 2 % of the limit per
// process; and at least the limit less that), every answer carries the
// group's headers, every refusal is a 429 with Retry-After and the envelope,
// and no X-RateLimit-Remaining understates what was still admitted after
// it by more than the same bound, nor, once both processes hear each
// other's grants, overstates it by more than one process's share.
func TestRateLimitsAcrossProcesses(t *testing.T) {
	t.Run("Postgres", func(t *testing.T) {
		testSharedLimits(t)
	})
	t.Run("Redis", func(t *testing.T) {
		skipWithoutRedis(t)
		testSharedLimits(t, "GEOSCAN_REDIS_URL=redis://"+redisAddr+"/0")
	})
}

func testSharedLimits(t *testing.T, env ...string) {
	p := startPair(t, append([]string{
		"GEOSCAN_IP_RATE_LIMIT=" + strconv.Itoa(ipLimit),
		// The test sends each caller's address through loopback, as a
		// proxy would.
		"GEOSCAN_TRUSTED_PROXIES=127.0.0.1",
	}, env...)...)
	// Remaining is only as truthful as documented while each process hears
	// the others' grants.
	for i, proc := range p.procs {
		binarytest.Until(t, 30*time.Second, "the rate limiter of "+p.hs[i].BaseURL+" to hear announcements", func() bool {
			return strings.Contains(proc.Logs(), `"msg":"rate limit announcements on`)
		}, proc)
	}
	const callers, perCaller = 8, 90
	// orgCallers returns the requests of callers of a new organization
	// limited to orgReadLimit reads a minute with the CLI. Each caller has
	// an address of its own, whose requests stay far below the address
	// limit: only the organization's limit counts.
	orgCallers := func(t *testing.T) func(c int) (string, []string) {
		t.Helper()
		org := p.hs[0].NewOrg(t, "free", true)
		p.cli(t, "org", "set-limits", org.ID.String(), "--api-read", strconv.Itoa(orgReadLimit))
		addrs := make([]string, callers)
		for c := range addrs {
			addrs[c] = clientAddress()
		}
		return func(c int) (string, []string) { return org.Key, []string{"X-Forwarded-For", addrs[c]} }
	}
	t.Run("Organization", func(t *testing.T) {
		run := hammer(t, p, callers, perCaller, alternate, orgCallers(t))
		run.check(t, "api_read", orgReadLimit, http.StatusOK, "org_rate_limit_exceeded")
	})
	// As behind a load balancer that sends one request in ten to the first
	// process: the bound does not depend on how requests are spread.
	t.Run("OrganizationSkewed", func(t *testing.T) {
		run := hammer(t, p, callers, perCaller, oneInTen, orgCallers(t))
		run.check(t, "api_read", orgReadLimit, http.StatusOK, "org_rate_limit_exceeded")
	})

	t.Run("Address", func(t *testing.T) {
		// Requests without a key from one address, as a key guesser's:
		// those the address layer lets through are 401.
		addr := clientAddress()
		run := hammer(t, p, callers, 40, alternate, func(int) (string, []string) {
			return "", []string{"X-Forwarded-For", addr}
		})
		for _, s := range run.samples {
			if s.resp.Status == http.StatusUnauthorized {
				s.resp.RequireError(t, http.StatusUnauthorized, "api_key_required", "")
			}
		}
		run.check(t, "ip", ipLimit, http.StatusUnauthorized, "ip_rate_limit_exceeded")
	})
}

// clientAddress is an address of its own for one caller: a random /64 of
// the documentation prefix, so no run meets another's bucket in Redis.
func clientAddress() string {
	return fmt.Sprintf("2001:db8:%x:%x::1", rand.IntN(1<<16), rand.IntN(1<<16))
}

// sample is one request and its answer, with when it was sent and when
// the answer was read.
type sample struct {
	proc           int
	sent, received time.Time
	resp           apitest.Response
}

type hammerRun struct {
	start, end time.Time
	// firstDrained is when the first process drained refused.
	firstDrained time.Time
	samples      []sample
}

// alternate sends request i of caller c to the processes in turn.
func alternate(c, i int) int { return (c + i) % 2 }

// oneInTen sends one request in ten to the first process.
func oneInTen(c, i int) int {
	if (c*7+i)%10 == 0 {
		return 0
	}
	return 1
}

// hammer sends callers × perCaller GET /usage requests at once, request i
// of caller c to process route(c, i); request(c) gives caller c's key and
// headers. Then it drains each process in turn, as caller 0, until it
// refuses: a process refuses only when it holds no token and the shared
// bucket has none, so nothing is left unspent when the run ends but what
// refilled since (and a refusal is not an admitted request).
func hammer(t *testing.T, p *pair, callers, perCaller int, route func(c, i int) int, request func(c int) (string, []string)) hammerRun {
	t.Helper()
	run := hammerRun{start: time.Now()}
	per := make([][]sample, callers)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key, headers := request(c)
			for i := range perCaller {
				h := p.hs[route(c, i)]
				s := sample{proc: route(c, i), sent: time.Now()}
				s.resp = h.Do(t, "GET", "/api/v1/usage", key, nil, headers...)
				s.received = time.Now()
				per[c] = append(per[c], s)
			}
		}()
	}
	wg.Wait()
	for _, ss := range per {
		run.samples = append(run.samples, ss...)
	}
	require.Len(t, run.samples, callers*perCaller)
	key, headers := request(0)
	for i, h := range p.hs {
		for refused := false; !refused; {
			require.Less(t, len(run.samples), callers*perCaller+200, "a process admits beyond its limit")
			s := sample{proc: i, sent: time.Now()}
			s.resp = h.Do(t, "GET", "/api/v1/usage", key, nil, headers...)
			s.received = time.Now()
			run.samples = append(run.samples, s)
			refused = s.resp.Status == http.StatusTooManyRequests
		}
		if run.firstDrained.IsZero() {
			run.firstDrained = time.Now()
		}
	}
	run.end = time.Now()
	return run
}

// inFlight is how long an announcement may take to arrive on a loaded
// machine, for the allowance in check.
const inFlight = 25 * time.Millisecond

// refilled is how many requests a bucket of limit a minute gets back
// between from and to, rounded up.
func refilled(limit int, from, to time.Time) int {
	return int(to.Sub(from)/(time.Minute/time.Duration(limit))) + 1
}

// check asserts the documented bound on a hammered bucket: admitted
// answers have status admitted, refusals are 429 with code.
func (run hammerRun) check(t *testing.T, group string, limit, admitted int, code string) {
	t.Helper()
	bound := processes * share(limit)
	var allowed, refused int
	for _, s := range run.samples {
		r := s.resp
		require.Equal(t, group, r.Header.Get("X-RateLimit-Group"), "status %d, body %s", r.Status, r.Body)
		require.Equal(t, limit, headerInt(t, r, "X-RateLimit-Limit"))
		remaining := headerInt(t, r, "X-RateLimit-Remaining")
		reset := int64(headerInt(t, r, "X-RateLimit-Reset"))
		// Unix seconds at most a minute after the answer (loose: no timing).
		require.GreaterOrEqual(t, reset, s.sent.Unix())
		require.LessOrEqual(t, reset, s.received.Add(time.Minute).Unix()+1)
		switch r.Status {
		case admitted:
			allowed++
			require.GreaterOrEqual(t, remaining, 0)
			require.Less(t, remaining, limit)
		default:
			refused++
			r.RequireError(t, http.StatusTooManyRequests, code, "")
			e := r.Error(t)
			require.Equal(t, "rate_limit_error", string(e.Error.Type))
			require.Nil(t, e.Error.Param)
			require.Contains(t, e.Error.Message, strconv.Itoa(limit))
			retry := headerInt(t, r, "Retry-After")
			require.GreaterOrEqual(t, retry, 1)
			require.LessOrEqual(t, retry, 60)
			require.Zero(t, remaining)
		}
	}
	refill := refilled(limit, run.start, run.end)
	t.Logf("%s: %d requests through %d processes, %d admitted, %d refused; limit %d, refilled during the run %d, bound ±%d",
		group, len(run.samples), processes, allowed, refused, limit, refill, bound)
	require.LessOrEqual(t, allowed, limit+refill+bound, "more admitted than the limit allows across processes")
	require.GreaterOrEqual(t, allowed, limit-bound, "fewer admitted than the limit allows across processes")
	require.Positive(t, refused, "the run should exhaust the limit")

	// X-RateLimit-Remaining is what this process holds plus its view of the
	// shared bucket: its last exchange with it, moved forward by every
	// grant the other process announced. What was admitted of the requests
	// sent after an answer came back was, when that answer was decided, in
	// the shared bucket or held by a process (or refilled since), so it is
	// at most the answer's Remaining plus the bound, and one for rounding:
	// the header never understates by more.
	//
	// The other way, what was admitted of the requests answered after an
	// answer was sent is at least its Remaining less what the other
	// process had been granted in announcements not yet heard and spent
	// by then, and one for rounding; the drain leaves nothing unspent but
	// what refilled after the first process refused. An announcement
	// arrives within a loopback round trip, well under a millisecond, so
	// what was not heard is normally at most one take, one share; but on a
	// loaded machine (CI's two cores run both processes, the database and
	// this test) its delivery can be held up for tens of milliseconds. The
	// allowance for that is what the other process admitted in the
	// inFlight before the answer was sent: a process that did not hear
	// announcements at all would overstate by what the other admitted
	// since its last exchange, up to a lease lifetime (measured 59 to 73
	// in the skewed phase), which this still fails.
	// overBeyond is the most an answer overstated beyond its allowance.
	var under, over, overBeyond int
	var worst sample
	for i, s := range run.samples {
		if s.resp.Status != admitted {
			continue
		}
		remaining := headerInt(t, s.resp, "X-RateLimit-Remaining")
		// sentAfter were decided after this answer; answeredAfter include
		// every request decided after it.
		sentAfter, answeredAfter := 0, 0
		for j, later := range run.samples {
			if j == i || later.resp.Status != admitted {
				continue
			}
			if later.sent.After(s.received) {
				sentAfter++
			}
			if later.received.After(s.sent) {
				answeredAfter++
			}
		}
		refill := refilled(limit, s.received, run.end)
		require.LessOrEqual(t, sentAfter, remaining+bound+refill+1,
			"X-RateLimit-Remaining %d, yet %d admitted after it (refilled %d)", remaining, sentAfter, refill)
		under = max(under, sentAfter-refill-remaining)
		// inFlightAdmitted is the allowance for announcements in flight.
		inFlightAdmitted := 0
		for _, other := range run.samples {
			if other.proc != s.proc && other.resp.Status == admitted &&
				other.received.Before(s.sent) && other.received.After(s.sent.Add(-inFlight)) {
				inFlightAdmitted++
			}
		}
		over = max(over, remaining-answeredAfter)
		if remaining-answeredAfter-inFlightAdmitted > overBeyond {
			overBeyond, worst = remaining-answeredAfter-inFlightAdmitted, s
		}
	}
	t.Logf("%s: X-RateLimit-Remaining against what was admitted after it: at most %d under (refill aside), at most %d over (%d beyond what the other process admitted in the %s before); bound %d",
		group, under, over, overBeyond, inFlight, bound)
	require.LessOrEqual(t, overBeyond, (processes-1)*share(limit)+1+refilled(limit, run.firstDrained, run.end),
		"X-RateLimit-Remaining overstates what was admitted after it by more than one share and what was in flight: process %d, %s into the run",
		worst.proc, worst.sent.Sub(run.start))
}
