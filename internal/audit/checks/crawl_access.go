package checks

import (
	"fmt"
	"math"
	"net/url"
	"sort"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The crawl_access pillar: are AI search engines and assistants allowed
// in, and do they get through? It reads robots.txt per crawler role
// (RFC 9309) and compares what the edge answers AI user agents with what
// it answers a browser.
const pillarCrawlAccess = "crawl_access"

// crawlAccessChecks returns the pillar's checks in report order.
func crawlAccessChecks() []*Check {
	return []*Check{
		robotsTxtFetchableCheck(),
		robotsTxtSyntaxCheck(),
		aiSearchBotsAllowedCheck(),
		aiUserFetchersAllowedCheck(),
		aiTrainingPolicyCheck(),
		staleAITokensCheck(),
		edgeBotReachabilityCheck(),
		contentSignalsCheck(),
	}
}

func robotsTxtFetchableCheck() *Check {
	return &Check{
		ID: "robots_txt_fetchable", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 5, Effort: Low,
		Marketing: Text{
			Title: "robots.txt loads",
			Why:   "Every AI search engine reads robots.txt before anything else. If it errors out, well-behaved crawlers treat the whole site as off limits and stop visiting.",
			Fix:   "Ask your web team or host to make sure yoursite.com/robots.txt loads quickly as a small text file, even during traffic peaks, and never shows an error page.",
		},
		Engineering: Text{
			Title: "/robots.txt answers 2xx",
			Why:   "RFC 9309 treats a 5xx, timeout or network error on /robots.txt as \"unreachable\" (crawlers must assume full disallow) and a 4xx as \"unavailable\" (everything allowed, but no policy and no Sitemap records). Only the first 500 KiB is parsed.",
			Fix:   "Serve /robots.txt as a static text/plain file with 200 from the origin or CDN edge; exempt it from WAF challenges and rate limits; keep it under 500 KiB; instead of a 404, publish `User-agent: *`, `Allow: /` and a `Sitemap:` line.",
		},
		Eval: evalRobotsTxtFetchable,
	}
}

func evalRobotsTxtFetchable(in *Input) Result {
	r := siteOf(in).Robots
	if r == nil {
		return na("robots.txt was not fetched in this scan.", ev("url", "/robots.txt"))
	}
	f := robots.Parse(r)
	e := ev("url", r.URL, "final_url", r.FinalURL, "status", r.Status, "bytes", r.Bytes,
		"content_type", r.ContentType(), "redirects", chainRows(r.Redirects), "ms", r.Duration.Milliseconds(), "state", string(f.State()))
	if r.Err != nil {
		e["error"] = r.ErrorText()
	}
	who := "GeoScan"
	if r.Agent != "" {
		who = "a browser"
	}
	e["fetched_as"] = who
	switch f.State() {
	case robots.Unreachable:
		return fail(f.StateReason()+".", e)
	case robots.Unavailable:
		if why := fetch.Refusal(r); why != "" {
			// A refusal of this request is no statement about the file:
			// the site may serve it to others.
			e["refusal"] = why
			return warn(fmt.Sprintf("robots.txt refused the request made as %s (%s), so its rules could not be read; crawlers refused the same way may treat the site as open to all (RFC 9309 reads a 4xx so).", who, why), e)
		}
		return warn(f.StateReason()+", but the site states no crawler policy and lists no sitemap there.", e)
	}
	if f.Oversize() {
		return warn(fmt.Sprintf("robots.txt answered HTTP %d but is %d KiB, over the %d KiB crawlers read; rules after that point are ignored.",
			r.Status, r.Bytes>>10, robots.MaxParseBytes>>10), e)
	}
	ct := r.ContentType()
	if ct == "" {
		ct = "no content type"
	}
	return pass(fmt.Sprintf("robots.txt answered HTTP %d with %s (%s) in %d ms.", r.Status, byteCount(r.Bytes), ct, r.Duration.Milliseconds()), e)
}

func robotsTxtSyntaxCheck() *Check {
	return &Check{
		ID: "robots_txt_syntax", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "robots.txt is written correctly",
			Why:   "Typos or misplaced lines in robots.txt are silently ignored, so the rules you think protect or open your site may not apply to AI crawlers at all.",
			Fix:   "Have robots.txt reviewed line by line: each block starts with a \"User-agent\" line, rules are spelled exactly, and the file is plain text rather than a web page.",
		},
		Engineering: Text{
			Title: "robots.txt parses under RFC 9309",
			Why:   "Parsers drop unknown keys, rules before the first User-agent line and paths that do not start with / or *; an HTML page served at /robots.txt (an SPA catch-all route) yields no rules at all.",
			Fix:   "Fix the listed lines: start each group with `User-agent:`, use `Allow`, `Disallow` and `Sitemap` (plus extensions such as `Content-Signal`), begin paths with `/`, and exclude /robots.txt from the SPA fallback so it returns text/plain.",
		},
		Eval: evalRobotsTxtSyntax,
	}
}

