package agentready

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

const origin = "https://shop.test"

func resp(path string, status int, ct, body string) *fetch.Response {
	h := http.Header{}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	return &fetch.Response{URL: origin + path, FinalURL: origin + path, Status: status, Header: h, Body: []byte(body), Bytes: len(body)}
}

const homeHTML = `<!doctype html><html><head><title>Copper Kettle Tea Shop</title>
<link rel="alternate" type="text/markdown" href="/index.md"></head>
<body><main><h1>Copper Kettle Tea Shop</h1><p>Loose leaf oolong, sencha and darjeeling teas, blended by hand
in our harbour workshop and shipped within two days across Europe. Brewing guides for every blend.</p></main></body></html>`

const homeMarkdown = "# Copper Kettle Tea Shop\n\nLoose leaf oolong, sencha and darjeeling teas, blended by hand in our harbour workshop " +
	"and shipped within two days across Europe.\n\n[Brewing guides](/guides) for every blend.\n"

func homeSite(t *testing.T, header http.Header, html string) *fetch.Site {
	t.Helper()
	u, err := url.Parse(origin + "/")
	require.NoError(t, err)
	home := resp("/", 200, "text/html; charset=utf-8", html)
	for k, v := range header {
		home.Header[k] = v
	}
	p, err := page.Parse(home.Body, u)
	require.NoError(t, err)
	return &fetch.Site{Target: u, Home: home, HomePage: p, Parsed: map[*fetch.Response]*page.Page{home: p}}
}

func TestMarkdownNegotiation(t *testing.T) {
	t.Parallel()
	md := func(ct, body string, header ...string) *Fetched {
		r := resp("/", 200, ct, body)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Add(header[i], header[i+1])
		}
		return &Fetched{Markdown: r}
	}
	big := resp("/", 200, "text/markdown", homeMarkdown)
	big.Bytes = 10 << 20
	big.Truncated = true
	big.Err = fmt.Errorf("%w of 5 MiB", fetch.ErrTooLarge)

	tests := []struct {
		name   string
		got    *Fetched
		status Status
		want   string // in the summary or reason
		check  func(t *testing.T, s Signal)
	}{
		{
			name: "markdown with vary and tokens", status: Found, want: "with Vary: Accept",
			got: md("text/markdown; charset=utf-8", homeMarkdown, "Vary", "Accept-Encoding, Accept", "X-Markdown-Tokens", "42"),
			check: func(t *testing.T, s Signal) {
				require.Equal(t, true, s.Evidence["vary_accept"])
				require.Equal(t, 42, s.Evidence["x_markdown_tokens"])
				require.Equal(t, "https://shop.test/index.md", s.Evidence["html_alternate"])
				require.GreaterOrEqual(t, s.Evidence["word_overlap"].(float64), 0.9)
			},
		},
		{
			name: "markdown without vary", status: Found, want: "without Vary: Accept",
			got: md("text/markdown", homeMarkdown),
		},
		{
			name: "html whatever the accept", status: NotFound, want: "answers with text/html",
			got: md("text/html; charset=utf-8", homeHTML),
		},
		{
			name: "406", status: NotFound, want: "HTTP 406",
			got: &Fetched{Markdown: resp("/", 406, "text/plain", "not acceptable")},
		},
		{
			name: "html labelled markdown", status: Invalid, want: "is an HTML page",
			got: md("text/markdown", "<!DOCTYPE html>\n<html><body><p>Copper Kettle Tea Shop</p></body></html>"),
		},
		{
			name: "different content", status: Invalid, want: "says something else",
			got: md("text/markdown", "# Welcome to nginx\n\nIf you see this page, the web server is successfully installed and working. Further configuration is required."),
		},
		{
			name: "huge markdown is compared on its start", status: Found,
			got: &Fetched{Markdown: big},
			check: func(t *testing.T, s Signal) {
				require.Equal(t, len(homeMarkdown), s.Evidence["compared_bytes"])
			},
		},
		{
			name: "server error", status: NotChecked, want: "HTTP 503",
			got: &Fetched{Markdown: resp("/", 503, "text/html", "down")},
		},
		{
			name: "request failed", status: NotChecked, want: "request failed",
			got: &Fetched{Markdown: &fetch.Response{URL: origin + "/", Err: errors.New("connection reset by peer")}},
		},
		{
			name: "budget ran out before the request", status: NotChecked, want: "time",
			got: &Fetched{},
		},
		{name: "not fetched at all", status: NotChecked, want: "not requested as Markdown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := judgeMarkdown(homeSite(t, nil, homeHTML), tt.got)
			require.Equal(t, tt.status, s.Status, s.Summary)
			require.Contains(t, s.Summary+" "+s.Reason, tt.want)
			if tt.status == Invalid || tt.status == NotChecked {
				require.NotEmpty(t, s.Reason)
			}
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

func TestLinkHeadersSignal(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		links  []string
		status Status
	}{
		{"agent links", []string{`</.well-known/api-catalog>; rel="api-catalog"`, `</index.md>; rel=alternate; type="text/markdown"`}, Found},
		{"agent link beside a broken one", []string{`</x>; rel="describedby", <broken; rel=y`}, Found},
		{"only preloads", []string{`</app.css>; rel=preload; as=style`}, NotFound},
		{"no header", nil, NotFound},
		{"nothing parses", []string{`garbage; rel=x`, `<a>; rel="unterminated`}, Invalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			for _, l := range tt.links {
				h.Add("Link", l)
			}
			s := judgeLinks(homeSite(t, h, homeHTML))
			require.Equal(t, tt.status, s.Status, s.Summary)
		})
	}
}

