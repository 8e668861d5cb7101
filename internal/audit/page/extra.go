package page

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// Readings of a parsed page that only some checks need. They walk the
// document on demand instead of at parse time, so pages that no check asks
// about cost nothing extra.

// Section is the text under one h2 or h3 heading, up to the next h2 or h3.
type Section struct {
	Level   int
	Heading string
	Words   int
}

// Sections splits the visible content (boilerplate landmarks dropped) at
// h2 and h3 headings; text before the first such heading belongs to no
// section.
func (p *Page) Sections() []Section {
	body := p.body()
	if body == nil {
		return nil
	}
	var out []Section
	var b strings.Builder
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].Words = CountWords(b.String())
		}
		b.Reset()
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if skipAlways[n.Data] || IsChrome(n) {
				return
			}
			if _, hidden := attr(n, "hidden"); hidden {
				return
			}
			if n.Data == "h2" || n.Data == "h3" {
				flush()
				out = append(out, Section{Level: int(n.Data[1] - '0'), Heading: clean(nodeText(n))})
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
	for _, n := range body.Nodes {
		walk(n)
	}
	flush()
	return out
}

// IntroParagraph returns the first substantial paragraph (eight words or
// more, outside navigation and footers) after the first h1 with text, or
// after the start of the body when no h1 has text (a logo image as the
// only h1, say). Shorter paragraphs right under a heading are usually
// bylines or kickers, not the answer.
func (p *Page) IntroParagraph() string {
	if p == nil || p.Doc == nil {
		return ""
	}
	hasH1 := p.Doc.Find("h1").FilterFunction(func(_ int, s *goquery.Selection) bool { return clean(s.Text()) != "" }).Length() > 0
	seenH1 := !hasH1
	intro := ""
	p.Doc.Find("h1, p").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if goquery.NodeName(s) == "h1" {
			if clean(s.Text()) != "" {
				seenH1 = true
			}
			return true
		}
		if !seenH1 || s.ParentsFiltered("[hidden]").Length() > 0 || inChrome(s.Nodes[0], "nav", "footer", "aside") ||
			byline(s) || aroundTheLead(s) {
			return true
		}
		if t := stripDateline(clean(visibleText(s, false))); CountWords(t) >= 8 && !dateLine(t) {
			intro = t
			return false
		}
		return true
	})
	return intro
}

// bylineClassRE names the classes of bylines and datelines.
var bylineClassRE = regexp.MustCompile(`(?i)\b(byline|dateline|post-meta|entry-meta|article-meta|meta|author)\b`)

// bylinePrefixRE starts a signature line in the languages most of the web
// is written in: "By Priya Shah", "Von Anna Berg", "Por Ana Ruiz",
// "Автор: Иван Петров", "文：山田太郎".
var bylinePrefixRE = regexp.MustCompile(`(?i)^(by|von|por|par|di|door|av|af|przez|od|автор|текст|written by|escrito por|publié par|publicado por)(\s|:)|^(文|作者|著者|글)\s*[:：]`)

// byline reports a paragraph that signs or dates the text rather than
// opening it: a byline or meta class, an author link, a <time>, or a short
// line starting with "By" (in any of the common languages). "By Priya
// Shah, head baker · 5 August 2026" has eight words, as many as a short
// answer.
func byline(s *goquery.Selection) bool {
	if bylineClassRE.MatchString(s.AttrOr("class", "")) || s.Find(`a[rel~=author], time`).Length() > 0 {
		return true
	}
	t := clean(s.Text())
	return CountWords(t) <= 15 && bylinePrefixRE.MatchString(t)
}

// leadChromeRE names, as one class token or id, what sits around a lead
// paragraph without being it: captions, breadcrumbs, share bars, cookie
// and newsletter notices, tag lists, related posts.
var leadChromeRE = regexp.MustCompile(`(?i)(^|[-_])(caption|breadcrumbs?|share|sharing|sharebar|social|cookies?|consent|gdpr|newsletter|subscribe|signup|tags|tag-list|related|promo|advert)($|[-_])`)

