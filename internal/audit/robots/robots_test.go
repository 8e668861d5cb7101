package robots

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

func fetched(status int, body string, err error) *fetch.Response {
	h := http.Header{}
	h.Set("Content-Type", "text/plain")
	return &fetch.Response{
		Purpose: fetch.Robots, URL: "https://example.com/robots.txt", Status: status,
		Header: h, Body: []byte(body), Bytes: len(body), Err: err,
	}
}

func TestExactTokenMatching(t *testing.T) {
	f := ParseBody("User-agent: bot\nDisallow: /\n\nUser-agent: GPT\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
	v := f.Allowed("GPTBot", "/")
	if !v.Allowed || v.Group != "*" {
		t.Fatalf("GPTBot must fall to the * group, not match bot or GPT: %+v", v)
	}
	if v := f.Allowed("bot", "/page"); v.Allowed || v.Group != "bot" {
		t.Fatalf("bot is named exactly: %+v", v)
	}
	// Case-insensitive equality, and a version suffix names the same token.
	f = ParseBody("User-agent: gptbot/1.2\nDisallow: /private\n")
	if v := f.Allowed("GPTBot", "/private/x"); v.Allowed || v.Group != "gptbot" || v.Rule != "Disallow: /private" || v.Line != 2 {
		t.Fatalf("case-insensitive token: %+v", v)
	}
}

func TestLongestMatchAndTies(t *testing.T) {
	f := ParseBody(strings.Join([]string{
		"User-agent: *",
		"Disallow: /shop",
		"Allow: /shop/public",
		"Disallow: /page",
		"Allow: /page",
		"Disallow: /*.pdf$",
		"Allow: /docs/*",
		"Disallow: /docs/private",
	}, "\n"))
	cases := []struct {
		path    string
		allowed bool
		rule    string
	}{
		{"/shop/cart", false, "Disallow: /shop"},
		{"/shop/public/item", true, "Allow: /shop/public"},
		{"/page", true, "Allow: /page"}, // tie: Allow wins
		{"/files/report.pdf", false, "Disallow: /*.pdf$"},
		{"/files/report.pdf?x=1", true, ""}, // $ anchors the end
		{"/docs/private/a", false, "Disallow: /docs/private"},
		{"/docs/guide", true, "Allow: /docs/*"},
		{"/other", true, ""},
		{"/robots.txt", true, ""},
	}
	for _, c := range cases {
		v := f.Allowed("AnyBot", c.path)
		if v.Allowed != c.allowed || v.Rule != c.rule {
			t.Errorf("%s: got allowed=%v rule=%q, want %v %q (%s)", c.path, v.Allowed, v.Rule, c.allowed, c.rule, v.Reason)
		}
	}
}

func TestMatches(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/anything", true},
		{"/$", "/", true},
		{"/$", "/a", false},
		{"*", "/a", true},
		{"/a*b$", "/axxb", true},
		{"/a*b$", "/axxbc", false},
		{"/a*b*c", "/a-b-c-d", true},
		{"/fish*.php", "/fish/salmon.php?x", true},
		{"/fish*.php", "/Fish.php", false},
		{"/x$y", "/x$y", true}, // $ only special at the end
	}
	for _, c := range cases {
		f := ParseBody("User-agent: *\nDisallow: " + c.pattern + "\n")
		if got := !f.Allowed("x", c.path).Allowed; got != c.want {
			t.Errorf("Disallow: %s matching %s = %v", c.pattern, c.path, got)
		}
	}
}

func TestPercentEncoding(t *testing.T) {
	// Patterns and paths are compared after percent-normalization, so an
	// escaped unreserved character matches its literal.
	f := ParseBody("User-agent: *\nDisallow: /café\nDisallow: /%7ejoe\n")
	if v := f.Allowed("x", "/caf%C3%A9/menu"); v.Allowed {
		t.Fatalf("UTF-8 pattern must match its encoded form: %+v", v)
	}
	if v := f.Allowed("x", "/~joe/"); v.Allowed {
		t.Fatalf("an escaped pattern matches the same escape: %+v", v)
	}
}

