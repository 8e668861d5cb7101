package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/go-pdf/fpdf"

	"github.com/geoscan/geoscan/gen/api"
)

type rgb struct{ r, g, b int }

var (
	ink       = rgb{33, 37, 41}
	muted     = rgb{108, 117, 125}
	track     = rgb{222, 226, 230}
	statusInk = map[api.CheckStatus]rgb{
		api.CheckStatusPass: {25, 135, 84}, api.CheckStatusWarn: {204, 132, 0},
		api.CheckStatusFail: {200, 35, 51}, api.CheckStatusNa: {108, 117, 125}, api.CheckStatusInfo: {13, 110, 253},
	}
	statusOrder = map[api.CheckStatus]int{
		api.CheckStatusFail: 0, api.CheckStatusWarn: 1, api.CheckStatusPass: 2, api.CheckStatusNa: 3, api.CheckStatusInfo: 4,
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

// options are test seams.
type options struct{ uncompressed bool }

// RenderPDF writes the report as an A4 PDF document.
func RenderPDF(w io.Writer, r api.Report) error { return render(w, r, options{}) }

func render(w io.Writer, r api.Report, o options) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCompression(!o.uncompressed)
	pdf.SetTitle("GeoScan report: "+r.URL, true)
	pdf.SetCreator("GeoScan", true)
	pdf.SetMargins(15, 15, 15)
	pdf.SetAutoPageBreak(true, 18)
	pdf.AliasNbPages("{nb}")
	// The core fonts cover cp1252 only; text is translated and anything
	// outside it becomes "?", so no input can break rendering.
	tr := pdf.UnicodeTranslatorFromDescriptor("")
	text := func(s string) string { return tr(toCP1252Safe(s)) }
	pdf.SetFooterFunc(func() {
		pdf.SetY(-12)
		pdf.SetFont("Helvetica", "", 8)
		setText(pdf, muted)
		pdf.CellFormat(0, 5, text(fmt.Sprintf("GeoScan · %s · page %d of {nb}", r.URL, pdf.PageNo())), "", 0, "C", false, 0, "")
	})

	pdf.AddPage()
	setText(pdf, ink)
	pdf.SetFont("Helvetica", "B", 20)
	pdf.CellFormat(0, 10, "GeoScan report", "", 1, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	setText(pdf, muted)
	pdf.MultiCell(0, 5, text(fmt.Sprintf("%s · brand %s", r.URL, r.BrandName)), "", "L", false)
	pdf.MultiCell(0, 5, text(fmt.Sprintf("Generated %s UTC · %s edition · scoring %s",
		r.GeneratedAt.UTC().Format("2006-01-02 15:04"), r.Audience, r.ScoringVersion)), "", "L", false)
	pdf.Ln(4)

	// Overall score.
	setText(pdf, ink)
	pdf.SetFont("Helvetica", "B", 36)
	c := gradeColor(string(r.OverallGrade))
	setText(pdf, c)
	pdf.CellFormat(45, 16, fmt.Sprintf("%.1f", r.OverallScore), "", 0, "L", false, 0, "")
	pdf.SetFont("Helvetica", "B", 24)
	pdf.CellFormat(20, 16, string(r.OverallGrade), "", 1, "L", false, 0, "")
	setText(pdf, ink)
	pdf.SetFont("Helvetica", "", 10)
	pdf.MultiCell(0, 5, text(r.GradeDescriptor), "", "L", false)
	pdf.Ln(4)

	// The three rings as donuts.
	rings := []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust}
	top := pdf.GetY()
	for i, ring := range rings {
		cx := 15 + 30 + float64(i)*60
		donut(pdf, cx, top+22, 18, float64(ring.Score), gradeColor(string(ring.Grade)))
		setText(pdf, ink)
		pdf.SetFont("Helvetica", "B", 16)
		pdf.SetXY(cx-18, top+18)
		pdf.CellFormat(36, 8, fmt.Sprintf("%d", ring.Score), "", 0, "C", false, 0, "")
		pdf.SetFont("Helvetica", "", 9)
		pdf.SetXY(cx-18, top+25)
		pdf.CellFormat(36, 5, text("grade "+string(ring.Grade)), "", 0, "C", false, 0, "")
		pdf.SetFont("Helvetica", "B", 11)
		pdf.SetXY(cx-28, top+43)
		pdf.CellFormat(56, 6, text(title(string(ring.Ring))), "", 0, "C", false, 0, "")
		pdf.SetFont("Helvetica", "", 8)
		setText(pdf, muted)
		pdf.SetXY(cx-28, top+49)
		pdf.MultiCell(56, 4, text(ring.GradeDescriptor), "", "C", false)
	}
	pdf.SetY(top + 70)

	heading(pdf, "Summary")
	pdf.SetFont("Helvetica", "", 10)
	setText(pdf, ink)
	pdf.MultiCell(0, 5, text(r.Summaries.Executive), "", "L", false)
	if len(r.GatesFired) > 0 {
		heading(pdf, "Gates that capped a ring")
		pdf.SetFont("Helvetica", "", 10)
		for _, g := range r.GatesFired {
			pdf.MultiCell(0, 5, text(fmt.Sprintf("- %s ring capped at %d: %s", title(string(g.Ring)), g.Cap, g.Message)), "", "L", false)
		}
	}

	for _, ring := range rings {
		pdf.AddPage()
		heading(pdf, title(string(ring.Ring))+" ring")
		pdf.SetFont("Helvetica", "", 10)
		setText(pdf, ink)
		pdf.MultiCell(0, 5, text(ringSummary(r.Summaries, ring.Ring)), "", "L", false)
		pdf.Ln(2)
		pillarTable(pdf, ring.Pillars, text)
		pdf.Ln(3)
		checks := checksOf(r.Checks, ring.Ring)
		if len(checks) == 0 {
			continue
		}
		heading(pdf, "Checks")
		for _, ch := range checks {
			checkBlock(pdf, ch, text)
		}
	}

	pdf.AddPage()
	heading(pdf, "What was fetched")
	pdf.SetFont("Helvetica", "", 10)
	setText(pdf, ink)
	pdf.MultiCell(0, 5, text(fmt.Sprintf("%d pages, %s, in %.1f s.", r.Fetch.Pages, bytesText(r.Fetch.Bytes), float64(r.Fetch.DurationMs)/1000)), "", "L", false)
	pdf.Ln(2)
	pdf.SetFont("Helvetica", "B", 9)
	for _, h := range []struct {
		w float64
		s string
	}{{95, "URL"}, {25, "Purpose"}, {15, "Status"}, {25, "Bytes"}, {20, "ms"}} {
		pdf.CellFormat(h.w, 6, h.s, "B", 0, "L", false, 0, "")
	}
	pdf.Ln(-1)
	pdf.SetFont("Helvetica", "", 8)
	for _, f := range r.Fetch.Fetches {
		status := "-"
		if f.StatusCode != nil {
			status = fmt.Sprint(*f.StatusCode)
		}
		pdf.CellFormat(95, 5, text(clip(f.URL, 60)), "", 0, "L", false, 0, "")
		pdf.CellFormat(25, 5, text(f.Purpose), "", 0, "L", false, 0, "")
		pdf.CellFormat(15, 5, status, "", 0, "L", false, 0, "")
		pdf.CellFormat(25, 5, bytesText(f.Bytes), "", 0, "L", false, 0, "")
		pdf.CellFormat(20, 5, fmt.Sprint(f.DurationMs), "", 1, "L", false, 0, "")
	}

	if err := pdf.Error(); err != nil {
		return fmt.Errorf("render pdf: %w", err)
	}
	return pdf.Output(w)
}

func setText(pdf *fpdf.Fpdf, c rgb) { pdf.SetTextColor(c.r, c.g, c.b) }

func heading(pdf *fpdf.Fpdf, s string) {
	pdf.Ln(2)
	pdf.SetFont("Helvetica", "B", 13)
	setText(pdf, ink)
	pdf.CellFormat(0, 8, s, "", 1, "L", false, 0, "")
}

// donut draws a grey ring and, over it, an arc from the top clockwise over
// score percent of the circle.
func donut(pdf *fpdf.Fpdf, cx, cy, radius, score float64, c rgb) {
	pdf.SetLineWidth(4)
	pdf.SetDrawColor(track.r, track.g, track.b)
	pdf.Circle(cx, cy, radius, "D")
	score = math.Max(0, math.Min(100, score))
	if score > 0 {
		pdf.SetDrawColor(c.r, c.g, c.b)
		// fpdf angles run counter-clockwise from 3 o'clock; start at 12.
		pdf.Arc(cx, cy, radius, radius, 0, 90-score*3.6, 90, "D")
	}
	pdf.SetLineWidth(0.2)
	pdf.SetDrawColor(0, 0, 0)
}

func pillarTable(pdf *fpdf.Fpdf, pillars []api.Pillar, text func(string) string) {
	if len(pillars) == 0 {
		return
	}
	pdf.SetFont("Helvetica", "B", 9)
	setText(pdf, ink)
	pdf.CellFormat(50, 6, "Pillar", "B", 0, "L", false, 0, "")
	pdf.CellFormat(18, 6, "Score", "B", 0, "L", false, 0, "")
	pdf.CellFormat(22, 6, "Coverage", "B", 0, "L", false, 0, "")
	pdf.CellFormat(0, 6, "What it measures", "B", 1, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 9)
	for _, p := range pillars {
		score := "-"
		if p.Score != nil {
			score = fmt.Sprint(*p.Score)
		}
		y := pdf.GetY()
		pdf.CellFormat(50, 5, text(p.Name), "", 0, "L", false, 0, "")
		pdf.CellFormat(18, 5, score, "", 0, "L", false, 0, "")
		pdf.CellFormat(22, 5, fmt.Sprintf("%.0f%%", p.Coverage*100), "", 0, "L", false, 0, "")
		pdf.MultiCell(0, 5, text(p.Description), "", "L", false)
		if pdf.GetY() < y+5 {
			pdf.SetY(y + 5)
		}
	}
}

func checksOf(all []api.CheckResult, ring api.Ring) []api.CheckResult {
	var out []api.CheckResult
	for _, c := range all {
		if c.Ring == ring {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return statusOrder[out[i].Status] < statusOrder[out[j].Status] })
	return out
}

func checkBlock(pdf *fpdf.Fpdf, c api.CheckResult, text func(string) string) {
	pdf.SetFont("Helvetica", "B", 9)
	setText(pdf, statusInk[c.Status])
	pdf.CellFormat(14, 5, strings.ToUpper(string(c.Status)), "", 0, "L", false, 0, "")
	setText(pdf, ink)
	pdf.MultiCell(0, 5, text(c.Title), "", "L", false)
	pdf.SetFont("Helvetica", "", 9)
	pdf.SetX(29)
	pdf.MultiCell(0, 4.5, text(c.Summary), "", "L", false)
	if c.Recommendation != nil && c.Status != api.CheckStatusPass {
		pdf.SetX(29)
		setText(pdf, muted)
		pdf.MultiCell(0, 4.5, text("Fix: "+*c.Recommendation), "", "L", false)
	}
	pdf.Ln(1.5)
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

func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
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

// cp1252Extras are the non-Latin-1 characters cp1252 has.
const cp1252Extras = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"

// toCP1252Safe replaces every character the core fonts cannot show.
func toCP1252Safe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n':
			return r
		case r < 0x20:
			return -1
		case r <= 0xff, strings.ContainsRune(cp1252Extras, r):
			return r
		}
		return '?'
	}, s)
}
