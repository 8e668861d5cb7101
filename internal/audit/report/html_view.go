package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
)

// The HTML report's view: every text and number the template shows,
// worked out here in the PDF's words and order (the PDF's helpers say the
// same things in both), so the template only places them.

type view struct {
	Lang string
	// W writes the page's own words in its language.
	W       words
	Title   string
	Head    brandHead
	Foot    brandFoot
	Edition string
	Eng     bool

	Site      string
	SiteURL   link
	Scanned   string
	Rubric    string
	Overall   string
	Grade     string
	GradeText string
	GradeInk  string
	Gauge     gauge
	Rings     []ringCard
	HowToRead string
	Counts    string

	Executive string
	Scores    []scoreBar
	Critical  []string
	Actions   []actionView
	NoActions bool
	Strengths string

	Across    *acrossView
	Rendering *renderingView
	Agent     *agentView
	Crawlers  *crawlerView
	Bench     *benchView
	Triage    *triageView
	Sections  []ringSection
	Fixes     []fixView
	FixIntro  string
	Trend     *trendView
	Caveats   []string
	Fetched   string
	Expires   string
}

// link is a URL of the scanned site: shown as text always, linked only
// when it is http or https.
type link struct {
	Text string
	Href string
}

func linkOf(s string) link {
	l := link{Text: s}
	if u, err := url.Parse(strings.TrimSpace(s)); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		l.Href = u.String()
	}
	return l
}

// gauge is a ring gauge: a circle of circumference 100 whose coloured arc
// is the score long.
type gauge struct {
	Dash string
	Ink  string
}

func gaugeOf(score float64, grade string) gauge {
	score = math.Max(0, math.Min(100, score))
	return gauge{Dash: fmt.Sprintf("%.1f %.1f", score, 100-score), Ink: gradeInk(grade)}
}

type ringCard struct {
	Name, Score, Grade, Descriptor, Capped string
	Gauge                                  gauge
}

// scoreBar is a labelled bar: a score out of 100, or not measured.
type scoreBar struct {
	Name, Text, Grade, Width, Ink string
	Measured                      bool
	Description, Reason           string
}

func barOf(name string, score float64, text, grade string) scoreBar {
	score = math.Max(0, math.Min(100, score))
	return scoreBar{Name: name, Text: text, Grade: grade, Width: fmt.Sprintf("%.1f%%", score), Ink: gradeInk(grade), Measured: true}
}

type actionView struct {
	N                int
	Label, Fix, Tags string
	QuickWin         bool
	// Quick is the quick-win mark in the page's language.
	Quick string
}

type acrossView struct {
	Coverage   string
	Trend      string
	TrendItems []trendItem
	Issues     []issueView
	Worst      []worstView
}

type trendItem struct{ Change, Text string }

type issueView struct {
	Text     string
	Examples []link
}

type worstView struct {
	Score, Group string
	URL          link
}

type renderingView struct {
	Intro string
	Pages []renderedView
}

type renderedView struct {
	URL      link
	Group    string
	Reason   string
	Rows     []compareRow
	Summary  string
	Alarming bool
}

type compareRow struct {
	Name, Raw, Rendered string
	Differs             bool
}

type triageView struct {
	Summary   string
	Platform  [][2]string
	Lenses    []lensView
	Ranked    string
	Actions   []actionView
	More      string
	Caveats   []string
	Available bool
}

type lensView struct {
	Label, Bucket string
	Level         int
	Steps         []lensStep
}

type lensStep struct {
	X  string
	On bool
}

type ringSection struct {
	ID, Name, Score, Grade, Descriptor, Summary string
	Pillars                                     []scoreBar
	Groups                                      []pillarGroup
}

type pillarGroup struct {
	Name, Score string
	Checks      []checkView
}

type checkView struct {
	Title, ID, Status, StatusClass, Meta string
	Found, Why, Fix                      string
	Evidence                             [][2]string
	// check is the check's id in either edition, for its translation.
	check string
}