const (
	mcpCard      = `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"test.shop/mcp","version":"1.2.0","remotes":[{"type":"streamable-http","url":"https://shop.test/mcp"}]}`
	a2aCard      = `{"name":"Shop assistant","description":"Orders tea.","url":"https://shop.test/a2a","version":"1.0.0","protocolVersion":"0.3.0","capabilities":{"streaming":false},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"order","name":"Order tea"}]}`
	skillsIndex  = `{"skills":[{"name":"brew-guide","description":"How to brew each tea.","files":["SKILL.md"]}]}`
	apiCatalog   = `{"linkset":[{"anchor":"https://shop.test/api","service-desc":[{"href":"https://shop.test/api/openapi.json","type":"application/openapi+json"}]}]}`
	oauthServer  = `{"issuer":"https://shop.test","authorization_endpoint":"https://shop.test/authorize","token_endpoint":"https://shop.test/token","response_types_supported":["code"]}`
	protectedRes = `{"resource":"https://shop.test/","authorization_servers":["https://shop.test"]}`
	keyDirectory = `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}`
)

func TestWellKnownFiles(t *testing.T) {
	t.Parallel()
	json := "application/json"
	tests := []struct {
		name   string
		id     string
		tried  []*fetch.Response
		status Status
		want   string
	}{
		{"mcp card", MCPServerCard, []*fetch.Response{resp("/.well-known/mcp/server-card.json", 200, json, mcpCard)}, Found, "well formed"},
		{"mcp card at the older path", MCPServerCard, []*fetch.Response{
			resp("/.well-known/mcp/server-card.json", 404, "text/html", "nope"),
			resp("/.well-known/mcp.json", 200, json, `{"serverInfo":{"name":"shop","version":"1"},"transport":{"type":"http","endpoint":"/mcp"}}`),
		}, Found, "/.well-known/mcp.json"},
		{"mcp card without endpoint", MCPServerCard, []*fetch.Response{resp("/.well-known/mcp/server-card.json", 200, json, `{"name":"x","version":"1"}`)}, Invalid, "no endpoint"},
		{"mcp card malformed", MCPServerCard, []*fetch.Response{resp("/.well-known/mcp/server-card.json", 200, json, `{"name":"x",`)}, Invalid, "not a JSON object"},
		{"mcp card is an array", MCPServerCard, []*fetch.Response{resp("/.well-known/mcp/server-card.json", 200, json, `[1,2]`)}, Invalid, "JSON array"},
		{"mcp card is null", MCPServerCard, []*fetch.Response{resp("/.well-known/mcp/server-card.json", 200, json, `null`)}, Invalid, "null"},
		{"spa fallback is a soft 404", MCPServerCard, []*fetch.Response{
			resp("/.well-known/mcp/server-card.json", 200, "text/html", "<!doctype html><html><body>app</body></html>"),
			resp("/.well-known/mcp.json", 200, "text/html", "<!doctype html><html><body>app</body></html>"),
		}, NotFound, "soft 404"},
		{"html labelled json is a soft 404", A2AAgentCard, []*fetch.Response{
			resp("/.well-known/agent-card.json", 200, json, "  <!DOCTYPE html><html><head></head></html>"),
			resp("/.well-known/agent.json", 404, "", ""),
		}, NotFound, "HTTP 404"},
		{"json labelled html is read", APICatalog, []*fetch.Response{resp("/.well-known/api-catalog", 200, "text/html; charset=utf-8", apiCatalog)}, Found, `served as "text/html"; application/linkset+json is expected`},
		{"a2a card", A2AAgentCard, []*fetch.Response{resp("/.well-known/agent-card.json", 200, json, a2aCard)}, Found, "well formed"},
		{
			"a2a card missing members", A2AAgentCard,
			[]*fetch.Response{resp("/.well-known/agent-card.json", 200, json, `{"name":"x","url":"https://shop.test/a2a"}`)},
			Invalid,
			"missing required description, version, capabilities, defaultInputModes, defaultOutputModes, skills",
		},
		{"refused first path", A2AAgentCard, []*fetch.Response{resp("/.well-known/agent-card.json", 403, "text/html", "denied")}, NotChecked, "HTTP 403"},
		{"skills index", AgentSkills, []*fetch.Response{resp("/.well-known/agent-skills/index.json", 200, json, skillsIndex)}, Found, "well formed"},
		{"skills with bad names", AgentSkills, []*fetch.Response{resp("/.well-known/agent-skills/index.json", 200, json,
			`{"skills":[{"name":"Brew Guide","description":"x"},{"name":"ok","description":""},{"name":"-x-","description":"y"},7,{"name":"a--b","description":"z"}]}`)}, Invalid, "and 2 more entries"},
		{"api catalog", APICatalog, []*fetch.Response{resp("/.well-known/api-catalog", 200, "application/linkset+json", apiCatalog)}, Found, "well formed"},
		{"api catalog as plain json", APICatalog, []*fetch.Response{resp("/.well-known/api-catalog", 200, json, apiCatalog)}, Found, "application/linkset+json is expected"},
		{"api catalog without hrefs", APICatalog, []*fetch.Response{resp("/.well-known/api-catalog", 200, "application/linkset+json", `{"linkset":[{"anchor":"https://shop.test/api","item":[{}]}]}`)}, Invalid, "no target with an href"},
		{"oauth server", OAuthAuthorizationServer, []*fetch.Response{resp("/.well-known/oauth-authorization-server", 200, json, oauthServer)}, Found, "well formed"},
		{"oauth server for another issuer", OAuthAuthorizationServer, []*fetch.Response{resp("/.well-known/oauth-authorization-server", 200, json,
			`{"issuer":"https://login.other.test","token_endpoint":"https://login.other.test/token","response_types_supported":["code"]}`)}, Invalid, "RFC 8414 section 3.3"},
		{"protected resource", OAuthProtectedResource, []*fetch.Response{resp("/.well-known/oauth-protected-resource", 200, json, protectedRes)}, Found, "well formed"},
		{"protected resource with bad servers", OAuthProtectedResource, []*fetch.Response{resp("/.well-known/oauth-protected-resource", 200, json, `{"resource":"https://shop.test","authorization_servers":"https://shop.test"}`)}, Invalid, "not an array"},
		{"key directory", WebBotAuth, []*fetch.Response{resp("/.well-known/http-message-signatures-directory", 200, "application/http-message-signatures-directory+json", keyDirectory)}, Found, "well formed"},
		{"key directory without keys", WebBotAuth, []*fetch.Response{resp("/.well-known/http-message-signatures-directory", 200, json, `{"keys":[]}`)}, Invalid, "empty"},
		{"gone", WebBotAuth, []*fetch.Response{resp("/.well-known/http-message-signatures-directory", 410, "", "")}, NotFound, "HTTP 410"},
		{"rate limited", OAuthProtectedResource, []*fetch.Response{resp("/.well-known/oauth-protected-resource", 429, "", "")}, NotChecked, "HTTP 429"},
		{"timed out", APICatalog, []*fetch.Response{{URL: origin + "/.well-known/api-catalog", Err: context.DeadlineExceeded}}, NotChecked, "request failed"},
		{"never requested", APICatalog, nil, NotChecked, "not requested"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := judgeFile(tt.id, tt.tried, origin)
			require.Equal(t, tt.status, s.Status, s.Summary)
			require.Contains(t, s.Summary, tt.want)
			require.Equal(t, s.Status == Invalid || s.Status == NotChecked, s.Reason != "", "a reason exactly when invalid or not checked")
		})
	}
}

