package scoring

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// site is a small scan shaped like a real one: every ring has checks in
// several pillars, the gating checks among them.
func site(overrides map[string]string) []CheckScore {
	list := []CheckScore{
		cs("robots_txt_fetchable", RingSearch, "crawl_access", 5, "pass"),
		cs("ai_search_bots_allowed", RingSearch, "crawl_access", 10, "pass"),
		cs("edge_bot_reachability", RingSearch, "crawl_access", 5, "pass"),
		cs("homepage_http_ok", RingSearch, "indexability", 10, "pass"),
		cs("meta_robots_indexable", RingSearch, "indexability", 10, "pass"),
		cs("canonical_valid", RingSearch, "indexability", 3, "warn"),
		cs("sitemap_present", RingSearch, "discovery", 5, "fail"),
		cs("ttfb", RingSearch, "delivery", 3, "pass"),
		cs("ssr_text_content", RingVisibility, "extractability", 10, "pass"),
		cs("single_h1", RingVisibility, "answer_structure", 3, "warn"),
		cs("jsonld_valid", RingVisibility, "structured_data", 5, "fail"),
		cs("title_quality", RingVisibility, "machine_metadata", 3, "pass"),
		cs("organization_entity", RingTrust, "entity_identity", 5, "fail"),
		cs("sameas_profiles", RingTrust, "entity_identity", 3, "fail"),
		cs("author_attribution", RingTrust, "authorship_freshness", 3, "pass"),
		cs("hsts", RingTrust, "site_security", 1, "fail"),
		cs("hidden_prompt_injection", RingTrust, "content_integrity", 5, "pass"),
		cs("llm_brand_recognition", RingTrust, "ai_mentions", 3, "na"),
	}
	for i := range list {
		if st, ok := overrides[list[i].ID]; ok {
			list[i].Status = st
		}
	}
	return list
}

// applied is results with the checks ids passing.
func applied(results []CheckScore, ids ...string) []CheckScore {
	out := append([]CheckScore(nil), results...)
	for i := range out {
		for _, id := range ids {
			if out[i].ID == id {
				out[i].Status = "pass"
			}
		}
	}
	return out
}

// fixed re-scores results with the checks ids passing: the test's own
// account of what a fix gains, from Score alone.
func fixed(results []CheckScore, ids ...string) Result {
	return Score(applied(results, ids...))
}

func gainOf(results []CheckScore, ids ...string) float64 {
	return round(fixed(results, ids...).Overall-Score(results).Overall, 1)
}

func TestGainsRescoreWithTheFixApplied(t *testing.T) {
	t.Parallel()
	// The homepage says noindex and robots.txt shuts out an AI search
	// crawler: noindex holds every ring at 40, so lifting the robots.txt
	// gate alone changes nothing while noindex still binds.
	in := site(map[string]string{"meta_robots_indexable": "fail", "ai_search_bots_allowed": "fail"})
	r := Score(in)
	require.Equal(t, "homepage_noindex", r.Ring(RingSearch).CappedBy)

	for _, id := range []string{"meta_robots_indexable", "ai_search_bots_allowed", "organization_entity", "jsonld_valid", "canonical_valid"} {
		require.InDelta(t, gainOf(in, id), r.Gains[id].Overall, 1e-9, id)
	}
	require.Positive(t, r.Gains["meta_robots_indexable"].Overall)
	require.Zero(t, r.Gains["ai_search_bots_allowed"].Overall, "noindex still caps search at 40")
	require.Positive(t, r.Impact["ai_search_bots_allowed"], "impact counts the cap though it does not bind")
	require.Zero(t, r.Gains["organization_entity"].Overall, "trust is held at 40")
	require.NotContains(t, r.Gains, "ttfb", "a passing check has nothing to fix")
	require.NotContains(t, r.Gains, "llm_brand_recognition", "nor has one not measured")

	// Per ring: the fix lifts the rings noindex held down, by the points
	// re-scoring says.
	after := fixed(in, "meta_robots_indexable")
	for _, ring := range Rings {
		require.Equal(t, after.Ring(ring).Score-r.Ring(ring).Score, r.Gains["meta_robots_indexable"].Rings[ring], ring)
	}

	best, ok := r.BestFix()
	require.True(t, ok)
	require.Equal(t, []string{"meta_robots_indexable"}, best.CheckIDs)

	plan := r.Plan(nil)
	require.Equal(t, []string{"meta_robots_indexable"}, plan[0].CheckIDs)
	require.Positive(t, plan[0].Gain.Overall)
	// Once noindex is fixed, robots.txt's gate binds search and its fix
	// gains: the plan says so at the second step.
	require.Equal(t, []string{"ai_search_bots_allowed"}, plan[1].CheckIDs)
	require.InDelta(t, gainOf(site(map[string]string{"ai_search_bots_allowed": "fail"}), "ai_search_bots_allowed"), plan[1].Gain.Overall, 1e-9)
}

