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
	// counts what its cap takes away.
	Impact map[string]float64
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
	byPillar := map[string][]CheckScore{}
	status := map[string]string{}
	for _, c := range results {
		byPillar[c.Pillar] = append(byPillar[c.Pillar], c)
		status[c.ID] = c.Status
	}
	out := Result{Version: Version, Impact: map[string]float64{}}

	// Pillars and rings.
	pillarApplicable := map[string]float64{} // Σ applicable check weight per pillar
	ringApplicable := map[Ring]float64{}     // Σ weight of scored pillars per ring
	for _, ring := range Rings {
		rr := RingResult{Ring: ring}
		var num, den, totalW, coveredW float64
		for _, def := range Pillars {
			if def.Ring != ring {
				continue
			}
			pr := PillarResult{Def: def, CheckCount: len(byPillar[def.ID])}
			var pn, pd, all float64
			for _, c := range byPillar[def.ID] {
				all += c.Weight
				if v, ok := c.value(); ok && c.Weight > 0 {
					pn += c.Weight * v
					pd += c.Weight
				}
			}
			if all > 0 {
				pr.Coverage = round(pd/all, 3)
			}
			totalW += def.Weight
			if pd > 0 {
				pr.Raw = 100 * pn / pd
				s := int(math.Round(pr.Raw))
				pr.Score = &s
				num += def.Weight * pr.Raw
				den += def.Weight
				coveredW += def.Weight * pr.Coverage
			}
			pillarApplicable[def.ID] = pd
			rr.Pillars = append(rr.Pillars, pr)
		}
		if den > 0 {
			rr.Raw = num / den
		}
		if totalW > 0 {
			rr.Coverage = round(coveredW/totalW, 3)
		}
		ringApplicable[ring] = den
		out.Rings = append(out.Rings, rr)
	}

	// Gates: the lowest cap that applies wins, and is named only when it
	// actually lowered the score.
	uncapped := map[Ring]float64{}
	for i := range out.Rings {
		uncapped[out.Rings[i].Ring] = out.Rings[i].Raw
	}
	for _, g := range Gates {
		if status[g.CheckID] != "fail" {
			continue
		}
		for _, ring := range g.Rings {
			out.Gates = append(out.Gates, FiredGate{Def: g, Ring: ring})
			for i := range out.Rings {
				rr := &out.Rings[i]
				if rr.Ring == ring && rr.Raw > float64(g.Cap) {
					rr.Raw = float64(g.Cap)
					rr.CappedBy = g.ID
				}
			}
		}
	}
	var overall float64
	for i := range out.Rings {
		rr := &out.Rings[i]
		rr.Score = int(math.Round(rr.Raw))
		rr.Grade = GradeFor(float64(rr.Score))
		overall += RingWeights[rr.Ring] * float64(rr.Score)
	}
	out.Overall = round(overall, 1)
	out.OverallGrade = GradeFor(out.Overall)

	// Impact: the overall points each check loses.
	for _, c := range results {
		v, ok := c.value()
		if !ok || c.Weight == 0 || pillarApplicable[c.Pillar] == 0 {
			out.Impact[c.ID] = 0
			continue
		}
		def, _ := Pillar(c.Pillar)
		share := c.Weight / pillarApplicable[c.Pillar] * def.Weight / ringApplicable[c.Ring] * RingWeights[c.Ring]
		lost := 100 * share * (1 - v)
		for _, g := range out.Gates {
			if g.Def.CheckID == c.ID {
				lost += RingWeights[g.Ring] * (uncapped[g.Ring] - out.Ring(g.Ring).Raw)
			}
		}
		out.Impact[c.ID] = round(math.Max(lost, 0), 2)
	}
	return out
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
