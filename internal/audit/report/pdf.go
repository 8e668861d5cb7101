package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/i18n"
)

// The PDF is laid out here by hand on top of gopdf, which embeds TrueType
// fonts as subsets with a Unicode map (so text can be searched and
// extracted) but leaves flow to the caller: every text is measured with the
// font it is drawn in, wrapped to its column and moved to the next page as a
// whole block, so nothing overlaps and nothing runs off a page.

// Page geometry, in millimetres (A4 portrait).
const (
	pageW    = 210.0
	pageH    = 297.0
	marginL  = 18.0
	marginR  = 18.0
	marginT  = 18.0
	bodyTop  = 28.0 // below the running header
	bodyEnd  = 275.0
	contentW = pageW - marginL - marginR
	ptToMM   = 25.4 / 72
)

type rgb struct{ r, g, b uint8 }

var (
	ink       = rgb{33, 37, 41}
	muted     = rgb{108, 117, 125}
	track     = rgb{226, 230, 234}
	panel     = rgb{244, 246, 248}
	accent    = rgb{13, 110, 253}
	statusInk = map[api.CheckStatus]rgb{
		api.CheckStatusPass: {25, 135, 84}, api.CheckStatusWarn: {196, 124, 0},
		api.CheckStatusFail: {200, 35, 51}, api.CheckStatusNa: {108, 117, 125}, api.CheckStatusInfo: {13, 110, 253},
		api.CheckStatusError: {108, 117, 125},
	}
	levelInk = map[string]rgb{
		"low": {25, 135, 84}, "moderate": {230, 168, 23}, "medium": {230, 168, 23}, "high": {253, 126, 20}, "critical": {200, 35, 51},
	}
)

func gradeColor(g string) rgb {
	switch g {
	case "A+", "A":
		return rgb{25, 135, 84}
	case "B":
		return rgb{32, 163, 158}
	case "C":
		return rgb{230, 168, 23}
	case "D":
		return rgb{253, 126, 20}
	}
	return rgb{200, 35, 51}
}

// advances are, per font family, each drawable character's advance width
// as a fraction of the font size, read once from the embedded fonts. gopdf
// draws without kerning, so a line is exactly as wide as the sum.
var advances = sync.OnceValue(func() map[string]map[rune]float64 {
	out := map[string]map[rune]float64{}
	var buf sfnt.Buffer
	for _, f := range fontData {
		font, err := sfnt.Parse(f.ttf)
		if err != nil {
			panic("report: parse embedded font " + f.family + ": " + err.Error())
		}
		upem := float64(font.UnitsPerEm())
		m := map[rune]float64{}
		for r := range covered() {
			g, err := font.GlyphIndex(&buf, r)
			if err != nil || g == 0 {
				continue
			}
			adv, err := font.GlyphAdvance(&buf, g, fixed.Int26_6(font.UnitsPerEm())<<6, 0)
			if err != nil {
				continue
			}
			m[r] = float64(adv) / 64 / upem
		}
		out[f.family] = m
	}
	return out
})

// doc is one PDF being written.
type doc struct {
	pdf    *gopdf.GoPdf
	r      api.Report
	t      *api.TriageDossier
	eng    bool
	family string
	size   float64
	ink    rgb // the current text colour
	y      float64
	err    error
	// started is how many priorities the executive summary listed, on
	// page startPage; the triage page refers to them.
	started, startPage int
	// spilled is set while the page is one a section ran on to, not one
	// it started.
	spilled bool
	look    Brand // the organization's look (pdf_brand.go)
	// w writes the document's own words in its language (pdf_i18n.go).
	w *i18n.Localizer
	// cjk draws Chinese, Japanese and Korean text, when the report has
	// some and the font is installed; cjkMissing is set when it has some
	// and the font is not (fonts.go).
	cjk        *cjkFont
	cjkMissing bool
	// agent is the agent-readiness lens given to render; nil shows the
	// report's (pdf_agent.go).
	agent *AgentReadiness
}

// options are test seams, and the look of RenderPDFWith.
type options struct {
	uncompressed bool
	look         Brand
	// language is the document's language (i18n.Supported); empty or
	// unknown is English.
	language string
	// cjkFont is the path of the CJK font; empty is DefaultCJKFont.
	cjkFont string
	agent   *AgentReadiness
}

