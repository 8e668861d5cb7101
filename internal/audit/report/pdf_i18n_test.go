package report_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// pdfIn renders one edition of a fixture in a language.
func (f fixture) pdfIn(t testing.TB, audience scoring.Audience, lang string) []byte {
	t.Helper()
	d := f.dossier.For(audience)
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDFWith(&buf, f.report.For(audience), &d, report.PDFOptions{Language: lang}))
	return buf.Bytes()
}

// A German report's PDF is in German: its headings, labels, check titles
// and edition, with no English edition label left.
func TestRenderPDFInGerman(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.WordPress, "")
	de := i18n.For("de")
	for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		t.Run(string(audience), func(t *testing.T) {
			t.Parallel()
			text := pdfText(t, f.pdfIn(t, audience, "de"))
			for _, want := range []string{
				"Zusammenfassung", "Die drei Ringe", "So lesen Sie diesen Bericht", "Wo Sie anfangen",
				"Was schon gut funktioniert", "Website-Triage", "Säulen", "Was abgerufen wurde", "Crawler-Zugang",
				"Seite 1 von", "GEO-AUDITBERICHT", "Korrekturen für diese Website",
			} {
				require.Contains(t, text, want)
			}
			edition := map[scoring.Audience]string{scoring.Marketing: "AUSGABE FÜR DAS MARKETING", scoring.Engineering: "AUSGABE FÜR DIE TECHNIK"}
			require.Contains(t, text, edition[audience])
			for _, english := range []string{
				"Marketing edition", "Engineering edition", "MARKETING EDITION", "ENGINEERING EDITION",
				"Executive summary", "What already works", "Why it matters", "How to fix", "Page 1 of", "The three rings",
				"Fixes for this site", "How to verify", "Where to change it",
			} {
				require.NotContains(t, text, english)
			}
			// Every check's title is the catalogue's German one.
			r := f.report.For(audience)
			titled := 0
			for _, c := range r.Checks {
				title := de.CheckText(c.ID, string(audience), "title", c.Title)
				if title == c.Title || strings.ContainsAny(title, "`*") {
					continue
				}
				require.Contains(t, text, strings.Join(strings.Fields(title), " "), "check %s", c.ID)
				titled++
			}
			require.Greater(t, titled, 20)
		})
	}
}

// Numbers and dates are in the language's form.
func TestRenderPDFNumbersInLanguage(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Docs, "")
	r := f.report.For(scoring.Marketing)
	r.OverallScore = 72.5
	r.GeneratedAt = time.Date(2026, 3, 4, 9, 30, 0, 0, time.UTC)
	d := f.dossier.For(scoring.Marketing)
	for lang, want := range map[string][]string{
		"en": {"72.5", "4 March 2026, 09:30 UTC"},
		"de": {"72,5", "04.03.2026, 09:30 UTC"},
		"fr": {"72,5", "04/03/2026, 09:30 UTC"},
		"es": {"72,5", "04/03/2026, 09:30 UTC"},
	} {
		var buf bytes.Buffer
		require.NoError(t, report.RenderPDFWith(&buf, r, &d, report.PDFOptions{Language: lang}))
		text := pdfText(t, buf.Bytes())
		for _, w := range want {
			require.Contains(t, text, w, lang)
		}
	}
}

// Every language draws with the embedded fonts: no character is replaced.
func TestRenderPDFEveryLanguageDraws(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Broken, "")
	for _, lang := range i18n.Supported {
		for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
			t.Run(lang+"/"+string(audience), func(t *testing.T) {
				t.Parallel()
				text := pdfText(t, f.pdfIn(t, audience, lang))
				require.NotContains(t, text, "\uFFFD")
				require.NotContains(t, text, "□")
				require.NotContains(t, text, "pdf.", "a message id is printed")
				require.NotContains(t, text, "html.", "a message id is printed")
			})
		}
	}
}

// cjkOnce installs the CJK font once per test binary.
var cjkOnce = sync.OnceValue(func() error {
	if _, err := os.Stat(report.DefaultCJKFont); err == nil {
		return nil
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("the CJK font %s is not installed: run `%s` (the tests install it themselves only when run as root)",
			report.DefaultCJKFont, report.CJKFontInstall)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c",
		"apt-get -o DPkg::Lock::Timeout=240 update -qq && apt-get -o DPkg::Lock::Timeout=240 install -y -qq fonts-wqy-microhei")
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("install fonts-wqy-microhei: %w\n%s", err, out)
	}
	_, err := os.Stat(report.DefaultCJKFont)
	return err
})

// requireCJKFont makes sure the default CJK font is installed, installing
// Debian's package when the tests run as root; it never skips.
func requireCJKFont(t testing.TB) {
	t.Helper()
	require.NoError(t, cjkOnce())
}

