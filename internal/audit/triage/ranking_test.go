package triage_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// fixedOutcomes is outcomes with the checks ids passing, as a fix would
// leave them.
func fixedOutcomes(outcomes []checks.Outcome, ids ...string) []checks.Outcome {
	out := slices.Clone(outcomes)
	for i := range out {
		if slices.Contains(ids, out[i].Check.ID) {
			out[i].Result.Status = checks.Pass
		}
	}
	return out
}

// gainOf is what re-scoring says fixing ids adds to the overall score,
// with the checks done already fixed: the test's own account, from
// audit.Score alone.
func gainOf(outcomes []checks.Outcome, done []string, ids ...string) float64 {
	before := audit.Score(fixedOutcomes(outcomes, done...)).Overall
	after := audit.Score(fixedOutcomes(outcomes, append(slices.Clone(done), ids...)...)).Overall
	return math.Round((after-before)*10) / 10
}

// withStatus is outcomes with some checks' statuses changed.
func withStatus(outcomes []checks.Outcome, status map[string]checks.Status) []checks.Outcome {
	out := slices.Clone(outcomes)
	for i := range out {
		if st, ok := status[out[i].Check.ID]; ok {
			out[i].Result.Status = st
		}
	}
	return out
}

// The broken fixture says noindex on its homepage and its robots.txt
// answers 503 (every AI search crawler shut out): the noindex gate holds
// search and trust at 40, so lifting the robots.txt gate alone gains
// nothing though it loses the most points. The first action is the fix
// that gains.
func TestBrokenFixtureStartsWithTheFixThatGains(t *testing.T) {
	res := audited(t, fetched(t, testsite.Broken))
	noindex := gainOf(res.Outcomes, nil, "meta_robots_indexable")
	require.Positive(t, noindex)
	require.Zero(t, gainOf(res.Outcomes, nil, "ai_search_bots_allowed"), "the robots.txt gate does not bind while noindex does")
	require.Greater(t, res.Scores.Impact["ai_search_bots_allowed"], res.Scores.Impact["meta_robots_indexable"],
		"what a check loses now is not what its fix gains")

	for _, d := range []api.TriageDossier{res.Triage.Marketing, res.Triage.Engineering} {
		first := d.PriorityActions[0]
		require.Equal(t, "meta_robots_indexable", first.CheckID, d.Audience)
		require.InDelta(t, noindex, *first.ExpectedGain, 1e-9)
		require.InDelta(t, noindex, *first.GainInOrder, 1e-9)
		require.Empty(t, *first.FixedWith)
		// Once noindex is fixed, the robots.txt fix gains: it is planned
		// with what it then adds.
		i := slices.IndexFunc(d.PriorityActions, func(a api.TriageAction) bool { return a.CheckID == "ai_search_bots_allowed" })
		require.Positive(t, i)
		require.Zero(t, *d.PriorityActions[i].ExpectedGain)
		require.Positive(t, *d.PriorityActions[i].GainInOrder)
	}
	title := checks.Lookup("meta_robots_indexable").Marketing.Title
	require.Contains(t, res.Triage.Marketing.SummaryParagraph, fmt.Sprintf("The first quick win: “%s” (+%.1f points)", title, noindex))
}

// effortCost is the rule of docs/TRIAGE.md: points per unit of effort,
// low 1, medium 2, high 4.
var effortCost = map[api.Level]float64{api.LevelLow: 1, api.LevelMedium: 2, api.LevelHigh: 4}