// aroundTheLead reports a paragraph a reader passes over on the way to
// the lead: in a figure, or in a breadcrumb trail, share bar or notice
// named by the class, id or label of the paragraph or of the three
// elements around it (a wider look would catch whole-page wrappers).
func aroundTheLead(s *goquery.Selection) bool {
	depth := 0
	for n := s.Nodes[0]; n != nil && n.Data != "body"; n = n.Parent {
		if n.Type != html.ElementNode {
			continue
		}
		if n.Data == "figure" || n.Data == "figcaption" {
			return true
		}
		if depth > 3 {
			continue
		}
		depth++
		for _, a := range n.Attr {
			if a.Key != "class" && a.Key != "id" && a.Key != "aria-label" {
				continue
			}
			for _, token := range strings.Fields(a.Val) {
				if leadChromeRE.MatchString(token) {
					return true
				}
			}
		}
	}
	return false
}

// datelineRE is a news dateline opening a lead paragraph: a place in
// capitals, maybe a date and an agency, and a dash ("LONDON, Nov 5
// (Reuters) — ", "BERLIN (dpa) - ").
var datelineRE = regexp.MustCompile(`^\p{Lu}[\p{Lu}\p{M} .'/-]{1,40}(?:,\s*[^—–()]{1,30}?)?\s*(?:\([^)]{1,30}\))?\s*[—–-]{1,2}\s+`)

// stripDateline removes a news dateline from the start of a paragraph, so
// the lead is measured from its first sentence, which starts with a
// capital ("NASA - the agency said" opens with an apposition, not a
// dateline).
func stripDateline(t string) string {
	m := datelineRE.FindString(t)
	if m == "" || len(m) == len(t) {
		return t
	}
	rest := strings.TrimSpace(t[len(m):])
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsUpper(r) {
		return t
	}
	return rest
}

// yearRE finds a year in a date.
var yearRE = regexp.MustCompile(`\b(19|20)\d{2}\b`)

// dateLine reports a paragraph that is only a date with its label
// ("Updated on Tuesday, 5 August 2026 at 10:32 CET"): a year, and few
// words that are neither numbers nor short.
func dateLine(t string) bool {
	if !yearRE.MatchString(t) || CountWords(t) > 14 {
		return false
	}
	long := 0
	for _, w := range strings.Fields(t) {
		if len([]rune(strings.Trim(w, ".,:;·|()"))) > 3 && !strings.ContainsAny(w, "0123456789") {
			long++
		}
	}
	return long <= 4
}

// Landmark reports the element that wraps the page's content — "main"
// (also role=main) or else "article" — and the visible words inside all
// such elements, nested ones counted once.
func (p *Page) Landmark() (name string, words int) {
	if p == nil || p.Doc == nil {
		return "", 0
	}
	for _, cand := range []struct{ name, sel string }{{"main", "main, [role=main]"}, {"article", "article"}} {
		sel := p.Doc.Find(cand.sel)
		if sel.Length() == 0 {
			continue
		}
		sel.Each(func(_ int, s *goquery.Selection) {
			if s.ParentsFiltered(cand.sel).Length() == 0 {
				words += CountWords(visibleText(s, true))
			}
		})
		return cand.name, words
	}
	return "", 0
}

// ImageAltStats counts the images of a page for alt-text coverage.
type ImageAltStats struct {
	Images     int      // images counted (tracking pixels excluded)
	WithAlt    int      // non-empty alt text
	Decorative int      // alt="", aria-hidden or a presentation role: covered on purpose
	Missing    []string // sources of images without any alt attribute
}

// ImageAlts classifies the page's images. An empty alt attribute is the
// correct markup for a decorative image, so it counts as covered; 1×1
// tracking pixels are left out because they are not content.
func (p *Page) ImageAlts() ImageAltStats {
	var st ImageAltStats
	if p == nil || p.Doc == nil {
		return st
	}
	p.Doc.Find("img").Each(func(_ int, s *goquery.Selection) {
		if tinyDimension(s.AttrOr("width", "")) && tinyDimension(s.AttrOr("height", "")) {
			return
		}
		st.Images++
		alt, has := s.Attr("alt")
		role := strings.ToLower(s.AttrOr("role", ""))
		switch {
		case has && strings.TrimSpace(alt) != "":
			st.WithAlt++
		case has, strings.EqualFold(s.AttrOr("aria-hidden", ""), "true"), role == "presentation", role == "none":
			st.Decorative++
		default:
			st.Missing = append(st.Missing, p.Resolve(s.AttrOr("src", s.AttrOr("data-src", ""))))
		}
	})
	return st
}