// RenderPDF writes the report as an A4 PDF document: cover, executive
// summary, Site Triage (when t is not nil), one section per ring, the
// competitor benchmark (when the scan named competitors), the fixes
// written for the site and the list of what was fetched. r and t are of
// the same audience.
func RenderPDF(w io.Writer, r api.Report, t *api.TriageDossier) error {
	return render(w, r, t, options{})
}

func render(w io.Writer, r api.Report, t *api.TriageDossier, o options) error {
	d := &doc{
		pdf: &gopdf.GoPdf{}, r: r, t: t, eng: r.Audience == api.ReportAudienceEngineering, look: o.look,
		w: i18n.For(o.language), agent: o.agent,
	}
	d.pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4, Unit: gopdf.UnitMM})
	if o.uncompressed {
		d.pdf.SetNoCompression()
	}
	d.pdf.SetInfo(gopdf.PdfInfo{
		Title:   drawable(d.tr("html.title", "Site", d.brand())),
		Subject: drawable(r.URL),
		Author:  d.author(), Creator: d.maker(), Producer: d.maker(),
		CreationDate: r.GeneratedAt,
	})
	for _, f := range fontData {
		if err := d.pdf.AddTTFFontData(f.family, f.ttf); err != nil {
			return fmt.Errorf("render pdf: embed font %s: %w", f.family, err)
		}
	}
	if err := d.addCJK(o.cjkFont); err != nil {
		return fmt.Errorf("render pdf: %w", err)
	}

	d.coverPage()
	d.summaryPage()
	d.siteSection()
	d.renderingSection()
	d.triagePage()
	for _, ring := range d.rings() {
		d.ringSection(ring)
	}
	d.benchmarkSection()
	d.agentSection()
	d.crawlerSection()
	d.fixesSection()
	d.fetchAppendix()
	d.footers()
	if d.err != nil {
		return fmt.Errorf("render pdf: %w", d.err)
	}
	if _, err := d.pdf.WriteTo(w); err != nil {
		return fmt.Errorf("write pdf: %w", err)
	}
	return nil
}

func (d *doc) fail(err error) {
	if err != nil && d.err == nil {
		d.err = err
	}
}

// brand is the brand as the report names it.
func (d *doc) brand() string {
	if b := strings.TrimSpace(d.r.BrandName); b != "" {
		return b
	}
	return d.r.URL
}

// Pages and flow.

func (d *doc) newPage() {
	d.pdf.AddPage()
	d.y = bodyTop
	d.spilled = true
	// Running header: who the report is about. The text being written
	// continues in its own font and colour.
	family, size, c := d.family, d.size, d.ink
	d.font(fontRegular, 8)
	d.color(muted)
	d.text(marginL, marginT-6, d.clip(d.brand()+" · "+d.tr("pdf.report")+d.byline(), contentW))
	d.stroke(track, 0.3)
	d.pdf.Line(marginL, marginT, pageW-marginR, marginT)
	if family != "" {
		d.font(family, size)
	}
	d.color(c)
}

// ensure starts a new page unless h more millimetres fit on this one.
func (d *doc) ensure(h float64) {
	if d.y+h > bodyEnd {
		d.newPage()
	}
}

// keep starts a new page unless h more millimetres fit on this one, when
// they fit on a page at all: for blocks that must not be split.
func (d *doc) keep(h float64) {
	if h <= bodyEnd-bodyTop {
		d.ensure(h)
	}
}

// footers number every page once the page count is known.
func (d *doc) footers() {
	n := d.pdf.GetNumberOfPages()
	for i := 1; i <= n; i++ {
		d.fail(d.pdf.SetPage(i))
		d.font(fontRegular, 8)
		d.color(muted)
		left := d.clip(d.r.URL, contentW-40)
		d.text(marginL, pageH-14, left)
		right := d.tr("pdf.page_of", "Page", d.int(i), "Pages", d.int(n))
		d.text(pageW-marginR-d.width(right), pageH-14, right)
		d.footerBrand()
	}
}

// Text.

func (d *doc) font(family string, size float64) {
	d.family, d.size = family, size
	d.fail(d.pdf.SetFont(family, "", size))
}

func (d *doc) color(c rgb) {
	d.ink = c
	d.pdf.SetTextColor(c.r, c.g, c.b)
}

// lineH is the line height of the current font, in millimetres.
func (d *doc) lineH() float64 { return d.size * ptToMM * 1.35 }

// width measures drawable text in the current font, in millimetres.
func (d *doc) width(s string) float64 {
	return d.measureAt(d.family, d.size, s)
}

