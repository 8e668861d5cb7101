package scanner_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

const e2eEngineKey = "sk-e2e-answer-engine-key-0123456789"

// TestScanWithAnswerEngine runs whole scans through the API and the River
// workers with an OpenAI-compatible engine configured the way an operator
// does (GEOSCAN_LLM_*): the four AI checks are measured, the summaries are
// the model's where they pass the validator, a second scan of the same
// site the same day is answered from the cache, and the engine's key is in
// no report, check and log. Not parallel: workers of other tests' servers
// share the package's queue and would run these scans without the engine.
func TestScanWithAnswerEngine(t *testing.T) {
	eng := scripted.Start(scripted.Demo())
	t.Cleanup(eng.Close)
	h := engine(t, map[string]string{
		"GEOSCAN_LLM_BASE_URL": eng.URL, "GEOSCAN_LLM_MODEL": "demo-model", "GEOSCAN_LLM_API_KEY": e2eEngineKey,
		"GEOSCAN_LLM_RUNS": "3",
	})
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	done := scan(ctx, t, org, s.URL(testsite.Bakery))
	require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v", done.ErrorMessage)
	first := eng.Calls()
	require.Positive(t, first)
	for _, c := range eng.Received() {
		require.Equal(t, "Bearer "+e2eEngineKey, c.Authorization)
		require.Equal(t, "demo-model", c.Model)
	}

	rep, err := org.Client.GetScanReportWithResponse(ctx, done.ID, &client.GetScanReportParams{Audience: ptr(client.GetScanReportParamsAudienceEngineering)})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, rep.StatusCode(), "body: %s", rep.Body)
	r := rep.JSON200
	statuses := map[string]client.CheckStatus{}
	for _, c := range r.Checks {
		if c.Pillar == "ai_mentions" {
			statuses[c.ID] = c.Status
			require.Contains(t, c.Evidence, "prompt_set", c.ID)
			require.Contains(t, c.Evidence, "engines", c.ID)
		}
	}
	require.Len(t, statuses, 4)
	// The demo script knows the brand in two runs of three: recognition
	// is measured (not na) and undecided or short of the mark.
	require.NotEqual(t, client.CheckStatusNa, statuses["llm_brand_recognition"])
	require.NotEqual(t, client.CheckStatusNa, statuses["llm_category_mention_rate"])
	require.Equal(t, client.CheckStatusNa, statuses["llm_search_citation"], "the only engine cannot search")
	prov := r.Summaries.Provenance
	require.NotNil(t, prov)
	require.Equal(t, client.ProvenanceLlm, prov.Executive.Source, "rejected: %v", prov.Executive.RejectedReason)
	require.Equal(t, "demo-model", *prov.Executive.Model)
	require.Contains(t, r.Summaries.Executive, "scripted demo summary")
	require.NotNil(t, r.Caveats)
	for _, c := range *r.Caveats {
		require.NotContains(t, c, "No answer engine")
	}

	// The same site again today: (almost) no calls.
	again := scan(ctx, t, org, s.URL(testsite.Bakery))
	require.Equal(t, client.ScanStatusCompleted, again.Status)
	require.Equal(t, first, eng.Calls(), "the second scan of the day is answered from the cache")
	rep2, err := org.Client.GetScanReportWithResponse(ctx, again.ID, &client.GetScanReportParams{Audience: ptr(client.GetScanReportParamsAudienceEngineering)})
	require.NoError(t, err)
	for _, c := range rep2.JSON200.Checks {
		if c.ID == "llm_brand_recognition" {
			require.Equal(t, statuses[c.ID], c.Status)
			require.Contains(t, strings.ReplaceAll(toJSON(t, c.Evidence), " ", ""), `"cached":true`)
		}
	}

	for _, body := range [][]byte{rep.Body, rep2.Body} {
		require.NotContains(t, string(body), e2eEngineKey)
	}
	checks, err := org.Client.ListScanChecksWithResponse(ctx, done.ID, nil)
	require.NoError(t, err)
	require.NotContains(t, string(checks.Body), e2eEngineKey)
	require.NotContains(t, h.Logs(), e2eEngineKey)
	require.Contains(t, h.Logs(), "answer engines used")
}

// TestScanWithoutAnswerEngine: nothing configured, the AI checks are na
// with the reason, the report and the dossier carry the caveat, and the
// summaries say they are templates. Nothing fails.
func TestScanWithoutAnswerEngine(t *testing.T) {
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	done := scan(ctx, t, org, s.URL(testsite.Bakery))
	require.Equal(t, client.ScanStatusCompleted, done.Status)
	rep, err := org.Client.GetScanReportWithResponse(ctx, done.ID, nil)
	require.NoError(t, err)
	r := rep.JSON200
	for _, c := range r.Checks {
		if c.Pillar == "ai_mentions" {
			require.Equal(t, client.CheckStatusNa, c.Status)
			require.Contains(t, c.Summary, "no AI answer engine was connected for this audit", "the marketing edition, in plain words")
		}
	}
	require.Equal(t, client.Template, r.Summaries.Source)
	require.Equal(t, client.ProvenanceTemplate, r.Summaries.Provenance.Trust.Source)
	require.NotNil(t, r.Caveats)
	require.Contains(t, strings.Join(*r.Caveats, " "), "No AI answer engine was connected for this audit")
	tri, err := org.Client.GetScanTriageWithResponse(ctx, done.ID, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, tri.StatusCode(), "body: %s", tri.Body)
	require.Contains(t, strings.Join(tri.JSON200.Caveats, " "), "No answer engine is configured")
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
