package audit_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/agentready"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// Run reads the agent-readiness fixtures' files through the fetcher and
// finds each signal as the fixture serves it: valid, invalid, absent, or
// not checked when the site answered with a server error. The lens is
// stored with the report and noted in the dossier, and scores nothing.
func TestAgentReadinessOfFixtures(t *testing.T) {
	t.Parallel()
	sites, f := audittest.Sites(t)
	for _, truth := range testsite.AgentTruths() {
		t.Run(truth.Site, func(t *testing.T) {
			t.Parallel()
			res := audittest.Run(t, truth.Site, "", audit.Options{Fetcher: f})
			ar := res.AgentReadiness
			require.NotNil(t, ar)
			got := map[string]string{}
			for _, s := range ar.Signals {
				got[s.ID] = string(s.Status)
				require.NotEmpty(t, s.Summary, s.ID)
				if s.Status == agentready.Invalid || s.Status == agentready.NotChecked {
					require.NotEmpty(t, s.Reason, s.ID)
				}
			}
			require.Equal(t, truth.Status, got, "signal statuses")
			require.Equal(t, truth.Level, string(ar.Level))

			// The stored report carries the lens as judged.
			require.NotNil(t, res.Report.AgentReadiness)
			require.Equal(t, truth.Level, res.Report.AgentReadiness.Level)
			body, err := json.Marshal(res.Report)
			require.NoError(t, err)
			var back report.Stored
			require.NoError(t, json.Unmarshal(body, &back))
			require.Len(t, back.AgentReadiness.Signals, len(agentready.Order))

			// The dossier notes it, outside its lenses and actions.
			require.NotNil(t, res.Triage)
			require.True(t, containsPrefix(res.Triage.Engineering.Caveats, "Agent readiness (emerging signals, shown for information and not scored): level "+truth.Level),
				"dossier caveats: %v", res.Triage.Engineering.Caveats)

			// The lens scores nothing: the same site, audited without the
			// lens's files, is judged differently by the lens and scored
			// the same.
			again := audittest.Run(t, truth.Site, "", audit.Options{Site: res.Site})
			require.Equal(t, res.Scores, again.Scores)
			if truth.Site == testsite.AgentReady {
				require.NotEqual(t, ar.Level, again.AgentReadiness.Level)
				// Every file went through the fetcher to the fixture.
				hits := sites.Hits(truth.Site)
				for _, p := range []string{"/.well-known/mcp/server-card.json", "/.well-known/agent-card.json", "/.well-known/api-catalog", "/.well-known/http-message-signatures-directory"} {
					require.Positive(t, hits[p], p)
				}
			}
		})
	}
}

// An audit of a site it is given fetches nothing for the lens: the
// signals that need the lens's own files are not_checked, never not_found.
func TestAgentReadinessOfAGivenSite(t *testing.T) {
	t.Parallel()
	res := audittest.Run(t, testsite.AgentReady, "", audit.Options{})
	ar := res.AgentReadiness
	require.NotNil(t, ar)
	for _, id := range []string{agentready.MarkdownNegotiation, agentready.MCPServerCard, agentready.A2AAgentCard, agentready.WebBotAuth} {
		require.Equal(t, agentready.NotChecked, ar.Signal(id).Status, id)
	}
	for _, id := range []string{agentready.LinkHeaders, agentready.WebMCP, agentready.ContentSignals, agentready.LLMsTxtRobots} {
		require.Equal(t, agentready.Found, ar.Signal(id).Status, id)
	}
	require.Equal(t, agentready.LevelBasic, ar.Level)
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
