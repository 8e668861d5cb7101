package branding_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/branding"
)

func pngURI(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 10, G: 124, B: 89, A: 255})
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

func svgURI(s string) string {
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(s))
}

func requireField(t *testing.T, err error, param string) {
	t.Helper()
	var fe *branding.FieldError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, param, fe.Param)
}

func TestCheck(t *testing.T) {
	t.Parallel()
	org := uuid.New()
	b, err := branding.Check(org, branding.Input{
		Name: "  Acme Agency ", PrimaryColor: "#0A7C59", Logo: pngURI(t, 40, 20),
		Contact: "hello@acme.example", Footer: "Prepared by Acme", ShowGeoScan: false,
	})
	require.NoError(t, err)
	require.Equal(t, "Acme Agency", b.Name)
	require.Equal(t, "#0a7c59", b.PrimaryColor)
	require.Equal(t, branding.TypePNG, b.LogoType)
	require.Equal(t, org, b.OrgID)
	svg, err := branding.Check(org, branding.Input{Logo: "data:image/SVG+xml;charset=utf-8;base64," +
		base64.StdEncoding.EncodeToString([]byte(`<svg><circle r="1"/></svg>`))})
	require.NoError(t, err)
	require.Equal(t, branding.TypeSVG, svg.LogoType)
	brand := branding.Brand(b)
	require.True(t, brand.HideGeoScan)
	require.Equal(t, "Acme Agency", brand.Name)

	for _, c := range []struct {
		in    branding.Input
		param string
	}{
		{branding.Input{Name: strings.Repeat("é", 101)}, "name"},
		{branding.Input{Contact: strings.Repeat("a", 201)}, "contact"},
		{branding.Input{Footer: strings.Repeat("a", 301)}, "footer"},
		{branding.Input{Footer: "two\nlines"}, "footer"},
		{branding.Input{PrimaryColor: "red"}, "primary_color"},
		{branding.Input{PrimaryColor: "#12345g"}, "primary_color"},
		{branding.Input{Logo: "aGVsbG8="}, "logo"},
		{branding.Input{Logo: "data:image/png;base64,aGVsbG8="}, "logo"},
		{branding.Input{Logo: "data:image/gif;base64,R0lGODlhAQABAAAAACw="}, "logo"},
		{branding.Input{Logo: "data:image/png;base64,@@@"}, "logo"},
		{branding.Input{Logo: pngURI(t, 2001, 1)}, "logo"},
		{branding.Input{Logo: svgURI("<svg><script>alert(1)</script></svg>")}, "logo"},
		{branding.Input{Logo: svgURI("not xml")}, "logo"},
	} {
		_, err := branding.Check(org, c.in)
		requireField(t, err, c.param)
	}

	big := make([]byte, branding.MaxLogoBytes+1)
	_, err = branding.Check(org, branding.Input{Logo: "data:image/png;base64," + base64.StdEncoding.EncodeToString(big)})
	requireField(t, err, "logo")
	require.Contains(t, err.Error(), "256 KiB")
}

func TestSanitizeSVGKeepsDrawing(t *testing.T) {
	t.Parallel()
	in := `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
  <title>Acme &amp; Co</title>
  <rect width="10" height="10" fill="url(#g)"/>
  <text x="1" y="9" font-size="4">A&lt;B</text>
</svg>`
	out, err := branding.SanitizeSVG([]byte(in))
	require.NoError(t, err)
	s := string(out)
	require.Contains(t, s, `<rect width="10" height="10" fill="url(#g)"></rect>`)
	require.Contains(t, s, `<title>Acme &amp; Co</title>`)
	require.Contains(t, s, `>A&lt;B</text>`)
	require.Contains(t, s, `<svg xmlns="http://www.w3.org/2000/svg"`)
	// What comes out goes in again unchanged: it is its own sanitised form.
	again, err := branding.SanitizeSVG(out)
	require.NoError(t, err)
	require.Equal(t, s, string(again))
}

func TestSanitizeSVGDropsWhatIsHostile(t *testing.T) {
	t.Parallel()
	in := `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
  <script>alert(2)</script>
  <style>rect { fill: url(https://evil.example/x) }</style>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
  <image href="https://evil.example/track.png"/>
  <a href="https://evil.example/"><rect width="1" height="1"/></a>
  <use xlink:href="https://evil.example/s.svg#x"/>
  <linearGradient id="g" xlink:href="https://evil.example/g.svg#a"/>
  <linearGradient id="h" xlink:href="#g"/>
  <rect width="5" height="5" onclick="alert(3)" style="fill:url(https://evil.example/p)"/>
  <circle r="2" fill="url(https://evil.example/f)" stroke="javascript:alert(4)" style="fill: red"/>
</svg>`
	out, err := branding.SanitizeSVG([]byte(in))
	require.NoError(t, err)
	s := string(out)
	gone := []string{
		"script", "alert", "onload", "onclick", "style>", "foreignObject", "div",
		"image", "<a", "<use", "evil.example", "javascript",
	}
	for _, gone := range gone {
		require.NotContains(t, s, gone)
	}
	require.Contains(t, s, `<linearGradient id="h" xlink:href="#g">`)
	require.Contains(t, s, `<rect width="5" height="5"></rect>`)
	require.Contains(t, s, `<circle r="2" style="fill: red"></circle>`)
}

func TestSanitizeSVGRefuses(t *testing.T) {
	t.Parallel()
	for name, in := range map[string]string{
		"doctype":       `<!DOCTYPE svg [<!ENTITY x "boom">]><svg><rect width="1" height="1"/></svg>`,
		"entity":        `<svg><text>&x;</text></svg>`,
		"not svg":       `<html><rect width="1" height="1"/></html>`,
		"nothing drawn": `<svg><script>1</script><foreignObject><rect/></foreignObject></svg>`,
		"only defs":     `<svg><defs><rect width="1" height="1"/></defs></svg>`,
		"two roots":     `<svg><rect/></svg><svg><rect/></svg>`,
		"empty":         ``,
		"broken":        `<svg><rect></svg>`,
	} {
		_, err := branding.SanitizeSVG([]byte(in))
		require.Error(t, err, name)
	}
}
