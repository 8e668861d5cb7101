package agentready

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

// maxLLMsURLs bounds the llms.txt URLs checked against robots.txt; a
// robots.txt over bigRobots gets fewer, as each verdict reads it whole.
const (
	maxLLMsURLs = 50
	bigRobots   = 64 << 10
)

var llmsLinkRE = regexp.MustCompile(`\]\(\s*([^)\s]+)`)

// judgeLLMsRobots checks the site's URLs llms.txt lists against robots.txt
// for the AI search crawlers and user fetchers: llms.txt invites them to
// pages robots.txt may forbid them.
func judgeLLMsRobots(site *fetch.Site) Signal {
	s := Signal{ID: LLMsTxtRobots, Evidence: map[string]any{}}
	if site == nil {
		return notChecked(s, "llms.txt was not read")
	}
	state, why := classify(site.LLMsTxt, true)
	switch state {
	case unreadable:
		return notChecked(s, "llms.txt: "+why)
	case absent:
		s.Status, s.Summary = NotFound, "The site has no llms.txt: it answered "+why+"."
		return s
	}
	base, _ := url.Parse(site.LLMsTxt.FinalURL)
	var listed []*url.URL
	seen := map[string]bool{}
	for _, m := range llmsLinkRE.FindAllStringSubmatch(string(site.LLMsTxt.Body), -1) {
		if base == nil {
			break
		}
		u, err := base.Parse(m[1])
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || !fetch.SameHost(u, site.Target) {
			continue
		}
		u.Fragment = ""
		if k := u.String(); !seen[k] {
			seen[k] = true
			listed = append(listed, u)
		}
	}
	s.Evidence["site_urls_listed"] = len(listed)
	if site.Robots == nil {
		return notChecked(s, "robots.txt was not read")
	}
	rf := robots.Parse(site.Robots)
	switch rf.State() {
	case robots.Unreachable:
		return notChecked(s, "robots.txt could not be read: "+rf.StateReason())
	case robots.Unavailable:
		s.Status = Found
		s.Summary = fmt.Sprintf("llms.txt lists %d of the site's URLs, and robots.txt blocks none of them (it is unavailable: %s).", len(listed), rf.StateReason())
		return s
	}
	n := maxLLMsURLs
	if site.Robots.Bytes > bigRobots {
		n = 10
	}
	if len(listed) > n {
		s.Evidence["site_urls_checked"] = n
		listed = listed[:n]
	}
	agents := robots.ByRole(robots.Search, robots.UserFetch)
	var blocked []map[string]any
	for _, u := range listed {
		var by []string
		for _, a := range agents {
			if v := rf.Allowed(a.Token, u.RequestURI()); !v.Allowed {
				by = append(by, a.Token)
			}
		}
		if len(by) > 0 {
			blocked = append(blocked, map[string]any{"url": clip(u.String(), 200), "blocked_for": by})
		}
	}
	if len(blocked) > 0 {
		s.Evidence["blocked"] = blocked[:min(len(blocked), 10)]
		first := blocked[0]
		return invalid(s, fmt.Sprintf("%d of the %d site URLs llms.txt lists are blocked by robots.txt for AI crawlers, e.g. %s for %s",
			len(blocked), len(listed), pathOf(first["url"].(string)), strings.Join(limit(first["blocked_for"].([]string), 4), ", ")))
	}
	s.Status = Found
	s.Summary = fmt.Sprintf("robots.txt lets the AI search crawlers and user fetchers read all %d site URLs llms.txt lists.", len(listed))
	return s
}

// judgeContentSignals reads Content-Signal preferences from robots.txt
// lines and the homepage's headers (contentsignals.org): entries of the
// form name=yes or name=no. A malformed entry, or a preference robots.txt
// contradicts (ai-train=yes while training crawlers are disallowed
// everywhere, search=yes while a major search crawler is), makes the
// declaration invalid.
func judgeContentSignals(site *fetch.Site) Signal {
	s := Signal{ID: ContentSignals, Evidence: map[string]any{}}
	if site == nil {
		return notChecked(s, "robots.txt and the homepage were not read")
	}
	var lines, headers, problems []string
	prefs := map[string]string{}
	note := func(where, value string) {
		for _, part := range strings.Split(value, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			k, v, ok := strings.Cut(part, "=")
			k, v = strings.ToLower(strings.TrimSpace(k)), strings.ToLower(strings.TrimSpace(v))
			if !ok || k == "" || (v != "yes" && v != "no") {
				problems = append(problems, fmt.Sprintf("%s: %q is not name=yes or name=no", where, clip(part, 60)))
				continue
			}
			if _, seen := prefs[k]; !seen {
				prefs[k] = v
			}
		}
	}
	var rf *robots.File
	robotsState, robotsWhy := classify(site.Robots, false)
	if robotsState == read {
		rf = robots.Parse(site.Robots)
		for _, e := range rf.Extensions() {
			if e.Key == "Content-Signal" {
				lines = append(lines, clip(e.Value, 120))
				note(fmt.Sprintf("robots.txt line %d", e.Line), e.Value)
			}
		}
	}
	if site.Home != nil && site.Home.Header != nil {
		for _, v := range site.Home.Header.Values("Content-Signal") {
			headers = append(headers, clip(v, 120))
			note("Content-Signal header", v)
		}
	}
	if len(lines) == 0 && len(headers) == 0 {
		if robotsState == unreadable {
			return notChecked(s, "robots.txt: "+robotsWhy)
		}
		s.Status, s.Summary = NotFound, "No Content-Signal line in robots.txt and no Content-Signal header on the homepage."
		return s
	}
	s.Evidence["robots_lines"] = limit(lines, 5)
	s.Evidence["headers"] = limit(headers, 3)
	s.Evidence["preferences"] = prefs
	if rf != nil {
		problems = append(problems, contradictions(prefs, rf)...)
	}
	if len(problems) > 0 {
		return invalid(s, strings.Join(limit(problems, 4), "; "))
	}
	var pairs []string
	for _, k := range sortedKeys(map[string]bool{"search": prefs["search"] != "", "ai-input": prefs["ai-input"] != "", "ai-train": prefs["ai-train"] != ""}) {
		if prefs[k] != "" {
			pairs = append(pairs, k+"="+prefs[k])
		}
	}
	s.Status = Found
	s.Summary = "The site declares content usage preferences: " + strings.Join(pairs, ", ") + "."
	if len(pairs) == 0 {
		s.Summary = "The site declares Content-Signal preferences, none of them search, ai-input or ai-train."
	}
	return s
}

