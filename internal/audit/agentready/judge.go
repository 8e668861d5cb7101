package agentready

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// Judge judges every signal from the site as the audit read it and what
// Fetch read (nil when it did not run: the signals that need its files
// are not_checked). It fetches nothing.
func Judge(site *fetch.Site, got *Fetched) Result {
	origin := ""
	if site != nil && site.Target != nil {
		origin = (&url.URL{Scheme: "https", Host: site.Target.Host}).String()
	}
	var signals []Signal
	for _, id := range Order {
		var s Signal
		switch id {
		case MarkdownNegotiation:
			s = judgeMarkdown(site, got)
		case LinkHeaders:
			s = judgeLinks(site)
		case LLMsTxtRobots:
			s = judgeLLMsRobots(site)
		case ContentSignals:
			s = judgeContentSignals(site)
		case WebMCP:
			s = judgeWebMCP(site)
		default:
			if got == nil {
				s = notChecked(Signal{ID: id, Evidence: map[string]any{}}, "the site's /.well-known/ files were not fetched in this audit")
			} else {
				s = judgeFile(id, got.Files[id], origin)
			}
		}
		signals = append(signals, s)
	}
	return Result{Level: LevelOf(signals), Signals: signals}
}

// judgeLinks reads the homepage's Link headers (RFC 8288) for links that
// point agents at resources.
func judgeLinks(site *fetch.Site) Signal {
	s := Signal{ID: LinkHeaders, Evidence: map[string]any{}}
	if site == nil || site.Home == nil || site.Home.Header == nil {
		return notChecked(s, "the homepage's headers were not read")
	}
	values := site.Home.Header.Values("Link")
	if len(values) == 0 {
		s.Status, s.Summary = NotFound, "The homepage sends no Link header."
		return s
	}
	base, _ := url.Parse(site.Home.FinalURL)
	links, problems := ParseLinkHeaders(values, base)
	var agent []map[string]any
	var other []string
	for _, l := range links {
		if !l.ForAgents() {
			other = append(other, strings.Join(l.Rels, " "))
			continue
		}
		e := map[string]any{"rel": strings.Join(l.Rels, " "), "target": clip(firstOf(l.Resolved, l.Target), 200)}
		if t := l.Params["type"]; t != "" {
			e["type"] = clip(t, 80)
		}
		agent = append(agent, e)
	}
	s.Evidence["links"] = len(links)
	s.Evidence["other_rels"] = limit(other, 10)
	if len(problems) > 0 {
		s.Evidence["problems"] = limit(problems, 5)
	}
	switch {
	case len(agent) > 0:
		s.Status = Found
		s.Evidence["agent_links"] = agent[:min(len(agent), 10)]
		rels := make([]string, 0, len(agent))
		for _, a := range agent {
			rels = append(rels, a["rel"].(string))
		}
		s.Summary = fmt.Sprintf("The homepage's Link headers point agents at %d resource(s) (rel %s).", len(agent), strings.Join(limit(rels, 5), ", "))
		if len(problems) > 0 {
			s.Summary += fmt.Sprintf(" %d other link(s) do not parse.", len(problems))
		}
	case len(links) == 0:
		return invalid(s, "no link in the Link header parses (RFC 8288): "+strings.Join(limit(problems, 3), "; "))
	default:
		s.Status = NotFound
		s.Summary = fmt.Sprintf("The homepage's %d Link header link(s) point at no agent resource (rel %s).", len(links), strings.Join(limit(other, 5), ", "))
	}
	return s
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
