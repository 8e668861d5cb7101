package report_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// A branded PDF names the organization, not GeoScan, as its author, shows
// its logo on the cover and its contact and footer on every page, and
// mentions GeoScan only when the brand lets it.
func TestRenderPDFWithBrand(t *testing.T) {
	t.Parallel()
	site := built(t, testsite.Bakery, "")
	r := site.report.For(scoring.Marketing)
	d := site.dossier.For(scoring.Marketing)

	// 16 bits a channel, which the PDF library cannot embed as it is.
	img := image.NewRGBA64(image.Rect(0, 0, 60, 20))
	for x := range 60 {
		img.Set(x, 10, color.RGBA{R: 200, A: 255})
	}
	var logo bytes.Buffer
	require.NoError(t, png.Encode(&logo, img))
	brand := report.Brand{
		Name: "Acme Agency", PrimaryColor: "#0a7c59", Logo: logo.Bytes(), LogoType: "image/png",
		Contact: "hello@acme.example", Footer: "Prepared for Millbrook by Acme", HideGeoScan: true,
	}
	render := func(b report.Brand) []byte {
		var buf bytes.Buffer
		require.NoError(t, report.RenderPDFWith(&buf, r, &d, report.PDFOptions{Brand: b}))
		return buf.Bytes()
	}

	hidden := render(brand)
	text := pdfText(t, hidden)
	require.Contains(t, text, "GEO audit report · by Acme Agency")
	require.Contains(t, text, "hello@acme.example · Prepared for Millbrook by Acme")
	require.Contains(t, text, "Acme Agency made ")
	// Findings may name GeoScan (a check's evidence says what this server
	// could not measure); what the PDF itself says does not.
	requireAbsent(t, text, "Made with GeoScan")
	requireAbsent(t, text, "GeoScan made")
	require.Equal(t, pdfPages(t, hidden), strings.Count(text, "Prepared for Millbrook by Acme"), "on every page")
	require.Equal(t, 1, pdfImages(t, hidden), "the logo")

	brand.HideGeoScan = false
	require.Contains(t, pdfText(t, render(brand)), "Made with GeoScan")

	// An SVG logo is drawn into an image like a PNG one.
	brand.Logo, brand.LogoType = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10"><rect width="10" height="10" fill="#0a7c59"/><circle cx="30" cy="5" r="5"/></svg>`), "image/svg+xml"
	require.Equal(t, 1, pdfImages(t, render(brand)), "the SVG logo")
	// One that cannot be drawn as it means (here, text) leaves the name.
	brand.Logo = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10"><text>Acme</text></svg>`)
	svg := render(brand)
	require.Equal(t, 0, pdfImages(t, svg))
	require.Contains(t, pdfText(t, svg), "Acme Agency")

	var plain bytes.Buffer
	require.NoError(t, report.RenderPDF(&plain, r, &d))
	requireAbsent(t, pdfText(t, plain.Bytes()), "Made with GeoScan")
	requireAbsent(t, pdfText(t, plain.Bytes()), "· by ")
}

// pdfImages counts the images pdfimages lists.
func pdfImages(t testing.TB, pdf []byte) int {
	t.Helper()
	requirePoppler(t)
	path := filepath.Join(t.TempDir(), "report.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(t.Context(), "pdfimages", "-list", path).Output()
	require.NoError(t, err, "pdfimages")
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	n := 0
	for _, l := range lines[2:] {
		// An image with an alpha channel lists its soft mask as a second row.
		if f := strings.Fields(l); len(f) > 2 && f[2] == "image" {
			n++
		}
	}
	return n
}
