package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"strings"

	"github.com/fyne-io/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
)

// The bounds of drawing an SVG logo. The logo was sanitised when it was
// stored, but it is still a customer's drawing: every step below is
// bounded, so that a logo made to be expensive costs a fraction of a
// second and a few megabytes, and then the name stands alone.
const (
	// svgLogoMaxBytes is the most SVG that is read, the bound a logo is
	// accepted within.
	svgLogoMaxBytes = 256 << 10
	// svgLogoPxPerMM is the resolution the logo is drawn at: 300 dpi
	// near enough, so that it prints sharp.
	svgLogoPxPerMM = 12
	// svgMaxElements bounds the elements, and svgMaxPathData the numbers
	// of every path, read before anything is drawn.
	svgMaxElements = 2000
	svgMaxPathData = 400_000
	// svgMaxStops bounds a gradient's stops, which are searched for every
	// pixel a gradient paints.
	svgMaxStops = 64
	// svgMaxDashes bounds a dash pattern, which is walked for every piece
	// of a dashed stroke; a longer one is drawn solid.
	svgMaxDashes = 32
	// svgMaxSegments bounds the line segments the rasteriser is handed
	// once curves are flattened and strokes and dashes outlined.
	svgMaxSegments = 400_000
	// svgMaxPaint bounds the pixels painted: every fill and stroke is a
	// pass over the whole image, and a gradient's costs svgGradientCost
	// times a flat colour's.
	svgMaxPaint     = 200_000_000
	svgGradientCost = 100
)

// errLogoTooComplex ends drawing a logo that exceeds a bound.
var errLogoTooComplex = errors.New("the SVG is too complex to draw")

// coverLogo is the brand's logo as an image for the cover, nil without
// one or when it cannot be read or drawn: a PNG as sent, an SVG drawn to
// fit maxW×maxH millimetres.
func coverLogo(b Brand, maxW, maxH float64) image.Image {
	if len(b.Logo) == 0 {
		return nil
	}
	switch b.LogoType {
	case "image/png":
		src, err := png.Decode(bytes.NewReader(b.Logo))
		if err != nil {
			return nil
		}
		// The PDF library embeds 8-bit images only: a 16-bit PNG is drawn
		// into one first.
		bounds := src.Bounds()
		img := image.NewNRGBA(bounds)
		draw.Draw(img, bounds, src, bounds.Min, draw.Src)
		return img
	case "image/svg+xml":
		img, err := rasterizeSVG(b.Logo, int(maxW*svgLogoPxPerMM), int(maxH*svgLogoPxPerMM))
		if err != nil {
			return nil
		}
		return img
	}
	return nil
}

// rasterizeSVG draws an SVG as large as fits maxW×maxH pixels, keeping its
// proportions. It fails, rather than draw something other than the logo,
// when the SVG uses what the renderer does not draw (text, clipping,
// hidden elements), when it exceeds a bound, and when nothing shows.
func rasterizeSVG(svg []byte, maxW, maxH int) (img *image.NRGBA, err error) {
	if len(svg) > svgLogoMaxBytes {
		return nil, fmt.Errorf("the SVG is larger than %d bytes", svgLogoMaxBytes)
	}
	if maxW < 1 || maxH < 1 {
		return nil, errors.New("no room to draw the SVG")
	}
	if err := drawableSVG(svg); err != nil {
		return nil, err
	}
	// The renderer is not written for hostile input: whatever it panics
	// on is a logo that cannot be drawn, like one over a bound.
	defer func() {
		if p := recover(); p != nil {
			img = nil
			if e, ok := p.(error); ok && errors.Is(e, errLogoTooComplex) {
				err = e
				return
			}
			err = fmt.Errorf("draw the SVG: %v", p)
		}
	}()
	icon, err := oksvg.ReadIconStream(bytes.NewReader(svg))
	if err != nil {
		return nil, fmt.Errorf("read the SVG: %w", err)
	}
	vb := icon.ViewBox
	if !finitePositive(vb.W) || !finitePositive(vb.H) || math.IsNaN(vb.X) || math.IsInf(vb.X, 0) || math.IsNaN(vb.Y) || math.IsInf(vb.Y, 0) {
		return nil, errors.New("the SVG has no usable viewBox, width or height")
	}
	scale := min(float64(maxW)/vb.W, float64(maxH)/vb.H)
	if !finitePositive(scale) {
		return nil, errors.New("the SVG cannot be scaled to fit")
	}
	w := min(max(int(math.Round(vb.W*scale)), 1), maxW)
	h := min(max(int(math.Round(vb.H*scale)), 1), maxH)
	if err := boundSVG(icon, scale, float64(2*(w+h))); err != nil {
		return nil, err
	}
	icon.SetTarget(0, 0, float64(w), float64(h))

	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	scanner := &boundedScanner{ScannerGV: rasterx.NewScannerGV(w, h, canvas, canvas.Bounds())}
	icon.Draw(rasterx.NewDasher(w, h, scanner), 1)

	img = image.NewNRGBA(canvas.Bounds())
	draw.Draw(img, img.Bounds(), canvas, image.Point{}, draw.Src)
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 0 {
			return img, nil
		}
	}
	return nil, errors.New("the SVG draws nothing visible")
}

func finitePositive(f float64) bool { return f > 0 && !math.IsInf(f, 0) && !math.IsNaN(f) }

