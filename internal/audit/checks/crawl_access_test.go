package checks

import (
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// botProbe is the homepage as fetched with one crawler's user agent.
func botProbe(token string, status int, body string, headers ...string) *fetch.Response {
	r := resp(fetch.BotProbe, testOrigin, status, body, headers...)
	r.Agent = token
	return r
}

// botBody is the homepage every probe gets unless a case says otherwise.
const botBody = "<html><body>" + "Welcome to Example, the home of examples. " + "</body></html>"

// allBots probes the homepage as every probe bot, with the given
// responses instead of the usual one.
func allBots(override map[string]*fetch.Response) []*fetch.Response {
	var out []*fetch.Response
	for _, b := range fetch.ProbeBots {
		if r, ok := override[b.Token]; ok {
			out = append(out, r)
			continue
		}
		out = append(out, botProbe(b.Token, 200, botBody))
	}
	return out
}

// auditorRefused is a site whose edge refused GeoScan's own user agent
// with a challenge; browser says what the retry as a browser got.
func auditorRefused(browser *fetch.Response) func(s *fetch.Site) {
	return func(s *fetch.Site) {
		s.AuditorHome = resp(fetch.Homepage, testOrigin, 403, "<title>Just a moment...</title>", "Cf-Mitigated", "challenge")
		browser.Agent, browser.UserAgent = "Browser", fetch.ProbeBots[0].UserAgent
		s.BrowserHome = browser
		if fetch.Refusal(browser) == "" {
			s.Home, s.AuditedAs = browser, "Browser"
		} else {
			s.Home, s.AuditorHome = s.AuditorHome, nil
		}
	}
}

// TestCrawlAccess covers the crawl_access pillar.
func TestCrawlAccess(t *testing.T) {
	t.Parallel()
	allowAll := robotsTxt(200, "User-agent: *\nAllow: /\n")
	testPillar(t, pillarCrawlAccess, []pillarCheck{
		{id: "robots_txt_fetchable", cases: []checkCase{
			{"200", withSite("", allowAll), Pass, "HTTP 200", ev("state", "rules")},
			{"404 allows all", withSite("", robotsTxt(404, "")), Warn, "unavailable", ev("status", 404)},
			{
				"a challenge instead of the file", withSite("", resp(fetch.Robots, robotsURL, 403, "<title>Just a moment...</title>", "Content-Type", "text/html", "Cf-Mitigated", "challenge")),
				Warn, "robots.txt refused the request made as GeoScan (cf-mitigated: challenge), so its rules could not be read", ev("fetched_as", "GeoScan"),
			},
			{"oversize", withSite("", robotsTxt(200, "User-agent: *\nAllow: /\n"+strings.Repeat("#\n", 300<<10))), Warn, "KiB", nil},
			{"503 disallows all", withSite("", robotsTxt(503, "")), Fail, "unreachable", ev("state", "unreachable")},
			{"network error", withSite("", failedFetch(fetch.Robots, robotsURL, errRefused)), Fail, "could not be fetched", ev("error", "the connection to the site was refused or reset")},
			{"not fetched", withSite(""), NA, "not fetched", nil},
		}},
		{id: "robots_txt_syntax", cases: []checkCase{
			{"clean", withSite("", allowAll), Pass, "parses cleanly", ev("directives", 2)},
			{"empty", withSite("", robotsTxt(200, "")), Pass, "empty", nil},
			{"unknown directive", withSite("", robotsTxt(200, "User-agent: *\nDisallow: /x\nFoo: bar\n")), Warn, `unknown directive "foo"`, nil},
			{"html page", withSite("", resp(fetch.Robots, robotsURL, 200, "<!doctype html><html><body>Home</body></html>", "Content-Type", "text/html")), Fail, "HTML page", ev("html", true)},
			{"garbage", withSite("", robotsTxt(200, "hello\nworld\nthis is not robots\n")), Fail, "None of the 3 lines", nil},
			{"404", withSite("", robotsTxt(404, "")), NA, "HTTP 404", nil},
		}},
		{id: "ai_search_bots_allowed", cases: []checkCase{
			{"allow all", withSite("", allowAll), Pass, "allows all 9 AI search crawlers", ev("blocked", "[]")},
			{"404", withSite("", robotsTxt(404, "")), Pass, "HTTP 404", nil},
			{"substring is not a match", withSite("", robotsTxt(200, "User-agent: bot\nDisallow: /\nUser-agent: Search\nDisallow: /\n")), Pass, "allows all", nil},
			{"minor bot blocked", withSite("", robotsTxt(200, "User-agent: DuckAssistBot\nDisallow: /\n")), Warn, "blocks DuckAssistBot", ev("blocked", "[DuckAssistBot]")},
			{"core bot blocked", withSite("", robotsTxt(200, "User-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n")), Fail, "1 of the 6 core AI search crawlers: OAI-SearchBot", ev("blocked", "[OAI-SearchBot]")},
			{"wildcard disallow", withSite("", robotsTxt(200, "User-agent: *\nDisallow: /\n")), Fail, "6 of the 6", nil},
			{"applebot follows googlebot", withSite("", robotsTxt(200, "User-agent: Googlebot\nDisallow: /\n")), Fail, "Googlebot and Applebot", nil},
			{"homepage path blocked", withEdit("", func(s *fetch.Site) { s.Home.FinalURL = "https://example.com/en/" },
				robotsTxt(200, "User-agent: PerplexityBot\nDisallow: /en/\n")), Fail, "PerplexityBot", ev("paths", "[/ /en/]")},
			{"503", withSite("", robotsTxt(503, "")), Fail, "HTTP 503", ev("robots_state", "unreachable")},
			{"not fetched", withSite(""), NA, "not fetched", nil},
		}},
		{id: "ai_user_fetchers_allowed", never: []Status{Fail}, cases: []checkCase{
			{"allow all", withSite("", allowAll), Pass, "All 4 assistant fetchers", nil},
			{"chatgpt-user blocked", withSite("", robotsTxt(200, "User-agent: ChatGPT-User\nDisallow: /\n")), Warn, "may ignore robots.txt", ev("blocked", "[ChatGPT-User]")},
			{"claude-user blocked", withSite("", robotsTxt(200, "User-agent: Claude-User\nDisallow: /\n")), Warn, "blocks 1 of 4 assistant fetchers (Claude-User)", nil},
			{"503", withSite("", robotsTxt(503, "")), Warn, "HTTP 503", nil},
			{"not fetched", withSite(""), NA, "not fetched", nil},
		}},
		{id: "ai_training_policy", never: []Status{Pass, Warn, Fail}, cases: []checkCase{
			{"opt out of some", withSite("", robotsTxt(200, "User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /\n")), Info, "opts out of AI training for GPTBot and Google-Extended", ev("blocked", "[GPTBot Google-Extended]")},
			{"all allowed", withSite("", allowAll), Info, "allows all 9", nil},
			{"all blocked", withSite("", robotsTxt(200, "User-agent: *\nDisallow: /\n")), Info, "for all 9", nil},
			{"unreachable", withSite("", robotsTxt(500, "")), Info, "unreachable", nil},
			{"not fetched", withSite(""), NA, "not fetched", nil},
		}},
		{id: "stale_ai_tokens", never: []Status{Fail}, cases: []checkCase{
			{"none", withSite("", allowAll), Pass, "names none", nil},
			{"with successor", withSite("", robotsTxt(200, "User-agent: anthropic-ai\nUser-agent: ClaudeBot\nDisallow: /\n")), Pass, "harmless", nil},
			{"same verdict via wildcard", withSite("", robotsTxt(200, "User-agent: Claude-Web\nDisallow: /\nUser-agent: *\nDisallow: /\n")), Pass, "harmless", nil},
			{"retired only", withSite("", robotsTxt(200, "User-agent: anthropic-ai\nDisallow: /\n")), Warn, "anthropic-ai (successor ClaudeBot is allowed)", nil},
			{"facebookbot", withSite("", robotsTxt(200, "User-agent: FacebookBot\nDisallow: /\n")), Warn, "meta-externalagent", nil},
			{"404", withSite("", robotsTxt(404, "")), NA, "HTTP 404", nil},
		}},
		{id: "edge_bot_reachability", cases: []checkCase{
			{"all alike", withSite("", allBots(nil)...), Pass, "All 5 AI user agents got the same answer as a browser", nil},
			{"training refused only", withSite("", allBots(map[string]*fetch.Response{"GPTBot": botProbe("GPTBot", 403, "Forbidden")})...), Pass, "only the training crawler GPTBot (HTTP 403)", nil},
			{"captcha in both", withSite("", allBots(map[string]*fetch.Response{
				"Browser":       botProbe("Browser", 200, botBody+"<div class=g-recaptcha>captcha</div>"),
				"OAI-SearchBot": botProbe("OAI-SearchBot", 200, botBody+"<div class=g-recaptcha>captcha</div>"),
			})...), Pass, "same answer", nil},
			{
				"only GeoScan refused", withEdit("", auditorRefused(resp(fetch.Homepage, testOrigin, 200, botBody)), allBots(nil)...),
				Pass, "only GeoScan's own user agent was refused (cf-mitigated: challenge), so the audit read the pages a browser gets",
				ev("audited_as", "Browser"),
			},
			{
				"GeoScan and everybody else refused", withEdit("", auditorRefused(resp(fetch.Homepage, testOrigin, 403, "denied")), allBots(map[string]*fetch.Response{
					"Browser": botProbe("Browser", 403, "denied"), "OAI-SearchBot": botProbe("OAI-SearchBot", 403, "denied"), "ChatGPT-User": botProbe("ChatGPT-User", 403, "denied"),
					"Claude-SearchBot": botProbe("Claude-SearchBot", 403, "denied"), "PerplexityBot": botProbe("PerplexityBot", 403, "denied"), "GPTBot": botProbe("GPTBot", 403, "denied"),
				})...),
				NA, "Every request from GeoScan was turned away (its own user agent, a browser's (HTTP 403) and every AI crawler probe), so the edge blocks GeoScan's network", nil,
			},
			{
				"GeoScan and browsers refused, AI crawlers served", withEdit("", auditorRefused(resp(fetch.Homepage, testOrigin, 403, "denied")), allBots(map[string]*fetch.Response{"Browser": botProbe("Browser", 403, "denied")})...),
				Pass, "were served although GeoScan's requests as itself and as a browser were turned away", nil,
			},
			{"browser probe refused, GeoScan served", withSite("", allBots(map[string]*fetch.Response{"Browser": botProbe("Browser", 403, "denied")})...), Pass, "the same answer as GeoScan's own user agent", nil},
			{"search bot 403", withSite("", allBots(map[string]*fetch.Response{"OAI-SearchBot": botProbe("OAI-SearchBot", 403, "Forbidden", "Server", "cloudflare")})...), Fail, "OAI-SearchBot (HTTP 403) while a browser got HTTP 200", nil},
			{"search bot challenged", withSite("", allBots(map[string]*fetch.Response{
				"Claude-SearchBot": botProbe("Claude-SearchBot", 200, "<title>Just a moment...</title><script src=/cdn-cgi/challenge-platform/_cf_chl_opt></script>", "Cf-Mitigated", "challenge"),
			})...), Fail, "Claude-SearchBot (cf-mitigated: challenge)", nil},
			{
				"GeoScan and AI search crawlers refused, browsers served", withEdit("", auditorRefused(resp(fetch.Homepage, testOrigin, 200, botBody)), allBots(map[string]*fetch.Response{
					"OAI-SearchBot": botProbe("OAI-SearchBot", 403, "<title>Just a moment...</title>", "Cf-Mitigated", "challenge"),
				})...),
				Fail, "OAI-SearchBot (cf-mitigated: challenge) while a browser got HTTP 200 (GeoScan's own user agent was refused too: cf-mitigated: challenge)", nil,
			},
			{"user fetcher rate limited", withSite("", allBots(map[string]*fetch.Response{"ChatGPT-User": botProbe("ChatGPT-User", 429, "slow down")})...), Warn, "ChatGPT-User (HTTP 429)", nil},
			{"a server error only for a bot", withSite("", allBots(map[string]*fetch.Response{"PerplexityBot": botProbe("PerplexityBot", 503, "busy")})...), Warn, "PerplexityBot (answered HTTP 503) got no usable answer", nil},
			{"size differs", withSite("", allBots(map[string]*fetch.Response{"PerplexityBot": botProbe("PerplexityBot", 200, "<p>hi</p>")})...), Warn, "differs in size", nil},
			{"no probes", withSite(""), NA, "not fetched under AI crawler user agents", nil},
		}},
		{id: "content_signals", never: []Status{Pass, Warn, Fail}, cases: []checkCase{
			{"declared", withSite("", robotsTxt(200, "User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n")), Info, "search=yes", ev("ai_train", "no")},
			{"search opt-out", withSite("", robotsTxt(200, "User-agent: *\nContent-Signal: search=no\n")), Info, "asks engines not to use", nil},
			{"absent", withSite("", allowAll), Info, "no Content-Signal line", nil},
			{"404", withSite("", robotsTxt(404, "")), NA, "HTTP 404", nil},
		}},
	})
}
