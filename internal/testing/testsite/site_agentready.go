package testsite

import (
	"net/http"
	"strings"
)

// The agent-readiness fixtures serve every signal of the agent-readiness
// lens (internal/audit/agentready) three ways:
//
//   - AgentReady (kestrel-tools.test), a tool-hire shop that has done it
//     all: its homepage as Markdown on Accept: text/markdown (Vary: Accept,
//     x-markdown-tokens), Link headers to its API catalog and llms.txt, a
//     Content-Signal line, an llms.txt whose pages robots.txt allows, a
//     WebMCP form tool, and a valid MCP server card, A2A agent card,
//     agent skills index, RFC 9727 API catalog, OAuth authorization server
//     and protected resource metadata, and Web Bot Auth key directory.
//   - AgentBroken (magpie-api.test) declares each of them wrongly: an HTML
//     page labelled text/markdown, Link headers that do not parse, a
//     malformed Content-Signal entry, an llms.txt listing a page robots.txt
//     blocks for OAI-SearchBot, a form tool without a description,
//     malformed JSON, missing members, invalid skill names, an API catalog
//     over the lens's size cap, an issuer of another origin and keys
//     without a type; its protected resource metadata answers 503, so
//     that signal cannot be checked.
//   - AgentNone (plain-pantry.test) declares none of them; its single-page
//     app answers every unknown path with its HTML shell (a soft 404).
//
// AgentTruths gives the status the lens must find for each signal.

// Agent-readiness fixture names.
const (
	AgentReady  = "agentready"  // kestrel-tools.test
	AgentBroken = "agentbroken" // magpie-api.test
	AgentNone   = "agentnone"   // plain-pantry.test
)

// AgentReadiness lists the agent-readiness fixtures. Like Crawl, they are
// kept out of Realistic, whose sites every audit test and golden scans.
var AgentReadiness = []string{AgentReady, AgentBroken, AgentNone}

var agentHosts = map[string]string{
	AgentReady:  "kestrel-tools.test",
	AgentBroken: "magpie-api.test",
	AgentNone:   "plain-pantry.test",
}

// The agent-readiness fixtures join the host table here, beside their own
// definitions, so that Start issues their certificates and resolves them.
func init() {
	for name, host := range agentHosts {
		hosts[name] = host
	}
}

// AgentTruth is the level and the status of every signal the lens must
// find on an agent-readiness fixture.
type AgentTruth struct {
	Site   string
	Level  string
	Status map[string]string
}

// AgentTruths lists the ground truth of each agent-readiness fixture, in
// the order of AgentReadiness. Signal ids are agentready's.
func AgentTruths() []AgentTruth {
	all := func(status string, except map[string]string) map[string]string {
		out := map[string]string{}
		for _, id := range []string{
			"markdown_negotiation", "link_headers", "llms_txt_robots", "content_signals", "api_catalog", "agent_skills",
			"mcp_server_card", "a2a_agent_card", "webmcp", "oauth_authorization_server", "oauth_protected_resource", "web_bot_auth",
		} {
			out[id] = status
		}
		for k, v := range except {
			out[k] = v
		}
		return out
	}
	return []AgentTruth{
		{Site: AgentReady, Level: "advanced", Status: all("found", nil)},
		{Site: AgentBroken, Level: "none", Status: all("invalid", map[string]string{"oauth_protected_resource": "not_checked"})},
		{Site: AgentNone, Level: "none", Status: all("not_found", nil)},
	}
}

// agentPage is the homepage of an agent-readiness fixture.
func agentPage(title, extraHead, body string) string {
	return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title + "</title>\n" +
		"<meta name=\"description\" content=\"" + title + "\">\n" + extraHead +
		"</head>\n<body>\n<main>\n" + body + "\n</main>\n</body>\n</html>\n"
}

// serveAgent answers a request from a table of paths; what is not in it
// is a 404, or the fallback when one is given.
type agentFile struct {
	status int
	ct     string
	body   string
	header map[string]string
}

func serveAgentFiles(files map[string]agentFile, fallback *agentFile) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok {
			if fallback == nil {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte("<!DOCTYPE html><html><body><h1>Not found</h1></body></html>\n"))
				return
			}
			f = *fallback
		}
		for k, v := range f.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", f.ct)
		w.WriteHeader(max(f.status, http.StatusOK))
		if r.Method != http.MethodHead {
			_, _ = w.Write([]byte(f.body))
		}
	}
}

// wantsMarkdown reports a request whose Accept header asks for Markdown.
func wantsMarkdown(r *http.Request) bool {
	return strings.Contains(strings.ToLower(r.Header.Get("Accept")), "text/markdown")
}