func evalRobotsTxtSyntax(in *Input) Result {
	r := siteOf(in).Robots
	if r == nil {
		return na("robots.txt was not fetched, so there is no syntax to check.", ev())
	}
	f := robots.Parse(r)
	if f.State() != robots.Rules {
		return na(fmt.Sprintf("robots.txt %s, so there is no file whose syntax could be checked.", statusText(r)), ev("status", r.Status))
	}
	probs := f.Problems()
	e := ev("problems", nonNil(probs), "lines", f.Lines(), "directives", f.Directives(), "groups", nonNil(f.Groups()), "html", f.HTML())
	switch {
	case f.HTML():
		return fail("The server returns an HTML page at /robots.txt, so crawlers find no rules in it.", e)
	case f.Lines() >= 3 && f.Directives() == 0:
		return fail(fmt.Sprintf("None of the %d lines of robots.txt is a robots.txt record, so crawlers find no rules in it.", f.Lines()), e)
	case len(probs) > 0:
		return warn(fmt.Sprintf("robots.txt has %s, the first: %s.", plural(len(probs), "syntax problem", "syntax problems"), probs[0]), e)
	case f.Lines() == 0:
		return pass("robots.txt is empty, which allows every crawler everything.", e)
	}
	return pass(fmt.Sprintf("robots.txt parses cleanly: %s naming %s.", plural(f.Directives(), "record", "records"),
		plural(len(f.Groups()), "user-agent token", "user-agent tokens")), e)
}

