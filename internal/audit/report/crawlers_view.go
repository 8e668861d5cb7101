package report

import (
	"fmt"
	"strings"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// crawlerView is the report's section on the site's latest access log
// (crawler_activity), in the words the PDF draws and the HTML page shows:
// the crawlers seen, verified or only claimed, the refusals robots.txt did
// not intend and the pages no AI search crawler asked for. Paths and
// tokens come from the log: the PDF draws them as plain text, never as
// Markdown, and the page's template escapes them.
type crawlerView struct {
	Title, Intro, Claims string
	// Columns head the table; None replaces it when no crawler was seen.
	Columns []string
	Rows    []crawlerRow
	None    string
	Forged  []string

	RefusedTitle string
	Refused      []string
	RefusedNote  string // none refused, or not measured, or how many more

	NeverTitle string
	Never      []string
	NeverNote  string
}

type crawlerRow struct {
	Token, Role, Hits, Verified, Unverified, Refused string
}

// crawlerRowsShown and crawlerPagesShown bound the section: the API
// has the whole analysis.
const (
	crawlerRowsShown  = 15
	crawlerPagesShown = 10
)

func (d *doc) crawlerView() *crawlerView {
	ca := d.r.CrawlerActivity
	if ca == nil {
		return nil
	}
	from, to := "–", "–"
	if ca.FirstSeen != nil {
		from = d.day(*ca.FirstSeen)
	}
	if ca.LastSeen != nil {
		to = d.day(*ca.LastSeen)
	}
	v := &crawlerView{
		Title: d.tr("crawlers.title"), Intro: d.tr("crawlers.intro", "From", from, "To", to), Claims: d.tr("crawlers.claims"),
		Columns: []string{
			d.tr("crawlers.col_crawler"), d.tr("crawlers.col_role"), d.tr("crawlers.col_hits"),
			d.tr("crawlers.col_verified"), d.tr("crawlers.col_unverified"), d.tr("crawlers.col_refused"),
		},
	}
	if len(ca.Bots) == 0 {
		v.None = d.tr("crawlers.none")
	}
	for i, b := range ca.Bots {
		if i == crawlerRowsShown {
			break
		}
		var refused int64
		for _, s := range b.Statuses {
			if crawlerlog.RefusalStatus(s.Status) {
				refused += s.Hits
			}
		}
		v.Rows = append(v.Rows, crawlerRow{
			Token: b.Token, Role: d.tr("crawlers.role." + string(b.Role)), Hits: d.int64(b.Hits),
			Verified: d.int64(b.VerifiedHits), Unverified: d.int64(b.UnverifiedHits), Refused: d.int64(refused),
		})
		if f := b.Verification.FailedHits; f > 0 {
			v.Forged = append(v.Forged, d.tr("crawlers.forged", "Token", b.Token, "Count", d.int64(f), "Owner", b.Owner))
		}
	}
	cc := ca.CrossCheck
	v.RefusedTitle, v.NeverTitle = d.tr("crawlers.refused"), d.tr("crawlers.never")
	if cc == nil {
		return v
	}
	rb := cc.RefusedButAllowed
	switch {
	case !rb.Measured:
		v.RefusedNote = d.tr("crawlers.not_measured", "Reason", d.crawlerReason(deref(rb.Reason)))
	case len(rb.Pages) == 0:
		v.RefusedNote = d.tr("crawlers.refused_none")
	}
	for i, p := range rb.Pages {
		if i == crawlerPagesShown {
			v.RefusedNote = d.tr("crawlers.refused_more", "Count", d.int(rb.Count-i))
			break
		}
		statuses := make([]string, 0, len(p.Statuses))
		for _, s := range p.Statuses {
			statuses = append(statuses, fmt.Sprintf("%d × %s", s.Status, d.int64(s.Hits)))
		}
		v.Refused = append(v.Refused, d.tr("crawlers.refused_line", "Token", p.Token, "Path", p.Path,
			"Hits", d.int64(p.Hits), "Statuses", strings.Join(statuses, ", ")))
	}
	nc := cc.NeverCrawled
	switch {
	case !nc.Measured:
		v.NeverNote = d.tr("crawlers.not_measured", "Reason", d.crawlerReason(deref(nc.Reason)))
	case nc.Count == 0:
		v.NeverNote = d.tr("crawlers.never_none")
	default:
		v.NeverNote = d.tr("crawlers.never_count", "Count", d.int(nc.Count))
		v.Never = nc.Pages[:min(len(nc.Pages), crawlerPagesShown)]
	}
	return v
}

func (d *doc) int64(n int64) string { return d.int(int(n)) }

// crawlerReasons are the catalogue's words for the reasons crawlerlog
// gives a part of its cross-check that was not measured.
var crawlerReasons = map[string]string{
	crawlerlog.NotMeasuredNoRobots: "crawlers.reason.no_robots",
	crawlerlog.NotMeasuredNoPages:  "crawlers.reason.no_pages",
	crawlerlog.NotMeasuredNoLines:  "crawlers.reason.no_lines",
	crawlerlog.NotMeasuredPathsCut: "crawlers.reason.paths_cut",
}

// crawlerReason is a reason in the report's language when the catalogue
// has it, else as the engine wrote it.
func (d *doc) crawlerReason(reason string) string {
	if id, ok := crawlerReasons[reason]; ok {
		return d.tr(id)
	}
	return strings.TrimSuffix(reason, ".")
}

// crawlerSection draws the section in the PDF.
func (d *doc) crawlerSection() {
	v := d.crawlerView()
	if v == nil {
		return
	}
	d.heading(v.Title)
	d.font(fontRegular, 10)
	d.color(ink)
	d.para(marginL, contentW, v.Intro)
	d.color(muted)
	d.para(marginL, contentW, v.Claims)
	d.y += 2
	if v.None != "" {
		d.color(ink)
		d.para(marginL, contentW, v.None)
	} else {
		cols := []float64{0, 44, 78, 100, 122, 152}
		widths := []float64{42, 32, 20, 20, 28, contentW - 152}
		d.ensure(6)
		d.font(fontBold, 8.5)
		d.color(muted)
		for i, c := range v.Columns {
			d.text(marginL+cols[i], d.y, d.clip(c, widths[i]))
		}
		d.y += d.lineH()
		d.font(fontRegular, 9)
		d.color(ink)
		for _, r := range v.Rows {
			d.ensure(d.lineH())
			for i, c := range []string{r.Token, r.Role, r.Hits, r.Verified, r.Unverified, r.Refused} {
				d.text(marginL+cols[i], d.y, d.clip(c, widths[i]))
			}
			d.y += d.lineH()
		}
		d.font(fontRegular, 9)
		d.color(statusInk[api.CheckStatusWarn])
		for _, f := range v.Forged {
			d.para(marginL, contentW, f) // the table's own words: tokens and owners
		}
	}
	d.crawlerList(v.RefusedTitle, v.Refused, v.RefusedNote)
	d.crawlerList(v.NeverTitle, v.Never, v.NeverNote)
}

// crawlerList draws a titled list of lines from the log (plain text).
func (d *doc) crawlerList(title string, lines []string, note string) {
	d.y += 3
	d.subheading(title)
	d.font(fontRegular, 9.5)
	d.color(ink)
	if note != "" && len(lines) == 0 {
		d.para(marginL, contentW, note)
		return
	}
	for _, l := range lines {
		d.plainLines("• " + l)
	}
	if note != "" {
		d.color(muted)
		d.para(marginL, contentW, note)
	}
}

// plainLines draws s clipped to one line per line of s, with no Markdown:
// it holds text of the log.
func (d *doc) plainLines(s string) {
	for _, line := range strings.Split(s, "\n") {
		d.ensure(d.lineH())
		d.text(marginL, d.y, d.clipMiddle(line, contentW))
		d.y += d.lineH()
	}
}
