package triage_test

import (
	"context"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testsite.RemoveTempCAFiles()
	os.Exit(code)
}

var (
	sitesOnce sync.Once
	sites     *testsite.Server
	fetcher   *fetch.Fetcher
	sitesErr  error
)

// fetched fetches one fixture site once per test binary.
func fetched(t testing.TB, name string) *fetch.Site {
	t.Helper()
	sitesOnce.Do(func() {
		sites, sitesErr = testsite.Start()
		if sitesErr != nil {
			return
		}
		caFile, err := sites.WriteTempCAFile()
		if err != nil {
			sitesErr = err
			return
		}
		fetcher, sitesErr = fetch.New(fetch.Options{AllowPrivate: true, ExtraCAFile: caFile, Resolver: sites.Resolver(), PlainHTTPPort: sites.HTTPPort()})
	})
	require.NoError(t, sitesErr)
	target, err := url.Parse(sites.URL(name))
	require.NoError(t, err)
	site, err := fetcher.Site(context.Background(), target)
	require.NoError(t, err)
	return site
}

// evaluated runs the checks and scoring over a fetched site.
// The brand is the one a scan gets by default: the registrable name.
func evaluated(site *fetch.Site) ([]checks.Outcome, scoring.Result) {
	brand := netguard.RegistrableName(site.Target.Host)
	outcomes := checks.Run(&checks.Input{Site: site, Home: site.HomePage, BrandName: brand, Now: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)})
	scored := make([]scoring.CheckScore, 0, len(outcomes))
	for _, o := range outcomes {
		scored = append(scored, scoring.CheckScore{ID: o.Check.ID, Ring: o.Check.Ring, Pillar: o.Check.Pillar, Weight: o.Check.Weight, Status: string(o.Result.Status)})
	}
	return outcomes, scoring.Score(scored)
}