func TestPlanFindsGatesThatLiftOnlyTogether(t *testing.T) {
	t.Parallel()
	// robots.txt blocks an AI search crawler and the CDN challenges the
	// others: both gates cap search at 50, so neither fix gains alone.
	in := site(map[string]string{"ai_search_bots_allowed": "fail", "edge_bot_reachability": "fail", "sitemap_present": "pass", "canonical_valid": "pass"})
	r := Score(in)
	require.Equal(t, 50, r.Ring(RingSearch).Score)
	require.Zero(t, r.Gains["ai_search_bots_allowed"].Overall)
	require.Zero(t, r.Gains["edge_bot_reachability"].Overall)
	together := gainOf(in, "ai_search_bots_allowed", "edge_bot_reachability")
	require.Positive(t, together)

	plan := r.Plan(nil)
	require.ElementsMatch(t, []string{"ai_search_bots_allowed", "edge_bot_reachability"}, plan[0].CheckIDs)
	require.InDelta(t, together, plan[0].Gain.Overall, 1e-9)
	require.Positive(t, plan[0].Gain.Rings[RingSearch])
	require.Subset(t, r.Combination.CheckIDs, []string{"ai_search_bots_allowed", "edge_bot_reachability"})
	require.LessOrEqual(t, len(r.Combination.CheckIDs), MaxCombination)
	require.InDelta(t, gainOf(in, r.Combination.CheckIDs...), r.Combination.Gain.Overall, 1e-9)
	require.Greater(t, r.Combination.Gain.Overall, together-1e-9)

	// The homepage erroring and saying noindex: two caps of 40 on every
	// ring, lifted only together.
	down := Score(site(map[string]string{"homepage_http_ok": "fail", "meta_robots_indexable": "fail", "sitemap_present": "pass"}))
	require.Zero(t, down.Gains["homepage_http_ok"].Overall)
	require.Zero(t, down.Gains["meta_robots_indexable"].Overall)
	first := down.Plan(nil)[0]
	require.ElementsMatch(t, []string{"homepage_http_ok", "meta_robots_indexable"}, first.CheckIDs)
	require.Positive(t, first.Gain.Overall)
	_, ok := down.BestFix()
	require.False(t, ok, "no single fix gains: none is the best")
}

func TestPlanAddsUpAndWeighsCost(t *testing.T) {
	t.Parallel()
	in := site(map[string]string{"meta_robots_indexable": "fail", "ai_search_bots_allowed": "fail", "ssr_text_content": "fail"})
	r := Score(in)
	plan := r.Plan(nil)
	var ids []string
	var sum float64
	for _, step := range plan {
		// Each step gains what re-scoring with it and the steps before
		// made says, and no check left would have gained more.
		made := applied(in, ids...)
		require.InDelta(t, gainOf(made, step.CheckIDs...), step.Gain.Overall, 1e-9, step.CheckIDs)
		for _, c := range made {
			if c.Status == "warn" || c.Status == "fail" {
				require.LessOrEqual(t, gainOf(made, c.ID), step.Gain.Overall/float64(len(step.CheckIDs))+1e-9, "%s before %v", c.ID, step.CheckIDs)
			}
		}
		ids = append(ids, step.CheckIDs...)
		sum += step.Gain.Overall
	}
	// With noindex holding every ring at 40, the gates' fixes gain more
	// once another is made: gains need not fall step by step.
	require.Greater(t, plan[1].Gain.Overall, plan[0].Gain.Overall)
	require.ElementsMatch(t, []string{"meta_robots_indexable", "ai_search_bots_allowed", "ssr_text_content", "canonical_valid", "sitemap_present", "single_h1", "jsonld_valid", "organization_entity", "sameas_profiles", "hsts"}, ids)
	// Every step is measured with the ones before it made, so the steps
	// add up to fixing everything.
	require.InDelta(t, round(fixed(in, ids...).Overall-r.Overall, 1), sum, 1e-9)
	require.Equal(t, plan, r.Plan(nil), "deterministic")

	// Made costly enough, the fix that gains the most gives way to cheaper
	// ones that gain more per unit of cost.
	costly := func(id string) float64 {
		if id == "meta_robots_indexable" {
			return 100
		}
		return 1
	}
	weighed := r.Plan(costly)
	require.NotEqual(t, []string{"meta_robots_indexable"}, weighed[0].CheckIDs)
	require.Positive(t, weighed[0].Gain.Overall)
}

func TestNothingToGain(t *testing.T) {
	t.Parallel()
	clean := site(map[string]string{"canonical_valid": "pass", "sitemap_present": "pass", "single_h1": "pass", "jsonld_valid": "pass", "organization_entity": "pass", "sameas_profiles": "pass", "hsts": "pass"})
	r := Score(clean)
	_, ok := r.BestFix()
	require.False(t, ok)
	require.Empty(t, r.Plan(nil))
	require.Empty(t, r.Combination.CheckIDs)
	require.Empty(t, r.Gains)

	// A fix too small to move a rounded score gains nothing as reported;
	// it is still planned, after nothing, with its gain at 0.
	big := append(clean, cs("x", RingTrust, "site_security", 1000, "pass"))
	big[len(big)-2].Status = "pass"
	big = append(big, cs("hsts2", RingTrust, "site_security", 1, "warn"))
	r = Score(big)
	_, ok = r.BestFix()
	require.False(t, ok)
	plan := r.Plan(nil)
	require.Len(t, plan, 1)
	require.Zero(t, plan[0].Gain.Overall)
	require.Empty(t, r.Combination.CheckIDs)
}

func TestZeroValueResultHasNoPlan(t *testing.T) {
	t.Parallel()
	var r Result
	require.Nil(t, r.Plan(nil))
	_, ok := r.BestFix()
	require.False(t, ok)
}

// BenchmarkScoreAndPlan scores a scan in which every check fails, the
// gating ones included, and plans its fixes: the most re-scoring a scan
// can ask for.
func BenchmarkScoreAndPlan(b *testing.B) {
	var in []CheckScore
	for _, g := range Gates {
		def, _ := Pillar(map[Ring]string{RingSearch: "indexability", RingVisibility: "extractability", RingTrust: "content_integrity"}[g.Rings[len(g.Rings)-1]])
		in = append(in, cs(g.CheckID, def.Ring, def.ID, 10, "fail"))
	}
	for _, p := range Pillars {
		for j := range 5 {
			in = append(in, cs(p.ID+string(rune('a'+j)), p.Ring, p.ID, float64(1+j), "fail"))
		}
	}
	for b.Loop() {
		Score(in).Plan(nil)
	}
}
