package page

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// What a page's HTML says about its own rendering. A thin page is either
// thin (the HTML simply has little text) or empty until JavaScript runs;
// only the page can tell which: an empty mount point a script fills, a
// <noscript> wall, calls that build the DOM in the browser, and text that
// sits in the page's scripts but not in its HTML. A comment widget's
// "enable JavaScript to view the comments" is not a wall around the page.

// Mount is a single-page-app mount point.
type Mount struct {
	Selector string // "#root", "app-root", …
	Words    int    // visible words inside
	Elements int    // element descendants
}

// Empty reports a mount point a script has yet to fill.
func (m Mount) Empty() bool { return m.Words < 10 }

// mountIDs are the ids frameworks and their starters mount into.
var mountIDs = []string{"root", "app", "__next", "__nuxt", "___gatsby", "svelte", "q-app", "react-root", "react-app", "main-app", "application"}

// MountPoints returns the mount points the page has, in document order
// of the list above, with what they hold.
func (p *Page) MountPoints() []Mount {
	if p == nil || p.Doc == nil {
		return nil
	}
	var out []Mount
	add := func(sel string) {
		n := p.marked(sel)
		if n == nil {
			return
		}
		s := p.Doc.FindNodes(n)
		out = append(out, Mount{Selector: sel, Words: CountWords(visibleText(s, false)), Elements: s.Find("*").Length()})
	}
	for _, id := range mountIDs {
		add("#" + id)
	}
	add("app-root")
	add("[data-reactroot]")
	return out
}

// markSelectors are the simple selectors (an id, a tag, an attribute)
// that MountPoints and Frameworks look for.
var markSelectors = func() map[string]bool {
	m := map[string]bool{
		"app-root": true, "astro-island": true, "#__NEXT_DATA__": true, "#__NUXT_DATA__": true,
		"[data-reactroot]": true, "[data-sveltekit-hydrate]": true, "[data-svelte-h]": true,
		"[ng-version]": true, "[ng-server-context]": true, "[data-server-rendered]": true,
	}
	for _, id := range mountIDs {
		m["#"+id] = true
	}
	return m
}()

// markTags, markAttrs and markIDs are markSelectors by the tag,
// attribute name or id they name.
var markTags, markAttrs, markIDs = func() (tags, attrs, ids map[string]string) {
	tags, attrs, ids = map[string]string{}, map[string]string{}, map[string]string{}
	for sel := range markSelectors {
		switch {
		case strings.HasPrefix(sel, "#"):
			ids[sel[1:]] = sel
		case strings.HasPrefix(sel, "["):
			attrs[strings.Trim(sel, "[]")] = sel
		default:
			tags[sel] = sel
		}
	}
	return tags, attrs, ids
}()

// marks holds what the mount point and framework readings look for,
// found in one walk of the document instead of a search per selector.
type marks struct {
	once sync.Once
	// first is the first element, in document order, that each of
	// markSelectors matches.
	first map[string]*html.Node
	// scripts are the inline scripts (no src), texts their text.
	scripts *goquery.Selection
	texts   []string
}

// marked is the first element the selector (one of markSelectors)
// matches, as p.Doc.Find(sel).First() finds it; nil when none does.
func (p *Page) marked(sel string) *html.Node {
	p.marks.once.Do(p.readMarks)
	return p.marks.first[sel]
}

// inlineScripts are p.Doc.Find("script:not([src])") and their texts.
func (p *Page) inlineScripts() (*goquery.Selection, []string) {
	p.marks.once.Do(p.readMarks)
	return p.marks.scripts, p.marks.texts
}

