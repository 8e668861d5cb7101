package httpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

// countingLimiter allows the first allow requests of every bucket and
// refuses the rest, asking for retryAfter.
type countingLimiter struct {
	allow      int
	retryAfter time.Duration

	mu   sync.Mutex
	seen map[string]int
}

func (l *countingLimiter) Allow(_ context.Context, bucket string, limit ratelimit.Limit) (ratelimit.Result, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[bucket]++
	if l.seen[bucket] <= l.allow {
		return ratelimit.Result{Allowed: true, Limit: limit, Remaining: l.allow - l.seen[bucket], ResetAfter: time.Minute}, nil
	}
	return ratelimit.Result{Limit: limit, RetryAfter: l.retryAfter, ResetAfter: time.Minute}, nil
}

func TestRateLimitedSharePageIsHTML(t *testing.T) {
	t.Parallel()
	limiter := &countingLimiter{allow: 1, retryAfter: 41500 * time.Millisecond, seen: map[string]int{}}
	var served int
	var mu sync.Mutex
	e, err := New(Deps{
		Logger:         slog.New(slog.DiscardHandler),
		RequestTimeout: 5 * time.Second,
		RateLimits:     RateLimits{Limiter: limiter, IPPerMinute: 1},
		SharedReport: func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			served++
			mu.Unlock()
			report.HTMLHeaders(w.Header())
			w.WriteHeader(http.StatusNotFound)
			_ = report.WriteHTMLGone(w, http.StatusNotFound, report.Brand{})
		},
	})
	require.NoError(t, err)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	do := func(method, path, acceptLanguage string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		require.NoError(t, err)
		if acceptLanguage != "" {
			req.Header.Set("Accept-Language", acceptLanguage)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, string(body)
	}

	// The first request reaches the page; the address's allowance is spent.
	resp, _ := do(http.MethodGet, "/r/gss_abcdefgh", "")
	require.Equal(t, http.StatusNotFound, resp.StatusCode)

	resp, body := do(http.MethodGet, "/r/gss_abcdefgh", "de-AT, de;q=0.9, en;q=0.5")
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	require.Equal(t, "42", resp.Header.Get("Retry-After"), "rounded up from the limiter's wait")
	require.Equal(t, "1", resp.Header.Get(ratelimit.HeaderLimit))
	require.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	require.Equal(t, "noindex, nofollow", resp.Header.Get("X-Robots-Tag"))
	require.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'none'")
	require.Contains(t, body, `<html lang="de">`)
	require.Contains(t, body, "<h1>Zu viele Anfragen</h1>")
	require.NotContains(t, body, "GeoScan", "the link is not looked up, so its brand is unknown: nobody's is shown")
	require.NotContains(t, body, `"error"`)
	require.False(t, json.Valid([]byte(body)))

	resp, body = do(http.MethodGet, "/r/gss_abcdefgh", "ja, fr-CA;q=0.8")
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	require.Contains(t, body, "<h1>Trop de requêtes</h1>")

	resp, body = do(http.MethodGet, "/r/gss_abcdefgh", "")
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	require.Contains(t, body, "<h1>Too many requests</h1>")

	resp, body = do(http.MethodHead, "/r/gss_abcdefgh", "es")
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	require.Equal(t, "42", resp.Header.Get("Retry-After"))
	require.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
	require.Empty(t, body)

	mu.Lock()
	require.Equal(t, 1, served, "refused requests never reach the page")
	mu.Unlock()

	// The API's refusals keep the envelope.
	resp, body = do(http.MethodGet, "/api/v1/usage", "de")
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	require.Equal(t, "42", resp.Header.Get("Retry-After"))
	require.Contains(t, resp.Header.Get("Content-Type"), "application/json")
	var env struct{ Error struct{ Code string } }
	require.NoError(t, json.Unmarshal([]byte(body), &env), body)
	require.Equal(t, "ip_rate_limit_exceeded", env.Error.Code)
}

func TestAcceptedLanguage(t *testing.T) {
	t.Parallel()
	for header, want := range map[string]string{
		"":                        "en",
		"de":                      "de",
		"de-CH":                   "de",
		"fr-CA, en;q=0.8":         "fr",
		"en-GB, es;q=0.9":         "en",
		"ja, es-MX;q=0.5":         "es",
		"ja":                      "en",
		"*":                       "en",
		"q=;;;,,":                 "en",
		strings.Repeat("x-", 200): "en",
	} {
		require.Equal(t, want, acceptedLanguage(header), header)
	}
}
