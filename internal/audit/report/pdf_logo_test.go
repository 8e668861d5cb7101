package report

import (
	"fmt"
	"image"
	"image/color"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fyne-io/oksvg"
	"github.com/srwiley/rasterx"
	"github.com/stretchr/testify/require"
)

func TestRasterizeSVG(t *testing.T) {
	t.Parallel()
	const w, h = 600, 168
	logo := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 28" width="400px" height="112px">
<rect x="0" y="0" width="28" height="28" fill="#0a7c59"/>
<circle cx="64" cy="14" r="10" fill="none" stroke="#c00000" stroke-width="4"/>
<path d="M80 2 L98 2 L98 26 Z" style="fill:#123456"/>
</svg>`
	img, err := rasterizeSVG([]byte(logo), w, h)
	require.NoError(t, err)
	require.Equal(t, w, img.Bounds().Dx(), "as wide as the box allows")
	require.Equal(t, h, img.Bounds().Dy())
	require.Equal(t, color.NRGBA{0x0a, 0x7c, 0x59, 0xff}, img.NRGBAAt(84, 84), "the square, filled")
	require.Equal(t, uint8(0), img.NRGBAAt(384, 84).A, "the circle's inside, not filled")
	// The stroke is 4 units of 6 pixels: its middle is solid red.
	require.Equal(t, color.NRGBA{0xc0, 0, 0, 0xff}, img.NRGBAAt(384, 84-60))
	require.Equal(t, color.NRGBA{0x12, 0x34, 0x56, 0xff}, img.NRGBAAt(580, 30))

	// A tall logo keeps its proportions.
	img, err = rasterizeSVG([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="40"><rect width="10" height="40"/></svg>`), w, h)
	require.NoError(t, err)
	require.Equal(t, 42, img.Bounds().Dx())
	require.Equal(t, h, img.Bounds().Dy())

	for name, svg := range map[string]string{
		"no size":      `<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`,
		"text":         `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="1" height="1"/><text>Acme</text></svg>`,
		"clipped":      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" clip-path="url(#c)"/></svg>`,
		"hidden":       `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" style="fill:red; display : none"/></svg>`,
		"invisible":    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="none"/></svg>`,
		"not xml":      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect>`,
		"negative box": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 -10 10"><rect width="10" height="10"/></svg>`,
		"use":          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><g id="a"><use href="#a"/></g></defs><use href="#a"/></svg>`,
	} {
		img, err := rasterizeSVG([]byte(svg), w, h)
		require.Error(t, err, name)
		require.Nil(t, img, name)
	}
}

// The clip changes no pixel: shapes reaching far outside the image are
// drawn as the rasteriser draws them unclipped.
func TestBoundedScannerClipsExactly(t *testing.T) {
	t.Parallel()
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 28">
<path d="M-300 -200 L400 14 L-250 300 Z" fill="#0a7c59"/>
<path d="M50 -900 C 900 40 -800 40 60 900" fill="none" stroke="#c00000" stroke-width="3" stroke-dasharray="7 3"/>
<circle cx="90" cy="30" r="25" fill="#123456" fill-opacity="0.5" fill-rule="evenodd"/>
<rect x="-1000" y="10" width="3000" height="2" fill="#000"/>
</svg>`
	draw := func(clip bool) *image.RGBA {
		icon, err := oksvg.ReadIconStream(strings.NewReader(svg))
		require.NoError(t, err)
		const w, h = 600, 168
		icon.SetTarget(0, 0, w, h)
		require.NoError(t, boundSVG(icon, 6, 2*(w+h)))
		canvas := image.NewRGBA(image.Rect(0, 0, w, h))
		var scanner rasterx.Scanner = rasterx.NewScannerGV(w, h, canvas, canvas.Bounds())
		if clip {
			scanner = newBoundedScanner(canvas)
		}
		icon.Draw(rasterx.NewDasher(w, h, scanner), 1)
		return canvas
	}
	want, got := draw(false), draw(true)
	// The rasteriser rounds a small box in fixed point and a large one in
	// floating point: an edge pixel may differ by a few levels.
	worst := 0
	for i := range want.Pix {
		worst = max(worst, int(want.Pix[i])-int(got.Pix[i]), int(got.Pix[i])-int(want.Pix[i]))
	}
	require.LessOrEqual(t, worst, 4, "the largest difference of a channel")
	require.NotZero(t, got.RGBAAt(5, 84).A, "the triangle covers the left edge")
}

// hostileSVGs are logos made to be expensive to draw; each must cost
// little and either draw within the box or fail.
func hostileSVGs() map[string]string {
	const head = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 28">`
	repeat := func(n int, format string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		b.WriteString("</svg>")
		return b.String()
	}
	stops := strings.Repeat(`<stop offset="0.5" stop-color="#f00"/>`, 60)
	return map[string]string{
		"huge size":         `<svg xmlns="http://www.w3.org/2000/svg" width="1e300" height="1e300"><rect width="1e300" height="1e300"/></svg>`,
		"tiny size":         `<svg xmlns="http://www.w3.org/2000/svg" width="1e-300" height="1e-300"><rect width="1" height="1"/></svg>`,
		"thin":              `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e9 1"><rect width="1e9" height="1"/></svg>`,
		"too many elements": repeat(5000, `<rect x="%d" width="100" height="28"/>`),
		"full-cover layers": repeat(1900, `<rect width="100" height="28" fill="#%06x" stroke="#000" stroke-width="1"/>`),
		"gradient layers": head + `<defs><linearGradient id="g">` + stops + `</linearGradient></defs>` +
			strings.Repeat(`<rect width="100" height="28" fill="url(#g)" stroke="url(#g)"/>`, 1500) + "</svg>",
		"fine dashes":   head + `<path d="M0 14 L100000000 14" stroke="#000" stroke-dasharray="0.0001" stroke-dashoffset="1e300"/></svg>`,
		"many dashes":   repeat(200, `<path d="M0 %d L10000000 14 L0 20" stroke="#000" stroke-width="2" stroke-dasharray="1 1" stroke-dashoffset="-1e12"/>`),
		"long pattern":  head + `<path d="M0 14 L1000000 14" stroke="#000" stroke-dasharray="` + strings.Repeat("2 ", 20000) + `"/></svg>`,
		"wild curves":   repeat(1500, `<path d="M0 0 C 1e9 1e9 -1e9 1e9 %d 28 S -1e9 -1e9 1e9 1e9 Z" stroke="#000" stroke-width="1e9" stroke-linejoin="round"/>`),
		"wild arcs":     repeat(1500, `<path d="M0 0 A 1e-9 1e12 %d 1 1 100 28 a 1 1 0 1 0 1e30 1e30"/>`),
		"huge scale":    repeat(500, `<g transform="scale(1e30) rotate(%d)"><circle r="1e30" stroke="#000" stroke-width="1e30" stroke-dasharray="1e-30"/></g>`),
		"nested":        head + strings.Repeat(`<g transform="scale(2)">`, 60) + `<rect width="1" height="1"/>` + strings.Repeat(`</g>`, 60) + `</svg>`,
		"points":        head + `<polyline stroke="#000" points="` + strings.Repeat("0,0 100,28 ", 12000) + `"/></svg>`,
		"nan and inf":   head + `<rect width="NaN" height="Inf"/><circle r="1e400"/><path d="M0 0 L NaN Inf" stroke-width="NaN" stroke-miterlimit="Inf"/></svg>`,
		"oversize file": head + strings.Repeat(" ", svgLogoMaxBytes) + `<rect width="1" height="1"/></svg>`,
	}
}

// Not parallel: the allocations counted are the whole process's.
func TestRasterizeHostileSVG(t *testing.T) {
	for name, svg := range hostileSVGs() {
		var img *image.NRGBA
		var err error
		start := time.Now()
		alloc := allocatedBy(func() {
			img, err = rasterizeSVG([]byte(svg), 600, 168)
		})
		// The canvas and its copy are 800 KB; the rest is the parse.
		require.Less(t, alloc, uint64(64<<20), "%s allocated %d bytes", name, alloc)
		if err == nil {
			require.LessOrEqual(t, img.Bounds().Dx(), 600, name)
			require.LessOrEqual(t, img.Bounds().Dy(), 168, name)
		}
		t.Logf("%s: %d KiB in %s: %v", name, alloc>>10, time.Since(start).Round(time.Millisecond), err)
	}
}

// allocatedBy is the bytes fn allocated, all goroutines counted.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
