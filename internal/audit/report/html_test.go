package report_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// htmlOf writes one edition of a fixture as the HTML report.
func (f fixture) htmlOf(t testing.TB, audience scoring.Audience, in report.HTMLInput) []byte {
	t.Helper()
	d := f.dossier.For(audience)
	in.Report, in.Triage = f.report.For(audience), &d
	var buf bytes.Buffer
	require.NoError(t, report.WriteHTML(&buf, in))
	return buf.Bytes()
}

// scoreHistory is three scans of a site, the last one r.
func scoreHistory(r api.Report) []report.HistoryPoint {
	return []report.HistoryPoint{
		{At: r.GeneratedAt.AddDate(0, -2, 0), Overall: 41, Search: 50, Visibility: 30, Trust: 45},
		{At: r.GeneratedAt.AddDate(0, -1, 0), Overall: 55, Search: 62, Visibility: 44, Trust: 58},
		{At: r.GeneratedAt, Overall: int(r.OverallScore), Search: r.Rings.Search.Score, Visibility: r.Rings.Visibility.Score, Trust: r.Rings.Trust.Score},
	}
}

// htmlPage is a parsed HTML document with what the tests ask of it.
type htmlPage struct{ root *html.Node }

func parsePage(t testing.TB, b []byte) htmlPage {
	t.Helper()
	root, err := html.Parse(bytes.NewReader(b))
	require.NoError(t, err)
	return htmlPage{root}
}

func (p htmlPage) walk(fn func(n *html.Node)) {
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		fn(n)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(p.root)
}

// elements are the elements of a tag, in document order.
func (p htmlPage) elements(tag string) []*html.Node {
	var out []*html.Node
	p.walk(func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == tag {
			out = append(out, n)
		}
	})
	return out
}

// nodeText is the text of n, whitespace collapsed.
func nodeText(n *html.Node) string {
	var b strings.Builder
	var rec func(n *html.Node)
	rec = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			rec(c)
		}
	}
	rec(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// bodyText is the text a reader sees: the body's, without the stylesheet.
func (p htmlPage) bodyText() string { return nodeText(p.elements("body")[0]) }

func (p htmlPage) headings() []string {
	var out []string
	p.walk(func(n *html.Node) {
		if n.Type == html.ElementNode && len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6' {
			out = append(out, n.Data+" "+nodeText(n))
		}
	})
	return out
}

// requireInert fails when the document could run or load anything: a
// script element, an event handler, a style attribute (which the policy
// would refuse), a link to anything but an http(s) URL or a fragment of
// the page, an image from anything but a data: PNG or SVG.
func requireInert(t *testing.T, p htmlPage) {
	t.Helper()
	require.Empty(t, p.elements("script"), "no script element")
	for _, tag := range []string{"iframe", "object", "embed", "form", "base", "link"} {
		require.Empty(t, p.elements(tag), "no %s element", tag)
	}
	p.walk(func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		for _, a := range n.Attr {
			key := strings.ToLower(a.Key)
			val := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
			require.False(t, strings.HasPrefix(key, "on"), "event handler %s=%q on <%s>", a.Key, a.Val, n.Data)
			require.NotEqual(t, "style", key, "style attribute on <%s>", n.Data)
			require.NotEqual(t, "http-equiv", key, "http-equiv on <%s>", n.Data)
			require.NotContains(t, val, "javascript:", "%s=%q on <%s>", a.Key, a.Val, n.Data)
			require.NotContains(t, val, "vbscript:", "%s=%q on <%s>", a.Key, a.Val, n.Data)
			switch key {
			case "href":
				require.Regexp(t, `^(https?://|#)`, a.Val, "link on <%s>", n.Data)
				if strings.HasPrefix(a.Val, "http") {
					require.Contains(t, n.Attr, html.Attribute{Key: "rel", Val: "nofollow noopener noreferrer"}, "a link to the site is rel=nofollow noopener noreferrer")
				}
			case "src":
				require.Regexp(t, `^data:image/(png|svg\+xml);base64,`, a.Val, "image source on <%s>", n.Data)
			}
		}
	})
}