func TestGroupMerging(t *testing.T) {
	f := ParseBody("User-agent: GPTBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n\nUser-agent: gptbot\nDisallow: /b\n")
	if v := f.Allowed("GPTBot", "/b/1"); v.Allowed {
		t.Fatalf("groups naming one token merge: %+v", v)
	}
	if v := f.Allowed("GPTBot", "/c"); !v.Allowed || v.Group != "GPTBot" {
		t.Fatalf("the * group does not apply to a named token: %+v", v)
	}
	// Consecutive user-agent lines share one group.
	f = ParseBody("User-agent: OAI-SearchBot\nUser-agent: PerplexityBot\nDisallow: /\n")
	if f.Allowed("PerplexityBot", "/").Allowed || f.Allowed("OAI-SearchBot", "/").Allowed {
		t.Fatal("both agents of a group share its rules")
	}
	if !f.Allowed("Claude-SearchBot", "/").Allowed {
		t.Fatal("no group and no * group allows everything")
	}
	if got, want := f.Groups(), []string{"OAI-SearchBot", "PerplexityBot"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Groups() = %v", got)
	}
}

func TestApplebotFallsBackToGooglebot(t *testing.T) {
	f := ParseBody("User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
	if v := f.Allowed("Applebot", "/"); v.Allowed || v.Group != "Googlebot" {
		t.Fatalf("Applebot follows Googlebot's group: %+v", v)
	}
	f = ParseBody("User-agent: Googlebot\nDisallow: /\n\nUser-agent: Applebot\nAllow: /\n")
	if !f.Allowed("Applebot", "/").Allowed {
		t.Fatal("its own group wins over the fallback")
	}
}

func TestFetchStates(t *testing.T) {
	cases := []struct {
		name    string
		resp    *fetch.Response
		state   State
		allowed bool
	}{
		{"404 allows all", fetched(404, "not found", nil), Unavailable, true},
		{"410 allows all", fetched(410, "", nil), Unavailable, true},
		{"503 disallows all", fetched(503, "", nil), Unreachable, false},
		{"500 disallows all", fetched(500, "User-agent: *\nAllow: /", nil), Unreachable, false},
		{"429 like 5xx", fetched(429, "", nil), Unreachable, false},
		{"network error", fetched(0, "", errors.New("dial tcp: connection refused")), Unreachable, false},
		{"nil", nil, Unreachable, false},
		{"200 rules", fetched(200, "User-agent: *\nDisallow: /", nil), Rules, false},
		{"200 empty", fetched(200, "", nil), Rules, true},
		{"too many redirects", fetched(0, "", fmt.Errorf("Get: %w", errors.New("stopped after 5 redirects"))), Unavailable, true},
	}
	for _, c := range cases {
		f := Parse(c.resp)
		if f.State() != c.state {
			t.Errorf("%s: state %s, want %s", c.name, f.State(), c.state)
		}
		v := f.Allowed("OAI-SearchBot", "/")
		if v.Allowed != c.allowed {
			t.Errorf("%s: allowed %v (%s)", c.name, v.Allowed, v.Reason)
		}
		if c.state != Rules && v.Reason == "" {
			t.Errorf("%s: no reason", c.name)
		}
	}
}

func TestOversizeIgnoresTail(t *testing.T) {
	body := "User-agent: *\nAllow: /\n" + strings.Repeat("# padding\n", MaxParseBytes/10+10) + "Disallow: /late\n"
	f := Parse(fetched(200, body, nil))
	if !f.Oversize() || !f.Allowed("x", "/late").Allowed {
		t.Fatalf("rules past %d bytes are ignored: oversize=%v", MaxParseBytes, f.Oversize())
	}
}

func TestContentSignals(t *testing.T) {
	f := ParseBody("User-agent: *\nContent-Signal: search=yes, ai-input=yes, AI-Train=no\nContent-Signal: search=no\nAllow: /\n")
	want := map[string]string{"search": "yes", "ai-input": "yes", "ai-train": "no"}
	if got := f.ContentSignals(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ContentSignals() = %v", got)
	}
	if len(f.Problems()) != 0 {
		t.Fatalf("Content-Signal is a known record: %v", f.Problems())
	}
	f = ParseBody("Content-Signal: search=maybe\n")
	if len(f.ContentSignals()) != 0 || len(f.Problems()) != 1 {
		t.Fatalf("invalid value: %v %v", f.ContentSignals(), f.Problems())
	}
}

func TestSitemapsAndProblems(t *testing.T) {
	f := ParseBody(strings.Join([]string{
		"Disallow: /early",
		"Sitemap: https://example.com/sitemap.xml",
		"User-agent: *",
		"Disallow: private",
		"Crawl-delay: 10",
		"Dissallow: /x",
		"Foo: bar",
		"Noindex: /y",
		"just text",
		"Sitemap: /relative.xml",
	}, "\n"))
	if got := f.Sitemaps(); !reflect.DeepEqual(got, []string{"https://example.com/sitemap.xml"}) {
		t.Fatalf("Sitemaps() = %v", got)
	}
	probs := strings.Join(f.Problems(), "\n")
	for _, want := range []string{"line 1:", "before any User-agent", "line 4:", "does not start with /", "misspelling of Disallow", `unknown directive "foo"`, "Google stopped honoring", "line 9:", "not an absolute"} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems miss %q:\n%s", want, probs)
		}
	}
	if strings.Contains(probs, "crawl-delay") {
		t.Errorf("Crawl-delay is a known extension:\n%s", probs)
	}
	if !f.Allowed("x", "/early").Allowed {
		t.Error("a rule before any group applies to nobody")
	}
}

