package report_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// fixedOutcomes is outcomes with the checks ids passing.
func fixedOutcomes(outcomes []checks.Outcome, ids ...string) []checks.Outcome {
	out := slices.Clone(outcomes)
	for i := range out {
		if slices.Contains(ids, out[i].Check.ID) {
			out[i].Result.Status = checks.Pass
		}
	}
	return out
}

// rescored is what re-scoring with the checks ids fixed says they add:
// overall points (one decimal) and ring points, from audit.Score alone.
func rescored(outcomes []checks.Outcome, ids ...string) (float64, map[scoring.Ring]int) {
	before, after := audit.Score(outcomes), audit.Score(fixedOutcomes(outcomes, ids...))
	rings := map[scoring.Ring]int{}
	for _, ring := range scoring.Rings {
		rings[ring] = after.Ring(ring).Score - before.Ring(ring).Score
	}
	return math.Round((after.Overall-before.Overall)*10) / 10, rings
}

func ringGains(g *api.RingGains) map[scoring.Ring]int {
	return map[scoring.Ring]int{scoring.RingSearch: g.Search, scoring.RingVisibility: g.Visibility, scoring.RingTrust: g.Trust}
}

// titled finds the check a marketing summary names by its title.
func titled(list []api.CheckResult, title string) api.CheckResult {
	for _, c := range list {
		if c.Title == title {
			return c
		}
	}
	return api.CheckResult{}
}

const gainsMost = "The fix that would gain the most: “"

// On every fixture, in the languages they are written in: each warned or
// failed check says what fixing it alone adds, as re-scoring says; the
// executive summary calls the fix that adds the most (never one that adds
// nothing) the one that would gain the most, and the best combination adds
// what re-scoring with all of it says.
func TestReportGainsAreRescored(t *testing.T) {
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			res := audittest.Run(t, name, "", audit.Options{})
			r := res.Report.Marketing
			most := 0.0
			for _, c := range r.Checks {
				if (c.Status != api.CheckStatusWarn && c.Status != api.CheckStatusFail) || c.Weight == 0 {
					require.Nil(t, c.ExpectedGain, "%s: nothing to fix", c.ID)
					continue
				}
				overall, rings := rescored(res.Outcomes, c.ID)
				require.NotNil(t, c.ExpectedGain, c.ID)
				require.InDelta(t, overall, *c.ExpectedGain, 1e-9, c.ID)
				require.Equal(t, rings, ringGains(c.ExpectedRingGains), c.ID)
				most = max(most, overall)
			}

			exec := r.Summaries.Executive
			if most == 0 {
				require.NotContains(t, exec, gainsMost)
			} else {
				require.Contains(t, exec, gainsMost)
				title, _, _ := strings.Cut(strings.SplitN(exec, gainsMost, 2)[1], "”")
				named := titled(r.Checks, title)
				require.NotNil(t, named.ExpectedGain, "the summary names %q", title)
				require.InDelta(t, most, *named.ExpectedGain, 1e-9, "%s gains the most", named.ID)
				require.Contains(t, exec, fmt.Sprintf("would add %.1f points", most))
				require.Contains(t, res.Report.Engineering.Summaries.Executive, "Largest gain from one fix: "+named.ID+" (")
			}

			combo := r.BestCombination
			require.NotNil(t, combo)
			require.LessOrEqual(t, len(combo.CheckIds), scoring.MaxCombination)
			overall, rings := rescored(res.Outcomes, combo.CheckIds...)
			require.InDelta(t, overall, combo.ExpectedGain, 1e-9)
			require.Equal(t, rings, ringGains(&combo.ExpectedRingGains))
			require.GreaterOrEqual(t, combo.ExpectedGain, most)
			require.Equal(t, combo, res.Report.Engineering.BestCombination, "facts are the same for both audiences")
		})
	}
}

// The broken fixture's homepage says noindex and its robots.txt answers
// 503: the robots.txt check loses the most points, but noindex holds
// search and trust at 40, so only the noindex fix gains anything alone.
func TestBrokenFixtureNamesTheNoindexFix(t *testing.T) {
	res := audittest.Run(t, testsite.Broken, "", audit.Options{})
	noindex, _ := rescored(res.Outcomes, "meta_robots_indexable")
	require.Positive(t, noindex)
	robots, _ := rescored(res.Outcomes, "ai_search_bots_allowed")
	require.Zero(t, robots)
	require.Greater(t, res.Scores.Impact["ai_search_bots_allowed"], res.Scores.Impact["meta_robots_indexable"])

	title := checks.Lookup("meta_robots_indexable").Marketing.Title
	require.Contains(t, res.Report.Marketing.Summaries.Executive,
		fmt.Sprintf("%s%s”, which fails today; fixing it would add %.1f points to the overall score.", gainsMost, title, noindex))
	require.Contains(t, res.Report.Engineering.Summaries.Executive,
		fmt.Sprintf("Largest gain from one fix: meta_robots_indexable (fail), +%.1f overall", noindex))
	// Once noindex is fixed the other gates bind and their fixes gain:
	// the best combination starts with noindex and adds more.
	combo := res.Report.Marketing.BestCombination
	require.Equal(t, "meta_robots_indexable", combo.CheckIds[0])
	require.Greater(t, combo.ExpectedGain, noindex)
	require.Contains(t, res.Report.Marketing.Summaries.Executive, fmt.Sprintf("it would add %.1f points.", combo.ExpectedGain))
}

