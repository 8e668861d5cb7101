package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/signintech/gopdf"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The sections of the PDF, in order.

func (d *doc) rings() []api.RingResult {
	return []api.RingResult{d.r.Rings.Search, d.r.Rings.Visibility, d.r.Rings.Trust}
}

func ringName(r api.Ring) string {
	if n, ok := scoring.RingNames[scoring.Ring(r)]; ok {
		return n
	}
	return title(string(r))
}

func (d *doc) edition() string {
	if d.eng {
		return "Engineering edition"
	}
	return "Marketing edition"
}

// coverPage: who, when, the overall score and grade, and the three rings.
func (d *doc) coverPage() {
	d.pdf.AddPage()
	d.pdf.AddOutline("Cover")
	d.rect(0, 0, pageW, 6, d.accentInk())
	d.coverBrand()
	d.y = 22
	d.font(fontBold, 9)
	d.color(d.accentInk())
	d.text(marginL, d.y, strings.ToUpper("GEO audit report · "+d.edition()))
	d.y += 8

	d.font(fontBold, 26)
	d.color(ink)
	lines := d.wrap(d.brand(), contentW)
	if len(lines) > 2 {
		lines = []string{lines[0], d.clip(strings.Join(lines[1:], " "), contentW)}
	}
	for _, l := range lines {
		d.text(marginL, d.y, l)
		d.y += d.lineH()
	}
	d.font(fontRegular, 11)
	d.color(muted)
	d.text(marginL, d.y, d.clipMiddle(d.r.URL, contentW))
	d.y += d.lineH()
	d.font(fontRegular, 9)
	d.text(marginL, d.y, fmt.Sprintf("Scanned %s · scoring rubric %s", d.r.GeneratedAt.UTC().Format("2 January 2006, 15:04 UTC"), d.r.ScoringVersion))
	d.y += 14

	// The overall score.
	cx, cy, radius := marginL+30, d.y+30, 28.0
	gc := gradeColor(string(d.r.OverallGrade))
	d.donut(cx, cy, radius, 7, d.r.OverallScore, gc)
	d.font(fontBold, 26)
	d.color(ink)
	score := fmt.Sprintf("%.1f", d.r.OverallScore)
	d.text(cx-d.width(score)/2, cy-7, score)
	d.font(fontRegular, 8)
	d.color(muted)
	d.text(cx-d.width("out of 100")/2, cy+4, "out of 100")

	x := marginL + 70
	d.font(fontRegular, 9)
	d.color(muted)
	d.text(x, cy-24, "Overall grade")
	d.font(fontBold, 40)
	d.color(gc)
	d.text(x, cy-19, string(d.r.OverallGrade))
	d.y = cy + 2
	d.font(fontRegular, 11)
	d.color(ink)
	d.para(x, pageW-marginR-x, d.r.GradeDescriptor)
	d.y = math.Max(d.y, cy+radius) + 12

	// The rings.
	d.font(fontBold, 12)
	d.color(ink)
	d.text(marginL, d.y, "The three rings")
	d.y += 9
	colW := contentW / 3
	top := d.y
	bottom := top
	for i, ring := range d.rings() {
		cx := marginL + colW*(float64(i)+0.5)
		cy := top + 18
		d.donut(cx, cy, 17, 5, float64(ring.Score), gradeColor(string(ring.Grade)))
		d.font(fontBold, 18)
		d.color(ink)
		s := fmt.Sprint(ring.Score)
		d.text(cx-d.width(s)/2, cy-5.5, s)
		d.font(fontRegular, 8)
		d.color(muted)
		g := "grade " + string(ring.Grade)
		d.text(cx-d.width(g)/2, cy+2, g)

		d.y = cy + 22
		d.font(fontBold, 11)
		d.color(ink)
		name := ringName(ring.Ring)
		d.text(cx-d.width(name)/2, d.y, name)
		d.y += d.lineH() + 0.5
		d.font(fontRegular, 8.5)
		d.color(muted)
		for _, l := range d.wrap(ring.GradeDescriptor, colW-8) {
			d.text(cx-d.width(l)/2, d.y, l)
			d.y += d.lineH()
		}
		if ring.CappedBy != nil {
			d.font(fontBold, 8.5)
			d.color(statusInk[api.CheckStatusFail])
			capped := "Held down by a critical issue"
			if g := d.gate(*ring.CappedBy, ring.Ring); g != nil {
				capped = fmt.Sprintf("Held at %d by a critical issue", g.Cap)
			}
			for _, l := range d.wrap(capped, colW-8) {
				d.text(cx-d.width(l)/2, d.y, l)
				d.y += d.lineH()
			}
		}
		bottom = math.Max(bottom, d.y)
	}
	d.y = bottom + 10

	// How to read it.
	var grades []string
	for _, g := range scoring.Grades {
		if g.Min > 0 {
			grades = append(grades, fmt.Sprintf("%s from %.0f", g.Grade, g.Min))
		} else {
			grades = append(grades, g.Grade+" below that")
		}
	}
	c := d.r.Counts
	total := c.Pass + c.Warn + c.Fail + c.Na + c.Info
	read := fmt.Sprintf("Each ring scores 0 to 100 from the checks in it; the overall score weighs Search %.0f%%, AI visibility %.0f%% and AI trust %.0f%%. Grades: %s.",
		scoring.RingWeights[scoring.RingSearch]*100, scoring.RingWeights[scoring.RingVisibility]*100, scoring.RingWeights[scoring.RingTrust]*100, joinAnd(grades))
	counts := fmt.Sprintf("%s: %d passed, %d partly passed and %d failed; %d did not apply to this site and %d are for information only.",
		plural(total, "check was run", "checks were run"), c.Pass, c.Warn, c.Fail, c.Na, c.Info)
	d.font(fontRegular, 9)
	h := d.heightOf(fontRegular, 9, contentW-10, read) + d.heightOf(fontRegular, 9, contentW-10, counts) + d.lineH() + 10
	d.roundRect(marginL, d.y, contentW, h, 2, panel)
	d.y += 4
	d.font(fontBold, 9)
	d.color(ink)
	d.text(marginL+5, d.y, "How to read this report")
	d.y += d.lineH()
	d.font(fontRegular, 9)
	d.para(marginL+5, contentW-10, read)
	d.y += 1
	d.para(marginL+5, contentW-10, counts)
}

