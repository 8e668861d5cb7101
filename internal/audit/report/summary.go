package report

// The summaries GeoScan writes from templates: the executive summary and
// one paragraph per ring, for each audience, in the report's language.
// The sentences are the catalogue's summary.* messages (internal/i18n,
// locales/summary.*.toml), English the source; the checks' titles and the
// gates' messages are the catalogue's too. A check's finding is English
// text written for the scan: an English summary quotes it after the
// sentence about its check, one in another language leaves it to the
// check's section of the report. An answer engine may replace the
// summaries later (WriteSummaries).

import (
	"sort"
	"strconv"
	"strings"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
)

// summaryWriter writes one audience's summaries in one language.
type summaryWriter struct {
	in       Input
	audience scoring.Audience
	eng      bool
	w        *i18n.Localizer
}

// t is the message id with its placeholders given as name, value pairs.
func (s *summaryWriter) t(id string, pairs ...any) string { return s.w.Tf("summary."+id, pairs...) }

// english reports whether the summaries are written in English, the one
// language the checks' findings are written in.
func (s *summaryWriter) english() bool { return s.w.Lang() == i18n.English }

// one is a number with one decimal, as the language writes it.
func (s *summaryWriter) one(f float64) string { return s.number(f, 1) }

// number is f to the given decimals, with the language's decimal mark: fmt's
// rounding (%.1f), so the English summaries read as they always have.
func (s *summaryWriter) number(f float64, decimals int) string {
	out := strconv.FormatFloat(f, 'f', decimals, 64)
	if s.english() {
		return out
	}
	return strings.Replace(out, ".", ",", 1)
}

// ringName is a ring's name for people.
func (s *summaryWriter) ringName(r scoring.Ring) string { return s.t("ring." + string(r)) }

// quoted puts a check title in the language's quotation marks, as the
// triage dossier does, so a title phrased as a goal ("Your organisation is
// clearly identified") reads as a name, not as a claim about the site.
func (s *summaryWriter) quoted(title string) string {
	return s.t("quoted", "Title", strings.TrimSuffix(title, "."))
}

// title is a check's title for the audience, in the language.
func (s *summaryWriter) title(o checks.Outcome) string {
	return s.w.CheckText(o.Check.ID, string(s.audience), "title", o.Check.TextFor(s.audience).Title)
}

// gateMessage is what a fired gate means, in the language.
func (s *summaryWriter) gateMessage(g scoring.GateDef) string {
	if s.english() {
		return g.Message
	}
	return s.t("gate." + g.ID)
}

// statusVerb says what a warn or fail means in a sentence: "which fails
// today".
func (s *summaryWriter) statusVerb(st checks.Status) string {
	if st == checks.Warn {
		return s.t("status.warn")
	}
	return s.t("status.fail")
}

// points is "1 point" or "4.4 points".
func (s *summaryWriter) points(p float64) string {
	if p == 1 {
		return s.t("point")
	}
	return s.t("points", "N", s.one(p))
}

// joinAnd is "a", "a and b", "a, b and c".
func (s *summaryWriter) joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + s.t("and") + " " + items[len(items)-1]
}

// passCount is "none of the 10 scored checks pass", "3 of 10 scored checks
// pass", "all 4 scored checks pass" or "the only scored check fails".
func (s *summaryWriter) passCount(passed, scored int) string {
	switch {
	case scored == 0:
		return s.t("checks.none_scored")
	case scored == 1 && passed == 1:
		return s.t("checks.only_passes")
	case scored == 1:
		return s.t("checks.only_fails")
	case passed == 0:
		return s.t("checks.none_pass", "Scored", scored)
	case passed == scored:
		return s.t("checks.all_pass", "Scored", scored)
	}
	return s.t("checks.some_pass", "Passed", passed, "Scored", scored)
}

// finding follows a sentence about a check with the check's finding, in an
// English summary; sep joins them.
func (s *summaryWriter) finding(sentence, sep, finding string) string {
	if !s.english() {
		return sentence
	}
	return sentence + sep + finding
}

