package scoring

import (
	"math"
)

// CheckScore is what scoring needs of one check result.
type CheckScore struct {
	ID     string
	Ring   Ring
	Pillar string
	Weight float64
	Status string // pass, warn, fail, na, info
}

func (c CheckScore) value() (float64, bool) {
	switch c.Status {
	case "pass":
		return 1, true
	case "warn":
		return 0.5, true
	case "fail":
		return 0, true
	}
	return 0, false
}

// PillarResult is a scored pillar.
type PillarResult struct {
	Def PillarDef
	// Score is nil when no check of the pillar could be scored.
	Score      *int
	Raw        float64
	Coverage   float64
	CheckCount int
}

// RingResult is a scored ring.
type RingResult struct {
	Ring     Ring
	Score    int
	Raw      float64 // before rounding, after the cap
	Grade    GradeBand
	Coverage float64
	CappedBy string // gate id, "" when no gate lowered the score
	Pillars  []PillarResult
}

// FiredGate is a gate whose check failed, once per ring it caps.
type FiredGate struct {
	Def  GateDef
	Ring Ring
}

// Result is the scored scan.
type Result struct {
	Version      string
	Rings        []RingResult // in Rings order
	Overall      float64      // one decimal
	OverallGrade GradeBand
	Gates        []FiredGate
	// Impact is, per check id, the points of the overall score the check
	// loses now (0 for pass, na and info); a failed gating check also
	// counts what its cap takes away. It is the check's share of what is
	// missing, not what fixing it would add: while another gate holds its
	// ring down, a fix adds less or nothing (Gains says how much).
	Impact map[string]float64
	// Gains is, per warned or failed scored check, what fixing it alone
	// would add to the scores: the scan re-scored with the check passing,
	// caps and gates included.
	Gains map[string]Gain
	// Combination is the set of up to MaxCombination fixes that together
	// add the most, chosen greedily (Plan without costs); no checks when
	// no fix adds anything.
	Combination Fix

	rollup *rollup
}

// Ring returns one ring's result.
func (r Result) Ring(id Ring) RingResult {
	for _, x := range r.Rings {
		if x.Ring == id {
			return x
		}
	}
	return RingResult{Ring: id}
}

// Score rolls check results up by the rubric.
func Score(results []CheckScore) Result {
	x := newRollup(results)
	st := x.newState()
	x.roll(x.status, st)
	out := Result{Version: Version, Impact: map[string]float64{}, rollup: x}

	// Pillars and rings, in report order.
	for ri, ring := range Rings {
		rr := RingResult{Ring: ring, Raw: st.raw[ri], CappedBy: st.cappedBy[ri]}
		var totalW, coveredW float64
		for pi, def := range Pillars {
			if def.Ring != ring {
				continue
			}
			pr := PillarResult{Def: def, CheckCount: x.count[pi]}
			if st.all[pi] > 0 {
				pr.Coverage = round(st.den[pi]/st.all[pi], 3)
			}
			totalW += def.Weight
			if st.den[pi] > 0 {
				pr.Raw = st.pillarRaw(pi)
				s := int(math.Round(pr.Raw))
				pr.Score = &s
				coveredW += def.Weight * pr.Coverage
			}
			rr.Pillars = append(rr.Pillars, pr)
		}
		if totalW > 0 {
			rr.Coverage = round(coveredW/totalW, 3)
		}
		rr.Score = int(math.Round(rr.Raw))
		rr.Grade = GradeFor(float64(rr.Score))
		out.Rings = append(out.Rings, rr)
	}
	for gi, g := range Gates {
		if x.gateFails(gi, x.status) {
			for _, ring := range g.Rings {
				out.Gates = append(out.Gates, FiredGate{Def: g, Ring: ring})
			}
		}
	}
	out.Overall = st.overall()
	out.OverallGrade = GradeFor(out.Overall)

	// Impact: the overall points each check loses.
	for i, c := range results {
		pi, ri := x.pillar[i], ringIndex(c.Ring)
		v, ok := c.value()
		if !ok || c.Weight == 0 || pi < 0 || st.den[pi] == 0 || ri < 0 || st.ringDen[ri] == 0 {
			out.Impact[c.ID] = 0
			continue
		}
		share := c.Weight / st.den[pi] * Pillars[pi].Weight / st.ringDen[ri] * RingWeights[c.Ring]
		lost := 100 * share * (1 - v)
		for _, g := range out.Gates {
			if g.Def.CheckID == c.ID {
				gi := ringIndex(g.Ring)
				lost += RingWeights[g.Ring] * (st.uncapped[gi] - st.raw[gi])
			}
		}
		out.Impact[c.ID] = round(math.Max(lost, 0), 2)
	}
	out.Gains = x.gains(st)
	out.Combination = x.combination(st)
	return out
}

