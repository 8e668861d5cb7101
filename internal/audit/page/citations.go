package page

import (
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Citations. A page cites its sources the ways readers recognise: a link
// inside a sentence of the copy, a numbered footnote, a references
// section at the end, a <cite> or a quotation's cite attribute, or a link
// to the company or body a sentence names (the press release a story
// reports on). A link is read by the part it plays in the text, never by
// the host it points to: an essay's sixteen links to blogs and papers
// cite as much as one link to a .gov page. What only looks like a link
// in the text is no citation: the site's own pages, menus and footers,
// share buttons, ads and affiliate links, profiles on social networks,
// and images that link somewhere.

// CitationRole is the part a citation plays in the text.
type CitationRole string

// The roles, from the most specific to the least.
const (
	// CiteFootnote is a source in a footnote or endnote: a note a marker
	// in the text points to (<sup><a href="#fn1">, role=doc-noteref), or
	// an item of a notes list (doc-endnotes, .footnotes).
	CiteFootnote CitationRole = "footnote"
	// CiteReferences is a link in a references section: under a heading
	// such as References, Sources, Further reading, Quellen, Fuentes,
	// 参考文献 or المراجع, in a bibliography, or after "Source:".
	CiteReferences CitationRole = "references_section"
	// CiteQuotation is a source marked up as one: a link in a <cite>, the
	// cite attribute of <blockquote> or <q>, or a cited title.
	CiteQuotation CitationRole = "cite_markup"
	// CitePrimary is a link in running text to the party its sentence
	// names: "Acme announced …" linking acme.com.
	CitePrimary CitationRole = "primary_party"
	// CiteRunningText is a link inside a sentence of the main content.
	CiteRunningText CitationRole = "running_text"
)

// CitationRoles lists the roles from the most specific to the least; a
// source cited several ways takes the first of its roles.
var CitationRoles = []CitationRole{CiteFootnote, CiteReferences, CiteQuotation, CitePrimary, CiteRunningText}

// Citation is one source the page cites; the same source cited twice is
// one citation.
type Citation struct {
	// URL is the cited address without its fragment and tracking
	// parameters; "" for a source named without a link (a footnote that
	// cites a book, a <cite>d title).
	URL string
	// Host is URL's host without "www.".
	Host string
	Role CitationRole
	// Text is the link's text, the cited title or the note.
	Text string
	// Context is the sentence, note or list item around it, shortened.
	Context string
}

// maxContext bounds Citation.Context and Citation.Text, in runes.
const maxContext = 200

// Citations returns the sources the page cites, in the order they first
// appear.
func (p *Page) Citations() []Citation {
	body := p.body()
	if body == nil {
		return nil
	}
	c := &citer{
		p: p, words: map[*html.Node]int{}, ownText: map[*html.Node]string{}, blocks: map[*html.Node]*blockRead{}, outside: map[*html.Node]bool{},
		names: map[*html.Node][]string{},
		notes: map[*html.Node]bool{}, refs: map[*html.Node]bool{}, index: map[string]int{},
	}
	if p.URL != nil {
		c.site = registrable(p.URL.Hostname())
		c.host = strings.ToLower(p.URL.Hostname())
		c.pageHost = strings.TrimPrefix(strings.ToLower(p.URL.Hostname()), "www.")
	}
	root := body.Nodes[0]
	// Words outside the page chrome: a wrapper that holds most of them
	// is the content, whatever its class names.
	c.bodyWords = p.Words
	c.findScopes(root)
	c.findNotes(root)
	c.findReferences(root)
	c.walk(root)
	return c.out
}

// citer holds one page's reading of its citations.
type citer struct {
	p         *Page
	site      string // the page's registrable domain
	host      string // the page's host, lower case
	pageHost  string
	bodyWords int
	// scopes are the main, article and role=main elements that hold the
	// content; when there are none, the whole body does.
	scopes []*html.Node
	// notes are footnote elements; refs the roots of references sections.
	notes   map[*html.Node]bool
	refs    map[*html.Node]bool
	words   map[*html.Node]int
	ownText map[*html.Node]string
	blocks  map[*html.Node]*blockRead
	outside map[*html.Node]bool // excluded, per element
	names   map[*html.Node][]string
	out     []Citation
	index   map[string]int // dedupe key → position in out
}

// nameTokens are n's class and id words (see nameTokens), once per
// element: several readings ask for them.
func (c *citer) nameTokens(n *html.Node) []string {
	t, ok := c.names[n]
	if !ok {
		t = nameTokens(n)
		c.names[n] = t
	}
	return t
}

func (c *citer) wordsOf(n *html.Node) int {
	w, ok := c.words[n]
	if !ok {
		w = CountWords(nodeText(n))
		c.words[n] = w
	}
	return w
}

// findScopes keeps the content elements that are not themselves page
// chrome or a widget (an <article> per teaser in a sidebar).
func (c *citer) findScopes(root *html.Node) {
	c.p.Doc.Find("main, article, [role=main], [role=article]").Each(func(_ int, s *goquery.Selection) {
		n := s.Nodes[0]
		if !inChrome(n) && !c.excluded(n) {
			c.scopes = append(c.scopes, n)
		}
	})
	if len(c.scopes) == 0 {
		c.scopes = []*html.Node{root}
	}
}

func (c *citer) inScope(n *html.Node) bool {
	for a := n; a != nil; a = a.Parent {
		if slices.Contains(c.scopes, a) {
			return true
		}
	}
	return false
}

// within reports n or an ancestor in set.
func within(n *html.Node, set map[*html.Node]bool) bool {
	for a := n; a != nil; a = a.Parent {
		if set[a] {
			return true
		}
	}
	return false
}

// regionTokens are the words of class and id names that mark a part of
// the page that is not its copy: sharing bars, ads and sponsored boxes,
// comments, sidebars and widgets, related or recommended posts, menus,
// footers, consent banners, newsletter forms, author boxes, tag lists,
// testimonials and embedded posts.
var regionTokens = map[string]bool{
	"share": true, "shares": true, "sharing": true, "sharer": true, "social": true, "sharedaddy": true, "addtoany": true,
	"a2a": true, "sharethis": true, "shariff": true,
	"ad": true, "ads": true, "adsbygoogle": true, "advert": true, "adverts": true, "advertisement": true, "advertising": true,
	"sponsor": true, "sponsored": true, "sponsors": true, "promo": true, "promoted": true, "promotion": true, "affiliate": true,
	"partner": true, "partners": true, "outbrain": true, "taboola": true,
	"comment": true, "comments": true, "commentlist": true, "respond": true, "disqus": true,
	"sidebar": true, "widget": true, "widgets": true, "related": true, "recommended": true, "recommendations": true,
	"popular": true, "trending": true,
	"nav": true, "navbar": true, "navigation": true, "menu": true, "breadcrumb": true, "breadcrumbs": true, "pagination": true, "pager": true,
	"footer": true, "colophon": true, "copyright": true,
	"cookie": true, "cookies": true, "consent": true, "newsletter": true, "subscribe": true, "signup": true,
	"author": true, "bio": true, "byline": true, "vcard": true, "tags": true, "categories": true,
	"testimonial": true, "testimonials": true, "embed": true, "tweet": true, "instagram": true, "tiktok": true,
}

// nameTokens splits class and id names into lower-case words at
// punctuation and camelCase humps. Names that state a condition of the
// element ("has-sidebar", "with-comments", "no-ads") name no region.
func nameTokens(n *html.Node) []string {
	var out []string
	for _, key := range []string{"class", "id"} {
		v, _ := attr(n, key)
		for _, name := range strings.Fields(v) {
			low := strings.ToLower(name)
			if strings.HasPrefix(low, "has-") || strings.HasPrefix(low, "with-") || strings.HasPrefix(low, "no-") || strings.HasPrefix(low, "is-") {
				continue
			}
			out = append(out, splitName(name)...)
		}
	}
	return out
}

// splitName splits an identifier into lower-case words: "shareButtons",
// "share_buttons" and "share-buttons" all give share and buttons.
func splitName(name string) []string {
	var out []string
	var b strings.Builder
	prevLower := false
	flush := func() {
		if b.Len() > 0 {
			out = append(out, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		b.WriteRune(r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return out
}

// excluded reports n inside a region that is not the page's copy: an
// element named for one (regionTokens), or a navigation, form, button or
// dialog. A named element that holds most of the page's words is the
// content's wrapper, whatever its class says ("layout-sidebar-right").
func (c *citer) excluded(n *html.Node) bool {
	if n == nil || n.Type != html.ElementNode || n.Data == "body" || n.Data == "html" {
		return false
	}
	if v, ok := c.outside[n]; ok {
		return v
	}
	v := c.region(n) || c.excluded(n.Parent)
	c.outside[n] = v
	return v
}

// region reports an element that is itself such a region.
func (c *citer) region(n *html.Node) bool {
	switch n.Data {
	case "nav", "form", "button", "dialog", "select", "template":
		return true
	}
	for _, t := range c.nameTokens(n) {
		if regionTokens[t] {
			w := c.wordsOf(n)
			return w < 50 || w*10 < c.bodyWords*6
		}
	}
	return false
}

// Footnotes.

// noteIDRE is the id of a footnote a marker points to: fn1, fn:1,
// footnote-2, cite_note-3, endnote4, ref5, note-6.
var noteIDRE = regexp.MustCompile(`(?i)^(?:fn|footnote|note|endnote|en|cite[_-]?note|ref|r|n)[-_:.]?[\w-]*\d[\w-]*$`)

// noteContainerTokens name lists of notes (Pandoc, Hugo, markdown-it,
// MediaWiki, WordPress footnote plugins).
var noteContainerTokens = map[string]bool{"footnotes": true, "footnote": true, "endnotes": true, "endnote": true, "reflist": true}

// findNotes marks the notes: the elements footnote markers point to, and
// the items of notes lists.
func (c *citer) findNotes(root *html.Node) {
	ids := map[string]*html.Node{}
	var markers []*html.Node
	walkElements(root, func(n *html.Node) {
		if id, ok := attr(n, "id"); ok && ids[id] == nil {
			ids[id] = n
		}
		if n.Data == "a" {
			if name, ok := attr(n, "name"); ok && ids[name] == nil {
				ids[name] = n
			}
			if href, _ := attr(n, "href"); strings.HasPrefix(strings.TrimSpace(href), "#") {
				markers = append(markers, n)
			}
		}
		r := role(n)
		if r == "doc-endnotes" || r == "doc-footnote" {
			c.markNoteList(n)
			return
		}
		for _, t := range c.nameTokens(n) {
			if noteContainerTokens[t] {
				c.markNoteList(n)
				return
			}
		}
	})
	for _, m := range markers {
		href, _ := attr(m, "href")
		frag := strings.TrimPrefix(strings.TrimSpace(href), "#")
		if f, err := url.PathUnescape(frag); err == nil {
			frag = f
		}
		target := ids[frag]
		if target == nil || !c.noteMarker(m, frag) {
			continue
		}
		if note := c.noteOf(target); note != nil {
			c.notes[note] = true
		}
	}
}

// markNoteList marks a notes list: its items, or the whole element when
// it has none.
func (c *citer) markNoteList(n *html.Node) {
	items := 0
	walkElements(n, func(e *html.Node) {
		if e.Data == "li" {
			c.notes[e] = true
			items++
		}
	})
	if items == 0 && c.wordsOf(n) <= 300 {
		c.notes[n] = true
	}
}

// noteMarker reports an in-page link that is a footnote marker: the
// noteref role, a short link in <sup>, a footnote class, or a short
// link to a footnote-shaped id.
func (c *citer) noteMarker(a *html.Node, frag string) bool {
	if role(a) == "doc-noteref" {
		return true
	}
	text := strings.Trim(clean(nodeText(a)), "[]() ")
	short := utf8.RuneCountInString(text) <= 6
	if short && hasElement(a, "sup") {
		return true
	}
	for p, i := a.Parent, 0; p != nil && i < 2; p, i = p.Parent, i+1 {
		if p.Type == html.ElementNode && p.Data == "sup" && short {
			return true
		}
	}
	for _, t := range c.nameTokens(a) {
		if t == "footnote" || t == "fnref" || t == "noteref" || t == "footnoteref" {
			return true
		}
	}
	return short && noteIDRE.MatchString(frag)
}

// noteOf is the note a marker's target stands for: the target when it is
// a block (<li id="fn1">), else the block around it, as long as that is
// note-sized and not the content itself.
func (c *citer) noteOf(target *html.Node) *html.Node {
	n := target
	if !blockLevel[n.Data] {
		for a := n.Parent; a != nil && a.Type == html.ElementNode; a = a.Parent {
			if blockLevel[a.Data] {
				n = a
				break
			}
		}
	}
	if n.Data == "body" || slices.Contains(c.scopes, n) || c.wordsOf(n) > 300 {
		return nil
	}
	return n
}

// References sections.

// refTitles are the titles of references sections in the web's common
// languages, lower case.
var refTitles = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range []string{
		// English
		"references", "reference", "sources", "source", "further reading", "bibliography", "notes", "footnotes", "endnotes",
		"citations", "works cited", "reference list", "reading list", "selected bibliography", "sources cited", "cited works",
		"notes and references", "literature",
		// German
		"quellen", "quelle", "quellenangaben", "quellenverzeichnis", "literatur", "literaturverzeichnis", "literaturhinweise",
		"einzelnachweise", "anmerkungen", "fußnoten", "fussnoten", "belege", "nachweise", "weiterführende literatur",
		// French
		"références", "référence", "bibliographie", "notes et références", "pour aller plus loin", "lectures complémentaires",
		"pour en savoir plus",
		// Spanish
		"fuentes", "fuente", "referencias", "bibliografía", "notas", "lecturas adicionales", "lectura adicional",
		"para saber más", "notas y referencias",
		// Italian
		"fonti", "fonte", "riferimenti", "note", "bibliografia", "riferimenti bibliografici", "letture consigliate",
		"per approfondire", "note e riferimenti",
		// Portuguese
		"referências", "fontes", "leitura adicional", "leitura complementar", "leituras recomendadas", "para saber mais",
		"referências bibliográficas", "notas e referências",
		// Dutch
		"bronnen", "bron", "bronvermelding", "referenties", "literatuurlijst", "noten", "voetnoten", "verder lezen",
		// Russian, Ukrainian, Bulgarian, Serbian
		"источники", "источник", "литература", "примечания", "список литературы", "библиография", "сноски",
		"дополнительная литература", "использованная литература", "джерела", "джерело", "література", "примітки",
		"список літератури", "виноски", "източници", "бележки", "извори", "извор", "напомене",
		// Polish, Czech, Slovak, Croatian
		"źródła", "źródło", "przypisy", "bibliografia i przypisy", "zdroje", "zdroj", "poznámky", "referencie",
		"literatúra", "izvori", "izvor", "bilješke",
		// Swedish, Danish, Norwegian, Finnish
		"källor", "källa", "referenser", "noter", "litteratur", "vidare läsning", "källförteckning", "kilder", "kilde",
		"referencer", "referanser", "yderligere læsning", "videre lesning", "lähteet", "lähde", "viitteet",
		"kirjallisuutta", "kirjallisuus", "alaviitteet",
		// Turkish, Hungarian, Romanian, Greek, Catalan
		"kaynaklar", "kaynak", "kaynakça", "notlar", "dipnotlar", "források", "forrás", "jegyzetek", "irodalom",
		"hivatkozások", "surse", "sursă", "sursa", "referințe", "bibliografie", "πηγές", "πηγή", "παραπομπές",
		"βιβλιογραφία", "σημειώσεις", "referències", "fonts",
		// Japanese, Chinese, Korean
		"参考文献", "出典", "脚注", "注釈", "参考資料", "参考", "引用文献", "関連文献", "参考资料", "參考資料", "參考文獻",
		"参考来源", "參考來源", "来源", "來源", "资料来源", "資料來源", "注释", "註釋", "延伸阅读", "延伸閱讀", "出处", "出處",
		"참고 문헌", "참고문헌", "출처", "각주", "참고 자료", "참고자료", "주석",
		// Arabic, Hebrew, Persian, Hindi
		"المراجع", "المصادر", "مراجع", "مصادر", "الهوامش", "هوامش", "المصادر والمراجع", "قراءات إضافية", "المصدر", "مصدر",
		"מקורות", "מקור", "הערות שוליים", "לקריאה נוספת", "ביבליוגרפיה", "סימוכין", "منابع", "منبع", "پانویس", "کتاب\u200cشناسی",
		"संदर्भ", "सन्दर्भ", "स्रोत", "टिप्पणियाँ", "ग्रंथसूची",
		// Indonesian, Malay, Vietnamese, Thai
		"referensi", "sumber", "daftar pustaka", "catatan kaki", "bacaan lanjutan", "rujukan", "bacaan lanjut",
		"tham khảo", "nguồn", "chú thích", "tài liệu tham khảo", "đọc thêm", "nguồn tham khảo",
		"อ้างอิง", "แหล่งที่มา", "แหล่งข้อมูล", "บรรณานุกรม", "เชิงอรรถ", "เอกสารอ้างอิง",
	} {
		m[t] = true
	}
	return m
}()

var (
	// refNumberingRE is a section number before a title: "5.", "IV.", "5.2".
	refNumberingRE = regexp.MustCompile(`^(?:\d+(?:\.\d+)*|[ivxlc]+)[.)]?\s+`)
	// refCountRE is a count after a title: "References (12)".
	refCountRE = regexp.MustCompile(`\s*[(\[]\d+[)\]]$`)
	// refJoinRE separates the parts of a combined title: "Notes and
	// references", "Sources & further reading", "Quellen und Literatur".
	refJoinRE = regexp.MustCompile(`\s*[&/,+·・、|]\s*|\s+(?:and|und|et|y|e|en|och|og|i|и|ve|és|și|oraz|ja|a|و)\s+|と|及び|및`)
)

// maxRefTitle is the longest references title read, in runes.
const maxRefTitle = 60

// refTitle reports a references section's title.
func refTitle(s string) bool {
	if overRefTitle(s) {
		return false
	}
	t := strings.ToLower(clean(s))
	t = strings.TrimRight(t, ":：. ")
	if t != "" && strings.IndexByte("0123456789ivxlc", t[0]) >= 0 {
		t = refNumberingRE.ReplaceAllString(t, "")
	}
	if strings.HasSuffix(t, ")") || strings.HasSuffix(t, "]") {
		t = refCountRE.ReplaceAllString(t, "")
	}
	if t == "" || utf8.RuneCountInString(t) > maxRefTitle {
		return false
	}
	if refTitles[t] {
		return true
	}
	// A combined title opens with one of the titles; most text opens
	// with none, and is told so without splitting it.
	if !refTitleOpens(t) {
		return false
	}
	parts := refJoinRE.Split(t, -1)
	if len(parts) < 2 {
		return false
	}
	for _, part := range parts {
		if !refTitles[strings.TrimSpace(part)] {
			return false
		}
	}
	return true
}

// overRefTitle reports a text that stays longer than maxRefTitle
// whatever refTitle trims from it: it counts the runes that neither
// clean, the trimmed punctuation, a section number nor a count can
// remove. Most paragraphs are told apart this way without being
// lower-cased and searched.
func overRefTitle(s string) bool {
	n := 0
	for _, r := range s {
		if r < utf8.RuneSelf && refTrimmable[r] || r >= utf8.RuneSelf && (unicode.IsSpace(r) || r == '：' || r == 'İ') {
			continue
		}
		if n++; n > maxRefTitle {
			return true
		}
	}
	return false
}

// refTrimmable are the ASCII characters refTitle may remove: white
// space, section numbers, counts and closing punctuation.
var refTrimmable = func() (t [utf8.RuneSelf]bool) {
	for _, c := range "0123456789.:()[]ivxlcIVXLC \t\n\v\f\r" {
		t[c] = true
	}
	return t
}()

// refTitlesByByte are the references titles by their first byte.
var refTitlesByByte = func() map[byte][]string {
	m := map[byte][]string{}
	for t := range refTitles {
		m[t[0]] = append(m[t[0]], t)
	}
	return m
}()

// refTitleOpens reports a text that opens with a references title.
func refTitleOpens(t string) bool {
	for _, title := range refTitlesByByte[t[0]] {
		if strings.HasPrefix(t, title) {
			return true
		}
	}
	return false
}

// refPrefixed reports a block that opens with a references title and a
// colon: "Source: Eurostat", "Quelle: dpa", "出典：総務省".
func refPrefixed(text string) bool {
	i := strings.IndexByte(text, ':')
	if j := strings.Index(text, "："); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i <= 0 || utf8.RuneCountInString(text[:i]) > 40 {
		return false
	}
	return refTitle(text[:i])
}

// refContainerTokens name the elements that hold a bibliography or a
// list of sources.
var refContainerTokens = map[string]bool{
	"references": true, "sources": true, "bibliography": true, "citations": true, "refbegin": true, "reflist": true, "bibliografia": true,
}

// findReferences marks the references sections: what follows a
// references heading up to the next heading of its rank or above, a
// block that only says "Sources:", a <details> whose summary is such a
// title, a block that opens with "Source:", and bibliography containers.
func (c *citer) findReferences(root *html.Node) {
	walkElements(root, func(n *html.Node) {
		if role(n) == "doc-bibliography" {
			c.refs[n] = true
			return
		}
		for _, t := range c.nameTokens(n) {
			if refContainerTokens[t] {
				c.refs[n] = true
				return
			}
		}
		if lvl := headingLevel(n); lvl > 0 {
			if refTitle(nodeText(n)) {
				c.markSection(n, lvl)
			}
			return
		}
		switch n.Data {
		case "summary":
			if refTitle(nodeText(n)) && n.Parent != nil {
				c.refs[n.Parent] = true
			}
			return
		case "p", "div", "li", "dd", "figcaption", "small", "td":
		default:
			return
		}
		text := c.own(n)
		if text == "" {
			return
		}
		if refTitle(text) && !hasElement(n, "a") && c.wordsOf(n) <= 6 {
			c.markSection(n, 7)
			return
		}
		if refPrefixed(text) {
			c.refs[n] = true
		}
	})
}

// markSection marks what follows a references title of rank level (7
// for a paragraph acting as one): its following siblings, up to a
// heading of that rank or above, or a new sectioning element. A title
// wrapped alone in an element (a block editor's wrapper, a header) opens
// the section from its wrapper.
func (c *citer) markSection(h *html.Node, level int) {
	start := h
	for range 2 {
		par := start.Parent
		if par == nil || par.Data == "body" || slices.Contains(c.scopes, par) || elementChildren(par) != 1 {
			break
		}
		start = par
	}
	for s := start.NextSibling; s != nil; s = s.NextSibling {
		if s.Type != html.ElementNode {
			continue
		}
		switch s.Data {
		case "section", "article", "aside", "nav", "footer", "header", "form", "main":
			return
		}
		if lvl := topHeading(s); lvl > 0 && lvl <= level {
			return
		}
		if level == 7 && c.pseudoHeading(s) {
			return
		}
		c.refs[s] = true
	}
}

// pseudoHeading reports a short block of bold text alone, which reads
// as the title of what follows it.
func (c *citer) pseudoHeading(n *html.Node) bool {
	if n.Data != "p" || c.wordsOf(n) > 6 || hasElement(n, "a") {
		return false
	}
	return hasElement(n, "strong") || hasElement(n, "b")
}

// headingLevel is 1–6 for h1–h6, else 0.
func headingLevel(n *html.Node) int {
	if n.Type == html.ElementNode && len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6' {
		return int(n.Data[1] - '0')
	}
	return 0
}

// topHeading is the highest rank (lowest number) of the headings in n
// and below it, 0 when there are none.
func topHeading(n *html.Node) int {
	best := 0
	walkElements(n, func(e *html.Node) {
		if l := headingLevel(e); l > 0 && (best == 0 || l < best) {
			best = l
		}
	})
	return best
}

func elementChildren(n *html.Node) int {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			k++
		} else if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return 2
		}
	}
	return k
}

