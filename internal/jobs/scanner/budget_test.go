package scanner

import (
	"context"
	"io"
	"log/slog"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestHeavyScansTakeTurnsForMemory: with a budget that fits one audit of
// the heavy fixture and the small sites beside it, two heavy audits never
// hold memory at the same time, while the small ones all hold theirs at
// once. The audits run through the scanner's own options, so the budget
// reaches audit.Run the way a scan's does.
func TestHeavyScansTakeTurnsForMemory(t *testing.T) {
	heavy := audittest.Site(t, testsite.Heavy)
	smallNames := []string{testsite.Bakery, testsite.Winery, testsite.Docs, testsite.Wiki}
	heavyEst := audit.MemoryEstimate(heavy)
	size := heavyEst
	for _, name := range smallNames {
		size += audit.MemoryEstimate(audittest.Site(t, name))
	}
	require.Less(t, size, 2*heavyEst, "the budget fits one heavy audit, not two")
	budget := NewMemoryBudget(size)

	var (
		mu                   sync.Mutex
		heavyHeld, smallHeld int
		maxHeavy, maxSmall   int
		arrived              sync.WaitGroup
		allSmall             = make(chan struct{})
	)
	arrived.Add(len(smallNames))
	go func() { arrived.Wait(); close(allSmall) }()

	r := &Runner{Memory: budget}
	opts := r.auditOptions(slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NotNil(t, opts.Reserve, "the runner's budget is the audit's")
	reserve := opts.Reserve
	recorded := func(ctx context.Context, bytes int64) (func(), error) {
		release, err := reserve(ctx, bytes)
		if err != nil {
			return nil, err
		}
		big := bytes > size/2
		mu.Lock()
		if big {
			heavyHeld++
			maxHeavy = max(maxHeavy, heavyHeld)
		} else {
			smallHeld++
			maxSmall = max(maxSmall, smallHeld)
		}
		mu.Unlock()
		if !big {
			// Each small audit keeps its memory until every small one
			// holds its own: they can only all get here at once.
			arrived.Done()
			select {
			case <-allSmall:
			case <-ctx.Done():
				release()
				return nil, ctx.Err()
			}
		}
		return func() {
			mu.Lock()
			if big {
				heavyHeld--
			} else {
				smallHeld--
			}
			mu.Unlock()
			release()
		}, nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2+len(smallNames))
	run := func(name string) {
		defer wg.Done()
		o := opts
		o.Reserve, o.Site, o.Now = recorded, audittest.Site(t, name), func() time.Time { return audittest.Now }
		_, err := audit.Run(ctx, audittest.Target(t, name, ""), o)
		errs <- err
	}
	wg.Add(2 + len(smallNames))
	go run(testsite.Heavy)
	go run(testsite.Heavy)
	for _, name := range smallNames {
		go run(name)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 1, maxHeavy, "two heavy audits held memory at once")
	require.Equal(t, len(smallNames), maxSmall, "the small audits held memory together")
	require.Zero(t, heavyHeld+smallHeld, "every reservation was released")
	release, err := budget.Reserve(context.Background(), size)
	require.NoError(t, err, "the whole budget is free again")
	release()
}

// TestHeavyScansParseInTurn: scans that fetch ask the budget before they
// parse their homepage, so with room for one heavy homepage, heavy scans
// that arrive together wait with their homepage read and unparsed, and
// parse and judge it one at a time, instead of all parsing (and reading
// the rest of the site) before any waits.
func TestHeavyScansParseInTurn(t *testing.T) {
	// Sites of their own: the requests they count are this test's.
	sites, err := testsite.Start()
	require.NoError(t, err)
	t.Cleanup(sites.Close)
	ca, err := sites.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	f, err := audittest.NewFetcher(sites, ca)
	require.NoError(t, err)
	target := audittest.Target(t, testsite.Heavy, "Everything Store")
	target.URL, err = url.Parse(sites.URL(testsite.Heavy))
	require.NoError(t, err)

	budget := NewMemoryBudget(audit.MemoryPerHTMLByte * (int64(len(audittest.Site(t, testsite.Heavy).Home.Body)) + audit.MemoryKeyPagesMargin))
	r := &Runner{Fetcher: f, Memory: budget}
	opts := r.auditOptions(slog.New(slog.NewTextHandler(io.Discard, nil)))
	opts.Now = func() time.Time { return audittest.Now }
	reserve := opts.Reserve
	const scans = 3
	var (
		mu                           sync.Mutex
		entered, holding, most, gone int
		robotsWhenAllAsked           = -1
		allAsked                     = make(chan struct{})
	)
	opts.Reserve = func(ctx context.Context, bytes int64) (func(), error) {
		mu.Lock()
		entered++
		if entered == scans {
			close(allAsked)
		}
		mu.Unlock()
		release, err := reserve(ctx, bytes)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		holding++
		most = max(most, holding)
		first := robotsWhenAllAsked < 0
		mu.Unlock()
		if first {
			// The first scan in keeps its grant until the others have
			// asked: what the site served by then is what they read
			// before waiting.
			select {
			case <-allAsked:
			case <-ctx.Done():
				release()
				return nil, ctx.Err()
			}
			mu.Lock()
			robotsWhenAllAsked = sites.Hits(testsite.Heavy)["/robots.txt"]
			mu.Unlock()
		}
		return func() {
			mu.Lock()
			holding--
			gone++
			mu.Unlock()
			release()
		}, nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	errs := make(chan error, scans)
	for range scans {
		go func() {
			_, err := audit.Run(ctx, target, opts)
			errs <- err
		}()
	}
	for range scans {
		require.NoError(t, <-errs)
	}
	require.Equal(t, scans, entered, "each scan asked once")
	require.Zero(t, robotsWhenAllAsked, "the scans asked before reading past their homepage")
	require.Equal(t, 3, sites.Hits(testsite.Heavy)["/robots.txt"], "then each read the rest")
	require.Equal(t, 1, most, "two heavy homepages held memory at once")
	require.Equal(t, scans, gone)
}

// TestMemoryBudgetReservations: an estimate above the budget is held as
// the whole budget, alone; a wait ends with its context and takes
// nothing; releasing twice gives back once.
func TestMemoryBudgetReservations(t *testing.T) {
	b := NewMemoryBudget(100)

	// A reservation that fits is granted at once, whatever its context's
	// deadline: only one that does not fit can end with it.
	wait := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}
	whole, err := b.Reserve(context.Background(), 1000)
	require.NoError(t, err, "more than the budget runs alone rather than never")
	_, err = b.Reserve(wait(), 1)
	require.ErrorIs(t, err, context.DeadlineExceeded, "nothing fits beside it")
	whole()
	whole()

	a, err := b.Reserve(context.Background(), 60)
	require.NoError(t, err)
	_, err = b.Reserve(wait(), 60)
	require.ErrorIs(t, err, context.DeadlineExceeded, "60 more do not fit in 100, even after a double release")
	c, err := b.Reserve(context.Background(), 40)
	require.NoError(t, err, "40 do, and a cancelled wait took nothing")
	a()
	c()
	all, err := b.Reserve(context.Background(), 100)
	require.NoError(t, err)
	all()
}

// TestScanThatWaitsForMemoryFailsAsATimeout: a scan whose budget of time
// runs out while other scans hold the worker's memory fails as a timeout,
// and its message says it read the site and waited for memory.
func TestScanThatWaitsForMemoryFailsAsATimeout(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "memory-wait", "pro", true)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
		require.NoError(t, err)
	})
	u := audittest.URL(t, testsite.Bakery)
	created, err := st.CreateScan(ctx, store.NewScan{
		OrgID: org.ID, Source: store.SourceAPI, URL: u.String(), Domain: u.Hostname(), BrandName: "Millbrook Bakery",
	}, time.Now())
	require.NoError(t, err)

	_, f := audittest.Sites(t)
	budget := NewMemoryBudget(audit.MemoryFloor)
	held, err := budget.Reserve(ctx, audit.MemoryFloor) // another scan's, for as long as this one may run
	require.NoError(t, err)
	defer held()
	r := &Runner{Store: st, Fetcher: f, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Budget: 10 * time.Second, Memory: budget}
	scanCtx, cancel := context.WithTimeoutCause(ctx, r.Budget, fetch.ErrBudget)
	defer cancel()
	_, err = r.Run(scanCtx, created.ID, true)
	require.NoError(t, err)

	done, err := st.GetScan(ctx, org.ID, created.ID)
	require.NoError(t, err)
	require.Equal(t, store.ScanFailed, done.Status)
	require.NotNil(t, done.ErrorCode)
	require.Equal(t, CodeTimeout, *done.ErrorCode)
	require.NotNil(t, done.ErrorMessage)
	require.Contains(t, *done.ErrorMessage, "waited for memory")
}
