package report

import (
	"fmt"
	"math"

	"github.com/geoscan/geoscan/gen/api"
)

// benchmarkSection shows the competitor benchmark (competitors_view.go):
// the rings of the site and of each competitor side by side, then the
// share of voice of every brand, the sources cited by kind and the sites
// cited for competitors and never for this one. A report without
// competitors has no such section.
func (d *doc) benchmarkSection() {
	v := d.benchViewOf()
	if v == nil {
		return
	}
	d.heading(d.tr("html.benchmark"))
	d.font(fontRegular, 10)
	d.color(muted)
	d.para(marginL, contentW, v.Intro)
	d.y += 3
	d.table(v.Cols, []float64{64, 24, 22, 22, 22, 20}, func(row tableRow) {
		for _, r := range v.Rows {
			switch {
			case r.Failed != "":
				row([]string{r.Site, r.Failed}, r.Host, false, statusInk[api.CheckStatusFail])
			default:
				row(append([]string{r.Site}, r.Cells...), r.Host, r.You, ink)
			}
		}
	})
	if v.SOV != nil {
		d.sovSection(v.SOV)
	}
}

func (d *doc) sovSection(v *sovView) {
	d.subheading(d.tr("html.share_of_voice"))
	d.font(fontRegular, 10)
	if v.NotMeasured != "" {
		d.color(ink)
		d.para(marginL, contentW, v.NotMeasured)
		return
	}
	d.color(muted)
	d.para(marginL, contentW, v.Intro)
	d.y += 2
	d.table(v.Cols, []float64{58, 40, 22, 30, 24}, func(row tableRow) {
		for _, r := range v.Rows {
			c := ink
			if r.Engine {
				c = muted
			}
			row(append([]string{r.Label}, r.Cells...), "", r.You && !r.Engine, c)
		}
	})
	if v.SmallNote != "" {
		d.font(fontRegular, 9)
		d.color(muted)
		d.para(marginL, contentW, v.SmallNote)
	}

	d.subheading(d.tr("html.sov_sources"))
	d.font(fontRegular, 10)
	d.color(ink)
	if v.NoSources != "" {
		d.para(marginL, contentW, v.NoSources)
		return
	}
	d.color(muted)
	d.para(marginL, contentW, v.SourcesIntro)
	d.y += 1
	d.color(ink)
	if v.Empty != "" {
		d.para(marginL, contentW, v.Empty)
	}
	for _, g := range v.Sources {
		d.font(fontBold, 9.5)
		d.ensure(d.heightOf(fontBold, 9.5, contentW, g.Label) + d.heightOf(fontRegular, 9.5, contentW-4, g.Items))
		d.para(marginL, contentW, g.Label)
		d.font(fontRegular, 9.5)
		d.para(marginL+4, contentW-4, g.Items)
		d.y += 1
	}

	d.subheading(d.tr("html.citing_not_you"))
	d.font(fontRegular, 10)
	d.color(muted)
	d.para(marginL, contentW, v.CitingIntro)
	d.y += 1
	if v.CitingNone != "" {
		d.color(ink)
		d.para(marginL, contentW, v.CitingNone)
		return
	}
	d.bullets(v.Citing, statusInk[api.CheckStatusWarn])
}

// tableRow draws one row of a table: its cells, each wrapped in its
// column (a row with fewer cells than columns lets its last one span the
// rest), under in small muted type below the first cell, bold for a row
// that stands out, and c its ink.
type tableRow func(cells []string, under string, bold bool, c rgb)

// table draws a table whose columns are widths wide (together the text
// width), the header first and again on each page it runs on to; rows
// draws the rows with the row it is given.
func (d *doc) table(header []string, widths []float64, rows func(row tableRow)) {
	var total float64
	for _, w := range widths {
		total += w
	}
	if math.Abs(total-contentW) > 0.01 || len(header) != len(widths) {
		d.fail(fmt.Errorf("table columns are %.1f mm wide, the page text %.1f mm", total, contentW))
		return
	}
	head := func() {
		d.font(fontBold, 8.5)
		d.color(ink)
		x := marginL
		for i, h := range header {
			d.text(x, d.y, d.clip(h, widths[i]-1.5))
			x += widths[i]
		}
		d.y += d.lineH()
		d.stroke(muted, 0.2)
		d.pdf.Line(marginL, d.y, marginL+contentW, d.y)
		d.y += 1
	}
	d.ensure(3 * d.lineH())
	head()
	rows(func(cells []string, under string, bold bool, c rgb) {
		family := fontRegular
		if bold {
			family = fontBold
		}
		d.font(family, 9)
		lines := make([][]string, len(cells))
		height := 0.0
		x := 0.0
		for i, cell := range cells {
			w := widths[i]
			if i == len(cells)-1 {
				w = contentW - x
			}
			lines[i] = d.wrap(cell, w-1.5)
			height = max(height, float64(len(lines[i]))*d.lineH())
			x += widths[i]
		}
		below := 0.0
		if under != "" {
			d.font(fontRegular, 8)
			below = d.lineH()
			d.font(family, 9)
		}
		height = max(height, float64(len(lines[0]))*d.lineH()+below)
		if d.y+height+1 > bodyEnd {
			d.newPage()
			head()
		}
		d.font(family, 9)
		d.color(c)
		x = marginL
		for i := range cells {
			for j, l := range lines[i] {
				d.text(x, d.y+float64(j)*d.lineH(), l)
			}
			x += widths[i]
		}
		if under != "" {
			y := d.y + float64(len(lines[0]))*d.lineH()
			d.font(fontRegular, 8)
			d.color(muted)
			d.text(marginL, y, d.clipMiddle(under, widths[0]-1.5))
		}
		d.y += height + 1
	})
	d.y += 2
}