// robotsPaths are the paths the access checks evaluate: the root and
// the homepage's own path when it redirected elsewhere.
func robotsPaths(in *Input) []string {
	paths := []string{"/"}
	if h := siteOf(in).Home; h != nil && h.FinalURL != "" {
		if u, err := url.Parse(h.FinalURL); err == nil {
			p := u.EscapedPath()
			if u.RawQuery != "" {
				p += "?" + u.RawQuery
			}
			if p != "" && p != "/" {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// agentVerdict is one agent's outcome over the evaluated paths: the first
// disallowing verdict, or the verdict for the root when all allow.
type agentVerdict struct {
	agent   robots.Agent
	allowed bool
	verdict robots.Verdict
	path    string
}

// evalAgents evaluates agents against the paths; an agent is allowed only
// when every path is.
func evalAgents(f *robots.File, agents []robots.Agent, paths []string) []agentVerdict {
	out := make([]agentVerdict, 0, len(agents))
	for _, a := range agents {
		av := agentVerdict{agent: a, allowed: true}
		for i, p := range paths {
			v := f.Allowed(a.Token, p)
			if i == 0 || !v.Allowed {
				av.verdict, av.path = v, p
			}
			if !v.Allowed {
				av.allowed = false
				break
			}
		}
		out = append(out, av)
	}
	return out
}

func agentRows(vs []agentVerdict) []map[string]any {
	rows := make([]map[string]any, 0, len(vs))
	for _, v := range vs {
		rows = append(rows, map[string]any{
			"token": v.agent.Token, "owner": v.agent.Owner, "role": string(v.agent.Role), "core": v.agent.Core,
			"honors_robots": v.agent.HonorsRobots, "allowed": v.allowed, "path": v.path,
			"group": v.verdict.Group, "rule": v.verdict.Rule, "line": v.verdict.Line, "reason": v.verdict.Reason,
		})
	}
	return rows
}

func aiSearchBotsAllowedCheck() *Check {
	return &Check{
		ID: "ai_search_bots_allowed", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 10, Effort: Low,
		Marketing: Text{
			Title: "AI search engines may crawl the site",
			Why:   "ChatGPT search, Claude, Perplexity, Google AI Overviews, Copilot, Siri and Spotlight only quote pages their crawlers may read. Blocking one removes you from that engine's answers.",
			Fix:   "Ask whoever manages robots.txt to allow the AI search crawlers (OAI-SearchBot, Claude-SearchBot, PerplexityBot, Googlebot, Bingbot, Applebot). You can still opt out of AI training separately.",
		},
		Engineering: Text{
			Title: "Search crawlers allowed by robots.txt",
			Why:   "Evaluated per RFC 9309 (group of the exact product token, else `*`; longest match; Allow wins ties) for `/` and the homepage path. AI Overviews draw on Googlebot's index and Copilot on Bingbot's, so blocking those is a full opt-out of their AI answers.",
			Fix:   "Remove the matching `Disallow` lines or add explicit groups such as `User-agent: OAI-SearchBot`, `User-agent: Claude-SearchBot`, `User-agent: PerplexityBot` followed by `Allow: /`; opt out of training with separate `GPTBot`, `ClaudeBot` or `Google-Extended` groups instead of a blanket `User-agent: *` / `Disallow: /`.",
		},
		Eval: evalAISearchBotsAllowed,
	}
}

func evalAISearchBotsAllowed(in *Input) Result {
	r := siteOf(in).Robots
	if r == nil {
		return na("robots.txt was not fetched, so crawler access could not be evaluated.", ev())
	}
	f := robots.Parse(r)
	paths := robotsPaths(in)
	vs := evalAgents(f, robots.ByRole(robots.Search), paths)
	var core, coreBlocked, minorBlocked []string
	for _, v := range vs {
		if v.agent.Core {
			core = append(core, v.agent.Token)
			if !v.allowed {
				coreBlocked = append(coreBlocked, v.agent.Token)
			}
		} else if !v.allowed {
			minorBlocked = append(minorBlocked, v.agent.Token)
		}
	}
	blocked := append(append([]string{}, coreBlocked...), minorBlocked...)
	e := ev("bots", agentRows(vs), "blocked", nonNil(blocked), "paths", paths, "robots_state", string(f.State()))
	if f.State() == robots.Unreachable {
		return fail("Every AI search crawler must stay away: "+f.StateReason()+".", e)
	}
	if len(coreBlocked) > 0 {
		return fail(fmt.Sprintf("robots.txt blocks %d of the %d core AI search crawlers: %s.", len(coreBlocked), len(core), andList(coreBlocked)), e)
	}
	if len(minorBlocked) > 0 {
		return warn(fmt.Sprintf("robots.txt allows all %d core AI search crawlers but blocks %s.", len(core), andList(minorBlocked)), e)
	}
	if f.State() == robots.Unavailable {
		return pass(fmt.Sprintf("All %d AI search crawlers may crawl everything: %s.", len(vs), f.StateReason()), e)
	}
	return pass(fmt.Sprintf("robots.txt allows all %d AI search crawlers, including %s.", len(vs), andList(core)), e)
}

func aiUserFetchersAllowedCheck() *Check {
	return &Check{
		ID: "ai_user_fetchers_allowed", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "AI assistants can open your pages on request",
			Why:   "When someone asks ChatGPT, Claude or Perplexity about one of your pages, the assistant fetches it live. Blocking these visits makes the assistant answer without your own words.",
			Fix:   "Allow the assistant fetchers (ChatGPT-User, Claude-User, Perplexity-User, Meta-ExternalFetcher) in robots.txt and in your firewall or CDN settings.",
		},
		Engineering: Text{
			Title: "User-triggered fetchers allowed",
			Why:   "ChatGPT-User, Claude-User, Perplexity-User and Meta-ExternalFetcher fetch on a user's request. Claude-User honors robots.txt; OpenAI, Perplexity and Meta say robots rules may not apply to theirs, so a Disallow mostly states intent and edge rules decide.",
			Fix:   "Remove `Disallow` rules matching these tokens (or add `User-agent: ChatGPT-User` … `Allow: /` groups) and review WAF rules keyed on their user agents; verify real traffic against the vendors' published IP ranges instead of blocking by user agent.",
		},
		Eval: evalAIUserFetchersAllowed,
	}
}

func evalAIUserFetchersAllowed(in *Input) Result {
	r := siteOf(in).Robots
	if r == nil {
		return na("robots.txt was not fetched, so fetcher access could not be evaluated.", ev())
	}
	f := robots.Parse(r)
	vs := evalAgents(f, robots.ByRole(robots.UserFetch), robotsPaths(in))
	var blocked, ignoring []string
	for _, v := range vs {
		if !v.allowed {
			blocked = append(blocked, v.agent.Token)
			if !v.agent.HonorsRobots {
				ignoring = append(ignoring, v.agent.Token)
			}
		}
	}
	e := ev("bots", agentRows(vs), "blocked", nonNil(blocked), "robots_state", string(f.State()))
	if f.State() == robots.Unreachable {
		return warn("AI assistants that honor robots.txt must not fetch pages on request: "+f.StateReason()+".", e)
	}
	if len(blocked) > 0 {
		msg := fmt.Sprintf("robots.txt blocks %s (%s)", ofTotal(len(blocked), len(vs), "assistant fetcher", "assistant fetchers"), andList(blocked))
		if len(ignoring) > 0 {
			msg += fmt.Sprintf("; %s may ignore robots.txt for user requests, so edge rules decide for them", andList(ignoring))
		}
		return warn(msg+".", e)
	}
	return pass(fmt.Sprintf("All %d assistant fetchers (%s) may fetch the homepage.", len(vs), andList(agentTokens(vs))), e)
}

func agentTokens(vs []agentVerdict) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, v.agent.Token)
	}
	return out
}

