// Package robots owns the table of AI crawlers (who runs each product
// token and what it fetches for) and the evaluation of a site's robots.txt
// for those tokens: RFC 9309 fetch-status semantics, and verdicts from
// Google's parser and matcher (grobotstxt) — group selection by product
// token, longest match with Allow winning ties, the typos and line endings
// Google accepts. Its own reading adds what the evidence needs: the group
// and line that decided, the Sitemap, Content-Signal and other non-group
// records, and the syntax problems a site owner should fix. It never
// fetches; it reads what package fetch downloaded.
package robots

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jimsmart/grobotstxt"

	"github.com/geoscan/geoscan/internal/audit/fetch"
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
	allow bool
	text  string // the line as written, comment removed
	line  int
}

type group struct {
	agents   []string // product tokens as written ("*" for the wildcard)
	rules    []rule
	hasRules bool
}

// File is a parsed robots.txt with the semantics of its fetch outcome.
type File struct {
	state       State
	reason      string
	html        bool
	oversize    bool
	lines       int
	known       int
	groups      []*group
	hasGlobal   bool
	sitemaps    []string
	allSitemaps []string
	signals     map[string]string
	extensions  []Extension
	problems    []string
	moreProbs   int
	body        string // what the matcher reads (at most MaxParseBytes)
}

// Parse interprets a fetched robots.txt per RFC 9309: a 2xx body is
// parsed; a 4xx means the file is unavailable and everything may be
// crawled; a 5xx, a failed request or no response at all means it is
// unreachable and everything is disallowed. The body is read as the raw
// bytes the server sent, as Google reads it.
func Parse(resp *fetch.Response) *File {
	f := &File{signals: map[string]string{}}
	if resp == nil {
		f.state, f.reason = Unreachable, "robots.txt was not fetched, so RFC 9309 requires assuming that everything is disallowed"
		return f
	}
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
	if !f.html && resp.IsHTML() {
		f.problem("robots.txt is served as %s; use text/plain", resp.ContentType())
	}
	return f
}

// ParseBody parses robots.txt text as if it had been fetched with 200.
func ParseBody(body string) *File {
	f := &File{state: Rules, signals: map[string]string{}}
	f.html = looksLikeHTML([]byte(body))
	f.parse([]byte(body))
	return f
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

func (f *File) problem(format string, args ...any) {
	if len(f.problems) >= maxProblems {
		f.moreProbs++
		return
	}
	f.problems = append(f.problems, fmt.Sprintf(format, args...))
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

// State is the fetch-outcome state.
func (f *File) State() State { return f.state }

// StateReason explains an Unavailable or Unreachable state; "" for Rules.
func (f *File) StateReason() string { return f.reason }

// HTML reports an HTML page served as robots.txt.
func (f *File) HTML() bool { return f.html }

// Oversize reports a file larger than MaxParseBytes.
func (f *File) Oversize() bool { return f.oversize }

// Lines counts the lines with content (comments and blanks excluded).
func (f *File) Lines() int { return f.lines }

// Directives counts the lines that are robots.txt records or known
// extensions.
func (f *File) Directives() int { return f.known }

// Sitemaps returns the absolute http(s) Sitemap URLs in file order.
func (f *File) Sitemaps() []string { return append([]string(nil), f.sitemaps...) }

// AllSitemaps returns every Sitemap value as written, relative or
// scheme-less ones included (the fetcher resolves those against the URL of
// robots.txt; Sitemaps leaves them out because the protocol asks for
// absolute URLs).
func (f *File) AllSitemaps() []string { return append([]string(nil), f.allSitemaps...) }

// ContentSignals returns the Content-Signal preferences, keyed by signal
// name ("search", "ai-input", "ai-train") with values "yes" or "no".
func (f *File) ContentSignals() map[string]string {
	out := make(map[string]string, len(f.signals))
	for k, v := range f.signals {
		out[k] = v
	}
	return out
}

// Extensions returns the records outside RFC 9309 the file carries
// (Crawl-delay, Content-Signal, Content-Usage, Agentmap, License, …) in
// file order. They are valid lines, never problems.
func (f *File) Extensions() []Extension { return append([]Extension(nil), f.extensions...) }

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
	return f.groupLabel(token) != ""
}

// groupLabel returns token as first written in a group that names it
// (RFC 9309 merges such groups), or "" when none does.
func (f *File) groupLabel(token string) string {
	for _, g := range f.groups {
		for _, a := range g.agents {
			if strings.EqualFold(a, token) {
				return a
			}
		}
	}
	return ""
}

// Allowed evaluates whether the crawler with product token may fetch path
// (a path with optional query, or an absolute URL). The verdict is always
// the Google matcher's (grobotstxt): the group naming the token applies,
// else the "*" group, else nothing; the longest matching rule wins and
// Allow wins a tie. The one addition is the agent's documented fallback
// (Applebot obeys Googlebot's group when no group names it). The in-house
// parse only names the group and the deciding line for the evidence.
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
	target := "https://robots.invalid" + normalize(path)
	m := grobotstxt.NewRobotsMatcher()
	allowed := m.AgentAllowed(f.body, token, target)
	agent, via := token, ""
	if !m.EverSeenSpecificAgent() {
		if a, ok := Lookup(token); ok && a.Fallback != "" {
			fm := grobotstxt.NewRobotsMatcher()
			if fa := fm.AgentAllowed(f.body, a.Fallback, target); fm.EverSeenSpecificAgent() {
				m, allowed, agent = fm, fa, a.Fallback
				via = fmt.Sprintf(" (%s follows the %s group when none names it)", a.Token, a.Fallback)
			}
		}
	}
	label, who := "", ""
	switch {
	case m.EverSeenSpecificAgent():
		if label = f.groupLabel(agent); label == "" {
			label = agent
		}
		who = "the " + label + " group" + via
	case f.hasGlobal:
		label, who = "*", "the * group (no group names "+token+")"
	default:
		return Verdict{Allowed: allowed, Reason: fmt.Sprintf("no group names %s and there is no * group, so everything is allowed", token)}
	}
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
