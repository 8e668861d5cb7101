package triage

import (
	"slices"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// lensDef is one risk lens and the checks it is derived from. A lens lists
// checks by id or takes a whole pillar.
type lensDef struct {
	id      string
	label   string
	checks  []string
	pillars []string
	// critical checks put the lens at critical when they fail.
	critical []string
}

var lensDefs = []lensDef{
	{
		id: "crawl_access", label: "Crawl access",
		checks:   []string{"ai_search_bots_allowed", "ai_user_fetchers_allowed", "edge_bot_reachability", "robots_txt_fetchable", "robots_txt_syntax", "meta_robots_indexable"},
		critical: []string{"ai_search_bots_allowed", "meta_robots_indexable"},
	},
	{id: "rendering", label: "Rendering", checks: []string{"ssr_text_content", "js_rendering_dependence", "text_html_ratio", "html_weight"}},
	{id: "extractability", label: "Content structure", checks: []string{"semantic_main"}, pillars: []string{"answer_structure"}},
	{id: "entity_trust", label: "Entity trust", pillars: []string{"entity_identity", "authorship_freshness"}},
	{id: "integrity", label: "Integrity", checks: []string{"hidden_prompt_injection", "negative_signals", "schema_visible_match"}, critical: []string{"hidden_prompt_injection"}},
	{id: "platform_fixability", label: "Platform fixability"},
}

// Buckets in rising order.
var buckets = []string{"low", "moderate", "high", "critical"}

// notMeasured is the bucket of a lens none of whose checks was scored: with
// no evidence either way, "low" would read as a finding.
const notMeasured = "not_measured"

type lensResult struct {
	def    lensDef
	bucket int // index into buckets; 0 when not measured
	// measured is whether any check of the lens was scored (always, for
	// platform_fixability, which rates the platform).
	measured bool
	basis    []string
	// worst are the failing checks that weigh most, for the summary.
	worst []checks.Outcome
}

func (l lensResult) Bucket() string {
	if !l.measured {
		return notMeasured
	}
	return buckets[l.bucket]
}

func (d lensDef) covers(c *checks.Check) bool {
	return slices.Contains(d.checks, c.ID) || slices.Contains(d.pillars, c.Pillar)
}

// lensOf returns the first check lens a check belongs to, or "".
func lensOf(c *checks.Check) string {
	for _, d := range lensDefs {
		if d.covers(c) {
			return d.id
		}
	}
	return ""
}

func gateCheck(id string) bool {
	for _, g := range scoring.Gates {
		if g.CheckID == id {
			return true
		}
	}
	return false
}

func lenses(det Detection, outcomes []checks.Outcome) []lensResult {
	out := make([]lensResult, 0, len(lensDefs))
	for _, d := range lensDefs {
		if d.id == "platform_fixability" {
			out = append(out, fixability(d, det, outcomes))
			continue
		}
		// Risk is the weighted share of points lost among the lens's
		// checks that were evaluated: fail loses all, warn half.
		var weight, lost float64
		r := lensResult{def: d, basis: []string{}}
		for _, o := range outcomes {
			if !d.covers(o.Check) {
				continue
			}
			r.basis = append(r.basis, o.Check.ID)
			score, ok := o.Result.Status.Score()
			if !ok || o.Check.Weight == 0 {
				continue
			}
			weight += o.Check.Weight
			lost += o.Check.Weight * (1 - score)
			if score < 1 {
				r.worst = append(r.worst, o)
			}
		}
		risk := 0.0
		if weight > 0 {
			risk, r.measured = lost/weight, true
		}
		switch {
		case risk >= 0.7:
			r.bucket = 3
		case risk >= 0.4:
			r.bucket = 2
		case risk >= 0.15:
			r.bucket = 1
		}
		for _, o := range r.worst {
			if o.Result.Status != checks.Fail {
				continue
			}
			if slices.Contains(d.critical, o.Check.ID) {
				r.bucket = 3
			} else if gateCheck(o.Check.ID) {
				r.bucket = max(r.bucket, 2)
			}
		}
		slices.SortStableFunc(r.worst, func(a, b checks.Outcome) int {
			sa, _ := a.Result.Status.Score()
			sb, _ := b.Result.Status.Score()
			la, lb := a.Check.Weight*(1-sa), b.Check.Weight*(1-sb)
			switch {
			case la > lb:
				return -1
			case la < lb:
				return 1
			}
			return 0
		})
		out = append(out, r)
	}
	return out
}

// fixability rates how hard the platform makes the fixes this site needs:
// hosted platforms limit root files and headers, locked builders also
// markup; a client-rendered application must be rebuilt to render on the
// server. Its basis is the weak checks whose effort the platform raised.
func fixability(d lensDef, det Detection, outcomes []checks.Outcome) lensResult {
	r := lensResult{def: d, basis: []string{}, measured: true}
	switch {
	case det.CMS == nil || det.CMS.Class == "":
		r.bucket = 1 // unknown platform or no profile of it: effort estimates are generic
	case det.CMS.Class == ClassHosted:
		r.bucket = 1
	case det.CMS.Class == ClassLocked:
		r.bucket = 2
	}
	raised, rebuild := false, false
	for _, o := range outcomes {
		if o.Result.Status != checks.Warn && o.Result.Status != checks.Fail {
			continue
		}
		if levelIndex(effortFor(o.Check, det)) > levelIndex(o.Check.Effort) {
			r.basis = append(r.basis, o.Check.ID)
			r.worst = append(r.worst, o)
			raised = true
			if surfaces[o.Check.ID] == surfaceRendering {
				rebuild = true
			}
		}
	}
	if raised {
		r.bucket++
	}
	if rebuild {
		r.bucket++
	}
	r.bucket = min(r.bucket, 3)
	return r
}
