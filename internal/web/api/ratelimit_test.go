package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// The test vector of POST /webhooks/verify: an api_write request that
// creates nothing.
var verifyBody = map[string]any{
	"payload":   `{"event":"scan.test","scan_id":"test_0"}`,
	"signature": "v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d",
	"secret":    "whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw==",
}

func headerInt(t *testing.T, r apitest.Response, name string) int64 {
	t.Helper()
	v := r.Header.Get(name)
	require.NotEmpty(t, v, "%s missing (status %d)", name, r.Status)
	n, err := strconv.ParseInt(v, 10, 64)
	require.NoError(t, err, "%s: %q", name, v)
	return n
}

// requireRateHeaders checks the X-RateLimit-* headers of one response.
func requireRateHeaders(t *testing.T, r apitest.Response, group string, limit, remaining int) {
	t.Helper()
	require.Equal(t, group, r.Header.Get("X-RateLimit-Group"), "status %d, body %s", r.Status, r.Body)
	require.EqualValues(t, limit, headerInt(t, r, "X-RateLimit-Limit"))
	require.EqualValues(t, remaining, headerInt(t, r, "X-RateLimit-Remaining"))
	reset := headerInt(t, r, "X-RateLimit-Reset")
	// Unix seconds within the next minute (a loose bound: no timing).
	require.GreaterOrEqual(t, reset, time.Now().Add(-time.Minute).Unix())
	require.LessOrEqual(t, reset, time.Now().Add(2*time.Minute).Unix())
}

func requireRefused(t *testing.T, r apitest.Response, code string) {
	t.Helper()
	r.RequireError(t, http.StatusTooManyRequests, code, "")
	e := r.Error(t)
	require.Equal(t, "rate_limit_error", string(e.Error.Type))
	require.Nil(t, e.Error.Param)
	require.NotEmpty(t, e.Error.Message)
	retry := headerInt(t, r, "Retry-After")
	require.GreaterOrEqual(t, retry, int64(1))
	require.LessOrEqual(t, retry, int64(60))
}

func countScans(t *testing.T, h *apitest.Harness, org apitest.Org) int {
	t.Helper()
	var n int
	require.NoError(t, h.Store.Pool().QueryRow(context.Background(), "SELECT count(*) FROM scans WHERE org_id = $1", org.ID).Scan(&n))
	return n
}

func setRateOverrides(t *testing.T, h *apitest.Harness, org apitest.Org, write, read any) {
	t.Helper()
	_, err := h.Store.Pool().Exec(context.Background(),
		"UPDATE organizations SET rate_limit_write_override = $2, rate_limit_read_override = $3 WHERE id = $1", org.ID, write, read)
	require.NoError(t, err)
}

// The free plan allows 10 api_write requests a minute: the 11th is refused
// with the envelope, the headers and Retry-After, and has no effect.
func TestOrgRateLimitFreePlanWrites(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)
	// Quota is not what this test is about: 10 scans must fit in the day.
	_, err := h.Store.Pool().Exec(ctx, "UPDATE organizations SET daily_scan_quota_override = 100 WHERE id = $1", org.ID)
	require.NoError(t, err)

	for i := range 10 {
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
		require.Equal(t, http.StatusCreated, r.Status, "request %d: %s", i+1, r.Body)
		requireRateHeaders(t, r, "api_write", 10, 9-i)
	}
	refused := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"}, "Idempotency-Key", "rl-1")
	requireRefused(t, refused, "org_rate_limit_exceeded")
	requireRateHeaders(t, refused, "api_write", 10, 0)
	require.Contains(t, refused.Error(t).Error.Message, "api_write")

	// Nothing was created and no quota used by the refused request, and
	// its idempotency key was not taken.
	require.Equal(t, 10, countScans(t, h, org))
	var keys int
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT count(*) FROM idempotency_keys WHERE org_id = $1", org.ID).Scan(&keys))
	require.Zero(t, keys)
	usage := h.Do(t, "GET", "/api/v1/usage", org.Key, nil)
	require.Equal(t, http.StatusOK, usage.Status)
	var u struct{ Used int }
	usage.JSON(t, &u)
	require.Equal(t, 10, u.Used)

	// Every write counts, whatever it is: schedules, webhook tests, and a
	// request that would fail validation are all refused now.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/v1/schedules", map[string]any{"url": "https://example.com/", "frequency": "monthly"}},
		{"POST", "/api/v1/webhooks/verify", verifyBody},
		{"POST", "/api/v1/scans", map[string]any{"url": 42}},
		{"DELETE", "/api/v1/scans/" + uuid.NewString(), nil},
	} {
		requireRefused(t, h.Do(t, c.method, c.path, org.Key, c.body), "org_rate_limit_exceeded")
	}
	var schedules int
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT count(*) FROM schedules WHERE org_id = $1", org.ID).Scan(&schedules))
	require.Zero(t, schedules)
}

