package scoring

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func cs(id string, ring Ring, pillar string, w float64, status string) CheckScore {
	return CheckScore{ID: id, Ring: ring, Pillar: pillar, Weight: w, Status: status}
}

func TestPillarAndRingArithmetic(t *testing.T) {
	t.Parallel()
	r := Score([]CheckScore{
		cs("a", "search", "crawl_access", 10, "pass"),
		cs("b", "search", "crawl_access", 5, "warn"),
		cs("c", "search", "crawl_access", 5, "fail"),
		cs("d", "search", "crawl_access", 3, "na"),
		cs("e", "search", "crawl_access", 0, "info"),
		cs("f", "search", "indexability", 2, "pass"),
	})
	search := r.Ring(RingSearch)
	crawl := search.Pillars[0]
	require.Equal(t, "crawl_access", crawl.Def.ID)
	// (10·1 + 5·0.5 + 5·0) / 20 = 62.5 → 63 (na and info left out).
	require.InDelta(t, 62.5, crawl.Raw, 1e-9)
	require.Equal(t, 63, *crawl.Score)
	require.InDelta(t, 20.0/23.0, crawl.Coverage, 0.001)
	// Pillars without checks are left out and the weights renormalize:
	// (0.40·62.5 + 0.30·100) / 0.70 = 78.57 → 79.
	require.Equal(t, 79, search.Score)
	require.Equal(t, "B", search.Grade.Grade)
	require.Nil(t, search.Pillars[2].Score, "discovery has no checks")
	// Rings without any scored check score 0 with coverage 0.
	require.Equal(t, 0, r.Ring(RingTrust).Score)
	require.InDelta(t, 27.7, r.Overall, 1e-9) // 0.35·79 = 27.65 → 27.7
}

func TestGatesCapAndAreNamed(t *testing.T) {
	t.Parallel()
	r := Score([]CheckScore{
		cs("homepage_http_ok", "search", "indexability", 10, "pass"),
		cs("ai_search_bots_allowed", "search", "crawl_access", 10, "fail"),
		cs("robots", "search", "crawl_access", 90, "pass"),
		cs("ssr_text_content", "visibility", "extractability", 10, "pass"),
	})
	search := r.Ring(RingSearch)
	require.Equal(t, 50, search.Score)
	require.Equal(t, "search_blocked_for_ai_search", search.CappedBy)
	require.Len(t, r.Gates, 1)
	require.Equal(t, RingSearch, r.Gates[0].Ring)
	require.Empty(t, r.Ring(RingVisibility).CappedBy)
	require.Greater(t, r.Impact["ai_search_bots_allowed"], r.Impact["robots"])

	// A gate whose cap is above the score fires but caps nothing.
	low := Score([]CheckScore{
		cs("ai_search_bots_allowed", "search", "crawl_access", 10, "fail"),
		cs("robots", "search", "crawl_access", 10, "fail"),
	})
	require.Len(t, low.Gates, 1)
	require.Empty(t, low.Ring(RingSearch).CappedBy)

	// The homepage gate caps every ring.
	all := Score([]CheckScore{
		cs("homepage_http_ok", "search", "indexability", 10, "fail"),
		cs("x", "search", "crawl_access", 10, "pass"),
		cs("y", "visibility", "extractability", 10, "pass"),
		cs("z", "trust", "entity_identity", 10, "pass"),
	})
	require.Len(t, all.Gates, 3)
	for _, ring := range Rings {
		require.LessOrEqual(t, all.Ring(ring).Score, 40, ring)
	}
	require.Equal(t, "high", ImpactLevel(all.Impact["homepage_http_ok"]))
}

func TestGradeBands(t *testing.T) {
	t.Parallel()
	for score, want := range map[float64]string{100: "A+", 95: "A+", 94.9: "A", 85: "A", 84.9: "B", 70: "B", 69.9: "C", 55: "C", 54.9: "D", 40: "D", 39.9: "F", 0: "F"} {
		require.Equal(t, want, GradeFor(score).Grade, "score %v", score)
	}
}

func TestOverallHasOneDecimal(t *testing.T) {
	t.Parallel()
	r := Score([]CheckScore{
		cs("a", "search", "crawl_access", 3, "warn"),
		cs("b", "search", "crawl_access", 3, "pass"),
		cs("c", "visibility", "extractability", 3, "pass"),
		cs("d", "trust", "entity_identity", 7, "warn"),
		cs("e", "trust", "entity_identity", 3, "pass"),
	})
	require.InDelta(t, r.Overall*10, float64(int(r.Overall*10+0.5)), 1e-6)
	// 0.35·75 + 0.35·100 + 0.30·65 = 80.75 → 80.8
	require.InDelta(t, 80.8, r.Overall, 1e-9)
}