// A site behind a CDN that challenges AI crawlers, whose robots.txt also
// shuts one out: both gates cap search at 50, so neither fix gains alone
// and together they lift search. The summary names them together.
func TestGatesThatLiftOnlyTogetherAreNamedTogether(t *testing.T) {
	res := audittest.Run(t, testsite.Edge, "", audit.Options{})
	outcomes := slices.Clone(res.Outcomes)
	for i := range outcomes {
		if outcomes[i].Check.ID == "ai_search_bots_allowed" {
			outcomes[i].Result.Status = checks.Fail
		}
	}
	both := []string{"ai_search_bots_allowed", "edge_bot_reachability"}
	// Everything else passing too: no single fix gains at all.
	alone := slices.Clone(outcomes)
	for i := range alone {
		if _, ok := alone[i].Result.Status.Score(); ok && !slices.Contains(both, alone[i].Check.ID) {
			alone[i].Result.Status = checks.Pass
		}
	}
	for _, c := range []struct {
		name     string
		outcomes []checks.Outcome
		single   bool // another fix gains alone
	}{{"with the site's other issues", outcomes, true}, {"with nothing else to fix", alone, false}} {
		t.Run(c.name, func(t *testing.T) {
			a, _ := rescored(c.outcomes, both[0])
			b, _ := rescored(c.outcomes, both[1])
			together, rings := rescored(c.outcomes, both...)
			require.Zero(t, a)
			require.Zero(t, b)
			require.Positive(t, together)
			require.Positive(t, rings[scoring.RingSearch])

			st := report.Build(report.Input{URL: res.Report.Marketing.URL, BrandName: "Fortress", Outcomes: c.outcomes, Scores: audit.Score(c.outcomes), Site: res.Site})
			m, e := st.Marketing, st.Engineering
			for _, id := range both {
				require.Contains(t, m.Summaries.Executive, "“"+checks.Lookup(id).Marketing.Title+"”")
				require.Contains(t, m.BestCombination.CheckIds, id)
				require.Contains(t, e.Summaries.Executive, id)
			}
			overall, _ := rescored(c.outcomes, m.BestCombination.CheckIds...)
			require.InDelta(t, overall, m.BestCombination.ExpectedGain, 1e-9)
			require.GreaterOrEqual(t, m.BestCombination.ExpectedGain, together)
			if c.single {
				require.Contains(t, m.Summaries.Executive, gainsMost)
				require.Contains(t, m.Summaries.Executive, fmt.Sprintf("it would add %.1f points.", m.BestCombination.ExpectedGain))
				require.Contains(t, e.Summaries.Executive, "Best combination: ")
				return
			}
			require.NotContains(t, m.Summaries.Executive, gainsMost)
			require.Contains(t, m.Summaries.Executive, fmt.Sprintf("No single fix would raise the score on its own: critical issues hold it down together. Fixing %s together would add %.1f points.",
				"“"+checks.Lookup(m.BestCombination.CheckIds[0]).Marketing.Title+"” and “"+checks.Lookup(m.BestCombination.CheckIds[1]).Marketing.Title+"”", together))
			require.Contains(t, e.Summaries.Executive, "No single fix raises the overall score;")
		})
	}
}

// A near-perfect site whose one open issue is too small to move the
// rounded score: nothing is called the fix that would gain the most, and
// the summary says no fix would raise the score.
func TestNothingGainsIsSaid(t *testing.T) {
	res := audittest.Run(t, testsite.Docs, "", audit.Options{})
	var outcomes []checks.Outcome
	var found string
	for _, c := range res.Outcomes {
		if c.Check.Weight != 1 || found != "" {
			continue
		}
		trial := slices.Clone(res.Outcomes)
		for i := range trial {
			if _, ok := trial[i].Result.Status.Score(); ok && trial[i].Result.Status != checks.Pass {
				trial[i].Result.Status = checks.Pass
			}
			if trial[i].Check.ID == c.Check.ID {
				trial[i].Result.Status = checks.Warn
			}
		}
		if g, _ := rescored(trial, c.Check.ID); g == 0 {
			outcomes, found = trial, c.Check.ID
		}
	}
	require.NotEmpty(t, found, "a minor check whose fix the rounding hides")

	st := report.Build(report.Input{URL: res.Report.Marketing.URL, BrandName: "Lumen", Outcomes: outcomes, Scores: audit.Score(outcomes), Site: res.Site})
	exec := st.Marketing.Summaries.Executive
	require.NotContains(t, exec, gainsMost)
	require.Contains(t, exec, "No fix left would raise the overall score on its own. The largest open issue: “"+checks.Lookup(found).Marketing.Title+"”")
	require.Empty(t, st.Marketing.BestCombination.CheckIds)
	require.Zero(t, st.Marketing.BestCombination.ExpectedGain)
}

// The PDF ranks where to start as the dossier does and shows what each
// fix adds: the broken fixture starts with the noindex fix and its gain,
// and the robots.txt fix says it gains only after the fixes above it.
func TestPDFShowsWhatFixesGain(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.Broken, "")
	for _, audience := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		d := f.dossier.For(audience)
		text := pdfText(t, f.pdf(t, audience))
		first := d.PriorityActions[0]
		require.Equal(t, "meta_robots_indexable", first.CheckID)
		require.Contains(t, text, fmt.Sprintf("Where to start 1. %s QUICK WIN Impact %s · effort %s · +%.1f points", first.Label, first.Impact, first.Effort, *first.GainInOrder))
		i := slices.IndexFunc(d.PriorityActions, func(a api.TriageAction) bool { return a.CheckID == "ai_search_bots_allowed" })
		a := d.PriorityActions[i]
		require.Contains(t, text, fmt.Sprintf("%d. %s QUICK WIN Impact %s · effort %s · +%.1f points after those above (alone +0.0)", i+1, a.Label, a.Impact, a.Effort, *a.GainInOrder))
		require.Contains(t, text, "Ranked by the points each fix adds to the overall score")
	}
}
