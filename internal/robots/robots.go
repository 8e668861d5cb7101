// Package robots owns the table of AI crawlers (who runs each product
// token and what it fetches for) and the evaluation of a site's robots.txt
// for those tokens under RFC 9309: fetch-status semantics, group selection
// by exact product token, longest-match rules with Allow winning ties, the
// non-group Sitemap and Content-Signal records, and a report of syntax
// problems. It never fetches; it reads what package fetch downloaded.
package robots

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/jimsmart/grobotstxt"

	"github.com/geoscan/geoscan/internal/fetch"
)

// Role is what a crawler fetches pages for.
type Role string

// The roles of AI crawlers.
const (
	// Search crawlers build the indexes AI answers cite; blocking one
	// removes the site from that engine's answers.
	Search Role = "search"
	// UserFetch agents fetch a page because a person asked an assistant
	// about it.
	UserFetch Role = "user_fetch"
	// Training crawlers collect text for model training; blocking them is
	// a policy choice that costs no search visibility.
	Training Role = "training"
	// Control tokens never fetch anything: they only carry a declared
	// preference (Google-Extended, Applebot-Extended).
	Control Role = "control"
	// Mixed crawlers serve several purposes or their compliance is disputed.
	Mixed Role = "mixed"
)

// Agent is one product token of the crawler table.
type Agent struct {
	Token string
	Owner string
	Role  Role
	// Core marks the search crawlers of the major answer engines; blocking
	// one of them is a gating failure.
	Core bool
	// HonorsRobots is false where the vendor says robots.txt may not apply
	// (user-triggered fetchers) or compliance is disputed.
	HonorsRobots bool
	// Retired tokens are no longer used by their vendor; Successor is the
	// token that replaced them.
	Retired   bool
	Successor string
	// Fallback is the token whose group the agent obeys when no group names
	// it: Apple documents that Applebot follows Googlebot's rules then.
	Fallback string
}

// Agents is the crawler table, grouped by role. Sources: the vendors' bot
// pages (OpenAI, Anthropic, Perplexity, Google, Microsoft, Apple, Amazon,
// Meta, DuckDuckGo, Common Crawl, Cohere, ByteDance).
var Agents = []Agent{
	{Token: "OAI-SearchBot", Owner: "OpenAI", Role: Search, Core: true, HonorsRobots: true},
	{Token: "Claude-SearchBot", Owner: "Anthropic", Role: Search, Core: true, HonorsRobots: true},
	{Token: "PerplexityBot", Owner: "Perplexity", Role: Search, Core: true, HonorsRobots: true},
	{Token: "Googlebot", Owner: "Google", Role: Search, Core: true, HonorsRobots: true},
	{Token: "Bingbot", Owner: "Microsoft", Role: Search, Core: true, HonorsRobots: true},
	{Token: "Applebot", Owner: "Apple", Role: Search, Core: true, HonorsRobots: true, Fallback: "Googlebot"},
	{Token: "Amzn-SearchBot", Owner: "Amazon", Role: Search, HonorsRobots: true},
	{Token: "Meta-WebIndexer", Owner: "Meta", Role: Search, HonorsRobots: true},
	{Token: "DuckAssistBot", Owner: "DuckDuckGo", Role: Search, HonorsRobots: true},

	// OpenAI says robots.txt rules "may not apply" to ChatGPT-User and
	// Perplexity that Perplexity-User "generally ignores" them; Meta's
	// fetcher may bypass them. Anthropic's Claude-User honors them.
	{Token: "ChatGPT-User", Owner: "OpenAI", Role: UserFetch},
	{Token: "Claude-User", Owner: "Anthropic", Role: UserFetch, HonorsRobots: true},
	{Token: "Perplexity-User", Owner: "Perplexity", Role: UserFetch},
	{Token: "Meta-ExternalFetcher", Owner: "Meta", Role: UserFetch},

	{Token: "GPTBot", Owner: "OpenAI", Role: Training, HonorsRobots: true},
	{Token: "ClaudeBot", Owner: "Anthropic", Role: Training, HonorsRobots: true},
	{Token: "meta-externalagent", Owner: "Meta", Role: Training, HonorsRobots: true},
	{Token: "CCBot", Owner: "Common Crawl", Role: Training, HonorsRobots: true},
	{Token: "cohere-training-data-crawler", Owner: "Cohere", Role: Training, HonorsRobots: true},
	{Token: "Bytespider", Owner: "ByteDance", Role: Mixed},
	{Token: "Amazonbot", Owner: "Amazon", Role: Mixed, HonorsRobots: true},

	{Token: "Google-Extended", Owner: "Google", Role: Control, HonorsRobots: true},
	{Token: "Applebot-Extended", Owner: "Apple", Role: Control, HonorsRobots: true},

	{Token: "anthropic-ai", Owner: "Anthropic", Role: Training, Retired: true, Successor: "ClaudeBot"},
	{Token: "Claude-Web", Owner: "Anthropic", Role: Training, Retired: true, Successor: "ClaudeBot"},
	{Token: "FacebookBot", Owner: "Meta", Role: Training, Retired: true, Successor: "meta-externalagent"},
}

