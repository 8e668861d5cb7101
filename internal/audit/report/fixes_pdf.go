package report

import (
	"fmt"
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
	d.heading("Fixes for this site")
	d.font(fontRegular, 10)
	d.color(muted)
	if d.eng {
		d.para(marginL, contentW, fmt.Sprintf("Written for %s from what the scan saw, with steps for %s. Every file was read back with GeoScan's own checks before it was offered; values starting with REVIEW are placeholders to replace. The whole files are in the API (each check result's fix.artifact) and are saved by geoscan scan fixes %s.",
			d.brand(), platformWords(list[0].Fix.Platform), d.r.ScanID))
	} else {
		d.para(marginL, contentW, fmt.Sprintf("What to change on %s, written from what the scan saw. The files for your web team are in the engineering edition of this report.", d.brand()))
	}
	d.y += 2
	shown := map[string]string{} // artifact key → title of the check it was shown under
	for _, c := range list {
		d.fixBlock(c, shown)
	}
}

func platformWords(p string) string {
	if p == "" || p == "generic" {
		return "any platform (Site Triage recognised none it has steps for)"
	}
	return p
}

func (d *doc) fixBlock(c api.CheckResult, shown map[string]string) {
	f := c.Fix
	d.font(fontRegular, 9)
	d.ensure(d.heightOf(fontBold, 11, contentW-24, c.Title) + d.heightOf(fontRegular, 9, contentW, f.Summary) + 10)
	d.y += 2
	d.pill(marginL, d.y+0.5, statusLabel(c.Status, d.eng), 7, statusInk[c.Status])
	d.font(fontBold, 11)
	d.color(ink)
	d.para(marginL+22, contentW-22, c.Title)
	if d.eng {
		d.font(fontMono, 7.5)
		d.color(muted)
		d.para(marginL+22, contentW-22, c.ID+" · cause "+f.Cause)
	}
	d.font(fontRegular, 9)
	d.color(ink)
	d.para(marginL, contentW, f.Summary)
	if d.eng && len(f.Edits) > 0 {
		d.fixLabel("Changes")
		for _, e := range f.Edits {
			first, rest, multi := strings.Cut(e, "\n")
			d.fixItem(first)
			if multi {
				d.code(strings.Split(rest, "\n"), "")
			}
		}
	}
	if len(f.PlatformSteps) > 0 {
		label := "Where to change it"
		if f.Platform != "" && f.Platform != "generic" {
			label = "On " + f.Platform
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
			d.fixLabel("File for your web team")
			d.fixItem(a.Filename + ", for " + a.Location + " (in the engineering edition).")
		case seen:
			d.fixLabel("File")
			d.fixItem(fmt.Sprintf("%s: the same file as for %s above.", a.Filename, quoted(prev)))
		default:
			shown[key] = c.Title
			d.fixLabel(fmt.Sprintf("File: %s (%s, for %s)", a.Filename, a.Kind, a.Location))
			lines := strings.Split(strings.TrimRight(a.Content, "\n"), "\n")
			note := ""
			if len(lines) > maxCodeLines {
				note = fmt.Sprintf("… %d more lines. The whole file: GET /api/v1/scans/%s/checks/%s (fix.artifact.content), or geoscan scan fixes %s.",
					len(lines)-maxCodeLines, d.r.ScanID, c.ID, d.r.ScanID)
				lines = lines[:maxCodeLines]
			}
			d.code(lines, note)
		}
	}
	if len(f.Review) > 0 {
		d.fixLabel("Before publishing")
		for _, r := range f.Review {
			d.fixItem(r)
		}
	}
	if len(f.Verify) > 0 {
		d.fixLabel("How to verify")
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
		rs := []rune(strings.ReplaceAll(drawable(strings.ReplaceAll(l, "\t", "    ")), "\n", " "))
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
