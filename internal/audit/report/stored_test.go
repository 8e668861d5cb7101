package report_test

import (
	"context"
	"flag"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/testing/jsonshape"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The stored report is the contract's Report once per audience (see the
// package doc). Its shape is pinned: a change of openapi.yaml that changes
// it is a change of every report already stored, to be decided on (and the
// stored documents migrated), not discovered when an old scan is served.
func TestStoredShapeIsPinned(t *testing.T) {
	t.Parallel()
	jsonshape.RequirePinned(t, filepath.Join("testdata", "stored.shape.golden"), report.Stored{}, *update,
		"the stored report changed shape; stored reports must be migrated with it")
}

// A built report survives storing: decoding the stored JSON and encoding
// it again gives the same bytes, so what is served is what was built.
func TestStoredReportRoundTrips(t *testing.T) {
	t.Parallel()
	u, err := url.Parse("https://example.test/")
	require.NoError(t, err)
	html := []byte(`<html lang="en"><head><title>Example</title></head><body><h1>Example</h1><p>We make examples.</p></body></html>`)
	home := &fetch.Response{
		Purpose: fetch.Homepage, URL: u.String(), FinalURL: u.String(), Status: 200,
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: html,
	}
	p, err := page.Parse(home.Body, u)
	require.NoError(t, err)
	site := &fetch.Site{Target: u, Home: home, HomePage: p, Parsed: map[*fetch.Response]*page.Page{home: p}, All: []*fetch.Response{home}}
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	res, err := audit.Run(context.Background(), audit.Target{URL: u, ScanID: uuid.New(), BrandName: "Example"},
		audit.Options{Site: site, Now: func() time.Time { return now }})
	require.NoError(t, err)
	built := *res.Report
	jsonshape.RequireRoundTrip(t, built)
}
