package render

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/PuerkitoBio/goquery"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// The comparison of one page as AI crawlers read it (the HTML the server
// sent, no JavaScript) with the same page as a browser shows it (the DOM
// after scripts ran). Both sides are read by the project's page parser,
// so "a word", "a heading" or "a canonical" means the same on either side
// as it does to every check.

// Diff is what a browser shows of a page beside what its HTML carries.
type Diff struct {
	// URL is the page compared: the rendered document's URL.
	URL string
	// Words are the words of the main text (page.Page.MainText, counted
	// as page.CountWords counts them). OnlyRendered counts the rendered
	// words that the HTML does not carry, position by position (see
	// wordsOnlyIn), so a hydrated page whose DOM holds the server's text
	// twice adds nothing; Removed counts the HTML's words that are gone
	// after JavaScript.
	Words Count
	// Headings are h1–h6 elements, compared by their text.
	Headings Count
	// InternalLinks are distinct same-site link targets.
	InternalLinks Count
	// ImagesWithAlt are images with a non-empty alt text, compared by
	// source and text.
	ImagesWithAlt Count
	// NavLinks are the distinct targets of links inside <nav> or a
	// navigation landmark: the page's primary navigation.
	NavLinks Count
	// JSONLD are the application/ld+json blocks that hold JSON; their
	// schema.org types follow.
	JSONLD        Count
	RawTypes      []string
	RenderedTypes []string
	// TypesOnlyRendered are the JSON-LD types that only the rendered page
	// declares; TypesRemoved those that JavaScript took away.
	TypesOnlyRendered []string
	TypesRemoved      []string
	// Title, Description, Canonical and Robots are the page's <title>,
	// meta description, canonical link(s) and meta robots directives on
	// either side.
	Title       Value
	Description Value
	Canonical   Value
	Robots      Value
	// NoindexRaw and NoindexRendered say whether the page's meta robots
	// (robots, googlebot or bingbot) forbid indexing on either side.
	NoindexRaw, NoindexRendered bool
}

// Count is one thing counted on either side.
type Count struct {
	Raw, Rendered int
	// OnlyRendered counts what the rendered page has that the HTML does
	// not; Removed what the HTML has that the rendered page lost.
	OnlyRendered, Removed int
}

// InRaw is how much of what the rendered page shows the HTML carries.
func (c Count) InRaw() int { return max(c.Rendered-c.OnlyRendered, 0) }

// RawShare is the share, 0–1, of what the rendered page shows that the
// HTML carries; 1 when the rendered page shows none.
func (c Count) RawShare() float64 {
	if c.Rendered == 0 {
		return 1
	}
	return float64(c.InRaw()) / float64(c.Rendered)
}

// Value is one text value on either side; Set says the page declares it.
type Value struct {
	Raw, Rendered       string
	RawSet, RenderedSet bool
}

// OnlyRendered reports a value that only JavaScript sets.
func (v Value) OnlyRendered() bool { return !v.RawSet && v.RenderedSet }

// Removed reports a value that JavaScript takes away.
func (v Value) Removed() bool { return v.RawSet && !v.RenderedSet }

// Changed reports a value present on both sides that JavaScript changes.
func (v Value) Changed() bool { return v.RawSet && v.RenderedSet && v.Raw != v.Rendered }

// The thresholds of a page whose content waits for JavaScript
// (docs/SCORING.md, "Rendering"): a rendered page of at least
// MinRenderedWords words whose HTML carries at most MaxRawShare of them.
const (
	MinRenderedWords = 200
	MaxRawShare      = 0.60
)

// TextNeedsJS reports a page whose main text waits for JavaScript by the
// thresholds above.
func (d *Diff) TextNeedsJS() bool {
	return d.Words.Rendered >= MinRenderedWords && d.Words.RawShare() <= MaxRawShare
}

