package mail

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	auditreport "github.com/geoscan/geoscan/internal/audit/report"
)

func report() Report {
	return Report{
		URL: "https://www.example.com/", Domain: "www.example.com", BrandName: "Example", Frequency: "monthly",
		FinishedAt: time.Date(2027, 3, 31, 9, 4, 0, 0, time.UTC), Overall: 81.4, OverallGrade: "B",
		Rings: []Ring{
			{Name: "Search", Score: 80, Grade: "B"},
			{Name: "Visibility", Score: 82, Grade: "B"},
			{Name: "Trust", Score: 85, Grade: "A"},
		},
		QuickWins: []QuickWin{
			{Label: "Allow OAI-SearchBot", Recommendation: "Remove the Disallow rule.", Gain: "+4.4 points"},
			{Label: "Add a meta description", Recommendation: "Write one sentence."},
			{Label: "Serve llms.txt", Recommendation: "Publish a short index."},
			{Label: "Fourth", Recommendation: "Not shown."},
		},
		ReportURL: "https://geoscan.example/r/gss_abc", ShareExpiresAt: time.Date(2027, 4, 30, 9, 4, 0, 0, time.UTC),
		PDFURL:    "https://geoscan.example/api/v1/scans/s1/pdf?audience=marketing",
		NextRunAt: time.Date(2027, 4, 30, 9, 0, 0, 0, time.UTC), ScheduleID: "sch1",
	}
}

func TestComposeFirstScan(t *testing.T) {
	t.Parallel()
	m, err := Compose(report())
	require.NoError(t, err)
	require.Equal(t, "GeoScan: www.example.com scored 81.4 (B)", m.Subject)
	for _, want := range []string{
		"The scheduled scan of Example (www.example.com) completed on 31 March 2027 09:04 UTC.",
		"Overall: 81.4 (B)\n", "first completed scan",
		"Search:     80 (B)\n", "Visibility: 82 (B)\n", "Trust:      85 (A)\n",
		"  1. Allow OAI-SearchBot (+4.4 points): Remove the Disallow rule.\n", "  3. Serve llms.txt: Publish a short index.\n",
		"Report: https://geoscan.example/r/gss_abc\n        Opens without a key until 30 April 2027: anyone with the link can read it.\n",
		"PDF:    https://geoscan.example/api/v1/scans/s1/pdf?audience=marketing\n        Needs your GeoScan API key in the X-API-Key header.\n",
		"due on 30 April 2027", "PATCH /api/v1/schedules/sch1",
	} {
		require.Contains(t, m.Text, want)
	}
	require.NotContains(t, m.Text, "Fourth", "three quick wins at most")
	require.NotContains(t, m.Text, "regressed", "no comparison without a previous scan")
	require.Contains(t, m.HTML, `<a href="https://geoscan.example/r/gss_abc">Report</a> (opens without a key until 30 April 2027`)
	require.Contains(t, m.HTML, `<a href="https://geoscan.example/api/v1/scans/s1/pdf?audience=marketing">PDF</a> (needs your GeoScan API key`)
	require.Contains(t, m.HTML, "<li><strong>Allow OAI-SearchBot</strong> (&#43;4.4 points): Remove the Disallow rule.</li>")
	require.NotContains(t, m.Text, "Fix first", "the first quick win is the first priority")
}

// A first priority that is no quick win is named with what it adds, in
// both bodies, before the quick wins.
func TestComposeNamesTheFirstFix(t *testing.T) {
	t.Parallel()
	r := report()
	r.FirstFix = &QuickWin{Label: "Readable text without JavaScript", Recommendation: "Render the text on the server.", Gain: "+9.4 points"}
	m, err := Compose(r)
	require.NoError(t, err)
	require.Contains(t, m.Text, "\nFix first: Readable text without JavaScript (+9.4 points): Render the text on the server.\n\nQuick wins:\n")
	require.Contains(t, m.HTML, "<p><strong>Readable text without JavaScript</strong> (&#43;9.4 points): Render the text on the server.</p>")
}

