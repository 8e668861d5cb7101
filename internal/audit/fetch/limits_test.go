package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// slowly writes the headers, then one byte per tick until the client
// leaves; it is the tarpit in miniature.
func slowly(tick time.Duration, chunk int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		_ = rc.Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(tick):
			}
			if _, err := w.Write([]byte(strings.Repeat("x", chunk))); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}

// TestEachFetchHasLimitsOfItsOwn: whichever limit cuts a fetch short is the
// one its error names, with its value. The limits are scaled down so each
// case ends in well under a second; the margins between them are wide, so
// only one limit can be the first to fire.
func TestEachFetchHasLimitsOfItsOwn(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/drip", slowly(100*time.Millisecond, 1))
	mux.HandleFunc("/stream", slowly(10*time.Millisecond, 4096))
	mux.HandleFunc("/silent", func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	// Headers that never end: a status line, then a byte at a time.
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		defer func() { _ = conn.Close() }()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nX-Wait: ")
		for buf.Flush() == nil {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
			_ = buf.WriteByte('z')
		}
	})
	mux.HandleFunc("/fast", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("<p>fine</p>"))
	})

	ctx := context.Background()
	limits := Options{RequestTimeout: 20 * time.Second, HeaderTimeout: 10 * time.Second, MinBytesPerSecond: 1000, RateGrace: 300 * time.Millisecond}
	f, base := testFetcher(t, mux, limits)

	slow := f.Do(ctx, Request{URL: base + "/drip"})
	var le *LimitError
	require.ErrorAs(t, slow.Err, &le)
	require.Equal(t, LimitRate, le.Limit)
	require.Equal(t, "timeout", Describe(slow.Err).Code)
	require.Contains(t, slow.ErrorText(), "below the minimum transfer rate of 1000 bytes/s")
	require.Equal(t, 200, slow.Status, "the headers had arrived")
	require.Less(t, slow.Bytes, 1000)

	ok := f.Do(ctx, Request{URL: base + "/fast"})
	require.NoError(t, ok.Err)
	require.Equal(t, "<p>fine</p>", string(ok.Body))

	short := limits
	short.HeaderTimeout = 300 * time.Millisecond
	f, base = testFetcher(t, mux, short)
	for _, path := range []string{"/silent", "/headers"} {
		r := f.Do(ctx, Request{URL: base + path})
		require.ErrorAs(t, r.Err, &le, path)
		require.Equal(t, LimitHeaders, le.Limit, path)
		require.Equal(t, "no complete response headers arrived within 300ms (the per-request limit for headers)", r.ErrorText(), path)
		require.Zero(t, r.Status, path)
	}

	total := limits
	total.RequestTimeout, total.HeaderTimeout = 600*time.Millisecond, 500*time.Millisecond
	f, base = testFetcher(t, mux, total)
	r := f.Do(ctx, Request{URL: base + "/stream"})
	require.ErrorAs(t, r.Err, &le, "status %d, %d bytes, %v", r.Status, r.Bytes, r.Duration)
	require.Equal(t, LimitTotal, le.Limit, r.ErrorText())
	require.Equal(t, "the response was not complete within 600ms (the per-request limit)", r.ErrorText())
	require.Positive(t, r.Bytes, "the body was arriving quickly")
}

// TestTheCallersBudgetIsNotBlamedOnTheSite: a fetch cut short by the
// scan's budget says so, and a cancelled one carries the caller's cause.
func TestTheCallersBudgetIsNotBlamedOnTheSite(t *testing.T) {
	t.Parallel()
	// Each request says which it is: under load the first may be cut
	// short before it reaches the server at all.
	arrived := make(chan string, 16)
	f, base := testFetcher(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		arrived <- r.URL.Path
		<-r.Context().Done()
	}), Options{})
	ctx, cancel := context.WithTimeoutCause(context.Background(), 200*time.Millisecond, ErrBudget)
	defer cancel()
	r := f.Do(ctx, Request{URL: base + "/"})
	require.ErrorIs(t, r.Err, ErrBudget)
	require.Equal(t, Failure{"timeout", "the scan's time budget ran out before this request finished"}, Describe(r.Err))

	// Cancelled once the request is in flight, as a worker's shutdown does.
	stop := errors.New("stop initiated")
	ctx, cancelCause := context.WithCancelCause(context.Background())
	go func() {
		for p := range arrived {
			if p == "/in-flight" {
				cancelCause(stop)
				return
			}
		}
	}()
	r = f.Do(ctx, Request{URL: base + "/in-flight"})
	require.ErrorIs(t, r.Err, stop)

	// A homepage cut short fails the audit with the limit in its message.
	target, err := url.Parse(base + "/")
	require.NoError(t, err)
	g, err := New(Options{AllowPrivate: true, ExtraCAFile: f.opts.ExtraCAFile, HeaderTimeout: 200 * time.Millisecond})
	require.NoError(t, err)
	_, err = g.Site(context.Background(), target)
	var homeErr *HomeError
	require.ErrorAs(t, err, &homeErr)
	require.Equal(t, "timeout", homeErr.Code)
	require.Equal(t, "The homepage could not be fetched: no complete response headers arrived within 200ms (the per-request limit for headers).", homeErr.Message)
}

// TestMalformedHeadersAreExplained: a NUL in a header value is refused by
// the client (RFC 9110 section 5.5 allows rejecting the message); the
// error says so and quotes the line escaped, so it can be stored.
func TestMalformedHeadersAreExplained(t *testing.T) {
	t.Parallel()
	f, base := testFetcher(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		defer func() { _ = conn.Close() }()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nX-Baker: Nul\x00Baker\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
		_ = buf.Flush()
	}), Options{})
	r := f.Do(context.Background(), Request{URL: base + "/"})
	fl := Describe(r.Err)
	require.Equal(t, "connection_failed", fl.Code)
	require.Contains(t, fl.Message, "malformed response header")
	require.Contains(t, fl.Message, `X-Baker: Nul\x00Baker`)
	require.NotContains(t, fl.Message, "\x00")
}
