package crawl

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

func robotsResp(body string) (*fetch.Response, *robots.File) {
	r := &fetch.Response{Purpose: fetch.Robots, URL: "https://example.com/robots.txt", Status: 200, Body: []byte(body), Header: http.Header{}}
	return r, robots.Parse(r)
}

func TestCrawlDelayIsReadForGeoScanThenStar(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body string
		want time.Duration
	}{
		{"User-agent: *\nCrawl-delay: 4\n", 4 * time.Second},
		{"User-agent: *\nCrawl-delay: 4\n\nUser-agent: GeoScan\nCrawl-delay: 1.5\n", 1500 * time.Millisecond},
		{"User-agent: Googlebot\nUser-agent: geoscan/1.0\nDisallow: /x\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 9\n", 2 * time.Second},
		{"User-agent: Googlebot\nCrawl-delay: 30\n", 0},
		{"User-agent: *\nCrawl-delay: soon\n", 0},
		{"User-agent: *\nCrawl-delay: -3\n", 0},
		{"User-agent: *\nCrawl-delay: 1e300\n", maxDelay},
		{"User-agent: *\nCrawl-delay: NaN\n", 0},
	}
	for _, c := range cases {
		resp, file := robotsResp(c.body)
		require.Equal(t, c.want, crawlDelay(resp, file), c.body)
	}
	require.Zero(t, crawlDelay(&fetch.Response{Status: 503}, robots.Parse(&fetch.Response{Status: 503})))
	require.Zero(t, crawlDelay(nil, nil))
}

func TestRetryAfterReadsSecondsAndDates(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	h := func(v string) http.Header { return http.Header{"Retry-After": {v}} }
	d, ok := retryAfter(h("7"), now)
	require.True(t, ok)
	require.Equal(t, 7*time.Second, d)
	d, ok = retryAfter(h(now.Add(90*time.Second).Format(http.TimeFormat)), now)
	require.True(t, ok)
	require.Equal(t, 90*time.Second, d)
	d, ok = retryAfter(h(now.Add(-time.Hour).Format(http.TimeFormat)), now)
	require.True(t, ok)
	require.Zero(t, d)
	d, ok = retryAfter(h("99999999999999"), now)
	require.True(t, ok)
	require.Equal(t, maxDelay, d)
	for _, v := range []string{"", "-1", "soon", "1.5"} {
		_, ok := retryAfter(h(v), now)
		require.False(t, ok, v)
	}
}

func TestHostSpacesRequestsAtTheRate(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	h := newHost(Options{Rate: 4, clock: clk}.withDefaults())
	ctx := context.Background()
	for range 3 {
		require.NoError(t, h.wait(ctx))
	}
	require.Equal(t, []time.Duration{250 * time.Millisecond, 250 * time.Millisecond}, clk.slept())

	// A Crawl-delay slows it; one below the rate's spacing does not
	// speed it up.
	h.setDelay(3 * time.Second)
	require.NoError(t, h.wait(ctx))
	require.NoError(t, h.wait(ctx))
	require.Equal(t, 3*time.Second, clk.slept()[len(clk.slept())-1])
	require.Equal(t, 3*time.Second, h.interval())
	h.setDelay(10 * time.Millisecond)
	require.Equal(t, 250*time.Millisecond, h.interval())

	// A pause holds the next request for its length.
	h.pause(20 * time.Second)
	require.NoError(t, h.wait(ctx))
	require.Contains(t, clk.slept(), 20*time.Second)

	free := newHost(Options{Unthrottled: true, clock: clk}.withDefaults())
	before := len(clk.slept())
	for range 5 {
		require.NoError(t, free.wait(ctx))
	}
	require.Len(t, clk.slept(), before, "unthrottled requests never wait")
	require.Zero(t, free.interval())
}
