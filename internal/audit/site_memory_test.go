package audit_test

import (
	"context"
	"net/url"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sync/semaphore"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// budget is a worker's memory budget as the scan job's is: reservations
// granted in the order asked, one larger than the whole budget held as
// the whole budget. It records every grant and whether a reservation was
// asked for while the same audit held another.
type budget struct {
	sem  *semaphore.Weighted
	size int64

	mu       sync.Mutex
	asked    []int64
	held     int64
	holds    int
	released int
}

func newBudget(size int64) *budget {
	return &budget{sem: semaphore.NewWeighted(size), size: size}
}

func (b *budget) reserve(ctx context.Context, bytes int64) (func(), error) {
	b.mu.Lock()
	b.asked = append(b.asked, bytes)
	b.mu.Unlock()
	n := min(max(bytes, 1), b.size)
	if err := b.sem.Acquire(ctx, n); err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.held += n
	b.holds++
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.held -= n
			b.holds--
			b.released++
			b.mu.Unlock()
			b.sem.Release(n)
		})
	}, nil
}

func (b *budget) state() (asked []int64, holds, released int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]int64(nil), b.asked...), b.holds, b.released
}

// TestSiteAuditReservesMemoryPerPage: every crawled page that is parsed
// reserves, before it is parsed, the estimate of its HTML (MemoryEstimate's
// rule), and gives it back once judged; the homepage audit's reservation
// is given back before the crawl, so an audit never waits for memory while
// it holds some, and an audit holds at most one reservation per judging
// goroutine.
func TestSiteAuditReservesMemoryPerPage(t *testing.T) {
	_, f := audittest.Sites(t)
	b := newBudget(1 << 40)
	var mu sync.Mutex
	audited, maxHolds := 0, 0
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Megasite, "Northwind Outfitters"), audit.Options{
		Fetcher: f, Now: func() time.Time { return audittest.Now }, Reserve: b.reserve,
		MaxPages: 40, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
		Pages: func(_ context.Context, p audit.PageResult) error {
			_, holds, _ := b.state()
			mu.Lock()
			defer mu.Unlock()
			maxHolds = max(maxHolds, holds)
			if p.Error == "" {
				audited++
			}
			return nil
		},
	})
	require.NoError(t, err)
	require.Equal(t, 40, res.SiteView.PagesPlanned)
	asked, holds, released := b.state()
	// The homepage audit asks once; then each page judged asks once.
	require.Len(t, asked, 1+audited)
	require.Equal(t, audit.MemoryEstimate(res.Site), asked[0])
	for i, n := range asked[1:] {
		// The megasite's pages are all smaller than the floor's worth.
		require.Equal(t, int64(audit.MemoryFloor), n, "page ask %d", i)
	}
	require.Zero(t, holds, "everything given back")
	require.Len(t, asked, released)
	require.LessOrEqual(t, maxHolds, runtime.GOMAXPROCS(0)+1, "one reservation per judging goroutine at most")
}

// TestSiteAuditReservesAHeavyPageBySize: the crawled homepage of the heavy
// fixture (4.9 MB of HTML) reserves 16 bytes a byte of it, like the
// homepage audit before it.
func TestSiteAuditReservesAHeavyPageBySize(t *testing.T) {
	_, f := audittest.Sites(t)
	b := newBudget(1 << 40)
	homeAsks := 0
	res, err := audit.Run(context.Background(), audittest.Target(t, testsite.Heavy, ""), audit.Options{
		Fetcher: f, Now: func() time.Time { return audittest.Now }, Reserve: b.reserve,
		MaxPages: 2, Crawl: crawl.Options{Unthrottled: true},
		BuildTriage: func(in triage.Input) (triage.Stored, error) {
			// The homepage audit has asked for all it asks for.
			asked, _, _ := b.state()
			homeAsks = len(asked)
			return triage.Build(in)
		},
	})
	require.NoError(t, err)
	asked, holds, _ := b.state()
	require.Greater(t, len(asked), homeAsks, "the crawled pages ask too")
	html := int64(len(res.Site.Home.Body))
	require.Greater(t, html, int64(4<<20))
	require.Equal(t, audit.MemoryPerHTMLByte*html, asked[homeAsks], "the crawled homepage, by its size")
	require.Zero(t, holds)
}

// TestSiteAuditWithABudgetSmallerThanAPage: with a budget smaller than the
// estimate of one page, each page takes the whole budget in turn and the
// audit completes; it never waits for memory its own homepage holds.
func TestSiteAuditWithABudgetSmallerThanAPage(t *testing.T) {
	_, f := audittest.Sites(t)
	b := newBudget(audit.MemoryFloor / 2)
	// The time-out only turns a deadlock into a failure; the audit takes
	// a second or two.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := audit.Run(ctx, audittest.Target(t, testsite.Megasite, "Northwind Outfitters"), audit.Options{
		Fetcher: f, Now: func() time.Time { return audittest.Now }, Reserve: b.reserve,
		MaxPages: 30, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
	})
	require.NoError(t, err)
	require.Equal(t, 30, res.SiteView.PagesPlanned)
	require.Positive(t, res.SiteView.PagesAudited)
	_, holds, _ := b.state()
	require.Zero(t, holds)
}

// BenchmarkSiteAuditMemory audits the megasite grown to 5 000 pages with a
// page budget of 500, then 5 000, and reports each audit's peak live heap
// (sampled after a collection every 250 pages, the fixture server's heap
// included) and their ratio: what one audit holds must not grow with its
// page budget. bench/site.sh measures the same through the real binary.
//
//	go test -run '^$' -bench SiteAuditMemory -benchtime 1x ./internal/audit/
func BenchmarkSiteAuditMemory(b *testing.B) {
	s, err := testsite.StartWith(testsite.Options{MegasitePages: 5000})
	require.NoError(b, err)
	b.Cleanup(s.Close)
	ca, err := s.WriteTempCAFile()
	require.NoError(b, err)
	f, err := audittest.NewFetcher(s, ca)
	require.NoError(b, err)
	u, err := url.Parse(s.URL(testsite.Megasite))
	require.NoError(b, err)
	peaks := map[int]float64{}
	for b.Loop() {
		for _, n := range []int{500, 5000} {
			var peak uint64
			res, err := audit.Run(context.Background(), audit.Target{URL: u, BrandName: "Northwind Outfitters"}, audit.Options{
				Fetcher: f, MaxPages: n, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
				Progress: func(done, _ int) {
					if done%250 == 0 {
						runtime.GC()
						var ms runtime.MemStats
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapAlloc)
					}
				},
			})
			require.NoError(b, err)
			require.Equal(b, n, res.SiteView.PagesPlanned, "%d pages", n)
			peaks[n] = max(peaks[n], float64(peak)/(1<<20))
		}
	}
	b.ReportMetric(peaks[500], "live-MiB-500")
	b.ReportMetric(peaks[5000], "live-MiB-5000")
	b.ReportMetric(peaks[5000]/peaks[500], "ratio")
}