func (p *Page) readMarks() {
	m := &p.marks
	m.first = map[string]*html.Node{}
	note := func(by map[string]string, name string, n *html.Node) {
		if sel, ok := by[name]; ok && m.first[sel] == nil {
			m.first[sel] = n
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			note(markTags, n.Data, n)
			for _, a := range n.Attr {
				note(markAttrs, a.Key, n)
				if a.Key == "id" {
					note(markIDs, a.Val, n)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range p.Doc.Nodes {
		walk(n)
	}
	m.scripts = p.Doc.Find("script:not([src])")
	m.scripts.Each(func(_ int, s *goquery.Selection) { m.texts = append(m.texts, s.Text()) })
}

// Mounts lists the selectors of mount points that carry fewer than ten
// visible words: the elements a script fills in after load.
func (p *Page) Mounts() (empty []string) {
	for _, m := range p.MountPoints() {
		if m.Empty() {
			empty = append(empty, m.Selector)
		}
	}
	return empty
}

// NoscriptScope says what a <noscript> stands in for.
type NoscriptScope string

// The scopes of <noscript> elements.
const (
	// NoscriptPage stands in for the page: a wall ("You need to enable
	// JavaScript to run this app") or other page-wide text.
	NoscriptPage NoscriptScope = "page"
	// NoscriptWidget stands in for one embedded part: comments, a map, a
	// video, a form, a feed.
	NoscriptWidget NoscriptScope = "widget"
	// NoscriptTracking holds only a tracking pixel or tag-manager frame.
	NoscriptTracking NoscriptScope = "tracking"
)

// Noscript is one <noscript> element and its context.
type Noscript struct {
	Text string
	// Wall reports text asking the visitor to enable JavaScript.
	Wall  bool
	Scope NoscriptScope
	// Context is where it stands: "head", "body" (a child of <body>), or
	// the nearest ancestor with an id or class ("div#comments").
	Context string
	// Widget names what a widget notice is about ("comments", "Disqus",
	// "map"), "" for page scope.
	Widget string
}

var jsWallRE = regexp.MustCompile(`(?i)(enable|turn on|activate|allow)\s+(your\s+)?javascript|javascript\s+(is\s+)?(required|disabled|must be enabled|needs to be enabled)|(requires?|needs?)\s+javascript`)

// widgetTextRE finds what a notice is about: "to view the comments", "to
// see this map", "comments powered by Disqus".
var widgetTextRE = regexp.MustCompile(`(?i)\b(?:to|can)\s+(?:view|see|load|use|watch|display|read|post|leave|submit|play|show|access|listen to)\s+(?:the\s+|this\s+|these\s+|our\s+|all\s+)?(comments?|discussion|map|video|player|form|chat|widget|feed|tweets?|gallery|calendar|booking|reviews?|survey|poll|quiz|slideshow|carousel|newsletter|podcast|audio|content below|embedded content)\b`)

// widgetVendorRE names third-party widgets in a notice.
var widgetVendorRE = regexp.MustCompile(`(?i)\b(disqus|recaptcha|google maps|youtube|vimeo|spotify|soundcloud|twitter|instagram|facebook|typeform|calendly|hubspot|mailchimp|intercom|zendesk|livechat|trustpilot|commento|utterances|giscus)\b`)

// widgetTokens are id and class words of the elements that hold widgets.
var widgetTokens = map[string]string{
	"comment": "comments", "comments": "comments", "disqus": "Disqus", "discussion": "comments", "respond": "comments",
	"widget": "widget", "embed": "embed", "map": "map", "maps": "map", "video": "video", "player": "video", "form": "form",
	"chat": "chat", "social": "social", "share": "social", "twitter": "social", "tweet": "social", "instagram": "social",
	"facebook": "social", "captcha": "captcha", "recaptcha": "captcha", "cookie": "consent", "consent": "consent",
	"newsletter": "form", "calendar": "calendar", "booking": "booking", "review": "reviews", "reviews": "reviews",
	"gallery": "gallery", "slider": "gallery", "carousel": "gallery", "feed": "feed", "ad": "ads", "ads": "ads", "advert": "ads",
}

// Noscripts returns every <noscript> with readable text or a tracking
// embed, classified by what it stands in for.
func (p *Page) Noscripts() []Noscript {
	if p == nil || p.Doc == nil {
		return nil
	}
	var out []Noscript
	p.Doc.Find("noscript").Each(func(_ int, s *goquery.Selection) {
		// With scripting enabled the parser keeps <noscript> content as raw
		// markup; tags are stripped here to read the words.
		raw := s.Text()
		t := clean(tagRE.ReplaceAllString(raw, " "))
		n := Noscript{Text: t, Wall: jsWallRE.MatchString(t), Context: noscriptContext(s.Nodes[0])}
		lower := strings.ToLower(raw)
		switch {
		case t == "" && (strings.Contains(lower, "<img") || strings.Contains(lower, "<iframe")):
			n.Scope = NoscriptTracking
		case t == "":
			return
		default:
			n.Scope, n.Widget = NoscriptPage, noscriptWidget(s.Nodes[0], t)
			if n.Widget != "" {
				n.Scope = NoscriptWidget
			}
		}
		out = append(out, n)
	})
	return out
}

// noscriptWidget names the widget a notice belongs to, from its words or
// from the ids and classes around it (its ancestors up to the body, and
// the element just before it).
func noscriptWidget(n *html.Node, text string) string {
	if m := widgetVendorRE.FindString(text); m != "" {
		return m
	}
	if m := widgetTextRE.FindStringSubmatch(text); m != nil {
		return strings.ToLower(m[1])
	}
	near := []*html.Node{}
	for a := n.Parent; a != nil && a.Data != "body" && a.Data != "html"; a = a.Parent {
		near = append(near, a)
	}
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode {
			near = append(near, s)
			break
		}
	}
	for _, e := range near {
		for _, key := range []string{"id", "class"} {
			v, _ := attr(e, key)
			for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if name, ok := widgetTokens[w]; ok {
					return name
				}
			}
		}
	}
	return ""
}

func noscriptContext(n *html.Node) string {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type != html.ElementNode {
			continue
		}
		if a.Data == "head" || a.Data == "body" {
			return a.Data
		}
		if _, ok := attr(a, "id"); ok {
			return selectorOf(a)
		}
		if _, ok := attr(a, "class"); ok {
			return selectorOf(a)
		}
	}
	return "body"
}

// JavaScriptWall returns the text of a page-wide <noscript> notice that
// asks the visitor to enable JavaScript, or "". Such a notice is all a
// crawler that runs no scripts gets to read of the element; a widget's
// notice (comments, a map) is not a wall around the page.
func (p *Page) JavaScriptWall() string {
	for _, n := range p.Noscripts() {
		if n.Wall && n.Scope == NoscriptPage {
			return n.Text
		}
	}
	return ""
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// Rendering is what the page's own markup and scripts say about how its
// text reaches a reader.
type Rendering struct {
	Mounts    []Mount
	Noscripts []Noscript
	// ClientRender names inline calls that build the DOM in the browser
	// (ReactDOM.render, createRoot, new Vue, createApp().mount,
	// bootstrapModule, document.write, innerHTML, insertAdjacentHTML).
	ClientRender []string
	// Hydrate names inline calls that attach scripts to markup the server
	// already rendered (hydrateRoot, ReactDOM.hydrate).
	Hydrate []string
	// ScriptWords counts the words of page text in inline scripts and
	// JSON data blocks (JSON-LD excluded), read as scriptProse reads them;
	// ScriptOnlyWords those of the text that does not also appear in the
	// visible text — text the page ships for scripts to render.
	// ScriptOnlySample is the longest such text, shortened to 200
	// characters.
	ScriptWords      int
	ScriptOnlyWords  int
	ScriptOnlySample string
	// Frameworks names the server-rendering or hydration markers (see
	// Frameworks).
	Frameworks []string
}

// renderCalls are inline-script markers of rendering in the browser.
var renderCalls = []struct {
	name, marker string
	hydrate      bool
}{
	{"ReactDOM.render", "reactdom.render(", false},
	{"createRoot", "createroot(", false},
	{"hydrateRoot", "hydrateroot(", true},
	{"ReactDOM.hydrate", "reactdom.hydrate(", true},
	{"new Vue", "new vue(", false},
	{"createApp().mount", ".mount(", false},
	{"bootstrapModule", ".bootstrapmodule(", false},
	{"bootstrapApplication", "bootstrapapplication(", false},
	{"angular.bootstrap", "angular.bootstrap(", false},
	{"document.write", "document.write(", false},
	{"innerHTML", ".innerhtml", false},
	{"insertAdjacentHTML", "insertadjacenthtml(", false},
}

// maxScriptScan bounds the inline script bytes read for prose.
const maxScriptScan = 4 << 20

// Rendering reads the page's rendering evidence. It reads every inline
// script (up to 4 MiB), and two checks ask for it, so it is read once per
// page; the result is shared and must not be modified.
func (p *Page) Rendering() Rendering {
	if p == nil || p.Doc == nil {
		return Rendering{}
	}
	p.rendering.once.Do(func() { p.rendering.r = p.readRendering() })
	return p.rendering.r
}

func (p *Page) readRendering() Rendering {
	r := Rendering{Mounts: p.MountPoints(), Noscripts: p.Noscripts(), Frameworks: p.Frameworks()}
	visible := " " + normalWords(p.Text) + " "
	seenCall := map[string]bool{}
	seenText, seenRaw := map[string]bool{}, map[string]bool{}
	scanned := 0
	longest := ""
	scripts, _ := p.inlineScripts()
	scripts.Each(func(_ int, s *goquery.Selection) {
		typ := strings.ToLower(strings.TrimSpace(s.AttrOr("type", "")))
		if IsJSONLD(typ) || scanned >= maxScriptScan {
			return
		}
		src := s.Text()
		if len(src) > maxScriptScan-scanned {
			src = src[:maxScriptScan-scanned]
		}
		scanned += len(src)
		if jsType(typ) {
			lower := strings.ToLower(src)
			for _, c := range renderCalls {
				if seenCall[c.name] || !strings.Contains(lower, c.marker) {
					continue
				}
				if c.name == "createApp().mount" && !strings.Contains(lower, "createapp(") {
					continue
				}
				seenCall[c.name] = true
				if c.hydrate {
					r.Hydrate = append(r.Hydrate, c.name)
				} else {
					r.ClientRender = append(r.ClientRender, c.name)
				}
			}
		}
		scriptTexts(s, typ, src, func(st scriptText) {
			if seenRaw[st.raw] {
				return
			}
			seenRaw[st.raw] = true
			t, ok := scriptProse(st)
			if !ok || seenText[t] {
				return
			}
			seenText[t] = true
			w := CountWords(t)
			r.ScriptWords += w
			if shown(visible, t) {
				return
			}
			r.ScriptOnlyWords += w
			if len(t) > len(longest) {
				longest = t
			}
		})
	})
	sort.Strings(r.ClientRender)
	sort.Strings(r.Hydrate)
	if len(longest) > 200 {
		cut := 200
		for cut > 0 && !utf8Start(longest[cut]) {
			cut--
		}
		longest = longest[:cut] + "…"
	}
	r.ScriptOnlySample = longest
	return r
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// prose reports text that reads as sentences: six words or more, mostly
// letters, and little code punctuation.
func prose(t string) bool {
	if CountWords(t) < 6 || strings.Contains(t, "://") && !strings.Contains(t, " ") {
		return false
	}
	letters, code, other := 0, 0, 0
	for _, c := range t {
		switch {
		case unicode.IsLetter(c):
			letters++
		case strings.ContainsRune("{}[]();=<>|&\\$_", c):
			code++
		case !unicode.IsSpace(c):
			other++
		}
	}
	total := letters + code + other
	return total > 0 && letters*10 >= total*7 && code*40 <= total
}

// shown reports text whose opening words are part of the visible text
// (normalWords, padded with a space each side): a hydration copy of what
// the HTML already says. Punctuation and markup are no difference; a run
// of Chinese or Japanese is probed by its first 48 characters.
func shown(visible, t string) bool {
	words := strings.Fields(normalWords(t))
	if len(words) > 8 {
		words = words[:8]
	}
	probe := strings.Join(words, " ")
	if r := []rune(probe); len(r) > 48 {
		return strings.Contains(visible, string(r[:48]))
	}
	return strings.Contains(visible, " "+probe+" ")
}

// normalWords lower-cases a text and keeps its letters and digits, one
// space between runs.
func normalWords(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	}), " ")
}

