package report

import (
	"github.com/geoscan/geoscan/gen/api"
)

// agentStatusLabels are the pills of the agent-readiness signals.
var agentStatusLabels = map[string]string{
	"found": "FOUND", "not_found": "NOT FOUND", "invalid": "INVALID", "not_checked": "NOT CHECKED",
}

// agentStatusInk colours them as the checks' statuses are coloured.
var agentStatusInk = map[string]rgb{
	"found": statusInk[api.CheckStatusPass], "not_found": statusInk[api.CheckStatusNa],
	"invalid": statusInk[api.CheckStatusFail], "not_checked": statusInk[api.CheckStatusWarn],
}

// agentSection shows the agent-readiness lens (agent.go): the level, what
// it means, that nothing of it is scored, and every signal with its
// status, its summary and, for an invalid one, what is wrong. A report
// without the lens has no such section.
func (d *doc) agentSection() {
	d.agentReadiness(d.agentLens())
}

// agentLens is the lens this PDF shows: the one given to render, or the
// report's.
func (d *doc) agentLens() *AgentReadiness {
	if d.agent != nil {
		return d.agent
	}
	return agentReadinessOf(d.r)
}

func (d *doc) agentReadiness(a *AgentReadiness) {
	if a == nil || len(a.Signals) == 0 {
		return
	}
	d.heading("Agent readiness (not scored)")
	d.font(fontBold, 11)
	d.color(ink)
	d.para(marginL, contentW, "Level: "+a.Level+" — "+AgentLevelDefinitions[a.Level]+".")
	d.font(fontRegular, 10)
	d.color(muted)
	d.para(marginL, contentW, "How ready the site is for AI agents that act on it: Markdown on request, links and "+
		"/.well-known/ files that lead agents to its resources, and the preferences it declares. These conventions are "+
		"emerging and few agents use them yet, so they are shown for information and count in none of the scores.")
	d.y += 2
	const indent = checkIndent
	for _, s := range a.Signals {
		d.font(fontRegular, 9)
		h := d.heightOf(fontBold, 10, contentW-indent, s.Title) + d.heightOf(fontRegular, 9, contentW-indent, s.Summary) + 3
		d.ensure(h)
		label, ok := agentStatusLabels[s.Status]
		if !ok {
			label = s.Status
		}
		d.pill(marginL, d.y+0.4, label, 7, agentStatusInk[s.Status])
		d.font(fontBold, 10)
		d.color(ink)
		d.para(marginL+indent, contentW-indent, s.Title)
		d.font(fontRegular, 9)
		d.color(muted)
		if s.Status == "invalid" {
			d.color(ink)
		}
		d.para(marginL+indent, contentW-indent, s.Summary)
		d.y += 2
	}
}