func hasElement(n *html.Node, name string) bool {
	found := false
	walkElements(n, func(e *html.Node) {
		if e != n && e.Data == name {
			found = true
		}
	})
	return found
}

// walkElements calls fn for n and every element below it, in document
// order, skipping scripts, styles and templates.
func walkElements(n *html.Node, fn func(*html.Node)) {
	if n.Type == html.ElementNode {
		if n.Data == "script" || n.Data == "style" || n.Data == "template" {
			return
		}
		fn(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walkElements(c, fn)
	}
}

// Links.

// walk reads every link, quotation and cited title of the body.
func (c *citer) walk(root *html.Node) {
	walkElements(root, func(n *html.Node) {
		if c.notes[n] {
			c.unlinkedNote(n)
		}
		switch n.Data {
		case "a":
			c.link(n)
		case "blockquote", "q":
			c.quotation(n)
		case "cite":
			c.citedTitle(n)
		}
	})
}

// link reads one <a>.
func (c *citer) link(a *html.Node) {
	href, _ := attr(a, "href")
	if !navigable(href) {
		return
	}
	u := c.outbound(href)
	if u == nil {
		return
	}
	rel := strings.Fields(strings.ToLower(func() string { v, _ := attr(a, "rel"); return v }()))
	if slices.Contains(rel, "sponsored") || slices.Contains(rel, "ugc") {
		return
	}
	text := clean(nodeText(a))
	if text == "" {
		// An image, an icon or an aria-label alone: a banner or a
		// button, not a reference in the text.
		return
	}
	note := within(a, c.notes)
	if (inChrome(a) && !note) || c.excluded(a) {
		return
	}
	var role CitationRole
	var context string
	switch {
	case note:
		role, context = CiteFootnote, c.enclosingText(a, c.notes)
	case within(a, c.refs):
		role, context = CiteReferences, c.blockText(a)
	case !c.inScope(a):
		return
	case c.inside(a, "cite"):
		role, context = CiteQuotation, c.blockText(a)
	default:
		block := blockOf(a)
		if block == nil || headingLevel(block) > 0 || block.Data == "figcaption" || block.Data == "summary" || block.Data == "dt" {
			return
		}
		if c.read(block).freeWords < 3 {
			// A list of links ("Related: …"), a link alone in its
			// paragraph: no sentence cites with it.
			return
		}
		sentence := c.sentence(block, a)
		role, context = CiteRunningText, sentence
		if namesParty(sentence, u.Hostname()) {
			role = CitePrimary
		}
	}
	c.add(u, role, text, context)
}

// quotation reads the cite attribute of a <blockquote> or <q>.
func (c *citer) quotation(n *html.Node) {
	src, ok := attr(n, "cite")
	if !ok || !navigable(src) || inChrome(n) || c.excluded(n) || !c.inScope(n) {
		return
	}
	if u := c.outbound(src); u != nil {
		c.add(u, CiteQuotation, clean(nodeText(n)), clean(nodeText(n)))
	}
}

// citedTitle reads a <cite> without a link: the title of a cited work.
// A commenter's or a customer's name in <cite> (WordPress comments,
// testimonials) is no source.
func (c *citer) citedTitle(n *html.Node) {
	if hasElement(n, "a") || inChrome(n) || c.excluded(n) || !c.inScope(n) {
		return
	}
	for a := n; a != nil && a.Type == html.ElementNode; a = a.Parent {
		for _, t := range c.nameTokens(a) {
			if t == "fn" || t == "review" || t == "reviews" {
				return
			}
		}
	}
	if within(n, c.notes) {
		// The note is the citation (unlinkedNotes).
		return
	}
	text := clean(nodeText(n))
	if w := CountWords(text); w < 2 || w > 30 {
		return
	}
	role := CiteQuotation
	if within(n, c.refs) {
		role = CiteReferences
	}
	c.addUnlinked("cite:"+strings.ToLower(text), role, text, c.blockText(n))
}

// bibliographicRE finds what a reference to a printed source carries: a
// year, an ISBN, a DOI, page numbers, ibid.
var bibliographicRE = regexp.MustCompile(`(?i)\b(?:1[5-9]\d\d|20\d\d)\b|\bisbn\b|\bdoi\b|\bpp?\.\s*\d|\bibid\b|\bop\.\s*cit\b|\bvol\.\s*\d|\bS\.\s*\d|\bс\.\s*\d`)

// unlinkedNote reads a note that cites a source without linking it: a
// book, a paper or an archive, told by its year, ISBN, pages or <cite>.
func (c *citer) unlinkedNote(n *html.Node) {
	if c.hasOutbound(n) || c.excluded(n) {
		return
	}
	text := strings.TrimLeft(clean(nodeText(n)), "↑^↩ ")
	if w := CountWords(text); w < 2 || w > 80 || !bibliographicRE.MatchString(text) && !hasElement(n, "cite") {
		return
	}
	c.addUnlinked("note:"+strings.ToLower(text), CiteFootnote, text, text)
}

// hasOutbound reports a link to another site under n.
func (c *citer) hasOutbound(n *html.Node) bool {
	found := false
	walkElements(n, func(e *html.Node) {
		if e.Data == "a" {
			if href, _ := attr(e, "href"); navigable(href) && c.outbound(href) != nil {
				found = true
			}
		}
	})
	return found
}

func (c *citer) add(u *url.URL, role CitationRole, text, context string) {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	c.record(citationKey(u), Citation{URL: u.String(), Host: host, Role: role, Text: shorten(text), Context: shorten(context)})
}

func (c *citer) addUnlinked(key string, role CitationRole, text, context string) {
	c.record(key, Citation{Role: role, Text: shorten(text), Context: shorten(context)})
}

// record keeps the first citation of a source, with the most specific
// of the roles it is cited in.
func (c *citer) record(key string, cit Citation) {
	i, seen := c.index[key]
	if !seen {
		c.index[key] = len(c.out)
		c.out = append(c.out, cit)
		return
	}
	if slices.Index(CitationRoles, cit.Role) < slices.Index(CitationRoles, c.out[i].Role) {
		c.out[i].Role, c.out[i].Context = cit.Role, cit.Context
	}
}

func shorten(s string) string {
	if utf8.RuneCountInString(s) <= maxContext {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:maxContext])) + "…"
}