func aiTrainingPolicyCheck() *Check {
	return &Check{
		ID: "ai_training_policy", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 0, Effort: Low,
		Marketing: Text{
			Title: "AI training preferences",
			Why:   "Whether AI companies may train models on your content is a business decision; opting out does not remove you from AI search results. It is shown for information and never lowers your score.",
			Fix:   "Agree on a policy with legal and marketing. To opt out of training while staying in AI search, block only the training crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot) and keep the search crawlers allowed.",
		},
		Engineering: Text{
			Title: "Training and control tokens (info)",
			Why:   "GPTBot, ClaudeBot, meta-externalagent, CCBot and cohere-training-data-crawler collect training data; Google-Extended and Applebot-Extended never fetch and only gate model use; Bytespider and Amazonbot are mixed-purpose. None of them affects search indexing.",
			Fix:   "State the policy with per-token groups, e.g. `User-agent: GPTBot` + `Disallow: /` and `User-agent: Google-Extended` + `Disallow: /`, optionally with `Content-Signal: ai-train=no`; keep them apart from the OAI-SearchBot, Googlebot and other search groups.",
		},
		Eval: evalAITrainingPolicy,
	}
}

func evalAITrainingPolicy(in *Input) Result {
	r := siteOf(in).Robots
	if r == nil {
		return na("robots.txt was not fetched, so the training policy could not be read.", ev())
	}
	f := robots.Parse(r)
	vs := evalAgents(f, robots.ByRole(robots.Training, robots.Control, robots.Mixed), []string{"/"})
	var blocked, allowed []string
	for _, v := range vs {
		if v.allowed {
			allowed = append(allowed, v.agent.Token)
		} else {
			blocked = append(blocked, v.agent.Token)
		}
	}
	e := ev("tokens", agentRows(vs), "blocked", nonNil(blocked), "allowed", nonNil(allowed), "robots_state", string(f.State()))
	switch {
	case f.State() == robots.Unreachable:
		return info("robots.txt is unreachable, so training crawlers must stay away as well; this is not scored.", e)
	case len(blocked) == 0:
		return info(fmt.Sprintf("robots.txt allows all %d training and control tokens; training is a policy choice and is not scored.", len(vs)), e)
	case len(allowed) == 0:
		return info(fmt.Sprintf("robots.txt opts out of AI training for all %d training and control tokens; this is a policy choice and is not scored.", len(vs)), e)
	}
	return info(fmt.Sprintf("robots.txt opts out of AI training for %s and allows %s; this is a policy choice and is not scored.",
		andList(blocked), plural(len(allowed), "other token", "other tokens")), e)
}