// JSONLDOnlyRendered reports JSON-LD that only JavaScript adds: a rendered
// page with JSON-LD blocks or types the HTML does not have.
func (d *Diff) JSONLDOnlyRendered() bool {
	return (d.JSONLD.Raw == 0 && d.JSONLD.Rendered > 0) || len(d.TypesOnlyRendered) > 0
}

// NavOnlyRendered reports primary navigation that only JavaScript builds:
// the rendered page has navigation links and the HTML at most half of
// them.
func (d *Diff) NavOnlyRendered() bool {
	return d.NavLinks.Rendered > 0 && d.NavLinks.RawShare() <= 0.5
}

// RobotsChanged reports meta robots that JavaScript changes: noindex added
// or removed, or other directives changed.
func (d *Diff) RobotsChanged() bool {
	return d.NoindexRaw != d.NoindexRendered || d.Robots.Changed() || d.Robots.Removed()
}

// CanonicalChanged reports a canonical that JavaScript changes or removes.
func (d *Diff) CanonicalChanged() bool { return d.Canonical.Changed() || d.Canonical.Removed() }

// Compare compares a page's HTML as fetched (raw) with the same page
// rendered by a browser, both read by page.Parse.
func Compare(raw, rendered *page.Page) Diff {
	d := Diff{}
	if rendered != nil && rendered.URL != nil {
		d.URL = rendered.URL.String()
	} else if raw != nil && raw.URL != nil {
		d.URL = raw.URL.String()
	}
	rw, rd := sides(raw), sides(rendered)
	d.Words = compareWords(rw.words, rd.words)
	d.Headings = compareBags(rw.headings, rd.headings)
	d.InternalLinks = compareBags(rw.links, rd.links)
	d.ImagesWithAlt = compareBags(rw.images, rd.images)
	d.NavLinks = compareBags(rw.nav, rd.nav)
	d.JSONLD = Count{Raw: rw.jsonld, Rendered: rd.jsonld}
	d.RawTypes, d.RenderedTypes = rw.types, rd.types
	for _, t := range rd.types {
		if !slices.Contains(rw.types, t) {
			d.TypesOnlyRendered = append(d.TypesOnlyRendered, t)
		}
	}
	for _, t := range rw.types {
		if !slices.Contains(rd.types, t) {
			d.TypesRemoved = append(d.TypesRemoved, t)
		}
	}
	d.JSONLD.OnlyRendered = max(rd.jsonld-rw.jsonld, 0)
	d.JSONLD.Removed = max(rw.jsonld-rd.jsonld, 0)
	d.Title = Value{Raw: rw.title, Rendered: rd.title, RawSet: rw.title != "", RenderedSet: rd.title != ""}
	d.Description = Value{Raw: rw.description, Rendered: rd.description, RawSet: rw.description != "", RenderedSet: rd.description != ""}
	d.Canonical = Value{Raw: rw.canonical, Rendered: rd.canonical, RawSet: rw.canonical != "", RenderedSet: rd.canonical != ""}
	d.Robots = Value{Raw: rw.robots, Rendered: rd.robots, RawSet: rw.robots != "", RenderedSet: rd.robots != ""}
	d.NoindexRaw, d.NoindexRendered = rw.noindex, rd.noindex
	return d
}

// CompareRendered parses the rendered page's HTML against its final URL
// and compares it with raw. It fails only when the page was not rendered
// or its DOM cannot be read.
func CompareRendered(raw *page.Page, r Page) (Diff, error) {
	if !r.Rendered() {
		return Diff{}, fmt.Errorf("not rendered: %s", r.Err)
	}
	u, err := url.Parse(r.FinalURL)
	if err != nil || r.FinalURL == "" {
		if u, err = url.Parse(r.URL); err != nil {
			return Diff{}, fmt.Errorf("rendered page URL: %w", err)
		}
	}
	p, err := page.Parse(r.HTML, u)
	if err != nil {
		return Diff{}, fmt.Errorf("read the rendered DOM: %w", err)
	}
	return Compare(raw, p), nil
}