// rollup is the rubric's arithmetic over one scan's checks, set up once so
// that the scan can be re-scored with other statuses (a fix applied)
// without allocating: Score and every gain are the same function of the
// statuses.
type rollup struct {
	checks []CheckScore
	status []string // the statuses as measured
	pillar []int    // per check, its index in Pillars; -1 for a pillar the rubric lacks
	count  []int    // per pillar, how many checks it has
	// gateCheck is, per gate, the index of its check (the last one of
	// that id); -1 when the scan has none.
	gateCheck []int
	ringOf    []int // per pillar, its ring's index in Rings
}

func newRollup(results []CheckScore) *rollup {
	x := &rollup{checks: results, status: make([]string, len(results)), pillar: make([]int, len(results)), count: make([]int, len(Pillars)), ringOf: make([]int, len(Pillars))}
	byPillar := map[string]int{}
	for pi, def := range Pillars {
		byPillar[def.ID] = pi
		x.ringOf[pi] = ringIndex(def.Ring)
	}
	last := map[string]int{}
	for i, c := range results {
		x.status[i] = c.Status
		last[c.ID] = i
		pi, ok := byPillar[c.Pillar]
		if !ok {
			pi = -1
		} else {
			x.count[pi]++
		}
		x.pillar[i] = pi
	}
	for _, g := range Gates {
		i, ok := last[g.CheckID]
		if !ok {
			i = -1
		}
		x.gateCheck = append(x.gateCheck, i)
	}
	return x
}

// state is the checks rolled up under one set of statuses.
type state struct {
	num, den, all []float64 // per pillar: Σ weight × value, Σ scored weight, Σ weight
	ringNum       []float64 // per ring: Σ pillar weight × pillar score
	ringDen       []float64 // per ring: Σ weight of the scored pillars
	uncapped, raw []float64 // per ring, before and after the caps
	cappedBy      []string  // per ring, the gate that lowered it
}

func (x *rollup) newState() *state {
	p, r := len(Pillars), len(Rings)
	return &state{
		num: make([]float64, p), den: make([]float64, p), all: make([]float64, p),
		ringNum: make([]float64, r), ringDen: make([]float64, r),
		uncapped: make([]float64, r), raw: make([]float64, r), cappedBy: make([]string, r),
	}
}

func (st *state) pillarRaw(pi int) float64 { return 100 * st.num[pi] / st.den[pi] }

// roll scores the checks under status (one per check) into st. Sums run
// in catalog order within a pillar and rubric order across pillars, so
// the same statuses give the same bits every time.
func (x *rollup) roll(status []string, st *state) {
	clear(st.num)
	clear(st.den)
	clear(st.all)
	clear(st.ringNum)
	clear(st.ringDen)
	for i, c := range x.checks {
		pi := x.pillar[i]
		if pi < 0 {
			continue
		}
		st.all[pi] += c.Weight
		if v, ok := (CheckScore{Status: status[i]}).value(); ok && c.Weight > 0 {
			st.num[pi] += c.Weight * v
			st.den[pi] += c.Weight
		}
	}
	for pi, def := range Pillars {
		if st.den[pi] > 0 {
			ri := x.ringOf[pi]
			st.ringNum[ri] += def.Weight * st.pillarRaw(pi)
			st.ringDen[ri] += def.Weight
		}
	}
	for ri := range Rings {
		st.uncapped[ri] = 0
		if st.ringDen[ri] > 0 {
			st.uncapped[ri] = st.ringNum[ri] / st.ringDen[ri]
		}
		st.raw[ri], st.cappedBy[ri] = st.uncapped[ri], ""
	}
	// Gates: the lowest cap that applies wins, and is named only when it
	// actually lowered the score.
	for gi, g := range Gates {
		if !x.gateFails(gi, status) {
			continue
		}
		for _, ring := range g.Rings {
			ri := ringIndex(ring)
			if st.raw[ri] > float64(g.Cap) {
				st.raw[ri], st.cappedBy[ri] = float64(g.Cap), g.ID
			}
		}
	}
}

// gateFails reports whether the check of Gates[gi] fails under status.
func (x *rollup) gateFails(gi int, status []string) bool {
	i := x.gateCheck[gi]
	return i >= 0 && status[i] == "fail"
}

// ringScore is a ring's score as reported: the capped raw score, rounded.
func (st *state) ringScore(ri int) int { return int(math.Round(st.raw[ri])) }

// overall is the overall score as reported, from the rounded ring scores.
func (st *state) overall() float64 {
	var sum float64
	for ri, ring := range Rings {
		sum += RingWeights[ring] * float64(st.ringScore(ri))
	}
	return round(sum, 1)
}

// exact is the overall score before any rounding, which orders gains the
// rounding makes equal.
func (st *state) exact() float64 {
	var sum float64
	for ri, ring := range Rings {
		sum += RingWeights[ring] * st.raw[ri]
	}
	return sum
}

func ringIndex(r Ring) int {
	for i, x := range Rings {
		if x == r {
			return i
		}
	}
	return -1
}

// ImpactLevel turns lost overall points into a level.
func ImpactLevel(points float64) string {
	switch {
	case points >= 2:
		return "high"
	case points >= 0.75:
		return "medium"
	}
	return "low"
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}
