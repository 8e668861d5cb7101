package report_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/debtool"
)

func TestMain(m *testing.M) { audittest.Main(m) }

// fixture is a fixture site's report and dossier, built as a scan builds
// them.
type fixture struct {
	report  report.Stored
	dossier triage.Stored
}

// built audits a fixture site under brand; an empty brand is the default
// a scan gets.
func built(t testing.TB, name, brand string) fixture {
	t.Helper()
	res := audittest.Run(t, name, brand, audit.Options{})
	require.NoError(t, res.TriageErr)
	return fixture{report: *res.Report, dossier: *res.Triage}
}

// pdf renders one edition of a fixture.
func (f fixture) pdf(t testing.TB, audience scoring.Audience) []byte {
	t.Helper()
	d := f.dossier.For(audience)
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDF(&buf, f.report.For(audience), &d))
	return buf.Bytes()
}

// requirePoppler makes sure poppler-utils' pdftotext is installed.
func requirePoppler(t testing.TB) {
	t.Helper()
	debtool.Require(t, "pdftotext", "poppler-utils")
}

// pdfText extracts a PDF's text with pdftotext, whitespace collapsed to
// single spaces so wrapped lines read as one sentence.
func pdfText(t testing.TB, pdf []byte) string {
	t.Helper()
	requirePoppler(t)
	path := filepath.Join(t.TempDir(), "report.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(context.Background(), "pdftotext", "-enc", "UTF-8", path, "-").Output()
	require.NoError(t, err, "pdftotext")
	return strings.Join(strings.Fields(string(out)), " ")
}

// pdfPages is the page count pdfinfo reports.
func pdfPages(t testing.TB, pdf []byte) int {
	t.Helper()
	requirePoppler(t)
	path := filepath.Join(t.TempDir(), "report.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(context.Background(), "pdfinfo", path).Output()
	require.NoError(t, err, "pdfinfo")
	m := regexp.MustCompile(`(?m)^Pages:\s+(\d+)`).FindSubmatch(out)
	require.NotNil(t, m, "pdfinfo output: %s", out)
	n, err := strconv.Atoi(string(m[1]))
	require.NoError(t, err)
	return n
}

// word is one word pdftotext -bbox found, in points from the top left.
type word struct {
	page                   int
	xMin, yMin, xMax, yMax float64
	text                   string
}

var (
	bboxPage = regexp.MustCompile(`<page `)
	bboxWord = regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>`)
)

// pdfWords lists every word with its bounding box.
func pdfWords(t testing.TB, pdf []byte) []word {
	t.Helper()
	requirePoppler(t)
	path := filepath.Join(t.TempDir(), "report.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(context.Background(), "pdftotext", "-bbox", "-enc", "UTF-8", path, "-").Output()
	require.NoError(t, err, "pdftotext -bbox")
	var words []word
	page := 0
	for _, line := range strings.Split(string(out), "\n") {
		if bboxPage.MatchString(line) {
			page++
			continue
		}
		m := bboxWord.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := func(s string) float64 {
			v, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err)
			return v
		}
		words = append(words, word{page: page, xMin: f(m[1]), yMin: f(m[2]), xMax: f(m[3]), yMax: f(m[4]), text: m[5]})
	}
	return words
}
