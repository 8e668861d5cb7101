package page

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

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
	add := func(sel string, s *goquery.Selection) {
		if s.Length() == 0 {
			return
		}
		out = append(out, Mount{Selector: sel, Words: CountWords(visibleText(s.First(), false)), Elements: s.First().Find("*").Length()})
	}
	for _, id := range mountIDs {
		add("#"+id, p.Doc.Find("#"+id))
	}
	add("app-root", p.Doc.Find("app-root"))
	add("[data-reactroot]", p.Doc.Find("[data-reactroot]"))
	return out
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
	// ScriptWords counts the words of prose in inline scripts and JSON
	// data blocks (JSON-LD excluded); ScriptOnlyWords those of the prose
	// that does not also appear in the visible text — text the page ships
	// for scripts to render. ScriptOnlySample is the longest such text,
	// shortened to 200 characters.
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

// Rendering reads the page's rendering evidence.
func (p *Page) Rendering() Rendering {
	if p == nil || p.Doc == nil {
		return Rendering{}
	}
	r := Rendering{Mounts: p.MountPoints(), Noscripts: p.Noscripts(), Frameworks: p.Frameworks()}
	visible := strings.ToLower(p.Text)
	seenCall := map[string]bool{}
	seenText := map[string]bool{}
	scanned := 0
	longest := ""
	p.Doc.Find("script:not([src])").Each(func(_ int, s *goquery.Selection) {
		typ := strings.ToLower(strings.TrimSpace(s.AttrOr("type", "")))
		if IsJSONLD(typ) || scanned >= maxScriptScan {
			return
		}
		src := s.Text()
		if len(src) > maxScriptScan-scanned {
			src = src[:maxScriptScan-scanned]
		}
		scanned += len(src)
		isJS := typ == "" || strings.Contains(typ, "javascript") || typ == "module"
		if isJS {
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
		stringLiterals(src, func(lit string) {
			t := clean(tagRE.ReplaceAllString(lit, " "))
			if seenText[t] || !prose(t) {
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

// shown reports prose whose opening words are part of the visible text:
// a hydration copy of what the HTML already says.
func shown(visible, t string) bool {
	words := strings.Fields(strings.ToLower(t))
	if len(words) > 8 {
		words = words[:8]
	}
	return strings.Contains(visible, strings.Join(words, " "))
}

// stringLiterals calls fn with every quoted string of a script or JSON
// text (double, single and backtick quotes), escapes decoded; comments are
// skipped.
func stringLiterals(src string, fn func(string)) {
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
			fn(unescapeJS(src[i+1:j], c))
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