// A file larger than what the lens keeps is invalid, however it was cut:
// by the lens's own cap (Keep) or by the fetcher's limit.
func TestHugeFilesAreInvalid(t *testing.T) {
	t.Parallel()
	kept := resp("/.well-known/agent-card.json", 200, "application/json", `{"name":"`+strings.Repeat("x", MaxDocBytes-9))
	kept.Bytes = 3 << 20
	over := resp("/.well-known/agent-card.json", 200, "application/json", `{"name":"`+strings.Repeat("x", 100))
	over.Truncated, over.Err = true, fmt.Errorf("%w of 5 MiB", fetch.ErrTooLarge)
	for _, r := range []*fetch.Response{kept, over} {
		s := judgeFile(A2AAgentCard, []*fetch.Response{r}, origin)
		require.Equal(t, Invalid, s.Status)
		require.Contains(t, s.Reason, "larger than the 256 KiB")
	}
}

func TestWebMCP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		status     Status
		want       string
	}{
		{"declarative form", `<form toolname="order_tea" tooldescription="Order a tea by name"><input name="tea" toolparamdescription="The tea's name"></form>`, Found, "1 form tool"},
		{"script registering tools", `<script>navigator.modelContext.registerTool({name:"search",execute(){}})</script>`, Found, "evidence is weak"},
		{"form without description", `<form toolname="order_tea"></form><form toolname=""></form>`, Invalid, "no tooldescription"},
		{"invented attributes", `<button data-mcp-tool="buy">Buy</button><script src="/app.js"></script>`, NotFound, "weak evidence of absence"},
		{"mention in a string only", `<script>console.log("modelContext")</script>`, NotFound, "declares no WebMCP tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := judgeWebMCP(homeSite(t, nil, "<html><body>"+tt.body+"</body></html>"))
			require.Equal(t, tt.status, s.Status, s.Summary)
			require.Contains(t, s.Summary, tt.want)
		})
	}
}

