package report

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// benchView is the competitor benchmark as both renderings show it, in
// the document's words: the PDF draws it (pdf_competitors.go) and the
// HTML page's template lays it out, so the two say the same. Brands,
// hosts, domains and reasons are data from the sites and the answers:
// the PDF draws them as text and the template escapes them.
type benchView struct {
	Intro string
	// Cols head the rings table: the site, overall, the three rings and
	// the pages audited.
	Cols []string
	Rows []benchRow
	SOV  *sovView
}

// benchRow is one site of the rings table. Cells are the scores and the
// pages; a competitor that could not be audited has none, and Failed
// says why.
type benchRow struct {
	Site, Host string
	You        bool
	Cells      []string
	Failed     string
}

// sovView is the share of voice: not measured and why, or the brands'
// table, the sources by kind and the domains citing competitors only.
type sovView struct {
	NotMeasured string
	Intro       string
	Cols        []string
	Rows        []sovRow
	SmallNote   string
	// Sources: NoSources when they were not measured; else the intro and
	// the groups, or Empty when no answer naming a brand cited one.
	NoSources    string
	SourcesIntro string
	Sources      []sourceGroup
	Empty        string
	// Citing: the domains cited for competitors and never for the site,
	// or CitingNone; shown only when the sources were measured.
	CitingIntro string
	Citing      []string
	CitingNone  string
}

// sovRow is one brand's share, or under it (Engine) one engine's.
type sovRow struct {
	Label       string
	You, Engine bool
	Cells       []string
}

// sourceGroup is the cited domains of one kind, the most cited first.
type sourceGroup struct {
	Label, Items string
}

// sourceKinds are the kinds of cited sites, in the order shown.
var sourceKinds = []api.ShareOfVoiceSourcesCategory{
	api.SourceOwnSite, api.SourceCompetitor, api.SourceMarketplace, api.SourceEditorial, api.SourceReview, api.SourceOther,
}

// maxSourcesShown bounds the domains listed of one kind.
const maxSourcesShown = 8

// benchViewOf is the benchmark of d's report; nil when the scan named no
// competitor.
func (d *doc) benchViewOf() *benchView {
	if d.r.Competitors == nil || len(*d.r.Competitors) == 0 {
		return nil
	}
	v := &benchView{Intro: d.tr("html.bench_intro"), Cols: []string{
		d.tr("html.col_site"), d.tr("html.col_overall"), d.tr("html.ring.search"), d.tr("html.ring.visibility"),
		d.tr("html.ring.trust"), d.tr("html.col_pages"),
	}}
	you := benchRow{Site: d.tr("html.you", "Brand", d.brand()), Host: hostOf(d.r.URL), You: true}
	pages := d.r.Fetch.Pages
	if d.r.Site != nil {
		pages = d.r.Site.PagesAudited
	}
	if s, ok := baseline(d.r); ok {
		ring := func(r scoring.Ring) string { return d.ringCell(s.Ring(r).Score, s.Ring(r).Grade.Grade) }
		you.Cells = []string{
			d.scoreCell(s.Overall, s.OverallGrade.Grade), ring(scoring.RingSearch), ring(scoring.RingVisibility), ring(scoring.RingTrust), d.int(pages),
		}
	} else {
		v.Intro = d.tr("html.bench_intro_own")
		you.Cells = []string{
			d.scoreCell(d.r.OverallScore, string(d.r.OverallGrade)), d.ringCell(d.r.Rings.Search.Score, string(d.r.Rings.Search.Grade)),
			d.ringCell(d.r.Rings.Visibility.Score, string(d.r.Rings.Visibility.Grade)), d.ringCell(d.r.Rings.Trust.Score, string(d.r.Rings.Trust.Grade)),
			d.int(pages),
		}
	}
	v.Rows = append(v.Rows, you)
	for _, c := range *d.r.Competitors {
		row := benchRow{Site: oneLine(c.Brand), Host: c.Host}
		switch {
		case c.Status == api.CompetitorAudited && c.Rings != nil && c.OverallScore != nil && c.OverallGrade != nil:
			row.Cells = []string{
				d.scoreCell(*c.OverallScore, string(*c.OverallGrade)), d.ringCell(c.Rings.Search.Score, string(c.Rings.Search.Grade)),
				d.ringCell(c.Rings.Visibility.Score, string(c.Rings.Visibility.Grade)), d.ringCell(c.Rings.Trust.Score, string(c.Rings.Trust.Grade)),
				d.int(c.PagesAudited),
			}
		default:
			reason := ""
			if c.Reason != nil {
				reason = oneLine(*c.Reason)
			}
			row.Failed = d.tr("html.not_audited", "Reason", strings.TrimSuffix(reason, "."))
		}
		v.Rows = append(v.Rows, row)
	}
	v.SOV = d.sovViewOf(d.r.ShareOfVoice)
	return v
}