// summaries writes the executive and ring summaries from the results, in
// the report's language. Only gates that actually held a ring down are
// called caps: a gate whose ring scores below its cap anyway is reported
// as a critical issue, so no sentence contradicts a score.
func summaries(in Input, audience scoring.Audience) api.Summaries {
	s := &summaryWriter{in: in, audience: audience, eng: audience == scoring.Engineering, w: i18n.For(in.Language)}
	out := api.Summaries{Source: api.Template}
	rings := append([]scoring.RingResult(nil), in.Scores.Rings...)
	sort.SliceStable(rings, func(i, j int) bool { return rings[i].Score > rings[j].Score })
	best, worst := rings[0], rings[len(rings)-1]

	var b strings.Builder
	if s.eng {
		b.WriteString(s.t("eng.overall", "Overall", s.one(in.Scores.Overall), "Grade", in.Scores.OverallGrade.Grade,
			"Rubric", in.Scores.Version, "Search", in.Scores.Ring(scoring.RingSearch).Score,
			"Visibility", in.Scores.Ring(scoring.RingVisibility).Score, "Trust", in.Scores.Ring(scoring.RingTrust).Score))
	} else {
		b.WriteString(s.t("overall", "Brand", in.BrandName, "Score", s.one(in.Scores.Overall), "Grade", in.Scores.OverallGrade.Grade))
		if best.Score == worst.Score {
			b.WriteString(s.t("rings_equal", "Score", best.Score))
		} else {
			b.WriteString(s.t("rings_best_worst", "Best", s.ringName(best.Ring), "BestScore", best.Score,
				"Worst", s.ringName(worst.Ring), "WorstScore", worst.Score))
		}
	}
	if s.eng {
		for _, g := range in.Scores.Gates {
			id := "eng.gate_below"
			if in.Scores.Ring(g.Ring).CappedBy == g.Def.ID {
				id = "eng.gate_caps"
			}
			b.WriteString(s.t(id, "Gate", g.Def.ID, "Check", g.Def.CheckID, "Ring", string(g.Ring), "Cap", g.Def.Cap))
		}
	} else {
		for _, g := range distinctGates(in.Scores) {
			if len(g.binds) > 0 {
				names := make([]string, len(g.binds))
				for i, r := range g.binds {
					names[i] = s.ringName(r)
				}
				b.WriteString(s.t("critical_holds", "Rings", s.joinAnd(names), "Cap", g.def.Cap, "Message", s.gateMessage(g.def)))
			} else {
				b.WriteString(s.t("critical_also", "Message", s.gateMessage(g.def)))
			}
		}
	}
	b.WriteString(s.gainSentences())
	out.Executive = b.String()
	out.Search = s.ringNarrative(scoring.RingSearch)
	out.Visibility = s.ringNarrative(scoring.RingVisibility)
	out.Trust = s.ringNarrative(scoring.RingTrust)
	return out
}

// gateIssue is one fired gate as a reader sees it: a gate that caps several
// rings is one issue, holding down those rings it actually bound.
type gateIssue struct {
	def   scoring.GateDef
	binds []scoring.Ring // the rings whose score the cap lowered
}

func distinctGates(res scoring.Result) []gateIssue {
	var out []gateIssue
	index := map[string]int{}
	for _, g := range res.Gates {
		i, ok := index[g.Def.ID]
		if !ok {
			i = len(out)
			index[g.Def.ID] = i
			out = append(out, gateIssue{def: g.Def})
		}
		if res.Ring(g.Ring).CappedBy == g.Def.ID {
			out[i].binds = append(out[i].binds, g.Ring)
		}
	}
	return out
}

func (s *summaryWriter) ringNarrative(ring scoring.Ring) string {
	in := s.in
	rr := in.Scores.Ring(ring)
	var scored, passed int
	for _, o := range in.Outcomes {
		if o.Check.Ring != ring {
			continue
		}
		if _, ok := o.Result.Status.Score(); ok && o.Check.Weight > 0 {
			scored++
			if o.Result.Status == checks.Pass {
				passed++
			}
		}
	}
	var b strings.Builder
	if s.eng {
		b.WriteString(s.t("eng.ring", "Ring", s.ringName(ring), "Score", rr.Score, "Grade", rr.Grade.Grade,
			"Coverage", s.number(rr.Coverage*100, 0), "Checks", s.passCount(passed, scored)))
	} else {
		b.WriteString(s.t("ring", "Ring", s.ringName(ring), "Score", rr.Score, "Grade", rr.Grade.Grade, "Checks", s.passCount(passed, scored)))
	}
	for _, g := range in.Scores.Gates {
		if g.Ring != ring {
			continue
		}
		binding := rr.CappedBy == g.Def.ID
		switch {
		case s.eng && binding:
			b.WriteString(s.t("eng.ring_capped", "Cap", g.Def.Cap, "Gate", g.Def.ID, "Check", g.Def.CheckID))
		case s.eng:
			b.WriteString(s.t("eng.ring_gate_below", "Gate", g.Def.ID, "Check", g.Def.CheckID, "Cap", g.Def.Cap))
		case binding:
			b.WriteString(s.t("ring_holds", "Cap", g.Def.Cap, "Message", s.gateMessage(g.Def)))
		default:
			b.WriteString(s.t("ring_critical", "Message", s.gateMessage(g.Def)))
		}
	}
	issues := topIssues(in, ring, 2)
	if len(issues) == 0 {
		b.WriteString(s.t("no_open_issues"))
		return b.String()
	}
	names := make([]string, 0, len(issues))
	for _, o := range issues {
		if s.eng {
			names = append(names, o.Check.ID)
		} else {
			names = append(names, s.quoted(s.title(o)))
		}
	}
	list := s.joinAnd(names)
	if s.eng {
		list = strings.Join(names, ", ")
	}
	b.WriteString(s.t("fix_first", "Checks", list))
	return b.String()
}