// stringLiterals calls fn with every quoted string of a script or JSON
// text (double, single and backtick quotes), escapes decoded; comments are
// skipped.
func stringLiterals(src string, fn func(string)) {
	scanLiterals(src, func(lit string, _ int) { fn(lit) })
}

// scanLiterals is stringLiterals that also passes where each literal's
// opening quote is.
func scanLiterals(src string, fn func(lit string, at int)) {
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"', '\'', '`':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				return
			}
			fn(unescapeJS(src[i+1:j], c), i)
			i = j
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				if k := strings.IndexByte(src[i:], '\n'); k >= 0 {
					i += k
					continue
				}
				return
			}
			if i+1 < len(src) && src[i+1] == '*' {
				if k := strings.Index(src[i+2:], "*/"); k >= 0 {
					i += k + 3
					continue
				}
				return
			}
		}
	}
}

var jsEscapes = strings.NewReplacer(`\/`, "/", `\'`, "'", "\\`", "`")

func unescapeJS(s string, quote byte) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	s = jsEscapes.Replace(s)
	if quote != '"' {
		s = strings.ReplaceAll(s, `"`, `\"`)
	}
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}

// Page text in scripts. A script carries many strings that read like
// sentences and are no part of the page: consent banners, form and error
// messages, translation tables, the teasers of other posts, keys, CSS.
// Only text the page would show as its content counts: a long run of
// sentences, text under a content key of the data a framework hydrates
// (__NEXT_DATA__'s pageProps, a Nuxt payload, a state object), or a
// template with block markup that a script writes into the page.