func newAgentReady(e *env) *fixture {
	origin := e.origin(agentHosts[AgentReady])
	title := "Kestrel Tools – Power tool hire in Leeds"
	main := "<h1>Kestrel Tools</h1>\n<p>Kestrel Tools hires out professional power tools, from rotary hammers and tile saws to " +
		"floor sanders and pressure washers, by the day or the week. Every tool is serviced and tested between hires, " +
		"and we deliver across Leeds and Bradford before eight in the morning.</p>\n" +
		"<form action=\"/book\" method=\"post\" toolname=\"book_tool_hire\" tooldescription=\"Book a tool for hire by name and date\">\n" +
		"<input name=\"tool\" toolparamdescription=\"The tool's name, e.g. rotary hammer\">\n" +
		"<input name=\"date\" type=\"date\" toolparamdescription=\"The first day of the hire\">\n<button>Book</button>\n</form>"
	home := agentPage(title, "<link rel=\"alternate\" type=\"text/markdown\" href=\"/index.md\">\n", main)
	markdown := "# Kestrel Tools\n\nKestrel Tools hires out professional power tools, from rotary hammers and tile saws to floor " +
		"sanders and pressure washers, by the day or the week. Every tool is serviced and tested between hires, and we deliver " +
		"across Leeds and Bradford before eight in the morning.\n\n- [Book a tool](" + origin + "/book)\n"
	files := map[string]agentFile{
		"/index.md": {ct: "text/markdown; charset=utf-8", body: markdown},
		"/book":     {ct: "text/html; charset=utf-8", body: agentPage("Book a tool | Kestrel Tools", "", "<h1>Book a tool</h1><p>Choose a tool and a date.</p>")},
		"/robots.txt": {ct: "text/plain; charset=utf-8", body: "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n\n" +
			"User-agent: GPTBot\nDisallow: /\n"},
		"/llms.txt": {ct: "text/markdown; charset=utf-8", body: "# Kestrel Tools\n\n> Power tool hire in Leeds and Bradford.\n\n## Pages\n\n" +
			"- [Book a tool](" + origin + "/book): book any tool by name and date\n- [Markdown homepage](/index.md): this site in Markdown\n"},
		"/.well-known/mcp/server-card.json": {ct: "application/json", body: `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",` +
			`"name":"test.kestrel-tools/mcp","title":"Kestrel Tools","version":"2.1.0","description":"Check availability and book tool hire.",` +
			`"remotes":[{"type":"streamable-http","url":"` + origin + `/mcp"}]}`},
		"/.well-known/agent-card.json": {ct: "application/json", body: `{"name":"Kestrel booking agent","description":"Books tool hire.","url":"` + origin + `/a2a",` +
			`"version":"1.0.0","protocolVersion":"0.3.0","capabilities":{"streaming":false},"defaultInputModes":["text/plain"],` +
			`"defaultOutputModes":["text/plain"],"skills":[{"id":"book","name":"Book a tool","description":"Books a tool for hire.","tags":["booking"]}]}`},
		"/.well-known/agent-skills/index.json": {ct: "application/json", body: `{"skills":[{"name":"tool-hire-booking","description":"Book a tool for hire.",` +
			`"files":["SKILL.md"]}]}`},
		"/.well-known/api-catalog": {ct: "application/linkset+json; profile=\"https://www.rfc-editor.org/info/rfc9727\"", body: `{"linkset":[{"anchor":"` + origin + `/api/v1",` +
			`"service-desc":[{"href":"` + origin + `/api/v1/openapi.json","type":"application/openapi+json"}],"service-doc":[{"href":"` + origin + `/api/docs"}]}]}`},
		"/.well-known/oauth-authorization-server": {ct: "application/json", body: `{"issuer":"` + origin + `","authorization_endpoint":"` + origin + `/oauth/authorize",` +
			`"token_endpoint":"` + origin + `/oauth/token","registration_endpoint":"` + origin + `/oauth/register","response_types_supported":["code"],` +
			`"code_challenge_methods_supported":["S256"]}`},
		"/.well-known/oauth-protected-resource": {ct: "application/json", body: `{"resource":"` + origin + `","authorization_servers":["` + origin + `"],` +
			`"bearer_methods_supported":["header"]}`},
		"/.well-known/http-message-signatures-directory": {ct: "application/http-message-signatures-directory+json", body: `{"keys":[{"kty":"OKP","crv":"Ed25519",` +
			`"x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}`},
	}
	serveFiles := serveAgentFiles(files, nil)
	serve := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			serveFiles(w, r)
			return
		}
		w.Header().Set("Vary", "Accept")
		w.Header().Add("Link", `</.well-known/api-catalog>; rel="api-catalog", </llms.txt>; rel="llms-txt"; type="text/markdown"`)
		w.Header().Add("Link", `</index.md>; rel=alternate; type="text/markdown"; title="Kestrel Tools, in Markdown"`)
		if wantsMarkdown(r) {
			w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
			w.Header().Set("X-Markdown-Tokens", "96")
			_, _ = w.Write([]byte(markdown))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(home))
	}
	return &fixture{name: AgentReady, host: agentHosts[AgentReady], serve: serve}
}