func tinyDimension(v string) bool {
	v = strings.TrimSuffix(strings.TrimSpace(v), "px")
	return v == "0" || v == "1"
}

// ContentBlocks counts lists (ul, ol, dl with at least two items) and
// tables (at least two rows) outside the page chrome (see IsChrome):
// menus are lists too, but not content.
func (p *Page) ContentBlocks() (lists, tables int) {
	if p == nil || p.Doc == nil {
		return 0, 0
	}
	p.Doc.Find("ul, ol, dl, table").Each(func(_ int, s *goquery.Selection) {
		if s.ParentsFiltered("[hidden]").Length() > 0 || inChrome(s.Nodes[0]) {
			return
		}
		switch goquery.NodeName(s) {
		case "table":
			if strings.EqualFold(s.AttrOr("role", ""), "presentation") {
				return
			}
			if s.Find("tr").Length() >= 2 {
				tables++
			}
		case "dl":
			if s.ChildrenFiltered("dt").Length()+s.Find("div > dt").Length() >= 2 {
				lists++
			}
		default:
			if s.ChildrenFiltered("li").Length() >= 2 {
				lists++
			}
		}
	})
	return lists, tables
}

// statePrefixes start inline scripts that only carry server-rendered state
// for hydration (a copy of data the HTML already shows), not code.
var statePrefixes = []string{
	"window.__NUXT__", "self.__next_f", "(self.__next_f", "window.__remixContext", "window.__INITIAL_STATE__",
	"window.__APOLLO_STATE__", "window.__PRELOADED_STATE__", "window.__staticRouterHydrationData", "__sveltekit_",
}

// InlineScriptBytes splits the bytes of inline JavaScript into code and
// hydration state payloads (see statePrefixes). JSON data scripts are in
// neither: the parser does not count them as JavaScript.
func (p *Page) InlineScriptBytes() (code, state int) {
	if p == nil || p.Doc == nil {
		return 0, 0
	}
	p.Doc.Find("script:not([src])").Each(func(_ int, s *goquery.Selection) {
		typ := strings.ToLower(strings.TrimSpace(s.AttrOr("type", "")))
		if typ != "" && !strings.Contains(typ, "javascript") && typ != "module" {
			return
		}
		t := s.Text()
		trimmed := strings.TrimSpace(t)
		for _, prefix := range statePrefixes {
			if strings.HasPrefix(trimmed, prefix) {
				state += len(t)
				return
			}
		}
		code += len(t)
	})
	return code, state
}

// Frameworks names the JavaScript frameworks whose server-rendering or
// hydration markers the page carries. They show how the HTML was built;
// on their own they say nothing about missing content.
func (p *Page) Frameworks() []string {
	if p == nil || p.Doc == nil {
		return nil
	}
	_, texts := p.inlineScripts()
	inline := func(marker string) bool {
		for _, t := range texts {
			if strings.Contains(t, marker) {
				return true
			}
		}
		return false
	}
	has := func(sels ...string) bool {
		for _, sel := range sels {
			if p.marked(sel) != nil {
				return true
			}
		}
		return false
	}
	srcHas := func(part string) bool {
		for _, sc := range p.Scripts {
			if strings.Contains(sc.Src, part) {
				return true
			}
		}
		return false
	}
	var out []string
	add := func(name string, present bool) {
		if present {
			out = append(out, name)
		}
	}
	add("Next.js", has("#__NEXT_DATA__", "#__next") || srcHas("/_next/") || inline("self.__next_f"))
	add("Nuxt", has("#__nuxt", "#__NUXT_DATA__") || srcHas("/_nuxt/") || inline("window.__NUXT__"))
	add("Gatsby", has("#___gatsby"))
	add("Remix", inline("window.__remixContext"))
	add("SvelteKit", has("[data-sveltekit-hydrate]", "[data-svelte-h]") || inline("__sveltekit_"))
	add("Astro", has("astro-island"))
	add("Angular", has("[ng-version]", "[ng-server-context]"))
	add("Vue", has("[data-server-rendered]"))
	add("React", has("[data-reactroot]"))
	return out
}

// HiddenText is text inside an element a browser does not show.
type HiddenText struct {
	Selector string // tag plus id or first class
	Reason   string // the style or attribute that hides it
	Text     string
}