func (c *citer) inside(n *html.Node, name string) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && a.Data == name {
			return true
		}
	}
	return false
}

// blockOf is the nearest block element around n.
func blockOf(n *html.Node) *html.Node {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && blockLevel[a.Data] {
			return a
		}
	}
	return nil
}

// blockText is the text of the block around n.
func (c *citer) blockText(n *html.Node) string {
	if b := blockOf(n); b != nil {
		return clean(nodeText(b))
	}
	return clean(nodeText(n))
}

// enclosingText is the text of the element of set around n.
func (c *citer) enclosingText(n *html.Node, set map[*html.Node]bool) string {
	for a := n; a != nil; a = a.Parent {
		if set[a] {
			return strings.TrimLeft(clean(nodeText(a)), "↑^↩ ")
		}
	}
	return ""
}

// own is the text of a block without the blocks nested in it.
func (c *citer) own(block *html.Node) string {
	if t, ok := c.ownText[block]; ok {
		return t
	}
	var b strings.Builder
	ownWalk(block, func(n *html.Node) { b.WriteString(n.Data) }, nil)
	t := clean(b.String())
	c.ownText[block] = t
	return t
}

// ownWalk calls text for every text node under n outside nested blocks,
// and link (when not nil) on entering and leaving each <a>.
func ownWalk(n *html.Node, text func(*html.Node), link func(a *html.Node, enter bool)) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case html.TextNode:
			text(ch)
		case html.ElementNode:
			if skipAlways[ch.Data] || (blockLevel[ch.Data] && ch.Data != "br") {
				continue
			}
			if ch.Data == "br" {
				text(&html.Node{Type: html.TextNode, Data: " "})
				continue
			}
			if link != nil && ch.Data == "a" {
				link(ch, true)
			}
			ownWalk(ch, text, link)
			if link != nil && ch.Data == "a" {
				link(ch, false)
			}
		}
	}
}