// Lookup finds an agent by token, case-insensitively.
func Lookup(token string) (Agent, bool) {
	for _, a := range Agents {
		if strings.EqualFold(a.Token, token) {
			return a, true
		}
	}
	return Agent{}, false
}

// ByRole returns the current (not retired) agents of the given roles in
// table order.
func ByRole(roles ...Role) []Agent {
	var out []Agent
	for _, a := range Agents {
		if a.Retired {
			continue
		}
		for _, r := range roles {
			if a.Role == r {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// RetiredAgents returns the retired tokens in table order.
func RetiredAgents() []Agent {
	var out []Agent
	for _, a := range Agents {
		if a.Retired {
			out = append(out, a)
		}
	}
	return out
}

// State is what the fetch outcome of robots.txt means for crawling.
type State string

// The states of RFC 9309 section 2.3.1.
const (
	// Rules: the file was fetched (2xx) and its rules apply.
	Rules State = "rules"
	// Unavailable: a 4xx (or too many redirects); crawlers may fetch
	// everything.
	Unavailable State = "unavailable"
	// Unreachable: a 5xx, a network error or no fetch at all; crawlers
	// must assume everything is disallowed.
	Unreachable State = "unreachable"
)

// MaxParseBytes is how much of a robots.txt is read. RFC 9309 requires
// crawlers to parse at least 500 KiB; Google ignores what follows, so
// rules beyond it are ignored here too.
const MaxParseBytes = 500 << 10

// maxProblems bounds the problems kept, so a garbage file of thousands of
// lines does not bloat the evidence.
const maxProblems = 50

// Verdict is the outcome of evaluating one token against one path.
type Verdict struct {
	Allowed bool
	// Group is the user-agent value of the group that applied as written
	// in the file, "*" for the wildcard group, or "" when none applied.
	Group string
	// Rule is the deciding Allow or Disallow line, or "" when no rule
	// matched (or the file's fetch status decided).
	Rule string
	// Line is the line number of Rule, 0 when there is none.
	Line int
	// Reason explains the verdict in one sentence.
	Reason string
}

type rule struct {
	allow   bool
	pattern string // normalized for matching
	text    string // the line as written, comment removed
	line    int
}

type group struct {
	agents   []string // product tokens as written ("*" for the wildcard)
	rules    []rule
	hasRules bool
}

// File is a parsed robots.txt with the semantics of its fetch outcome.
type File struct {
	state     State
	status    int
	reason    string
	html      bool
	oversize  bool
	size      int
	lines     int
	known     int
	groups    []*group
	sitemaps  []string
	signals   map[string]string
	problems  []string
	moreProbs int
	body      string // what the matcher reads (at most MaxParseBytes)
}

// Parse interprets a fetched robots.txt per RFC 9309: a 2xx body is
// parsed; a 4xx means the file is unavailable and everything may be
// crawled; a 5xx, a failed request or no response at all means it is
// unreachable and everything is disallowed.
func Parse(resp *fetch.Response) *File {
	f := &File{signals: map[string]string{}}
	if resp == nil {
		f.state, f.reason = Unreachable, "robots.txt was not fetched, so RFC 9309 requires assuming that everything is disallowed"
		return f
	}
	f.status = resp.Status
	f.size = resp.Bytes
	success := resp.Status >= 200 && resp.Status < 300
	switch {
	case resp.Err != nil && success && errors.Is(resp.Err, fetch.ErrTooLarge):
		// A body over the fetch limit was still served; its first part
		// holds the rules a crawler reads.
		f.state = Rules
	case resp.Err != nil && fetch.Describe(resp.Err).Code == "too_many_redirects":
		f.state, f.reason = Unavailable, "robots.txt redirected more than five times, which RFC 9309 lets crawlers treat as unavailable (everything allowed)"
		return f
	case resp.Err != nil:
		f.state, f.reason = Unreachable, "robots.txt could not be fetched ("+resp.ErrorText()+"), so RFC 9309 requires assuming that everything is disallowed"
		return f
	case success:
		f.state = Rules
	case resp.Status == 429:
		// Google documents that it treats 429 like a server error, which
		// is stricter than the plain 4xx rule of RFC 9309.
		f.state, f.reason = Unreachable, "robots.txt answered HTTP 429 (too many requests), which Google treats like a server error: everything disallowed"
		return f
	case resp.Status >= 300 && resp.Status < 500:
		f.state, f.reason = Unavailable, fmt.Sprintf("robots.txt answered HTTP %d, which RFC 9309 treats as unavailable: everything may be crawled", resp.Status)
		return f
	default:
		f.state, f.reason = Unreachable, fmt.Sprintf("robots.txt answered HTTP %d, which RFC 9309 treats as unreachable: everything disallowed", resp.Status)
		return f
	}
	// The body decides: a text/html label on real robots rules is only a
	// header mistake, and crawlers still read the rules.
	f.html = looksLikeHTML(resp.Body)
	f.parse(resp.Body)
	f.setBody(resp.Body)
	if !f.html && resp.IsHTML() {
		f.problem("robots.txt is served as %s; use text/plain", resp.ContentType())
	}
	return f
}

// ParseBody parses robots.txt text as if it had been fetched with 200.
func ParseBody(body string) *File {
	f := &File{state: Rules, status: 200, size: len(body), signals: map[string]string{}}
	f.html = looksLikeHTML([]byte(body))
	f.parse([]byte(body))
	f.setBody([]byte(body))
	return f
}

// setBody keeps the text the matcher reads, with the paths of Allow and
// Disallow lines percent-normalized as request paths are (the matcher
// compares octets and would otherwise miss "/%7ejoe" against "/~joe").
// Line numbers are preserved so the matcher's line names the rule.
func (f *File) setBody(b []byte) {
	if len(b) > MaxParseBytes {
		b = b[:MaxParseBytes]
	}
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		key, value, ok := strings.Cut(l, ":")
		k := strings.ToLower(strings.TrimSpace(key))
		if !ok || (k != "allow" && k != "disallow") {
			continue
		}
		end := ""
		if j := strings.IndexAny(value, "#\r\n"); j >= 0 {
			value, end = value[:j], value[j:]
		}
		lines[i] = key + ": " + normalize(strings.TrimSpace(value)) + end
	}
	f.body = strings.Join(lines, "")
}

// ruleAt returns the rule written on a line, if any.
func (f *File) ruleAt(line int) *rule {
	for _, g := range f.groups {
		for i := range g.rules {
			if g.rules[i].line == line {
				return &g.rules[i]
			}
		}
	}
	return nil
}

func looksLikeHTML(body []byte) bool {
	head := body
	if len(head) > 1024 {
		head = head[:1024]
	}
	s := strings.ToLower(strings.TrimSpace(string(head)))
	s = strings.TrimPrefix(s, "\ufeff")
	return strings.HasPrefix(s, "<!doctype html") || strings.HasPrefix(s, "<html") ||
		(strings.HasPrefix(s, "<") && (strings.Contains(s, "<head") || strings.Contains(s, "<body")))
}

// misspelled maps keys some parsers accept to the directive they mean;
// RFC 9309 parsers ignore them, so a rule written that way may do nothing.
var misspelled = map[string]string{
	"useragent": "User-agent", "user agent": "User-agent", "user-agents": "User-agent",
	"dissallow": "Disallow", "disalow": "Disallow", "dissalow": "Disallow", "disallaw": "Disallow", "diasllow": "Disallow",
	"alow": "Allow", "allows": "Allow",
	"site-map": "Sitemap", "sitemaps": "Sitemap",
}

// extensions are records outside RFC 9309 that some crawlers read; they
// are not syntax errors.
var extensions = map[string]bool{
	"crawl-delay": true, "host": true, "clean-param": true, "request-rate": true, "visit-time": true,
}

func (f *File) problem(format string, args ...any) {
	if len(f.problems) >= maxProblems {
		f.moreProbs++
		return
	}
	f.problems = append(f.problems, fmt.Sprintf(format, args...))
}

func (f *File) parse(body []byte) {
	if len(body) > MaxParseBytes {
		body = body[:MaxParseBytes]
		f.oversize = true
		f.problem("the file is larger than %d KiB; crawlers ignore the rules after that point", MaxParseBytes>>10)
	}
	text := strings.TrimPrefix(string(body), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	if f.html {
		f.problem("the server returns an HTML page for /robots.txt instead of a plain-text robots.txt")
	}
	var cur *group
	for i, raw := range strings.Split(text, "\n") {
		n := i + 1
		line := raw
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f.lines++
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			if !f.html {
				f.problem("line %d: %q is not a \"key: value\" record", n, clip(line))
			}
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		switch key {
		case "user-agent":
			f.known++
			// A user-agent line after rules starts a new group; consecutive
			// user-agent lines share the rules that follow them.
			if cur == nil || cur.hasRules {
				cur = &group{}
				f.groups = append(f.groups, cur)
			}
			tok := productToken(value)
			if tok == "" {
				f.problem("line %d: the User-agent line names no product token", n)
				continue
			}
			cur.agents = append(cur.agents, tok)
		case "allow", "disallow":
			f.known++
			if cur == nil {
				f.problem("line %d: %q comes before any User-agent line, so crawlers ignore it", n, clip(line))
				continue
			}
			cur.hasRules = true
			if value == "" {
				// An empty Disallow (or Allow) matches nothing.
				continue
			}
			if value[0] != '/' && value[0] != '*' {
				f.problem("line %d: the path %q does not start with / or *, so it can never match", n, clip(value))
			}
			name := "Disallow"
			if key == "allow" {
				name = "Allow"
			}
			cur.rules = append(cur.rules, rule{allow: key == "allow", pattern: normalize(value), text: name + ": " + value, line: n})
		case "sitemap":
			f.known++
			if u, err := url.Parse(value); err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") {
				f.problem("line %d: the Sitemap value %q is not an absolute http(s) URL", n, clip(value))
				continue
			}
			f.sitemaps = append(f.sitemaps, value)
		case "content-signal":
			f.known++
			f.parseSignals(n, value)
		case "noindex", "nofollow", "noarchive":
			f.problem("line %d: %q is not a robots.txt directive (Google stopped honoring it in 2019); use a robots meta tag or the X-Robots-Tag header", n, clip(line))
		default:
			if extensions[key] {
				f.known++
				continue
			}
			if f.html {
				continue
			}
			if want, ok := misspelled[key]; ok {
				f.problem("line %d: %q looks like a misspelling of %s; RFC 9309 parsers ignore the line", n, clip(line), want)
				continue
			}
			f.problem("line %d: unknown directive %q", n, clip(key))
		}
	}
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

// productToken extracts the product token of a User-agent value: "*" for
// the wildcard, otherwise the leading run of letters, digits, "-" and "_"
// (so "Googlebot/2.1" names Googlebot). RFC 9309 tokens have no digits,
// but tokens such as AI2Bot exist in the wild.
func productToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	end := 0
	for end < len(v) {
		c := v[end]
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' {
			end++
			continue
		}
		break
	}
	return v[:end]
}

func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// State is the fetch-outcome state.
func (f *File) State() State { return f.state }

// Status is the HTTP status robots.txt answered, 0 when it failed.
func (f *File) Status() int { return f.status }

// StateReason explains an Unavailable or Unreachable state; "" for Rules.
func (f *File) StateReason() string { return f.reason }

// HTML reports an HTML page served as robots.txt.
func (f *File) HTML() bool { return f.html }

// Oversize reports a file larger than MaxParseBytes.
func (f *File) Oversize() bool { return f.oversize }

// Size is the body size in bytes.
func (f *File) Size() int { return f.size }

// Lines counts the lines with content (comments and blanks excluded).
func (f *File) Lines() int { return f.lines }

// Directives counts the lines that are robots.txt records or known
// extensions.
func (f *File) Directives() int { return f.known }

// Sitemaps returns the Sitemap URLs in file order.
func (f *File) Sitemaps() []string { return append([]string(nil), f.sitemaps...) }

// ContentSignals returns the Content-Signal preferences, keyed by signal
// name ("search", "ai-input", "ai-train") with values "yes" or "no".
func (f *File) ContentSignals() map[string]string {
	out := make(map[string]string, len(f.signals))
	for k, v := range f.signals {
		out[k] = v
	}
	return out
}

// Problems returns the syntax problems, one sentence each.
func (f *File) Problems() []string {
	out := append([]string(nil), f.problems...)
	if f.moreProbs > 0 {
		out = append(out, fmt.Sprintf("and %d more problems", f.moreProbs))
	}
	return out
}

// Groups returns the user-agent tokens the file names, as written, each
// once, in file order.
func (f *File) Groups() []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range f.groups {
		for _, a := range g.agents {
			k := strings.ToLower(a)
			if !seen[k] {
				seen[k] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// Names reports whether a group names the token exactly (case-insensitive).
func (f *File) Names(token string) bool {
	gs, _ := f.groupsFor(token)
	return len(gs) > 0
}

// groupsFor returns every group naming token (RFC 9309 merges them) and
// the token as first written.
func (f *File) groupsFor(token string) ([]*group, string) {
	var out []*group
	label := ""
	for _, g := range f.groups {
		for _, a := range g.agents {
			if strings.EqualFold(a, token) {
				if label == "" {
					label = a
				}
				out = append(out, g)
				break
			}
		}
	}
	return out, label
}

// Allowed evaluates whether the crawler with product token may fetch path
// (a path with optional query, or an absolute URL). The group naming the
// token exactly applies, else the agent's documented fallback group, else
// the "*" group; within the merged group the longest matching rule wins
// and Allow wins a tie.
func (f *File) Allowed(token, path string) Verdict {
	path = requestPath(path)
	switch f.state {
	case Unavailable:
		return Verdict{Allowed: true, Reason: f.reason}
	case Unreachable:
		return Verdict{Allowed: false, Reason: f.reason}
	}
	if path == "/robots.txt" {
		return Verdict{Allowed: true, Reason: "/robots.txt itself is always allowed"}
	}
	groups, label := f.groupsFor(token)
	via := ""
	if len(groups) == 0 {
		if a, ok := Lookup(token); ok && a.Fallback != "" {
			if gs, l := f.groupsFor(a.Fallback); len(gs) > 0 {
				groups, label = gs, l
				via = fmt.Sprintf(" (%s follows the %s group when none names it)", a.Token, a.Fallback)
			}
		}
	}
	if len(groups) == 0 {
		groups, label = f.groupsFor("*")
	}
	if len(groups) == 0 {
		return Verdict{Allowed: true, Reason: fmt.Sprintf("no group names %s and there is no * group, so everything is allowed", token)}
	}
	who := "the " + label + " group"
	if label == "*" {
		who = "the * group (no group names " + token + ")"
	}
	who += via
	// The verdict comes from Google's RFC 9309 matcher (grobotstxt): exact
	// product-token groups, longest match, Allow winning ties. The line it
	// reports names the deciding rule for the evidence.
	agent := token
	if via != "" {
		if a, ok := Lookup(token); ok {
			agent = a.Fallback
		}
	}
	m := grobotstxt.NewRobotsMatcher()
	allowed := m.AgentAllowed(f.body, agent, "https://robots.invalid"+normalize(path))
	best := f.ruleAt(m.MatchingLine())
	if best == nil {
		return Verdict{Allowed: allowed, Group: label, Reason: fmt.Sprintf("no rule of %s matches %s, so it is allowed", who, path)}
	}
	verb := "allows"
	if !allowed {
		verb = "disallows"
	}
	return Verdict{
		Allowed: allowed, Group: label, Rule: best.text, Line: best.line,
		Reason: fmt.Sprintf("%q (line %d) of %s %s %s", best.text, best.line, who, verb, path),
	}
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
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	return p
}

// normalize brings paths and patterns to one percent-encoding so they
// compare octet by octet (RFC 9309 section 2.2.2): escapes of unreserved
// characters are decoded, other escapes get upper-case hex, and octets
// outside printable ASCII are encoded.
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
		if c <= 0x20 || c >= 0x7f {
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