// scriptText is one string a script carries, and where it sits.
type scriptText struct {
	raw string
	// keys are the object keys above it, outermost first: a data
	// payload's path, or the property or variable a literal is given to.
	keys []string
}

// jsType reports a script type that browsers run as JavaScript.
func jsType(typ string) bool {
	return typ == "" || strings.Contains(typ, "javascript") || strings.Contains(typ, "ecmascript") || typ == "module" ||
		typ == "text/babel" || typ == "text/jsx"
}

// maxPayloadNodes bounds the values of a script's data read for text.
const maxPayloadNodes = 300_000

// scriptTexts calls fn with the strings of one inline script: the values
// of a JSON data block (JSON-LD aside) or of state objects a script
// assigns, and the literals of the rest of its code. Templates and other
// script types are not read.
func scriptTexts(s *goquery.Selection, typ, src string, fn func(scriptText)) {
	budget := maxPayloadNodes
	trimmed := strings.TrimSpace(src)
	switch {
	case jsType(typ):
		jsTexts(src, fn, &budget)
	case strings.Contains(typ, "json") || strings.HasPrefix(trimmed, "{") || strings.HasPrefix(trimmed, "["):
		v, _, ok := decodeJSON(trimmed)
		if !ok {
			jsTexts(src, fn, &budget)
			return
		}
		id := s.AttrOr("id", "")
		_, nuxt := s.Attr("data-nuxt-data")
		if arr, isArr := v.([]any); isArr && (nuxt || id == "__NUXT_DATA__") {
			v = devalue(arr, &budget)
		}
		var keys []string
		if id == "__NEXT_DATA__" {
			// The page's own data are its pageProps; the rest is the
			// router's and the build's.
			root, _ := v.(map[string]any)
			if props, ok := root["props"].(map[string]any); ok {
				v, keys = props, []string{"props"}
				if pp, ok := props["pageProps"]; ok {
					v, keys = pp, []string{"pageProps"}
				}
			}
		}
		walkJSON(v, keys, fn, &budget)
	}
}

// stateAssignRE is a statement that assigns an object or array literal:
// window.__INITIAL_STATE__ = {…}, var i18n = {…}, self.data = […].
var stateAssignRE = regexp.MustCompile(`^[\s;]*(?:(?:var|let|const)\s+)?((?:[\w$]+\.)*[\w$]+|(?:[\w$]+)?\[["'][^"']+["']\])\s*=\s*[{\[]`)

// jsTexts reads a script: the object literals it assigns (most state
// payloads are JSON) as data, the rest literal by literal.
func jsTexts(src string, fn func(scriptText), budget *int) {
	for {
		m := stateAssignRE.FindStringSubmatchIndex(src)
		if m == nil {
			break
		}
		name := src[m[2]:m[3]]
		v, n, ok := decodeJSON(src[m[1]-1:])
		if !ok {
			break
		}
		if i := strings.LastIndexAny(name, ".["); i >= 0 {
			name = strings.Trim(name[i+1:], `"']`)
		}
		walkJSON(v, []string{name}, fn, budget)
		src = src[m[1]-1+n:]
	}
	scanLiterals(src, func(lit string, at int) {
		key, call := jsKey(src, at)
		if call {
			switch {
			case strings.HasSuffix(key, "JSON.parse"):
				if v, _, ok := decodeJSON(lit); ok {
					walkJSON(v, nil, fn, budget)
				}
				return
			case uiCalls[key[strings.LastIndexByte(key, '.')+1:]]:
				return
			}
			key = ""
		}
		var keys []string
		if key != "" {
			keys = []string{key}
		}
		fn(scriptText{raw: lit, keys: keys})
	})
}

