package report

import (
	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/agentready"
)

// AgentReadiness is the agent-readiness lens of a report (package
// agentready): how far the site has gone for AI agents that act on it.
// It is shown beside the scores and never counted in them: the signals
// are emerging and few agents use them yet. One copy is stored for both
// audiences (Stored.AgentReadiness).
type AgentReadiness struct {
	// Level is none, basic, ready or advanced (docs/SCORING.md, "Agent
	// readiness").
	Level string `json:"level"`
	// Signals are every signal checked, in agentready.Order.
	Signals []AgentSignal `json:"signals"`
}

// AgentSignal is one signal of the lens.
type AgentSignal struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Status is found, not_found, invalid or not_checked.
	Status   string         `json:"status"`
	Summary  string         `json:"summary"`
	Evidence map[string]any `json:"evidence"`
	// Reason says what is wrong (invalid) or why the signal could not be
	// checked (not_checked).
	Reason *string `json:"reason,omitempty"`
}

// AgentLevelDefinitions say what each level means, for the renderings.
var AgentLevelDefinitions = map[string]string{
	string(agentready.LevelNone):     "no agent-readiness signal was found",
	string(agentready.LevelBasic):    "at least one signal was found",
	string(agentready.LevelReady):    "the homepage is served as Markdown on request and agents can discover the site's resources",
	string(agentready.LevelAdvanced): "ready, and the site offers agents an interface to act through (an MCP server card, an A2A agent card or WebMCP tools)",
}

// AgentReadinessOf converts the lens as judged into the report's section;
// nil stays nil.
func AgentReadinessOf(r *agentready.Result) *AgentReadiness {
	if r == nil {
		return nil
	}
	out := &AgentReadiness{Level: string(r.Level), Signals: make([]AgentSignal, 0, len(r.Signals))}
	for _, s := range r.Signals {
		sig := AgentSignal{ID: s.ID, Title: agentready.Titles[s.ID], Status: string(s.Status), Summary: s.Summary, Evidence: s.Evidence}
		if sig.Evidence == nil {
			sig.Evidence = map[string]any{}
		}
		if s.Reason != "" {
			reason := s.Reason
			sig.Reason = &reason
		}
		out.Signals = append(out.Signals, sig)
	}
	return out
}

// Judged is the lens as agentready judged it, for a dossier recomputed
// from a stored report; nil stays nil.
func (a *AgentReadiness) Judged() *agentready.Result {
	if a == nil {
		return nil
	}
	r := &agentready.Result{Level: agentready.Level(a.Level)}
	for _, s := range a.Signals {
		sig := agentready.Signal{ID: s.ID, Status: agentready.Status(s.Status), Summary: s.Summary, Evidence: s.Evidence}
		if s.Reason != nil {
			sig.Reason = *s.Reason
		}
		r.Signals = append(r.Signals, sig)
	}
	return r
}

// AttachAgentReadiness records the agent-readiness lens in doc.
func AttachAgentReadiness(doc *Stored, r *agentready.Result) {
	doc.AgentReadiness = AgentReadinessOf(r)
}

// contract is the lens in the contract's shape; nil stays nil.
func (a *AgentReadiness) contract() *api.AgentReadiness {
	if a == nil {
		return nil
	}
	out := &api.AgentReadiness{Level: api.AgentReadinessLevel(a.Level), Signals: make([]api.AgentSignal, 0, len(a.Signals))}
	for _, s := range a.Signals {
		out.Signals = append(out.Signals, api.AgentSignal{
			ID: s.ID, Title: s.Title, Status: api.AgentSignalStatus(s.Status), Summary: s.Summary, Evidence: s.Evidence, Reason: s.Reason,
		})
	}
	return out
}

// agentReadinessOf is the lens a rendering of r shows; nil when r carries
// none.
func agentReadinessOf(r api.Report) *AgentReadiness {
	a := r.AgentReadiness
	if a == nil {
		return nil
	}
	out := &AgentReadiness{Level: string(a.Level), Signals: make([]AgentSignal, 0, len(a.Signals))}
	for _, s := range a.Signals {
		out.Signals = append(out.Signals, AgentSignal{
			ID: s.ID, Title: s.Title, Status: string(s.Status), Summary: s.Summary, Evidence: s.Evidence, Reason: s.Reason,
		})
	}
	return out
}