// side is what Compare reads of one page.
type side struct {
	words                         []string
	headings, links, images, nav  []string
	jsonld                        int
	types                         []string
	title, description, canonical string
	robots                        string
	noindex                       bool
}

func sides(p *page.Page) side {
	if p == nil {
		return side{}
	}
	s := side{
		words:       Words(p.MainText),
		links:       p.InternalLinks(),
		title:       p.Title,
		description: strings.Join(strings.Fields(p.MetaContent("description")), " "),
	}
	for _, h := range p.Headings {
		if h.Text != "" {
			s.headings = append(s.headings, strings.ToLower(h.Text))
		}
	}
	seenImg := map[string]bool{}
	for _, im := range p.Images {
		key := im.Src + "\x00" + im.Alt
		if im.HasAlt && im.Alt != "" && !seenImg[key] {
			seenImg[key] = true
			s.images = append(s.images, key)
		}
	}
	s.nav = navLinks(p)
	for _, b := range p.JSONLDTexts {
		if strings.TrimSpace(b) != "" {
			s.jsonld++
		}
	}
	if p.Graph != nil {
		s.types = p.Graph.TypesIn(jsonld.JSONLD)
	}
	var canon []string
	for _, c := range p.Canonicals {
		if c = normalURL(c); c != "" && !slices.Contains(canon, c) {
			canon = append(canon, c)
		}
	}
	s.canonical = strings.Join(canon, " ")
	var robots []string
	for _, v := range p.Meta["robots"] {
		if v = normalDirectives(v); v != "" {
			robots = append(robots, v)
		}
	}
	s.robots = strings.Join(robots, ", ")
	for _, key := range []string{"robots", "googlebot", "bingbot"} {
		for _, v := range p.Meta[key] {
			for _, d := range strings.Split(normalDirectives(v), ", ") {
				if d == "noindex" || d == "none" {
					s.noindex = true
				}
			}
		}
	}
	return s
}

// normalURL writes a canonical URL one way, so that writing it another
// way is no change: scheme and host in lower case, the root's path as
// "/", no fragment. Paths keep their case and trailing slash, which make
// other URLs.
func normalURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return s
	}
	u.Scheme, u.Host, u.Fragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String()
}