func newAgentBroken(e *env) *fixture {
	origin := e.origin(agentHosts[AgentBroken])
	title := "Magpie API – Price data for collectors"
	main := "<h1>Magpie API</h1>\n<p>Magpie collects auction prices for coins, stamps and banknotes from forty auction houses and " +
		"publishes them through a simple API for dealers and collectors.</p>\n" +
		"<form action=\"/search\" toolname=\"search_prices\"><input name=\"q\"></form>"
	home := agentPage(title, "", main)
	catalog := `{"linkset":[` + strings.Repeat(`{"anchor":"`+origin+`/api","service-desc":[{"href":"`+origin+`/openapi.json"}]},`, 4000) + `{}]}`
	files := map[string]agentFile{
		"/robots.txt": {ct: "text/plain; charset=utf-8", body: "User-agent: OAI-SearchBot\nDisallow: /members/\n\n" +
			"User-agent: *\nContent-Signal: search=maybe, ai-train=no\nAllow: /\n"},
		"/llms.txt":                            {ct: "text/markdown; charset=utf-8", body: "# Magpie API\n\n> Auction price data.\n\n- [Price reports](" + origin + "/members/reports): monthly reports\n"},
		"/.well-known/mcp/server-card.json":    {ct: "application/json", body: `{"name": "magpie", "version": "1.0", "remotes": [`},
		"/.well-known/agent-card.json":         {ct: "application/json", body: `{"name":"Magpie","url":"` + origin + `/a2a"}`},
		"/.well-known/agent-skills/index.json": {ct: "application/json", body: `{"skills":[{"name":"Price Search","description":"Search prices."}]}`},
		"/.well-known/api-catalog":             {ct: "application/linkset+json", body: catalog},
		"/.well-known/oauth-authorization-server": {ct: "application/json", body: `{"issuer":"https://login.magpie-auth.test","token_endpoint":"https://login.magpie-auth.test/token",` +
			`"response_types_supported":["code"]}`},
		"/.well-known/oauth-protected-resource":          {status: http.StatusServiceUnavailable, ct: "text/plain", body: "maintenance"},
		"/.well-known/http-message-signatures-directory": {ct: "application/http-message-signatures-directory+json", body: `{"keys":[{"crv":"Ed25519","x":"abc"}]}`},
	}
	serveFiles := serveAgentFiles(files, nil)
	serve := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			serveFiles(w, r)
			return
		}
		w.Header().Add("Link", `not-a-link; rel=describedby, <`+origin+`/openapi.json; rel="service-desc`)
		if wantsMarkdown(r) {
			// The HTML page, labelled Markdown.
			w.Header().Set("Content-Type", "text/markdown")
			_, _ = w.Write([]byte(home))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(home))
	}
	return &fixture{name: AgentBroken, host: agentHosts[AgentBroken], serve: serve}
}

func newAgentNone(e *env) *fixture {
	title := "Plain Pantry – Weekly vegetable boxes"
	canonical := "<link rel=\"canonical\" href=\"" + e.origin(agentHosts[AgentNone]) + "/\">\n"
	shell := agentPage(title, canonical+"<script src=\"/app.js\" defer></script>\n",
		"<h1>Plain Pantry</h1>\n<p>Seasonal vegetable boxes from three farms near York, delivered every Thursday.</p>")
	files := map[string]agentFile{
		"/robots.txt": {ct: "text/plain; charset=utf-8", body: "User-agent: *\nAllow: /\n"},
		"/llms.txt":   {status: http.StatusNotFound, ct: "text/plain", body: "not found"},
		"/app.js":     {ct: "text/javascript", body: "document.title = document.title;\n"},
	}
	// A single-page app: every other path is its HTML shell, 200.
	serve := serveAgentFiles(files, &agentFile{ct: "text/html; charset=utf-8", body: shell})
	return &fixture{name: AgentNone, host: agentHosts[AgentNone], serve: serve}
}