// svgDrawn are the elements the renderer draws or reads for drawing; an SVG
// with any other is not drawn, as the renderer would leave that part out or
// draw it wrong (text it cannot draw, a clip path as ink).
var svgDrawn = map[string]bool{
	"svg": true, "g": true, "path": true, "rect": true, "circle": true, "ellipse": true, "line": true,
	"polyline": true, "polygon": true, "defs": true, "linearGradient": true, "radialGradient": true,
	"stop": true, "title": true, "desc": true,
}

// drawableSVG reads the SVG once, cheaply, before the renderer does: it
// bounds the elements and refuses what the renderer would not draw as the
// SVG means it.
func drawableSVG(svg []byte) error {
	d := xml.NewDecoder(bytes.NewReader(svg))
	d.Strict = true
	elements := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read the SVG: %w", err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return errors.New("the SVG has a DOCTYPE or entity")
		case xml.StartElement:
			if elements++; elements > svgMaxElements {
				return errLogoTooComplex
			}
			if !svgDrawn[t.Name.Local] {
				return fmt.Errorf("the SVG has a %s element, which is not drawn", t.Name.Local)
			}
			for _, a := range t.Attr {
				if a.Name.Local != "style" {
					if err := shownAsMeant(a.Name.Local, a.Value); err != nil {
						return err
					}
					continue
				}
				for _, decl := range strings.Split(a.Value, ";") {
					name, value, _ := strings.Cut(decl, ":")
					if err := shownAsMeant(strings.TrimSpace(name), value); err != nil {
						return err
					}
				}
			}
		}
	}
}

// shownAsMeant refuses a presentation property the renderer ignores when
// ignoring it would draw what the SVG hides: clipped or hidden parts.
func shownAsMeant(name, value string) error {
	value = strings.ToLower(strings.TrimSpace(value))
	switch name {
	case "clip-path":
		if value != "none" && value != "" {
			return errors.New("the SVG clips, which is not drawn")
		}
	case "display":
		if value == "none" {
			return errors.New("the SVG hides elements, which is not drawn")
		}
	case "visibility":
		if value == "hidden" || value == "collapse" {
			return errors.New("the SVG hides elements, which is not drawn")
		}
	}
	return nil
}

// boundSVG checks what the renderer read against the bounds and puts its
// strokes in pixels: the renderer takes stroke widths and dashes as given,
// in the SVG's units, whatever the scale it draws at. A dash pattern so
// fine it would be drawn in thousands of pieces, or not at all, is drawn
// as a solid line.
func boundSVG(icon *oksvg.SvgIcon, scale, maxStroke float64) error {
	if len(icon.SVGPaths) > svgMaxElements {
		return errLogoTooComplex
	}
	data := 0
	for i := range icon.SVGPaths {
		p := &icon.SVGPaths[i]
		if data += len(p.Path); data > svgMaxPathData {
			return errLogoTooComplex
		}
		p.LineWidth = min(max(finiteOr(p.LineWidth*scale, 0), 0), maxStroke)
		p.MiterLimit = min(max(finiteOr(p.MiterLimit, 4), 1), 100)
		// Paths share their group's pattern: it is scaled into a copy.
		dash, period := make([]float64, 0, len(p.Dash)), 0.0
		for _, v := range p.Dash {
			v *= scale
			if !(v >= 1) || math.IsInf(v, 0) || len(p.Dash) > svgMaxDashes {
				period = 0
				break
			}
			dash = append(dash, v)
			period += v
		}
		if period == 0 {
			p.Dash, p.DashOffset = nil, 0
			continue
		}
		p.Dash = dash
		// An odd pattern repeats twice over; the offset only places it.
		p.DashOffset = math.Mod(finiteOr(p.DashOffset*scale, 0), 2*period)
		if p.DashOffset < 0 {
			p.DashOffset += 2 * period
		}
	}
	for _, g := range icon.Grads {
		if len(g.Stops) > svgMaxStops {
			return errLogoTooComplex
		}
	}
	return nil
}

func finiteOr(f, fallback float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fallback
	}
	return f
}

// boundedScanner is the rasteriser with a budget: past svgMaxSegments line
// segments or svgMaxPaint pixels it panics with errLogoTooComplex, which
// rasterizeSVG recovers. A panic is the one way out of the renderer's loops
// (a stroke outlined in a million dashes, a curve flattened into as many
// lines).
type boundedScanner struct {
	*rasterx.ScannerGV
	segments, paint int
	gradient        bool
}

func (s *boundedScanner) Start(a fixed.Point26_6) {
	s.count()
	s.ScannerGV.Start(a)
}

func (s *boundedScanner) Line(b fixed.Point26_6) {
	s.count()
	s.ScannerGV.Line(b)
}

func (s *boundedScanner) SetColor(c any) {
	_, flat := c.(color.Color)
	s.gradient = !flat
	s.ScannerGV.SetColor(c)
}

func (s *boundedScanner) Draw() {
	cost := s.Dest.Bounds().Dx() * s.Dest.Bounds().Dy()
	if s.gradient {
		cost *= svgGradientCost
	}
	if s.paint += cost; s.paint > svgMaxPaint {
		panic(errLogoTooComplex)
	}
	s.ScannerGV.Draw()
}

func (s *boundedScanner) count() {
	if s.segments++; s.segments > svgMaxSegments {
		panic(errLogoTooComplex)
	}
}
