package audit_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestSiteAuditsTakeTurns: two whole-site audits in one process share a
// memory budget of one page's worth. A long audit of the megasite starts;
// once it has judged 20 pages a short audit of another site starts, and
// the long one is held in its progress callback until the short one has
// ended. The short one completes: the long one holds the budget page by
// page while it judges, never for its whole crawl, so an audit queued
// after a long one waits for a page, not for the long audit to end. Then
// the long one completes too.
func TestSiteAuditsTakeTurns(t *testing.T) {
	_, f := audittest.Sites(t)
	b := newBudget(audit.MemoryFloor)
	// The time-out only turns a deadlock into a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	now := func() time.Time { return audittest.Now }

	type outcome struct {
		res audit.Result
		err error
	}
	const longPages, heldAt = 200, 20
	progressed, shortDone := make(chan struct{}), make(chan struct{})
	longOut := make(chan outcome, 1)
	long := audittest.Target(t, testsite.Megasite, "Northwind Outfitters")
	go func() {
		res, err := audit.Run(ctx, long, audit.Options{
			Fetcher: f, Now: now, Reserve: b.reserve,
			MaxPages: longPages, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
			Progress: func(done, _ int) {
				if done != heldAt {
					return
				}
				close(progressed)
				select {
				case <-shortDone:
				case <-ctx.Done():
				}
			},
		})
		longOut <- outcome{res, err}
	}()
	select {
	case <-progressed:
	case o := <-longOut:
		t.Fatalf("the long audit ended before its page %d: %v", heldAt, o.err)
	}

	short, err := audit.Run(ctx, audittest.Target(t, testsite.Docs, ""), audit.Options{
		Fetcher: f, Now: now, Reserve: b.reserve,
		MaxPages: 20, Crawl: crawl.Options{Unthrottled: true, PerHost: 4},
	})
	require.NoError(t, err, "the short audit completes while the long one runs")
	require.NotNil(t, short.SiteView)
	require.Positive(t, short.SiteView.PagesAudited)
	close(shortDone)

	o := <-longOut
	require.NoError(t, o.err)
	require.Equal(t, longPages, o.res.SiteView.PagesPlanned)
	_, holds, _ := b.state()
	require.Zero(t, holds, "everything given back")
}
