package audit

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/agentready"
	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// The lens's fetches share the fetch budget: when reading the site used it
// all, its files are not read and their signals are not_checked.
func TestAgentReadinessSharesTheFetchBudget(t *testing.T) {
	t.Parallel()
	f, err := fetch.New(fetch.Options{})
	require.NoError(t, err)
	u, err := url.Parse("https://agent-budget.invalid/")
	require.NoError(t, err)
	site := &fetch.Site{Target: u}
	spent := Timings{Fetch: 40 * time.Second, Parse: 10 * time.Second}
	r := agentReadiness(context.Background(), Options{Fetcher: f, FetchBudget: 50 * time.Second}, site, &spent)
	for _, id := range []string{agentready.MarkdownNegotiation, agentready.MCPServerCard, agentready.APICatalog, agentready.WebBotAuth} {
		s := r.Signal(id)
		require.Equal(t, agentready.NotChecked, s.Status, id)
		require.NotEmpty(t, s.Reason, id)
	}
}
