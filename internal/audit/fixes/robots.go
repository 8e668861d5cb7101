package fixes

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

// robotsResult is the site's one robots.txt patch: every open check that
// a rule of robots.txt causes is fixed by the same patch, so applying it
// once fixes them all and no two patches conflict.
type robotsResult struct {
	file     *robots.File
	work     robotsWork
	patch    *robotsPatch
	err      error
	artifact *Artifact
}

// robotsURL is where the scan read robots.txt.
func (s *scan) robotsURL() string {
	if r := s.site.Robots; r != nil && r.URL != "" {
		return r.URL
	}
	return s.at("/robots.txt")
}

// robotsPaths are the paths the access checks judged: the root and the
// homepage's own path when it redirected elsewhere.
func (s *scan) robotsPaths() []string {
	if p := s.evidenceStrings("ai_search_bots_allowed", "paths"); len(p) > 0 {
		return p
	}
	paths := []string{"/"}
	if u, err := url.Parse(s.homeURL); err == nil {
		if p := u.EscapedPath(); p != "" && p != "/" {
			paths = append(paths, p)
		}
	}
	return paths
}

// blocked are the current agents of roles that robots.txt blocks at one
// of the paths.
func blocked(f *robots.File, paths []string, roles ...robots.Role) []robots.Agent {
	var out []robots.Agent
	for _, a := range robots.ByRole(roles...) {
		for _, p := range paths {
			if !f.Allowed(a.Token, p).Allowed {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// staleTokens are the retired tokens whose rules no live crawler reads:
// named without their successor, which gets another verdict.
func staleTokens(f *robots.File) [][2]string {
	var out [][2]string
	for _, a := range robots.RetiredAgents() {
		if f.Names(a.Token) && !f.Names(a.Successor) && f.Allowed(a.Token, "/").Allowed != f.Allowed(a.Successor, "/").Allowed {
			out = append(out, [2]string{a.Token, a.Successor})
		}
	}
	return out
}

// readableSitemaps are the sitemap files the scan could read and where
// they were found, excluding those a sitemap index named.
func (s *scan) readableSitemaps() (all, unlisted []string) {
	for _, f := range s.site.SitemapFetches {
		if f.Kind == "" || f.Source == fetch.SitemapFromIndex || f.Response == nil {
			continue
		}
		all = append(all, f.Response.URL)
		if f.Source != fetch.SitemapFromRobots {
			unlisted = append(unlisted, f.Response.URL)
		}
	}
	return all, unlisted
}

// robotsPatch works out the site's robots.txt patch once.
func (s *scan) robotsPatch() *robotsResult {
	if s.robotsDone {
		return s.robots
	}
	s.robotsDone = true
	r := s.site.Robots
	if r == nil {
		return nil
	}
	f := robots.Parse(r)
	if f.State() != robots.Rules || f.HTML() {
		return nil
	}
	res := &robotsResult{file: f, work: robotsWork{paths: s.robotsPaths()}}
	w := &res.work
	if s.open("ai_search_bots_allowed") {
		for _, a := range blocked(f, w.paths, robots.Search) {
			w.allow = append(w.allow, a.Token)
		}
	}
	if s.open("ai_user_fetchers_allowed") {
		for _, a := range blocked(f, w.paths, robots.UserFetch) {
			w.allow = append(w.allow, a.Token)
		}
	}
	if s.open("stale_ai_tokens") {
		w.successors = staleTokens(f)
	}
	if s.open("sitemap_present") {
		if _, unlisted := s.readableSitemaps(); len(unlisted) > 0 && len(f.AllSitemaps()) == 0 {
			w.sitemaps = unlisted
		}
	}
	s.robots = res
	if w.empty() {
		res.err = errNoSafePatch
		return res
	}
	res.patch, res.err = patchRobots(r.Body, *w)
	if res.err != nil {
		return res
	}
	checked := slices.Clone(res.patch.checked)
	checked = append(checked, fmt.Sprintf("Its line numbers are those of the file the scan read (%d lines).", len(res.patch.file.lines)))
	res.artifact = &Artifact{
		Filename: "robots.txt.patch", MediaType: "text/x-diff", Kind: Patch, Location: s.robotsURL(),
		Content: res.patch.diff, Checked: checked,
	}
	return res
}

// findings counts the checks the patch fixes.
func (res *robotsResult) findings() int {
	n := 0
	for _, role := range []robots.Role{robots.Search, robots.UserFetch} {
		if slices.ContainsFunc(res.work.allow, func(t string) bool { a, _ := robots.Lookup(t); return a.Role == role }) {
			n++
		}
	}
	if len(res.work.successors) > 0 {
		n++
	}
	if len(res.work.sitemaps) > 0 {
		n++
	}
	return n
}

// robotsEdits are the patch's changes in words, with a note when the file
// ends its lines with CRLF.
func (res *robotsResult) edits() []string {
	out := res.patch.edits.describe(res.patch.file)
	if res.patch.file.crlf {
		out = append(out, "The file ends its lines with CR LF; apply the patch with `patch --ignore-whitespace -p1` or edit the lines by hand.")
	}
	return out
}

// statusWords says how robots.txt answered, to follow "/robots.txt".
func statusWords(r *fetch.Response) string {
	switch {
	case r.Err != nil:
		return "could not be fetched (" + r.ErrorText() + ")"
	case r.Status == 429:
		return "answered HTTP 429 (too many requests)"
	}
	return fmt.Sprintf("answered HTTP %d", r.Status)
}

func robotsFetchableFix(s *scan, _ checks.Outcome) *Fix {
	r := s.site.Robots
	if r == nil {
		return nil
	}
	f := robots.Parse(r)
	switch f.State() {
	case robots.Unreachable:
		return s.robotsServerFix(r)
	case robots.Unavailable:
		if why := fetch.Refusal(r); why != "" {
			return s.robotsRefusedFix(why)
		}
		return s.newRobotsFix(RobotsMissing, r)
	}
	if f.Oversize() {
		return &Fix{
			Cause: RobotsOversize,
			Summary: Said{
				Engineering: fmt.Sprintf("robots.txt is %d KiB; crawlers read the first %d KiB and ignore every rule after it. Shorten it: replace per-URL rules with path patterns and merge groups that repeat the same rules.", r.Bytes>>10, robots.MaxParseBytes>>10),
				Marketing:   "Your robots.txt file is so long that crawlers stop reading it part way, so its last rules are ignored. Ask your web team to shorten it.",
			},
			PlatformSteps: s.steps(topicRobotsEdit),
			Verify:        []Verification{curlStatus(s.robotsURL(), "the file is served"), rerun("robots_txt_fetchable")},
		}
	}
	return nil
}

// robotsServerFix is the fix of a robots.txt that answers 5xx, 429 or not
// at all: the server's fault, with no rule to change.
func (s *scan) robotsServerFix(r *fetch.Response) *Fix {
	u := s.robotsURL()
	f := &Fix{
		Cause: RobotsServerError,
		Summary: Said{
			Engineering: fmt.Sprintf("/robots.txt %s. RFC 9309 tells crawlers to read that as \"everything disallowed\", so every AI crawler stays away from the whole site, whatever the file says. No rule is at fault and there is nothing to delete: the server must answer %s with 200 and the file.", statusWords(r), u),
			Marketing:   fmt.Sprintf("Your robots.txt file %s, so AI crawlers treat the whole site as off limits. This is a server fault, not a setting: ask your web team or host to make %s load reliably.", marketingStatus(r), u),
		},
		PlatformSteps: s.steps(topicRobotsServe),
	}
	switch {
	case r.Status == 429:
		f.Edits = append(f.Edits, "The server rate-limited the request: exempt /robots.txt from the rate limit (or raise it for that path).")
	case r.Status >= 500:
		f.Edits = append(f.Edits, fmt.Sprintf("Find the HTTP %d for /robots.txt in the server's or CDN's logs at the time of the scan: it names the component that failed (the application, a maintenance page, an upstream timeout).", r.Status))
	case r.Err != nil:
		f.Edits = append(f.Edits, "The request got no HTTP answer at all: check that the server answers /robots.txt within a few seconds, over the same TLS setup as the pages.")
	}
	f.Verify = []Verification{
		{
			Step: Said{
				Engineering: "It answers 200 with text/plain, every time: crawlers read a single 5xx as \"stay away\".",
				Marketing:   fmt.Sprintf("Open %s in a browser a few times: it shows a short text file every time, never an error page.", u),
			},
			Command: "for i in 1 2 3; do curl -sS -o /dev/null -w '%{http_code} %{content_type}\\n' " + shellQuote(u) + "; done",
		},
		curlAgent(u, "OAI-SearchBot", "It answers an AI crawler's user agent the same way."),
		rerun("robots_txt_fetchable", "ai_search_bots_allowed"),
	}
	return f
}

func marketingStatus(r *fetch.Response) string {
	switch {
	case r.Err != nil:
		return "could not be loaded"
	case r.Status == 429:
		return "refused the request as too many (HTTP 429)"
	}
	return fmt.Sprintf("returns a server error (HTTP %d)", r.Status)
}

func (s *scan) robotsRefusedFix(why string) *Fix {
	u := s.robotsURL()
	return &Fix{
		Cause: RobotsRefused,
		Summary: Said{
			Engineering: fmt.Sprintf("The request for %s was refused (%s). Crawlers refused the same way read a 4xx as \"everything allowed\" but never see the policy or the Sitemap records; exempt /robots.txt from the rule that refused it.", u, line(why)),
			Marketing:   fmt.Sprintf("Your firewall or CDN refused GeoScan's request for %s. Ask your web team to let everyone read robots.txt: it is the one file every crawler asks for first.", u),
		},
		PlatformSteps: edgeSteps(s.in.Platform, s.plat),
		Verify:        []Verification{curlAgent(u, "OAI-SearchBot", "An AI crawler's user agent gets the file (200), not a refusal."), rerun("robots_txt_fetchable")},
		Notes:         []string{"Only the requests of this scan were refused; the edge may serve the file to crawlers it verifies by IP address, which the scan cannot tell."},
	}
}

// newRobotsFix offers a robots.txt for a site without one (cause
// RobotsMissing) or with an HTML page in its place (RobotsHTML).
func (s *scan) newRobotsFix(cause Cause, r *fetch.Response) *Fix {
	u := s.robotsURL()
	sitemaps, _ := s.readableSitemaps()
	f := &Fix{Cause: cause, PlatformSteps: s.steps(topicRobotsServe)}
	switch cause {
	case RobotsHTML:
		f.Summary = Said{
			Engineering: fmt.Sprintf("An HTML page answers %s (HTTP %d, %s): a catch-all route serves it, so crawlers find no rules and no Sitemap record. Serve a real text file there; the one below allows everything and lists the sitemaps the scan found.", u, r.Status, nonEmpty(r.ContentType(), "no content type")),
			Marketing:   fmt.Sprintf("Your site shows a web page at %s instead of the small text file crawlers expect there. Ask your web team to publish the file below at that address.", u),
		}
		f.Edits = []string{"Exclude /robots.txt from the route that answers unknown paths with a page, so the static file is served."}
		f.Notes = []string{"The site's own rules could not be read (a page answered), so the file below opens the whole site; add the rules the site needs before publishing it."}
	default:
		f.Summary = Said{
			Engineering: fmt.Sprintf("%s answered HTTP %d. Crawlers read that as \"everything allowed\", so nothing is blocked and no rule needs changing; what is missing is a stated policy and a Sitemap record. Publish the file below.", u, r.Status),
			Marketing:   "Your site has no robots.txt file. That blocks nobody (AI crawlers may read everything), but the file is where crawlers look for your sitemap. Publish the short file below.",
		}
		f.PlatformSteps = s.steps(topicRobotsEdit)
	}
	content, checked, err := newRobotsFile(sitemaps)
	if err != nil {
		f.Notes = append(f.Notes, "No robots.txt could be written that passes the project's robots.txt evaluation: "+errText(err))
	} else {
		f.Artifact = &Artifact{Filename: "robots.txt", MediaType: "text/plain", Kind: File, Location: u, Content: content, Checked: checked}
	}
	if len(sitemaps) == 0 {
		f.Review = append(f.Review, "The scan found no readable sitemap, so the file has no Sitemap line; add `Sitemap: "+s.at("/sitemap.xml")+"` once one is published.")
	}
	f.Verify = []Verification{curlBody(u, "It shows the file above, as text."), rerun("robots_txt_fetchable", "robots_txt_syntax")}
	return f
}

func robotsSyntaxFix(s *scan, o checks.Outcome) *Fix {
	r := s.site.Robots
	if r == nil {
		return nil
	}
	f := robots.Parse(r)
	if f.State() != robots.Rules {
		return nil
	}
	if f.HTML() {
		return s.newRobotsFix(RobotsHTML, r)
	}
	probs := f.Problems()
	fix := &Fix{
		Cause: RobotsSyntax,
		Summary: Said{
			Engineering: line(o.Result.Summary) + " Crawlers skip such lines silently, so the rules they were meant to state do not apply. Fix the lines listed.",
			Marketing:   "Some lines of your robots.txt are written in a way crawlers skip, so rules you think apply may not. Ask whoever manages the file to correct the lines listed in the engineering edition.",
		},
		PlatformSteps: s.steps(topicRobotsEdit),
		Verify:        []Verification{curlBody(s.robotsURL(), "It shows the corrected file."), rerun("robots_txt_syntax")},
	}
	for i, p := range probs {
		if i == 10 {
			fix.Edits = append(fix.Edits, fmt.Sprintf("… and %d more.", len(probs)-10))
			break
		}
		fix.Edits = append(fix.Edits, capitalise(line(p))+".")
	}
	if len(fix.Edits) == 0 {
		return nil
	}
	return fix
}

func robotsAccessFix(s *scan, o checks.Outcome) *Fix {
	r := s.site.Robots
	if r == nil {
		return nil
	}
	f := robots.Parse(r)
	if f.State() == robots.Unreachable {
		return s.robotsServerFix(r)
	}
	if f.State() != robots.Rules {
		return nil
	}
	role := robots.Search
	if o.Check.ID == "ai_user_fetchers_allowed" {
		role = robots.UserFetch
	}
	paths := s.robotsPaths()
	agents := blocked(f, paths, role)
	if len(agents) == 0 {
		return nil
	}
	var who, owners []string
	// The rules that decide, each with the crawlers it blocks.
	type rule struct {
		line      int
		text, grp string
		path      string
	}
	var rules []rule
	blockedBy := map[rule][]string{}
	for _, a := range agents {
		who = append(who, a.Token)
		owners = append(owners, fmt.Sprintf("%s (%s)", a.Token, a.Owner))
		for _, p := range paths {
			if v := f.Allowed(a.Token, p); !v.Allowed {
				r := rule{v.Line, line(v.Rule), v.Group, p}
				if _, ok := blockedBy[r]; !ok {
					rules = append(rules, r)
				}
				blockedBy[r] = append(blockedBy[r], a.Token)
				break
			}
		}
	}
	var deciding []string
	for _, r := range rules {
		deciding = append(deciding, decidingRule(andList(blockedBy[r]), r.path, robots.Verdict{Line: r.line, Rule: r.text, Group: r.grp}))
	}
	fix := &Fix{
		Cause:         RobotsRule,
		PlatformSteps: s.steps(topicRobotsEdit),
		Summary: Said{
			Engineering: fmt.Sprintf("robots.txt blocks %s: %s.", andList(who), strings.Join(deciding, "; ")),
			Marketing:   fmt.Sprintf("Your robots.txt tells %s to stay away, so %s cannot read or quote your pages.", andList(owners), map[bool]string{true: "that service", false: "those services"}[len(owners) == 1]),
		},
		Verify: []Verification{curlBody(s.robotsURL(), "It shows the patched file."), rerun(o.Check.ID)},
	}
	if role == robots.UserFetch {
		var ignoring []string
		for _, a := range agents {
			if !a.HonorsRobots {
				ignoring = append(ignoring, a.Token)
			}
		}
		if len(ignoring) > 0 {
			fix.Notes = append(fix.Notes, fmt.Sprintf("%s may ignore robots.txt for a request a person makes; for them the edge's rules decide as much as this file.", andList(ignoring)))
		}
	}
	s.attachRobotsPatch(fix, "lets them in")
	return fix
}

// attachRobotsPatch gives a fix the site's robots.txt patch, or says why
// there is none.
func (s *scan) attachRobotsPatch(fix *Fix, does string) {
	res := s.robotsPatch()
	switch {
	case res == nil:
	case res.err != nil:
		fix.Notes = append(fix.Notes, "No patch could be written that passes the project's robots.txt evaluation ("+res.err.Error()+"); change the lines named above by hand.")
	default:
		fix.Artifact = res.artifact
		fix.Edits = res.edits()
		fix.Summary.Engineering += " The patch below " + does + " and leaves every other crawler's verdict as it was."
		fix.Summary.Marketing += " The change for whoever manages robots.txt is in the file below."
		if res.findings() > 1 {
			fix.Notes = append(fix.Notes, "The patch also fixes the other robots.txt findings of this scan, so that one patch applies cleanly.")
		}
	}
}

// decidingRule names the rule that blocks crawlers at a path, from the
// verdict: "line 5 (`Disallow: /`) of the OAI-SearchBot group decides
// for OAI-SearchBot at /".
func decidingRule(token, path string, v robots.Verdict) string {
	where := "the * group"
	if v.Group != "*" && v.Group != "" {
		where = "the " + v.Group + " group"
	}
	if v.Line > 0 {
		return fmt.Sprintf("line %d (`%s`) of %s decides for %s at %s", v.Line, line(v.Rule), where, token, path)
	}
	return fmt.Sprintf("%s decides for %s at %s", where, token, path)
}

func staleTokensFix(s *scan, _ checks.Outcome) *Fix {
	r := s.site.Robots
	if r == nil {
		return nil
	}
	f := robots.Parse(r)
	if f.State() != robots.Rules {
		return nil
	}
	pairs := staleTokens(f)
	if len(pairs) == 0 {
		return nil
	}
	var named []string
	for _, p := range pairs {
		named = append(named, fmt.Sprintf("%s (now %s)", p[0], p[1]))
	}
	fix := &Fix{
		Cause: RetiredTokens,
		Summary: Said{
			Engineering: fmt.Sprintf("robots.txt has rules for %s, tokens no crawler sends any more; the live crawlers fall through to other groups.", andList(named)),
			Marketing:   "Your robots.txt sets rules for AI crawlers under names their companies no longer use, so those rules reach nobody.",
		},
		PlatformSteps: s.steps(topicRobotsEdit),
		Verify:        []Verification{curlBody(s.robotsURL(), "It shows the patched file."), rerun("stale_ai_tokens")},
	}
	s.attachRobotsPatch(fix, "adds each successor to the retired token's group, so the rules written for it apply to the crawler in use")
	return fix
}

// Verifications shared by the fixes.

func rerun(ids ...string) Verification {
	return Verification{Step: Said{
		Engineering: "Run the scan again: " + andList(ids) + " " + map[bool]string{true: "passes", false: "pass"}[len(ids) == 1] + ".",
		Marketing:   "Run the scan again: the finding no longer appears.",
	}}
}

func curlStatus(u, what string) Verification {
	return Verification{
		Step:    Said{Engineering: "It answers 200: " + what + ".", Marketing: "Open " + u + " in a browser: " + what + "."},
		Command: "curl -sS -o /dev/null -w '%{http_code} %{content_type}\\n' " + shellQuote(u),
	}
}

func curlBody(u, what string) Verification {
	return Verification{
		Step:    Said{Engineering: what, Marketing: "Open " + u + " in a browser. " + what},
		Command: "curl -sS " + shellQuote(u),
	}
}

// curlAgent fetches u as the AI crawler of token would, with the user
// agent the scan's probes use.
func curlAgent(u, token, what string) Verification {
	ua := token
	for _, b := range fetch.ProbeBots {
		if b.Token == token {
			ua = b.UserAgent
		}
	}
	return Verification{
		Step:    Said{Engineering: what, Marketing: what},
		Command: "curl -sS -o /dev/null -w '%{http_code}\\n' -A " + shellQuote(ua) + " " + shellQuote(u),
	}
}

// Words.

func andList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	case 2:
		return items[0] + " and " + items[1]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func nonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	rs := []rune(s)
	return strings.ToUpper(string(rs[0])) + string(rs[1:])
}