// requireStyleHashed checks that the page's one style element is the one
// the Content-Security-Policy allows.
func requireStyleHashed(t *testing.T, p htmlPage) {
	t.Helper()
	styles := p.elements("style")
	require.Len(t, styles, 1)
	sum := sha256.Sum256([]byte(styles[0].FirstChild.Data))
	h := http.Header{}
	report.HTMLHeaders(h)
	require.Contains(t, h.Get("Content-Security-Policy"), "style-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
}

// The stored reports of every fixture render, both editions, with every
// score, every check and the sections in the PDF's order.
func TestWriteHTMLFixtures(t *testing.T) {
	t.Parallel()
	forbidden := internalIDs()
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := built(t, name, "")
			for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
				r := f.report.For(audience)
				p := parsePage(t, f.htmlOf(t, audience, report.HTMLInput{History: scoreHistory(r), Language: "en", Expires: r.GeneratedAt.AddDate(0, 0, 30)}))
				requireInert(t, p)
				requireStyleHashed(t, p)
				body := p.bodyText()

				require.Contains(t, body, r.URL)
				require.Contains(t, body, r.BrandName)
				require.Contains(t, body, fmt.Sprintf("%.1f out of 100", r.OverallScore))
				require.Contains(t, body, "Overall grade "+string(r.OverallGrade))
				for _, ring := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
					require.Contains(t, body, fmt.Sprintf("%d out of 100 · grade %s", ring.Score, ring.Grade), "ring %s", ring.Ring)
				}
				for _, c := range r.Checks {
					require.Contains(t, body, strings.Join(strings.Fields(c.Title), " "), "every check is listed")
				}
				require.Contains(t, body, "This link works until")
				require.Contains(t, body, "Made with GeoScan")

				// Sections in the PDF's order, headings never skipping a level.
				hs := p.headings()
				order := []string{"h1 " + r.BrandName, "h2 Executive summary", "h2 Site Triage", "h2 Search", "h2 AI visibility", "h2 AI trust", "h2 Scores over time", "h2 Caveats"}
				at := -1
				for _, want := range order {
					i := indexFrom(hs, want, at+1)
					require.Greater(t, i, at, "%q after the sections before it in %q", want, hs)
					at = i
				}
				level := 0
				for _, h := range hs {
					l := int(h[1] - '0')
					require.LessOrEqual(t, l, level+1, "heading %q skips a level", h)
					level = l
				}
				require.Len(t, p.elements("h1"), 1)
				require.Len(t, p.elements("main"), 1)
				require.Len(t, p.elements("polyline"), 4, "the trend draws the overall score and the three rings")
				require.Equal(t, "en", nodeAttr(p.elements("html")[0], "lang"))

				if audience == scoring.Marketing {
					for _, id := range forbidden {
						requireAbsent(t, body, `\b`+id+`\b`)
					}
				} else {
					require.Contains(t, body, r.Checks[0].ID, "the engineering edition names check ids")
				}
			}
		})
	}
}

func indexFrom(list []string, want string, from int) int {
	for i := from; i < len(list); i++ {
		if list[i] == want {
			return i
		}
	}
	return -1
}

func nodeAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hostile is text a scanned site controls, written to break out of every
// context it may land in.
const hostile = `</title></style><script>alert(1)</script><img src=x onerror=alert(2)>"'><svg onload=alert(3)> javascript:alert(4)`

// hostileInput is a report whose every text the scanned site or the brand
// controls is hostile.
func hostileInput(t testing.TB) report.HTMLInput {
	t.Helper()
	f := built(t, testsite.Broken, "")
	r := f.report.For(scoring.Engineering)
	d := f.dossier.For(scoring.Engineering)
	r.BrandName = hostile
	r.URL = "javascript:alert(5)//" + hostile
	r.Summaries.Executive = hostile
	r.Summaries.Search = hostile
	r.GradeDescriptor = hostile
	r.ScoringVersion = hostile
	r.Caveats = &[]string{hostile}
	for i := range r.Checks {
		r.Checks[i].Title = hostile
		r.Checks[i].Summary = hostile
		r.Checks[i].Evidence = map[string]any{"title": hostile, hostile: []any{hostile, map[string]any{"x": hostile}}}
		r.Checks[i].Recommendation = ptr(hostile)
	}
	r.Site = &api.SiteCoverage{PagesAudited: 3, PagesKnown: 5, PagesPlanned: 10, Sample: hostile, Stop: hostile}
	r.CrossCuttingIssues = &[]api.CrossCuttingIssue{{
		CheckID: r.Checks[0].ID, PagesAffected: 2, PagesAudited: 3, Groups: []string{hostile},
		ExampleUrls: []string{"javascript:alert(6)", "JaVaScRiPt:alert(7)", " javascript:alert(8)", "data:text/html,<script>alert(9)</script>", "https://site.test/a?q=" + hostile},
	}}
	r.WorstPages = &[]api.WorstPage{{URL: "javascript:alert(10)", Group: hostile, Score: 12}, {URL: "https://site.test/\"><script>alert(11)</script>", Group: "/", Score: 20}}
	r.Rendering = &api.RenderCoverage{Mode: "rendered", Pages: []api.RenderedPage{
		{URL: hostile, Rendered: true, Summary: hostile, Comparison: &api.RenderComparison{RawTitle: hostile, RenderedTitle: hostile, JsonldOnlyRendered: []string{hostile}}},
		{URL: "vbscript:x", Reason: hostile, Group: ptr(hostile)},
	}}
	d.SummaryParagraph = hostile
	d.Caveats = []string{hostile}
	for i := range d.PriorityActions {
		d.PriorityActions[i].Label = hostile
		d.PriorityActions[i].Recommendation = hostile
	}
	brand := report.Brand{
		Name: hostile, PrimaryColor: `#000000;}</style><script>alert(12)</script>`,
		Logo: []byte(`<html><script>alert(13)</script>`), LogoType: "text/html",
		Contact: hostile, Footer: hostile,
	}
	return report.HTMLInput{Report: r, Triage: &d, Brand: brand, Language: `en"><script>alert(14)</script>`, History: scoreHistory(r)}
}