// normalDirectives writes a robots value one way: lower case, directives
// separated by ", ", so "NoIndex,follow" and "noindex, follow" are equal.
func normalDirectives(v string) string {
	var out []string
	for _, d := range strings.Split(strings.ToLower(v), ",") {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	return strings.Join(out, ", ")
}

// navLinks are the distinct targets of the links inside <nav> elements
// and navigation landmarks.
func navLinks(p *page.Page) []string {
	if p.Doc == nil {
		return nil
	}
	var out []string
	p.Doc.Find("nav a[href], [role=navigation] a[href]").Each(func(_ int, s *goquery.Selection) {
		href := strings.TrimSpace(s.AttrOr("href", ""))
		if href == "" || strings.HasPrefix(href, "#") || strings.HasPrefix(strings.ToLower(href), "javascript:") {
			return
		}
		if abs := p.Resolve(href); !slices.Contains(out, abs) {
			out = append(out, abs)
		}
	})
	return out
}

// compareBags counts two lists as multisets: an item the rendered page
// has more often than the HTML counts as only rendered, and the other way
// round as removed.
func compareBags(raw, rendered []string) Count {
	c := Count{Raw: len(raw), Rendered: len(rendered)}
	have := make(map[string]int, len(raw))
	for _, s := range raw {
		have[s]++
	}
	for _, s := range rendered {
		if have[s] > 0 {
			have[s]--
			continue
		}
		c.OnlyRendered++
	}
	for _, n := range have {
		c.Removed += n
	}
	return c
}

// shingle is the length of the word runs two texts are compared by.
const shingle = 5

// compareWords counts the words of either text and those of each the
// other does not carry (wordsOnlyIn).
func compareWords(raw, rendered []string) Count {
	return Count{
		Raw: len(raw), Rendered: len(rendered),
		OnlyRendered: wordsOnlyIn(rendered, raw),
		Removed:      wordsOnlyIn(raw, rendered),
	}
}

// wordsOnlyIn counts the words of a that b does not carry. A word of a is
// carried when a run of shingle words around it (any run of that length
// that contains it) occurs anywhere in b. Runs, not single words, make
// the count about text: the rendered page's "the" is not carried by any
// "the" of the HTML, but by the same phrase; and occurrences, not
// positions, make it robust to text that moves or repeats, such as a
// hydrated DOM that holds the server's text twice. Texts shorter than a
// run are compared word by word.
func wordsOnlyIn(a, b []string) int {
	if len(a) == 0 {
		return 0
	}
	k := min(shingle, len(a))
	if len(b) < k {
		k = max(len(b), 1)
	}
	runs := make(map[string]bool, len(b))
	for i := 0; i+k <= len(b); i++ {
		runs[strings.Join(b[i:i+k], "\x00")] = true
	}
	carried := make([]bool, len(a))
	for i := 0; i+k <= len(a); i++ {
		if runs[strings.Join(a[i:i+k], "\x00")] {
			for j := i; j < i+k; j++ {
				carried[j] = true
			}
		}
	}
	n := 0
	for _, c := range carried {
		if !c {
			n++
		}
	}
	return n
}

// Words splits a text into its words as page.CountWords counts them, in
// lower case: runs of letters and digits (a combining mark continues its
// word), and every Chinese or Japanese character on its own, so that
// len(Words(s)) == page.CountWords(s).
func Words(s string) []string {
	var out []string
	start, in := -1, false
	for i, r := range s {
		if ideographic(r) {
			if in {
				out = append(out, strings.ToLower(s[start:i]))
				in = false
			}
			out = append(out, string(r))
			continue
		}
		w := unicode.IsLetter(r) || unicode.IsDigit(r) || (in && unicode.IsMark(r))
		switch {
		case w && !in:
			start = i
		case !w && in:
			out = append(out, strings.ToLower(s[start:i]))
		}
		in = w
	}
	if in {
		out = append(out, strings.ToLower(s[start:]))
	}
	return out
}

// ideographic is page.CountWords' test for a character counted on its
// own.
func ideographic(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Bopomofo, r))
}

// Summary says in one sentence what exists only after JavaScript and what
// JavaScript changes: "412 of 530 words, 3 of 4 headings, the Product
// JSON-LD and the canonical appear only after JavaScript."
func (d *Diff) Summary() string {
	var only []string
	if d.Words.OnlyRendered >= minWordsNoted || (d.Words.Raw == 0 && d.Words.Rendered > 0) {
		only = append(only, ofN(d.Words.OnlyRendered, d.Words.Rendered, "word", "words"))
	}
	if d.Headings.OnlyRendered > 0 {
		only = append(only, ofN(d.Headings.OnlyRendered, d.Headings.Rendered, "heading", "headings"))
	}
	switch {
	case len(d.TypesOnlyRendered) > 0:
		only = append(only, "the "+andList(firstN(d.TypesOnlyRendered, 4))+" JSON-LD")
	case d.JSONLDOnlyRendered():
		only = append(only, "the JSON-LD")
	}
	for _, v := range []struct {
		v    Value
		name string
	}{{d.Title, "the title"}, {d.Description, "the meta description"}, {d.Canonical, "the canonical"}, {d.Robots, "the meta robots tag"}} {
		if v.v.OnlyRendered() {
			only = append(only, v.name)
		}
	}
	switch {
	case d.NavOnlyRendered():
		only = append(only, "the navigation ("+ofN(d.NavLinks.OnlyRendered, d.NavLinks.Rendered, "link", "links")+")")
	case d.NavLinks.OnlyRendered > 0:
		only = append(only, ofN(d.NavLinks.OnlyRendered, d.NavLinks.Rendered, "navigation link", "navigation links"))
	}
	if d.InternalLinks.OnlyRendered > 0 {
		only = append(only, ofN(d.InternalLinks.OnlyRendered, d.InternalLinks.Rendered, "internal link", "internal links"))
	}
	if d.ImagesWithAlt.OnlyRendered > 0 {
		only = append(only, ofN(d.ImagesWithAlt.OnlyRendered, d.ImagesWithAlt.Rendered, "image with alt text", "images with alt text"))
	}
	var sentences []string
	if len(only) > 0 {
		verb := "appear"
		if len(only) == 1 && strings.HasPrefix(only[0], "the ") {
			verb = "appears"
		}
		sentences = append(sentences, capFirst(andList(only))+" "+verb+" only after JavaScript.")
	}
	sentences = append(sentences, d.changes()...)
	if len(sentences) == 0 {
		return fmt.Sprintf("The HTML carries what a browser shows of the page: %s and %s.",
			plural(d.Words.Rendered, "word", "words"), plural(d.Headings.Rendered, "heading", "headings"))
	}
	return strings.Join(sentences, " ")
}

