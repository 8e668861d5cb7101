// Package page parses one fetched HTML document into the facts GEO checks
// and triage read: metadata, headings, links, images, scripts, visible text
// (as a crawler that runs no JavaScript sees it) and JSON-LD. Parsing
// happens once per page; checks only read the result.
package page

import (
	"bytes"
	"net/url"
	"strings"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/jsonld"
)

// Page is a parsed HTML document.
type Page struct {
	URL       *url.URL
	Doc       *goquery.Document
	HTMLBytes int

	Title string
	Lang  string
	// Meta holds <meta name=…> and <meta property=…> by lower-case key;
	// several tags with one key (robots, say) keep every value.
	Meta       map[string][]string
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
	Graph        *jsonld.Graph

	// Text is the visible text of <body> without scripts, styles and
	// templates; MainText further drops nav, header, footer and aside,
	// the boilerplate around the content.
	Text      string
	MainText  string
	Words     int // words of MainText
	MainWords int // words inside <main> or <article>, 0 when neither exists
	// NoSnippetWords counts words inside data-nosnippet elements.
	NoSnippetWords int
	// InlineJSBytes is the size of inline scripts (not JSON-LD or JSON data).
	InlineJSBytes int
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
// parser recovers as browsers do); an error means the input was unreadable.
func Parse(body []byte, pageURL *url.URL) (*Page, error) {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	p := &Page{URL: pageURL, Doc: doc, HTMLBytes: len(body), Meta: map[string][]string{}}
	p.Title = clean(doc.Find("head title").First().Text())
	if p.Title == "" {
		p.Title = clean(doc.Find("title").First().Text())
	}
	p.Lang = strings.TrimSpace(doc.Find("html").AttrOr("lang", ""))

	doc.Find("meta").Each(func(_ int, s *goquery.Selection) {
		key := s.AttrOr("name", "")
		if key == "" {
			key = s.AttrOr("property", "")
		}
		if key == "" {
			key = s.AttrOr("http-equiv", "")
		}
		if key == "" {
			return
		}
		key = strings.ToLower(strings.TrimSpace(key))
		p.Meta[key] = append(p.Meta[key], strings.TrimSpace(s.AttrOr("content", "")))
	})

	doc.Find("link").Each(func(_ int, s *goquery.Selection) {
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

	doc.Find("a").Each(func(_ int, s *goquery.Selection) {
		raw, _ := s.Attr("href")
		l := Link{RawHref: raw, Text: clean(s.Text()), Rel: s.AttrOr("rel", "")}
		if l.Text == "" {
			l.Text = clean(s.AttrOr("aria-label", s.Find("img").AttrOr("alt", "")))
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

	doc.Find("h1, h2, h3, h4, h5, h6").Each(func(_ int, s *goquery.Selection) {
		p.Headings = append(p.Headings, Heading{Level: int(goquery.NodeName(s)[1] - '0'), Text: clean(s.Text())})
	})
	doc.Find("p").Each(func(_ int, s *goquery.Selection) {
		if t := clean(s.Text()); t != "" {
			p.Paragraphs = append(p.Paragraphs, t)
		}
	})
	doc.Find("img").Each(func(_ int, s *goquery.Selection) {
		alt, has := s.Attr("alt")
		src := s.AttrOr("src", s.AttrOr("data-src", ""))
		p.Images = append(p.Images, Image{
			Src: p.Resolve(src), Alt: strings.TrimSpace(alt), HasAlt: has,
			Width: s.AttrOr("width", ""), Height: s.AttrOr("height", ""),
			Lazy: strings.EqualFold(s.AttrOr("loading", ""), "lazy"),
		})
	})
	doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		typ := strings.ToLower(strings.TrimSpace(s.AttrOr("type", "")))
		if typ == "application/ld+json" {
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
	doc.Find("time[datetime]").Each(func(_ int, s *goquery.Selection) {
		p.TimeValues = append(p.TimeValues, s.AttrOr("datetime", ""))
	})
	for _, n := range doc.Nodes {
		collectComments(n, &p.Comments)
	}
	p.Graph = jsonld.Parse(p.JSONLDTexts)

	bodySel := doc.Find("body")
	p.Text = visibleText(bodySel, false)
	p.MainText = visibleText(bodySel, true)
	p.Words = CountWords(p.MainText)
	if main := doc.Find("main, article, [role=main]"); main.Length() > 0 {
		p.MainWords = CountWords(visibleText(main.First(), false))
	}
	doc.Find("[data-nosnippet]").Each(func(_ int, s *goquery.Selection) {
		p.NoSnippetWords += CountWords(visibleText(s, false))
	})
	return p, nil
}

// MetaContent returns the first value of a meta key ("description", "og:title").
func (p *Page) MetaContent(key string) string {
	if v := p.Meta[strings.ToLower(key)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Resolve makes href absolute against the page URL; unparsable hrefs come
// back unchanged.
func (p *Page) Resolve(href string) string {
	href = strings.TrimSpace(href)
	if href == "" || p.URL == nil {
		return href
	}
	u, err := url.Parse(href)
	if err != nil {
		return href
	}
	return p.URL.ResolveReference(u).String()
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

// boilerplate are landmarks around the content.
var boilerplate = map[string]bool{"nav": true, "header": true, "footer": true, "aside": true}

// blockLevel elements separate words even without whitespace between them.
var blockLevel = map[string]bool{
	"p": true, "div": true, "br": true, "li": true, "td": true, "th": true, "tr": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "section": true, "article": true,
	"main": true, "ul": true, "ol": true, "dt": true, "dd": true, "blockquote": true, "pre": true, "figcaption": true, "table": true,
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
			if skipAlways[n.Data] || (dropBoilerplate && boilerplate[n.Data]) {
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
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// CountWords counts runs of letters or digits.
func CountWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}