// uiCalls are functions whose string arguments are messages to the
// visitor or the console, or keys of a translation table.
var uiCalls = map[string]bool{
	"alert": true, "confirm": true, "prompt": true, "log": true, "warn": true, "error": true, "info": true, "debug": true,
	"Error": true, "TypeError": true, "RangeError": true, "t": true, "__": true, "_e": true, "_x": true, "_n": true,
	"gettext": true, "ngettext": true, "translate": true, "trans": true, "i18n": true, "$t": true, "formatMessage": true,
	"setCustomValidity": true, "showError": true, "notify": true, "toast": true,
}

// jsKey reads what a literal at src[at] is given to: the key before a
// colon, the last name of an assignment's target, or the function of a
// call it opens (call is then true, key the dotted name).
func jsKey(src string, at int) (key string, call bool) {
	i := at - 1
	for i >= 0 && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i--
	}
	if i < 0 {
		return "", false
	}
	name := func(i int, dots bool) string {
		for i >= 0 && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') {
			i--
		}
		if i >= 0 && (src[i] == '"' || src[i] == '\'') {
			q := src[i]
			j := strings.LastIndexByte(src[:i], q)
			if j < 0 {
				return ""
			}
			return src[j+1 : i]
		}
		end := i + 1
		for i >= 0 && (src[i] == '_' || src[i] == '$' || src[i] >= '0' && src[i] <= '9' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || dots && src[i] == '.') {
			i--
		}
		return src[i+1 : end]
	}
	switch src[i] {
	case ':':
		return name(i-1, false), false
	case '=':
		if i > 0 && strings.IndexByte("=!<>", src[i-1]) >= 0 {
			return "", false
		}
		n := name(i-1, true)
		return n[strings.LastIndexByte(n, '.')+1:], false
	case '(':
		return name(i-1, true), true
	}
	return "", false
}

// decodeJSON decodes the JSON value at the start of s, and says how many
// bytes it took.
func decodeJSON(s string) (v any, n int, ok bool) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, 0, false
	}
	return v, int(d.InputOffset()), true
}

// walkJSON calls fn with the strings of a data value, passing over
// translation tables, values keyed by language and lists of teasers.
func walkJSON(v any, keys []string, fn func(scriptText), budget *int) {
	if *budget <= 0 {
		return
	}
	*budget--
	switch x := v.(type) {
	case string:
		fn(scriptText{raw: x, keys: keys})
	case []any:
		if teaserList(x) {
			return
		}
		for _, e := range x {
			walkJSON(e, keys, fn, budget)
		}
	case map[string]any:
		if dictionary(x) || byLanguage(x) {
			return
		}
		names := make([]string, 0, len(x))
		for k := range x {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			walkJSON(x[k], append(keys[:len(keys):len(keys)], k), fn, budget)
		}
	}
}

// devalue reads Nuxt's payload (devalue's flat form): an array whose
// objects and arrays hold the indexes of their values. Reactive wrappers
// are read as what they wrap; dates, sets, maps and cycles as nothing.
func devalue(flat []any, budget *int) any {
	const visiting = 1
	state := make([]int8, len(flat))
	memo := make([]any, len(flat))
	var at func(ref any) any
	at = func(ref any) any {
		n, ok := ref.(json.Number)
		if !ok {
			return nil
		}
		i, err := n.Int64()
		if err != nil || i < 0 || int(i) >= len(flat) || state[i] == visiting || *budget <= 0 {
			return nil
		}
		if state[i] == 2 {
			return memo[i]
		}
		*budget--
		state[i] = visiting
		var out any
		switch x := flat[i].(type) {
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, r := range x {
				m[k] = at(r)
			}
			out = m
		case []any:
			if len(x) == 0 {
				out = x
				break
			}
			if tag, ok := x[0].(string); ok {
				switch tag {
				case "Reactive", "ShallowReactive", "Ref", "ShallowRef":
					if len(x) > 1 {
						out = at(x[1])
					}
				}
				break
			}
			a := make([]any, 0, len(x))
			for _, r := range x {
				a = append(a, at(r))
			}
			out = a
		default:
			out = x
		}
		state[i], memo[i] = 2, out
		return out
	}
	if len(flat) == 0 {
		return nil
	}
	return at(json.Number("0"))
}

// dictionary reports a translation table: eight or more entries, all
// strings or tables of strings, most of them short, under keys that
// read as message ids ("cart.add", "errorRequired", "SIGN_UP", "Add to
// cart").
func dictionary(m map[string]any) bool {
	if len(m) < 8 {
		return false
	}
	leaves, short, ids := 0, 0, 0
	var strs func(v any, depth int) bool
	strs = func(v any, depth int) bool {
		switch x := v.(type) {
		case string:
			leaves++
			if CountWords(x) <= 12 {
				short++
			}
			return true
		case map[string]any:
			if depth > 4 {
				return false
			}
			for _, e := range x {
				if !strs(e, depth+1) {
					return false
				}
			}
			return true
		}
		return false
	}
	for k, v := range m {
		if !strs(v, 0) {
			return false
		}
		if strings.ContainsAny(k, "._:- ") || len(splitName(k)) > 1 || k == strings.ToUpper(k) {
			ids++
		}
	}
	return ids*2 >= len(m) && short*10 >= leaves*7
}