// blockRead is a block's own text, once per block: the text, the span of
// each link in it, and its words outside links.
type blockRead struct {
	text      string
	ends      [][]int // sentence ends in text
	spans     map[*html.Node][2]int
	freeWords int
}

func (c *citer) read(block *html.Node) *blockRead {
	if r, ok := c.blocks[block]; ok {
		return r
	}
	var b, free strings.Builder
	r := &blockRead{spans: map[*html.Node][2]int{}}
	var open []*html.Node
	starts := map[*html.Node]int{}
	ownWalk(block, func(n *html.Node) {
		b.WriteString(n.Data)
		if len(open) == 0 {
			free.WriteString(n.Data)
		} else {
			free.WriteByte(' ')
		}
	}, func(a *html.Node, enter bool) {
		if enter {
			open = append(open, a)
			starts[a] = b.Len()
			return
		}
		open = open[:len(open)-1]
		r.spans[a] = [2]int{starts[a], b.Len()}
	})
	r.text = b.String()
	r.ends = sentenceEnd.FindAllStringIndex(r.text, -1)
	r.freeWords = CountWords(free.String())
	c.blocks[block] = r
	return r
}

// sentenceEnd matches the end of a sentence.
var sentenceEnd = regexp.MustCompile(`[.!?…]+["'”»)]*\s+|[。！？]+`)

