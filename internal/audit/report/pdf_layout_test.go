package report_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// The faults a reader sees on paper, looked for in every fixture's PDF of
// both editions as poppler renders it: a heading at the foot of a page
// with its text on the next, a page holding a lone line or bullet, Markdown
// marks printed as such, characters the fonts lack, and settings of
// GeoScan's operator named to a client.

// minPageLines is how many lines of text, header and footer aside, every
// page but the last holds at least.
const minPageLines = 6

// settingToken is an environment variable's name: GEOSCAN_LLM_BASE_URL.
var settingToken = regexp.MustCompile(`\b[A-Z]{2,}(?:_[A-Z0-9]+)*_[A-Z]{2,}[A-Z0-9]*\b`)

// headings are the titles the PDF sets above a block of text: sections,
// subheadings, pillars, fix labels.
func headings(r api.Report, d api.TriageDossier) []string {
	hs := []string{
		"Executive summary", "Scores", "Critical issues", "Where to start", "What already works",
		"Across the site", "Since the previous audit", "Issues on many pages", "Lowest-scored pages",
		"What AI crawlers see and what people see",
		"Site Triage", "Platform", "Risk by lens", "Priority actions", "Caveats",
		"Pillars", "Fixes for this site", "What was fetched",
		"Changes", "Where to change it", "File for your web team", "File", "Before publishing", "How to verify",
	}
	for _, ring := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
		hs = append(hs, scoring.RingNames[scoring.Ring(ring.Ring)])
		for _, p := range ring.Pillars {
			hs = append(hs, p.Name)
		}
	}
	if d.Platform.Cms != nil {
		hs = append(hs, "On "+*d.Platform.Cms)
	}
	return hs
}

// isHeading says whether a line of pdftotext -layout is one of the
// headings, alone or with the note set beside it ("Crawl access · 62 out
// of 100", "File: robots.txt (…)").
func isHeading(line string, hs []string) bool {
	line = strings.Join(strings.Fields(line), " ")
	for _, h := range hs {
		if line == h || strings.HasPrefix(line, h+" ·") || strings.HasPrefix(line, h+": ") {
			return true
		}
	}
	return false
}

// pdfPageLines is each page's lines of text, pdftotext -layout, without
// the running header, the footer and blank lines.
func pdfPageLines(t *testing.T, pdf []byte) [][]string {
	t.Helper()
	return pdfPageLinesIn(t, pdf, "en")
}

// pdfPageLinesIn is pdfPageLines of a PDF in a language.
func pdfPageLinesIn(t *testing.T, pdf []byte, lang string) [][]string {
	t.Helper()
	requirePoppler(t)
	path := filepath.Join(t.TempDir(), "report.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(context.Background(), "pdftotext", "-layout", "-enc", "UTF-8", path, "-").Output()
	require.NoError(t, err, "pdftotext -layout")
	pages := strings.Split(strings.TrimSuffix(string(out), "\f"), "\f")
	footer := pageFooter(lang)
	header := "· " + i18n.For(lang).T("pdf.report", nil)
	all := make([][]string, 0, len(pages))
	for _, p := range pages {
		var lines []string
		for _, l := range strings.Split(p, "\n") {
			if strings.TrimSpace(l) == "" || footer.MatchString(l) || strings.Contains(l, header) {
				continue
			}
			lines = append(lines, l)
		}
		all = append(all, lines)
	}
	return all
}

// layoutFaults lists what is wrong with the layout of a PDF's pages, as
// pdfPageLines has them.
func layoutFaults(pages [][]string, hs []string, marketing bool) []string {
	var faults []string
	for i, lines := range pages {
		n := i + 1
		if len(lines) == 0 {
			faults = append(faults, fmt.Sprintf("page %d is empty", n))
			continue
		}
		if last := lines[len(lines)-1]; isHeading(last, hs) && n < len(pages) {
			faults = append(faults, fmt.Sprintf("page %d ends with the heading %q", n, strings.TrimSpace(last)))
		}
		if n < len(pages) && len(lines) < minPageLines {
			faults = append(faults, fmt.Sprintf("page %d holds only %d lines: %q", n, len(lines), lines))
		}
		for _, l := range lines {
			switch {
			case strings.Contains(l, "`") || strings.Contains(l, "**"):
				faults = append(faults, fmt.Sprintf("page %d prints Markdown: %q", n, strings.TrimSpace(l)))
			case strings.ContainsRune(l, '\uFFFD'):
				faults = append(faults, fmt.Sprintf("page %d has a replacement character: %q", n, strings.TrimSpace(l)))
			case marketing && settingToken.MatchString(l):
				faults = append(faults, fmt.Sprintf("page %d names a setting to a client: %q", n, strings.TrimSpace(l)))
			}
		}
	}
	return faults
}

// pageImages renders every page with pdftoppm at 40 dpi.
func pageImages(t *testing.T, pdf []byte) []image.Image {
	t.Helper()
	requirePoppler(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(context.Background(), "pdftoppm", "-r", "40", "-png", path, filepath.Join(dir, "page")).CombinedOutput()
	require.NoError(t, err, "pdftoppm: %s", out)
	names, err := filepath.Glob(filepath.Join(dir, "page-*.png"))
	require.NoError(t, err)
	imgs := make([]image.Image, 0, len(names))
	for _, name := range names {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		img, err := png.Decode(bytes.NewReader(b))
		require.NoError(t, err, name)
		imgs = append(imgs, img)
	}
	return imgs
}

// inked is the share of a page's pixels that are not near white.
func inked(img image.Image) float64 {
	b := img.Bounds()
	var n int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xe000 || g < 0xe000 || bl < 0xe000 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}

// Each fixture is laid out in English and in one other language, in turn,
// so that every language is checked on three fixtures.
func TestRenderPDFLayout(t *testing.T) {
	t.Parallel()
	for i, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := built(t, name, "")
			for _, lang := range []string{"en", i18n.Supported[1+i%(len(i18n.Supported)-1)]} {
				t.Run(lang, func(t *testing.T) {
					t.Parallel()
					layoutIn(t, f, lang)
				})
			}
		})
	}
}