// text draws one line with its top-left corner at (x, y).
func (d *doc) text(x, y float64, s string) {
	s = d.drawable(s)
	if strings.TrimSpace(s) == "" {
		return
	}
	if d.cjk == nil || !hasCJK(s) {
		d.pdf.SetXY(x, y)
		d.fail(d.pdf.Cell(nil, s))
		return
	}
	// Chinese, Japanese and Korean characters are drawn in the CJK font,
	// run by run, the rest in the current one.
	family, size := d.family, d.size
	for _, run := range scriptRuns(s) {
		f := family
		if run.cjk {
			f = fontCJK
		}
		d.fail(d.pdf.SetFont(f, "", size))
		d.pdf.SetXY(x, y)
		d.fail(d.pdf.Cell(nil, run.text))
		x += d.measureAt(f, size, run.text)
	}
	d.font(family, size)
}

// clip shortens s with an ellipsis until it fits w.
func (d *doc) clip(s string, w float64) string {
	s = d.drawable(s)
	if d.width(s) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && d.width(string(rs)+"…") > w {
		rs = rs[:len(rs)-1]
	}
	return strings.TrimRight(string(rs), " ") + "…"
}

// clipMiddle shortens s in the middle, keeping its start and end (for URLs).
func (d *doc) clipMiddle(s string, w float64) string {
	s = d.drawable(s)
	if d.width(s) <= w {
		return s
	}
	rs := []rune(s)
	head, tail := len(rs)/2, len(rs)/2
	for head > 0 && d.width(string(rs[:head])+"…"+string(rs[len(rs)-tail:])) > w {
		if head >= tail {
			head--
		} else {
			tail--
		}
	}
	return string(rs[:head]) + "…" + string(rs[len(rs)-tail:])
}

// wrap breaks s into lines no wider than w in the current font; newlines
// start new lines and a word wider than w is broken between characters.
func (d *doc) wrap(s string, w float64) []string {
	s = d.drawable(s)
	var lines []string
	space := d.width(" ")
	for _, para := range strings.Split(s, "\n") {
		var line strings.Builder
		var lineW float64
		flush := func() {
			lines = append(lines, line.String())
			line.Reset()
			lineW = 0
		}
		for _, word := range strings.Fields(para) {
			ww := d.width(word)
			for ww > w {
				// Break an over-long word (a URL) at the last character that fits.
				if line.Len() > 0 {
					flush()
				}
				rs := []rune(word)
				n, acc := 0, 0.0
				for n < len(rs) && acc+d.width(string(rs[n])) <= w {
					acc += d.width(string(rs[n]))
					n++
				}
				n = max(n, 1)
				lines = append(lines, string(rs[:n]))
				word = string(rs[n:])
				ww = d.width(word)
			}
			if word == "" {
				continue
			}
			switch {
			case line.Len() == 0:
				line.WriteString(word)
				lineW = ww
			case lineW+space+ww <= w:
				line.WriteByte(' ')
				line.WriteString(word)
				lineW += space + ww
			default:
				flush()
				line.WriteString(word)
				lineW = ww
			}
		}
		if line.Len() > 0 || len(lines) == 0 {
			flush()
		}
	}
	return lines
}

// para draws wrapped text at x in a column of width w from the current y,
// breaking pages between lines, and leaves y below it. Its Markdown is
// drawn as such (pdf_text.go).
func (d *doc) para(x, w float64, s string) {
	for _, line := range d.layout(s, w) {
		d.ensure(d.lineH())
		d.drawLine(x, d.y, line)
		d.y += d.lineH()
	}
}

// heightOf is the height para would take for s at the given font.
func (d *doc) heightOf(family string, size, w float64, s string) float64 {
	f, sz := d.family, d.size
	d.font(family, size)
	h := float64(len(d.layout(s, w))) * d.lineH()
	d.font(f, sz)
	return h
}

// heading starts a section: a new page, a bookmark, the title. A section
// whose predecessor spilled a few lines onto a page of their own starts
// below them instead, so that no page holds only a lone bullet or line.
func (d *doc) heading(title string) {
	if d.spilled && d.y < bodyTop+(bodyEnd-bodyTop)/3 {
		d.y += 10
	} else {
		d.newPage()
	}
	d.spilled = false
	d.pdf.AddOutline(d.drawable(title))
	d.font(fontBold, 18)
	d.color(ink)
	d.text(marginL, d.y, title)
	d.y += d.lineH() + 2
}