// gate finds the fired gate with this id on this ring.
func (d *doc) gate(id string, ring api.Ring) *api.Gate {
	for i := range d.r.GatesFired {
		if g := &d.r.GatesFired[i]; g.ID == id && g.Ring == ring {
			return g
		}
	}
	return nil
}

// summaryPage: the executive summary, the scores, critical issues, where to
// start and what already works.
func (d *doc) summaryPage() {
	d.heading("Executive summary")
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, d.r.Summaries.Executive)

	d.subheading("Scores")
	rows := []struct {
		name  string
		score float64
		text  string
		grade string
	}{{"Overall", d.r.OverallScore, fmt.Sprintf("%.1f", d.r.OverallScore), string(d.r.OverallGrade)}}
	for _, ring := range d.rings() {
		rows = append(rows, struct {
			name  string
			score float64
			text  string
			grade string
		}{ringName(ring.Ring), float64(ring.Score), fmt.Sprint(ring.Score), string(ring.Grade)})
	}
	for _, row := range rows {
		d.ensure(8)
		d.font(fontBold, 10)
		d.color(ink)
		d.text(marginL, d.y, row.name)
		d.bar(marginL+38, d.y+0.8, 95, 3.2, row.score, gradeColor(row.grade))
		d.text(marginL+138, d.y, row.text)
		d.color(gradeColor(row.grade))
		d.text(marginL+154, d.y, "grade "+row.grade)
		d.y += 7
	}

	if issues := d.criticalIssues(); len(issues) > 0 {
		d.subheading("Critical issues", d.bulletHeight(issues[0]))
		d.bullets(issues, statusInk[api.CheckStatusFail])
	}

	actions := d.priorities(summaryActions)
	var first []float64
	if len(actions) > 0 {
		first = append(first, d.actionHeight(actions[0]))
	}
	d.subheading("Where to start", first...)
	if len(actions) == 0 {
		d.font(fontRegular, 10)
		d.color(ink)
		d.para(marginL, contentW, "No check failed or warned: there is nothing to fix.")
	}
	d.startPage = d.pdf.GetNumberOfPages()
	d.actions(actions, 0)
	d.started = len(actions)

	if strengths := d.strengths(8); len(strengths) > 0 {
		d.subheading("What already works")
		d.font(fontRegular, 9.5)
		d.color(ink)
		d.para(marginL, contentW, strings.Join(strengths, " · ")+".")
	}
}

