package cli

import (
	"encoding/json"
	"fmt"
	"io"
)

// agentReadinessBody is the part of a report the agent-readiness lens is
// read from: the report's agent_readiness, read from the response body so
// that it is shown whichever version of the generated client decoded the
// rest. A report without it (made before the lens, or by a server that
// does not send it) shows nothing.
type agentReadinessBody struct {
	AgentReadiness *struct {
		Level   string `json:"level"`
		Signals []struct {
			ID      string  `json:"id"`
			Title   string  `json:"title"`
			Status  string  `json:"status"`
			Summary string  `json:"summary"`
			Reason  *string `json:"reason"`
		} `json:"signals"`
	} `json:"agent_readiness"`
}

// agentStatusText is how each status of a signal is printed.
var agentStatusText = map[string]string{
	"found": "found", "not_found": "not found", "invalid": "INVALID", "not_checked": "not checked",
}

// printAgentReadiness shows the report's agent-readiness lens: its level,
// that it is not scored, and each signal with its status and summary.
// Every text of the report is escaped (printf).
func printAgentReadiness(w io.Writer, body []byte) error {
	var r agentReadinessBody
	if err := json.Unmarshal(body, &r); err != nil || r.AgentReadiness == nil || len(r.AgentReadiness.Signals) == 0 {
		return nil //nolint:nilerr // a report the lens cannot be read from has no lens to show
	}
	a := r.AgentReadiness
	printf(w, "\nAgent readiness (emerging signals, not scored): level %s.\n", a.Level)
	tw := newTable(w)
	fmt.Fprintln(tw, "STATUS\tSIGNAL\tSUMMARY")
	for _, s := range a.Signals {
		status, ok := agentStatusText[s.Status]
		if !ok {
			status = s.Status
		}
		title := s.Title
		if title == "" {
			title = s.ID
		}
		printf(tw, "%s\t%s\t%s\n", status, title, s.Summary)
	}
	return tw.Flush()
}
