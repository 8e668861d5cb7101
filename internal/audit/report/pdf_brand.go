package report

import (
	"io"
	"strconv"
	"strings"

	"github.com/signintech/gopdf"

	"github.com/geoscan/geoscan/gen/api"
)

// PDFOptions are what a PDF is made with besides its report.
type PDFOptions struct {
	// Brand is the look of the organization the report is made for; the
	// zero Brand is GeoScan's.
	Brand Brand
	// Language is the language the PDF is written in, one of
	// i18n.Supported; empty (or unknown) is English. What was written for
	// the scan (findings, summaries) stays as written.
	Language string
	// CJKFont is the TrueType font Chinese, Japanese and Korean text is
	// drawn in; empty is DefaultCJKFont. Without it such text is marked.
	CJKFont string
	// AgentReadiness is the agent-readiness lens to show (the stored
	// report's Stored.AgentReadiness); nil shows the one r carries, if any.
	AgentReadiness *AgentReadiness
}

// RenderPDFWith is RenderPDF in an organization's look: its name instead of
// GeoScan's as the report's author, its logo on the cover (an SVG logo
// drawn into an image; one that cannot be drawn leaves the name alone), its
// colour for accents, and its contact and footer lines on every page.
func RenderPDFWith(w io.Writer, r api.Report, t *api.TriageDossier, o PDFOptions) error {
	return render(w, r, t, options{look: o.Brand, language: o.Language, cjkFont: o.CJKFont, agent: o.AgentReadiness})
}

// author is who the PDF says made it.
func (d *doc) author() string {
	if n := strings.TrimSpace(d.look.Name); n != "" {
		return n
	}
	return "GeoScan"
}

// accentInk is the brand's colour, GeoScan's blue when it has none.
func (d *doc) accentInk() rgb {
	c, ok := parseHex(d.look.PrimaryColor)
	if !ok {
		return accent
	}
	return c
}

func parseHex(s string) (rgb, bool) {
	if len(s) != 7 || s[0] != '#' {
		return rgb{}, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return rgb{}, false
	}
	return rgb{uint8(v >> 16), uint8(v >> 8), uint8(v)}, true
}

// The largest a logo is drawn on the cover, in millimetres.
const (
	logoMaxW = 50.0
	logoMaxH = 14.0
)

// coverBrand draws, at the top right of the cover, the logo of a branded
// report and, without one, its name. A logo the PDF cannot embed
// leaves the name: the report matters more than its logo.
func (d *doc) coverBrand() {
	if d.look.Name == "" && len(d.look.Logo) == 0 {
		return
	}
	top := 10.0
	if img := coverLogo(d.look, logoMaxW, logoMaxH); img != nil {
		b := img.Bounds()
		w, h := float64(b.Dx()), float64(b.Dy())
		scale := min(logoMaxW/w, logoMaxH/h)
		w, h = w*scale, h*scale
		if d.pdf.ImageFrom(img, pageW-marginR-w, top, &gopdf.Rect{W: w, H: h}) == nil {
			return
		}
	}
	if d.look.Name == "" {
		return
	}
	family, size, c := d.family, d.size, d.ink
	d.font(fontBold, 11)
	d.color(d.accentInk())
	name := d.clip(d.look.Name, contentW/2)
	d.text(pageW-marginR-d.width(name), top+4, name)
	if family != "" {
		d.font(family, size)
	}
	d.color(c)
}

// byline names the report's author in the running header of a branded
// report.
func (d *doc) byline() string {
	if d.look.Name == "" {
		return ""
	}
	return " · by " + d.look.Name
}

// maker is the software the PDF's properties name: GeoScan, unless the
// brand hides it.
func (d *doc) maker() string {
	if d.look.HideGeoScan {
		return d.author()
	}
	return "GeoScan"
}

// footerBrand writes the brand's contact and footer in one line under the
// page footer, and "Made with GeoScan" at its right on a branded report that
// shows GeoScan.
func (d *doc) footerBrand() {
	var parts []string
	for _, s := range []string{d.look.Contact, d.look.Footer} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	right := ""
	if d.look.Name != "" && !d.look.HideGeoScan {
		right = "Made with GeoScan"
	}
	y := pageH - 10
	if len(parts) > 0 {
		d.text(marginL, y, d.clip(strings.Join(parts, " · "), contentW-d.width(right)-6))
	}
	if right != "" {
		d.text(pageW-marginR-d.width(right), y, right)
	}
}