// subheadingRoom is what a subheading needs below it: itself and the
// first three lines of what it heads, so no heading ends a page.
const subheadingRoom = 27.0

// subheading sets the title of a part of a section on the page where its
// first three lines fit, or its first block of first millimetres, kept
// on one page, when that is taller.
func (d *doc) subheading(title string, first ...float64) {
	room := subheadingRoom
	for _, h := range first {
		room = max(room, 3+12*ptToMM*1.35+1+h)
	}
	if room <= bodyEnd-bodyTop {
		d.ensure(room)
	} else {
		d.ensure(subheadingRoom)
	}
	d.y += 3
	d.font(fontBold, 12)
	d.color(ink)
	d.text(marginL, d.y, title)
	d.y += d.lineH() + 1
}

// Shapes.

func (d *doc) fill(c rgb) { d.pdf.SetFillColor(c.r, c.g, c.b) }

func (d *doc) stroke(c rgb, width float64) {
	d.pdf.SetStrokeColor(c.r, c.g, c.b)
	d.pdf.SetLineWidth(width)
}

func (d *doc) rect(x, y, w, h float64, c rgb) {
	if w <= 0 || h <= 0 {
		return
	}
	d.fill(c)
	d.pdf.RectFromUpperLeftWithStyle(x, y, w, h, "F")
}

// roundRect fills a rectangle with rounded corners.
func (d *doc) roundRect(x, y, w, h, radius float64, c rgb) {
	d.fill(c)
	radius = math.Min(radius, math.Min(w, h)/2)
	if err := d.pdf.Rectangle(x, y, x+w, y+h, "F", radius, 6); err != nil {
		d.rect(x, y, w, h, c)
	}
}

// arc fills the part of a ring of outer radius r and the given thickness
// that runs clockwise from one angle to another, in degrees from 12 o'clock.
func (d *doc) arc(cx, cy, r, thick, from, to float64, c rgb) {
	if to <= from {
		return
	}
	n := max(int((to-from)/3), 4)
	pts := make([]gopdf.Point, 0, 2*(n+1))
	at := func(radius, deg float64) gopdf.Point {
		a := deg * math.Pi / 180
		return gopdf.Point{X: cx + radius*math.Sin(a), Y: cy - radius*math.Cos(a)}
	}
	for i := 0; i <= n; i++ {
		pts = append(pts, at(r, from+(to-from)*float64(i)/float64(n)))
	}
	for i := n; i >= 0; i-- {
		pts = append(pts, at(r-thick, from+(to-from)*float64(i)/float64(n)))
	}
	d.fill(c)
	d.pdf.Polygon(pts, "F")
}

// donut draws a grey ring with, over it, the share score/100 in colour.
func (d *doc) donut(cx, cy, r, thick, score float64, c rgb) {
	d.arc(cx, cy, r, thick, 0, 180, track)
	d.arc(cx, cy, r, thick, 180, 360, track)
	score = math.Max(0, math.Min(100, score))
	d.arc(cx, cy, r, thick, 0, score*3.6, c)
}

// bar draws a horizontal score bar.
func (d *doc) bar(x, y, w, h, score float64, c rgb) {
	d.roundRect(x, y, w, h, h/2, track)
	score = math.Max(0, math.Min(100, score))
	if score > 0 {
		d.roundRect(x, y, math.Max(w*score/100, h), h, h/2, c)
	}
}

// pillMaxText is the widest a pill's label is set, in millimetres: the
// status pills sit in a column 22 mm wide.
const pillMaxText = 18.0

// pill draws a small coloured label with white text and returns its width.
//
//nolint:unparam // every pill is 7 pt today; the size stays the caller's
func (d *doc) pill(x, y float64, s string, size float64, c rgb) float64 {
	s = d.say(s)
	d.font(fontBold, size)
	// A label longer in the document's language than in English is set
	// smaller, so the pill keeps to the column beside it.
	if tw := d.width(s); tw > pillMaxText {
		d.font(fontBold, math.Max(size*pillMaxText/tw, size*0.7))
	}
	w := d.width(s) + 3
	h := size*ptToMM + 1.6
	d.roundRect(x, y, w, h, 1.2, c)
	d.color(rgb{255, 255, 255})
	d.text(x+1.5, y+0.75, s)
	return w
}
