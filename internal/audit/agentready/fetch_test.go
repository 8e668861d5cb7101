package agentready_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/agentready"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) { audittest.Main(m) }

// Fetch reads each file through the fetcher, keeping at most MaxDocBytes
// of it: the broken fixture's API catalog is larger, and is judged
// invalid for it, not read whole.
func TestFetchKeepsTheStartOfHugeFiles(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	site := audittest.Site(t, testsite.AgentBroken)
	got := agentready.Fetch(context.Background(), f, site)
	require.NotNil(t, got)
	catalog := got.Files[agentready.APICatalog]
	require.Len(t, catalog, 1)
	require.Equal(t, 200, catalog[0].Status)
	require.Len(t, catalog[0].Body, agentready.MaxDocBytes)
	require.Greater(t, catalog[0].Bytes, agentready.MaxDocBytes)
	s := agentready.Judge(site, got).Signal(agentready.APICatalog)
	require.Equal(t, agentready.Invalid, s.Status)
	require.Contains(t, s.Reason, "larger than the 256 KiB")
	require.Len(t, got.All(), 1+len(got.Files[agentready.MCPServerCard])+len(got.Files[agentready.A2AAgentCard])+
		len(got.Files[agentready.AgentSkills])+4)
}

// Files the time budget left unread are not_checked, never not_found.
func TestFetchOutOfTimeIsNotChecked(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	site := audittest.Site(t, testsite.AgentReady)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := agentready.Judge(site, agentready.Fetch(ctx, f, site))
	for _, id := range []string{
		agentready.MarkdownNegotiation, agentready.APICatalog, agentready.AgentSkills, agentready.MCPServerCard,
		agentready.A2AAgentCard, agentready.OAuthAuthorizationServer, agentready.OAuthProtectedResource, agentready.WebBotAuth,
	} {
		s := r.Signal(id)
		require.Equal(t, agentready.NotChecked, s.Status, id)
		require.NotEmpty(t, s.Reason, id)
	}
}

// Without a fetcher nothing is read.
func TestFetchWithoutFetcher(t *testing.T) {
	t.Parallel()
	require.Nil(t, agentready.Fetch(context.Background(), nil, audittest.Site(t, testsite.AgentNone)))
}
