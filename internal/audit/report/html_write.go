package report

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"regexp"
	"strings"

	"github.com/geoscan/geoscan/internal/i18n"
)

// The page is html/template's: every text of the scanned site reaches it as
// data and is escaped for where it lands. Its only style is one <style>
// element holding the embedded stylesheet, whose SHA-256 the
// Content-Security-Policy names, so the policy needs no 'unsafe-inline'
// and no nonce, and HTMLHeaders can set it without seeing the page. That
// is also why nothing carries a style attribute: colours that vary (the
// brand's, the grades') are SVG presentation attributes, which CSP does not
// govern, and bar lengths are SVG widths.

//go:embed html/report.css html/report.html.tmpl html/gone.html.tmpl
var htmlFiles embed.FS

// pageCSS is the stylesheet, and styleHash its CSP source expression.
var pageCSS, styleHash = func() (string, string) {
	b, err := htmlFiles.ReadFile("html/report.css")
	if err != nil {
		panic("report: read embedded stylesheet: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return string(b), "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

var htmlTemplates = template.Must(template.New("").Funcs(template.FuncMap{
	"css": func() template.CSS { return template.CSS(pageCSS) }, //nolint:gosec // the embedded stylesheet, not input
}).ParseFS(htmlFiles, "html/*.tmpl"))

// contentSecurityPolicy forbids everything but the page's own stylesheet
// and images written into it (the logo): no script, no frames, no forms,
// no requests.
var contentSecurityPolicy = "default-src 'none'; style-src " + styleHash +
	"; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// HTMLHeaders sets the headers the HTML report and the gone page are sent
// with: the policy above, kept out of search engines, caches and referrers.
func HTMLHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Robots-Tag", "noindex, nofollow")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "private, no-store")
}

// WriteHTML writes the HTML report, a whole document.
func WriteHTML(w io.Writer, in HTMLInput) error {
	if err := htmlTemplates.ExecuteTemplate(w, "report.html.tmpl", buildView(in)); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}

// goneView is what the page for a share link that does not work shows:
// the brand and one sentence, nothing of any report.
type goneView struct {
	Lang    string
	W       words
	Head    brandHead
	Title   string
	Message string
	Foot    brandFoot
	// Expires is empty: the footer's expiry is a report's.
	Expires string
}

// WriteHTMLGone writes the page a share link answers with when it shows
// no report: 404 for a link that never existed, 410 for one revoked or
// expired. Any other status is said as a link that does not work.
func WriteHTMLGone(w io.Writer, status int, brand Brand) error {
	return WriteHTMLGoneIn(w, status, brand, i18n.English)
}

// WriteHTMLGoneIn is WriteHTMLGone in a language ("en", "de", "fr", "es").
func WriteHTMLGoneIn(w io.Writer, status int, brand Brand, language string) error {
	words := i18n.For(lang(language))
	v := goneView{Lang: words.Lang(), W: words, Head: headOf(brand), Foot: footOf(brand)}
	switch status {
	case http.StatusNotFound:
		v.Title, v.Message = words.T("html.gone.missing.title", nil), words.T("html.gone.missing.message", nil)
	case http.StatusGone:
		v.Title, v.Message = words.T("html.gone.gone.title", nil), words.T("html.gone.ask", nil)
	default:
		v.Title, v.Message = words.T("html.gone.other.title", nil), words.T("html.gone.ask", nil)
	}
	if err := htmlTemplates.ExecuteTemplate(w, "gone.html.tmpl", v); err != nil {
		return fmt.Errorf("write html gone page: %w", err)
	}
	return nil
}

// WriteHTMLLimited writes the page a share link answers with when its
// client has opened too many pages in a short time (429). The link is not
// looked up before the limit is checked, so the page shows no brand and
// nothing of GeoScan: it may stand in for a white-labelled report. The
// caller sets Retry-After.
func WriteHTMLLimited(w io.Writer, language string) error {
	words := i18n.For(lang(language))
	v := goneView{
		Lang: words.Lang(), W: words,
		Head:  headOf(Brand{HideGeoScan: true}),
		Title: words.T("html.limited.title", nil), Message: words.T("html.limited.message", nil),
	}
	if err := htmlTemplates.ExecuteTemplate(w, "gone.html.tmpl", v); err != nil {
		return fmt.Errorf("write html limited page: %w", err)
	}
	return nil
}

// brandHead is the top of every page: who the report is from.
type brandHead struct {
	Author string
	Logo   template.URL
	Band   string
	// BandText is whether the band is tall enough to carry the author in
	// white: only when the colour gives that text 4.5:1, and without a
	// logo, which may not stand out on the colour.
	BandText bool
}

// brandFoot is the bottom of every page.
type brandFoot struct {
	Contact, Footer string
	MadeWith        bool
}

// defaultBrandColor is GeoScan's primary colour.
const defaultBrandColor = "#0b5ed7"

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// brandColor is the brand's colour when it is a #rrggbb one, else
// GeoScan's.
func brandColor(b Brand) string {
	if hexColor.MatchString(b.PrimaryColor) {
		return strings.ToLower(b.PrimaryColor)
	}
	return defaultBrandColor
}

func headOf(b Brand) brandHead {
	h := brandHead{Author: strings.TrimSpace(b.Name), Band: brandColor(b)}
	if h.Author == "" && !b.HideGeoScan {
		h.Author = "GeoScan"
	}
	h.Logo = logoURL(b)
	h.BandText = h.Logo == "" && contrast(h.Band, "#ffffff") >= 4.5
	return h
}

func footOf(b Brand) brandFoot {
	return brandFoot{Contact: strings.TrimSpace(b.Contact), Footer: strings.TrimSpace(b.Footer), MadeWith: !b.HideGeoScan}
}

// logoURL is the logo as a data: URI for an <img>, where neither a PNG nor
// an SVG can run anything; other media types are not shown.
func logoURL(b Brand) template.URL {
	if len(b.Logo) == 0 {
		return ""
	}
	switch b.LogoType {
	case "image/png", "image/svg+xml":
		return template.URL("data:" + b.LogoType + ";base64," + base64.StdEncoding.EncodeToString(b.Logo)) //nolint:gosec // a media type from the list above and base64
	}
	return ""
}

// contrast is the WCAG contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c string) float64 {
	var r, g, b int
	if _, err := fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return 0
	}
	lin := func(v int) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

var langTag = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// lang is the page's language tag, English unless a well-formed one is
// given.
func lang(s string) string {
	if langTag.MatchString(s) {
		return s
	}
	return "en"
}