func staleAITokensCheck() *Check {
	return &Check{
		ID: "stale_ai_tokens", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "No outdated AI crawler names",
			Why:   "Some AI companies renamed their crawlers. Rules written for the old names do nothing, so a preference you set may no longer be respected.",
			Fix:   "Replace the retired crawler names in robots.txt with the current ones, for example ClaudeBot instead of anthropic-ai.",
		},
		Engineering: Text{
			Title: "Retired tokens without successors",
			Why:   "anthropic-ai and Claude-Web were replaced by ClaudeBot (with Claude-SearchBot and Claude-User), FacebookBot by meta-externalagent; a group naming only a retired token matches no live crawler, which falls through to the `*` group instead.",
			Fix:   "Rename the `User-agent:` lines to the successor tokens or add the successors to the same group, then re-evaluate each token against the file.",
		},
		Eval: evalStaleAITokens,
	}
}

func evalStaleAITokens(in *Input) Result {
	r := siteOf(in).Robots
	if r == nil {
		return na("robots.txt was not fetched, so it cannot name retired tokens.", ev())
	}
	f := robots.Parse(r)
	if f.State() != robots.Rules {
		return na(fmt.Sprintf("robots.txt %s, so there are no rules that could name retired tokens.", statusText(r)), ev("status", r.Status))
	}
	var rows []map[string]any
	var ineffective, harmless []string
	for _, a := range robots.RetiredAgents() {
		if !f.Names(a.Token) {
			continue
		}
		succNamed := f.Names(a.Successor)
		old, succ := f.Allowed(a.Token, "/"), f.Allowed(a.Successor, "/")
		// The leftover only matters when the live crawler ends up with a
		// different verdict than the owner wrote for the old name.
		effective := succNamed || old.Allowed == succ.Allowed
		rows = append(rows, map[string]any{
			"token": a.Token, "successor": a.Successor, "successor_named": succNamed,
			"token_allowed": old.Allowed, "successor_allowed": succ.Allowed,
		})
		if effective {
			harmless = append(harmless, a.Token)
		} else {
			ineffective = append(ineffective, fmt.Sprintf("%s (successor %s is %s)", a.Token, a.Successor, map[bool]string{true: "allowed", false: "blocked"}[succ.Allowed]))
		}
	}
	e := ev("stale", nonNilRows(rows))
	switch {
	case len(ineffective) > 0:
		return warn(fmt.Sprintf("robots.txt has rules for retired tokens that no crawler reads: %s.", andList(ineffective)), e)
	case len(harmless) > 0:
		return pass(fmt.Sprintf("robots.txt still names %s, but the successor tokens get the same verdict, so the leftovers are harmless.", andList(harmless)), e)
	}
	return pass("robots.txt names none of the retired AI tokens (anthropic-ai, Claude-Web, FacebookBot).", e)
}

func edgeBotReachabilityCheck() *Check {
	return &Check{
		ID: "edge_bot_reachability", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 5, Effort: Medium,
		Marketing: Text{
			Title: "Your firewall lets AI crawlers through",
			Why:   "Even when robots.txt welcomes AI crawlers, bot protection at your CDN or firewall can still turn them away with an error or a challenge page. Visitors never notice, but AI engines see nothing.",
			Fix:   "Ask your web team or CDN provider to allow verified AI search crawlers in the bot-protection settings (for example Cloudflare's verified bots list), then run this scan again.",
		},
		Engineering: Text{
			Title: "Edge answers AI user agents like a browser",
			Why:   "The homepage is fetched with each AI crawler's user agent and compared with a browser's answer: a 4xx (401/403/429 above all), `cf-mitigated: challenge` or a bot manager's challenge page for a search bot while the browser is served means WAF or bot management blocks it regardless of robots.txt. A refusal of GeoScan's own user agent, or of every requester, is reported as such, not as a block of AI crawlers. Probes come from GeoScan's IPs, so allow lists that verify vendor IPs may answer real crawlers differently.",
			Fix:   "In the WAF or bot-management rules, allow AI search and user-fetch agents verified by reverse DNS or the published IP lists (openai.com/searchbot.json, perplexity.ai/perplexitybot.json, Google's ipranges); exempt them from JS challenges and rate limits and serve them the same HTML as browsers.",
		},
		Eval: evalEdgeBotReachability,
	}
}

// Who was turned away. The homepage is requested by GeoScan's own user
// agent, by a browser (a probe, and a retry when GeoScan was refused) and
// by AI crawler user agents, all from GeoScan's network. An edge that
// refuses GeoScan but serves browsers and AI crawlers blocks the auditor,
// not AI; one that serves browsers but refuses AI crawlers blocks AI; one
// that refuses everybody blocks GeoScan's network and says nothing about
// AI crawlers in particular. Findings name which it is, and the evidence
// lists what every requester got.

