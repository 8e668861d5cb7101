package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// internalIDs are the snake_case ids a reader of the marketing edition must
// never see: checks, gates, pillars, triage lenses and fetch purposes.
func internalIDs() []string {
	var ids []string
	add := func(id string) {
		if strings.Contains(id, "_") {
			ids = append(ids, id)
		}
	}
	for _, c := range checks.All() {
		add(c.ID)
	}
	for _, g := range scoring.Gates {
		add(g.ID)
	}
	for _, p := range scoring.Pillars {
		add(p.ID)
	}
	for _, l := range []string{"crawl_access", "entity_trust", "platform_fixability"} {
		add(l)
	}
	for _, p := range []fetch.Purpose{fetch.HomeSample, fetch.HTTPProbe, fetch.SitemapSample, fetch.LLMsTxt, fetch.LLMsFullTxt, fetch.LLMsLink, fetch.NotFoundProbe, fetch.BotProbe} {
		add(string(p))
	}
	return ids
}

// holds matches the cap sentences: "holds Search at 50", "holds Search and
// AI trust at 40".
var holds = regexp.MustCompile(`holds ((?:Search|AI visibility|AI trust)(?:(?:, | and )(?:Search|AI visibility|AI trust))*) at (\d+)`)

func TestRenderPDFFixtures(t *testing.T) {
	t.Parallel()
	forbidden := internalIDs()
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := built(t, name, "")
			for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
				r := f.report.For(audience)
				text := pdfText(t, f.pdf(t, audience))

				// Who and what: the site, its brand, every score.
				require.Contains(t, text, r.URL)
				require.Contains(t, text, r.BrandName)
				require.NotEmpty(t, r.BrandName)
				require.Contains(t, text, fmt.Sprintf("%.1f out of 100", r.OverallScore))
				require.Contains(t, text, "grade "+string(r.OverallGrade))
				for _, ring := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
					require.Contains(t, text, fmt.Sprintf("%d out of 100 · grade %s", ring.Score, ring.Grade), "ring %s", ring.Ring)
				}
				for _, section := range []string{"Executive summary", "Site Triage", "Search", "AI visibility", "AI trust", "What was fetched", "Page 1 of "} {
					require.Contains(t, text, section)
				}
				dossier := f.dossier.For(audience)
				require.Contains(t, text, "Risk by lens")
				for _, l := range dossier.RiskLenses {
					level := string(l.Bucket)
					if !lensScored(r, l) {
						level = "not measured"
					}
					require.Contains(t, text, l.Label+" "+level, "lens %s as a level", l.LensID)
				}
				if dossier.QuickWinCount > 0 {
					require.Contains(t, text, "QUICK WIN")
				}
				for _, c := range r.Checks {
					require.Contains(t, text, strings.Join(strings.Fields(c.Title), " "), "every check is listed")
				}

				// Numbers agree with the report: a ring is said to be held at
				// a cap only when the cap bound it.
				for _, m := range holds.FindAllStringSubmatch(text, -1) {
					for _, name := range regexp.MustCompile(`, | and `).Split(m[1], -1) {
						ring := ringNamed(r, name)
						require.NotNil(t, ring.CappedBy, "%q while %s is not capped", m[0], name)
						require.Equal(t, m[2], fmt.Sprint(ring.Score), "%q", m[0])
					}
				}
				for _, wrong := range []string{"only 0 ", " ai visibility", " ai trust", " ai search", "Capped by"} {
					requireAbsent(t, text, regexp.QuoteMeta(wrong))
				}

				if audience == scoring.Marketing {
					for _, id := range forbidden {
						requireAbsent(t, text, `\b`+id+`\b`)
					}
					requireAbsent(t, text, `\b0 words\b`)
				} else {
					require.Contains(t, text, r.Checks[0].ID, "the engineering edition names check ids")
				}
			}
		})
	}
}

// lensScored says whether a check behind a risk lens was scored.
func lensScored(r api.Report, l api.TriageRiskLens) bool {
	if l.LensID == api.PlatformFixability {
		return true
	}
	for _, c := range r.Checks {
		if c.Score != nil && c.Weight > 0 && slices.Contains(l.Basis, c.ID) {
			return true
		}
	}
	return false
}

// requireAbsent fails when the pattern occurs in text, quoting where.
func requireAbsent(t *testing.T, text, pattern string) {
	t.Helper()
	if loc := regexp.MustCompile(pattern).FindStringIndex(text); loc != nil {
		from, to := max(loc[0]-80, 0), min(loc[1]+80, len(text))
		t.Fatalf("%q found in the PDF text: …%s…", pattern, text[from:to])
	}
}

func ringNamed(r api.Report, name string) api.RingResult {
	for _, ring := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
		if scoring.RingNames[scoring.Ring(ring.Ring)] == name {
			return ring
		}
	}
	return api.RingResult{}
}

