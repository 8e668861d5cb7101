package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// hostileName is a competitor's declared name that is markup and runs over
// lines: data, drawn as text and escaped.
const hostileName = "<script>alert(1)</script>\nBakehouse"

// measuredShare is a share of voice as the mentions package measures it:
// the bakery, a competitor named more often, and one named rarely on a
// small sample; sources of every kind.
func measuredShare() *mentions.ShareOfVoice {
	share := func(k, n int, pos *float64, small bool) mentions.Share {
		lo, hi := mentions.Wilson(k, n)
		return mentions.Share{K: k, N: n, Rate: ptr(float64(k) / float64(n)), Interval: &mentions.Interval{Low: lo, High: hi}, MeanPosition: pos, SmallSample: small}
	}
	return &mentions.ShareOfVoice{
		Status: mentions.ShareMeasured, PromptSet: mentions.PromptSet,
		Brands: []mentions.BrandShare{
			{Brand: "Millbrook Bakery", Domain: "millbrook-bakery.test", You: true, Share: share(11, 22, ptr(1.64), false), Engines: []mentions.EngineShare{
				{Engine: "openai", Share: share(3, 6, ptr(2.0), false)}, {Engine: "perplexity", Share: share(8, 16, ptr(1.5), false)},
			}},
			{Brand: hostileName, Domain: "bakehouse.test", Share: share(22, 22, ptr(1.5), false), Engines: []mentions.EngineShare{
				{Engine: "openai", Share: share(6, 6, ptr(1.5), false)}, {Engine: "perplexity", Share: share(16, 16, ptr(1.5), false)},
			}},
			{Brand: "Crumb And Kettle", Domain: "crumb-and-kettle.test", Share: share(1, 3, ptr(3.0), true), Engines: []mentions.EngineShare{
				{Engine: "openai", Share: mentions.Share{SmallSample: true}}, {Engine: "perplexity", Share: share(1, 3, ptr(3.0), true)},
			}},
		},
		Sources: []mentions.Source{
			{Domain: "wikipedia.org", Category: mentions.SourceEditorial, Citations: 8, Brands: []string{"millbrook-bakery.test", "bakehouse.test"}},
			{Domain: "bakehouse.test", Category: mentions.SourceCompetitor, Citations: 4, Brands: []string{"bakehouse.test"}},
			{Domain: "millbrook-bakery.test", Category: mentions.SourceOwnSite, Citations: 4, Brands: []string{"millbrook-bakery.test"}},
			{Domain: "trustpilot.com", Category: mentions.SourceReview, Citations: 4, Brands: []string{"bakehouse.test"}},
		},
		CitingCompetitorsNotYou: []string{"trustpilot.com"},
	}
}

// benchmarked is the bakery's report with two competitors, one audited
// (the Shopify fixture's scores) and one that could not be read.
func benchmarked(t *testing.T, sov *mentions.ShareOfVoice) (fixture, scoring.Result) {
	t.Helper()
	f := built(t, testsite.Bakery, "Millbrook Bakery")
	shop := audittest.Run(t, testsite.Shopify, "", audit.Options{}).Scores
	report.AttachBenchmark(&f.report, []report.CompetitorInput{
		{URL: "https://bakehouse.test/", Host: "bakehouse.test", Brand: hostileName, Status: "audited", PagesAudited: 7, Scores: &shop},
		{
			URL: "https://crumb-and-kettle.test/", Host: "crumb-and-kettle.test", Brand: "Crumb And Kettle", Status: "failed",
			Reason: "The homepage could not be fetched: the site's name does not resolve (DNS).",
		},
	}, sov)
	return f, shop
}

