package fixes

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jimsmart/grobotstxt"

	"github.com/geoscan/geoscan/internal/audit/robots"
)

// A robots.txt patch changes as little as it can: it deletes the lines
// that block the crawlers to let in (only in groups that name nothing but
// those crawlers), takes those crawlers out of groups they share with
// others, and appends one group for the crawlers that then have none.
// Which lines are records, and which group each belongs to, comes from
// Google's parser (grobotstxt); whether the patched file does what it
// should is decided by package robots, with Google's matcher, before the
// patch is offered.

// record is one record Google's parser reported.
type record struct {
	kind  string // "user-agent", "allow", "disallow", "sitemap", or "" for other keys
	line  int
	value string
}

// recorder collects the parser's callbacks in file order.
type recorder struct{ recs []record }

func (r *recorder) HandleRobotsStart() {}
func (r *recorder) HandleRobotsEnd()   {}
func (r *recorder) HandleUserAgent(line int, v string) {
	r.recs = append(r.recs, record{"user-agent", line, v})
}

func (r *recorder) HandleAllow(line int, v string) { r.recs = append(r.recs, record{"allow", line, v}) }

func (r *recorder) HandleDisallow(line int, v string) {
	r.recs = append(r.recs, record{"disallow", line, v})
}

func (r *recorder) HandleSitemap(line int, v string) {
	r.recs = append(r.recs, record{"sitemap", line, v})
}

func (r *recorder) HandleUnknownAction(line int, _, v string) {
	r.recs = append(r.recs, record{"", line, v})
}

// robotsGroup is a group of records: its user-agent lines and its rules.
type robotsGroup struct {
	agents []record
	rules  []record
}

// names reports whether the group names token (its product token, case
// insensitively).
func (g *robotsGroup) names(token string) bool {
	return slices.ContainsFunc(g.agents, func(r record) bool { return strings.EqualFold(productToken(r.value), token) })
}

// robotsGroups reads the groups of text as RFC 9309 and Google form them:
// consecutive user-agent lines share the rules that follow, and a
// user-agent line after a rule starts a new group.
func robotsGroups(text string) []*robotsGroup {
	var rec recorder
	grobotstxt.Parse(text, &rec)
	var out []*robotsGroup
	var cur *robotsGroup
	for _, r := range rec.recs {
		switch r.kind {
		case "user-agent":
			if cur == nil || len(cur.rules) > 0 {
				cur = &robotsGroup{}
				out = append(out, cur)
			}
			cur.agents = append(cur.agents, r)
		case "allow", "disallow":
			if cur != nil {
				cur.rules = append(cur.rules, r)
			}
		}
	}
	return out
}