// Whatever the scanned site and the brand put in their texts, the page
// shows it as text: no script, no handler, no javascript: URL.
func TestWriteHTMLHostileText(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	require.NoError(t, report.WriteHTML(&buf, hostileInput(t)))
	p := parsePage(t, buf.Bytes())
	requireInert(t, p)
	requireStyleHashed(t, p)
	require.Empty(t, p.elements("img"), "a logo of another media type is not shown")
	require.Equal(t, "en", nodeAttr(p.elements("html")[0], "lang"), "a malformed language is English")
	require.Len(t, p.elements("title"), 1)
	require.Equal(t, "GEO audit report: "+hostile, nodeText(p.elements("title")[0]), "the hostile title is the title's text")
	require.Contains(t, p.bodyText(), "alert(1)", "hostile text is shown as text")
	links := 0
	for _, a := range p.elements("a") {
		if h := nodeAttr(a, "href"); strings.HasPrefix(h, "https://site.test/") {
			links++
			require.NotContains(t, h, "<", "a linked URL is escaped")
			require.NotContains(t, h, `"`, "a linked URL is escaped")
		}
	}
	require.Positive(t, links, "https URLs are links")
	require.Contains(t, p.bodyText(), "javascript:alert(6)", "another scheme is shown as text")

	// An empty report renders too.
	buf.Reset()
	require.NoError(t, report.WriteHTML(&buf, report.HTMLInput{}))
	requireInert(t, parsePage(t, buf.Bytes()))
}

// The page of a link that shows no report says why, with the brand and
// nothing of any report.
func TestWriteHTMLGone(t *testing.T) {
	t.Parallel()
	brand := report.Brand{Name: "Acme Agency", PrimaryColor: "#7a1fa2", Contact: "hello@acme.test", Footer: "Acme Agency Ltd"}
	for status, want := range map[int]string{
		http.StatusNotFound:            "This link does not exist",
		http.StatusGone:                "This link was revoked or has expired",
		http.StatusInternalServerError: "This link does not work",
	} {
		var buf bytes.Buffer
		require.NoError(t, report.WriteHTMLGone(&buf, status, brand))
		p := parsePage(t, buf.Bytes())
		requireInert(t, p)
		requireStyleHashed(t, p)
		require.Equal(t, want, nodeText(p.elements("title")[0]))
		require.Equal(t, []string{"h1 " + want}, p.headings())
		body := p.bodyText()
		require.Contains(t, body, "Acme Agency")
		require.Contains(t, body, "hello@acme.test")
		for _, reportWord := range []string{"grade", "score", "out of 100", "Executive", "Triage", "works until"} {
			require.NotContains(t, strings.ToLower(body), strings.ToLower(reportWord))
		}
		require.Empty(t, p.elements("section"))
	}
	var buf bytes.Buffer
	require.NoError(t, report.WriteHTMLGone(&buf, http.StatusGone, report.Brand{Name: "Acme Agency", HideGeoScan: true}))
	require.NotContains(t, buf.String(), "GeoScan")
}

func TestHTMLHeaders(t *testing.T) {
	t.Parallel()
	h := http.Header{}
	report.HTMLHeaders(h)
	csp := h.Get("Content-Security-Policy")
	require.Regexp(t, `^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$`, csp)
	require.NotContains(t, csp, "script-src")
	require.NotContains(t, csp, "unsafe")
	require.Equal(t, "noindex, nofollow", h.Get("X-Robots-Tag"))
	require.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
	require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
	require.Equal(t, "text/html; charset=utf-8", h.Get("Content-Type"))
	require.Equal(t, "private, no-store", h.Get("Cache-Control"))
}