// auditorNote says, to end a sentence, that GeoScan's own user agent was
// refused while a browser was served; "" when it was not refused.
func auditorNote(s *fetch.Site) string {
	if s.AuditorHome == nil {
		return ""
	}
	return fmt.Sprintf("; only GeoScan's own user agent was refused (%s), so the audit read the pages a browser gets", refusalText(s.AuditorHome))
}

func evalEdgeBotReachability(in *Input) Result {
	s := siteOf(in)
	bots := s.Bots
	if len(bots) == 0 {
		return na("The homepage was not fetched under AI crawler user agents in this scan.", ev())
	}
	var probe *fetch.Response
	for _, b := range bots {
		if b.Bot.Role == "browser" || b.Bot.Token == "Browser" {
			probe = b.Response
		}
	}
	// The baseline is a browser's answer: the probe, or the retry made
	// when GeoScan was refused, or else GeoScan's own.
	base, baseWho := probe, "a browser"
	switch {
	case served(probe):
	case served(s.BrowserHome):
		base = s.BrowserHome
	case s.AuditorHome == nil && served(s.Home):
		base, baseWho = s.Home, "GeoScan's own user agent"
	default:
		base = nil
	}
	e := ev("access", accessRows(s), "audited_as", s.AuditedAs,
		"note", "Every request comes from GeoScan's network; edges that verify vendor IP addresses may treat the real crawlers differently.")
	var rows []map[string]any
	var searchRefused, otherRefused, trainingRefused, servedBots, differing, failed []string
	for _, b := range bots {
		r := b.Response
		if b.Bot.Role == "browser" || b.Bot.Token == "Browser" || r == nil {
			continue
		}
		role := b.Bot.Role
		if role == "" {
			if a, ok := robots.Lookup(b.Bot.Token); ok {
				role = string(a.Role)
			}
		}
		ratio := 0.0
		if base != nil && base.Bytes > 0 {
			ratio = math.Round(100*math.Abs(float64(r.Bytes-base.Bytes))/float64(base.Bytes)) / 100
		}
		why := refusalText(r)
		verdict := "same"
		switch {
		case why != "":
			verdict = "refused"
		case fetchFailed(r) || r.Status >= 500:
			verdict = "failed"
		case base != nil && ratio > 0.5:
			verdict = "different"
		}
		row := map[string]any{
			"token": b.Bot.Token, "role": role, "status": r.Status, "bytes": r.Bytes, "size_diff": ratio,
			"server": r.Header.Get("Server"), "cf_mitigated": r.Header.Get("Cf-Mitigated"), "refusal": why, "verdict": verdict,
		}
		if r.Err != nil {
			row["error"] = r.ErrorText()
		}
		rows = append(rows, row)
		switch verdict {
		case "refused":
			label := fmt.Sprintf("%s (%s)", b.Bot.Token, why)
			switch role {
			case "search":
				searchRefused = append(searchRefused, label)
			case "training":
				trainingRefused = append(trainingRefused, label)
			default:
				otherRefused = append(otherRefused, label)
			}
		case "failed":
			if role != "training" {
				failed = append(failed, fmt.Sprintf("%s (%s)", b.Bot.Token, statusText(r)))
			}
		case "different":
			if role != "training" {
				differing = append(differing, fmt.Sprintf("%s (%d vs %d bytes)", b.Bot.Token, r.Bytes, base.Bytes))
			}
			servedBots = append(servedBots, b.Bot.Token)
		default:
			servedBots = append(servedBots, b.Bot.Token)
		}
	}
	e["probes"] = nonNilRows(rows)
	if len(rows) == 0 {
		return na("No AI user agent probe of the homepage was recorded, so there is nothing to compare with a browser's answer.", e)
	}
	if base == nil {
		// Nobody from GeoScan's network got in as a browser.
		who := "a browser's"
		if probe != nil {
			who = fmt.Sprintf("a browser's (%s)", nonEmpty(refusalText(probe), statusText(probe)))
		}
		if len(servedBots) > 0 {
			return pass(fmt.Sprintf("AI crawler user agents %s were served although GeoScan's requests as itself and as a browser were turned away, so the edge does not keep AI crawlers out.",
				andList(servedBots)), e)
		}
		return na(fmt.Sprintf("Every request from GeoScan was turned away (its own user agent, %s and every AI crawler probe), so the edge blocks GeoScan's network and whether it treats AI crawlers differently cannot be told.", who), e)
	}
	baseline := fmt.Sprintf("%s got HTTP %d", baseWho, base.Status)
	note := auditorNote(s)
	switch {
	case len(searchRefused) > 0:
		also := ""
		if s.AuditorHome != nil {
			also = fmt.Sprintf(" (GeoScan's own user agent was refused too: %s)", refusalText(s.AuditorHome))
		}
		return fail(fmt.Sprintf("The edge refused AI search crawler user agents %s while %s%s, so it blocks AI search crawlers whatever robots.txt says.", andList(searchRefused), baseline, also), e)
	case len(otherRefused) > 0:
		return warn(fmt.Sprintf("The edge refused assistant user agents %s while %s.", andList(otherRefused), baseline), e)
	case len(failed) > 0:
		return warn(fmt.Sprintf("Requests as %s got no usable answer while %s.", andList(failed), baseline), e)
	case len(differing) > 0:
		return warn(fmt.Sprintf("The homepage served to %s differs in size by more than half from what %s.", andList(differing), strings.Replace(baseline, "got HTTP", "got with HTTP", 1)), e)
	}
	size := "an empty body"
	if base.Bytes > 0 {
		size = "about " + byteCount(base.Bytes)
	}
	msg := fmt.Sprintf("All %d AI user agents got the same answer as %s (HTTP %d, %s)", len(rows), baseWho, base.Status, size)
	if len(trainingRefused) > 0 {
		msg = fmt.Sprintf("AI search and assistant user agents got the same answer as %s (HTTP %d); only the training crawler %s was refused, which is a policy choice", baseWho, base.Status, andList(trainingRefused))
	}
	return pass(msg+note+".", e)
}