// productToken is the product token a User-agent value names, as Google's
// matcher reads it: "*" for the wildcard, else the leading run of token
// characters ("Googlebot/2.1" names Googlebot).
func productToken(v string) string {
	if v == "*" || strings.HasPrefix(v, "* ") || strings.HasPrefix(v, "*\t") {
		return "*"
	}
	end := 0
	for end < len(v) && (isAlnum(v[end]) || strings.IndexByte("!#$%&'*+-.^_`|~", v[end]) >= 0) {
		end++
	}
	return v[:end]
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// robotsWork is what a patch must achieve.
type robotsWork struct {
	// allow are the tokens that must end allowed at every path.
	allow []string
	paths []string
	// successors pairs a retired token with its successor, which must end
	// with the retired token's verdict.
	successors [][2]string
	// sitemaps must end listed in Sitemap records.
	sitemaps []string
}

func (w robotsWork) empty() bool {
	return len(w.allow) == 0 && len(w.successors) == 0 && len(w.sitemaps) == 0
}

// robotsPatch is a patch of a site's robots.txt and what it was checked
// against.
type robotsPatch struct {
	file    textFile
	edits   *edits
	diff    string
	result  string
	checked []string
}

// errNoSafePatch is a robots.txt whose blocking lines are not ones a patch
// can remove without changing what other crawlers may fetch.
var errNoSafePatch = errors.New("no patch lets these crawlers in without changing the verdict of others")

// unnamedAgent stands for every crawler no group names, which the *
// group governs.
const unnamedAgent = "SomeOtherCrawler"

// patchRobots writes the patch that achieves w on body, the site's
// robots.txt, and reads the patched file back with package robots.
func patchRobots(body []byte, w robotsWork) (*robotsPatch, error) {
	if len(body) > robots.MaxParseBytes {
		return nil, fmt.Errorf("robots.txt is larger than the %d KiB crawlers read", robots.MaxParseBytes>>10)
	}
	// A patch is stored and served as text: a file with NUL bytes or bytes
	// that are not UTF-8 could not be matched by it.
	if bytes.IndexByte(body, 0) >= 0 || !utf8.Valid(body) {
		return nil, errors.New("robots.txt holds NUL bytes or bytes that are not UTF-8, which a patch cannot match")
	}
	f := splitText(string(body))
	base, _ := newEdits().result(f)
	before := robots.ParseBody(base)
	groups := robotsGroups(base)
	for _, g := range groups {
		for _, r := range slices.Concat(g.agents, g.rules) {
			if r.line < 1 || r.line > len(f.lines) {
				return nil, fmt.Errorf("robots.txt line %d is out of the file's %d lines", r.line, len(f.lines))
			}
		}
	}
	target := func(tok string) bool {
		return slices.ContainsFunc(w.allow, func(t string) bool { return strings.EqualFold(t, tok) })
	}
	ed := newEdits()
	// editable groups name only crawlers to let in: their rules may go.
	editable := map[*robotsGroup]bool{}
	var explicit []string
	for _, tok := range w.allow {
		kept := false
		for _, g := range groups {
			if !g.names(tok) {
				continue
			}
			only := !slices.ContainsFunc(g.agents, func(r record) bool { return !target(productToken(r.value)) })
			if only {
				editable[g], kept = true, true
				continue
			}
			for _, a := range g.agents {
				if strings.EqualFold(productToken(a.value), tok) {
					ed.del[a.line] = true
				}
			}
		}
		if !kept {
			explicit = append(explicit, tok)
		}
	}
	for _, pair := range w.successors {
		for _, g := range groups {
			for _, a := range g.agents {
				if strings.EqualFold(productToken(a.value), pair[0]) {
					ed.ins[a.line] = append(ed.ins[a.line], "User-agent: "+pair[1])
				}
			}
		}
	}

	// The appended block: a group for the crawlers that no longer have
	// one, repeating the * group's rules that do not block them, then the
	// Sitemap records.
	var copies []string
	if len(explicit) > 0 {
		for _, g := range groups {
			if !g.names("*") {
				continue
			}
			for _, r := range g.rules {
				if line := ruleLine(f.lines[r.line-1]); line != "" && !blocksAlone(line, w.paths) {
					copies = append(copies, line)
				}
			}
		}
	}
	var sitemaps []string
	listed := before.AllSitemaps()
	for _, sm := range w.sitemaps {
		if !slices.Contains(listed, sm) && robotsSafe(sm) {
			sitemaps = append(sitemaps, sm)
		}
	}
	// The block goes at the end, or before a last group that has no rules
	// of its own: appended after it, its user-agent lines would join that
	// group.
	at := len(f.lines)
	if n := len(groups); n > 0 && len(groups[n-1].rules) == 0 {
		at = groups[n-1].agents[0].line - 1
	}
	lead := at > 0 && strings.TrimSpace(f.lines[at-1]) != ""
	trail := at < len(f.lines)
	// block writes the inserted lines and says where the copies start.
	block := func() (lines []string, copiesAt int) {
		if len(explicit) == 0 && len(sitemaps) == 0 {
			return nil, 0
		}
		if lead {
			lines = append(lines, "")
		}
		if len(explicit) > 0 {
			lines = append(lines, "# Lets AI search crawlers and assistants read the site; the groups above still apply to every other crawler.")
			for _, tok := range explicit {
				lines = append(lines, "User-agent: "+tok)
			}
			lines = append(lines, "Allow: /")
			copiesAt = len(lines)
			lines = append(lines, copies...)
		}
		for _, sm := range sitemaps {
			lines = append(lines, "Sitemap: "+sm)
		}
		if trail {
			lines = append(lines, "")
		}
		return lines, copiesAt
	}
	orig := ed.ins[at]
	setBlock := func() int {
		lines, at2 := block()
		ed.ins[at] = slices.Concat(orig, lines)
		if len(ed.ins[at]) == 0 {
			delete(ed.ins, at)
		}
		return len(orig) + at2
	}
	copiesAt := setBlock()

	// Remove what still blocks a crawler to let in, one line at a time,
	// where a line may go: a Disallow of an editable group, or a copied
	// rule of the inserted group.
	for range 200 {
		text, origin := ed.result(f)
		after := robots.ParseBody(text)
		tok, path, ok := firstBlocked(after, w.allow, w.paths)
		if !ok {
			break
		}
		v := after.Allowed(tok, path)
		if v.Line < 1 || v.Line > len(origin) {
			return nil, errNoSafePatch
		}
		if old := origin[v.Line-1]; old > 0 {
			if !inEditable(editable, old) || !strings.HasPrefix(strings.ToLower(v.Rule), "disallow") {
				return nil, errNoSafePatch
			}
			ed.del[old] = true
			continue
		}
		i := v.Line - 1 - ed.position(f, at) - copiesAt
		if i < 0 || i >= len(copies) {
			return nil, errNoSafePatch
		}
		copies = slices.Delete(copies, i, i+1)
		copiesAt = setBlock()
	}
	if ed.empty() {
		return nil, errors.New("robots.txt already does what the patch would")
	}
	text, _ := ed.result(f)
	after := robots.ParseBody(text)
	checked, err := checkRobots(before, after, w, rulePaths(groups))
	if err != nil {
		return nil, err
	}
	return &robotsPatch{file: f, edits: ed, diff: unifiedDiff("robots.txt", f, ed), result: text, checked: checked}, nil
}

// inEditable reports a line that is a rule of an editable group.
func inEditable(editable map[*robotsGroup]bool, line int) bool {
	for g := range editable {
		if slices.ContainsFunc(g.rules, func(r record) bool { return r.line == line }) {
			return true
		}
	}
	return false
}

// ruleLine is an Allow or Disallow line without its comment, as written.
func ruleLine(l string) string {
	if i := strings.IndexByte(l, '#'); i >= 0 {
		l = l[:i]
	}
	return strings.TrimSpace(l)
}

// blocksAlone reports a rule that, alone in a group, disallows one of
// paths: copied into a group meant to let a crawler in, it would undo it.
func blocksAlone(rule string, paths []string) bool {
	f := robots.ParseBody("User-agent: " + unnamedAgent + "\n" + rule + "\n")
	for _, p := range paths {
		if !f.Allowed(unnamedAgent, p).Allowed {
			return true
		}
	}
	return false
}

// robotsSafe reports a value that stays one robots.txt line: no line
// ends, no comment sign, no control characters.
func robotsSafe(v string) bool {
	return v != "" && !strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '#' || r == '\u2028' || r == '\u2029' })
}