// sentence is the sentence of block that holds the link a.
func (c *citer) sentence(block, a *html.Node) string {
	r := c.read(block)
	span, ok := r.spans[a]
	if !ok {
		return clean(r.text)
	}
	start, end := span[0], span[1]
	from, to := 0, len(r.text)
	// The sentence opens after the last end before the link and closes
	// with the first end after it.
	if i := sort.Search(len(r.ends), func(i int) bool { return r.ends[i][1] > start }); i > 0 {
		from = r.ends[i-1][1]
	}
	if i := sort.Search(len(r.ends), func(i int) bool { return r.ends[i][0] >= end }); i < len(r.ends) {
		to = r.ends[i][1]
	}
	return clean(r.text[from:to])
}

// Addresses.

// outbound resolves href and returns it when it points to another site
// and is no share button, ad, affiliate link or social profile; a
// redirector's link is read as its target.
func (c *citer) outbound(href string) *url.URL {
	u, err := url.Parse(c.p.Resolve(href))
	if err != nil {
		return nil
	}
	u = unwrapRedirect(u)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil
	}
	host := strings.ToLower(u.Hostname())
	if c.site != "" && (host == c.host || registrable(host) == c.site) {
		return nil
	}
	if c.shareLink(u) || adLink(u) || socialProfile(u) {
		return nil
	}
	u.Fragment, u.RawFragment = "", ""
	stripTracking(u)
	return u
}