type fixView struct {
	Title, Status, StatusClass, Summary string
	Steps                               []string
}

type trendView struct {
	Label  string
	Lines  []trendLine
	XTicks []tick
	Rows   []trendRow
}

type trendLine struct {
	Name, Points, Ink, Dash string
}

type tick struct {
	X, Text string
}

type trendRow struct {
	At                                 string
	Overall, Search, Visibility, Trust int
}

func buildView(in HTMLInput) view {
	r := in.Report
	// The doc writes the page's own sentences in its language, with the
	// PDF's words (pdf_i18n.go).
	w := i18n.For(lang(in.Language))
	d := &doc{r: r, t: in.Triage, eng: r.Audience == api.ReportAudienceEngineering, w: w}
	v := view{
		Lang: lang(in.Language), Head: headOf(in.Brand), Foot: footOf(in.Brand), Eng: d.eng,
		Edition: d.edition(), Site: d.brand(), SiteURL: linkOf(r.URL),
		Scanned: r.GeneratedAt.UTC().Format("2 January 2006, 15:04 UTC"), Rubric: r.ScoringVersion,
		Overall: fmt.Sprintf("%.1f", r.OverallScore), Grade: string(r.OverallGrade), GradeText: r.GradeDescriptor,
		GradeInk: gradeInk(string(r.OverallGrade)), Gauge: gaugeOf(r.OverallScore, string(r.OverallGrade)),
		Executive: r.Summaries.Executive,
	}
	v.Title = "GEO audit report: " + v.Site
	if !in.Expires.IsZero() {
		v.Expires = in.Expires.UTC().Format("2 January 2006, 15:04 UTC")
	}
	v.W, v.Lang = w, w.Lang()
	if w.Lang() != i18n.English {
		v.Scanned = w.Date(r.GeneratedAt) + ", " + r.GeneratedAt.UTC().Format("15:04 UTC")
		if !in.Expires.IsZero() {
			v.Expires = w.Date(in.Expires) + ", " + in.Expires.UTC().Format("15:04 UTC")
		}
	}
	if v.Expires != "" {
		v.Expires = w.Tf("html.expires", "Date", v.Expires)
	}
	v.Scores = append(v.Scores, barOf("Overall", r.OverallScore, v.Overall, string(r.OverallGrade)))
	for _, ring := range d.rings() {
		card := ringCard{
			Name: ringName(ring.Ring), Score: fmt.Sprint(ring.Score), Grade: string(ring.Grade),
			Descriptor: ring.GradeDescriptor, Gauge: gaugeOf(float64(ring.Score), string(ring.Grade)),
		}
		if ring.CappedBy != nil {
			card.Capped = d.tr("pdf.held_down")
			if g := d.gate(*ring.CappedBy, ring.Ring); g != nil {
				card.Capped = d.tr("pdf.held_at", "Cap", d.int(g.Cap))
			}
		}
		v.Rings = append(v.Rings, card)
		v.Scores = append(v.Scores, barOf(card.Name, float64(ring.Score), card.Score, card.Grade))
		v.Sections = append(v.Sections, d.ringView(ring))
	}
	v.HowToRead, v.Counts = d.readingGuide()
	v.Critical = d.criticalIssues()
	for i, a := range d.priorities(5) {
		v.Actions = append(v.Actions, d.actionView(i+1, a))
	}
	v.NoActions = len(v.Actions) == 0
	if s := d.strengths(8); len(s) > 0 {
		v.Strengths = strings.Join(s, " · ") + "."
	}
	v.Across = d.acrossView()
	v.Rendering = d.renderingView()
	v.Agent = agentViewOf(cmp.Or(in.AgentReadiness, agentReadinessOf(r)), d.eng)
	v.Crawlers = d.crawlerView()
	v.Bench = d.benchViewOf()
	v.Triage = d.triageView()
	v.Fixes, v.FixIntro = d.fixViews()
	v.Trend = trendOf(in.History)
	if r.Caveats != nil {
		v.Caveats = slices.Clone(*r.Caveats)
	}
	f := r.Fetch
	v.Fetched = d.tr("pdf.fetched_line", "Author", "GeoScan", "Requests", d.count("pdf.requests", len(f.Fetches)),
		"Seconds", d.num(float64(f.DurationMs)/1000, 1), "Bytes", d.bytes(f.Bytes), "Pages", d.count("pdf.pages", f.Pages))
	if in.Brand.HideGeoScan {
		if d.eng && v.FixIntro != "" {
			v.FixIntro = fmt.Sprintf("Written for %s from what the scan saw. The whole files are in the API (each check result's fix.artifact).", d.brand())
		}
		unbrand(&v, strings.TrimSpace(in.Brand.Name))
	}
	localize(&v, w)
	return v
}