var (
	displayNoneRE = regexp.MustCompile(`display:none|visibility:hidden|opacity:0(\.0+)?(;|!|$)`)
	// microFontRE matches a zero font in any unit or one of at most 1px/1pt;
	// 1em and 1rem are ordinary sizes.
	microFontRE = regexp.MustCompile(`font-size:(0+(\.0+)?([a-z]+|%)?|0?\.\d+(px|pt)|1(\.0+)?(px|pt))(;|!|$)`)
)

// HiddenTexts returns the texts of elements hidden by an inline style
// (display:none, visibility:hidden, opacity:0, a zero or one-pixel font),
// the hidden attribute or aria-hidden="true". An element inside another
// hidden element is reported with its outermost hidden ancestor only.
func (p *Page) HiddenTexts() []HiddenText {
	if p == nil || p.Doc == nil {
		return nil
	}
	var out []HiddenText
	seen := map[*html.Node]bool{}
	p.Doc.Find("[style], [hidden], [aria-hidden]").Each(func(_ int, s *goquery.Selection) {
		n := s.Nodes[0]
		for a := n.Parent; a != nil; a = a.Parent {
			if seen[a] {
				return
			}
		}
		reason := ""
		style := strings.ToLower(strings.Join(strings.Fields(s.AttrOr("style", "")), ""))
		_, hiddenAttr := s.Attr("hidden")
		switch {
		case hiddenAttr:
			reason = "hidden attribute"
		case strings.EqualFold(strings.TrimSpace(s.AttrOr("aria-hidden", "")), "true"):
			reason = `aria-hidden="true"`
		case displayNoneRE.MatchString(style):
			reason = "style " + displayNoneRE.FindString(style)
		case microFontRE.MatchString(style):
			reason = "style " + microFontRE.FindString(style)
		default:
			return
		}
		seen[n] = true
		if t := clean(nodeText(n)); t != "" {
			out = append(out, HiddenText{Selector: selectorOf(n), Reason: strings.TrimRight(reason, ";!"), Text: t})
		}
	})
	return out
}

func selectorOf(n *html.Node) string {
	if id, ok := attr(n, "id"); ok && id != "" {
		return n.Data + "#" + id
	}
	if c, ok := attr(n, "class"); ok {
		if f := strings.Fields(c); len(f) > 0 {
			return n.Data + "." + f[0]
		}
	}
	return n.Data
}

// InsecureSubresources returns the http:// URLs of scripts, stylesheets,
// images (src and srcset), frames and media the page loads. Browsers block
// or flag them on an https page.
func (p *Page) InsecureSubresources() []string {
	if p == nil || p.Doc == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(u string) {
		u = strings.TrimSpace(u)
		if len(u) >= 7 && strings.EqualFold(u[:7], "http://") && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	p.Doc.Find("script[src], img, iframe[src], source, video[src], audio[src], embed[src], object[data], link[href]").Each(func(_ int, s *goquery.Selection) {
		switch goquery.NodeName(s) {
		case "link":
			rels := strings.Fields(strings.ToLower(s.AttrOr("rel", "")))
			for _, r := range rels {
				if r == "stylesheet" || r == "icon" || r == "preload" || r == "modulepreload" {
					add(s.AttrOr("href", ""))
				}
			}
		case "object":
			add(s.AttrOr("data", ""))
		default:
			add(s.AttrOr("src", ""))
			for _, cand := range strings.Split(s.AttrOr("srcset", ""), ",") {
				if f := strings.Fields(cand); len(f) > 0 {
					add(f[0])
				}
			}
		}
	})
	return out
}

// Byline returns the author name a reader sees: an itemprop=author or
// rel=author element, an element whose class names an author or byline,
// or else the author meta tag.
func (p *Page) Byline() string {
	if p == nil || p.Doc == nil {
		return ""
	}
	found := ""
	p.Doc.Find(`[itemprop=author], a[rel~=author], [class*=byline], [class*=author]`).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		if inChrome(s.Nodes[0], "nav", "footer") || strings.Contains(strings.ToLower(s.AttrOr("class", "")), "authority") {
			return true
		}
		t := clean(visibleText(s, false))
		if t == "" {
			t = clean(s.AttrOr("content", ""))
		}
		if n := len([]rune(t)); n >= 2 && n <= 100 {
			found = t
			return false
		}
		return true
	})
	if found == "" {
		found = p.MetaContent("author")
	}
	return found
}

