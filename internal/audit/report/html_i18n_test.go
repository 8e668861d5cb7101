package report_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// A report page in German declares lang="de" and says its own words, the
// grades' descriptors and its dates in German; the same stored report in
// English keeps the English words.
func TestWriteHTMLGerman(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Realistic[0], "")
	r := f.report.For(scoring.Marketing)
	in := report.HTMLInput{History: scoreHistory(r), Language: "de", Expires: r.GeneratedAt.AddDate(0, 0, 30)}
	p := parsePage(t, f.htmlOf(t, scoring.Marketing, in))
	requireInert(t, p)

	require.Equal(t, "de", langOf(p))
	headings := p.headings()
	require.Contains(t, headings, "h2 Zusammenfassung")
	require.Contains(t, headings, "h2 Die drei Ringe")
	require.NotContains(t, headings, "h2 Executive summary")
	body := p.bodyText()
	require.Contains(t, body, "Gesamtnote")
	require.Contains(t, body, "Dieser Link funktioniert bis zum "+r.GeneratedAt.AddDate(0, 0, 30).UTC().Format("02.01.2006"))
	require.NotContains(t, body, r.GradeDescriptor, "the grade's descriptor is translated")
	require.Contains(t, body, "Ausgabe für das Marketing")
	require.Contains(t, headings, "h2 KI-Sichtbarkeit", "the rings' sections are named in German")

	in.Language = "en"
	en := parsePage(t, f.htmlOf(t, scoring.Marketing, in))
	require.Equal(t, "en", langOf(en))
	require.Contains(t, en.headings(), "h2 Executive summary")
	require.Contains(t, en.bodyText(), r.GradeDescriptor)
}

func TestWriteHTMLGoneIn(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	require.NoError(t, report.WriteHTMLGoneIn(&buf, http.StatusGone, report.Brand{}, "fr"))
	p := parsePage(t, buf.Bytes())
	require.Equal(t, "fr", langOf(p))
	require.Contains(t, p.headings(), "h1 Ce lien a été révoqué ou a expiré")
	require.Contains(t, p.bodyText(), "Réalisé avec GeoScan")
}

// langOf is the page's declared language.
func langOf(p htmlPage) string {
	for _, a := range p.elements("html")[0].Attr {
		if a.Key == "lang" {
			return a.Val
		}
	}
	return ""
}
