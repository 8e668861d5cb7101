package robots

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/jimsmart/grobotstxt"
)

// The structure of a robots.txt (which lines are records, which key each
// names, where groups start) is taken from Google's parser as grobotstxt
// ports it: the parser drives the handler below, so every typo Google
// accepts ("useragent", "dissallow", a missing colon), partial byte-order
// marks and every line ending mean here what they mean to Googlebot. This
// file only adds what the parser does not say: the text of each line for
// the evidence, the problems a site owner should fix, and the records
// outside RFC 9309 that sites carry.

// maxLineBytes is where Google's parser cuts a line; what follows is ignored.
const maxLineBytes = 2083*8 - 1

// utf8BOM is the byte-order mark; Google skips any prefix of it.
const utf8BOM = "\xEF\xBB\xBF"

// splitLines cuts the text into lines as Google's parser counts them: a
// leading byte-order mark, whole or partial, is skipped; CR, LF and CRLF
// each end one line; a line is cut at maxLineBytes. lines[i] is line i+1.
func splitLines(text string) []string {
	for i := 0; i < len(utf8BOM) && len(text) > 0 && text[0] == utf8BOM[i]; i++ {
		text = text[1:]
	}
	var lines []string
	start := 0
	lastCR := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\n' && c != '\r' {
			continue
		}
		if c != '\n' || !lastCR || i != start {
			lines = append(lines, clipLine(text[start:i]))
		}
		start = i + 1
		lastCR = c == '\r'
	}
	return append(lines, clipLine(text[start:]))
}

func clipLine(l string) string {
	if len(l) > maxLineBytes {
		return l[:maxLineBytes]
	}
	return l
}

// keyValue splits a line as Google's parser does: the comment is dropped,
// the key ends at the first colon, or, when there is none, at whitespace
// between exactly two words ("disallow /"). colon reports which.
func keyValue(line string) (key, value string, colon, ok bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	sep := strings.IndexByte(line, ':')
	colon = sep >= 0
	if !colon {
		sep = strings.IndexAny(line, " \t")
		if sep < 0 || strings.ContainsAny(strings.TrimSpace(line[sep:]), " \t") {
			return "", "", false, false
		}
	}
	key = strings.TrimSpace(line[:sep])
	if key == "" {
		return "", "", false, false
	}
	return key, strings.TrimSpace(line[sep+1:]), colon, true
}

// event is one record the parser reported.
type event struct {
	kind  string // "user-agent", "allow", "disallow", "sitemap" or "" for other keys
	line  int
	value string // as the parser passed it (Allow and Disallow escaped)
	key   string // the key as written, for other keys
}

// recorder collects the parser's callbacks in file order.
type recorder struct{ events []event }

func (r *recorder) HandleRobotsStart() {}
func (r *recorder) HandleRobotsEnd()   {}
func (r *recorder) HandleUserAgent(line int, v string) {
	r.events = append(r.events, event{kind: "user-agent", line: line, value: v})
}

func (r *recorder) HandleAllow(line int, v string) {
	r.events = append(r.events, event{kind: "allow", line: line, value: v})
}

func (r *recorder) HandleDisallow(line int, v string) {
	r.events = append(r.events, event{kind: "disallow", line: line, value: v})
}

func (r *recorder) HandleSitemap(line int, v string) {
	r.events = append(r.events, event{kind: "sitemap", line: line, value: v})
}

func (r *recorder) HandleUnknownAction(line int, key, v string) {
	r.events = append(r.events, event{line: line, key: key, value: v})
}

// canonical is how each record Google recognises is spelled in RFC 9309.
var canonical = map[string]string{"user-agent": "User-agent", "allow": "Allow", "disallow": "Disallow", "sitemap": "Sitemap"}

// misspelled maps keys that no parser accepts to the record they were
// probably meant to be.
var misspelled = map[string]string{
	"alow": "Allow", "allw": "Allow", "usragent": "User-agent", "user_agent": "User-agent", "usergent": "User-agent",
	"dsallow": "Disallow", "disalllow": "Disallow", "siteamp": "Sitemap",
}