func firstBlocked(f *robots.File, tokens, paths []string) (string, string, bool) {
	for _, t := range tokens {
		for _, p := range paths {
			if !f.Allowed(t, p).Allowed {
				return t, p, true
			}
		}
	}
	return "", "", false
}

// checkRobots compares the verdicts before and after a patch: the
// crawlers to let in are allowed at every path, each successor has its
// retired token's verdict, the sitemaps are listed, and every other
// crawler of the table (and any crawler no group names) keeps its verdict.
func checkRobots(before, after *robots.File, w robotsWork, probes []string) ([]string, error) {
	var checked []string
	paths := w.paths
	if !slices.Contains(paths, "/") {
		paths = append([]string{"/"}, paths...)
	}
	if tok, path, blocked := firstBlocked(after, w.allow, paths); blocked {
		return nil, fmt.Errorf("the patched robots.txt still blocks %s at %s", tok, path)
	}
	if len(w.allow) > 0 {
		checked = append(checked, fmt.Sprintf("Read with Google's robots.txt matcher (grobotstxt), the patched file allows %s at %s.", strings.Join(w.allow, ", "), strings.Join(paths, ", ")))
	}
	changed := map[string]bool{}
	for _, t := range w.allow {
		changed[strings.ToLower(t)] = true
	}
	// A crawler that follows another's group when none names it (Applebot
	// follows Googlebot) follows it in.
	for _, a := range robots.Agents {
		if a.Fallback != "" && changed[strings.ToLower(a.Fallback)] && !before.Names(a.Token) && !changed[strings.ToLower(a.Token)] {
			changed[strings.ToLower(a.Token)] = true
			checked = append(checked, fmt.Sprintf("%s, which follows the %s group when none names it, gets the same verdict.", a.Token, a.Fallback))
		}
	}
	for _, pair := range w.successors {
		changed[strings.ToLower(pair[1])] = true
		if after.Allowed(pair[1], "/").Allowed != before.Allowed(pair[0], "/").Allowed {
			return nil, fmt.Errorf("%s does not get the verdict written for %s", pair[1], pair[0])
		}
		checked = append(checked, fmt.Sprintf("%s now gets the verdict the file gives the retired token %s.", pair[1], pair[0]))
	}
	// Every crawler of the table, every token the file names, and one it
	// does not name.
	others := []string{unnamedAgent}
	for _, tok := range slices.Concat(agentTokens(), before.Groups()) {
		if tok != "*" && !changed[strings.ToLower(tok)] && !slices.ContainsFunc(others, func(o string) bool { return strings.EqualFold(o, tok) }) {
			others = append(others, tok)
		}
	}
	probes = slices.Concat(paths, probes)
	for _, tok := range others {
		for _, p := range probes {
			if before.Allowed(tok, p).Allowed != after.Allowed(tok, p).Allowed {
				return nil, fmt.Errorf("the patch would change the verdict of %s at %s", tok, p)
			}
		}
	}
	checked = append(checked, "Every other crawler, of GeoScan's table or named in the file, and any crawler no group names, keeps its verdict.")
	got := after.Sitemaps()
	for _, sm := range w.sitemaps {
		if !slices.Contains(got, sm) {
			return nil, fmt.Errorf("the patched robots.txt does not list %s", sm)
		}
	}
	if len(w.sitemaps) > 0 {
		checked = append(checked, "The patched file lists "+strings.Join(w.sitemaps, ", ")+" in a Sitemap record.")
	}
	return checked, nil
}

