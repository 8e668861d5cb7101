package audit_test

import (
	"context"
	"runtime"
	"runtime/metrics"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// BenchmarkRun audits each realistic fixture without an answer engine:
// fetch (network, loopback), parse, checks, scoring, report, dossier and
// snapshot. Per-stage means are reported as metrics.
//
//	go test -run '^$' -bench 'Run$' -benchmem ./internal/audit/
func BenchmarkRun(b *testing.B) {
	_, f := audittest.Sites(b)
	ctx := context.Background()
	for _, name := range testsite.Realistic {
		target := audittest.Target(b, name, name)
		b.Run(name, func(b *testing.B) {
			var sum audit.Timings
			for b.Loop() {
				res, err := audit.Run(ctx, target, audit.Options{Fetcher: f})
				if err != nil {
					b.Fatal(err)
				}
				t := res.Timings
				sum.Fetch += t.Fetch
				sum.Parse += t.Parse
				sum.Checks += t.Checks
				sum.Report += t.Report
				sum.Triage += t.Triage
				sum.Snapshot += t.Snapshot
			}
			n := float64(b.N)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / n / 1000 }
			b.ReportMetric(ms(sum.Fetch), "fetch-ms/op")
			b.ReportMetric(ms(sum.Parse), "parse-ms/op")
			b.ReportMetric(ms(sum.Checks), "checks-ms/op")
			b.ReportMetric(ms(sum.Report), "report-ms/op")
			b.ReportMetric(ms(sum.Triage), "triage-ms/op")
			b.ReportMetric(ms(sum.Snapshot), "snapshot-ms/op")
		})
	}
}

// BenchmarkRunWithEngine is one audit of the bakery fixture with the AI
// layer against a scripted engine that answers every call after 500 ms
// (and a second engine with web search, as a deployment with Perplexity
// would have), no cache. It reports the wall time of the audit and of the
// AI part, the AI part in units of one engine answer (the rounds it
// costs), and the calls and tokens per audit.
//
//	go test -run '^$' -bench RunWithEngine -benchtime 3x ./internal/audit/
func BenchmarkRunWithEngine(b *testing.B) {
	const latency = 500 * time.Millisecond
	_, f := audittest.Sites(b)
	demo := scripted.Demo()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply {
		r := demo(c)
		r.Delay = latency
		return r
	})
	b.Cleanup(srv.Close)
	chat, err := llm.NewOpenAI(llm.EngineConfig{Name: "default", BaseURL: srv.URL, Model: "m"})
	require.NoError(b, err)
	search, err := llm.NewOpenAI(llm.EngineConfig{Name: "search", BaseURL: srv.URL, Model: "s", Capabilities: []llm.Capability{llm.Chat, llm.WebSearch}})
	require.NoError(b, err)
	target := audittest.Target(b, testsite.Bakery, "Millbrook Bakery")
	for _, c := range []struct {
		name    string
		engines []llm.Engine
	}{{"one-engine", []llm.Engine{chat}}, {"with-search-engine", []llm.Engine{chat, search}}} {
		b.Run(c.name, func(b *testing.B) {
			layer := &llm.Layer{Default: chat, Engines: c.engines, Limits: llm.DefaultLimits}
			var total, ai time.Duration
			var usage llm.Usage
			day := time.Now()
			for b.Loop() {
				// A new day each time: nothing comes from the cache.
				day = day.Add(24 * time.Hour)
				res, err := audit.Run(context.Background(), target, audit.Options{
					Fetcher: f, AI: layer, Now: func() time.Time { return day },
				})
				require.NoError(b, err)
				total += res.Timings.Total
				ai += res.Timings.AI
				usage = res.AIUsage
			}
			n := float64(b.N)
			b.ReportMetric(float64(total.Milliseconds())/n, "audit-ms/op")
			b.ReportMetric(float64(ai.Milliseconds())/n, "ai-ms/op")
			b.ReportMetric(float64(ai)/n/float64(latency), "ai-in-answer-latencies/op")
			b.ReportMetric(float64(usage.Calls), "calls/op")
			b.ReportMetric(float64(usage.Tokens), "tokens/op")
			purposes := make([]string, 0, len(usage.ByPurpose))
			for p := range usage.ByPurpose {
				purposes = append(purposes, p)
			}
			sort.Strings(purposes)
			for _, p := range purposes {
				u := usage.ByPurpose[p]
				b.Logf("%-26s calls %3d  input tokens %6d  output tokens %5d", p, u.Calls, u.InputTokens, u.OutputTokens)
			}
		})
	}
}

// BenchmarkRunHeavy audits the heavy fixture, a 4.9 MB homepage of nested
// menus, inline state and a long product feed: what one scan of a big
// page allocates, and with -memprofile where.
//
//	go test -run '^$' -bench RunHeavy -benchmem -benchtime 5x ./internal/audit/
func BenchmarkRunHeavy(b *testing.B) {
	_, f := audittest.Sites(b)
	target := audittest.Target(b, testsite.Heavy, "Everything Store")
	var peak uint64
	for b.Loop() {
		runtime.GC()
		base := heapBytes()
		stop := make(chan struct{})
		done := make(chan uint64)
		go func() {
			// The live heap sampled while the scan runs; its highest
			// value less the heap before is what one scan holds at once.
			high := base
			t := time.NewTicker(2 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					done <- high - base
					return
				case <-t.C:
					high = max(high, heapBytes())
				}
			}
		}()
		_, err := audit.Run(context.Background(), target, audit.Options{Fetcher: f})
		close(stop)
		peak = max(peak, <-done)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}

// heapBytes is the heap held by objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