func robotsSite(t *testing.T, robotsTxt string, llms string, header http.Header) *fetch.Site {
	t.Helper()
	site := homeSite(t, header, homeHTML)
	if robotsTxt != "" {
		site.Robots = resp("/robots.txt", 200, "text/plain", robotsTxt)
	} else {
		site.Robots = resp("/robots.txt", 404, "text/html", "")
	}
	if llms != "" {
		site.LLMsTxt = resp("/llms.txt", 200, "text/markdown", llms)
	} else {
		site.LLMsTxt = resp("/llms.txt", 404, "text/html", "")
	}
	return site
}

func TestContentSignals(t *testing.T) {
	t.Parallel()
	header := func(v string) http.Header { return http.Header{"Content-Signal": {v}} }
	tests := []struct {
		name, robots string
		header       http.Header
		status       Status
		want         string
	}{
		{"robots line", "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n", nil, Found, "ai-input=yes, ai-train=no, search=yes"},
		{"header only", "", header("search=yes, ai-train=no"), Found, "search=yes"},
		{"malformed entry", "User-agent: *\nContent-Signal: search=maybe, ai-train=no\n", nil, Invalid, `"search=maybe"`},
		{"contradiction", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=yes\nAllow: /\n", nil, Invalid, "ai-train=yes, but robots.txt disallows the homepage to GPTBot"},
		{"none", "User-agent: *\nAllow: /\n", nil, NotFound, "No Content-Signal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := judgeContentSignals(robotsSite(t, tt.robots, "", tt.header))
			require.Equal(t, tt.status, s.Status, s.Summary)
			require.Contains(t, s.Summary, tt.want)
		})
	}

	t.Run("robots unreadable and no header", func(t *testing.T) {
		t.Parallel()
		site := robotsSite(t, "", "", nil)
		site.Robots = resp("/robots.txt", 500, "text/html", "")
		require.Equal(t, NotChecked, judgeContentSignals(site).Status)
	})
}