// criticalIssues describes each fired gate once, saying whether it holds a
// ring down or the ring scores below its cap anyway.
func (d *doc) criticalIssues() []string {
	type issue struct {
		g             api.Gate
		binds, others []string
	}
	var list []*issue
	byID := map[string]*issue{}
	for _, g := range d.r.GatesFired {
		is, ok := byID[g.ID]
		if !ok {
			is = &issue{g: g}
			byID[g.ID] = is
			list = append(list, is)
		}
		if rr := d.ring(g.Ring); rr.CappedBy != nil && *rr.CappedBy == g.ID {
			is.binds = append(is.binds, ringName(g.Ring))
		} else {
			is.others = append(is.others, ringName(g.Ring))
		}
	}
	out := make([]string, 0, len(list))
	for _, is := range list {
		var b strings.Builder
		b.WriteString(is.g.Message)
		if len(is.binds) > 0 {
			fmt.Fprintf(&b, " It holds %s at %d.", joinAnd(is.binds), is.g.Cap)
		}
		if len(is.others) > 0 {
			verb := "scores"
			if len(is.others) > 1 {
				verb = "score"
			}
			fmt.Fprintf(&b, " %s already %s below the cap of %d it sets.", joinAnd(is.others), verb, is.g.Cap)
		}
		if d.eng {
			fmt.Fprintf(&b, " (gate %s, check %s)", is.g.ID, is.g.CheckID)
		}
		out = append(out, b.String())
	}
	return out
}

func (d *doc) ring(r api.Ring) api.RingResult {
	for _, rr := range d.rings() {
		if rr.Ring == r {
			return rr
		}
	}
	return api.RingResult{}
}

// priority is one thing to fix, from the triage dossier or, without one,
// from the failed and warned checks by what fixing each alone gains.
type priority struct {
	label, fix, impact, effort, checkID string
	quickWin                            bool
	// gain is what the fix adds to the overall score in this order (nil
	// in documents made before gains were computed); alone what it adds
	// by itself; with the numbers of the priorities it gains only
	// together with.
	gain, alone *float64
	with        []int
}