// registrable is a host's registrable domain (example.co.uk for
// www.news.example.co.uk), or the host itself when it has none.
func registrable(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}

// siteName is a host's registrable domain without its public suffix and
// hyphens: "acme" for press.acme.co.uk, "crumbandkettle" for
// crumb-and-kettle.com.
func siteName(host string) string {
	d := registrable(host)
	suffix, _ := publicsuffix.PublicSuffix(d)
	name := strings.TrimSuffix(strings.TrimSuffix(d, suffix), ".")
	return strings.ReplaceAll(name, "-", "")
}

// namesParty reports a sentence that names the site a link points to:
// its name as a word, or as words run together ("Crumb & Kettle" for
// crumb-and-kettle.com), accents aside ("Telefónica" for telefonica.com).
func namesParty(sentence, host string) bool {
	if h, err := idna.ToUnicode(host); err == nil {
		host = h
	}
	name := fold(siteName(host))
	if utf8.RuneCountInString(name) < 3 {
		return false
	}
	words := strings.FieldsFunc(fold(strings.ToLower(strings.ReplaceAll(sentence, "&", " and "))), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for i := range words {
		s := ""
		for j := i; j < len(words) && j < i+4; j++ {
			s += words[j]
			if s == name {
				return true
			}
			if len(s) >= len(name) {
				break
			}
		}
	}
	return false
}

// fold drops the accents of a text: "telefonica" for "Telefónica".
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		return s
	}
	t, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		return s
	}
	return t
}