// The brand: its name and logo head the page, its colour draws the band
// (carrying white text only when the colour gives it 4.5:1), and with
// HideGeoScan the reader sees no "GeoScan".
func TestWriteHTMLBrand(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Bakery, "")
	png := []byte("\x89PNG\r\n\x1a\n")
	for _, tc := range []struct {
		name      string
		brand     report.Brand
		band      string
		whiteText bool
	}{
		{"default", report.Brand{}, "#0b5ed7", true},
		{"dark", report.Brand{Name: "Acme", PrimaryColor: "#7A1FA2"}, "#7a1fa2", true},
		{"dark with a logo", report.Brand{Name: "Acme", PrimaryColor: "#7A1FA2", Logo: png, LogoType: "image/png"}, "#7a1fa2", false},
		{"light", report.Brand{Name: "Acme", PrimaryColor: "#ffd400"}, "#ffd400", false},
		{"not a colour", report.Brand{Name: "Acme", PrimaryColor: "red"}, "#0b5ed7", true},
		{"hidden", report.Brand{Name: "Acme", HideGeoScan: true, Logo: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"), LogoType: "image/svg+xml"}, "#0b5ed7", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
				p := parsePage(t, f.htmlOf(t, aud, report.HTMLInput{Brand: tc.brand}))
				requireInert(t, p)
				rects := p.elements("rect")
				require.Equal(t, tc.band, nodeAttr(rects[0], "fill"), "the band is the brand's colour")
				require.Equal(t, tc.whiteText, strings.Contains(nodeAttr(p.elements("svg")[0], "class"), "band-tall"))
				body := p.bodyText()
				author := tc.brand.Name
				if author == "" {
					author = "GeoScan"
				}
				require.Contains(t, body, author)
				if len(tc.brand.Logo) > 0 {
					imgs := p.elements("img")
					require.Len(t, imgs, 1)
					require.Equal(t, "data:"+tc.brand.LogoType+";base64,"+base64.StdEncoding.EncodeToString(tc.brand.Logo), nodeAttr(imgs[0], "src"))
					require.Equal(t, "Acme", nodeAttr(imgs[0], "alt"))
				}
				if tc.brand.HideGeoScan {
					require.NotContains(t, body, "GeoScan")
					require.NotContains(t, nodeText(p.elements("head")[0]), "GeoScan")
				} else {
					require.Contains(t, body, "Made with GeoScan")
				}
				require.NotContains(t, body, "Scores over time", "no history, no trend")
			}
		})
	}
}

// The trend needs two scans; with them it is a line per score, with the
// numbers also as a table.
func TestWriteHTMLTrend(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Bakery, "")
	r := f.report.For(scoring.Marketing)
	h := scoreHistory(r)
	for n, want := range map[int]bool{0: false, 1: false, 2: true, 3: true} {
		p := parsePage(t, f.htmlOf(t, scoring.Marketing, report.HTMLInput{History: h[len(h)-n:]}))
		require.Equal(t, want, strings.Contains(p.bodyText(), "Scores over time"), "%d scans", n)
		if !want {
			require.Empty(t, p.elements("polyline"))
			continue
		}
		lines := p.elements("polyline")
		require.Len(t, lines, 4)
		for _, l := range lines {
			require.Len(t, strings.Fields(nodeAttr(l, "points")), n)
		}
		require.Contains(t, p.bodyText(), fmt.Sprintf("%s %d %d %d %d", h[2].At.UTC().Format("2 Jan 2006"), h[2].Overall, h[2].Search, h[2].Visibility, h[2].Trust))
	}
}

// served is an httptest server answering / with the page, with the
// headers or without them.
func served(t *testing.T, body []byte, headers bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if headers {
			report.HTMLHeaders(w.Header())
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// With HideGeoScan, the sentences that name GeoScan as the one who
// fetched and judged name the brand, or the auditor.
func TestWriteHTMLHideGeoScan(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Bakery, "")
	r := f.report.For(scoring.Marketing)
	r.Caveats = &[]string{"GeoScan read its first 512 KiB.", "The site refused GeoScan's own user agent. GeoScan saw a challenge."}
	for name, want := range map[string][]string{
		"":     {"The auditor read its first 512 KiB.", "The site refused the auditor's own user agent. The auditor saw a challenge."},
		"Acme": {"Acme read its first 512 KiB.", "The site refused Acme's own user agent. Acme saw a challenge."},
	} {
		var buf bytes.Buffer
		require.NoError(t, report.WriteHTML(&buf, report.HTMLInput{Report: r, Brand: report.Brand{Name: name, HideGeoScan: true}}))
		p := parsePage(t, buf.Bytes())
		require.NotContains(t, p.bodyText(), "GeoScan")
		var items []string
		for _, li := range p.elements("li") {
			items = append(items, nodeText(li))
		}
		for _, w := range want {
			require.Contains(t, items, w)
		}
		require.Equal(t, "GeoScan read its first 512 KiB.", (*r.Caveats)[0], "the caller's report is left as it was")
	}
}