// languageCodes are the language codes of the web's common languages.
var languageCodes = map[string]bool{
	"en": true, "de": true, "fr": true, "es": true, "it": true, "pt": true, "nl": true, "ru": true, "ja": true, "zh": true,
	"ko": true, "ar": true, "pl": true, "sv": true, "da": true, "no": true, "nb": true, "fi": true, "tr": true, "cs": true,
	"el": true, "he": true, "hu": true, "ro": true, "uk": true, "id": true, "vi": true, "th": true, "hi": true, "fa": true,
	"bg": true, "hr": true, "sk": true, "sl": true, "sr": true, "lt": true, "lv": true, "et": true, "ca": true,
}

// byLanguage reports values keyed by language ("en", "de-DE", "pt_BR"):
// the same text in other languages than the page's, or a translation
// store.
func byLanguage(m map[string]any) bool {
	if len(m) < 2 {
		return false
	}
	langs := 0
	for k := range m {
		base, _, _ := strings.Cut(strings.ReplaceAll(strings.ToLower(k), "_", "-"), "-")
		if languageCodes[base] && len(k) <= 7 {
			langs++
		}
	}
	return langs >= 2 && langs*10 >= len(m)*8
}

// keyJoiner spells "full_slug" and "page-url" as one word.
var keyJoiner = strings.NewReplacer("_", "", "-", "")

// teaserList reports a list of other pages' teasers: two or more items,
// most of them objects with both a title and a link (related posts,
// "more stories", a blog roll).
func teaserList(a []any) bool {
	if len(a) < 2 {
		return false
	}
	teasers := 0
	for _, e := range a {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		link, title := false, false
		for k := range m {
			switch strings.ToLower(keyJoiner.Replace(k)) {
			case "url", "href", "link", "permalink", "slug", "path", "uri", "to", "fullslug", "canonicalurl", "pageurl", "posturl", "articleurl":
				link = true
			case "title", "name", "headline", "heading", "label":
				title = true
			}
		}
		if link && title {
			teasers++
		}
	}
	return teasers >= 2 && teasers*10 >= len(a)*6
}

// uiKeyTokens are words of keys whose values are interface messages,
// metadata or other pages' text: errors, form labels, banners, SEO and
// social tags, teasers, menus, translation tables.
var uiKeyTokens = map[string]bool{
	"error": true, "errors": true, "warning": true, "warnings": true, "validation": true, "validations": true, "validator": true,
	"invalid": true, "required": true, "placeholder": true, "placeholders": true, "label": true, "labels": true,
	"button": true, "buttons": true, "btn": true, "cta": true, "tooltip": true, "tooltips": true, "hint": true, "hints": true,
	"alt": true, "aria": true, "banner": true, "notice": true, "notices": true, "toast": true, "alert": true, "alerts": true,
	"modal": true, "popup": true, "dialog": true, "newsletter": true, "subscribe": true, "seo": true, "meta": true,
	"metadata": true, "og": true, "opengraph": true, "twitter": true, "jsonld": true, "schema": true, "teaser": true,
	"teasers": true, "excerpt": true, "excerpts": true, "related": true, "recommended": true, "recommendations": true,
	"popular": true, "trending": true, "nav": true, "navigation": true, "menu": true, "menus": true, "footer": true,
	"breadcrumb": true, "breadcrumbs": true, "message": true, "messages": true, "msg": true, "strings": true,
	"dictionary": true, "lang": true, "intl": true, "form": true, "forms": true, "field": true, "fields": true,
	"cart": true, "checkout": true, "search": true, "login": true, "signin": true, "signup": true, "account": true,
	"auth": true, "config": true, "settings": true, "options": true, "env": true, "tracking": true, "analytics": true,
	"gtm": true, "ads": true, "sidebar": true, "widget": true, "widgets": true, "comment": true, "comments": true,
	"privacy": true, "notification": true, "notifications": true, "loading": true, "success": true, "confirmation": true,
}

// uiKeyParts are parts of keys of translation and consent data, however
// they are spelled ("_nextI18Next", "cookieBannerText").
var uiKeyParts = []string{"i18n", "translat", "locale", "cookie", "consent", "gdpr"}

// messageIDRE is a translation key: "checkout.error.payment",
// "common:welcome".
var messageIDRE = regexp.MustCompile(`^[A-Za-z_][\w-]*(?:[.:][A-Za-z_][\w-]*)+$`)

// uiPath reports a string under a key of interface messages.
func uiPath(keys []string) bool {
	for _, k := range keys {
		low := strings.ToLower(k)
		for _, part := range uiKeyParts {
			if strings.Contains(low, part) {
				return true
			}
		}
		if messageIDRE.MatchString(k) {
			return true
		}
		for _, t := range splitName(k) {
			if uiKeyTokens[t] {
				return true
			}
		}
	}
	return false
}

