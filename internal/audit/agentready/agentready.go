// Package agentready reads how ready a site is for AI agents that act on
// it, beyond crawlers that read it: Markdown served on request, Link
// headers and /.well-known/ files that point agents at machine-readable
// resources (an MCP server card, an A2A agent card, an agent skills index,
// an RFC 9727 API catalog, OAuth metadata, a Web Bot Auth key directory),
// WebMCP tools declared in the HTML, Content-Signal preferences, and
// whether robots.txt lets AI crawlers read what llms.txt lists.
//
// These signals are emerging and few agents use them, so the lens is shown
// in the report and never scored: nothing here reaches the rings. Fetch
// reads the few extra files through the audit's guarded fetcher, within
// the fetcher's limits and a size cap of its own; Judge is a pure function
// of the site as read and those files. A file that could not be read (an
// error, the time budget, a server error, a refusal) makes its signal
// not_checked, never not_found.
package agentready

import (
	"slices"
	"strings"
)

// Status is what a signal's check found.
type Status string

// The statuses of a signal.
const (
	// Found: the site declares the signal, and what it declares is well
	// formed.
	Found Status = "found"
	// NotFound: the site does not declare it (a 404, no header, no line).
	NotFound Status = "not_found"
	// Invalid: the site declares it, but the declaration is malformed or
	// contradicts itself; Reason says how.
	Invalid Status = "invalid"
	// NotChecked: what the signal needs could not be read (an error, the
	// time budget, a server error or a refusal).
	NotChecked Status = "not_checked"
)

// The signal ids, in the order the report lists them.
const (
	MarkdownNegotiation      = "markdown_negotiation"
	LinkHeaders              = "link_headers"
	LLMsTxtRobots            = "llms_txt_robots"
	ContentSignals           = "content_signals"
	APICatalog               = "api_catalog"
	AgentSkills              = "agent_skills"
	MCPServerCard            = "mcp_server_card"
	A2AAgentCard             = "a2a_agent_card"
	WebMCP                   = "webmcp"
	OAuthAuthorizationServer = "oauth_authorization_server"
	OAuthProtectedResource   = "oauth_protected_resource"
	WebBotAuth               = "web_bot_auth"
)

// Order is every signal id in report order.
var Order = []string{
	MarkdownNegotiation, LinkHeaders, LLMsTxtRobots, ContentSignals,
	APICatalog, AgentSkills, MCPServerCard, A2AAgentCard, WebMCP,
	OAuthAuthorizationServer, OAuthProtectedResource, WebBotAuth,
}

// Titles name each signal for a reader.
var Titles = map[string]string{
	MarkdownNegotiation:      "Markdown on request (Accept: text/markdown)",
	LinkHeaders:              "Link headers to agent resources",
	LLMsTxtRobots:            "llms.txt agrees with robots.txt",
	ContentSignals:           "Content-Signal preferences",
	APICatalog:               "API catalog (RFC 9727)",
	AgentSkills:              "Agent skills index",
	MCPServerCard:            "MCP server card",
	A2AAgentCard:             "A2A agent card",
	WebMCP:                   "WebMCP tools in the page",
	OAuthAuthorizationServer: "OAuth authorization server metadata (RFC 8414)",
	OAuthProtectedResource:   "OAuth protected resource metadata (RFC 9728)",
	WebBotAuth:               "Web Bot Auth key directory",
}

// Signal is one agent-readiness signal as judged.
type Signal struct {
	ID       string
	Status   Status
	Summary  string
	Evidence map[string]any
	// Reason says what is wrong when Status is Invalid, and why the
	// signal could not be checked when it is NotChecked.
	Reason string
}

// Level is how far a site has gone for agents.
type Level string

// The levels, lowest first (docs/SCORING.md, "Agent readiness").
const (
	// LevelNone: no signal was found.
	LevelNone Level = "none"
	// LevelBasic: at least one signal was found.
	LevelBasic Level = "basic"
	// LevelReady: the homepage is served as Markdown on request, and agents
	// can discover the site's resources (agent Link headers, an API
	// catalog, an agent skills index, or an llms.txt that robots.txt lets
	// AI crawlers follow).
	LevelReady Level = "ready"
	// LevelAdvanced: ready, and the site offers agents an interface to act
	// through (an MCP server card, an A2A agent card or WebMCP tools).
	LevelAdvanced Level = "advanced"
)

// Result is the lens: the level and every signal in Order.
type Result struct {
	Level   Level
	Signals []Signal
}

// Signal returns the signal with id, or the zero Signal.
func (r Result) Signal(id string) Signal {
	for _, s := range r.Signals {
		if s.ID == id {
			return s
		}
	}
	return Signal{}
}

// discovery are the signals that let an agent find the site's resources.
var discovery = []string{LinkHeaders, APICatalog, AgentSkills, LLMsTxtRobots}

// interfaces are the signals that let an agent act on the site.
var interfaces = []string{MCPServerCard, A2AAgentCard, WebMCP}

// LevelOf is the level of a set of signals. Only found signals count: an
// invalid declaration or one not checked raises nothing.
func LevelOf(signals []Signal) Level {
	found := map[string]bool{}
	for _, s := range signals {
		if s.Status == Found {
			found[s.ID] = true
		}
	}
	any := func(ids []string) bool { return slices.ContainsFunc(ids, func(id string) bool { return found[id] }) }
	switch {
	case len(found) == 0:
		return LevelNone
	case !found[MarkdownNegotiation] || !any(discovery):
		return LevelBasic
	case any(interfaces):
		return LevelAdvanced
	}
	return LevelReady
}

// Labels name each signal in running text.
var Labels = map[string]string{
	MarkdownNegotiation:      "Markdown on request",
	LinkHeaders:              "agent Link headers",
	LLMsTxtRobots:            "llms.txt matching robots.txt",
	ContentSignals:           "Content-Signal preferences",
	APICatalog:               "API catalog",
	AgentSkills:              "agent skills index",
	MCPServerCard:            "MCP server card",
	A2AAgentCard:             "A2A agent card",
	WebMCP:                   "WebMCP tools",
	OAuthAuthorizationServer: "OAuth server metadata",
	OAuthProtectedResource:   "OAuth resource metadata",
	WebBotAuth:               "Web Bot Auth keys",
}

// Note is the lens in one sentence, for the triage dossier: the level,
// and the signals found, invalid or not checked, in words. "" for a nil
// Result.
func (r *Result) Note() string {
	if r == nil {
		return ""
	}
	by := map[Status][]string{}
	for _, s := range r.Signals {
		by[s.Status] = append(by[s.Status], Labels[s.ID])
	}
	note := "Agent readiness (emerging signals, shown for information and not scored): level " + string(r.Level)
	for _, part := range []struct {
		status Status
		label  string
	}{{Found, "found"}, {Invalid, "declared but invalid"}, {NotChecked, "not checked"}} {
		if labels := by[part.status]; len(labels) > 0 {
			note += "; " + part.label + ": " + strings.Join(labels, ", ")
		}
	}
	return note + "."
}
