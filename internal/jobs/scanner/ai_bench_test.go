package scanner_test

import (
	"context"
	"net/url"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// BenchmarkScanWithEngine is one scan of the bakery fixture with the AI
// layer against a scripted engine that answers every call after 500 ms
// (and a second engine with web search, as a deployment with Perplexity
// would have), no cache: fetch, the mention probes, checks, scoring, the
// report and its summaries. It reports the wall time of the scan and of
// the AI part, the AI part in units of one engine answer (the rounds it
// costs), and the calls and tokens per check.
//
//	go test -run '^$' -bench ScanWithEngine -benchtime 3x ./internal/jobs/scanner/
func BenchmarkScanWithEngine(b *testing.B) {
	const latency = 500 * time.Millisecond
	s := fixtures(b)
	f, err := fetch.New(fetch.Options{AllowPrivate: true, ExtraCAFile: caFile, Resolver: s.Resolver(), PlainHTTPPort: s.HTTPPort()})
	require.NoError(b, err)
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
	target, err := url.Parse(s.URL(testsite.Bakery))
	require.NoError(b, err)
	for _, c := range []struct {
		name    string
		engines []llm.Engine
	}{{"one-engine", []llm.Engine{chat}}, {"with-search-engine", []llm.Engine{chat, search}}} {
		b.Run(c.name, func(b *testing.B) {
			layer := &llm.Layer{Default: chat, Engines: c.engines, Limits: llm.DefaultLimits}
			benchScanWithEngine(b, f, layer, target, latency)
		})
	}
}

func benchScanWithEngine(b *testing.B, f *fetch.Fetcher, layer *llm.Layer, target *url.URL, latency time.Duration) {
	ctx := context.Background()
	var total, ai time.Duration
	var usage llm.Usage
	for b.Loop() {
		start := time.Now()
		site, err := f.Site(ctx, target)
		require.NoError(b, err)
		in := &checks.Input{Site: site, Home: site.HomePage, BrandName: "Millbrook Bakery", Now: time.Now()}
		aiStart := time.Now()
		// A new day each time: nothing comes from the cache.
		sess := layer.Session(time.Now().Add(time.Duration(b.N) * 24 * time.Hour))
		in.Mentions = mentions.Measure(ctx, sess, checks.AISubject(in))
		ai += time.Since(aiStart)
		outcomes := checks.Run(in)
		scored := make([]scoring.CheckScore, 0, len(outcomes))
		for _, o := range outcomes {
			scored = append(scored, scoring.CheckScore{ID: o.Check.ID, Ring: o.Check.Ring, Pillar: o.Check.Pillar, Weight: o.Check.Weight, Status: string(o.Result.Status)})
		}
		doc := report.Build(report.Input{URL: target.String(), BrandName: in.BrandName, GeneratedAt: time.Now(), Outcomes: outcomes, Scores: scoring.Score(scored), Site: site})
		aiStart = time.Now()
		report.WriteSummaries(ctx, sess, &doc)
		ai += time.Since(aiStart)
		total += time.Since(start)
		usage = sess.Usage()
	}
	n := float64(b.N)
	b.ReportMetric(float64(total.Milliseconds())/n, "scan-ms/op")
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
}
