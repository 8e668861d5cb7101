package scoring

import (
	"cmp"
	"slices"
)

// MaxCombination bounds the checks of Result.Combination, and of one step
// of a plan.
const MaxCombination = 3

// planDepth bounds the greedy search of Plan: past it, the remaining
// fixes are ordered by what each adds alone once the steps before are
// made, which costs one re-scoring per fix instead of one per pair.
const planDepth = 12

// tiny is a gain too small to be one: scores that do not change are
// computed from the same numbers in the same order and compare equal.
const tiny = 1e-9

// Gain is what a fix adds to the scores a report shows: the scan
// re-scored with the fixed checks passing, caps and gates included, minus
// the scores now. It is never negative.
type Gain struct {
	// Overall is in points of the overall score, one decimal, as the
	// report would show it after the fix.
	Overall float64
	// Rings holds, per ring, the points its score gains.
	Rings map[Ring]int
	// exact is the overall gain before the ring scores are rounded; it
	// orders fixes whose rounded gains are equal.
	exact float64
}

// Fix is checks fixed together and what that adds.
type Fix struct {
	CheckIDs []string
	Gain     Gain
}

// BestFix is the single fix that adds the most to the overall score as
// reported (ties: the larger gain before rounding, then the earlier
// check); ok is false when no fix alone would change the overall score.
func (r Result) BestFix() (best Fix, ok bool) {
	if r.rollup == nil {
		return Fix{}, false
	}
	for _, i := range r.rollup.open() {
		id := r.rollup.checks[i].ID
		g := r.Gains[id]
		if g.Overall > 0 && (!ok || g.Overall > best.Gain.Overall || g.Overall == best.Gain.Overall && g.exact > best.Gain.exact+tiny) {
			best, ok = Fix{CheckIDs: []string{id}, Gain: g}, true
		}
	}
	return best, ok
}

// Plan orders every warned and failed scored check into the fixes to make,
// step by step, and says what each step adds with the steps before it
// made. Each step is chosen greedily: the largest gain in the overall
// score as reported over its cost (then the gain before rounding), where
// cost(id) is the cost of a check's fix (nil: every fix costs the same).
// A step is one check, or up to MaxCombination failing gating checks that
// gain nothing alone but do together: two gates capping a ring at the
// same level lift it only when both are fixed. Fixes that would add nothing
// come last, by Impact over cost. The same results give the same plan.
func (r Result) Plan(cost func(id string) float64) []Fix {
	if r.rollup == nil {
		return nil
	}
	return r.rollup.plan(cost, r.Impact, 0)
}