func (d *doc) priorities(n int) []priority {
	var out []priority
	if d.t != nil {
		pos := map[string]int{}
		for i, a := range d.t.PriorityActions {
			pos[a.CheckID] = i + 1
		}
		for _, a := range d.t.PriorityActions {
			p := priority{
				label: a.Label, fix: a.Recommendation, impact: string(a.Impact), effort: string(a.Effort), checkID: a.CheckID,
				quickWin: a.QuickWin, gain: a.GainInOrder, alone: a.ExpectedGain,
			}
			if a.FixedWith != nil {
				for _, id := range *a.FixedWith {
					p.with = append(p.with, pos[id])
				}
			}
			out = append(out, p)
		}
	} else {
		rank := map[api.Level]int{api.LevelHigh: 0, api.LevelMedium: 1, api.LevelLow: 2}
		var list []api.CheckResult
		for _, c := range d.r.Checks {
			if c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn {
				list = append(list, c)
			}
		}
		gain := func(c api.CheckResult) float64 {
			if c.ExpectedGain == nil {
				return 0
			}
			return *c.ExpectedGain
		}
		sort.SliceStable(list, func(i, j int) bool {
			if a, b := gain(list[i]), gain(list[j]); a != b {
				return a > b
			}
			if rank[list[i].Impact] != rank[list[j].Impact] {
				return rank[list[i].Impact] < rank[list[j].Impact]
			}
			return list[i].Weight > list[j].Weight
		})
		for _, c := range list {
			out = append(out, priority{
				label: c.Title, fix: deref(c.Recommendation), impact: string(c.Impact), effort: string(c.Effort), checkID: c.ID,
				gain: c.ExpectedGain, alone: c.ExpectedGain,
			})
		}
	}
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// gainTag says what a priority adds to the overall score: "+4.4 points",
// "+6.1 points after those above (alone +0.0)", "+3.2 points together
// with 2"; "" for a document without gains.
func (a priority) gainTag() string {
	if a.gain == nil {
		return ""
	}
	tag := fmt.Sprintf("+%.1f points", *a.gain)
	switch {
	case len(a.with) > 0:
		nums := make([]string, len(a.with))
		for i, n := range a.with {
			nums[i] = fmt.Sprint(n)
		}
		tag += " together with " + joinAnd(nums)
	case a.alone != nil && *a.alone != *a.gain:
		tag += fmt.Sprintf(" after those above (alone +%.1f)", *a.alone)
	}
	return tag
}

func (d *doc) actionHeight(a priority) float64 {
	return d.heightOf(fontBold, 10, contentW-8, a.label) + d.heightOf(fontRegular, 9, contentW-8, a.fix) + 8
}

// action draws one numbered priority with its tags and fix.
func (d *doc) action(n int, a priority) {
	d.ensure(d.actionHeight(a))
	d.font(fontBold, 10)
	d.color(d.accentInk())
	d.text(marginL, d.y, fmt.Sprintf("%d.", n))
	d.color(ink)
	d.para(marginL+8, contentW-8, a.label)
	x := marginL + 8
	if a.quickWin {
		x += d.pill(x, d.y+0.3, "QUICK WIN", 7, statusInk[api.CheckStatusPass]) + 2
	}
	d.font(fontRegular, 8.5)
	d.color(muted)
	tags := fmt.Sprintf("Impact %s · effort %s", a.impact, a.effort)
	if g := a.gainTag(); g != "" {
		tags += " · " + g
	}
	if d.eng && a.checkID != "" {
		tags += " · " + a.checkID
	}
	d.text(x, d.y+0.4, tags)
	d.y += d.lineH() + 1
	if a.fix != "" {
		d.font(fontRegular, 9)
		d.color(ink)
		d.para(marginL+8, contentW-8, a.fix)
	}
	d.y += 2.5
}

// summaryActions is how many priorities the executive summary lists.
const summaryActions = 5

// actions draws priorities numbered from first+1, the last two kept on
// one page so that no page holds a lone action.
func (d *doc) actions(list []priority, first int) {
	for i, a := range list {
		if i == len(list)-2 {
			d.keep(d.actionHeight(a) + d.actionHeight(list[i+1]))
		}
		d.action(first+i+1, a)
	}
}

// bullets draws a list, the last two items kept on one page.
func (d *doc) bullets(list []string, c rgb) {
	for i, s := range list {
		if i == len(list)-2 {
			d.keep(d.bulletHeight(s) + d.bulletHeight(list[i+1]))
		}
		d.bullet(s, c)
	}
}

func (d *doc) bulletHeight(s string) float64 {
	return d.heightOf(fontRegular, 9.5, contentW-5, s) + 1
}

func (d *doc) bullet(s string, c rgb) {
	d.font(fontRegular, 9.5)
	d.ensure(d.lineH())
	d.fill(c)
	d.pdf.Polygon(circle(marginL+1.5, d.y+d.lineH()/2-0.2, 0.9), "F")
	d.color(ink)
	d.para(marginL+5, contentW-5, s)
	d.y += 1
}

func circle(cx, cy, r float64) []gopdf.Point {
	pts := make([]gopdf.Point, 0, 16)
	for i := range 16 {
		a := float64(i) * 2 * math.Pi / 16
		pts = append(pts, gopdf.Point{X: cx + r*math.Cos(a), Y: cy + r*math.Sin(a)})
	}
	return pts
}

// strengths are the passed checks that weigh most.
func (d *doc) strengths(n int) []string {
	var list []api.CheckResult
	for _, c := range d.r.Checks {
		if c.Status == api.CheckStatusPass && c.Weight > 0 {
			list = append(list, c)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Weight > list[j].Weight })
	var out []string
	for _, c := range list {
		if len(out) == n {
			break
		}
		out = append(out, passTitle(c, d.eng))
	}
	return out
}

// triagePage: what the site is built with, its risks and what to do first.
func (d *doc) triagePage() {
	d.heading("Site Triage")
	if d.t == nil {
		d.font(fontRegular, 10.5)
		d.color(ink)
		d.para(marginL, contentW, "The Site Triage dossier of this scan is not available yet: it is computed when a scan completes and is being computed again. Download the report later to include it.")
		return
	}
	t := d.t
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, t.SummaryParagraph)

	d.subheading("Platform")
	p := t.Platform
	rows := [][2]string{
		{"Content management", orNone(p.Cms, "not recognised")},
		{"Page builder", orNone(p.PageBuilder, "none found")},
		{"JavaScript framework", orNone(p.JsFramework, "none found")},
		{"Complexity", string(p.ComplexityBucket)},
		{"Detection confidence", string(p.Confidence)},
	}
	var tech []string
	for _, tc := range p.Technologies {
		s := tc.Name
		if tc.Version != nil && *tc.Version != "" {
			s += " " + *tc.Version
		}
		if len(tc.Categories) > 0 {
			s += " (" + strings.Join(tc.Categories, ", ") + ")"
		}
		tech = append(tech, s)
	}
	if len(tech) > 0 {
		rows = append(rows, [2]string{"Technologies", strings.Join(tech, "; ")})
	}
	for _, row := range rows {
		d.font(fontRegular, 9.5)
		h := d.heightOf(fontRegular, 9.5, contentW-50, row[1])
		d.ensure(h)
		d.font(fontBold, 9.5)
		d.color(muted)
		d.text(marginL, d.y, row[0])
		d.font(fontRegular, 9.5)
		d.color(ink)
		d.para(marginL+50, contentW-50, row[1])
		d.y += 0.8
	}

	d.subheading("Risk by lens")
	d.font(fontRegular, 9)
	d.color(muted)
	d.para(marginL, contentW, "Each lens rates the share of points lost on the checks behind it, which cut across the pillars of the rings; a lens none of whose checks could be scored is not measured.")
	d.y += 1.5
	levels := []string{"low", "moderate", "high", "critical"}
	for _, l := range t.RiskLenses {
		d.ensure(7)
		d.font(fontBold, 9.5)
		d.color(ink)
		d.text(marginL, d.y, l.Label)
		if !d.lensMeasured(l) {
			for i := range levels {
				d.roundRect(marginL+50+float64(i)*13, d.y+0.6, 12, 3.4, 1, track)
			}
			d.color(muted)
			d.text(marginL+50+4*13+4, d.y, "not measured")
			d.y += 6.5
			continue
		}
		idx := 0
		for i, lv := range levels {
			if string(l.Bucket) == lv {
				idx = i
			}
		}
		c := levelInk[string(l.Bucket)]
		for i := range levels {
			col := track
			if i <= idx {
				col = c
			}
			d.roundRect(marginL+50+float64(i)*13, d.y+0.6, 12, 3.4, 1, col)
		}
		d.font(fontBold, 9.5)
		d.color(c)
		d.text(marginL+50+4*13+4, d.y, string(l.Bucket))
		d.y += 6.5
	}

	d.subheading("Priority actions")
	d.font(fontRegular, 9)
	d.color(muted)
	ranked := "Ranked by the points each fix adds to the overall score, re-scored with it and the fixes above it made, against the effort it takes on this platform."
	switch {
	case t.ActionCount == 0:
		ranked = "No check failed or warned: there is nothing to fix."
	case t.QuickWinCount == 0:
		ranked += fmt.Sprintf(" None of the %s is a quick win (high impact for low effort).", plural(t.ActionCount, "action", "actions"))
	default:
		ranked += fmt.Sprintf(" Quick wins (high impact for low effort) are marked: %d of %s.", t.QuickWinCount, plural(t.ActionCount, "action", "actions"))
	}
	d.para(marginL, contentW, ranked)
	d.y += 1.5
	const shown = 12
	actions := d.priorities(0)
	// The first ones are in the executive summary already: they are
	// referred to, not listed again.
	from := min(d.started, len(actions))
	if from > 0 {
		d.font(fontRegular, 9.5)
		d.color(ink)
		first := "The first action is"
		if from > 1 {
			first = fmt.Sprintf("Actions 1 to %d are", from)
		}
		more := ""
		if len(actions) > from {
			more = " The others follow."
		}
		d.para(marginL, contentW, fmt.Sprintf("%s under “Where to start” in the executive summary (page %d).%s", first, d.startPage, more))
		d.y += 1.5
	}
	d.actions(actions[from:min(len(actions), shown)], from)
	if rest := len(actions) - shown; rest > 0 {
		var wins []string
		for _, a := range actions[shown:] {
			if a.quickWin {
				wins = append(wins, quoted(a.label))
			}
		}
		msg := fmt.Sprintf("%s follow in the ring sections, each with its check.", plural(rest, "more action", "more actions"))
		if len(wins) > 0 {
			msg += " Among them the quick wins " + joinAnd(wins) + "."
		}
		d.font(fontRegular, 9)
		d.color(muted)
		d.para(marginL, contentW, msg)
	}

	if len(t.Caveats) > 0 {
		d.subheading("Caveats", d.bulletHeight(t.Caveats[0]))
		d.bullets(t.Caveats, muted)
	}
}