// Reads have their own group: exhausting writes leaves reads alone and the
// other way round; a response that is an error still carries the headers.
func TestOrgRateLimitReadsAreSeparate(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)
	setRateOverrides(t, h, org, 2, 3)

	for i := range 2 {
		r := h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody)
		require.Equal(t, http.StatusOK, r.Status)
		requireRateHeaders(t, r, "api_write", 2, 1-i)
	}
	requireRefused(t, h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody), "org_rate_limit_exceeded")

	list := h.Do(t, "GET", "/api/v1/scans", org.Key, nil)
	require.Equal(t, http.StatusOK, list.Status)
	requireRateHeaders(t, list, "api_read", 3, 2)
	// A 404 is an answered request: it counts and says so.
	missing := h.Do(t, "GET", "/api/v1/scans/"+uuid.NewString(), org.Key, nil)
	missing.RequireError(t, http.StatusNotFound, "scan_not_found", "")
	requireRateHeaders(t, missing, "api_read", 3, 1)
	require.Equal(t, http.StatusOK, h.Do(t, "GET", "/api/v1/usage", org.Key, nil).Status)
	refused := h.Do(t, "GET", "/api/v1/usage", org.Key, nil)
	requireRefused(t, refused, "org_rate_limit_exceeded")
	requireRateHeaders(t, refused, "api_read", 3, 0)

	// Another organization is not affected.
	other := h.NewOrg(t, "free", true)
	r := h.Do(t, "GET", "/api/v1/scans", other.Key, nil)
	require.Equal(t, http.StatusOK, r.Status)
	requireRateHeaders(t, r, "api_read", 120, 119)
}

// Plans and overrides set the limits, read on every request.
func TestOrgRateLimitPlansAndOverrides(t *testing.T) {
	t.Parallel()
	h := start(t)

	pro := h.NewOrg(t, "pro", true)
	requireRateHeaders(t, h.Do(t, "GET", "/api/v1/scans", pro.Key, nil), "api_read", 1200, 1199)
	requireRateHeaders(t, h.Do(t, "POST", "/api/v1/webhooks/verify", pro.Key, verifyBody), "api_write", 60, 59)

	org := h.NewOrg(t, "free", true)
	setRateOverrides(t, h, org, 3, nil)
	for i := range 3 {
		r := h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody)
		require.Equal(t, http.StatusOK, r.Status)
		requireRateHeaders(t, r, "api_write", 3, 2-i)
	}
	requireRefused(t, h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody), "org_rate_limit_exceeded")
	// The read limit without an override is the plan's.
	requireRateHeaders(t, h.Do(t, "GET", "/api/v1/scans", org.Key, nil), "api_read", 120, 119)

	// GET /usage reports the limits in force.
	var u struct {
		RateLimits struct {
			APIWrite int `json:"api_write"`
			APIRead  int `json:"api_read"`
		} `json:"rate_limits"`
	}
	h.Do(t, "GET", "/api/v1/usage", org.Key, nil).JSON(t, &u)
	require.Equal(t, 3, u.RateLimits.APIWrite)
	require.Equal(t, 120, u.RateLimits.APIRead)
}

// Two application instances on one database share an organization's
// counters: five writes through each use up the free plan's ten. (The same
// across real processes: tests/multiprocess.)
func TestOrgRateLimitIsSharedAcrossInstances(t *testing.T) {
	t.Parallel()
	a := start(t)
	b := apitest.Start(t, pgtest.URL(), apitest.Options{})
	org := a.NewOrg(t, "free", true)

	for i := range 10 {
		h := a
		if i%2 == 1 {
			h = b
		}
		r := h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody)
		require.Equal(t, http.StatusOK, r.Status, "request %d", i+1)
		requireRateHeaders(t, r, "api_write", 10, 9-i)
	}
	requireRefused(t, a.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody), "org_rate_limit_exceeded")
	requireRefused(t, b.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody), "org_rate_limit_exceeded")
}

// Under a limit large enough to be leased (500 a minute: each instance may
// hold up to 10 requests of it), two application instances hammered at once
// stay within the documented bound: at most the limit, plus what refilled
// during the run, plus 2 × 10; and at least the limit less 2 × 10. Every
// answer carries the headers, and every refusal is a 429 with Retry-After.
func TestOrgRateLimitLeasedAcrossInstances(t *testing.T) {
	t.Parallel()
	a := start(t)
	b := start(t)
	org := a.NewOrg(t, "free", true)
	const limit, share, processes = 500, 10, 2
	setRateOverrides(t, a, org, nil, limit)

	start := time.Now()
	const callers, perCaller = 8, 90
	responses := make([][]apitest.Response, callers)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perCaller {
				h := a
				if (c+i)%2 == 1 {
					h = b
				}
				responses[c] = append(responses[c], h.Do(t, "GET", "/api/v1/usage", org.Key, nil))
			}
		}()
	}
	wg.Wait()
	var allowed int
	for _, rs := range responses {
		for _, r := range rs {
			require.Equal(t, "api_read", r.Header.Get("X-RateLimit-Group"))
			require.Equal(t, strconv.Itoa(limit), r.Header.Get("X-RateLimit-Limit"))
			if r.Status == http.StatusOK {
				allowed++
				continue
			}
			requireRefused(t, r, "org_rate_limit_exceeded")
		}
	}
	// The bucket refills by one request every 120 ms.
	refilled := int(time.Since(start)/(time.Minute/limit)) + 1
	require.LessOrEqual(t, allowed, limit+refilled+processes*share)
	require.GreaterOrEqual(t, allowed, limit-processes*share)
}

