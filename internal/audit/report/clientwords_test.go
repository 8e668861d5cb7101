package report

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/checks"
)

func TestForClients(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{
			"Not measured: no answer engine configured (GEOSCAN_LLM_BASE_URL), so what AI assistants say about the brand is unknown; not scored.",
			"Not measured: no AI answer engine was connected for this audit, so what AI assistants say about the brand is unknown; not scored.",
		},
		{
			"It is not scored. About 2 more runs (GEOSCAN_LLM_RUNS=4) would typically settle it.",
			"It is not scored. About 2 more runs would typically settle it.",
		},
		{
			"It is not scored. About 6 more runs, 5 per prompt, would typically settle it, with a budget (GEOSCAN_LLM_MAX_CALLS, GEOSCAN_LLM_MAX_TOKENS) that allows them. 2 answers said no.",
			"It is not scored. About 6 more runs, 5 per prompt, would typically settle it, with a budget that allows them. 2 answers said no.",
		},
		{
			"It is not scored. The rate lies so close to the mark that even 20 runs per prompt, the most GEOSCAN_LLM_RUNS allows, would typically not settle it. 2 answers said no.",
			"It is not scored. 2 answers said no.",
		},
		{
			"No answer engine is configured (GEOSCAN_LLM_BASE_URL), so the four AI mention checks were not measured.",
			"No AI answer engine was connected for this audit, so the four AI mention checks were not measured.",
		},
		{"The sitemap-tidewiki-NS_0-0.xml sitemap (HTTP_OK) is fine.", "The sitemap-tidewiki-NS_0-0.xml sitemap (HTTP_OK) is fine."},
	} {
		require.Equal(t, tc.want, forClients(tc.in))
	}
}

// Each pass title belongs to a check whose engineering title it rephrases.
func TestPassTitles(t *testing.T) {
	t.Parallel()
	for id, title := range passTitles {
		c := checks.Lookup(id)
		require.NotNil(t, c, id)
		require.NotEqual(t, c.Engineering.Title, title, id)
		require.Contains(t, title, "No ", id)
	}
}