var emailRE = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)

// ContactMethods names the ways to reach the site owner the page offers:
// "email" (mailto link or address in text), "phone" (tel link), "form"
// (a form that is not a search box) and "address" (an <address> element
// or a postal-address microdata item).
func (p *Page) ContactMethods() []string {
	if p == nil || p.Doc == nil {
		return nil
	}
	var out []string
	has := func(name string, ok bool) {
		if ok {
			out = append(out, name)
		}
	}
	mailto, tel := false, false
	for _, l := range p.Links {
		h := strings.ToLower(strings.TrimSpace(l.RawHref))
		mailto = mailto || strings.HasPrefix(h, "mailto:")
		tel = tel || strings.HasPrefix(h, "tel:")
	}
	d := p.Doc
	has("email", mailto || emailRE.MatchString(p.Text))
	has("phone", tel)
	forms := 0
	d.Find("form").Each(func(_ int, s *goquery.Selection) {
		role := strings.ToLower(s.AttrOr("role", ""))
		action := strings.ToLower(s.AttrOr("action", ""))
		if role == "search" || strings.Contains(action, "search") || s.Find(`input[type=search], input[name=q], input[name=s]`).Length() > 0 {
			return
		}
		if s.Find("textarea, input[type=email]").Length() > 0 {
			forms++
		}
	})
	has("form", forms > 0)
	has("address", d.Find(`address, [itemtype*="PostalAddress"]`).Length() > 0)
	return out
}

// StructuredMarkup counts schema markup other than JSON-LD: microdata
// items (itemscope) and schema.org RDFa nodes — a vocab naming
// schema.org, or a typeof whose type is schema.org's ("schema:Person", a
// schema.org URL, or an unprefixed type under a vocab). Other RDFa
// vocabularies are not schema markup: MediaWiki writes typeof="mw:File"
// on every image.
func (p *Page) StructuredMarkup() (microdata, rdfa int) {
	if p == nil || p.Doc == nil {
		return 0, 0
	}
	p.Doc.Find("[typeof], [vocab]").Each(func(_ int, s *goquery.Selection) {
		if strings.Contains(strings.ToLower(s.AttrOr("vocab", "")), "schema.org") {
			rdfa++
			return
		}
		underVocab := s.Closest("[vocab]").Length() > 0
		for _, t := range strings.Fields(s.AttrOr("typeof", "")) {
			lt := strings.ToLower(t)
			if strings.HasPrefix(lt, "schema:") || strings.Contains(lt, "schema.org/") || (underVocab && !strings.Contains(lt, ":")) {
				rdfa++
				return
			}
		}
	})
	return p.Doc.Find("[itemscope]").Length(), rdfa
}

// TextBlocks splits the main text (MainText: chrome, scripts and hidden
// elements left out) at block boundaries: each paragraph, list item,
// caption or cell is one block, in document order, empty ones dropped. A
// block repeated word for word (a photo credit under every picture, a
// price label on every product) is a template's doing, which readings of
// the copy can tell apart from what was written once.
func (p *Page) TextBlocks() []string {
	body := p.body()
	if body == nil {
		return nil
	}
	var out []string
	var b strings.Builder
	flush := func() {
		if t := clean(b.String()); t != "" {
			out = append(out, t)
		}
		b.Reset()
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			if skipAlways[n.Data] || IsChrome(n) {
				return
			}
			if _, hidden := attr(n, "hidden"); hidden {
				return
			}
			if blockLevel[n.Data] {
				flush()
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockLevel[n.Data] {
			flush()
		}
	}
	for _, n := range body.Nodes {
		walk(n)
	}
	flush()
	return out
}

func (p *Page) body() *goquery.Selection {
	if p == nil || p.Doc == nil {
		return nil
	}
	b := p.Doc.Find("body")
	if b.Length() == 0 {
		return nil
	}
	return b
}

// nodeText is the text under a node without scripts, styles and templates.
func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			return
		}
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template") {
			return
		}
		if n.Type == html.ElementNode && blockLevel[n.Data] {
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockLevel[n.Data] {
			b.WriteByte(' ')
		}
	}
	walk(n)
	return b.String()
}