func TestLLMsTxtAgainstRobots(t *testing.T) {
	t.Parallel()
	llms := "# Shop\n\n> Tea.\n\n- [Guides](https://shop.test/guides/): brewing\n- [Wholesale](/wholesale/prices): for shops\n- [Elsewhere](https://other.test/x)\n"
	tests := []struct {
		name, robots, llms string
		status             Status
		want               string
	}{
		{"all allowed", "User-agent: *\nAllow: /\n", llms, Found, "all 2 site URLs"},
		{"blocked for search crawlers", "User-agent: OAI-SearchBot\nDisallow: /wholesale/\n\nUser-agent: *\nAllow: /\n", llms, Invalid, "/wholesale/prices for OAI-SearchBot"},
		{"blocked for training only is policy", "User-agent: GPTBot\nDisallow: /\n", llms, Found, "all 2"},
		{"no robots.txt", "", llms, Found, "unavailable"},
		{"no llms.txt", "User-agent: *\nAllow: /\n", "", NotFound, "no llms.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := judgeLLMsRobots(robotsSite(t, tt.robots, tt.llms, nil))
			require.Equal(t, tt.status, s.Status, s.Summary)
			require.Contains(t, s.Summary, tt.want)
		})
	}
	t.Run("robots unreachable", func(t *testing.T) {
		t.Parallel()
		site := robotsSite(t, "", llms, nil)
		site.Robots = resp("/robots.txt", 503, "text/html", "")
		require.Equal(t, NotChecked, judgeLLMsRobots(site).Status)
	})
}

func TestLevel(t *testing.T) {
	t.Parallel()
	sig := func(pairs ...any) []Signal {
		var out []Signal
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, Signal{ID: pairs[i].(string), Status: pairs[i+1].(Status)})
		}
		return out
	}
	require.Equal(t, LevelNone, LevelOf(nil))
	require.Equal(t, LevelNone, LevelOf(sig(MarkdownNegotiation, Invalid, MCPServerCard, NotChecked)))
	require.Equal(t, LevelBasic, LevelOf(sig(ContentSignals, Found)))
	require.Equal(t, LevelBasic, LevelOf(sig(MarkdownNegotiation, Found, MCPServerCard, Found)), "an interface without discovery")
	require.Equal(t, LevelReady, LevelOf(sig(MarkdownNegotiation, Found, LinkHeaders, Found)))
	require.Equal(t, LevelReady, LevelOf(sig(MarkdownNegotiation, Found, APICatalog, Found, A2AAgentCard, Invalid)))
	require.Equal(t, LevelAdvanced, LevelOf(sig(MarkdownNegotiation, Found, LLMsTxtRobots, Found, WebMCP, Found)))
}

// Without the lens's fetches (a site given to the audit), the signals read
// from the site are judged and the others are not_checked, never
// not_found.
func TestJudgeWithoutFetches(t *testing.T) {
	t.Parallel()
	site := robotsSite(t, "User-agent: *\nContent-Signal: search=yes\n", "", nil)
	r := Judge(site, nil)
	require.Len(t, r.Signals, len(Order))
	for i, s := range r.Signals {
		require.Equal(t, Order[i], s.ID)
		require.NotEmpty(t, s.Summary, s.ID)
		require.NotNil(t, s.Evidence, s.ID)
	}
	require.Equal(t, Found, r.Signal(ContentSignals).Status)
	for _, id := range []string{MarkdownNegotiation, MCPServerCard, A2AAgentCard, APICatalog, WebBotAuth} {
		require.Equal(t, NotChecked, r.Signal(id).Status, id)
	}
	require.Equal(t, LevelBasic, r.Level)
	require.Contains(t, r.Note(), "level basic; found: Content-Signal preferences; not checked: Markdown on request")
}