// The benchmark is stored once and served in both editions in the
// contract's shape; a report without competitors has none of it.
func TestBenchmarkIsStoredOnce(t *testing.T) {
	t.Parallel()
	f, shop := benchmarked(t, measuredShare())
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		r := f.report.For(aud)
		require.NotNil(t, r.Competitors)
		c := (*r.Competitors)[0]
		require.Equal(t, api.CompetitorAudited, c.Status)
		require.InDelta(t, shop.Overall, *c.OverallScore, 0)
		require.Equal(t, api.Grade(shop.OverallGrade.Grade), *c.OverallGrade)
		require.Equal(t, shop.Ring(scoring.RingVisibility).Score, c.Rings.Visibility.Score)
		failed := (*r.Competitors)[1]
		require.Equal(t, api.CompetitorFailed, failed.Status)
		require.Nil(t, failed.Rings)
		require.Nil(t, failed.OverallScore)
		require.Contains(t, *failed.Reason, "could not be fetched")

		s := r.ShareOfVoice
		require.Equal(t, api.ShareOfVoiceMeasured, s.Status)
		require.Len(t, s.Brands, 3)
		require.Equal(t, 11, s.Brands[0].K)
		require.Equal(t, 22, s.Brands[0].N)
		require.Len(t, s.Brands[0].Engines, 2)
		require.Nil(t, s.Brands[2].Engines[0].Rate, "an engine with no answer read has no rate")
		require.Equal(t, api.SourceReview, s.Sources[3].Category)
		require.Equal(t, []string{"trustpilot.com"}, *s.CitingCompetitorsNotYou)
	}
	body, err := json.Marshal(f.report)
	require.NoError(t, err)
	var back report.Stored
	require.NoError(t, json.Unmarshal(body, &back))
	again, err := json.Marshal(back)
	require.NoError(t, err)
	require.JSONEq(t, string(body), string(again))

	plain := built(t, testsite.Bakery, "Millbrook Bakery")
	body, err = json.Marshal(plain.report)
	require.NoError(t, err)
	require.NotContains(t, string(body), "competitors")
	require.NotContains(t, string(body), "share_of_voice")
}

// Sources not measured leave the list of sites citing competitors only
// null: not measured, never "none".
func TestBenchmarkSourcesNotMeasuredAreNull(t *testing.T) {
	t.Parallel()
	sov := measuredShare()
	sov.Sources, sov.CitingCompetitorsNotYou, sov.SourcesNotMeasured = nil, nil, "no answer read cited a source"
	f, _ := benchmarked(t, sov)
	r := f.report.For(scoring.Marketing)
	require.Nil(t, r.ShareOfVoice.CitingCompetitorsNotYou)
	require.Empty(t, r.ShareOfVoice.Sources)
	require.Equal(t, "no answer read cited a source", *r.ShareOfVoice.SourcesReason)
	text := pdfText(t, f.pdf(t, scoring.Marketing))
	require.Contains(t, text, "Not measured: no answer read cited a source.")
	requireAbsent(t, text, "Cited for competitors, never for you")
}

// The PDF sets the rings of the site and of each competitor side by side,
// the site's scored on the competitors' footing; then the share of voice
// by brand with k of n and the interval, in words a small sample is
// named in, the sources by kind and the sites citing competitors only.
// Engine rows are the engineering edition's.
func TestRenderPDFBenchmark(t *testing.T) {
	t.Parallel()
	f, shop := benchmarked(t, measuredShare())
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		r := f.report.For(aud)
		text := pdfText(t, f.pdf(t, aud))
		at := strings.Index(text, "Competitor benchmark")
		require.Positive(t, at, aud)
		require.Less(t, at, strings.LastIndex(text, "What was fetched"))
		require.Contains(t, text, "Millbrook Bakery (you)")
		// The site's own row: this report's scores, the AI mention
		// checks being na without an engine.
		require.Contains(t, text, strings.Join([]string{
			formatScore(r.OverallScore, string(r.OverallGrade)), ring(r.Rings.Search), ring(r.Rings.Visibility), ring(r.Rings.Trust),
		}, " "))
		require.Contains(t, text, "<script>alert(1)</script> Bakehouse", "the name is drawn as text, on one line")
		require.Contains(t, text, strings.Join([]string{
			formatScore(shop.Overall, shop.OverallGrade.Grade), scoringRing(shop, scoring.RingSearch), scoringRing(shop, scoring.RingVisibility),
			scoringRing(shop, scoring.RingTrust), "7",
		}, " "))
		require.Contains(t, text, "Not audited: The homepage could not be fetched: the site's name does not resolve (DNS)")
		require.Contains(t, text, "Share of voice in AI answers")
		require.Contains(t, text, "11 of 22 50% 31–69% 1.6")
		require.Contains(t, text, "22 of 22 100% 85–100% 1.5")
		require.Contains(t, text, "1 of 3 (small sample)")
		require.Contains(t, text, "A small sample is fewer than 4 answers")
		require.Contains(t, text, "Editorial and media wikipedia.org (8)")
		require.Contains(t, text, "Review sites trustpilot.com (4)")
		require.Contains(t, text, "Your site millbrook-bakery.test (4)")
		require.Contains(t, text, "Cited for competitors, never for you")
		if aud == scoring.Engineering {
			require.Contains(t, text, "perplexity 8 of 16 50%")
			require.Contains(t, text, "openai no answer read (not checked) – – –")
		} else {
			requireAbsent(t, text, `perplexity \d`)
		}
	}
	requireAbsent(t, pdfText(t, built(t, testsite.Bakery, "").pdf(t, scoring.Marketing)), "Competitor benchmark")
}