// The brand comes from the site's owner and may be in any script: Latin,
// Greek and Cyrillic are embedded and extract intact; scripts the fonts
// lack become one visible replacement character per run, never an error;
// Chinese, Japanese and Korean are drawn in the CJK font.
func TestRenderPDFBrandScripts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ brand, want string }{
		{"Καφενείο Αθηνά", "Καφενείο Αθηνά"},
		{"Москва Кофе", "Москва Кофе"},
		{"Crème Brûlée Ærø Łódź", "Crème Brûlée Ærø Łódź"},
		{"Cafe\u0301 Decomposed", "Café Decomposed"},
		{"東京 Sushi", "東京 Sushi"},
		{"Rocket 🚀 Labs", "Rocket \uFFFD Labs"},
		{"مقهى Cairo", "\uFFFD Cairo"},
		{"Zero\u200bWidth\x00Nul", "ZeroWidthNul"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			requireCJKFont(t)
			f := built(t, testsite.Docs, tc.brand)
			for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
				text := pdfText(t, f.pdf(t, audience))
				require.Contains(t, text, tc.want)
			}
		})
	}
}

// The fetch appendix is a table whose cells are measured: no word crosses
// from one column into the next, on any of its pages.
func TestRenderPDFFetchTableColumns(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.NextShell, "")
	r := f.report.For(scoring.Marketing)
	// Long URLs, labels and errors, and enough rows to need several pages.
	for i := range 120 {
		r.Fetch.Fetches = append(r.Fetch.Fetches, api.FetchRecord{
			URL:     fmt.Sprintf("https://nimbus-app.test/a/very/long/path/segment-%d/%s?query=%s", i, strings.Repeat("deep/", 12), strings.Repeat("x", 80)),
			Purpose: "bot_probe:Some-Very-Long-Crawler-Name-" + strings.Repeat("Z", 30), Bytes: 1 << 22, DurationMs: 123456,
			Error: ptr("connection: " + strings.Repeat("reset by peer ", 20)), Redirects: []string{},
		})
	}
	d := f.dossier.For(scoring.Marketing)
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, r, &d))
	words := pdfWords(t, buf.Bytes())

	mm := 72 / 25.4
	bounds := []float64{18 + 78, 18 + 78 + 50, 18 + 78 + 50 + 14, 18 + 78 + 50 + 14 + 18}
	tablePages := map[int]float64{} // page → y of the header row
	for _, a := range words {
		for _, p := range words {
			if a.text == "Address" && p.text == "Purpose" && a.page == p.page && a.yMin == p.yMin && p.xMin > a.xMax {
				tablePages[a.page] = a.yMax
			}
		}
	}
	require.GreaterOrEqual(t, len(tablePages), 3, "the table runs over several pages, its header repeated")
	checked := 0
	for _, w := range words {
		top, ok := tablePages[w.page]
		if !ok || w.yMin < top || w.yMin > 275*mm {
			continue
		}
		checked++
		for _, b := range bounds {
			require.False(t, w.xMin < b*mm-0.5 && w.xMax > b*mm+0.5, "%q on page %d crosses the column edge at %.0f mm (%.1f–%.1f pt)", w.text, w.page, b, w.xMin, w.xMax)
		}
		require.LessOrEqual(t, w.xMax, (210-18)*mm+0.5, "%q runs past the right margin", w.text)
	}
	require.Greater(t, checked, 500)
}

// Whatever a site puts in its texts, rendering finishes with a document.
func TestRenderPDFHostileInput(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Broken, "")
	r := f.report.For(scoring.Engineering)
	huge := strings.Repeat("W", 50_000)
	r.BrandName = strings.Repeat("Brand\x00\r\n\t\u202e", 100)
	r.URL = "https://" + strings.Repeat("a", 2000) + ".test/"
	r.Summaries.Executive = huge + " " + strings.Repeat("word ", 20_000)
	for i := range r.Checks {
		r.Checks[i].Summary = "line one\r\nline two\rline three\x00" + strings.Repeat(" ×", 500)
	}
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, r, nil))
	text := pdfText(t, buf.Bytes())
	require.Contains(t, text, "not available yet", "without a dossier the triage page says so")
	require.Greater(t, pdfPages(t, buf.Bytes()), 5)

	buf.Reset()
	require.NoError(t, report.RenderPDF(&buf, api.Report{}, nil), "an empty report renders")
	require.True(t, bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")))
}

// The AI mentions pillar is not measured without an answer engine: the PDF
// says so and why, instead of a dash and 0 %.
func TestRenderPDFNotMeasuredPillar(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.WordPress, "")
	for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		text := pdfText(t, f.pdf(t, audience))
		reason := "no AI answer engine was connected for this audit"
		if audience == scoring.Engineering {
			reason = "no answer engine configured"
		}
		require.Regexp(t, `AI mentions not measured .{0,200}Not measured: `+reason, text)
		require.NotContains(t, text, "comes with the AI layer")
	}
}

func ptr[T any](v T) *T { return &v }

// BenchmarkRenderPDF is the render time of one report per fixture and
// audience (the report built once; the timer covers only the PDF), with
// encoding the same report as JSON as the reference measured in the same
// run.
//
//	go test -run '^$' -bench RenderPDF -benchmem ./internal/audit/report/
func BenchmarkRenderPDF(b *testing.B) {
	for _, name := range testsite.Realistic {
		f := built(b, name, "")
		d := f.dossier.For(scoring.Marketing)
		r := f.report.For(scoring.Marketing)
		b.Run(name, func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := report.RenderPDF(&buf, r, &d); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "pdf-bytes")
		})
	}
}

// BenchmarkReportJSON is the reference for BenchmarkRenderPDF: encoding the
// same report as the JSON GET /scans/{id}/report returns.
func BenchmarkReportJSON(b *testing.B) {
	for _, name := range testsite.Realistic {
		r := built(b, name, "").report.For(scoring.Marketing)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