// contradictions are preferences robots.txt's own rules deny.
func contradictions(prefs map[string]string, rf *robots.File) []string {
	var out []string
	blockedAll := func(agents []robots.Agent, coreOnly bool) []string {
		var by []string
		for _, a := range agents {
			if coreOnly && !a.Core {
				continue
			}
			if !rf.Allowed(a.Token, "/").Allowed {
				by = append(by, a.Token)
			}
		}
		return by
	}
	if prefs["ai-train"] == "yes" {
		if by := blockedAll(robots.ByRole(robots.Training), false); len(by) > 0 {
			out = append(out, "ai-train=yes, but robots.txt disallows the homepage to "+strings.Join(limit(by, 4), ", "))
		}
	}
	if prefs["search"] == "yes" {
		if by := blockedAll(robots.ByRole(robots.Search), true); len(by) > 0 {
			out = append(out, "search=yes, but robots.txt disallows the homepage to "+strings.Join(limit(by, 4), ", "))
		}
	}
	return out
}

// judgeWebMCP looks in the homepage's HTML for WebMCP tools: forms
// declared as tools (toolname, tooldescription, toolparamdescription) and
// inline scripts that register tools on navigator.modelContext. Scripts
// loaded from files are not read, so a site that registers its tools
// there is not seen: the evidence of absence is weak, and says so.
func judgeWebMCP(site *fetch.Site) Signal {
	s := Signal{ID: WebMCP, Evidence: map[string]any{}}
	if site == nil || site.HomePage == nil || site.HomePage.Doc == nil {
		return notChecked(s, "the homepage was not read as HTML")
	}
	doc := site.HomePage.Doc
	var tools, problems []string
	doc.Find("form[toolname]").Each(func(i int, f *goquery.Selection) {
		name := strings.TrimSpace(f.AttrOr("toolname", ""))
		desc := strings.TrimSpace(f.AttrOr("tooldescription", ""))
		switch {
		case name == "":
			problems = append(problems, fmt.Sprintf("form %d has an empty toolname", i+1))
		case desc == "":
			problems = append(problems, fmt.Sprintf("form tool %q has no tooldescription", clip(name, 60)))
		default:
			tools = append(tools, name)
		}
	})
	params := doc.Find("form[toolname] [toolparamdescription]").Length()
	registers := 0
	doc.Find("script").Each(func(_ int, sc *goquery.Selection) {
		if _, external := sc.Attr("src"); external {
			return
		}
		t := sc.Text()
		if (strings.Contains(t, "navigator.modelContext") || strings.Contains(t, "document.modelContext")) &&
			(strings.Contains(t, "registerTool") || strings.Contains(t, "provideContext")) {
			registers++
		}
	})
	external := doc.Find("script[src]").Length()
	s.Evidence["form_tools"] = limit(tools, 10)
	s.Evidence["tool_parameters_described"] = params
	s.Evidence["inline_scripts_registering"] = registers
	s.Evidence["external_scripts_not_read"] = external
	if doc.Find(`meta[http-equiv="origin-trial" i]`).Length() > 0 {
		s.Evidence["origin_trial_meta"] = true
	}
	if doc.Find("[data-mcp-tool], [data-mcp-name], [data-mcp]").Length() > 0 {
		s.Evidence["data_mcp_attributes"] = "present; they are not part of WebMCP and are ignored"
	}
	switch {
	case len(tools) > 0 || registers > 0:
		s.Status = Found
		s.Summary = fmt.Sprintf("The homepage declares WebMCP tools: %d form tool(s), %d inline script(s) registering tools on navigator.modelContext.", len(tools), registers)
		if registers > 0 && len(tools) == 0 {
			s.Summary += " The evidence is weak: the script's calls were matched as text, not run."
		}
		if len(problems) > 0 {
			s.Evidence["problems"] = limit(problems, 5)
		}
	case len(problems) > 0:
		return invalid(s, strings.Join(limit(problems, 4), "; "))
	default:
		s.Status = NotFound
		s.Summary = "The homepage's HTML declares no WebMCP tool."
		if external > 0 {
			s.Summary += fmt.Sprintf(" Its %d script file(s) were not read, so tools they register would not be seen: weak evidence of absence.", external)
		}
	}
	return s
}
