package report

import (
	"encoding/json"
	"sort"
)

// agentView is the HTML report's agent-readiness section (agent.go), in
// the order and words of the PDF's (pdf_agent.go).
type agentView struct {
	Level, Definition, Intro string
	Signals                  []agentSignalView
}

type agentSignalView struct {
	Title, Status, StatusClass, Summary string
	Evidence                            [][2]string
}

// agentStatusClasses reuse the check statuses' colours.
var agentStatusClasses = map[string]string{
	"found": "st-pass", "not_found": "st-na", "invalid": "st-fail", "not_checked": "st-warn",
}

// agentViewOf is the section for a, nil without one. Evidence values are
// shown as compact JSON; the template escapes every text of the site.
func agentViewOf(a *AgentReadiness, eng bool) *agentView {
	if a == nil || len(a.Signals) == 0 {
		return nil
	}
	v := &agentView{
		Level: a.Level, Definition: AgentLevelDefinitions[a.Level],
		Intro: "How ready the site is for AI agents that act on it: Markdown on request, links and /.well-known/ files that " +
			"lead agents to its resources, and the preferences it declares. These conventions are emerging and few agents use " +
			"them yet, so they are shown for information and count in none of the scores.",
	}
	for _, s := range a.Signals {
		label, ok := agentStatusLabels[s.Status]
		if !ok {
			label = s.Status
		}
		sv := agentSignalView{Title: s.Title, Status: label, StatusClass: agentStatusClasses[s.Status], Summary: s.Summary}
		if eng {
			keys := make([]string, 0, len(s.Evidence))
			for k := range s.Evidence {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				b, err := json.Marshal(s.Evidence[k])
				if err != nil {
					continue
				}
				sv.Evidence = append(sv.Evidence, [2]string{k, clipText(string(b), 300)})
			}
		}
		v.Signals = append(v.Signals, sv)
	}
	return v
}

// clipText cuts s to at most n bytes, on a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