// cjkReport is a fixture's report about a site written in Chinese,
// Japanese and Korean: its name, and findings that quote its pages.
func cjkReport(t testing.TB) (api.Report, api.TriageDossier) {
	t.Helper()
	f := built(t, testsite.Docs, "")
	r := f.report.For(scoring.Marketing)
	r.BrandName = "東京タワー 서울 咖啡"
	for i := range r.Checks {
		if i%3 == 0 {
			r.Checks[i].Summary = "The page title is “東京タワー公式サイト｜展望台”, the heading “서울 커피 전문점” and the description “北京烤鸭，正宗老字号。”."
		}
	}
	r.Summaries.Executive = "日本語のまとめ: 東京タワーのサイトです。한국어 요약입니다. 中文摘要。"
	return r, f.dossier.For(scoring.Marketing)
}

// A site's Chinese, Japanese and Korean text is drawn in the CJK font and
// extracts as written, beside the Latin text in the Go fonts.
func TestRenderPDFDrawsCJK(t *testing.T) {
	t.Parallel()
	requireCJKFont(t)
	r, d := cjkReport(t)
	for _, lang := range []string{"en", "de"} {
		var buf bytes.Buffer
		require.NoError(t, report.RenderPDFWith(&buf, r, &d, report.PDFOptions{Language: lang}))
		text := pdfText(t, buf.Bytes())
		for _, want := range []string{"東京タワー 서울 咖啡", "東京タワー公式サイト｜展望台", "서울 커피 전문점", "北京烤鸭，正宗老字号。", "한국어 요약입니다."} {
			require.Contains(t, text, want, lang)
		}
		require.NotContains(t, text, "□")
		require.NotContains(t, text, "\uFFFD")
	}
	// Without CJK text the font is not embedded at all.
	f := built(t, testsite.Docs, "")
	plain, d2 := f.report.For(scoring.Marketing), f.dossier.For(scoring.Marketing)
	var with, without bytes.Buffer
	require.NoError(t, report.RenderPDF(&without, plain, &d2))
	plain.BrandName = "東京"
	require.NoError(t, report.RenderPDF(&with, plain, &d2))
	require.Less(t, without.Len(), with.Len())
	require.NotContains(t, without.String(), "WenQuanYi")
}

// Without the CJK font the characters are marked, and the cover says once
// why.
func TestRenderPDFMarksCJKWithoutTheFont(t *testing.T) {
	t.Parallel()
	r, d := cjkReport(t)
	var buf bytes.Buffer
	require.NoError(t, report.RenderPDFWith(&buf, r, &d, report.PDFOptions{CJKFont: t.TempDir() + "/missing.ttf"}))
	text := pdfText(t, buf.Bytes())
	require.NotContains(t, text, "東京")
	require.Contains(t, text, "The page title is “□”")
	require.Contains(t, text, "□ □ □")
	require.Equal(t, 1, strings.Count(text, "the font for it is not installed"))
}

// Without a language, and with one there is no catalogue for, the PDF is
// English.
func TestRenderPDFLanguageDefaultsToEnglish(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Docs, "")
	for _, lang := range []string{"", "xx"} {
		text := pdfText(t, f.pdfIn(t, scoring.Marketing, lang))
		require.Contains(t, text, "Executive summary")
		require.Contains(t, text, "MARKETING EDITION")
	}
}

// pageFooter matches the footer "Page 3 of 12" in a language.
func pageFooter(lang string) *regexp.Regexp {
	parts := strings.Split(i18n.For(lang).T("pdf.page_of", map[string]any{"Page": "\x00", "Pages": "\x00"}), "\x00")
	return regexp.MustCompile(regexp.QuoteMeta(parts[0]) + `\d+` + regexp.QuoteMeta(parts[1]) + `\d+` + regexp.QuoteMeta(parts[2]) + `\s*$`)
}

// headingsIn are headings in a language besides English.
func headingsIn(lang string, r api.Report, d api.TriageDossier) []string {
	hs := headings(r, d)
	w := i18n.For(lang)
	for _, id := range []string{
		"html.summary", "html.scores", "html.critical", "html.where_to_start", "html.strengths", "html.across",
		"html.since_previous", "html.many_pages", "html.lowest", "html.rendering", "html.triage", "html.platform",
		"html.risk_by_lens", "html.priority_actions", "html.caveats", "html.pillars", "html.fixes", "pdf.fetched",
		"html.ring.search", "html.ring.visibility", "html.ring.trust",
		"pdf.fixes_changes", "pdf.fixes_where", "pdf.fixes_file_team", "pdf.fixes_file", "pdf.fixes_review", "pdf.fixes_verify",
	} {
		hs = append(hs, w.T(id, nil))
	}
	if d.Platform.Cms != nil {
		hs = append(hs, w.T("pdf.fixes_on", map[string]any{"Platform": *d.Platform.Cms}))
	}
	for _, p := range scoring.Pillars {
		hs = append(hs, w.T("pdf.pillar."+p.ID, nil))
	}
	return hs
}