// lensMeasured says whether any check behind a risk lens was scored: the
// dossier rates a lens without one "low", which would read as a finding.
// The platform lens rates the platform itself and is always measured.
func (d *doc) lensMeasured(l api.TriageRiskLens) bool {
	if l.LensID == api.PlatformFixability {
		return true
	}
	basis := map[string]bool{}
	for _, id := range l.Basis {
		basis[id] = true
	}
	for _, c := range d.r.Checks {
		if basis[c.ID] && c.Score != nil && c.Weight > 0 {
			return true
		}
	}
	return false
}

// ringSection: the ring's score, narrative, pillars and every check grouped
// by pillar.
func (d *doc) ringSection(ring api.RingResult) {
	name := ringName(ring.Ring)
	d.heading(name)
	gc := gradeColor(string(ring.Grade))
	d.font(fontBold, 14)
	d.color(gc)
	d.text(marginL, d.y, fmt.Sprintf("%d out of 100 · grade %s", ring.Score, ring.Grade))
	d.y += d.lineH()
	d.font(fontRegular, 10)
	d.color(muted)
	d.para(marginL, contentW, ring.GradeDescriptor)
	d.y += 2
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, ringSummary(d.r.Summaries, ring.Ring))

	d.subheading("Pillars")
	checksBy := map[string][]api.CheckResult{}
	for _, c := range d.r.Checks {
		if c.Ring == ring.Ring {
			checksBy[c.Pillar] = append(checksBy[c.Pillar], c)
		}
	}
	for _, p := range ring.Pillars {
		d.pillarRow(p, checksBy[p.ID])
	}

	last := -1
	for i, p := range ring.Pillars {
		if len(checksBy[p.ID]) > 0 {
			last = i
		}
	}
	for i, p := range ring.Pillars {
		list := checksBy[p.ID]
		if len(list) == 0 {
			continue
		}
		sort.SliceStable(list, func(i, j int) bool { return statusOrder[list[i].Status] < statusOrder[list[j].Status] })
		score := "not measured"
		if p.Score != nil {
			score = fmt.Sprintf("%d out of 100", *p.Score)
		}
		// The pillar's name stays with its first check, or with the
		// first lines of one taller than a page.
		const nameH = 11.0
		if h := d.checkBlockHeight(list[0]); h < bodyEnd-bodyTop {
			d.keep(nameH + h)
		} else {
			d.ensure(nameH + 30)
		}
		d.y += 4
		d.font(fontBold, 12)
		d.color(ink)
		d.text(marginL, d.y, p.Name)
		d.font(fontRegular, 9)
		d.color(muted)
		d.text(marginL+d.widthIn(fontBold, 12, p.Name)+3, d.y+1.2, "· "+score)
		d.y += 7
		for j, c := range list {
			// The section ends after the last pillar: its last check
			// does not go to a page of its own.
			if i == last && j == len(list)-2 {
				d.keep(d.checkBlockHeight(c) + d.checkBlockHeight(list[j+1]))
			}
			d.checkBlock(c)
		}
	}
}