// The site's row is its checks rescored with the AI mention checks left
// out, as the competitors' scores are, whatever its own scores say; a
// report by another rubric shows its own scores and says so.
func TestBenchmarkSetsTheSiteOnTheCompetitorsFooting(t *testing.T) {
	t.Parallel()
	f, _ := benchmarked(t, measuredShare())
	r := f.report.For(scoring.Marketing)
	// Without an engine the AI mention checks are na: the rescored row is
	// the report's own scores.
	row := formatScore(r.OverallScore, string(r.OverallGrade)) + " " + ring(r.Rings.Search)
	for i, c := range r.Checks {
		if c.Pillar == "ai_mentions" {
			r.Checks[i].Status = api.CheckStatusFail
		}
	}
	r.OverallScore, r.Rings.Search.Score = 1, 1
	text := pdfText(t, pdfOf(t, r))
	require.Contains(t, text, "your scores here leave out the AI mention checks as well")
	require.Contains(t, text, "Millbrook Bakery (you) "+row)

	r.ScoringVersion = "2025.1"
	text = pdfText(t, pdfOf(t, r))
	require.Contains(t, text, "Your scores here are this report's, AI mention checks included")
	require.Contains(t, text, "Millbrook Bakery (you) "+formatScore(1, string(r.OverallGrade)))
}

// The HTML page shows the same section in the same place, every text of
// the sites and answers escaped; a German page says it in German.
func TestWriteHTMLBenchmark(t *testing.T) {
	t.Parallel()
	f, _ := benchmarked(t, measuredShare())
	page := string(f.htmlOf(t, scoring.Engineering, report.HTMLInput{}))
	require.Contains(t, page, `<h2 id="bench-h">Competitor benchmark</h2>`)
	require.NotContains(t, page, "<script>alert(1)</script>")
	require.Contains(t, page, "&lt;script&gt;alert(1)&lt;/script&gt; Bakehouse")
	require.Contains(t, page, "Not audited: The homepage could not be fetched")
	require.Contains(t, page, "11 of 22")
	require.Contains(t, page, "— perplexity")
	require.Contains(t, page, "<li>trustpilot.com</li>")
	require.Less(t, strings.Index(page, `id="bench-h"`), strings.Index(page, `id="fixes-h"`))

	de := string(f.htmlOf(t, scoring.Marketing, report.HTMLInput{Language: "de"}))
	require.Contains(t, de, "Vergleich mit Wettbewerbern")
	require.Contains(t, de, "Millbrook Bakery (Sie)")
	require.Contains(t, de, "11 von 22")
	require.NotContains(t, de, "html.")

	plain := built(t, testsite.Bakery, "Millbrook Bakery")
	require.NotContains(t, string(plain.htmlOf(t, scoring.Marketing, report.HTMLInput{})), "bench-h")
}

// Not measured is said with the reason, and nothing else of it is shown.
func TestRenderPDFShareOfVoiceNotMeasured(t *testing.T) {
	t.Parallel()
	f, _ := benchmarked(t, mentions.ShareNotMeasuredFor(mentions.ShareNoEngine))
	text := pdfText(t, f.pdf(t, scoring.Marketing))
	require.Contains(t, text, "Not measured: no answer engine is configured")
	requireAbsent(t, text, "Sources the answers cite")
	require.Contains(t, text, "Competitor benchmark")
}

func pdfOf(t *testing.T, r api.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, r, nil))
	return buf.Bytes()
}

func formatScore(score float64, grade string) string { return fmt.Sprintf("%.1f · %s", score, grade) }

func ring(r api.RingResult) string { return fmt.Sprintf("%d · %s", r.Score, r.Grade) }

func scoringRing(s scoring.Result, id scoring.Ring) string {
	return fmt.Sprintf("%d · %s", s.Ring(id).Score, s.Ring(id).Grade.Grade)
}

// The section is drawn in every language, in its words.
func TestRenderPDFBenchmarkInEveryLanguage(t *testing.T) {
	t.Parallel()
	f, _ := benchmarked(t, measuredShare())
	for lang, heading := range map[string]string{
		"en": "Competitor benchmark", "de": "Vergleich mit Wettbewerbern", "fr": "Comparaison avec la concurrence", "es": "Comparación con la competencia",
	} {
		text := pdfText(t, f.pdfIn(t, scoring.Engineering, lang))
		require.Contains(t, text, heading, lang)
		require.NotContains(t, text, "html.", lang)
		require.NotContains(t, text, "\uFFFD", lang)
	}
}