func TestComposeComparesWithThePreviousScan(t *testing.T) {
	t.Parallel()
	r := report()
	r.Previous = &Previous{FinishedAt: time.Date(2027, 2, 28, 9, 3, 0, 0, time.UTC), Overall: 72.9, OverallGrade: "C"}
	prev := []int{74, 82, 90}
	r.Rings[0].PrevScore, r.Rings[0].PrevGrade = &prev[0], "C"
	r.Rings[1].PrevScore, r.Rings[1].PrevGrade = &prev[1], "B"
	r.Rings[2].PrevScore, r.Rings[2].PrevGrade = &prev[2], "A"
	r.Regressed = []CheckChange{{Title: "Trust signals", From: "pass", To: "warn"}}
	for i := range 12 {
		r.Improved = append(r.Improved, CheckChange{Title: fmt.Sprintf("Check %d", i), From: "fail", To: "pass"})
	}
	m, err := Compose(r)
	require.NoError(t, err)
	require.Equal(t, "GeoScan: www.example.com scored 81.4 (B), +8.5", m.Subject)
	for _, want := range []string{
		"Overall: 81.4 (B)\n         +8.5, grade C → B since the previous scan on 28 February 2027 (72.9)\n",
		"Search:     80 (B)  +6, was C\n", "Visibility: 82 (B)  unchanged\n", "Trust:      85 (A)  -5\n",
		"Checks that regressed (1):\n  - Trust signals (pass → warn)\n",
		"Checks that improved (12):\n  - Check 0 (fail → pass)\n", "  - Check 9 (fail → pass)\n  … and 2 more in the report\n",
	} {
		require.Contains(t, m.Text, want)
	}
	require.NotContains(t, m.Text, "Check 10")
	require.Contains(t, m.HTML, "Checks that improved (12)")
	require.Contains(t, m.HTML, "<li>… and 2 more in the report</li>")

	// Same score: no delta in the subject, said plainly in the body.
	r.Previous.Overall, r.Previous.OverallGrade = 81.4, "B"
	m, err = Compose(r)
	require.NoError(t, err)
	require.Equal(t, "GeoScan: www.example.com scored 81.4 (B)", m.Subject)
	require.Contains(t, m.Text, "unchanged, grade B unchanged since the previous scan")
}

func TestComposeFailedScan(t *testing.T) {
	t.Parallel()
	r := report()
	r.Failed, r.ErrorCode, r.Error = true, "dns_failure", "The host www.example.com could not be resolved."
	m, err := Compose(r)
	require.NoError(t, err)
	require.Equal(t, "GeoScan: the scheduled scan of www.example.com failed", m.Subject)
	require.Contains(t, m.Text, "Why: The host www.example.com could not be resolved. (dns_failure)\n")
	require.NotContains(t, m.Text, "Overall:")
	require.Contains(t, m.HTML, "<strong>Why:</strong> The host www.example.com could not be resolved. (<code>dns_failure</code>)")
}

// TestComposeEscapesClientText feeds the brand name a client chose, shaped
// to break out of the HTML or the subject line.
func TestComposeEscapesClientText(t *testing.T) {
	t.Parallel()
	r := report()
	r.BrandName = "<script>alert(1)</script>\r\nBcc: x@example.com"
	r.Domain = "www.example.com\nX-Injected: 1"
	m, err := Compose(r)
	require.NoError(t, err)
	require.NotContains(t, m.Subject, "\n")
	require.NotContains(t, m.Subject, "\r")
	require.NotContains(t, m.HTML, "<script>")
	require.Contains(t, m.HTML, "&lt;script&gt;")
	require.NotContains(t, m.Text, "\r", "no carriage return reaches the text body")
}

// A branded email is signed with the brand's name and ends with its
// contact and footer lines, escaped like all client text; GeoScan is named
// only when the brand shows it.
func TestComposeBranded(t *testing.T) {
	t.Parallel()
	r := report()
	r.Brand = auditreport.Brand{Name: "Acme <Agency>", Contact: "hello@acme.example", Footer: "Acme & partners\nLondon", HideGeoScan: true}
	m, err := Compose(r)
	require.NoError(t, err)
	require.Equal(t, "Acme <Agency>: www.example.com scored 81.4 (B)", m.Subject)
	require.Contains(t, m.Text, "Needs your API key in the X-API-Key header.")
	require.Contains(t, m.Text, "\n-- \nhello@acme.example\nAcme & partners London\n")
	require.NotContains(t, m.Text, "GeoScan")
	require.Contains(t, m.HTML, "hello@acme.example<br>Acme &amp; partners London</p>")
	require.Contains(t, m.HTML, "<title>Acme &lt;Agency&gt;: www.example.com")
	require.NotContains(t, m.HTML, "GeoScan")

	r.Brand.HideGeoScan = false
	m, err = Compose(r)
	require.NoError(t, err)
	require.Contains(t, m.Text, "Made with GeoScan\n")
	require.Contains(t, m.Text, "your GeoScan API key")

	r.Failed, r.Error = true, "The site did not answer."
	m, err = Compose(r)
	require.NoError(t, err)
	require.Equal(t, "Acme <Agency>: the scheduled scan of www.example.com failed", m.Subject)
}