// Changes are the sentences about what JavaScript changes or removes.
func (d *Diff) changes() []string {
	var out []string
	switch {
	case !d.NoindexRaw && d.NoindexRendered:
		out = append(out, "JavaScript adds noindex to the meta robots tag.")
	case d.NoindexRaw && !d.NoindexRendered:
		out = append(out, "JavaScript removes the noindex of the meta robots tag.")
	case d.Robots.Changed():
		out = append(out, fmt.Sprintf("JavaScript changes the meta robots tag from %q to %q.", excerpt(d.Robots.Raw), excerpt(d.Robots.Rendered)))
	case d.Robots.Removed():
		out = append(out, "JavaScript removes the meta robots tag.")
	}
	switch {
	case d.Canonical.Changed():
		out = append(out, fmt.Sprintf("JavaScript changes the canonical from %s to %s.", excerpt(d.Canonical.Raw), excerpt(d.Canonical.Rendered)))
	case d.Canonical.Removed():
		out = append(out, "JavaScript removes the canonical.")
	}
	if d.Title.Changed() {
		out = append(out, fmt.Sprintf("JavaScript changes the title to %q.", excerpt(d.Title.Rendered)))
	}
	if len(d.TypesRemoved) > 0 {
		out = append(out, fmt.Sprintf("JavaScript removes the %s JSON-LD.", andList(firstN(d.TypesRemoved, 4))))
	}
	if d.Words.Removed >= minWordsNoted && d.Words.Removed*10 >= d.Words.Raw {
		out = append(out, fmt.Sprintf("%s of the HTML %s gone after JavaScript.", capFirst(ofN(d.Words.Removed, d.Words.Raw, "word", "words")), map[bool]string{true: "is", false: "are"}[d.Words.Removed == 1]))
	}
	return out
}

// minWordsNoted is the number of words that only one side has below which
// a summary does not mention them: a date or a counter that a script
// writes is no content.
const minWordsNoted = 10

func ofN(n, total int, one, many string) string {
	if total == 1 {
		return fmt.Sprintf("%d of 1 %s", n, one)
	}
	return fmt.Sprintf("%d of %d %s", n, total, many)
}

func plural(n int, one, many string) string {
	switch n {
	case 0:
		return "no " + many
	case 1:
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func andList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func firstN(items []string, n int) []string { return items[:min(len(items), n)] }

func capFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// excerpt shortens a value of the page for a sentence.
func excerpt(s string) string {
	r := []rune(s)
	if len(r) <= 80 {
		return s
	}
	return string(r[:79]) + "…"
}