func (d *doc) widthIn(family string, size float64, s string) float64 {
	f, sz := d.family, d.size
	d.font(family, size)
	w := d.width(drawable(s))
	d.font(f, sz)
	return w
}

var statusOrder = map[api.CheckStatus]int{
	api.CheckStatusFail: 0, api.CheckStatusWarn: 1, api.CheckStatusPass: 2, api.CheckStatusError: 3, api.CheckStatusNa: 3, api.CheckStatusInfo: 4,
}

// pillarRow draws a pillar's bar, score and what it measures; a pillar no
// check could score says so, and why.
func (d *doc) pillarRow(p api.Pillar, list []api.CheckResult) {
	desc := p.Description
	if d.eng {
		desc += fmt.Sprintf(" Weight %.0f%% of the ring; coverage %.0f%% of its check weight.", p.Weight*100, p.Coverage*100)
	}
	var reason string
	if p.Score == nil {
		reason = notMeasuredReason(list)
	}
	h := 6 + d.heightOf(fontRegular, 8.5, contentW-62, desc)
	if reason != "" {
		h += d.heightOf(fontRegular, 8.5, contentW-62, reason)
	}
	d.ensure(h)
	top := d.y
	d.font(fontBold, 10)
	d.color(ink)
	d.para(marginL, 58, p.Name)
	d.y = top
	x := marginL + 62
	if p.Score != nil {
		c := gradeColor(scoring.GradeFor(float64(*p.Score)).Grade)
		d.bar(x, d.y+0.8, 80, 3.2, float64(*p.Score), c)
		d.font(fontBold, 10)
		d.color(ink)
		d.text(x+84, d.y, fmt.Sprint(*p.Score))
	} else {
		d.roundRect(x, d.y+0.8, 80, 3.2, 1.6, track)
		d.font(fontBold, 10)
		d.color(muted)
		d.text(x+84, d.y, "not measured")
	}
	d.y += d.lineH() + 0.3
	d.font(fontRegular, 8.5)
	d.color(muted)
	d.para(x, contentW-62, desc)
	if reason != "" {
		d.color(ink)
		d.para(x, contentW-62, reason)
	}
	d.y = math.Max(d.y, top+h) + 1.5
}

