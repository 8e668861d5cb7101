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
	d.pdf.AddOutline(d.tr("pdf.cover"))
	d.rect(0, 0, pageW, 6, d.accentInk())
	d.coverBrand()
	d.y = 22
	d.font(fontBold, 9)
	d.color(d.accentInk())
	d.text(marginL, d.y, strings.ToUpper(d.tr("html.eyebrow", "Edition", d.say(d.edition()))))
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
	d.text(marginL, d.y, d.tr("html.scanned", "Date", d.moment(d.r.GeneratedAt), "Rubric", d.r.ScoringVersion))
	d.y += 14

	// The overall score.
	cx, cy, radius := marginL+30, d.y+30, 28.0
	gc := gradeColor(string(d.r.OverallGrade))
	d.donut(cx, cy, radius, 7, d.r.OverallScore, gc)
	d.font(fontBold, 26)
	d.color(ink)
	score := d.num(d.r.OverallScore, 1)
	d.text(cx-d.width(score)/2, cy-7, score)
	d.font(fontRegular, 8)
	d.color(muted)
	outOf := d.tr("html.out_of_100")
	d.text(cx-d.width(outOf)/2, cy+4, outOf)

	x := marginL + 70
	d.font(fontRegular, 9)
	d.color(muted)
	d.text(x, cy-24, d.tr("html.overall_grade"))
	d.font(fontBold, 40)
	d.color(gc)
	d.text(x, cy-19, string(d.r.OverallGrade))
	d.y = cy + 2
	d.font(fontRegular, 11)
	d.color(ink)
	d.para(x, pageW-marginR-x, d.grade(string(d.r.OverallGrade), d.r.GradeDescriptor))
	d.y = math.Max(d.y, cy+radius) + 12

	// The rings.
	d.font(fontBold, 12)
	d.color(ink)
	d.text(marginL, d.y, d.tr("html.rings"))
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
		s := d.int(ring.Score)
		d.text(cx-d.width(s)/2, cy-5.5, s)
		d.font(fontRegular, 8)
		d.color(muted)
		g := d.tr("html.grade", "Grade", string(ring.Grade))
		d.text(cx-d.width(g)/2, cy+2, g)

		d.y = cy + 22
		d.font(fontBold, 11)
		d.color(ink)
		name := d.say(ringName(ring.Ring))
		d.text(cx-d.width(name)/2, d.y, name)
		d.y += d.lineH() + 0.5
		d.font(fontRegular, 8.5)
		d.color(muted)
		for _, l := range d.wrap(d.grade(string(ring.Grade), ring.GradeDescriptor), colW-8) {
			d.text(cx-d.width(l)/2, d.y, l)
			d.y += d.lineH()
		}
		if ring.CappedBy != nil {
			d.font(fontBold, 8.5)
			d.color(statusInk[api.CheckStatusFail])
			capped := d.tr("pdf.held_down")
			if g := d.gate(*ring.CappedBy, ring.Ring); g != nil {
				capped = d.tr("pdf.held_at", "Cap", d.int(g.Cap))
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
	read, counts := d.readingGuide()
	d.coverCJKNote()
	d.font(fontRegular, 9)
	h := d.heightOf(fontRegular, 9, contentW-10, read) + d.heightOf(fontRegular, 9, contentW-10, counts) + d.lineH() + 10
	d.roundRect(marginL, d.y, contentW, h, 2, panel)
	d.y += 4
	d.font(fontBold, 9)
	d.color(ink)
	d.text(marginL+5, d.y, d.tr("html.how_to_read"))
	d.y += d.lineH()
	d.font(fontRegular, 9)
	d.para(marginL+5, contentW-10, read)
	d.y += 1
	d.para(marginL+5, contentW-10, counts)
}

// readingGuide is how to read the report: how rings and grades are
// scored, and how many checks ran and how they came out.
func (d *doc) readingGuide() (read, counts string) {
	var grades []string
	for _, g := range scoring.Grades {
		if g.Min > 0 {
			grades = append(grades, d.tr("pdf.grade_from", "Grade", g.Grade, "Min", d.num(g.Min, 0)))
		} else {
			grades = append(grades, d.tr("pdf.grade_below", "Grade", g.Grade))
		}
	}
	pct := func(r scoring.Ring) string { return d.num(scoring.RingWeights[r]*100, 0) }
	read = d.tr("pdf.how_to_read", "Search", pct(scoring.RingSearch), "Visibility", pct(scoring.RingVisibility),
		"Trust", pct(scoring.RingTrust), "Grades", d.and(grades))
	c := d.r.Counts
	total := c.Pass + c.Warn + c.Fail + c.Na + c.Info
	counts = d.tr("pdf.counts", "Run", d.count("pdf.checks_run", total), "Pass", d.int(c.Pass), "Warn", d.int(c.Warn),
		"Fail", d.int(c.Fail), "Na", d.int(c.Na), "Info", d.int(c.Info))
	return read, counts
}

// coverCJKNote says, once, at the foot of the cover, that the report's
// Chinese, Japanese or Korean text is marked because the font for it is not
// installed.
func (d *doc) coverCJKNote() {
	if !d.cjkMissing {
		return
	}
	family, size, c := d.family, d.size, d.ink
	d.font(fontRegular, 8)
	d.color(statusInk[api.CheckStatusWarn])
	y := d.y
	d.y = bodyEnd - 3*d.lineH()
	d.para(marginL, contentW, d.tr("pdf.cjk_missing", "Marker", string(cjkMarker)))
	d.y = y
	d.font(family, size)
	d.color(c)
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
	d.heading(d.tr("html.summary"))
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, d.r.Summaries.Executive)

	d.subheading(d.tr("html.scores"))
	rows := []struct {
		name  string
		score float64
		text  string
		grade string
	}{{d.tr("html.col_overall"), d.r.OverallScore, d.num(d.r.OverallScore, 1), string(d.r.OverallGrade)}}
	for _, ring := range d.rings() {
		rows = append(rows, struct {
			name  string
			score float64
			text  string
			grade string
		}{d.say(ringName(ring.Ring)), float64(ring.Score), d.int(ring.Score), string(ring.Grade)})
	}
	for _, row := range rows {
		d.ensure(8)
		d.font(fontBold, 10)
		d.color(ink)
		d.text(marginL, d.y, d.clip(row.name, 36))
		d.bar(marginL+38, d.y+0.8, 95, 3.2, row.score, gradeColor(row.grade))
		d.text(marginL+138, d.y, row.text)
		d.color(gradeColor(row.grade))
		d.text(marginL+154, d.y, d.tr("html.grade", "Grade", row.grade))
		d.y += 7
	}

	if issues := d.criticalIssues(); len(issues) > 0 {
		d.subheading(d.tr("html.critical"), d.bulletsHead(issues))
		d.bullets(issues, statusInk[api.CheckStatusFail])
	}

	actions := d.priorities(summaryActions)
	var first []float64
	if len(actions) > 0 {
		first = append(first, d.actionHeight(actions[0]))
	}
	d.subheading(d.tr("html.where_to_start"), first...)
	if len(actions) == 0 {
		d.font(fontRegular, 10)
		d.color(ink)
		d.para(marginL, contentW, d.tr("html.nothing_to_fix"))
	}
	d.startPage = d.pdf.GetNumberOfPages()
	d.actions(actions, 0)
	d.started = len(actions)

	if strengths := d.strengths(8); len(strengths) > 0 {
		d.subheading(d.tr("html.strengths"))
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
			is.binds = append(is.binds, d.say(ringName(g.Ring)))
		} else {
			is.others = append(is.others, d.say(ringName(g.Ring)))
		}
	}
	out := make([]string, 0, len(list))
	for _, is := range list {
		var b strings.Builder
		b.WriteString(d.gateText(is.g.ID, is.g.Message))
		if len(is.binds) > 0 {
			b.WriteString(" " + d.tr("pdf.gate_holds", "Rings", d.and(is.binds), "Cap", d.int(is.g.Cap)))
		}
		if len(is.others) > 0 {
			id := "pdf.gate_below.one"
			if len(is.others) > 1 {
				id = "pdf.gate_below.other"
			}
			b.WriteString(" " + d.tr(id, "Rings", d.and(is.others), "Cap", d.int(is.g.Cap)))
		}
		if d.eng {
			b.WriteString(" " + d.tr("pdf.gate_ids", "Gate", is.g.ID, "Check", is.g.CheckID))
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
				label:  d.checkText(a.CheckID, "title", a.Label),
				fix:    d.checkText(a.CheckID, "fix", a.Recommendation),
				impact: string(a.Impact), effort: string(a.Effort), checkID: a.CheckID,
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
				label: d.checkText(c.ID, "title", c.Title), fix: d.checkText(c.ID, "fix", deref(c.Recommendation)),
				impact: string(c.Impact), effort: string(c.Effort), checkID: c.ID,
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
	return (&doc{}).gainTag(a)
}

// gainTag is priority.gainTag in the document's language.
func (d *doc) gainTag(a priority) string {
	if a.gain == nil {
		return ""
	}
	tag := d.tr("pdf.gain", "Points", d.num(*a.gain, 1))
	switch {
	case len(a.with) > 0:
		nums := make([]string, len(a.with))
		for i, n := range a.with {
			nums[i] = d.int(n)
		}
		tag += " " + d.tr("pdf.gain_with", "Actions", d.and(nums))
	case a.alone != nil && *a.alone != *a.gain:
		tag += " " + d.tr("pdf.gain_after", "Alone", d.num(*a.alone, 1))
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
		x += d.pill(x, d.y+0.3, d.tr("html.quick_win"), 7, statusInk[api.CheckStatusPass]) + 2
	}
	d.font(fontRegular, 8.5)
	d.color(muted)
	tags := d.tr("pdf.impact_effort", "Impact", d.word("level", a.impact), "Effort", d.word("level", a.effort))
	if g := d.gainTag(a); g != "" {
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

// bulletsHead is the height of what must follow a list's heading on its
// page: the first item, or both of a list of two, which are kept together.
func (d *doc) bulletsHead(list []string) float64 {
	h := d.bulletHeight(list[0])
	if len(list) == 2 {
		h += d.bulletHeight(list[1])
	}
	return h
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
		if t := passTitle(c, d.eng); t != c.Title {
			out = append(out, d.known("pdf.pass."+c.ID, t))
			continue
		}
		out = append(out, d.checkText(c.ID, "title", c.Title))
	}
	return out
}

// triagePage: what the site is built with, its risks and what to do first.
func (d *doc) triagePage() {
	d.heading(d.tr("html.triage"))
	if d.t == nil {
		d.font(fontRegular, 10.5)
		d.color(ink)
		d.para(marginL, contentW, d.tr("pdf.triage_pending"))
		return
	}
	t := d.t
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, t.SummaryParagraph)

	d.subheading(d.tr("html.platform"))
	p := t.Platform
	rows := [][2]string{
		{d.tr("pdf.platform.cms"), orNone(p.Cms, d.tr("pdf.platform.not_recognised"))},
		{d.tr("pdf.platform.builder"), orNone(p.PageBuilder, d.tr("pdf.platform.none_found"))},
		{d.tr("pdf.platform.framework"), orNone(p.JsFramework, d.tr("pdf.platform.none_found"))},
		{d.tr("pdf.platform.complexity"), d.word("complexity", string(p.ComplexityBucket))},
		{d.tr("pdf.platform.confidence"), d.word("confidence", string(p.Confidence))},
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
		rows = append(rows, [2]string{d.tr("pdf.platform.technologies"), strings.Join(tech, "; ")})
	}
	for _, row := range rows {
		d.font(fontRegular, 9.5)
		h := d.heightOf(fontRegular, 9.5, contentW-50, row[1])
		d.ensure(h)
		d.font(fontBold, 9.5)
		d.color(muted)
		d.text(marginL, d.y, d.clip(row[0], 48))
		d.font(fontRegular, 9.5)
		d.color(ink)
		d.para(marginL+50, contentW-50, row[1])
		d.y += 0.8
	}

	d.subheading(d.tr("html.risk_by_lens"))
	d.font(fontRegular, 9)
	d.color(muted)
	d.para(marginL, contentW, d.tr("pdf.lens_intro"))
	d.y += 1.5
	levels := []string{"low", "moderate", "high", "critical"}
	for _, l := range t.RiskLenses {
		d.ensure(7)
		d.font(fontBold, 9.5)
		d.color(ink)
		d.text(marginL, d.y, d.clip(d.known("pdf.lens."+string(l.LensID), l.Label), 48))
		if !d.lensMeasured(l) {
			for i := range levels {
				d.roundRect(marginL+50+float64(i)*13, d.y+0.6, 12, 3.4, 1, track)
			}
			d.color(muted)
			d.text(marginL+50+4*13+4, d.y, d.tr("pdf.not_measured"))
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
		d.text(marginL+50+4*13+4, d.y, d.word("risk", string(l.Bucket)))
		d.y += 6.5
	}

	d.subheading(d.tr("html.priority_actions"))
	d.font(fontRegular, 9)
	d.color(muted)
	ranked := d.tr("pdf.ranked")
	switch {
	case t.ActionCount == 0:
		ranked = d.tr("html.nothing_to_fix")
	case t.QuickWinCount == 0:
		ranked += " " + d.tr("pdf.no_quick_wins", "Actions", d.count("pdf.actions", t.ActionCount))
	default:
		ranked += " " + d.tr("pdf.quick_wins", "Wins", d.int(t.QuickWinCount), "Actions", d.count("pdf.actions", t.ActionCount))
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
		msg := d.tr("pdf.first_action", "Section", d.tr("html.where_to_start"), "Page", d.int(d.startPage))
		if from > 1 {
			msg = d.tr("pdf.first_actions", "Last", d.int(from), "Section", d.tr("html.where_to_start"), "Page", d.int(d.startPage))
		}
		if len(actions) > from {
			msg += " " + d.tr("pdf.others_follow")
		}
		d.para(marginL, contentW, msg)
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
		msg := d.count("pdf.more_follow", rest)
		if len(wins) > 0 {
			msg += " " + d.tr("pdf.more_quick_wins", "Wins", d.and(wins))
		}
		d.font(fontRegular, 9)
		d.color(muted)
		d.para(marginL, contentW, msg)
	}

	if len(t.Caveats) > 0 {
		d.subheading(d.tr("html.caveats"), d.bulletsHead(t.Caveats))
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
	name := d.say(ringName(ring.Ring))
	d.heading(name)
	gc := gradeColor(string(ring.Grade))
	d.font(fontBold, 14)
	d.color(gc)
	d.text(marginL, d.y, d.tr("html.score_line", "Score", d.int(ring.Score), "Grade", string(ring.Grade)))
	d.y += d.lineH()
	d.font(fontRegular, 10)
	d.color(muted)
	d.para(marginL, contentW, d.grade(string(ring.Grade), ring.GradeDescriptor))
	d.y += 2
	d.font(fontRegular, 10.5)
	d.color(ink)
	d.para(marginL, contentW, ringSummary(d.r.Summaries, ring.Ring))

	d.subheading(d.tr("html.pillars"))
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
		score := d.tr("pdf.not_measured")
		if p.Score != nil {
			score = d.tr("pdf.out_of_100", "Score", d.int(*p.Score))
		}
		pname := d.pillarName(p.ID, p.Name)
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
		d.text(marginL, d.y, pname)
		d.font(fontRegular, 9)
		d.color(muted)
		d.text(marginL+d.widthIn(fontBold, 12, pname)+3, d.y+1.2, "· "+score)
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
	w := d.width(d.drawable(s))
	d.font(f, sz)
	return w
}

var statusOrder = map[api.CheckStatus]int{
	api.CheckStatusFail: 0, api.CheckStatusWarn: 1, api.CheckStatusPass: 2, api.CheckStatusError: 3, api.CheckStatusNa: 3, api.CheckStatusInfo: 4,
}

// pillarRow draws a pillar's bar, score and what it measures; a pillar no
// check could score says so, and why.
func (d *doc) pillarRow(p api.Pillar, list []api.CheckResult) {
	desc := d.pillarText(p.ID, p.Description)
	if d.eng {
		desc += " " + d.tr("pdf.pillar_weight", "Weight", d.num(p.Weight*100, 0), "Coverage", d.num(p.Coverage*100, 0))
	}
	var reason string
	if p.Score == nil {
		reason = d.notMeasuredReason(list)
	}
	h := 6 + d.heightOf(fontRegular, 8.5, contentW-62, desc)
	if reason != "" {
		h += d.heightOf(fontRegular, 8.5, contentW-62, reason)
	}
	d.ensure(h)
	top := d.y
	d.font(fontBold, 10)
	d.color(ink)
	d.para(marginL, 58, d.pillarName(p.ID, p.Name))
	d.y = top
	x := marginL + 62
	if p.Score != nil {
		c := gradeColor(scoring.GradeFor(float64(*p.Score)).Grade)
		d.bar(x, d.y+0.8, 80, 3.2, float64(*p.Score), c)
		d.font(fontBold, 10)
		d.color(ink)
		d.text(x+84, d.y, d.int(*p.Score))
	} else {
		d.roundRect(x, d.y+0.8, 80, 3.2, 1.6, track)
		d.font(fontBold, 10)
		d.color(muted)
		d.text(x+84, d.y, d.clip(d.tr("pdf.not_measured"), contentW-62-84))
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
// reason they share, or that none applied, in the document's language; the
// findings it quotes stay as they were written.
func (d *doc) notMeasuredReason(list []api.CheckResult) string {
	if len(list) == 0 {
		return d.tr("pdf.pillar_no_checks")
	}
	first := list[0].Summary
	for _, c := range list[1:] {
		if c.Summary != first {
			return d.tr("pdf.pillar_none_applied")
		}
	}
	if strings.HasPrefix(first, "Not measured") {
		return first
	}
	return d.tr("pdf.pillar_not_measured", "Reason", first)
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
		why = d.checkText(c.ID, "why", c.WhyItMatters)
	}
	if c.Recommendation != nil && (c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn) {
		fix = d.checkText(c.ID, "fix", *c.Recommendation)
	}
	if d.eng {
		weight := d.num(c.Weight, decimalsOf(c.Weight))
		meta = d.tr("pdf.check_meta", "ID", c.ID, "Weight", weight, "Impact", d.word("level", string(c.Impact)), "Effort", d.word("level", string(c.Effort)))
		if c.ExpectedGain != nil {
			meta += " · " + d.tr("pdf.gain_alone", "Points", d.num(*c.ExpectedGain, 1))
		}
	}
	return found, why, fix, meta
}

// checkBlockHeight is the height checkBlock takes for c.
func (d *doc) checkBlockHeight(c api.CheckResult) float64 {
	w := contentW - checkIndent
	found, why, fix, meta := d.checkTexts(c)
	h := d.heightOf(fontBold, 10, w, d.checkText(c.ID, "title", c.Title)) + 3
	for i, s := range []string{found, why, fix} {
		if s != "" {
			label := []string{"html.found", "html.why", "html.fix"}[i]
			h += max(d.heightOf(fontRegular, 9, w, s), d.partLabelHeight(d.tr(label)))
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
	d.para(marginL+indent, w, d.checkText(c.ID, "title", c.Title))
	if meta != "" {
		d.font(fontMono, 7.5)
		d.color(muted)
		d.para(marginL+indent, w, meta)
	}
	for _, part := range []struct {
		label, text string
		c           rgb
	}{{d.tr("html.found"), found, ink}, {d.tr("html.why"), why, muted}, {d.tr("html.fix"), fix, ink}} {
		if part.text == "" {
			continue
		}
		d.font(fontRegular, 9)
		d.ensure(max(d.lineH(), d.partLabelHeight(part.label)))
		// A label longer than the column beside the text (in some
		// languages) wraps in it.
		top := d.y
		d.font(fontBold, 8)
		d.color(muted)
		for i, l := range d.wrap(part.label, indent-2) {
			d.text(marginL, top+0.3+float64(i)*d.lineH(), l)
		}
		d.font(fontRegular, 9)
		d.color(part.c)
		d.para(marginL+indent, w, part.text)
		d.y = max(d.y, top+d.partLabelHeight(part.label))
	}
	d.y += 3
}

// partLabelHeight is the height of a check block's part label ("Found",
// "Why it matters") wrapped in its column.
func (d *doc) partLabelHeight(label string) float64 {
	f, sz := d.family, d.size
	d.font(fontBold, 8)
	h := float64(len(d.wrap(label, checkIndent-2))) * d.lineH()
	d.font(f, sz)
	return h
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
	d.heading(d.tr("pdf.fetched"))
	f := d.r.Fetch
	d.font(fontRegular, 10)
	d.color(ink)
	analysed := d.tr("pdf.fetched_home")
	if f.Pages > 1 {
		analysed = d.count("pdf.fetched_more", f.Pages-1)
	}
	d.para(marginL, contentW, d.tr("pdf.fetched_intro", "Author", d.author(), "Requests", d.count("pdf.requests", len(f.Fetches)),
		"Seconds", d.num(float64(f.DurationMs)/1000, 1), "Bytes", d.bytes(f.Bytes), "Pages", capitalise(d.count("pdf.pages", f.Pages)),
		"Analysed", analysed))
	d.font(fontRegular, 8.5)
	d.color(muted)
	d.para(marginL, contentW, d.tr("pdf.fetched_dash"))
	d.y += 3

	cols := []struct {
		title string
		w     float64
	}{{d.tr("pdf.col.address"), 78}, {d.tr("pdf.col.purpose"), 50}, {d.tr("pdf.col.status"), 14}, {d.tr("pdf.col.size"), 18}, {d.tr("pdf.col.time"), 14}}
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
			d.text(x, d.y, d.clip(c.title, c.w-1))
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
			errLines = d.wrap(d.tr("pdf.fetch_error", "Error", *rec.Error), cols[0].w-2)
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
			size = d.bytes(rec.Bytes)
		}
		d.text(x, d.y, d.clip(size, cols[3].w-2))
		x += cols[3].w
		elapsed := d.int(rec.DurationMs) + " ms"
		if rec.DurationMs >= 10_000 {
			elapsed = d.num(float64(rec.DurationMs)/1000, 0) + " s"
		}
		d.text(x, d.y, d.clip(elapsed, cols[4].w))
		d.y += h
		d.stroke(track, 0.15)
		d.pdf.Line(marginL, d.y-0.5, marginL+contentW, d.y-0.5)
	}
}

// purpose names why a URL was fetched: the raw purpose in the engineering
// edition, words in the marketing one.
func (d *doc) purpose(p string) string {
	if d.eng {
		return p
	}
	kind, agent, _ := strings.Cut(p, ":")
	if label, ok := purposeLabels[kind]; ok {
		label = d.known("pdf.purpose."+kind, label)
		switch {
		case agent == "Browser":
			return d.tr("pdf.purpose_browser", "Purpose", label)
		case agent != "":
			return d.tr("pdf.purpose_agent", "Purpose", label, "Agent", agent)
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

// bytes is a size in B, KiB or MiB, in the document's language.
func (d *doc) bytes(n int) string {
	switch {
	case n >= 1<<20:
		return d.num(float64(n)/(1<<20), 1) + " MiB"
	case n >= 1<<10:
		return d.num(float64(n)/(1<<10), 1) + " KiB"
	}
	return d.int(n) + " B"
}