// testClientAddress is an address of its own for one test, sent through
// the loopback proxy the IP tests trust: every other test's requests come
// from 127.0.0.1.
func testClientAddress() string {
	return fmt.Sprintf("198.18.%d.%d", rand.IntN(256), 1+rand.IntN(254))
}

// The IP layer counts before authentication, so a flood of bad keys is cut
// off with its own code, and then even a valid key from that address is.
func TestIPRateLimitStopsKeyGuessing(t *testing.T) {
	t.Parallel()
	h := start(t, apitest.Options{Getenv: map[string]string{
		"GEOSCAN_IP_RATE_LIMIT":   "5",
		"GEOSCAN_TRUSTED_PROXIES": "127.0.0.1",
	}})
	org := h.NewOrg(t, "pro", true)
	addr := testClientAddress()

	bad := "geo_" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	for i := range 5 {
		r := h.Do(t, "GET", "/api/v1/scans", bad, nil, "X-Forwarded-For", addr)
		r.RequireError(t, http.StatusUnauthorized, "api_key_invalid", "")
		requireRateHeaders(t, r, "ip", 5, 4-i)
	}
	for _, key := range []string{bad, "", org.Key} {
		r := h.Do(t, "GET", "/api/v1/scans", key, nil, "X-Forwarded-For", addr)
		requireRefused(t, r, "ip_rate_limit_exceeded")
		requireRateHeaders(t, r, "ip", 5, 0)
	}
	// Everything under /api/ is covered, routes that do not exist included.
	requireRefused(t, h.Do(t, "GET", "/api/v1/nope", "", nil, "X-Forwarded-For", addr), "ip_rate_limit_exceeded")

	// Another address is not affected; an authenticated response shows
	// the organization's group.
	r := h.Do(t, "GET", "/api/v1/scans", org.Key, nil, "X-Forwarded-For", testClientAddress())
	require.Equal(t, http.StatusOK, r.Status)
	requireRateHeaders(t, r, "api_read", 1200, 1199)
	require.NotContains(t, h.Logs(), bad)
}

// When the counter store cannot be reached, requests are allowed (fail
// open) without rate-limit headers, and the failure is logged.
func TestRateLimitFailsOpen(t *testing.T) {
	t.Parallel()
	// Nothing listens on port 1 of loopback.
	h := start(t, apitest.Options{Getenv: map[string]string{"GEOSCAN_REDIS_URL": "redis://127.0.0.1:1/0"}})
	org := h.NewOrg(t, "free", true)
	for range 12 {
		r := h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody)
		require.Equal(t, http.StatusOK, r.Status)
		require.Empty(t, r.Header.Get("X-RateLimit-Limit"))
	}
	require.Contains(t, h.Logs(), "fail open")
}

// The Redis backend enforces the same limits when GEOSCAN_REDIS_URL is set.
func TestOrgRateLimitWithRedis(t *testing.T) {
	t.Parallel()
	const addr = "127.0.0.1:6379"
	conn, err := (&net.Dialer{Timeout: 500 * time.Millisecond}).DialContext(context.Background(), "tcp", addr)
	if err != nil {
		t.Skipf("Redis backend not tested: no Redis at %s (%v); start one there to run this test", addr, err)
	}
	_ = conn.Close()
	env := map[string]string{"GEOSCAN_REDIS_URL": "redis://" + addr + "/0"}
	a := start(t, apitest.Options{Getenv: env})
	b := start(t, apitest.Options{Getenv: env})
	org := a.NewOrg(t, "free", true)
	for i := range 10 {
		h := a
		if i%2 == 1 {
			h = b
		}
		r := h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody)
		require.Equal(t, http.StatusOK, r.Status, "request %d", i+1)
		requireRateHeaders(t, r, "api_write", 10, 9-i)
	}
	requireRefused(t, b.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, verifyBody), "org_rate_limit_exceeded")
	requireRateHeaders(t, a.Do(t, "GET", "/api/v1/scans", org.Key, nil), "api_read", 120, 119)
}