// rulePaths are paths the file's own rules name, to compare verdicts on:
// each rule's pattern up to its first wildcard, and a path under it.
func rulePaths(groups []*robotsGroup) []string {
	var out []string
	for _, g := range groups {
		for _, r := range g.rules {
			v, _, _ := strings.Cut(r.value, "*")
			v = strings.TrimSuffix(v, "$")
			if strings.HasPrefix(v, "/") && len(out) < 200 {
				out = append(out, v, strings.TrimSuffix(v, "/")+"/x")
			}
		}
	}
	return out
}

func agentTokens() []string {
	out := make([]string, 0, len(robots.Agents))
	for _, a := range robots.Agents {
		out = append(out, a.Token)
	}
	return out
}

// newRobotsFile is a robots.txt for a site that has none (or serves an
// HTML page in its place): everything allowed, and the sitemaps the scan
// found. It is checked the same way as a patch.
func newRobotsFile(sitemaps []string) (string, []string, error) {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /\n")
	var listed []string
	for _, sm := range sitemaps {
		if robotsSafe(sm) {
			if len(listed) == 0 {
				b.WriteByte('\n')
			}
			b.WriteString("Sitemap: " + sm + "\n")
			listed = append(listed, sm)
		}
	}
	f := robots.ParseBody(b.String())
	for _, a := range robots.Agents {
		if !f.Allowed(a.Token, "/").Allowed {
			return "", nil, fmt.Errorf("the new robots.txt blocks %s", a.Token)
		}
	}
	if !slices.Equal(f.Sitemaps(), listed) || len(f.Problems()) > 0 {
		return "", nil, errors.New("the new robots.txt does not read back as written")
	}
	checked := []string{fmt.Sprintf("Read with Google's robots.txt matcher (grobotstxt), the file allows every crawler of GeoScan's table (%d tokens) everywhere, with no syntax problem.", len(robots.Agents))}
	if len(listed) > 0 {
		checked = append(checked, "It lists "+strings.Join(listed, ", ")+" in a Sitemap record.")
	}
	return b.String(), checked, nil
}