// extensions are records outside RFC 9309 that crawlers or publishers
// read: crawl pacing (Crawl-delay, Request-rate, Visit-time), Yandex's Host
// and Clean-param, and the usage-preference lines sites now add —
// Cloudflare's Content-Signal, the IETF AI-preferences Content-Usage,
// Agentmap and RSL's License. They are valid lines, reported as such.
var extensions = map[string]string{
	"crawl-delay": "Crawl-delay", "host": "Host", "clean-param": "Clean-param", "request-rate": "Request-rate",
	"visit-time": "Visit-time", "content-signal": "Content-Signal", "content-usage": "Content-Usage",
	"agentmap": "Agentmap", "license": "License",
}

// Extension is a record outside RFC 9309 that the file carries.
type Extension struct {
	Line  int
	Key   string // canonical spelling, e.g. "Content-Usage"
	Value string
}

func (f *File) parse(body []byte) {
	if len(body) > MaxParseBytes {
		body = body[:MaxParseBytes]
		f.oversize = true
		f.problem("the file is larger than %d KiB; crawlers ignore the rules after that point", MaxParseBytes>>10)
	}
	if f.html {
		f.problem("the server returns an HTML page for /robots.txt instead of a plain-text robots.txt")
	}
	text := string(body)
	lines := splitLines(text)
	var rec recorder
	grobotstxt.Parse(text, &rec)

	// Lines with content that the parser did not report are no record.
	reported := make(map[int]bool, len(rec.events))
	for _, e := range rec.events {
		reported[e.line] = true
	}
	for i, l := range lines {
		if strings.TrimSpace(stripComment(l)) == "" {
			continue
		}
		f.lines++
		if !reported[i+1] && !f.html {
			f.problem("line %d: %q is not a \"key: value\" record", i+1, clip(strings.TrimSpace(stripComment(l))))
		}
	}

	matcher := make([]string, len(lines))
	copy(matcher, lines)
	var cur *group
	for _, e := range rec.events {
		raw := ""
		if e.line-1 < len(lines) {
			raw = lines[e.line-1]
		}
		key, value, colon, _ := keyValue(raw)
		shown := clip(strings.TrimSpace(stripComment(raw)))
		if e.kind != "" {
			f.known++
			f.spelling(e.line, shown, key, e.kind, colon)
		}
		switch e.kind {
		case "user-agent":
			// A user-agent line after rules starts a new group; consecutive
			// user-agent lines share the rules that follow them.
			if cur == nil || cur.hasRules {
				cur = &group{}
				f.groups = append(f.groups, cur)
			}
			tok := productToken(e.value)
			if tok == "" {
				f.problem("line %d: the User-agent line names no product token", e.line)
				continue
			}
			cur.agents = append(cur.agents, tok)
		case "allow", "disallow":
			name := canonical[e.kind]
			// The matcher reads the pattern percent-normalized as request
			// paths are (see normalize), on the line the evidence names.
			matcher[e.line-1] = e.kind + ": " + normalize(value)
			if cur == nil {
				f.problem("line %d: %q comes before any User-agent line, so crawlers ignore it", e.line, shown)
				continue
			}
			cur.hasRules = true
			if value == "" {
				// An empty Disallow (or Allow) matches nothing.
				continue
			}
			if value[0] != '/' && value[0] != '*' {
				f.problem("line %d: the path %q does not start with / or *, so it can never match", e.line, clip(value))
			}
			cur.rules = append(cur.rules, rule{allow: e.kind == "allow", text: name + ": " + value, line: e.line})
		case "sitemap":
			f.allSitemaps = append(f.allSitemaps, e.value)
			if u, err := url.Parse(e.value); err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") {
				f.problem("line %d: the Sitemap value %q is not an absolute http(s) URL", e.line, clip(e.value))
				continue
			}
			f.sitemaps = append(f.sitemaps, e.value)
		default:
			f.other(e, shown)
		}
	}
	f.hasGlobal = false
	for _, g := range f.groups {
		for _, a := range g.agents {
			f.hasGlobal = f.hasGlobal || a == "*"
		}
	}
	f.body = strings.Join(matcher, "\n")
}