// nonEmpty returns the first non-empty string.
func nonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func contentSignalsCheck() *Check {
	return &Check{
		ID: "content_signals", Ring: scoring.RingSearch, Pillar: pillarCrawlAccess, Weight: 0, Effort: Low,
		Marketing: Text{
			Title: "Content usage preferences (info)",
			Why:   "Content Signals let you state in robots.txt whether your content may be used for search, for AI answers and for AI training. They are preferences rather than locks and are shown for information.",
			Fix:   "If you want to state a preference, add a Content-Signal line to robots.txt, for example allowing search and AI answers while declining AI training.",
		},
		Engineering: Text{
			Title: "Content-Signal in robots.txt (info)",
			Why:   "`Content-Signal: search=yes, ai-input=yes, ai-train=no` (contentsignals.org, CC0; Cloudflare's managed robots.txt default) declares usage preferences; it does not change access and no AI vendor has committed to enforcing it.",
			Fix:   "Add `Content-Signal: search=yes, ai-input=yes, ai-train=no` (adjusted to your policy) in the `User-agent: *` group; avoid `search=no` or `ai-input=no` unless you mean to opt out of AI answers.",
		},
		Eval: evalContentSignals,
	}
}

func evalContentSignals(in *Input) Result {
	r := siteOf(in).Robots
	if r == nil {
		return na("robots.txt was not fetched, so no Content-Signal could be read.", ev())
	}
	f := robots.Parse(r)
	if f.State() != robots.Rules {
		return na(fmt.Sprintf("robots.txt %s, so there is no Content-Signal line.", statusText(r)), ev("status", r.Status))
	}
	sig := f.ContentSignals()
	if len(sig) == 0 {
		return info("robots.txt has no Content-Signal line; usage preferences are not declared (not scored).", ev("signals", []string{}))
	}
	keys := make([]string, 0, len(sig))
	for k := range sig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs := make([]string, 0, len(keys))
	e := ev()
	var optOut []string
	for _, k := range keys {
		pairs = append(pairs, k+"="+sig[k])
		e[strings.ReplaceAll(k, "-", "_")] = sig[k]
		if sig[k] == "no" && (k == "search" || k == "ai-input") {
			optOut = append(optOut, k)
		}
	}
	e["signals"] = pairs
	msg := "robots.txt declares Content-Signal " + strings.Join(pairs, ", ")
	if len(optOut) > 0 {
		msg += "; " + andList(optOut) + "=no asks engines not to use the content in search or AI answers"
	}
	return info(msg+" (not scored).", e)
}
