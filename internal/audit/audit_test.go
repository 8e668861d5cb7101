package audit_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) { audittest.Main(m) }

// A fixture site is audited end to end, from the network to the snapshot,
// with no database anywhere.
func TestRunAuditsASiteEndToEnd(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	target := audittest.Target(t, testsite.Bakery, "Millbrook Bakery")
	res, err := audit.Run(context.Background(), target, audit.Options{Fetcher: f, FetchBudget: time.Minute})
	require.NoError(t, err)

	require.NotNil(t, res.Site)
	require.Equal(t, target.URL.String(), res.Site.Target.String())
	require.Len(t, res.Outcomes, len(checks.All()), "every check of the catalog is evaluated")
	require.Equal(t, audit.Score(res.Outcomes), res.Scores, "the scores are the rubric's of the outcomes")
	require.Greater(t, res.Scores.Overall, 0.0)

	require.NotNil(t, res.Report)
	require.Len(t, res.Report.Engineering.Checks, len(res.Outcomes))
	require.Len(t, res.Report.Marketing.Checks, len(res.Outcomes))
	require.NotNil(t, res.Report.Marketing.Caveats)
	require.Contains(t, strings.Join(*res.Report.Marketing.Caveats, " "), "No AI answer engine was connected for this audit")
	require.Contains(t, strings.Join(*res.Report.Engineering.Caveats, " "), "No answer engine is configured (GEOSCAN_LLM_BASE_URL)")
	for _, o := range res.Outcomes {
		if o.Check.Pillar == "ai_mentions" {
			require.Equal(t, checks.NA, o.Result.Status, "%s is not measured without an engine", o.Check.ID)
		}
	}

	require.NoError(t, res.TriageErr)
	require.NotNil(t, res.Triage)
	require.NotEmpty(t, res.Triage.Engineering.EvidenceLedger)

	require.NoError(t, res.SnapshotErr)
	restored, err := fetch.Restore(res.Snapshot)
	require.NoError(t, err)
	require.Equal(t, res.Site.Home.FinalURL, restored.Home.FinalURL, "the snapshot keeps the homepage")

	tm := res.Timings
	require.Positive(t, tm.Fetch)
	require.Positive(t, tm.Checks)
	require.Zero(t, tm.AI)
	require.GreaterOrEqual(t, tm.Total, tm.Fetch+tm.Parse+tm.Checks+tm.Report+tm.Triage+tm.Snapshot)
}

// With an answer engine the mention checks are measured, the summaries
// come from it, and what it spent is returned.
func TestRunAsksAnswerEngines(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(scripted.Demo())
	t.Cleanup(srv.Close)
	engine, err := llm.NewOpenAI(llm.EngineConfig{
		Name: "demo", BaseURL: srv.URL, Model: "m", Scripted: true,
		Capabilities: []llm.Capability{llm.Chat, llm.WebSearch},
	})
	require.NoError(t, err)
	layer := &llm.Layer{Default: engine, Engines: []llm.Engine{engine}, Limits: llm.DefaultLimits, Cache: &llm.MemoryCache{}}

	res := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{AI: layer})
	measured := 0
	for _, o := range res.Outcomes {
		if o.Check.Pillar == "ai_mentions" && o.Result.Status != checks.NA && o.Result.Status != checks.Error {
			measured++
		}
	}
	require.Equal(t, 4, measured, "the four AI mention checks are measured")
	require.Positive(t, res.AIUsage.Calls)
	require.Positive(t, res.Timings.AI)
	require.Contains(t, strings.Join(*res.Report.Marketing.Caveats, " "), "scripted demo engine")
}

// A homepage that cannot be read is the audit's error, worded for the
// site's owner; nothing else is returned.
func TestRunFailsWhenTheHomepageCannotBeRead(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	u, err := url.Parse("https://127.0.0.1:1/")
	require.NoError(t, err)
	res, err := audit.Run(context.Background(), audit.Target{URL: u}, audit.Options{Fetcher: f})
	var home *fetch.HomeError
	require.ErrorAs(t, err, &home)
	require.NotEmpty(t, home.Code)
	require.NotEmpty(t, home.Message)
	require.Nil(t, res.Report)
	require.Nil(t, res.Triage)
}

func TestRunWithoutAFetcherIsAnError(t *testing.T) {
	t.Parallel()
	u, err := url.Parse("https://example.test/")
	require.NoError(t, err)
	_, err = audit.Run(context.Background(), audit.Target{URL: u}, audit.Options{})
	require.Error(t, err)
}

// The dossier is derived: when it cannot be built the audit still
// completes, with the reason; a recomputation that cannot build it fails.
func TestADossierThatFailsLeavesTheAuditComplete(t *testing.T) {
	t.Parallel()
	boom := errors.New("dossier failed")
	failing := func(triage.Input) (triage.Stored, error) { return triage.Stored{}, boom }
	res := audittest.Run(t, testsite.WordPress, "", audit.Options{BuildTriage: failing})
	require.ErrorIs(t, res.TriageErr, boom)
	require.Nil(t, res.Triage)
	require.NotNil(t, res.Report)
	require.NotNil(t, res.Snapshot)

	_, err := audit.Run(context.Background(), audittest.Target(t, testsite.WordPress, ""),
		audit.Options{BuildTriage: failing, Prior: &audit.Prior{Outcomes: res.Outcomes, Snapshot: res.Snapshot, AgentReadiness: res.AgentReadiness}})
	require.ErrorIs(t, err, boom)
}

// A recomputation without a snapshot reads the site again and says so in
// the dossier; one with a snapshot reads nothing.
func TestPriorRecomputesTheDossier(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	first := audittest.Run(t, testsite.Docs, "", audit.Options{})
	target := audittest.Target(t, testsite.Docs, "")

	fromSnapshot, err := audit.Run(context.Background(), target,
		audit.Options{Prior: &audit.Prior{Outcomes: first.Outcomes, Snapshot: first.Snapshot, AgentReadiness: first.AgentReadiness}})
	require.NoError(t, err)
	require.False(t, fromSnapshot.Refetched)
	require.Nil(t, fromSnapshot.Report, "a recomputation writes no report")
	require.Equal(t, first.Scores, fromSnapshot.Scores)
	require.Equal(t, *first.Triage, *fromSnapshot.Triage)

	refetched, err := audit.Run(context.Background(), target, audit.Options{
		Fetcher: f, Now: func() time.Time { return audittest.Now }, Prior: &audit.Prior{Outcomes: first.Outcomes},
	})
	require.NoError(t, err)
	require.True(t, refetched.Refetched)
	require.Contains(t, strings.Join(refetched.Triage.Marketing.Caveats, " "), "recomputed from a fresh fetch of the site made after the scan, on 22 November 2026")
	require.Equal(t, first.Scores, refetched.Scores, "the scores come from the stored outcomes, not the new fetch")
}

// Scores are a function of the outcomes' statuses alone: a check that
// fails instead of passing lowers them.
func TestScoreFollowsTheStatuses(t *testing.T) {
	t.Parallel()
	res := audittest.Run(t, testsite.Bakery, "", audit.Options{})
	changed := append([]checks.Outcome(nil), res.Outcomes...)
	flipped := 0
	for i, o := range changed {
		if o.Result.Status == checks.Pass && o.Check.Ring == scoring.RingSearch {
			changed[i].Result.Status = checks.Fail
			flipped++
		}
	}
	require.Positive(t, flipped)
	require.Less(t, audit.Score(changed).Ring(scoring.RingSearch).Score, res.Scores.Ring(scoring.RingSearch).Score)
}