// scoreCell is an overall score, to one decimal, and its grade.
func (d *doc) scoreCell(score float64, grade string) string { return d.num(score, 1) + " · " + grade }

// ringCell is a ring's score and grade.
func (d *doc) ringCell(score int, grade string) string { return d.int(score) + " · " + grade }

// sovViewOf is the share of voice as shown; nil without one.
func (d *doc) sovViewOf(s *api.ShareOfVoice) *sovView {
	if s == nil {
		return nil
	}
	v := &sovView{}
	if s.Status != api.ShareOfVoiceMeasured {
		reason := ""
		if s.Reason != nil {
			reason = strings.TrimSuffix(oneLine(*s.Reason), ".")
		}
		v.NotMeasured = d.tr("html.sov_not_measured", "Reason", reason)
		return v
	}
	set := ""
	if s.PromptSet != nil {
		set = *s.PromptSet
	}
	v.Intro = d.tr("html.sov_intro", "Set", set)
	v.Cols = []string{d.tr("html.col_brand"), d.tr("html.col_named"), d.tr("html.col_rate"), d.tr("html.col_interval"), d.tr("html.col_position")}
	small := s.SmallSample != nil && *s.SmallSample
	for _, b := range s.Brands {
		label := oneLine(b.Brand)
		if b.You {
			label = d.tr("html.you", "Brand", label)
		}
		v.Rows = append(v.Rows, sovRow{Label: label, You: b.You, Cells: d.shareCells(b.K, b.N, b.Rate, b.Interval, b.MeanPosition, b.SmallSample)})
		small = small || b.SmallSample
		if !d.eng || len(b.Engines) < 2 {
			continue
		}
		for _, e := range b.Engines {
			v.Rows = append(v.Rows, sovRow{Label: oneLine(e.Engine), You: b.You, Engine: true, Cells: d.shareCells(e.K, e.N, e.Rate, e.Interval, e.MeanPosition, e.SmallSample)})
			small = small || e.SmallSample
		}
	}
	if small {
		v.SmallNote = d.tr("html.sov_small", "N", d.int(mentions.MinDecisiveRuns))
	}

	if s.CitingCompetitorsNotYou == nil {
		v.NoSources = d.tr("html.sov_sources_none")
		return v
	}
	v.SourcesIntro = d.tr("html.sov_sources_intro")
	for _, kind := range sourceKinds {
		var items []string
		for _, src := range s.Sources {
			if src.Category == kind && len(items) < maxSourcesShown {
				items = append(items, fmt.Sprintf("%s (%s)", oneLine(src.Domain), d.int(src.Citations)))
			}
		}
		if len(items) > 0 {
			v.Sources = append(v.Sources, sourceGroup{Label: d.tr("html.source." + string(kind)), Items: strings.Join(items, ", ")})
		}
	}
	if len(v.Sources) == 0 {
		v.Empty = d.tr("html.sov_sources_empty")
	}
	v.CitingIntro = d.tr("html.citing_not_you_intro")
	for _, dom := range *s.CitingCompetitorsNotYou {
		v.Citing = append(v.Citing, oneLine(dom))
	}
	if len(v.Citing) == 0 {
		v.CitingNone = d.tr("html.citing_not_you_none")
	}
	return v
}

// shareCells are a share's cells: k of n (and small sample), the rate,
// the interval and the mean position; a dash for what n = 0 leaves
// unknown.
func (d *doc) shareCells(k, n int, rate *float64, in *api.ConfidenceInterval, pos *float64, small bool) []string {
	named := d.tr("html.k_of_n", "K", d.int(k), "N", d.int(n))
	switch {
	case n == 0:
		named = d.tr("html.no_answer_read")
	case small:
		named += " (" + d.tr("html.small_sample") + ")"
	}
	cells := []string{named, "–", "–", "–"}
	if rate != nil {
		cells[1] = d.tr("html.percent", "N", d.num(100**rate, 0))
	}
	if in != nil {
		cells[2] = d.tr("html.interval", "Low", d.num(100*in.Low, 0), "High", d.num(100*in.High, 0))
	}
	if pos != nil {
		cells[3] = d.num(*pos, 1)
	}
	return cells
}

// oneLine is s on one line, its runs of white space one space: text from
// sites and answers drawn in a table cell.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// hostOf is the host name of a URL, or the URL when it has none.
func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return raw
}
