package report

import (
	"strings"

	"github.com/geoscan/geoscan/gen/api"
)

// The PDF's "Fixes for this site": each warned or failed check that has a
// fix, with what to change, where on the platform, the file written for
// the site (engineering edition: in monospace, long files cut with a note
// saying where the whole file is) and how to verify it.

// maxCodeLines is how many lines of an artifact the PDF shows.
const maxCodeLines = 40

// codeSize is the font size of artifacts, in points.
const codeSize = 7.0

func (d *doc) fixesSection() {
	var list []api.CheckResult
	for _, c := range d.r.Checks {
		if c.Fix != nil && (c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn) {
			list = append(list, c)
		}
	}
	if len(list) == 0 {
		return
	}
	d.heading(d.tr("html.fixes"))
	d.font(fontRegular, 10)
	d.color(muted)
	if d.eng {
		d.para(marginL, contentW, d.tr("pdf.fixes_intro_eng", "Site", d.brand(), "Platform", d.platformWords(list[0].Fix.Platform), "Scan", d.r.ScanID))
	} else {
		d.para(marginL, contentW, d.tr("pdf.fixes_intro", "Site", d.brand()))
	}
	d.y += 2
	shown := map[string]string{} // artifact key → title of the check it was shown under
	for _, c := range list {
		d.fixBlock(c, shown)
	}
}

func (d *doc) platformWords(p string) string {
	if p == "" || p == "generic" {
		return d.tr("pdf.fixes_any_platform")
	}
	return p
}

func (d *doc) fixBlock(c api.CheckResult, shown map[string]string) {
	f := c.Fix
	d.font(fontRegular, 9)
	title := d.checkText(c.ID, "title", c.Title)
	d.ensure(d.heightOf(fontBold, 11, contentW-24, title) + d.heightOf(fontRegular, 9, contentW, f.Summary) + 10)
	d.y += 2
	d.pill(marginL, d.y+0.5, statusLabel(c.Status, d.eng), 7, statusInk[c.Status])
	d.font(fontBold, 11)
	d.color(ink)
	d.para(marginL+22, contentW-22, title)
	if d.eng {
		d.font(fontMono, 7.5)
		d.color(muted)
		d.para(marginL+22, contentW-22, c.ID+" · "+d.tr("pdf.fixes_cause", "Cause", f.Cause))
	}
	d.font(fontRegular, 9)
	d.color(ink)
	d.para(marginL, contentW, f.Summary)
	if d.eng && len(f.Edits) > 0 {
		d.fixLabel(d.tr("pdf.fixes_changes"))
		for _, e := range f.Edits {
			first, rest, multi := strings.Cut(e, "\n")
			d.fixItem(first)
			if multi {
				d.code(strings.Split(rest, "\n"), "")
			}
		}
	}
	if len(f.PlatformSteps) > 0 {
		label := d.tr("pdf.fixes_where")
		if f.Platform != "" && f.Platform != "generic" {
			label = d.tr("pdf.fixes_on", "Platform", f.Platform)
		}
		d.fixLabel(label)
		for _, s := range f.PlatformSteps {
			d.fixItem(s)
		}
	}
	if a := f.Artifact; a != nil {
		key := a.Filename + "\x00" + a.Content
		switch prev, seen := shown[key]; {
		case !d.eng:
			d.fixLabel(d.tr("pdf.fixes_file_team"))
			d.fixItem(d.tr("pdf.fixes_file_for", "File", a.Filename, "Location", a.Location))
		case seen:
			d.fixLabel(d.tr("pdf.fixes_file"))
			d.fixItem(d.tr("pdf.fixes_same_file", "File", a.Filename, "Check", quoted(prev)))
		default:
			shown[key] = title
			d.fixLabel(d.tr("pdf.fixes_file_named", "File", a.Filename, "Kind", a.Kind, "Location", a.Location))
			lines := strings.Split(strings.TrimRight(a.Content, "\n"), "\n")
			note := ""
			if len(lines) > maxCodeLines {
				note = d.tr("pdf.fixes_more_lines", "Lines", d.int(len(lines)-maxCodeLines), "Scan", d.r.ScanID, "Check", c.ID)
				lines = lines[:maxCodeLines]
			}
			d.code(lines, note)
		}
	}
	if len(f.Review) > 0 {
		d.fixLabel(d.tr("pdf.fixes_review"))
		for _, r := range f.Review {
			d.fixItem(r)
		}
	}
	if len(f.Verify) > 0 {
		d.fixLabel(d.tr("pdf.fixes_verify"))
		for _, v := range f.Verify {
			d.fixItem(v.Step)
			if d.eng && v.Command != nil {
				d.code([]string{*v.Command}, "")
			}
		}
	}
	if len(f.Notes) > 0 {
		d.font(fontRegular, 8.5)
		d.color(muted)
		for _, n := range f.Notes {
			d.y += 0.5
			d.para(marginL, contentW, n)
		}
	}
	d.y += 3
	// The rule between fixes is left out at the foot of a page, where
	// it would start a page of its own.
	if d.y+2 <= bodyEnd {
		d.stroke(track, 0.3)
		d.pdf.Line(marginL, d.y, pageW-marginR, d.y)
		d.y += 1
	}
}

func (d *doc) fixLabel(s string) {
	d.font(fontBold, 8.5)
	// The label and the first three lines of what it heads.
	d.ensure(1 + d.heightOf(fontBold, 8.5, contentW, s) + d.heightOf(fontRegular, 9, contentW, "\n\n"))
	d.y += 1
	d.color(muted)
	d.para(marginL, contentW, s)
}

func (d *doc) fixItem(s string) {
	d.font(fontRegular, 9)
	d.ensure(d.lineH())
	d.color(d.accentInk())
	d.text(marginL+1, d.y, "–")
	d.color(ink)
	d.para(marginL+5, contentW-5, s)
}

// code draws lines in monospace on a panel, keeping their indentation and
// breaking a line too long for the column between characters, each further
// piece on a line of its own marked »; note follows in muted text.
func (d *doc) code(lines []string, note string) {
	d.font(fontMono, codeSize)
	x, w := marginL+6, contentW-8
	per := max(int(w/d.width("M")), 10)
	for _, l := range lines {
		rs := []rune(strings.ReplaceAll(d.drawable(strings.ReplaceAll(l, "\t", "    ")), "\n", " "))
		n := min(len(rs), per)
		pieces := []string{string(rs[:n])}
		for rs = rs[n:]; len(rs) > 0; rs = rs[n:] {
			n = min(len(rs), per-2)
			pieces = append(pieces, "» "+string(rs[:n]))
		}
		for _, p := range pieces {
			d.ensure(d.lineH())
			d.rect(marginL+4, d.y-0.3, contentW-4, d.lineH(), panel)
			d.color(ink)
			d.text(x, d.y, p)
			d.y += d.lineH()
		}
	}
	if note != "" {
		d.font(fontRegular, 8)
		d.color(muted)
		d.para(marginL+6, contentW-6, note)
	}
	d.y += 1
}
