package triage_test

import (
	"runtime"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// BenchmarkDetect is the fingerprinting a scan adds: the fingerprint
// database over the homepage and sampled pages plus the in-house table, on
// each realistic fixture (database already loaded, as in a running worker).
//
//	go test -run '^$' -bench 'Detect|Build|LoadFingerprints' -benchmem ./internal/audit/triage/
func BenchmarkDetect(b *testing.B) {
	if err := triage.Warm(); err != nil {
		b.Fatal(err)
	}
	for _, name := range testsite.Realistic {
		site := fetched(b, name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_ = triage.Detect(site)
			}
		})
	}
}

// BenchmarkBuild is the whole dossier for both audiences.
func BenchmarkBuild(b *testing.B) {
	if err := triage.Warm(); err != nil {
		b.Fatal(err)
	}
	for _, name := range testsite.Realistic {
		res := audited(b, fetched(b, name))
		in := triage.Input{URL: res.Site.Target.String(), Site: res.Site, Outcomes: res.Outcomes, Scores: res.Scores}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := triage.Build(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLoadFingerprints is the one-time cost per process of building
// the fingerprint index (triage.Warm does it once, at worker start), and
// the heap the index keeps.
func BenchmarkLoadFingerprints(b *testing.B) {
	var idx any
	for b.Loop() {
		var err error
		if idx, err = triage.LoadIndex(); err != nil {
			b.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(idx)
	idx = nil
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "retained-MiB")
	runtime.KeepAlive(idx)
}
