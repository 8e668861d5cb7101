package scanner_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// BenchmarkScanPipeline runs the scan pipeline on each realistic fixture
// without the database: fetch (network, loopback), parse, then checks,
// scoring and report building. Per-phase means are reported as metrics.
//
//	go run ./cmd/testdb -- go test -run '^$' -bench ScanPipeline -benchmem ./internal/jobs/scanner/
func BenchmarkScanPipeline(b *testing.B) {
	s := fixtures(b)
	f, err := fetch.New(fetch.Options{AllowPrivate: true, ExtraCAFile: caFile, Resolver: s.Resolver(), PlainHTTPPort: s.HTTPPort()})
	require.NoError(b, err)
	ctx := context.Background()
	for _, name := range testsite.Realistic {
		target, err := url.Parse(s.URL(name))
		require.NoError(b, err)
		b.Run(name, func(b *testing.B) {
			var fetchT, parseT, checkT time.Duration
			for b.Loop() {
				start := time.Now()
				site, err := f.Site(ctx, target)
				if err != nil {
					b.Fatal(err)
				}
				fetchT += time.Since(start) - site.ParseTime
				parseT += site.ParseTime
				start = time.Now()
				outcomes := checks.Run(&checks.Input{Site: site, Home: site.HomePage, BrandName: name, Now: time.Now()})
				scored := make([]scoring.CheckScore, 0, len(outcomes))
				for _, o := range outcomes {
					scored = append(scored, scoring.CheckScore{ID: o.Check.ID, Ring: o.Check.Ring, Pillar: o.Check.Pillar, Weight: o.Check.Weight, Status: string(o.Result.Status)})
				}
				_ = report.Build(report.Input{URL: target.String(), BrandName: name, GeneratedAt: time.Now(), Outcomes: outcomes, Scores: scoring.Score(scored), Site: site})
				checkT += time.Since(start)
			}
			n := float64(b.N)
			b.ReportMetric(float64(fetchT.Microseconds())/n/1000, "fetch-ms/op")
			b.ReportMetric(float64(parseT.Microseconds())/n/1000, "parse-ms/op")
			b.ReportMetric(float64(checkT.Microseconds())/n/1000, "checks-ms/op")
		})
	}
}