// redirectors are the link wrappers of search engines, social networks
// and mail filters: the path that redirects, and the parameters that may
// hold the target.
var redirectors = map[string]struct {
	path   string
	params []string
}{
	"l.facebook.com": {"/l.php", []string{"u"}}, "lm.facebook.com": {"/l.php", []string{"u"}},
	"l.instagram.com": {"/", []string{"u"}}, "out.reddit.com": {"/", []string{"url"}},
	"t.umblr.com": {"/redirect", []string{"z"}}, "youtube.com": {"/redirect", []string{"q"}},
	"away.vk.com": {"/", []string{"to"}}, "vk.com": {"/away.php", []string{"to"}},
	"steamcommunity.com": {"/linkfilter", []string{"url"}}, "linkedin.com": {"/redir", []string{"url"}},
	"safelinks.protection.outlook.com": {"/", []string{"url"}},
}

// unwrapRedirect reads a redirector's link as its target.
func unwrapRedirect(u *url.URL) *url.URL {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	r, ok := redirectors[host]
	switch {
	case ok:
	case strings.HasSuffix(host, ".safelinks.protection.outlook.com"):
		r = redirectors["safelinks.protection.outlook.com"]
	case strings.Contains(strings.ReplaceAll(host, "-", ""), "google") && siteName(host) == "google":
		r.path, r.params = "/url", []string{"q", "url"}
	default:
		return u
	}
	if !strings.HasPrefix(strings.ToLower(u.Path), r.path) {
		return u
	}
	q := u.Query()
	for _, p := range r.params {
		if t, err := url.Parse(q.Get(p)); err == nil && (t.Scheme == "http" || t.Scheme == "https") {
			return t
		}
	}
	return u
}

// shareSegments are path segments of share, bookmark and post-this
// buttons (facebook.com/sharer.php, x.com/intent/tweet,
// linkedin.com/shareArticle, reddit.com/submit, pinterest.com/pin/create).
var shareSegments = map[string]bool{
	"share": true, "sharer": true, "sharer.php": true, "share.php": true, "sharearticle": true, "share-offsite": true,
	"intent": true, "submit": true, "submitlink": true, "bookmarklet": true, "addtoany": true,
}

