package agentready

import (
	"context"
	"net/url"
	"sync"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// Purpose labels the fetches of this lens in the evidence.
const Purpose fetch.Purpose = "agent_readiness"

// MaxDocBytes is how much of each file the lens keeps: discovery documents
// are small, and a larger one is judged invalid, not read. A body is still
// bounded as a whole by the fetcher's own size limit.
const MaxDocBytes = 256 << 10

// DefaultBudget bounds the lens's fetches when the caller gives no
// deadline of its own.
const DefaultBudget = 20 * time.Second

// concurrency bounds the lens's requests in flight to the site.
const concurrency = 3

// wellKnown lists, per signal, the paths tried in order (the next only
// when the one before is absent) and the Accept header sent.
var wellKnown = []struct {
	id     string
	paths  []string
	accept string
}{
	{MCPServerCard, []string{"/.well-known/mcp/server-card.json", "/.well-known/mcp.json"}, "application/json"},
	{A2AAgentCard, []string{"/.well-known/agent-card.json", "/.well-known/agent.json"}, "application/json"},
	{AgentSkills, []string{"/.well-known/agent-skills/index.json", "/.well-known/skills/index.json"}, "application/json"},
	{APICatalog, []string{"/.well-known/api-catalog"}, "application/linkset+json, application/json;q=0.9"},
	{OAuthAuthorizationServer, []string{"/.well-known/oauth-authorization-server"}, "application/json"},
	{OAuthProtectedResource, []string{"/.well-known/oauth-protected-resource"}, "application/json"},
	{WebBotAuth, []string{"/.well-known/http-message-signatures-directory"}, "application/http-message-signatures-directory+json, application/json;q=0.9"},
}

// Fetched is what the lens read beyond the audit's own fetch.
type Fetched struct {
	// Markdown is the homepage asked for with Accept: text/markdown.
	Markdown *fetch.Response
	// Files are the /.well-known/ reads per signal id, in the order tried.
	Files map[string][]*fetch.Response
}

// All lists every response, for the report's list of fetches.
func (f *Fetched) All() []*fetch.Response {
	if f == nil {
		return nil
	}
	var out []*fetch.Response
	if f.Markdown != nil {
		out = append(out, f.Markdown)
	}
	for _, w := range wellKnown {
		out = append(out, f.Files[w.id]...)
	}
	return out
}

// Fetch reads, with f, the homepage as Markdown and the /.well-known/
// files of the site. Every request goes through f (netguard's client, its
// size and time limits), as the user agent the audit read the site as,
// at most concurrency at once, each keeping MaxDocBytes of its body. ctx
// bounds the whole: a request it cuts short is recorded with its error,
// and its signal is not_checked.
func Fetch(ctx context.Context, f *fetch.Fetcher, site *fetch.Site) *Fetched {
	if f == nil || site == nil || site.Target == nil {
		return nil
	}
	out := &Fetched{Files: map[string][]*fetch.Response{}}
	ua, agent := "", ""
	if site.AuditedAs != "" && site.Home != nil {
		ua, agent = site.Home.UserAgent, site.Home.Agent
	}
	home := site.Target.String()
	if site.Home != nil && site.Home.FinalURL != "" {
		home = site.Home.FinalURL
	}
	origin := &url.URL{Scheme: "https", Host: site.Target.Host}
	sem := make(chan struct{}, concurrency)
	do := func(r fetch.Request) *fetch.Response {
		r.Purpose, r.UserAgent, r.Agent, r.Keep = Purpose, ua, agent, MaxDocBytes
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return &fetch.Response{Purpose: r.Purpose, URL: r.URL, FinalURL: r.URL, Err: context.Cause(ctx)}
		}
		defer func() { <-sem }()
		return f.Do(ctx, r)
	}

	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Go(func() {
		md := do(fetch.Request{URL: home, Accept: "text/markdown"})
		mu.Lock()
		out.Markdown = md
		mu.Unlock()
	})
	for _, w := range wellKnown {
		wg.Go(func() {
			var tried []*fetch.Response
			for _, p := range w.paths {
				r := do(fetch.Request{URL: origin.ResolveReference(&url.URL{Path: p}).String(), Accept: w.accept})
				tried = append(tried, r)
				if st, _ := classify(r, true); st != absent {
					break
				}
			}
			mu.Lock()
			out.Files[w.id] = tried
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}
