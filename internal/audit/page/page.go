// Package page parses one fetched HTML document into the facts GEO checks
// and triage read: metadata, headings, links, images, scripts, visible text
// (as a crawler that runs no JavaScript sees it) and its schema.org graph
// (JSON-LD, microdata and RDFa). Parsing happens once per page; checks only
// read the result.
package page

import (
	"net/url"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

// Page is a parsed HTML document.
type Page struct {
	URL *url.URL
	// Base is the URL relative links resolve against: the first
	// <base href> resolved against URL, or URL itself.
	Base      *url.URL
	Doc       *goquery.Document
	HTMLBytes int
	// Truncated says the document has more than MaxElements elements and
	// only its first ReadBytes bytes were parsed: everything read from
	// the page is read from that part.
	Truncated bool
	ReadBytes int

	Title string
	Lang  string
	// Meta holds <meta name=…>, namespaced <meta property=…> (og:title,
	// article:published_time) and <meta http-equiv=…> by lower-case key;
	// several tags with one key (robots, say) keep every value. A
	// property without a prefix is not in Meta: <meta
	// property="description"> is no meta description, which is only ever
	// name="description".
	Meta map[string][]string
	// Properties holds every <meta property=…> by lower-case key.
	Properties map[string][]string
	Canonicals []string // resolved against the page URL
	Alternates []Alternate
	// SitemapLinks are the targets of <link rel="sitemap">, resolved.
	SitemapLinks []string
	Links        []Link
	Headings     []Heading
	Paragraphs   []string
	Images       []Image
	Scripts      []Script
	HeadCSS      int // blocking stylesheets in <head>
	Comments     []string
	TimeValues   []string // datetime attributes of <time>
	JSONLDTexts  []string
	// Graph is the page's schema.org data: its JSON-LD, microdata and
	// RDFa, each node marked with its syntax.
	Graph *jsonld.Graph

	// Text is the visible text of <body> without scripts, styles and
	// templates; MainText further drops the page chrome: header, nav,
	// footer and aside (and the banner, navigation, contentinfo and
	// complementary roles) where they are top-level landmarks, not where
	// they sit inside main, article or section (see IsChrome).
	Text      string
	MainText  string
	Words     int // words of MainText
	MainWords int // words inside <main> or <article>, 0 when neither exists
	// NoSnippetWords counts words inside data-nosnippet elements.
	NoSnippetWords int
	// InlineJSBytes is the size of inline scripts (not JSON-LD or JSON data).
	InlineJSBytes int

	rendering struct {
		once sync.Once
		r    Rendering
	}
	marks marks
}

// Alternate is a <link rel=alternate>.
type Alternate struct {
	Href     string
	Hreflang string
	Type     string
	Title    string
}

// Link is an <a> element.
type Link struct {
	RawHref  string
	Href     string // absolute, "" when RawHref is not a navigable URL
	Text     string
	Rel      string
	Internal bool // same host as the page
	// InPage marks a fragment-only href ("#cite_note-1") that names an
	// element of this page, or "#top": an in-page jump, not a link that
	// needs JavaScript (Href stays "" for every fragment-only href).
	InPage bool
}

// Heading is an h1–h6 element.
type Heading struct {
	Level int
	Text  string
}

// Image is an <img>.
type Image struct {
	Src           string
	Alt           string
	HasAlt        bool
	Width, Height string
	Lazy          bool
}

// Script is a <script> element.
type Script struct {
	Src         string // absolute
	Type        string
	InHead      bool
	Async       bool
	Defer       bool
	InlineBytes int
	ID          string
}

// Parse reads an HTML document. It never fails on bad markup (the HTML5
// parser recovers as browsers do, and a document nested too deep for it is
// read flattened, see parseHTML); an error means the input was unreadable.
func Parse(body []byte, pageURL *url.URL) (*Page, error) {
	root, read, err := parseHTML(body)
	if err != nil {
		return nil, err
	}
	doc := goquery.NewDocumentFromNode(root)
	p := &Page{
		URL: pageURL, Base: pageURL, Doc: doc, HTMLBytes: len(body), ReadBytes: read, Truncated: read < len(body),
		Meta: map[string][]string{}, Properties: map[string][]string{},
	}
	idx := indexElements(root)
	find := func(key string) *goquery.Selection { return doc.FindNodes(idx[key]...) }
	// Browsers resolve every relative URL of the document against the
	// first <base href>; only http(s) bases are taken.
	if href, ok := find("base[href]").First().Attr("href"); ok && pageURL != nil {
		if ref, err := url.Parse(strings.TrimSpace(href)); err == nil {
			if b := pageURL.ResolveReference(ref); b.Scheme == "http" || b.Scheme == "https" {
				p.Base = b
			}
		}
	}
	p.Title = clean(find("head title").First().Text())
	if p.Title == "" {
		p.Title = clean(find("title").First().Text())
	}
	p.Lang = strings.TrimSpace(find("html").AttrOr("lang", ""))

	find("meta").Each(func(_ int, s *goquery.Selection) {
		content := strings.TrimSpace(s.AttrOr("content", ""))
		name := strings.ToLower(strings.TrimSpace(s.AttrOr("name", "")))
		prop := strings.ToLower(strings.TrimSpace(s.AttrOr("property", "")))
		if prop != "" {
			p.Properties[prop] = append(p.Properties[prop], content)
		}
		key := name
		if key == "" && strings.Contains(prop, ":") {
			key = prop
		}
		if key == "" && prop == "" {
			key = strings.ToLower(strings.TrimSpace(s.AttrOr("http-equiv", "")))
		}
		if key != "" {
			p.Meta[key] = append(p.Meta[key], content)
		}
	})

	find("link").Each(func(_ int, s *goquery.Selection) {
		rels := strings.Fields(strings.ToLower(s.AttrOr("rel", "")))
		href := strings.TrimSpace(s.AttrOr("href", ""))
		for _, rel := range rels {
			switch rel {
			case "canonical":
				p.Canonicals = append(p.Canonicals, p.Resolve(href))
			case "sitemap":
				if href != "" {
					p.SitemapLinks = append(p.SitemapLinks, p.Resolve(href))
				}
			case "alternate":
				p.Alternates = append(p.Alternates, Alternate{
					Href: p.Resolve(href), Hreflang: s.AttrOr("hreflang", ""),
					Type: strings.ToLower(s.AttrOr("type", "")), Title: s.AttrOr("title", ""),
				})
			case "stylesheet":
				if s.ParentsFiltered("head").Length() > 0 && !nonBlockingMedia(s.AttrOr("media", "")) {
					p.HeadCSS++
				}
			}
		}
	})

	anchors := map[string]bool{}
	find("[id], a[name]").Each(func(_ int, s *goquery.Selection) {
		anchors[s.AttrOr("id", "")] = true
		anchors[s.AttrOr("name", "")] = true
	})
	find("a").Each(func(_ int, s *goquery.Selection) {
		raw, _ := s.Attr("href")
		l := Link{RawHref: raw, Text: clean(s.Text()), Rel: s.AttrOr("rel", "")}
		if l.Text == "" {
			l.Text = clean(s.AttrOr("aria-label", s.Find("img").AttrOr("alt", "")))
		}
		if frag, ok := strings.CutPrefix(strings.TrimSpace(raw), "#"); ok && frag != "" {
			if f, err := url.PathUnescape(frag); err == nil {
				frag = f
			}
			// "#top" scrolls to the top of any document (HTML's
			// fragment navigation), with or without such an element.
			l.InPage = anchors[frag] || strings.EqualFold(frag, "top")
		}
		if navigable(raw) {
			l.Href = p.Resolve(raw)
			if u, err := url.Parse(l.Href); err == nil && pageURL != nil {
				l.Internal = strings.EqualFold(u.Hostname(), pageURL.Hostname()) ||
					strings.EqualFold(strings.TrimPrefix(u.Hostname(), "www."), strings.TrimPrefix(pageURL.Hostname(), "www."))
			}
		}
		p.Links = append(p.Links, l)
	})

	find("h1, h2, h3, h4, h5, h6").Each(func(_ int, s *goquery.Selection) {
		p.Headings = append(p.Headings, Heading{Level: int(goquery.NodeName(s)[1] - '0'), Text: clean(s.Text())})
	})
	find("p").Each(func(_ int, s *goquery.Selection) {
		if t := clean(s.Text()); t != "" {
			p.Paragraphs = append(p.Paragraphs, t)
		}
	})
	find("img").Each(func(_ int, s *goquery.Selection) {
		alt, has := s.Attr("alt")
		src := s.AttrOr("src", s.AttrOr("data-src", ""))
		p.Images = append(p.Images, Image{
			Src: p.Resolve(src), Alt: strings.TrimSpace(alt), HasAlt: has,
			Width: s.AttrOr("width", ""), Height: s.AttrOr("height", ""),
			Lazy: strings.EqualFold(s.AttrOr("loading", ""), "lazy"),
		})
	})
	find("script").Each(func(_ int, s *goquery.Selection) {
		typ := strings.ToLower(strings.TrimSpace(s.AttrOr("type", "")))
		if IsJSONLD(typ) {
			p.JSONLDTexts = append(p.JSONLDTexts, s.Text())
			return
		}
		sc := Script{Type: typ, InHead: s.ParentsFiltered("head").Length() > 0, ID: s.AttrOr("id", "")}
		if src, ok := s.Attr("src"); ok {
			sc.Src = p.Resolve(src)
		} else {
			sc.InlineBytes = len(s.Text())
			if typ == "" || strings.Contains(typ, "javascript") || typ == "module" {
				p.InlineJSBytes += sc.InlineBytes
			}
		}
		_, sc.Async = s.Attr("async")
		_, sc.Defer = s.Attr("defer")
		if typ == "module" {
			sc.Defer = true
		}
		p.Scripts = append(p.Scripts, sc)
	})
	find("time[datetime]").Each(func(_ int, s *goquery.Selection) {
		p.TimeValues = append(p.TimeValues, s.AttrOr("datetime", ""))
	})
	for _, n := range doc.Nodes {
		collectComments(n, &p.Comments)
	}
	p.Graph = jsonld.Parse(p.JSONLDTexts)
	p.readMarkup()

	bodySel := find("body")
	p.Text = visibleText(bodySel, false)
	p.MainText = visibleText(bodySel, true)
	p.Words = CountWords(p.MainText)
	if main := find("main, article, [role=main]"); main.Length() > 0 {
		p.MainWords = CountWords(visibleText(main.First(), false))
	}
	find("[data-nosnippet]").Each(func(_ int, s *goquery.Selection) {
		// A data-nosnippet element inside another is counted with it.
		if s.ParentsFiltered("[data-nosnippet]").Length() == 0 {
			p.NoSnippetWords += CountWords(visibleText(s, false))
		}
	})
	return p, nil
}

// indexElements gathers, in one walk of the document and in document
// order, the elements each selector Parse reads matches, under the
// selector as key: what doc.Find(key) would find.
func indexElements(root *html.Node) map[string][]*html.Node {
	idx := map[string][]*html.Node{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				indexElement(idx, c)
			}
			walk(c)
		}
	}
	walk(root)
	return idx
}