// spelling reports a record Google reads although RFC 9309 parsers do not:
// a misspelt key or a missing colon.
func (f *File) spelling(line int, shown, key, kind string, colon bool) {
	want := canonical[kind]
	switch {
	case !colon:
		f.problem("line %d: %q has no colon; Google reads it as %s, but parsers that follow RFC 9309 strictly ignore the line", line, shown, want)
	case !strings.EqualFold(key, kind):
		f.problem("line %d: %q looks like a misspelling of %s; Google reads it as %s, but parsers that follow RFC 9309 strictly ignore the line", line, shown, want, want)
	}
}

// other handles a record outside RFC 9309: an extension, a retired
// directive, a misspelling or an unknown key.
func (f *File) other(e event, shown string) {
	k := strings.ToLower(e.key)
	if name, ok := extensions[k]; ok {
		f.known++
		f.extensions = append(f.extensions, Extension{Line: e.line, Key: name, Value: e.value})
		if k == "content-signal" {
			f.parseSignals(e.line, e.value)
		}
		return
	}
	switch {
	case f.html:
	case k == "noindex" || k == "nofollow" || k == "noarchive":
		f.problem("line %d: %q is not a robots.txt directive (Google stopped honoring it in 2019); use a robots meta tag or the X-Robots-Tag header", e.line, shown)
	case misspelled[k] != "":
		f.problem("line %d: %q looks like a misspelling of %s; crawlers ignore the line", e.line, shown, misspelled[k])
	default:
		f.problem("line %d: unknown directive %q", e.line, clip(k))
	}
}

func stripComment(l string) string {
	if i := strings.IndexByte(l, '#'); i >= 0 {
		return l[:i]
	}
	return l
}

// parseSignals reads "search=yes, ai-input=yes, ai-train=no"; the first
// value of a signal wins when several lines set it.
func (f *File) parseSignals(n int, value string) {
	for _, part := range strings.Split(value, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.ToLower(strings.TrimSpace(v))
		if !ok || k == "" || (v != "yes" && v != "no") {
			f.problem("line %d: Content-Signal entry %q is not of the form name=yes or name=no", n, clip(part))
			continue
		}
		if _, seen := f.signals[k]; !seen {
			f.signals[k] = v
		}
	}
}

// productToken extracts the product token of a User-agent value as
// Google's matcher does: "*" alone or followed by a space is the wildcard;
// otherwise the leading run of token characters (RFC 9110 tchar), so
// "Googlebot/2.1" names Googlebot and "Foo Bar" names Foo.
func productToken(v string) string {
	if v == "*" || (strings.HasPrefix(v, "*") && unicode.IsSpace(rune(v[1]))) {
		return "*"
	}
	end := 0
	for end < len(v) && isTokenChar(v[end]) {
		end++
	}
	return v[:end]
}

func isTokenChar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// requestPath reduces a URL to the path and query robots rules match.
func requestPath(p string) string {
	if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
		if u, err := url.Parse(p); err == nil {
			p = u.EscapedPath()
			if u.RawQuery != "" {
				p += "?" + u.RawQuery
			}
		}
	}
	if i := strings.IndexByte(p, '#'); i >= 0 {
		p = p[:i]
	}
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	return p
}

// normalize brings paths and patterns to one percent-encoding so they
// compare octet by octet, as RFC 9309 section 2.2.2 requires: escapes of
// unreserved characters are decoded ("/%7ejoe" is "/~joe"), other escapes
// get upper-case hex, a "%" that starts no escape becomes "%25", and
// octets that may not appear in a URI (controls, space, non-ASCII, and
// "\"<>\\^`{|}") are encoded. This is one deliberate difference from
// Google's matcher, which compares escapes of unreserved characters
// literally (its test suite has "/foo/bar/%62%61%7A" not match
// "/foo/bar/baz"); the RFC, whose table has them match, is followed here.
// The other is that request paths are normalized too, because a crawler
// requests "/caf%C3%A9", never raw UTF-8.
func normalize(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[v>>4])
				b.WriteByte(hex[v&15])
			}
			i += 2
			continue
		}
		if c == '%' || c <= 0x20 || c >= 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isUnreserved(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~'
}

// String renders an extension as written, for evidence.
func (e Extension) String() string { return fmt.Sprintf("line %d: %s: %s", e.Line, e.Key, e.Value) }