func TestHTMLServedAsRobots(t *testing.T) {
	r := fetched(200, "<!DOCTYPE html><html><head><title>Home</title></head><body>Hi: there</body></html>", nil)
	r.Header.Set("Content-Type", "text/html")
	f := Parse(r)
	if !f.HTML() || len(f.Problems()) != 1 {
		t.Fatalf("HTML body: html=%v problems=%v", f.HTML(), f.Problems())
	}
	if !f.Allowed("GPTBot", "/").Allowed {
		t.Fatal("an HTML page has no rules, so everything is allowed")
	}
	// Rules labelled text/html are still rules.
	r = fetched(200, "User-agent: *\nDisallow: /\n", nil)
	r.Header.Set("Content-Type", "text/html; charset=utf-8")
	f = Parse(r)
	if f.HTML() || f.Allowed("GPTBot", "/").Allowed || len(f.Problems()) != 1 || !strings.Contains(f.Problems()[0], "text/html") {
		t.Fatalf("text/html label: html=%v problems=%v", f.HTML(), f.Problems())
	}
}

func TestAgentTable(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range Agents {
		k := strings.ToLower(a.Token)
		if seen[k] {
			t.Errorf("duplicate token %s", a.Token)
		}
		seen[k] = true
		if a.Retired {
			if _, ok := Lookup(a.Successor); !ok {
				t.Errorf("%s: successor %q is not in the table", a.Token, a.Successor)
			}
		}
		if a.Core && a.Role != Search {
			t.Errorf("%s: core agents are search crawlers", a.Token)
		}
	}
	var core []string
	for _, a := range ByRole(Search) {
		if a.Core {
			core = append(core, a.Token)
		}
	}
	want := []string{"OAI-SearchBot", "Claude-SearchBot", "PerplexityBot", "Googlebot", "Bingbot", "Applebot"}
	if !reflect.DeepEqual(core, want) {
		t.Fatalf("core search bots = %v", core)
	}
	if len(RetiredAgents()) != 3 {
		t.Fatalf("retired = %v", RetiredAgents())
	}
	for _, tok := range []string{"Google-Extended", "Applebot-Extended"} {
		if a, _ := Lookup(tok); a.Role != Control {
			t.Errorf("%s is a control token", tok)
		}
	}
}

// The symptoms of the real web: files whose structure only Google's
// reading finds. Verdicts must be the matcher's even when nothing looks
// like a well-formed group.
func TestVerdictsFollowGoogleWhereTheFileIsMalformed(t *testing.T) {
	cases := []struct {
		name, robots, token, path string
		allowed                   bool
		problem                   string // a fragment of the expected problem
	}{
		{"user agent with a space", "User agent: *\nDisallow: /\n", "GPTBot", "/", false, "misspelling of User-agent"},
		{"useragent in one word", "Useragent: GPTBot\nDisallow: /\n", "GPTBot", "/a", false, "misspelling of User-agent"},
		{"missing colon", "User-agent: *\ndisallow /\n", "OAI-SearchBot", "/page", false, "has no colon"},
		{"missing colons everywhere", "user-agent PerplexityBot\ndisallow /\n", "PerplexityBot", "/", false, "has no colon"},
		{"typo Google accepts", "User-agent: *\nDissallow: /private\n", "ClaudeBot", "/private/x", false, "misspelling of Disallow"},
		{"Applebot falls back through a typo", "Useragent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "Applebot", "/", false, "misspelling of User-agent"},
		{"no group at all", "Disallow: /\n", "GPTBot", "/", true, "before any User-agent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := ParseBody(c.robots)
			v := f.Allowed(c.token, c.path)
			if v.Allowed != c.allowed {
				t.Fatalf("%s %s: allowed=%v, want %v (%s)", c.token, c.path, v.Allowed, c.allowed, v.Reason)
			}
			if !c.allowed && (v.Line == 0 || v.Rule == "") {
				t.Errorf("the deciding line is named: %+v", v)
			}
			if p := strings.Join(f.Problems(), "\n"); !strings.Contains(p, c.problem) {
				t.Errorf("problems miss %q:\n%s", c.problem, p)
			}
		})
	}
}

