package api

import (
	"context"
	"math"
	"time"

	"github.com/geoscan/geoscan/gen/api"
)

// CompareScans returns target − base for the overall score, rings, pillars
// and checks of two completed scans of the organization.
func (s *Server) CompareScans(ctx context.Context, req api.CompareScansRequestObject) (api.CompareScansResponseObject, error) {
	base, err := s.completedScan(ctx, req.Params.Base, "base")
	if err != nil {
		return nil, err
	}
	target, err := s.completedScan(ctx, req.Params.Target, "target")
	if err != nil {
		return nil, err
	}
	br, err := s.report(ctx, base, api.AudienceMarketing)
	if err != nil {
		return nil, err
	}
	tr, err := s.report(ctx, target, api.AudienceMarketing)
	if err != nil {
		return nil, err
	}
	return api.CompareScans200JSONResponse{Body: compareReports(br, tr, base.CompletedAt, target.CompletedAt)}, nil
}

func compareReports(b, t api.Report, bDone, tDone *time.Time) api.ScanComparison {
	out := api.ScanComparison{
		Base:                 api.ScanRef{ID: b.ScanID, URL: b.URL, ScoringVersion: b.ScoringVersion},
		Target:               api.ScanRef{ID: t.ScanID, URL: t.URL, ScoringVersion: t.ScoringVersion},
		SameURL:              b.URL == t.URL,
		ScoringVersionsMatch: b.ScoringVersion == t.ScoringVersion,
		Overall:              delta(&b.OverallScore, &t.OverallScore),
	}
	if bDone != nil {
		out.Base.CompletedAt = bDone.UTC()
	}
	if tDone != nil {
		out.Target.CompletedAt = tDone.UTC()
	}
	ringScore := func(r api.RingResult) *float64 { v := float64(r.Score); return &v }
	out.Rings.Search = delta(ringScore(b.Rings.Search), ringScore(t.Rings.Search))
	out.Rings.Visibility = delta(ringScore(b.Rings.Visibility), ringScore(t.Rings.Visibility))
	out.Rings.Trust = delta(ringScore(b.Rings.Trust), ringScore(t.Rings.Trust))

	type pillarKey struct{ ring, id string }
	pillarScores := func(r api.Report) (map[pillarKey]*float64, []pillarKey) {
		m := map[pillarKey]*float64{}
		var order []pillarKey
		for _, ring := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
			for _, p := range ring.Pillars {
				k := pillarKey{string(ring.Ring), p.ID}
				if p.Score != nil {
					v := float64(*p.Score)
					m[k] = &v
				} else {
					m[k] = nil
				}
				order = append(order, k)
			}
		}
		return m, order
	}
	bp, border := pillarScores(b)
	tp, torder := pillarScores(t)
	out.Pillars = []api.PillarDelta{}
	seen := map[pillarKey]bool{}
	for _, k := range append(border, torder...) {
		if seen[k] {
			continue
		}
		seen[k] = true
		d := delta(bp[k], tp[k])
		out.Pillars = append(out.Pillars, api.PillarDelta{Base: d.Base, Delta: d.Delta, Pillar: k.id, Ring: api.Ring(k.ring), Target: d.Target})
	}
	out.Checks = compareChecks(b.Checks, t.Checks, &out.Summary)
	return out
}

func delta(b, t *float64) api.ScoreDelta {
	d := api.ScoreDelta{Base: b, Target: t}
	if b != nil && t != nil {
		v := math.Round((*t-*b)*10) / 10
		d.Delta = &v
	}
	return d
}

// compareChecks pairs checks by id in the target's order, then the base's
// leftovers, and counts how each changed.
func compareChecks(base, target []api.CheckResult, sum *api.ComparisonSummary) []api.CheckDelta {
	byID := make(map[string]api.CheckResult, len(base))
	for _, c := range base {
		byID[c.ID] = c
	}
	out := make([]api.CheckDelta, 0, len(target))
	inTarget := make(map[string]bool, len(target))
	for _, t := range target {
		inTarget[t.ID] = true
		ts := api.CheckDeltaTargetStatus(t.Status)
		d := api.CheckDelta{CheckID: t.ID, Ring: t.Ring, Pillar: t.Pillar, TargetStatus: &ts, TargetScore: t.Score}
		b, ok := byID[t.ID]
		if !ok {
			d.Change = api.Added
			sum.Added++
			out = append(out, d)
			continue
		}
		bs := api.CheckDeltaBaseStatus(b.Status)
		d.BaseStatus, d.BaseScore = &bs, b.Score
		d.Delta = delta(b.Score, t.Score).Delta
		switch {
		case d.Delta != nil && *d.Delta > 0:
			d.Change = api.Improved
			sum.Improved++
		case d.Delta != nil && *d.Delta < 0:
			d.Change = api.Regressed
			sum.Regressed++
		default:
			d.Change = api.Unchanged
			sum.Unchanged++
		}
		out = append(out, d)
	}
	for _, b := range base {
		if inTarget[b.ID] {
			continue
		}
		bs := api.CheckDeltaBaseStatus(b.Status)
		out = append(out, api.CheckDelta{CheckID: b.ID, Ring: b.Ring, Pillar: b.Pillar, BaseStatus: &bs, BaseScore: b.Score, Change: api.Removed})
		sum.Removed++
	}
	return out
}