// contentKeyTokens are words of keys whose values are a page's text: the
// body of a post, its paragraphs, rich-text blocks, a product's
// description, the answer to a question.
var contentKeyTokens = map[string]bool{
	"body": true, "content": true, "contents": true, "html": true, "text": true, "texts": true, "markdown": true, "md": true,
	"paragraph": true, "paragraphs": true, "rendered": true, "article": true, "richtext": true, "copy": true,
	"description": true, "intro": true, "lead": true, "story": true, "answer": true, "answers": true, "blocks": true,
	"block": true, "children": true,
}

// contentPath reports a string under a content key, among its last three.
func contentPath(keys []string) bool {
	for _, k := range keys[max(0, len(keys)-3):] {
		for _, t := range splitName(k) {
			if contentKeyTokens[t] {
				return true
			}
		}
	}
	return false
}

var (
	// blockMarkupRE is a block of content markup: the paragraphs,
	// headings and list items a template writes into the page.
	blockMarkupRE = regexp.MustCompile(`(?i)<(?:p|h[1-6]|li|article|section|blockquote|figcaption|td|dd)[\s>/]`)
	// hiddenMarkupRE is markup whose content is never text.
	hiddenMarkupRE = regexp.MustCompile(`(?is)<(style|script|svg|template)\b.*?</(?:style|script|svg|template)\s*>`)
	// blockTagRE is a tag that separates words.
	blockTagRE = regexp.MustCompile(`(?i)</?(?:p|h[1-6]|li|ul|ol|dl|dt|dd|div|br|hr|article|section|blockquote|figure|figcaption|table|tr|td|th|header|footer|main|aside|nav)\b[^>]*>`)
	// cssRE is a CSS declaration: "position: fixed;".
	cssRE = regexp.MustCompile(`(?i)[a-z-]{3,}\s*:\s*[^;:{}]{1,60};`)
)

// scriptProse returns a script's string as the page text it would be:
// markup removed, entities decoded. ok is false for anything but text the
// page would show as its content (see the section's comment).
func scriptProse(st scriptText) (text string, ok bool) {
	raw := st.raw
	if len(raw) < 24 {
		return "", false
	}
	markup := blockMarkupRE.MatchString(raw)
	t := raw
	if strings.ContainsRune(raw, '<') {
		t = hiddenMarkupRE.ReplaceAllString(t, " ")
		t = blockTagRE.ReplaceAllString(t, " ")
		t = tagRE.ReplaceAllString(t, "")
		t = html.UnescapeString(t)
	}
	t = clean(t)
	if !sentences(t) || uiPath(st.keys) {
		return "", false
	}
	n := proseWords(t)
	if uiMessage(t, n) {
		return "", false
	}
	long := n >= 40 && len(sentenceEnd.FindAllStringIndex(t+" ", 3)) >= 2
	if !markup && !long && !contentPath(st.keys) {
		return "", false
	}
	return t, true
}

// proseWords counts the words of a text for the length rules of script
// text: CountWords, except that Chinese and Japanese, where CountWords
// counts every character, count three characters a word, as a rule of
// thumb, so that a message is not long for being written in kanji.
func proseWords(t string) int {
	n, ideo := CountWords(t), 0
	for _, r := range t {
		if ideographic(r) {
			ideo++
		}
	}
	if ideo*2 >= n {
		return n - ideo + ideo/3
	}
	return n
}

// sentences reports text written in sentences: six words or more,
// mostly letters, little code punctuation, no CSS, and made of words —
// not a key, a base64 or hex blob, a path or a list of URLs. Chinese and
// Japanese, written without spaces, need fifteen characters.
func sentences(t string) bool {
	if !prose(t) || strings.Contains(t, ";") && len(cssRE.FindAllStringIndex(t, 2)) >= 2 {
		return false
	}
	letters, ideo := 0, 0
	for _, r := range t {
		if unicode.IsLetter(r) {
			letters++
			if ideographic(r) {
				ideo++
			}
		}
	}
	if ideo*2 >= letters {
		return ideo >= 15
	}
	fields := strings.Fields(t)
	if len(fields) < 6 {
		return false
	}
	words := 0
	for _, f := range fields {
		if wordLike(f) {
			words++
		}
	}
	return words*10 >= len(fields)*8
}

// wordLike reports a space-separated token that reads as a word, with
// its punctuation: short, not a URL or a path, not letters and digits
// run together ("a9Xk2"), no code characters.
func wordLike(f string) bool {
	w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if w == "" {
		return true
	}
	if utf8.RuneCountInString(w) > 20 || strings.ContainsAny(w, "/=_{}<>@+\\|") || strings.Contains(f, "://") {
		return false
	}
	letters, digits := 0, 0
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	return letters == 0 || digits == 0 || utf8.RuneCountInString(w) <= 4
}

