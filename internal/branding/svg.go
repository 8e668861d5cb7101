package branding

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
)

// svgElements are the elements a logo keeps; any other is dropped with
// everything inside it.
var svgElements = set("svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
	"text", "tspan", "defs", "linearGradient", "radialGradient", "stop", "clipPath", "title", "desc")

// drawing are the elements that put ink on the page.
var drawing = set("path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan")

// hasText are the elements whose character data is kept.
var hasText = set("text", "tspan", "title", "desc")

// svgAttributes are geometry and presentation attributes: none of them runs
// code or loads anything, once url() values are limited to "#id".
var svgAttributes = set(
	"id", "class", "viewBox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r",
	"rx", "ry", "fx", "fy", "fr", "dx", "dy", "d", "points", "transform", "version", "preserveAspectRatio",
	"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
	"stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity",
	"clip-path", "clip-rule", "clipPathUnits", "color", "display", "visibility", "font-family",
	"font-size", "font-weight", "font-style", "font-variant", "text-anchor", "dominant-baseline",
	"alignment-baseline", "baseline-shift", "letter-spacing", "word-spacing", "text-decoration",
	"writing-mode", "offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform",
	"spreadMethod", "vector-effect", "shape-rendering", "paint-order", "rotate", "textLength",
	"lengthAdjust", "style", "href",
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// localURL is the one url() a value may hold: a reference inside the document.
var localURL = regexp.MustCompile(`^\s*url\(\s*#[A-Za-z0-9_.:-]+\s*\)\s*$`)

// maxSVGDepth bounds nesting, which nothing in a logo needs deep.
const maxSVGDepth = 64

// SanitizeSVG rebuilds an SVG from what is safe in it: the allow-listed
// elements, their presentation attributes, and the text of text elements.
// Scripts, event handlers, foreignObject, images, style elements, links
// outside the document and url() to anything but "#id" are dropped. A
// DOCTYPE or entity is an error, as is an SVG that has nothing left to draw.
func SanitizeSVG(in []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(in))
	d.Strict = true
	var (
		out      bytes.Buffer
		open     []string // kept elements open, innermost last
		skip     int      // depth inside a dropped element
		depth    int
		rootSeen bool
		drawn    int
		defs     int // depth inside defs or clipPath, where shapes do not draw
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML (%w)", err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, errors.New("a DOCTYPE or entity declaration is not allowed")
		case xml.StartElement:
			depth++
			if depth > maxSVGDepth {
				return nil, errors.New("elements are nested too deeply")
			}
			if rootSeen && depth == 1 {
				return nil, errors.New("there is more than one root element")
			}
			if !rootSeen {
				rootSeen = true
				if t.Name.Local != "svg" || (t.Name.Space != "" && t.Name.Space != svgNS) {
					return nil, errors.New("the root element is not svg")
				}
			}
			if skip > 0 || !svgElements[t.Name.Local] || (t.Name.Space != "" && t.Name.Space != svgNS) {
				skip++
				continue
			}
			name := t.Name.Local
			out.WriteString("<" + name)
			if len(open) == 0 {
				out.WriteString(` xmlns="` + svgNS + `" xmlns:xlink="` + xlinkNS + `"`)
			}
			for _, a := range t.Attr {
				if n, ok := attrName(a.Name); ok && attrValueSafe(n, a.Value) {
					out.WriteString(" " + n + `="`)
					_ = xml.EscapeText(&out, []byte(a.Value))
					out.WriteString(`"`)
				}
			}
			out.WriteString(">")
			open = append(open, name)
			if name == "defs" || name == "clipPath" {
				defs++
			}
			if drawing[name] && defs == 0 {
				drawn++
			}
		case xml.EndElement:
			depth--
			if skip > 0 {
				skip--
				continue
			}
			name := open[len(open)-1]
			open = open[:len(open)-1]
			if name == "defs" || name == "clipPath" {
				defs--
			}
			out.WriteString("</" + name + ">")
		case xml.CharData:
			if skip == 0 && len(open) > 0 && hasText[open[len(open)-1]] {
				_ = xml.EscapeText(&out, t)
			}
		}
		// Comments and processing instructions are left out.
	}
	if !rootSeen {
		return nil, errors.New("there is no svg element")
	}
	if drawn == 0 {
		return nil, errors.New("nothing drawable is left once unsafe parts are removed")
	}
	return out.Bytes(), nil
}

// attrName is the name an allowed attribute is written with.
func attrName(n xml.Name) (string, bool) {
	switch {
	case n.Space == "" && svgAttributes[n.Local]:
		return n.Local, true
	case n.Space == xlinkNS && n.Local == "href":
		return "xlink:href", true
	}
	// Namespace declarations are written once on the root; everything else,
	// on* handlers included, is not on the list.
	return "", false
}

// attrValueSafe refuses values that reach outside the document or run code.
func attrValueSafe(name, v string) bool {
	lower := strings.ToLower(v)
	if strings.Contains(lower, "javascript:") || strings.Contains(lower, "data:") {
		return false
	}
	switch name {
	case "href", "xlink:href":
		return strings.HasPrefix(v, "#")
	case "style":
		// CSS escapes could spell url( or expression( in a way a plain
		// search misses, so a style with a backslash is dropped too.
		return !strings.Contains(lower, "url(") && !strings.Contains(lower, "expression") &&
			!strings.Contains(lower, "@import") && !strings.Contains(v, `\`)
	}
	if strings.Contains(lower, "url(") {
		return localURL.MatchString(v)
	}
	return true
}