func (d *doc) actionView(n int, a priority) actionView {
	tags := d.tr("pdf.impact_effort", "Impact", d.word("level", a.impact), "Effort", d.word("level", a.effort))
	if g := a.gainTag(); g != "" {
		tags += " · " + g
	}
	if d.eng && a.checkID != "" {
		tags += " · " + a.checkID
	}
	return actionView{N: n, Label: a.label, Fix: a.fix, Tags: tags, QuickWin: a.quickWin}
}

func (d *doc) acrossView() *acrossView {
	s := d.r.Site
	if s == nil {
		return nil
	}
	sample, _, _ := strings.Cut(s.Sample, "\n")
	v := &acrossView{Coverage: strings.TrimSpace(fmt.Sprintf("%d pages audited of %d known (page budget %d); the crawl ended: %s. %s",
		s.PagesAudited, s.PagesKnown, s.PagesPlanned, strings.ReplaceAll(s.Stop, "_", " "), sample))}
	if t := s.Trend; t != nil {
		v.Trend = trendSentence(t)
		for _, is := range t.Issues {
			var item trendItem
			counts := fmt.Sprintf("fails or warns on %s (%d then).", plural(is.PagesAffectedNow, "page", "pages"), is.PagesAffectedThen)
			switch is.Change {
			case api.SiteIssueNew:
				item = trendItem{"New", d.checkName(is.CheckID) + " " + counts}
			case api.SiteIssueResolved:
				item = trendItem{"Resolved", d.checkName(is.CheckID) + " " + counts}
			default:
				item = trendItem{"Still there", d.checkName(is.CheckID) + " " + counts}
			}
			v.TrendItems = append(v.TrendItems, item)
		}
	}
	if d.r.CrossCuttingIssues != nil {
		for _, is := range *d.r.CrossCuttingIssues {
			line := fmt.Sprintf("%s: fails or warns on %d of %d pages (%.0f %%)", d.checkName(is.CheckID),
				is.PagesAffected, is.PagesAudited, 100*float64(is.PagesAffected)/float64(max(is.PagesAudited, 1)))
			if len(is.Groups) > 0 {
				line += "; templates " + strings.Join(is.Groups[:min(len(is.Groups), 3)], ", ")
				if len(is.Groups) > 3 {
					line += fmt.Sprintf(" and %d more", len(is.Groups)-3)
				}
			}
			if is.ExpectedGain > 0 {
				line += fmt.Sprintf("; fixed everywhere it would add %.1f points to the site's score", is.ExpectedGain)
			}
			iv := issueView{Text: line + "."}
			for _, u := range is.ExampleUrls[:min(len(is.ExampleUrls), 3)] {
				iv.Examples = append(iv.Examples, linkOf(u))
			}
			v.Issues = append(v.Issues, iv)
		}
	}
	if d.r.WorstPages != nil {
		for _, p := range *d.r.WorstPages {
			v.Worst = append(v.Worst, worstView{Score: fmt.Sprintf("%.1f", p.Score), Group: p.Group, URL: linkOf(p.URL)})
		}
	}
	return v
}