// layoutIn checks the layout of both editions of a fixture in a language.
func layoutIn(t *testing.T, f fixture, lang string) {
	t.Helper()
	for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		pdf := f.pdfIn(t, audience, lang)
		faults := layoutFaults(pdfPageLinesIn(t, pdf, lang), headingsIn(lang, f.report.For(audience), f.dossier.For(audience)), audience == scoring.Marketing)
		require.Empty(t, faults, "%s edition", audience)

		imgs := pageImages(t, pdf)
		require.Len(t, imgs, pdfPages(t, pdf))
		for i, img := range imgs {
			// A page with only its header and footer inks about
			// 0.2 % of its pixels, a page of text 8 to 12 %.
			require.Greater(t, inked(img), 0.01, "%s edition, page %d is all but blank", audience, i+1)
		}
	}
}

// The checks of layoutFaults find what they look for.
func TestLayoutFaults(t *testing.T) {
	t.Parallel()
	hs := []string{"Caveats", "Crawl access"}
	require.True(t, isHeading("Crawl access      · 62 out of 100", hs))
	require.False(t, isHeading("Crawl access is fine", hs))
	full := func(extra ...string) []string {
		return append([]string{"one", "two", "three", "four", "five", "six"}, extra...)
	}
	for _, tc := range []struct {
		pages [][]string
		want  string
	}{
		{[][]string{full("Crawl access   · 62 out of 100"), full()}, "ends with the heading"},
		{[][]string{full("Caveats"), full()}, "ends with the heading"},
		{[][]string{{"• a lone bullet"}, full()}, "holds only 1 lines"},
		{[][]string{full("`robots.txt` is missing")}, "prints Markdown"},
		{[][]string{full("a **bold** claim")}, "prints Markdown"},
		{[][]string{full("Set GEOSCAN_LLM_BASE_URL to connect")}, "names a setting"},
		{[][]string{full("\uFFFD Sushi")}, "replacement character"},
	} {
		faults := strings.Join(layoutFaults(tc.pages, hs, true), "\n")
		require.Contains(t, faults, tc.want, "%q", tc.pages)
	}
	require.Empty(t, layoutFaults([][]string{full(), {"the last page may be short"}}, hs, true))
	require.Empty(t, layoutFaults([][]string{full("Set GEOSCAN_LLM_BASE_URL")}, hs, false), "the engineering edition may name settings")
}

// Whatever the length of the text above them, the headings of the
// executive summary and the triage page are set with their first lines:
// the summary is padded a line at a time through a whole page.
func TestRenderPDFHeadingsKeepTheirText(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Broken, "")
	for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		r, d := f.report.For(audience), f.dossier.For(audience)
		require.NotEmpty(t, r.GatesFired, "the summary lists critical issues")
		hs := headings(r, d)
		for extra := range 56 {
			t.Run(fmt.Sprintf("%s/%d", audience, extra), func(t *testing.T) {
				t.Parallel()
				r := r
				r.Summaries.Executive += strings.Repeat("\nA line of the summary.", extra)
				var buf bytes.Buffer
				require.NoError(t, report.RenderPDF(&buf, r, &d))
				require.Empty(t, layoutFaults(pdfPageLines(t, buf.Bytes()), hs, audience == scoring.Marketing))
			})
		}
	}
}