// gainSentences name the fix that would add the most to the overall score
// when made alone, and the fixes that would add more together; a fix that
// adds nothing is never called the one that gains the most.
func (s *summaryWriter) gainSentences() string {
	in := s.in
	byID := map[string]checks.Outcome{}
	for _, o := range in.Outcomes {
		byID[o.Check.ID] = o
	}
	name := func(id string) string {
		if s.eng {
			return id
		}
		if o, ok := byID[id]; ok {
			return s.quoted(s.title(o))
		}
		return id
	}
	combo := in.Scores.Combination
	var b strings.Builder
	best, ok := in.Scores.BestFix()
	switch {
	case ok:
		id := best.CheckIDs[0]
		o := byID[id]
		if s.eng {
			b.WriteString(s.finding(s.t("eng.best_fix", "Check", id, "Status", string(o.Result.Status), "Gain", s.one(best.Gain.Overall),
				"Rings", ringGainText(best.Gain)), " — ", o.Result.Summary))
		} else {
			b.WriteString(s.finding(s.t("best_fix", "Check", name(id), "Status", s.statusVerb(o.Result.Status), "Points", s.points(best.Gain.Overall)),
				" ", forClients(o.Result.Summary)))
		}
		if len(combo.CheckIDs) < 2 || combo.Gain.Overall <= best.Gain.Overall {
			break
		}
		if s.eng {
			b.WriteString(s.t("eng.best_combination", "Checks", strings.Join(combo.CheckIDs, " + "), "Gain", s.one(combo.Gain.Overall),
				"Rings", ringGainText(combo.Gain)))
			break
		}
		var others []string
		for _, other := range combo.CheckIDs {
			if other != id {
				others = append(others, name(other))
			}
		}
		if len(others) < len(combo.CheckIDs) {
			b.WriteString(s.t("together_with", "Checks", s.joinAnd(others), "Points", s.points(combo.Gain.Overall)))
		} else {
			b.WriteString(s.t("fixing_together", "Checks", s.joinAnd(others), "Points", s.points(combo.Gain.Overall)))
		}
	case len(combo.CheckIDs) > 0:
		names := make([]string, len(combo.CheckIDs))
		for i, id := range combo.CheckIDs {
			names[i] = name(id)
		}
		if s.eng {
			b.WriteString(s.t("eng.no_single_fix", "Checks", strings.Join(names, " + "), "Gain", s.one(combo.Gain.Overall), "Rings", ringGainText(combo.Gain)))
		} else {
			b.WriteString(s.t("no_single_fix", "Checks", s.joinAnd(names), "Points", s.points(combo.Gain.Overall)))
		}
	case len(in.plan) > 0:
		o := byID[in.plan[0].CheckIDs[0]]
		if s.eng {
			b.WriteString(s.finding(s.t("eng.no_fix", "Check", o.Check.ID, "Status", string(o.Result.Status)), " — ", o.Result.Summary))
		} else {
			b.WriteString(s.finding(s.t("no_fix", "Check", name(o.Check.ID), "Status", s.statusVerb(o.Result.Status)), " ", forClients(o.Result.Summary)))
		}
	}
	return b.String()
}

// ringGainText is " (search +10, trust +7)": the rings a gain lifts, by
// their ids, in every language.
func ringGainText(g scoring.Gain) string {
	var parts []string
	for _, ring := range scoring.Rings {
		if n := g.Rings[ring]; n > 0 {
			parts = append(parts, string(ring)+" +"+strconv.Itoa(n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
