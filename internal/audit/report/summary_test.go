package report_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// summariesIn builds a fixture's report with its summaries in lang.
func summariesIn(t *testing.T, site, lang string) report.Stored {
	t.Helper()
	res := audittest.Run(t, site, "", audit.Options{})
	return report.Build(report.Input{
		URL: res.Report.Marketing.URL, BrandName: res.Report.Marketing.BrandName, Outcomes: res.Outcomes, Scores: res.Scores,
		Site: res.Site, Language: lang,
	})
}

func allSummaries(s api.Summaries) []string {
	return []string{s.Executive, s.Search, s.Visibility, s.Trust}
}

// The template summaries of a German report are German: the catalogue's
// sentences, the checks' German titles, the gates' German messages and
// decimal commas; no English sentence and no message id is left.
func TestTemplateSummariesInGerman(t *testing.T) {
	t.Parallel()
	st := summariesIn(t, testsite.Broken, "de")
	m, e := st.Marketing, st.Engineering
	require.NotEmpty(t, m.GatesFired, "the fixture fires a gate")
	de := i18n.For("de")

	require.True(t, strings.HasPrefix(m.Summaries.Executive, m.BrandName+" erreicht "), m.Summaries.Executive)
	require.Contains(t, m.Summaries.Executive, "(Note "+string(m.OverallGrade)+")")
	require.Contains(t, m.Summaries.Executive, strings.Replace(strconv.FormatFloat(m.OverallScore, 'f', 1, 64), ".", ",", 1))
	require.Contains(t, m.Summaries.Executive, "Ein kritisches Problem hält")
	require.Contains(t, m.Summaries.Executive, de.T("summary.gate."+m.GatesFired[0].ID, nil))
	require.Contains(t, m.Summaries.Trust, "KI-Vertrauen erreicht")
	require.Contains(t, e.Summaries.Executive, "Gesamt ")
	require.Contains(t, e.Summaries.Search, "Abdeckung ")

	// Checks are named by their German titles in German quotation marks.
	found := false
	for _, c := range checks.All() {
		title := de.CheckText(c.ID, string(scoring.Marketing), "title", c.Marketing.Title)
		if strings.Contains(m.Summaries.Executive, "„"+strings.TrimSuffix(title, ".")+"“") {
			found = true
		}
	}
	require.True(t, found, m.Summaries.Executive)

	for _, r := range []api.Report{m, e} {
		for _, text := range allSummaries(r.Summaries) {
			require.NotContains(t, text, "summary.")
			for _, english := range []string{" scores ", " grade ", "Fix first", "critical issue", "Largest gain", "coverage", " checks pass"} {
				require.NotContains(t, text, english, text)
			}
		}
	}
}

// Every language writes every sentence from its catalogue: nothing falls
// back to a message id, and French and Spanish read as themselves.
func TestTemplateSummariesInEachLanguage(t *testing.T) {
	t.Parallel()
	res := audittest.Run(t, testsite.Broken, "", audit.Options{})
	for lang, marker := range map[string]string{"en": " scores ", "de": " erreicht ", "fr": " obtient ", "es": " obtiene "} {
		st := report.Build(report.Input{URL: res.Report.Marketing.URL, BrandName: "Brokenbay", Outcomes: res.Outcomes, Scores: res.Scores, Site: res.Site, Language: lang})
		for _, r := range []api.Report{st.Marketing, st.Engineering} {
			for _, text := range allSummaries(r.Summaries) {
				require.NotEmpty(t, text, lang)
				require.NotContains(t, text, "summary.", lang)
				require.NotContains(t, text, "{{", lang)
			}
		}
		require.Contains(t, st.Marketing.Summaries.Executive, marker, lang)
	}
}

// The English summaries are the rubric's words: the catalogue's gate
// messages are the gates' own, so an English report reads as it always
// has.
func TestEnglishGateMessagesAreTheRubrics(t *testing.T) {
	t.Parallel()
	en := i18n.For("en")
	for _, g := range scoring.Gates {
		require.Equal(t, g.Message, en.T("summary.gate."+g.ID, nil), g.ID)
	}
	for _, r := range scoring.Rings {
		require.Equal(t, scoring.RingNames[r], en.T("summary.ring."+string(r), nil), r)
	}
}