// notMeasuredReason explains a pillar without a score from its checks: the
// reason they share, or that none applied.
func notMeasuredReason(list []api.CheckResult) string {
	if len(list) == 0 {
		return "Not measured: no check of this pillar ran."
	}
	first := list[0].Summary
	for _, c := range list[1:] {
		if c.Summary != first {
			return "Not measured: none of its checks applied to this site; each check below says why."
		}
	}
	if strings.HasPrefix(first, "Not measured") {
		return first
	}
	return "Not measured: " + first
}

// checkBlock draws one check in two columns, status and labels on the
// left, title and texts on the right: what was found, why it matters and
// how to fix it. A block is kept on one page.
const checkIndent = 26.0

// checkTexts are what a check block shows: what was found, why it
// matters, how to fix it and, in the engineering edition, its facts.
func (d *doc) checkTexts(c api.CheckResult) (found, why, fix, meta string) {
	found = c.Summary
	if c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn || c.Status == api.CheckStatusPass {
		why = c.WhyItMatters
	}
	if c.Recommendation != nil && (c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn) {
		fix = *c.Recommendation
	}
	if d.eng {
		meta = fmt.Sprintf("%s · weight %g · impact %s · effort %s", c.ID, c.Weight, c.Impact, c.Effort)
		if c.ExpectedGain != nil {
			meta += fmt.Sprintf(" · gain alone +%.1f", *c.ExpectedGain)
		}
	}
	return found, why, fix, meta
}

// checkBlockHeight is the height checkBlock takes for c.
func (d *doc) checkBlockHeight(c api.CheckResult) float64 {
	w := contentW - checkIndent
	found, why, fix, meta := d.checkTexts(c)
	h := d.heightOf(fontBold, 10, w, c.Title) + 3
	for _, s := range []string{found, why, fix} {
		if s != "" {
			h += d.heightOf(fontRegular, 9, w, s)
		}
	}
	if meta != "" {
		h += d.heightOf(fontMono, 7.5, w, meta)
	}
	return h
}

func (d *doc) checkBlock(c api.CheckResult) {
	const indent = checkIndent
	w := contentW - indent
	found, why, fix, meta := d.checkTexts(c)
	if h := d.checkBlockHeight(c); h < bodyEnd-bodyTop {
		d.ensure(h)
	} else {
		d.ensure(30)
	}
	d.pill(marginL, d.y+0.4, statusLabel(c.Status, d.eng), 7, statusInk[c.Status])
	d.font(fontBold, 10)
	d.color(ink)
	d.para(marginL+indent, w, c.Title)
	if meta != "" {
		d.font(fontMono, 7.5)
		d.color(muted)
		d.para(marginL+indent, w, meta)
	}
	for _, part := range []struct {
		label, text string
		c           rgb
	}{{"Found", found, ink}, {"Why it matters", why, muted}, {"How to fix", fix, ink}} {
		if part.text == "" {
			continue
		}
		d.font(fontRegular, 9)
		d.ensure(d.lineH())
		d.font(fontBold, 8)
		d.color(muted)
		d.text(marginL, d.y+0.3, part.label)
		d.font(fontRegular, 9)
		d.color(part.c)
		d.para(marginL+indent, w, part.text)
	}
	d.y += 3
}

func statusLabel(s api.CheckStatus, eng bool) string {
	if eng {
		if s == api.CheckStatusNa {
			return "N/A"
		}
		return strings.ToUpper(string(s))
	}
	switch s {
	case api.CheckStatusPass:
		return "PASSED"
	case api.CheckStatusWarn:
		return "PARTLY"
	case api.CheckStatusFail:
		return "FAILED"
	case api.CheckStatusNa:
		return "N/A"
	case api.CheckStatusError:
		return "NOT CHECKED"
	}
	return "INFO"
}