// The messages below are matched as lower-case phrases: a regular
// expression of so many alternatives costs seconds on a large payload.
var (
	// consentPhrases name consent and data-protection law in the web's
	// languages.
	consentPhrases = []string{
		"consent", "gdpr", "ccpa", "dsgvo", "rgpd", "lgpd", "einwilligung", "consentement", "consentimiento", "consentimento",
		"toestemming", "opt-out", "opt out", "do not sell", "согласие на", "даёте согласие", "даете согласие",
		"персональных данных", "同意する", "同意します", "同意の上", "個人情報の取り扱い", "隐私政策", "隱私權政策", "개인정보",
	}
	// cookiePhrases and cookieUseRE find a cookie notice: cookies beside
	// the words for using them or for a site, so a recipe's cookies are
	// not one.
	cookiePhrases = []string{"cookie", "クッキー", "쿠키", "куки", "ciasteczk", "témoins de connexion"}
	cookieUseRE   = regexp.MustCompile(`(?i)\b(?:use|uses|using|used|accept|allow|settings|preferences|policy|experience|website|site|browser|browsing|analytics|tracking|third[- ]party|verwende\w*|nutz\w*|akzeptier\w*|einstellungen|webseite|utilis\w*|accepte\w*|paramètres|navigation|utiliza\w*|usamos|acepta\w*|configuración|sitio|navegación|utilizz\w*|accett\w*|sito|aceit\w*|gebruik\w*|accepteer\w*|instellingen|używa\w*|akceptuj\w*|stron\w*)\b|использу|сайт|приня|настрой|使用|利用|サイト|設定|网站|網站|사용|사이트`)
	// uiPhrases are the messages of forms, errors, carts and sign-ups.
	uiPhrases = []string{
		// English
		"please enter", "please provide", "please select", "please fill", "please choose", "please try again", "please wait",
		"please check", "is required", "are required", "this field", "required field", "valid email", "valid e-mail",
		"valid phone", "valid number", "valid date", "valid url", "invalid", "must be at least", "must contain at least",
		"must have at least", "characters long", "character long", "do not match", "does not match", "something went wrong",
		"error occurred", "error has occurred", "try again", "failed to load", "failed to send", "failed to submit",
		"could not be found", "could not be loaded", "could not be sent", "page not found", "no results found",
		"session expired", "session has expired", "are you sure", "thank you for subscribing", "thank you for signing up",
		"thank you for your message", "added to your cart", "added to cart", "added to your basket", "added to basket",
		"out of stock", "sign up for our newsletter", "subscribe to our newsletter", "enter your email", "enter your e-mail",
		// German
		"bitte geben", "bitte gib", "bitte wählen", "bitte wähle", "bitte füllen", "bitte überprüfen", "pflichtfeld",
		"ist erforderlich", "ungültig", "gültige e-mail", "gültige email", "gültige telefonnummer", "muss mindestens",
		"stimmen nicht überein", "ist ein fehler aufgetreten", "etwas ist schiefgelaufen", "versuchen sie es erneut",
		"versuchen sie es später erneut", "versuchen sie es noch einmal", "versuche es erneut", "versuche es später erneut",
		"keine ergebnisse", "in den warenkorb",
		// French
		"veuillez", "champ obligatoire", "champ est obligatoire", "ce champ", "adresse e-mail valide", "adresse e-mail invalide",
		"adresse email valide", "doit contenir", "une erreur s'est produite", "une erreur est survenue", "réessay",
		"aucun résultat", "ajouté au panier",
		// Spanish
		"por favor, introduce", "por favor introduce", "por favor, introduzca", "por favor introduzca", "por favor, ingrese",
		"por favor ingrese", "por favor, ingresa", "por favor ingresa", "por favor, selecciona", "por favor, seleccione",
		"por favor, inténtalo", "por favor, intente", "campo obligatorio", "es obligatorio", "no es válid", "debe tener al menos",
		"se ha producido un error", "ocurrió un error", "ha ocurrido un error", "inténtalo de nuevo", "vuelva a intentarlo",
		"sin resultados", "añadido al carrito",
		// Italian, Portuguese, Dutch
		"campo obbligatorio", "si è verificato un errore", "riprova", "campo obrigatório", "ocorreu um erro", "tente novamente", //nolint:misspell // Italian
		"verplicht veld", "er is iets misgegaan", "probeer het opnieuw", "probeer het later opnieuw",
		// Russian
		"введите", "обязательное поле", "обязательно для заполнения", "некорректн", "произошла ошибка", "что-то пошло не так",
		"попробуйте ещё раз", "попробуйте еще раз", "попробуйте позже", "ничего не найдено", "добавлен в корзину",
		// Japanese, Chinese, Korean
		"入力してください", "必須です", "必須項目です", "正しく入力", "エラーが発生", "もう一度お試し", "再度お試し", "失敗しました",
		"見つかりません", "読み込み中", "カートに追加", "请输入", "請輸入", "必填", "发生错误", "發生錯誤", "请重试", "請重試",
		"입력해 주세요", "입력하세요", "필수 항목", "오류가 발생", "다시 시도",
	}
)

// containsAny reports a lower-case text that contains one of phrases.
func containsAny(lower string, phrases []string) bool {
	for _, p := range phrases {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// uiMessage reports the text of a consent notice (up to 150 words, they
// run long) or of a form, error, cart or sign-up message (up to 40).
func uiMessage(t string, words int) bool {
	if words >= 150 {
		return false
	}
	lower := strings.ToLower(t)
	if containsAny(lower, consentPhrases) || containsAny(lower, cookiePhrases) && cookieUseRE.MatchString(t) {
		return true
	}
	return words < 40 && containsAny(lower, uiPhrases)
}