func (d *doc) renderingView() *renderingView {
	rn := d.r.Rendering
	if rn == nil || rn.Mode == api.RenderModeOff || len(rn.Pages) == 0 {
		return nil
	}
	v := &renderingView{Intro: "AI crawlers read a page's HTML as the server sends it and run no JavaScript; people see it in a browser after scripts ran. " +
		fmt.Sprintf("GeoScan loaded %s in a browser and compared the two.", plural(len(rn.Pages), "page", "pages"))}
	if rn.UnsampledPages > 0 {
		v.Intro += fmt.Sprintf(" The other %s of the site were judged from their HTML alone.", plural(rn.UnsampledPages, "page", "pages"))
	}
	for _, p := range rn.Pages {
		pv := renderedView{URL: linkOf(p.URL), Group: deref(p.Group)}
		c := p.Comparison
		if !p.Rendered || c == nil {
			pv.Reason = "Not rendered: " + strings.TrimSuffix(p.Reason, ".") + ". What JavaScript adds to this page was not measured."
			v.Pages = append(v.Pages, pv)
			continue
		}
		jsonld := fmt.Sprint(c.RenderedJsonldBlocks)
		if len(c.JsonldOnlyRendered) > 0 {
			jsonld += " (" + strings.Join(c.JsonldOnlyRendered[:min(len(c.JsonldOnlyRendered), 4)], ", ") + " only here)"
		}
		num := func(n int) string { return fmt.Sprint(n) }
		pv.Rows = []compareRow{
			{"Words of main text", num(c.RawWords), fmt.Sprintf("%d (%d only here)", c.RenderedWords, c.WordsOnlyRendered), c.WordsOnlyRendered > 0 || c.RawWords != c.RenderedWords},
			{"Headings", num(c.RawHeadings), num(c.RenderedHeadings), c.RawHeadings != c.RenderedHeadings},
			{"Internal links", num(c.RawInternalLinks), num(c.RenderedInternalLinks), c.RawInternalLinks != c.RenderedInternalLinks},
			{"Navigation links", num(c.RawNavLinks), num(c.RenderedNavLinks), c.RawNavLinks != c.RenderedNavLinks},
			{"Images with alt text", num(c.RawImagesWithAlt), num(c.RenderedImagesWithAlt), c.RawImagesWithAlt != c.RenderedImagesWithAlt},
			{"JSON-LD blocks", num(c.RawJsonldBlocks), jsonld, c.RawJsonldBlocks != c.RenderedJsonldBlocks || len(c.JsonldOnlyRendered) > 0},
			{"Title", dash(c.RawTitle), dash(c.RenderedTitle), c.RawTitle != c.RenderedTitle},
			{"Meta description", dash(c.RawDescription), dash(c.RenderedDescription), c.RawDescription != c.RenderedDescription},
			{"Canonical", dash(c.RawCanonical), dash(c.RenderedCanonical), c.RawCanonical != c.RenderedCanonical},
			{"Meta robots", dash(c.RawRobots), dash(c.RenderedRobots), c.RawRobots != c.RenderedRobots},
		}
		pv.Summary = p.Summary
		pv.Alarming = c.TextNeedsJavascript || c.CanonicalChanged || c.RobotsChanged || len(c.JsonldOnlyRendered) > 0
		v.Pages = append(v.Pages, pv)
	}
	return v
}

