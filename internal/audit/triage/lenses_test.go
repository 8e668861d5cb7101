package triage_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/triage"
)

// A lens none of whose checks was scored is not measured, in both
// audiences' dossiers: "low" would read as evidence. One scored check
// measures it.
func TestLensWithNothingScoredIsNotMeasured(t *testing.T) {
	t.Parallel()
	in := platformInput(t, http.Header{}, `<html><body><main><h1>Plain</h1><p>Text.</p></main></body></html>`)
	extractability := func(c *checks.Check) bool { return c.ID == "semantic_main" || c.Pillar == "answer_structure" }
	for i, o := range in.Outcomes {
		if extractability(o.Check) {
			in.Outcomes[i].Result.Status = checks.NA
		}
	}
	in.Scores = audit.Score(in.Outcomes)

	buckets := func(in triage.Input) map[api.TriageRiskLensLensID]map[api.TriageDossierAudience]api.TriageRiskLensBucket {
		t.Helper()
		stored, err := triage.Build(in)
		require.NoError(t, err)
		out := map[api.TriageRiskLensLensID]map[api.TriageDossierAudience]api.TriageRiskLensBucket{}
		for _, d := range []api.TriageDossier{stored.Marketing, stored.Engineering} {
			for _, l := range d.RiskLenses {
				if out[l.LensID] == nil {
					out[l.LensID] = map[api.TriageDossierAudience]api.TriageRiskLensBucket{}
				}
				out[l.LensID][d.Audience] = l.Bucket
				require.True(t, l.Bucket.Valid(), "%s: %s is in the contract", l.LensID, l.Bucket)
			}
		}
		return out
	}

	got := buckets(in)
	for lens, byAudience := range got {
		for audience, bucket := range byAudience {
			if lens == api.Extractability {
				require.Equal(t, api.TriageRiskLensBucketNotMeasured, bucket, "%s, %s", lens, audience)
			} else {
				require.NotEqual(t, api.TriageRiskLensBucketNotMeasured, bucket, "%s, %s", lens, audience)
			}
		}
	}

	for i, o := range in.Outcomes {
		if o.Check.ID == "semantic_main" {
			in.Outcomes[i].Result.Status = checks.Pass
		}
	}
	in.Scores = audit.Score(in.Outcomes)
	require.Equal(t, api.TriageRiskLensBucketLow, buckets(in)[api.Extractability][api.TriageDossierAudienceMarketing])
}
