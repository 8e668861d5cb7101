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
	"slices"
	"strings"

	"github.com/fyne-io/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
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
	svgMaxPaint     = 40_000_000
	svgGradientCost = 12
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
	icon.Draw(rasterx.NewDasher(w, h, newBoundedScanner(canvas)), 1)

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

// boundedScanner is the rasteriser (golang.org/x/image/vector, as
// rasterx's ScannerGV uses it) with a budget and a clip.
//
// The budget: past svgMaxSegments line segments or svgMaxPaint pixels it
// panics with errLogoTooComplex, which rasterizeSVG recovers. A panic is
// the one way out of the renderer's loops (a stroke outlined in a million
// dashes, a curve flattened into as many lines).
//
// The clip is for the rasteriser's loops, which walk every row from a
// segment's top and every column of its span in a row: one segment far
// outside the image (2^25 pixels is within reach) would cost millions of
// steps. The rasteriser sums each segment's signed coverage row by row, so
// what lies above or below the image is dropped without changing a pixel,
// and what lies left or right of it is moved onto the column just outside,
// where its coverage lands the same. Each shape is then rasterised over its
// own bounding box, not the whole image, so that many small shapes cost
// what they cover.
type boundedScanner struct {
	dst  *image.RGBA
	w, h float64
	r    vector.Rasterizer
	src  image.Image
	// gradient is whether src is a gradient, painted pixel by pixel.
	gradient bool
	pen      fixed.Point26_6
	// extent is the path's as given, which a gradient spans.
	extent fixed.Rectangle26_6
	// pieces are the clipped segments of the path, x0 y0 x1 y1 in pixels.
	pieces          []float32
	segments, paint int
}

var _ rasterx.Scanner = (*boundedScanner)(nil)

func newBoundedScanner(dst *image.RGBA) *boundedScanner {
	b := dst.Bounds()
	s := &boundedScanner{dst: dst, w: float64(b.Dx()), h: float64(b.Dy()), src: image.Opaque}
	s.Clear()
	return s
}

func (s *boundedScanner) Start(a fixed.Point26_6) {
	s.count()
	s.pen = a
	s.grow(a)
}

func (s *boundedScanner) Line(b fixed.Point26_6) {
	s.count()
	a := s.pen
	s.pen = b
	s.grow(b)
	s.clip(float64(a.X)/64, float64(a.Y)/64, float64(b.X)/64, float64(b.Y)/64)
}

// clip keeps the part of the segment from (ax, ay) to (bx, by), in pixels,
// that can change a pixel: up to three pieces.
func (s *boundedScanner) clip(ax, ay, bx, by float64) {
	if ay == by || (ay <= 0 && by <= 0) || (ay >= s.h && by >= s.h) {
		return // no coverage in any row of the image
	}
	for _, edge := range [2]float64{0, s.h} {
		if (ay < edge) == (by < edge) || ay == edge || by == edge {
			continue
		}
		x := ax + (bx-ax)*(edge-ay)/(by-ay)
		if (ay < edge) == (edge == 0) {
			ax, ay = x, edge
		} else {
			bx, by = x, edge
		}
	}
	lo, hi := -1.0, s.w+1
	cuts := []float64{0, 1}
	for _, edge := range [2]float64{lo, hi} {
		if (ax < edge) != (bx < edge) {
			cuts = append(cuts, (edge-ax)/(bx-ax))
		}
	}
	slices.Sort(cuts)
	for i := 1; i < len(cuts); i++ {
		x0, y0 := ax+(bx-ax)*cuts[i-1], ay+(by-ay)*cuts[i-1]
		x1, y1 := ax+(bx-ax)*cuts[i], ay+(by-ay)*cuts[i]
		if mid := (x0 + x1) / 2; mid < lo {
			x0, x1 = lo, lo
		} else if mid > hi {
			x0, x1 = hi, hi
		}
		s.count()
		s.pieces = append(s.pieces, float32(x0), float32(y0), float32(x1), float32(y1))
	}
}

// Draw paints the path's pieces over their bounding box.
func (s *boundedScanner) Draw() {
	if len(s.pieces) == 0 {
		return
	}
	minX, minY, maxX, maxY := s.pieces[0], s.pieces[1], s.pieces[0], s.pieces[1]
	for i := 0; i < len(s.pieces); i += 2 {
		minX, maxX = min(minX, s.pieces[i]), max(maxX, s.pieces[i])
		minY, maxY = min(minY, s.pieces[i+1]), max(maxY, s.pieces[i+1])
	}
	box := image.Rect(int(math.Floor(float64(minX))), int(math.Floor(float64(minY))),
		int(math.Ceil(float64(maxX))), int(math.Ceil(float64(maxY)))).Intersect(s.dst.Bounds())
	if box.Empty() {
		return
	}
	cost := box.Dx() * box.Dy()
	if s.gradient {
		cost *= svgGradientCost
	}
	if s.paint += cost; s.paint > svgMaxPaint {
		panic(errLogoTooComplex)
	}
	s.r.Reset(box.Dx(), box.Dy())
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	for i := 0; i < len(s.pieces); i += 4 {
		s.r.MoveTo(s.pieces[i]-ox, s.pieces[i+1]-oy)
		s.r.LineTo(s.pieces[i+2]-ox, s.pieces[i+3]-oy)
	}
	s.r.Draw(s.dst, box, s.src, box.Min)
}

func (s *boundedScanner) grow(p fixed.Point26_6) {
	s.extent.Min.X, s.extent.Min.Y = min(s.extent.Min.X, p.X), min(s.extent.Min.Y, p.Y)
	s.extent.Max.X, s.extent.Max.Y = max(s.extent.Max.X, p.X), max(s.extent.Max.Y, p.Y)
}

// GetPathExtent is the extent of the path as given, not as clipped: a
// gradient spans the shape's bounding box.
func (s *boundedScanner) GetPathExtent() fixed.Rectangle26_6 { return s.extent }

func (s *boundedScanner) Clear() {
	const most = fixed.Int26_6(math.MaxInt32)
	s.extent = fixed.Rectangle26_6{Min: fixed.Point26_6{X: most, Y: most}, Max: fixed.Point26_6{X: -most, Y: -most}}
	s.pieces = s.pieces[:0]
}

// SetBounds is the image's size, which is fixed.
func (s *boundedScanner) SetBounds(int, int) {}

// SetWinding does nothing: the rasteriser fills by the non-zero rule only,
// as rasterx's own scanner on it does.
func (s *boundedScanner) SetWinding(bool) {}

// SetClip does nothing: the renderer clips nothing.
func (s *boundedScanner) SetClip(image.Rectangle) {}

func (s *boundedScanner) SetColor(c any) {
	switch c := c.(type) {
	case color.Color:
		s.src, s.gradient = image.NewUniform(c), false
	case rasterx.ColorFunc:
		s.src, s.gradient = colorFuncImage(c), true
	}
}

func (s *boundedScanner) count() {
	if s.segments++; s.segments > svgMaxSegments {
		panic(errLogoTooComplex)
	}
}

// colorFuncImage is a gradient as an image of the whole plane.
type colorFuncImage rasterx.ColorFunc

func (colorFuncImage) ColorModel() color.Model { return color.RGBAModel }

func (colorFuncImage) Bounds() image.Rectangle {
	return image.Rect(-1<<30, -1<<30, 1<<30, 1<<30)
}

func (f colorFuncImage) At(x, y int) color.Color { return f(x, y) }