func (d *doc) triageView() *triageView {
	t := d.t
	if t == nil {
		return &triageView{Summary: d.tr("pdf.triage_pending_page")}
	}
	v := &triageView{Available: true, Summary: t.SummaryParagraph, Caveats: slices.Clone(t.Caveats)}
	p := t.Platform
	v.Platform = [][2]string{
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
		v.Platform = append(v.Platform, [2]string{d.tr("pdf.platform.technologies"), strings.Join(tech, "; ")})
	}
	levels := []string{"low", "moderate", "high", "critical"}
	for _, l := range t.RiskLenses {
		idx := 0
		for i, lv := range levels {
			if string(l.Bucket) == lv {
				idx = i
			}
		}
		lv := lensView{Label: d.known("pdf.lens."+string(l.LensID), l.Label), Bucket: d.word("risk", string(l.Bucket)), Level: idx + 1}
		measured := l.Bucket != api.TriageRiskLensBucketNotMeasured
		if !measured {
			// No check of the lens was scored: no step is lit.
			lv.Bucket, lv.Level = d.tr("pdf.not_measured"), 0
		}
		for i := range levels {
			lv.Steps = append(lv.Steps, lensStep{X: fmt.Sprint(i * 26), On: measured && i <= idx})
		}
		v.Lenses = append(v.Lenses, lv)
	}
	v.Ranked = d.tr("pdf.ranked")
	switch {
	case t.ActionCount == 0:
		v.Ranked = d.tr("html.nothing_to_fix")
	case t.QuickWinCount == 0:
		v.Ranked += " " + d.tr("pdf.no_quick_wins", "Actions", d.count("pdf.actions", t.ActionCount))
	default:
		v.Ranked += " " + d.tr("pdf.quick_wins", "Wins", d.int(t.QuickWinCount), "Actions", d.count("pdf.actions", t.ActionCount))
	}
	const shown = 12
	actions := d.priorities(0)
	for i, a := range actions[:min(len(actions), shown)] {
		v.Actions = append(v.Actions, d.actionView(i+1, a))
	}
	if rest := len(actions) - shown; rest > 0 {
		var wins []string
		for _, a := range actions[shown:] {
			if a.quickWin {
				wins = append(wins, quoted(a.label))
			}
		}
		v.More = d.count("pdf.more_follow", rest)
		if len(wins) > 0 {
			v.More += " " + d.tr("pdf.more_quick_wins", "Wins", d.and(wins))
		}
	}
	return v
}

func (d *doc) ringView(ring api.RingResult) ringSection {
	s := ringSection{
		ID: "ring-" + string(ring.Ring), Name: ringName(ring.Ring), Score: fmt.Sprint(ring.Score), Grade: string(ring.Grade),
		Descriptor: ring.GradeDescriptor, Summary: ringSummary(d.r.Summaries, ring.Ring),
	}
	checksBy := map[string][]api.CheckResult{}
	for _, c := range d.r.Checks {
		if c.Ring == ring.Ring {
			checksBy[c.Pillar] = append(checksBy[c.Pillar], c)
		}
	}
	for _, p := range ring.Pillars {
		desc := d.pillarText(p.ID, p.Description)
		if d.eng {
			desc += " " + d.tr("pdf.pillar_weight", "Weight", d.num(p.Weight*100, 0), "Coverage", d.num(p.Coverage*100, 0))
		}
		name := d.pillarName(p.ID, p.Name)
		var bar scoreBar
		if p.Score != nil {
			g := scoring.GradeFor(float64(*p.Score)).Grade
			bar = barOf(name, float64(*p.Score), fmt.Sprint(*p.Score), g)
		} else {
			bar = scoreBar{Name: name, Text: d.tr("pdf.not_measured"), Reason: d.notMeasuredReason(checksBy[p.ID])}
		}
		bar.Description = desc
		s.Pillars = append(s.Pillars, bar)

		list := append([]api.CheckResult(nil), checksBy[p.ID]...)
		if len(list) == 0 {
			continue
		}
		sort.SliceStable(list, func(i, j int) bool { return statusOrder[list[i].Status] < statusOrder[list[j].Status] })
		g := pillarGroup{Name: name, Score: d.tr("pdf.not_measured")}
		if p.Score != nil {
			g.Score = d.tr("pdf.out_of_100", "Score", d.int(*p.Score))
		}
		for _, c := range list {
			g.Checks = append(g.Checks, d.checkView(c))
		}
		s.Groups = append(s.Groups, g)
	}
	return s
}