// open lists the checks a fix can improve: warned or failed, weighed, in
// a pillar of the rubric; in input order.
func (x *rollup) open() []int {
	var out []int
	for i, c := range x.checks {
		if (c.Status == "warn" || c.Status == "fail") && c.Weight > 0 && x.pillar[i] >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// gain compares two states.
func gain(before, after *state) Gain {
	g := Gain{Overall: round(after.overall()-before.overall(), 1), Rings: make(map[Ring]int, len(Rings)), exact: after.exact() - before.exact()}
	for ri, ring := range Rings {
		g.Rings[ring] = after.ringScore(ri) - before.ringScore(ri)
	}
	return g
}

// gains re-scores the scan once per open check, with that check passing.
func (x *rollup) gains(base *state) map[string]Gain {
	out := map[string]Gain{}
	status := slices.Clone(x.status)
	trial := x.newState()
	for _, i := range x.open() {
		status[i] = "pass"
		x.roll(status, trial)
		out[x.checks[i].ID] = gain(base, trial)
		status[i] = x.status[i]
	}
	return out
}

// combination is the start of the plan without costs, up to
// MaxCombination checks that each change the reported score, and what
// those fixes add together.
func (x *rollup) combination(base *state) Fix {
	var out Fix
	for _, step := range x.plan(nil, nil, MaxCombination) {
		if step.Gain.Overall <= 0 {
			break
		}
		out.CheckIDs = append(out.CheckIDs, step.CheckIDs...)
	}
	if len(out.CheckIDs) == 0 {
		return out
	}
	status := slices.Clone(x.status)
	for i, c := range x.checks {
		if slices.Contains(out.CheckIDs, c.ID) {
			status[i] = "pass"
		}
	}
	after := x.newState()
	x.roll(status, after)
	out.Gain = gain(base, after)
	return out
}

// candidate is a set of checks (indices) that could be the next step.
type candidate struct {
	idx            []int
	cost           float64
	overall, exact float64 // the gain as reported and before rounding
	shown, real    float64 // the same over cost
}

// better orders candidates: the larger reported gain per cost, then the
// larger gain before rounding per cost, then fewer checks, then the
// earlier check.
func (c candidate) better(d candidate) bool {
	switch {
	case c.shown != d.shown:
		return c.shown > d.shown
	case c.real > d.real+tiny || c.real < d.real-tiny:
		return c.real > d.real
	case len(c.idx) != len(d.idx):
		return len(c.idx) < len(d.idx)
	}
	return slices.Compare(c.idx, d.idx) < 0
}

// plan is Plan; with maxChecks > 0 it stops before the checks planned
// would exceed maxChecks.
func (x *rollup) plan(cost func(id string) float64, impact map[string]float64, maxChecks int) []Fix {
	costOf := func(i int) float64 {
		if cost == nil {
			return 1
		}
		if c := cost(x.checks[i].ID); c > 0 {
			return c
		}
		return 1
	}
	open := x.open()
	done := make([]bool, len(x.checks))
	status := slices.Clone(x.status)
	cur, trial := x.newState(), x.newState()
	x.roll(status, cur)
	var out []Fix
	planned := 0
	// try re-scores with the checks idx fixed too; trial holds the result.
	try := func(idx []int) candidate {
		c := candidate{idx: idx}
		for _, i := range idx {
			status[i] = "pass"
			c.cost += costOf(i)
		}
		x.roll(status, trial)
		for _, i := range idx {
			status[i] = x.status[i]
		}
		c.overall, c.exact = round(trial.overall()-cur.overall(), 1), trial.exact()-cur.exact()
		c.shown, c.real = c.overall/c.cost, c.exact/c.cost
		return c
	}
	apply := func(idx []int) {
		try(idx)
		ids := make([]string, len(idx))
		for k, i := range idx {
			done[i], status[i] = true, "pass"
			ids[k] = x.checks[i].ID
		}
		out = append(out, Fix{CheckIDs: ids, Gain: gain(cur, trial)})
		cur, trial = trial, cur
		planned += len(idx)
	}

	// Greedy steps while they gain.
	for depth := 0; depth < planDepth && planned < len(open); depth++ {
		var best candidate
		found := false
		keep := func(c candidate) {
			if maxChecks > 0 && planned+len(c.idx) > maxChecks {
				return
			}
			if c.exact > tiny && (!found || c.better(best)) {
				best, found = c, true
			}
		}
		// Gates that gain nothing alone are tried together: a ring two
		// of them cap at the same level rises only when both are fixed.
		var gates []int
		for _, i := range open {
			if done[i] {
				continue
			}
			c := try([]int{i})
			if c.exact <= tiny && x.gating(i) && x.status[i] == "fail" {
				gates = append(gates, i)
			}
			keep(c)
		}
		for _, set := range subsets(gates, MaxCombination) {
			keep(try(set))
		}
		if !found {
			break
		}
		apply(best.idx)
	}
	if maxChecks > 0 {
		return out
	}

	// The rest, one at a time: by what each adds alone now, then by what
	// it loses, over its cost.
	var rest []candidate
	for _, i := range open {
		if !done[i] {
			rest = append(rest, try([]int{i}))
		}
	}
	slices.SortStableFunc(rest, func(a, b candidate) int {
		if c := cmp.Compare(b.shown, a.shown); c != 0 {
			return c
		}
		if a.real > b.real+tiny || a.real < b.real-tiny {
			return cmp.Compare(b.real, a.real)
		}
		ia, ib := impact[x.checks[a.idx[0]].ID], impact[x.checks[b.idx[0]].ID]
		if c := cmp.Compare(ib/b.cost, ia/a.cost); c != 0 {
			return c
		}
		if c := cmp.Compare(ib, ia); c != 0 {
			return c
		}
		return cmp.Compare(a.idx[0], b.idx[0])
	})
	for _, c := range rest {
		apply(c.idx)
	}
	return out
}

// gating reports a check some gate fires on.
func (x *rollup) gating(i int) bool {
	return slices.Contains(x.gateCheck, i)
}

// subsets are the subsets of 2 to n of set, in a fixed order.
func subsets(set []int, n int) [][]int {
	var out [][]int
	var walk func(start int, cur []int)
	walk = func(start int, cur []int) {
		if len(cur) >= 2 {
			out = append(out, slices.Clone(cur))
		}
		if len(cur) == n {
			return
		}
		for k := start; k < len(set); k++ {
			walk(k+1, append(cur, set[k]))
		}
	}
	walk(0, nil)
	return out
}