func indexElement(idx map[string][]*html.Node, n *html.Node) {
	add := func(key string) { idx[key] = append(idx[key], n) }
	switch n.Data {
	case "title":
		add("title")
		for a := n.Parent; a != nil; a = a.Parent {
			if a.Type == html.ElementNode && a.Data == "head" {
				add("head title")
				break
			}
		}
	case "html", "meta", "link", "a", "p", "img", "script", "body":
		add(n.Data)
	case "h1", "h2", "h3", "h4", "h5", "h6":
		add("h1, h2, h3, h4, h5, h6")
	}
	has := func(key string) bool {
		for _, a := range n.Attr {
			if a.Key == key {
				return true
			}
		}
		return false
	}
	if n.Data == "base" && has("href") {
		add("base[href]")
	}
	if n.Data == "time" && has("datetime") {
		add("time[datetime]")
	}
	if has("id") || n.Data == "a" && has("name") {
		add("[id], a[name]")
	}
	main := n.Data == "main" || n.Data == "article"
	for _, a := range n.Attr {
		if a.Key == "role" && a.Val == "main" {
			main = true
		}
	}
	if main {
		add("main, article, [role=main]")
	}
	if has("data-nosnippet") {
		add("[data-nosnippet]")
	}
}

// MetaContent returns the first value of a meta key ("description", "og:title").
func (p *Page) MetaContent(key string) string {
	if v := p.Meta[strings.ToLower(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Resolve makes href absolute against the document's base URL (the
// <base href>, else the page URL); unparsable hrefs come back unchanged.
func (p *Page) Resolve(href string) string {
	href = strings.TrimSpace(href)
	base := p.Base
	if base == nil {
		base = p.URL
	}
	if href == "" || base == nil {
		return href
	}
	u, err := url.Parse(href)
	if err != nil {
		return href
	}
	return base.ResolveReference(u).String()
}

// H1s returns the texts of the page's h1 elements.
func (p *Page) H1s() []string {
	var out []string
	for _, h := range p.Headings {
		if h.Level == 1 {
			out = append(out, h.Text)
		}
	}
	return out
}

// InternalLinks returns the distinct absolute internal link targets,
// fragments removed.
func (p *Page) InternalLinks() []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range p.Links {
		if !l.Internal || l.Href == "" {
			continue
		}
		u, err := url.Parse(l.Href)
		if err != nil {
			continue
		}
		u.Fragment = ""
		s := u.String()
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func navigable(href string) bool {
	h := strings.ToLower(strings.TrimSpace(href))
	if h == "" || strings.HasPrefix(h, "#") || strings.HasPrefix(h, "javascript:") ||
		strings.HasPrefix(h, "mailto:") || strings.HasPrefix(h, "tel:") || strings.HasPrefix(h, "data:") {
		return false
	}
	return true
}

func nonBlockingMedia(media string) bool {
	m := strings.ToLower(strings.TrimSpace(media))
	return m == "print" || m == "none"
}

// skipAlways are elements whose content is never visible text.
var skipAlways = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "svg": true, "head": true, "iframe": true, "object": true}

// boilerplate are the landmark elements of page chrome, and chromeRoles
// the ARIA roles that declare the same landmarks.
var (
	boilerplate = map[string]bool{"nav": true, "header": true, "footer": true, "aside": true}
	chromeRoles = map[string]bool{"banner": true, "navigation": true, "contentinfo": true, "complementary": true}
)

// contentScope are the elements whose landmarks belong to the content
// they wrap: an article's own header, a section's footer. HTML-AAM maps
// header and footer to the banner and contentinfo landmarks only outside
// them; the same scoping is applied to nav and aside.
var contentScope = map[string]bool{"main": true, "article": true, "section": true}

func role(n *html.Node) string {
	v, _ := attr(n, "role")
	return strings.ToLower(strings.TrimSpace(v))
}

// scopesContent reports main, article, section or a main or article role.
func scopesContent(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	r := role(n)
	return contentScope[n.Data] || r == "main" || r == "article"
}

// IsChrome reports a landmark of page chrome: header, nav, footer or
// aside, or an element with the banner, navigation, contentinfo or
// complementary role, that is not inside main, article or section. A
// 900-word story inside an article's <header> is content; the site's
// top-level <header> is not.
func IsChrome(n *html.Node) bool {
	if n == nil || n.Type != html.ElementNode || (!boilerplate[n.Data] && !chromeRoles[role(n)]) {
		return false
	}
	for a := n.Parent; a != nil; a = a.Parent {
		if scopesContent(a) {
			return false
		}
	}
	return true
}

// inChrome reports a node inside a chrome landmark (itself included) whose
// element name is one of names (all landmarks when names is empty).
func inChrome(n *html.Node, names ...string) bool {
	for a := n; a != nil; a = a.Parent {
		if !IsChrome(a) {
			continue
		}
		if len(names) == 0 {
			return true
		}
		for _, name := range names {
			if a.Data == name {
				return true
			}
		}
	}
	return false
}

// blockLevel elements separate words even without whitespace between them.
var blockLevel = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "td": true, "th": true, "tr": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "section": true, "article": true,
	"main": true, "ul": true, "ol": true, "dt": true, "dd": true, "blockquote": true, "pre": true, "figcaption": true, "table": true,
	"header": true, "footer": true, "nav": true, "aside": true, "address": true, "figure": true, "form": true, "fieldset": true,
	"details": true, "summary": true, "dl": true, "hgroup": true,
}

func visibleText(sel *goquery.Selection, dropBoilerplate bool) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if skipAlways[n.Data] || (dropBoilerplate && IsChrome(n)) {
				return
			}
			if _, hidden := attr(n, "hidden"); hidden {
				return
			}
			if blockLevel[n.Data] {
				b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockLevel[n.Data] {
			b.WriteByte(' ')
		}
	}
	for _, n := range sel.Nodes {
		walk(n)
	}
	return clean(b.String())
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func collectComments(n *html.Node, out *[]string) {
	if n.Type == html.CommentNode {
		*out = append(*out, n.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		collectComments(c, out)
	}
}

// clean collapses whitespace runs to single spaces and trims.
func clean(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for f := range strings.FieldsSeq(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	return b.String()
}

// isClean reports text clean leaves as it is: no white space but single
// spaces between words. Most text nodes and attributes are, and are
// then kept without a copy.
func isClean(s string) bool {
	prevSpace := true // no leading space
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ':
				if prevSpace {
					return false
				}
				prevSpace = true
			case asciiSpace[c]:
				return false
			default:
				prevSpace = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return false
		}
		prevSpace = false
		i += size
	}
	return !prevSpace || s == ""
}

// asciiSpace are the ASCII characters unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// IsJSONLD reports a script type that is JSON-LD: application/ld+json,
// in any case and with parameters ("application/ld+json; charset=utf-8").
func IsJSONLD(typ string) bool {
	media, _, _ := strings.Cut(typ, ";")
	return strings.EqualFold(strings.TrimSpace(media), "application/ld+json")
}

// CountWords counts the words of a text: runs of letters or digits, and
// every Chinese or Japanese character (Han, Hiragana, Katakana, Bopomofo)
// on its own. Those scripts put no spaces between words, so a run of them
// is a sentence, not a word; counting each character is the convention
// of word processors for East Asian text. Korean separates its words
// with spaces and is counted by runs like Latin script. Thai, Lao, Khmer
// and Burmese need a dictionary to find their words; a run of them counts
// as one (see docs/SCORING.md).
func CountWords(s string) int { return countWords(s, -1) }

// HasWords reports whether s has at least n words (CountWords(s) >= n),
// reading it only as far as that takes.
func HasWords(s string, n int) bool { return countWords(s, n) >= n }

// countWords counts the words of s, stopping at limit when it is not
// negative.
func countWords(s string, limit int) int {
	n, in := 0, false
	if n == limit {
		return n
	}
	for _, r := range s {
		var w bool
		if r < utf8.RuneSelf {
			w = asciiWord[r]
		} else {
			if r >= 0x2E80 && ideographic(r) {
				if n++; n == limit {
					return n
				}
				in = false
				continue
			}
			// A combining mark continues its word: decomposed accents
			// ("cafe" + U+0301) and the vowel signs of Indic and Thai
			// scripts.
			w = unicode.IsLetter(r) || unicode.IsDigit(r) || (in && unicode.IsMark(r))
		}
		if w && !in {
			if n++; n == limit {
				return n
			}
		}
		in = w
	}
	return n
}

// asciiWord are the ASCII letters and digits.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// ideographic reports a character of a script written without spaces
// between words that CountWords counts one by one.
func ideographic(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Bopomofo, r))
}