func (d *doc) checkView(c api.CheckResult) checkView {
	v := checkView{check: c.ID, Title: c.Title, Status: statusLabel(c.Status, d.eng), StatusClass: statusClass(c.Status), Found: c.Summary}
	if c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn || c.Status == api.CheckStatusPass {
		v.Why = c.WhyItMatters
	}
	if c.Recommendation != nil && (c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn) {
		v.Fix = *c.Recommendation
	}
	if d.eng {
		v.ID = c.ID
		v.Meta = fmt.Sprintf("%s · weight %g · impact %s · effort %s", c.ID, c.Weight, c.Impact, c.Effort)
		if c.ExpectedGain != nil {
			v.Meta += fmt.Sprintf(" · gain alone +%.1f", *c.ExpectedGain)
		}
	}
	v.Evidence = evidenceRows(c.Evidence, d.eng)
	return v
}

// maxEvidence is how many facts of a check's evidence the page shows, and
// maxEvidenceText how long one may be.
const (
	maxEvidence     = 8
	maxEvidenceText = 240
)

// evidenceRows are a check's key facts, by name: in the marketing edition
// the names are said in words instead of as the evidence's keys.
func evidenceRows(ev map[string]any, eng bool) [][2]string {
	keys := make([]string, 0, len(ev))
	for k := range ev {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rows [][2]string
	for _, k := range keys {
		if len(rows) == maxEvidence {
			break
		}
		name := k
		if !eng {
			name = capitalise(strings.ReplaceAll(k, "_", " "))
		}
		rows = append(rows, [2]string{name, evidenceText(ev[k])})
	}
	return rows
}

func evidenceText(v any) string {
	var s string
	switch x := v.(type) {
	case nil:
		s = "none"
	case string:
		s = dash(x)
	case bool, float64, int:
		s = fmt.Sprint(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			s = fmt.Sprint(x)
		} else {
			s = string(b)
		}
	}
	if rs := []rune(s); len(rs) > maxEvidenceText {
		s = string(rs[:maxEvidenceText]) + "…"
	}
	return s
}

func (d *doc) fixViews() ([]fixView, string) {
	var out []fixView
	for _, c := range d.r.Checks {
		if c.Fix == nil || (c.Status != api.CheckStatusFail && c.Status != api.CheckStatusWarn) {
			continue
		}
		fv := fixView{Title: c.Title, Status: statusLabel(c.Status, d.eng), StatusClass: statusClass(c.Status), Summary: c.Fix.Summary}
		fv.Steps = append(fv.Steps, c.Fix.PlatformSteps...)
		out = append(out, fv)
	}
	if len(out) == 0 {
		return nil, ""
	}
	intro := fmt.Sprintf("What to change on %s, written from what the scan saw. The files for your web team are in the engineering edition of this report.", d.brand())
	if d.eng {
		intro = fmt.Sprintf("Written for %s from what the scan saw. The whole files are in the API (each check result's fix.artifact) and are saved by geoscan scan fixes %s.", d.brand(), d.r.ScanID)
	}
	return out, intro
}

// The trend chart's drawing box, in SVG user units.
const (
	trendW, trendH         = 600.0, 220.0
	trendLeft, trendRight  = 36.0, 12.0
	trendTop, trendBottom  = 12.0, 28.0
	trendPlotW, trendPlotH = trendW - trendLeft - trendRight, trendH - trendTop - trendBottom
)

// trendOf draws the overall and ring scores of the scans in History, one
// line each; with fewer than two scans there is no trend.
func trendOf(h []HistoryPoint) *trendView {
	if len(h) < 2 {
		return nil
	}
	x := func(i int) float64 { return trendLeft + trendPlotW*float64(i)/float64(len(h)-1) }
	y := func(s int) float64 { return trendTop + trendPlotH*(1-float64(max(0, min(100, s)))/100) }
	series := []struct {
		name, ink, dash string
		of              func(HistoryPoint) int
	}{
		{"Overall", "#212529", "", func(p HistoryPoint) int { return p.Overall }},
		{"Search", "#0b5ed7", "6 3", func(p HistoryPoint) int { return p.Search }},
		{"AI visibility", "#146c43", "2 3", func(p HistoryPoint) int { return p.Visibility }},
		{"AI trust", "#a52834", "8 3 2 3", func(p HistoryPoint) int { return p.Trust }},
	}
	v := &trendView{}
	for _, s := range series {
		pts := make([]string, len(h))
		for i, p := range h {
			pts[i] = fmt.Sprintf("%.1f,%.1f", x(i), y(s.of(p)))
		}
		v.Lines = append(v.Lines, trendLine{Name: s.name, Points: strings.Join(pts, " "), Ink: s.ink, Dash: s.dash})
	}
	first, last := h[0], h[len(h)-1]
	v.Label = fmt.Sprintf("Scores of %s from %s to %s: overall %d then, %d now; Search %d to %d; AI visibility %d to %d; AI trust %d to %d.",
		plural(len(h), "scan", "scans"), day(first.At), day(last.At), first.Overall, last.Overall,
		first.Search, last.Search, first.Visibility, last.Visibility, first.Trust, last.Trust)
	v.XTicks = []tick{{X: fmt.Sprintf("%.1f", x(0)), Text: day(first.At)}, {X: fmt.Sprintf("%.1f", x(len(h)-1)), Text: day(last.At)}}
	for _, p := range h {
		v.Rows = append(v.Rows, trendRow{At: day(p.At), Overall: p.Overall, Search: p.Search, Visibility: p.Visibility, Trust: p.Trust})
	}
	return v
}

func day(t time.Time) string { return t.UTC().Format("2 Jan 2006") }

// statusClass names a status for the stylesheet.
func statusClass(s api.CheckStatus) string {
	switch s {
	case api.CheckStatusPass, api.CheckStatusWarn, api.CheckStatusFail, api.CheckStatusInfo:
		return "st-" + string(s)
	}
	return "st-na"
}

// gradeInk is a grade's colour in the page's graphics: the PDF's hues,
// darkened where needed to stand 3:1 against white.
func gradeInk(g string) string {
	switch g {
	case "A+", "A":
		return "#198754"
	case "B":
		return "#13795b"
	case "C":
		return "#996300"
	case "D":
		return "#b35600"
	}
	return "#b02a37"
}

var geoScanName = regexp.MustCompile(`\bGeoScan('s)?\b`)

// unbrand rewrites, in place, every text of the view that names GeoScan
// (the stored report's and dossier's sentences do, as the one who fetched
// and judged) to name the brand instead, or "the auditor". The view's
// slices are its own, so the caller's report is left as it was.
func unbrand(v *view, name string) {
	replace := func(s string) string {
		var b strings.Builder
		last := 0
		for _, m := range geoScanName.FindAllStringSubmatchIndex(s, -1) {
			b.WriteString(s[last:m[0]])
			switch {
			case name != "":
				b.WriteString(name)
			case m[0] == 0 || strings.HasSuffix(strings.TrimRight(s[:m[0]], " "), "."):
				b.WriteString("The auditor")
			default:
				b.WriteString("the auditor")
			}
			if m[2] >= 0 {
				b.WriteString("'s")
			}
			last = m[1]
		}
		b.WriteString(s[last:])
		return b.String()
	}
	str := reflect.TypeFor[string]()
	var walk func(rv reflect.Value)
	walk = func(rv reflect.Value) {
		switch rv.Kind() {
		case reflect.Pointer:
			if !rv.IsNil() {
				walk(rv.Elem())
			}
		case reflect.Struct:
			for i := range rv.NumField() {
				walk(rv.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range rv.Len() {
				walk(rv.Index(i))
			}
		case reflect.String:
			if rv.Type() == str && rv.CanSet() {
				rv.SetString(replace(rv.String()))
			}
		}
	}
	walk(reflect.ValueOf(v))
}
