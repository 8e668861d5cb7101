package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// checkOf is a check result of an edition.
func checkOf(t *testing.T, r api.Report, id string) api.CheckResult {
	t.Helper()
	for _, c := range r.Checks {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no check %s", id)
	return api.CheckResult{}
}

// Both editions carry the same fix; as everywhere in the report, only the
// texts are worded for each reader: the summary and the steps to verify.
func TestFixesInBothEditions(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.NextShell, "")
	eng := checkOf(t, f.report.Engineering, "ai_search_bots_allowed").Fix
	mkt := checkOf(t, f.report.Marketing, "ai_search_bots_allowed").Fix
	require.NotNil(t, eng)
	require.NotNil(t, mkt)
	require.Equal(t, "robots_rule", eng.Cause)
	require.Equal(t, eng.Cause, mkt.Cause)
	require.Equal(t, "Next.js", eng.Platform)
	require.NotEqual(t, eng.Summary, mkt.Summary)
	require.Equal(t, []string{"Delete line 5: `Disallow: /`."}, eng.Edits)
	require.Equal(t, eng.Edits, mkt.Edits)
	require.Equal(t, eng.PlatformSteps, mkt.PlatformSteps)
	require.Equal(t, eng.Artifact, mkt.Artifact)
	require.Equal(t, eng.Review, mkt.Review)
	require.Len(t, mkt.Verify, len(eng.Verify))
	commands := 0
	for i := range eng.Verify {
		require.Equal(t, eng.Verify[i].Command, mkt.Verify[i].Command)
		require.NotEqual(t, eng.Verify[i].Step, mkt.Verify[i].Step)
		if eng.Verify[i].Command != nil {
			commands++
		}
	}
	require.Positive(t, commands)

	// A passed check has no fix.
	require.Nil(t, checkOf(t, f.report.Engineering, "robots_txt_fetchable").Fix)
}

// The PDF's "Fixes for this site": the engineering edition shows the files
// in monospace, a long one cut after 40 lines with a note saying where the
// whole file is; the marketing edition names the files without their
// contents and shows no commands.
func TestPDFShowsTheFixes(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.NextShell, "")
	eng := pdfText(t, f.pdf(t, scoring.Engineering))
	require.Contains(t, eng, "Fixes for this site")
	require.Contains(t, eng, "robots.txt.patch")
	require.Contains(t, eng, "-Disallow: /")
	require.Contains(t, eng, "curl -sS")
	mkt := pdfText(t, f.pdf(t, scoring.Marketing))
	require.Contains(t, mkt, "Fixes for this site")
	require.Contains(t, mkt, "File for your web team")
	require.NotContains(t, mkt, "-Disallow: /")
	require.NotContains(t, mkt, "curl ")

	// A long file is cut with a note; a long line wraps rather than runs
	// off the page.
	r := f.report.Engineering
	checksCopy := append([]api.CheckResult(nil), r.Checks...)
	for i, c := range checksCopy {
		if c.ID != "ai_search_bots_allowed" {
			continue
		}
		fix := *c.Fix
		art := *fix.Artifact
		var b strings.Builder
		for n := 1; n <= 100; n++ {
			fmt.Fprintf(&b, "row-%03d\n", n)
		}
		b.WriteString(strings.Repeat("x", 300) + "\n")
		art.Content = b.String()
		fix.Artifact = &art
		checksCopy[i].Fix = &fix
	}
	r.Checks = checksCopy
	d := f.dossier.For(scoring.Engineering)
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, r, &d))
	text := pdfText(t, buf.Bytes())
	require.Contains(t, text, "row-040")
	require.NotContains(t, text, "row-041")
	require.Contains(t, text, "61 more lines")
	require.Contains(t, text, "geoscan scan fixes")
}
