package report_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// Settings are words of whoever runs GeoScan: the marketing edition says
// in plain words that no answer engine was connected, in every text it
// prints; the engineering edition names the setting.
func TestRenderPDFMarketingNamesNoSetting(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Bakery, "")
	r := f.report.For(scoring.Marketing)
	texts := []string{r.Summaries.Executive, r.Summaries.Search, r.Summaries.Visibility, r.Summaries.Trust, r.GradeDescriptor}
	if r.Caveats != nil {
		texts = append(texts, *r.Caveats...)
	}
	for _, c := range r.Checks {
		texts = append(texts, c.Title, c.Summary, c.WhyItMatters, deref(c.Recommendation))
	}
	for _, s := range texts {
		require.NotRegexp(t, settingToken, s)
	}

	text := pdfText(t, f.pdf(t, scoring.Marketing))
	requireAbsent(t, text, settingToken.String())
	require.Contains(t, text, "Not measured: no AI answer engine was connected for this audit")
	require.Contains(t, pdfText(t, f.pdf(t, scoring.Engineering)), "GEOSCAN_LLM_BASE_URL")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Code spans are set in the monospace font and bold text in bold, without
// their marks, in both editions.
func TestRenderPDFMarkdown(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Docs, "")
	for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		r := f.report.For(audience)
		r.Summaries.Executive = "Serve `iiiiiiii` as iiiiiiii and **always** and `a b` with a `stray mark."
		var buf bytes.Buffer
		require.NoError(t, report.RenderPDF(&buf, r, nil))
		text := pdfText(t, buf.Bytes())
		require.Contains(t, text, "Serve iiiiiiii as iiiiiiii and always and a b with a stray mark.")
		requireAbsent(t, text, "`|\\*\\*")

		var code, plain *word
		words := pdfWords(t, buf.Bytes())
		for i := range words {
			switch w := &words[i]; {
			case w.text == "iiiiiiii" && code == nil:
				code = w
			case w.text == "iiiiiiii":
				plain = w
			}
		}
		require.NotNil(t, code)
		require.NotNil(t, plain)
		// Monospace gives an i the width of an m.
		require.Greater(t, code.xMax-code.xMin, 1.8*(plain.xMax-plain.xMin), "the code span is in the monospace font")
	}

	// A site's text full of marks is set like any other.
	r := f.report.For(scoring.Engineering)
	r.Summaries.Executive = strings.Repeat("`a ", 20_000) + strings.Repeat("**b ", 20_000) + "` **"
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, r, nil))
	requireAbsent(t, pdfText(t, buf.Bytes()), "`|\\*\\*")
}

// A check whose title names the problem it looks for is listed under what
// already works by what its passing means.
func TestRenderPDFStrengthsReadTrue(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Bakery, "")
	r := f.report.For(scoring.Engineering)
	found := false
	for i := range r.Checks {
		if r.Checks[i].ID == "hidden_prompt_injection" {
			found = true
			r.Checks[i].Status = api.CheckStatusPass
			r.Checks[i].Weight = 100 // the first of the strengths
			require.Equal(t, "Hidden prompt injection", r.Checks[i].Title)
		}
	}
	require.True(t, found)
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, r, nil))
	text := pdfText(t, buf.Bytes())
	works := regexp.MustCompile(`What already works (.*?)\.`).FindStringSubmatch(text)
	require.NotNil(t, works, text)
	require.True(t, strings.HasPrefix(works[1], "No hidden prompt injection ·"), works[1])
}

// The actions of "Where to start" are listed once: the triage page refers
// to them and goes on with the next.
func TestRenderPDFActionsListedOnce(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.NextShell, "")
	for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		d := f.dossier.For(audience)
		require.Greater(t, len(d.PriorityActions), 6)
		text := pdfText(t, f.pdf(t, audience))
		for i, a := range d.PriorityActions[:7] {
			listed := regexp.MustCompile(`\d+\. ` + regexp.QuoteMeta(a.Label) + ` (QUICK WIN )?Impact `)
			require.Len(t, listed.FindAllString(text, -1), 1, "action %d, %q", i+1, a.Label)
		}
		require.Regexp(t, `Actions 1 to 5 are under “Where to start” in the executive summary \(page 2\)\. The others follow\. 6\. `+regexp.QuoteMeta(d.PriorityActions[5].Label), text)
	}
}

// A risk lens and a pillar that share a name are read as one thing: their
// ratings agree, a low risk never beside a weak score. A lens none of whose
// checks was scored is not measured, not "low".
func TestRenderPDFLensesAgreeWithPillars(t *testing.T) {
	t.Parallel()
	for _, name := range testsite.Realistic {
		f := built(t, name, "")
		r := f.report.For(scoring.Marketing)
		pillars := map[string]api.Pillar{}
		for _, ring := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
			for _, p := range ring.Pillars {
				pillars[p.Name] = p
			}
		}
		for _, l := range f.dossier.For(scoring.Marketing).RiskLenses {
			p, ok := pillars[l.Label]
			if !ok {
				continue
			}
			require.NotNil(t, p.Score, "%s: lens %q rated %s, the pillar not measured", name, l.Label, l.Bucket)
			switch l.Bucket {
			case api.TriageRiskLensBucketLow:
				require.GreaterOrEqual(t, *p.Score, 55, "%s: lens %q at low risk, the pillar at %d", name, l.Label, *p.Score)
			case api.TriageRiskLensBucketCritical:
				require.Less(t, *p.Score, 85, "%s: lens %q critical, the pillar at %d", name, l.Label, *p.Score)
			}
		}
	}

	f := built(t, testsite.NextShell, "")
	d := f.dossier.For(scoring.Marketing)
	r := f.report.For(scoring.Marketing)
	var lens api.TriageRiskLens
	for _, l := range d.RiskLenses {
		if l.LensID == api.EntityTrust {
			lens = l
		}
	}
	require.NotEmpty(t, lens.Basis)
	basis := strings.Join(lens.Basis, " ")
	for i := range r.Checks {
		if strings.Contains(" "+basis+" ", " "+r.Checks[i].ID+" ") {
			r.Checks[i].Status, r.Checks[i].Score = api.CheckStatusNa, nil
		}
	}
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, r, &d))
	text := pdfText(t, buf.Bytes())
	require.Contains(t, text, lens.Label+" not measured")
	require.Contains(t, text, "Crawl access "+string(d.RiskLenses[0].Bucket))
}