// fetchAppendix lists every request of the audit in a table whose cells are
// measured: URLs are shortened in the middle, labels wrap, so no column
// runs into the next.
func (d *doc) fetchAppendix() {
	d.heading("What was fetched")
	f := d.r.Fetch
	d.font(fontRegular, 10)
	d.color(ink)
	d.para(marginL, contentW, fmt.Sprintf("%s made %s in %.1f s and read %s. %s of the site were analysed: the homepage%s. The other requests read files such as robots.txt and the sitemap, or test how the site answers crawlers.",
		d.author(), plural(len(f.Fetches), "request", "requests"), float64(f.DurationMs)/1000, bytesText(f.Bytes),
		capitalise(plural(f.Pages, "page", "pages")), morePages(f.Pages)))
	d.font(fontRegular, 8.5)
	d.color(muted)
	d.para(marginL, contentW, "A dash in the size column means no body was read: a request for the headers only, or an empty answer.")
	d.y += 3

	cols := []struct {
		title string
		w     float64
	}{{"Address", 78}, {"Purpose", 50}, {"Status", 14}, {"Size", 18}, {"Time", 14}}
	var total float64
	for _, c := range cols {
		total += c.w
	}
	if math.Abs(total-contentW) > 0.01 {
		d.fail(fmt.Errorf("fetch table columns are %.1f mm wide, the page text %.1f mm", total, contentW))
		return
	}
	header := func() {
		d.font(fontBold, 8.5)
		d.color(ink)
		x := marginL
		for _, c := range cols {
			d.text(x, d.y, c.title)
			x += c.w
		}
		d.y += d.lineH()
		d.stroke(muted, 0.2)
		d.pdf.Line(marginL, d.y, marginL+contentW, d.y)
		d.y += 1
	}
	header()
	for _, rec := range f.Fetches {
		d.font(fontRegular, 8)
		purpose := d.wrap(d.purpose(rec.Purpose), cols[1].w-2)
		var errLines []string
		if rec.Error != nil {
			errLines = d.wrap("Error: "+*rec.Error, cols[0].w-2)
		}
		lines := max(len(purpose), 1+len(errLines))
		h := float64(lines)*d.lineH() + 1
		if d.y+h > bodyEnd {
			d.newPage()
			header()
		}
		d.font(fontRegular, 8)
		d.color(ink)
		x := marginL
		d.text(x, d.y, d.clipMiddle(rec.URL, cols[0].w-2))
		for i, l := range errLines {
			d.color(statusInk[api.CheckStatusFail])
			d.text(x, d.y+float64(i+1)*d.lineH(), l)
		}
		d.color(ink)
		x += cols[0].w
		for i, l := range purpose {
			d.text(x, d.y+float64(i)*d.lineH(), l)
		}
		x += cols[1].w
		status := "–"
		if rec.StatusCode != nil {
			status = fmt.Sprint(*rec.StatusCode)
		}
		d.text(x, d.y, d.clip(status, cols[2].w-2))
		x += cols[2].w
		size := "–"
		if rec.Bytes > 0 {
			size = bytesText(rec.Bytes)
		}
		d.text(x, d.y, d.clip(size, cols[3].w-2))
		x += cols[3].w
		elapsed := fmt.Sprintf("%d ms", rec.DurationMs)
		if rec.DurationMs >= 10_000 {
			elapsed = fmt.Sprintf("%.0f s", float64(rec.DurationMs)/1000)
		}
		d.text(x, d.y, d.clip(elapsed, cols[4].w))
		d.y += h
		d.stroke(track, 0.15)
		d.pdf.Line(marginL, d.y-0.5, marginL+contentW, d.y-0.5)
	}
}

func morePages(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" and %s it links to", plural(n-1, "page", "pages"))
}

// purpose names why a URL was fetched: the raw purpose in the engineering
// edition, words in the marketing one.
func (d *doc) purpose(p string) string {
	if d.eng {
		return p
	}
	kind, agent, _ := strings.Cut(p, ":")
	if label, ok := purposeLabels[kind]; ok {
		switch {
		case agent == "Browser":
			return label + " as a browser"
		case agent != "":
			return label + " as " + agent
		}
		return label
	}
	return strings.ReplaceAll(p, "_", " ")
}

var purposeLabels = map[string]string{
	"homepage":        "Homepage",
	"ttfb_sample":     "Response time, headers only",
	"http_probe":      "Insecure http:// address",
	"robots":          "robots.txt",
	"sitemap":         "Sitemap",
	"sitemap_sample":  "Page listed in the sitemap",
	"llms_txt":        "llms.txt",
	"llms_full_txt":   "llms-full.txt",
	"llms_txt_link":   "Page linked from llms.txt",
	"not_found_probe": "Address that should not exist",
	"about":           "About page",
	"contact":         "Contact page",
	"privacy":         "Privacy policy",
	"terms":           "Terms page",
	"article":         "Article",
	"product":         "Product page",
	"bot_probe":       "Homepage",
}

func ringSummary(s api.Summaries, ring api.Ring) string {
	switch ring {
	case api.Search:
		return s.Search
	case api.Visibility:
		return s.Visibility
	default:
		return s.Trust
	}
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func capitalise(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

func orNone(p *string, none string) string {
	if p == nil || *p == "" {
		return none
	}
	return *p
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func bytesText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
