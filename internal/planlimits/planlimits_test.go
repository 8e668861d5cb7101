package planlimits

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Every plan crawls at the default politeness; an organization's own
// values replace it, held within what a polite crawl may do.
func TestCrawlPoliteness(t *testing.T) {
	t.Parallel()
	for _, plan := range []string{"free", "pro", "unknown"} {
		l := For(plan, Overrides{})
		require.InDelta(t, DefaultCrawlRate, l.CrawlRate, 1e-9, plan)
		require.Equal(t, DefaultCrawlConcurrency, l.CrawlConcurrency, plan)
	}
	rate, inFlight := 6.5, int32(5)
	l := For("pro", Overrides{CrawlRate: &rate, CrawlConcurrency: &inFlight})
	require.InDelta(t, 6.5, l.CrawlRate, 1e-9)
	require.Equal(t, 5, l.CrawlConcurrency)
	require.Equal(t, 500, l.MaxPages, "the other limits are the plan's")

	tooFast, tooMany := 1e6, int32(1000)
	l = For("pro", Overrides{CrawlRate: &tooFast, CrawlConcurrency: &tooMany})
	require.InDelta(t, MaxCrawlRate, l.CrawlRate, 1e-9)
	require.Equal(t, MaxCrawlConcurrency, l.CrawlConcurrency)
	stopped, none := 0.0, int32(0)
	l = For("free", Overrides{CrawlRate: &stopped, CrawlConcurrency: &none})
	require.Positive(t, l.CrawlRate, "a crawl always moves")
	require.Equal(t, 1, l.CrawlConcurrency)
}