// On every fixture, in every language they are written in: each action
// adds what re-scoring with it and the actions above it made says, no
// action further down would have added more for its effort at the head of
// the list, and its gain alone is the report's for its check.
func TestActionsAreRankedByWhatTheyGain(t *testing.T) {
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			res := audited(t, fetched(t, name))
			report := map[string]api.CheckResult{}
			for _, c := range res.Report.Marketing.Checks {
				report[c.ID] = c
			}
			d := res.Triage.Marketing
			var done []string
			anyGain := false
			for i := 0; i < len(d.PriorityActions); {
				a := d.PriorityActions[i]
				group := append([]string{a.CheckID}, *a.FixedWith...)
				cost := 0.0
				for k, id := range group {
					b := d.PriorityActions[i+k]
					require.Contains(t, group, b.CheckID, "%s: the actions of a step are ranked together", name)
					require.InDelta(t, *a.GainInOrder, *b.GainInOrder, 1e-9)
					require.NotNil(t, report[id].ExpectedGain)
					require.InDelta(t, *report[id].ExpectedGain, *b.ExpectedGain, 1e-9, "%s: alone, as the report says", id)
					require.InDelta(t, gainOf(res.Outcomes, nil, id), *b.ExpectedGain, 1e-9, id)
					cost += effortCost[b.Effort]
				}
				require.InDelta(t, gainOf(res.Outcomes, done, group...), *a.GainInOrder, 1e-9, "%s: %v after %v", name, group, done)
				if i < 5 && *a.GainInOrder > 0 {
					for _, later := range d.PriorityActions[i+len(group):] {
						g := gainOf(res.Outcomes, done, later.CheckID)
						require.LessOrEqual(t, g/effortCost[later.Effort], *a.GainInOrder/cost+1e-9,
							"%s: %s (+%.1f, %s effort) would gain more than %v (+%.1f) after %v", name, later.CheckID, g, later.Effort, group, *a.GainInOrder, done)
					}
				}
				anyGain = anyGain || *a.GainInOrder > 0
				done = append(done, group...)
				i += len(group)
			}
			if anyGain {
				first := d.PriorityActions[0]
				require.Positive(t, *first.GainInOrder, "%s: an action that adds nothing is never ranked first", name)
				if len(*first.FixedWith) == 0 {
					require.Positive(t, *first.ExpectedGain)
				}
			}
		})
	}
}

// A site behind a CDN that challenges AI crawlers whose robots.txt also
// shuts one out: both gates cap search at 50, so neither fix gains alone
// and together they lift search. They are ranked first, together.
func TestGatesThatLiftOnlyTogetherAreRankedTogether(t *testing.T) {
	site := fetched(t, testsite.Edge)
	res := audited(t, site)
	require.Equal(t, checks.Fail, status(res.Outcomes, "edge_bot_reachability"))
	outcomes := withStatus(res.Outcomes, map[string]checks.Status{"ai_search_bots_allowed": checks.Fail})
	both := []string{"ai_search_bots_allowed", "edge_bot_reachability"}
	require.Zero(t, gainOf(outcomes, nil, both[0]))
	require.Zero(t, gainOf(outcomes, nil, both[1]))
	together := gainOf(outcomes, nil, both...)
	require.Positive(t, together)

	st, err := triage.Build(triage.Input{URL: site.Target.String(), Site: site, Outcomes: outcomes, Scores: audit.Score(outcomes)})
	require.NoError(t, err)
	for _, d := range []api.TriageDossier{st.Marketing, st.Engineering} {
		first, second := d.PriorityActions[0], d.PriorityActions[1]
		require.ElementsMatch(t, both, []string{first.CheckID, second.CheckID}, d.Audience)
		require.Equal(t, []string{second.CheckID}, *first.FixedWith)
		require.Equal(t, []string{first.CheckID}, *second.FixedWith)
		for _, a := range []api.TriageAction{first, second} {
			require.Zero(t, *a.ExpectedGain)
			require.InDelta(t, together, *a.GainInOrder, 1e-9)
		}
	}
	require.Contains(t, st.Marketing.SummaryParagraph, "only together with “")
}

func status(outcomes []checks.Outcome, id string) checks.Status {
	for _, o := range outcomes {
		if o.Check.ID == id {
			return o.Result.Status
		}
	}
	return ""
}