// shareHosts are services whose every link is a share or send button.
var shareHosts = []string{"addtoany.com", "sharethis.com", "shareaholic.com", "wa.me", "api.whatsapp.com", "web.whatsapp.com", "social-plugins.line.me", "connect.ok.ru"}

// shareLink reports a button that shares, bookmarks, translates or
// validates this page: a share path, a share service, or a link that
// carries the page's own address (?u=, ?url=, ?text=).
func (c *citer) shareLink(u *url.URL) bool {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	for _, h := range shareHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	segs := strings.Split(strings.ToLower(strings.Trim(u.Path, "/")), "/")
	for _, s := range segs {
		if shareSegments[s] {
			return true
		}
	}
	if len(segs) >= 2 && segs[0] == "pin" && segs[1] == "create" {
		return true
	}
	if c.pageHost != "" && u.RawQuery != "" {
		q, _ := url.QueryUnescape(u.RawQuery)
		if strings.Contains(strings.ToLower(q), "//"+c.pageHost) || strings.Contains(strings.ToLower(q), "//www."+c.pageHost) {
			return true
		}
	}
	return false
}

// adHosts serve ads, sponsored content and affiliate redirects.
var adHosts = []string{
	"doubleclick.net", "googleadservices.com", "googlesyndication.com", "adnxs.com", "criteo.com", "taboola.com", "outbrain.com",
	"revcontent.com", "mgid.com", "zergnet.com", "amzn.to", "amzn.eu", "amzn.asia", "geni.us", "skimresources.com",
	"redirectingat.com", "viglink.com", "linksynergy.com", "anrdoezrs.net", "jdoqocy.com", "tkqlhce.com", "dpbolvw.net",
	"kqzyfj.com", "awin1.com", "prf.hn", "shareasale.com", "shrsl.com", "clickbank.net", "rstyle.me", "shopstyle.it",
	"howl.me", "avantlink.com", "pntra.com", "pjatr.com", "pjtra.com", "tradedoubler.com", "webgains.com", "sjv.io",
	"pxf.io", "7eer.net", "evyy.net", "ojrq.net", "go2cloud.org", "impactradius.com",
}

// affiliateParams are query parameters that pay the linking site.
var affiliateParams = []string{"tag", "affid", "aff_id", "affiliate", "affiliate_id", "aff", "irclickid", "clickid", "afftrack", "ranmid", "ranEAID"}

// adLink reports an ad, a sponsored redirect or an affiliate link.
func adLink(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	for _, h := range adHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	q := u.Query()
	for _, p := range affiliateParams {
		if q.Get(p) == "" {
			continue
		}
		// Amazon's "tag" is its affiliate code; elsewhere tag is a topic.
		if p != "tag" || strings.Contains(host, "amazon.") {
			return true
		}
	}
	return false
}

// socialHosts are the networks whose account pages are profiles.
var socialHosts = []string{
	"facebook.com", "fb.com", "twitter.com", "x.com", "instagram.com", "linkedin.com", "youtube.com", "tiktok.com",
	"pinterest.com", "threads.net", "threads.com", "bsky.app", "t.me", "telegram.me", "vk.com", "ok.ru", "xing.com",
	"github.com", "medium.com", "snapchat.com", "discord.gg", "discord.com", "tumblr.com", "flickr.com", "soundcloud.com",
	"spotify.com", "twitch.tv", "mastodon.social", "weibo.com", "line.me",
}

// profileHeads are the first path segments of profile pages with two
// segments: linkedin.com/in/…, youtube.com/channel/…, bsky.app/profile/….
var profileHeads = map[string]bool{
	"in": true, "company": true, "school": true, "showcase": true, "channel": true, "c": true, "user": true,
	"profile": true, "pages": true, "people": true, "groups": true, "invite": true, "add": true, "artist": true, "show": true,
}

// socialPosts are single path segments that show content, not an
// account: youtube.com/watch?v=…, youtube.com/playlist?list=….
var socialPosts = map[string]bool{"watch": true, "playlist": true}

// socialProfile reports a link to an account on a social network (or to
// the network's front page), not to a post on it: x.com/acme is a
// profile, x.com/acme/status/1 a post that may be cited.
func socialProfile(u *url.URL) bool {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	social := siteName(host) == "pinterest"
	for _, h := range socialHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			social = true
			break
		}
	}
	if !social {
		// A fediverse account: any host's /@name.
		return len(segs) == 1 && strings.HasPrefix(segs[0], "@")
	}
	switch {
	case len(segs) == 0:
		return true
	case len(segs) == 1:
		s := strings.ToLower(segs[0])
		return !socialPosts[s] && (!strings.Contains(s, ".") || s == "profile.php")
	case len(segs) == 2:
		return profileHeads[strings.ToLower(segs[0])]
	}
	return false
}

// trackingParams are query parameters that track a click and say
// nothing about the page linked.
var trackingParams = []string{"fbclid", "gclid", "dclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "_hsenc", "_hsmi", "mkt_tok", "ref_src", "ref_url"}

func stripTracking(u *url.URL) {
	if u.RawQuery == "" {
		return
	}
	q := u.Query()
	changed := false
	for k := range q {
		if strings.HasPrefix(strings.ToLower(k), "utm_") || slices.Contains(trackingParams, strings.ToLower(k)) {
			q.Del(k)
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
}

// citationKey is what makes two addresses one source: scheme, "www.",
// a trailing slash and the order of parameters aside.
func citationKey(u *url.URL) string {
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	key := host + path
	if u.RawQuery != "" {
		key += "?" + u.Query().Encode()
	}
	return key
}