func TestPartialByteOrderMarkAsFetched(t *testing.T) {
	for _, bom := range []string{"\xEF\xBB\xBF", "\xEF\xBB", "\xEF"} {
		f := Parse(fetched(200, bom+"User-agent: *\nDisallow: /private/\n", nil))
		if v := f.Allowed("GPTBot", "/private/a"); v.Allowed || v.Line != 2 {
			t.Errorf("BOM %q: %+v", bom, v)
		}
		if len(f.Problems()) != 0 || !reflect.DeepEqual(f.Groups(), []string{"*"}) {
			t.Errorf("BOM %q: problems %v groups %v", bom, f.Problems(), f.Groups())
		}
	}
}

func TestEveryLineEndingNormalizesPatterns(t *testing.T) {
	for name, eol := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		f := ParseBody("User-agent: *" + eol + "Disallow: /%7ejoe" + eol + "Allow: /caf%c3%a9" + eol + "Disallow: /café/private" + eol)
		if v := f.Allowed("GPTBot", "/~joe/index.html"); v.Allowed || v.Line != 2 {
			t.Errorf("%s: /%%7ejoe must match /~joe/: %+v", name, v)
		}
		if v := f.Allowed("GPTBot", "https://example.com/caf%C3%A9/private/x"); v.Allowed || v.Line != 4 {
			t.Errorf("%s: a UTF-8 pattern matches the encoded request: %+v", name, v)
		}
		if v := f.Allowed("GPTBot", "/other"); !v.Allowed {
			t.Errorf("%s: /other: %+v", name, v)
		}
	}
}

func TestStrayPercentSignsDoNotDisallow(t *testing.T) {
	f := ParseBody("User-agent: *\nDisallow: /private\nDisallow: /50%off\n")
	if v := f.Allowed("GPTBot", "/100%"); !v.Allowed {
		t.Fatalf("a path with a stray %% is still matched, not refused: %+v", v)
	}
	if v := f.Allowed("GPTBot", "/50%off/deal"); v.Allowed || v.Line != 3 {
		t.Fatalf("a pattern with a stray %% matches the same path: %+v", v)
	}
}

func TestNewRecordsAreValidAndReported(t *testing.T) {
	f := ParseBody(strings.Join([]string{
		"# As published by sites in 2025",
		"User-agent: *",
		"Content-Signal: search=yes, ai-train=no",
		"Content-Usage: train-ai=n",
		"Content-Usage: /blog/ train-ai=y",
		"Agentmap: https://example.com/agentmap.json",
		"License: https://example.com/license.xml",
		"Crawl-delay: 5",
		"Allow: /",
	}, "\n"))
	if len(f.Problems()) != 0 {
		t.Fatalf("new records are not errors: %v", f.Problems())
	}
	var got []string
	for _, e := range f.Extensions() {
		got = append(got, e.String())
	}
	want := []string{
		"line 3: Content-Signal: search=yes, ai-train=no", "line 4: Content-Usage: train-ai=n", "line 5: Content-Usage: /blog/ train-ai=y",
		"line 6: Agentmap: https://example.com/agentmap.json", "line 7: License: https://example.com/license.xml", "line 8: Crawl-delay: 5",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Extensions() = %q", got)
	}
	if f.Directives() != 8 || f.Lines() != 8 {
		t.Fatalf("directives %d, lines %d", f.Directives(), f.Lines())
	}
	if v := f.Allowed("GPTBot", "/blog/x"); !v.Allowed || v.Line != 9 {
		t.Fatalf("the extensions do not end the group: %+v", v)
	}
}
