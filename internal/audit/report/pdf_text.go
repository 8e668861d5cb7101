package report

import (
	"strings"
	"unicode"
)

// The texts of checks and fixes are written with the little Markdown a
// README would use: `code` for a file name, a header or a value, and now
// and then **bold**. The PDF draws them as such, code in the monospace
// font and bold in the bold face, and never shows the marks themselves; a
// mark without its closing partner is dropped.

// codeScale sizes monospace inside running text: Go Mono at the text's
// size looks larger than the proportional face beside it.
const codeScale = 0.92

// piece is a run of one face inside a word, at x from the line's start
// once laid out.
type piece struct {
	text   string
	family string
	x      float64
}

// styledWord is a word of running text: one or more pieces with no space
// between them ("`robots.txt`," is code then a comma).
type styledWord []piece

// inline splits one paragraph into words styled by its Markdown marks,
// base being the face of the text around them.
func inline(para, base string) []styledWord {
	rs := []rune(para)
	// A mark opens a span only when a partner follows it; the last of
	// each mark is found once, so that a text of many marks (a site's
	// title quoted in a finding) takes linear time. Stars inside code are
	// text, never a partner: the second pass follows the code spans as
	// the drawing loop below does.
	lastTick, lastStars := -1, -1
	for i, r := range rs {
		if r == '`' {
			lastTick = i
		}
	}
	for i, inCode := 0, false; i < len(rs); i++ {
		switch {
		case rs[i] == '`':
			if inCode || lastTick > i {
				inCode = !inCode
			}
		case !inCode && rs[i] == '*' && i+1 < len(rs) && rs[i+1] == '*':
			lastStars = i
			i++
		}
	}
	closes := func(i int, mark string) bool {
		if mark == "`" {
			return lastTick > i
		}
		return lastStars > i+1
	}
	var words []styledWord
	var cur styledWord
	var buf strings.Builder
	code, bold := false, false
	face := func() string {
		switch {
		case code:
			return fontMono
		case bold && base == fontRegular:
			return fontBold
		}
		return base
	}
	flushPiece := func() {
		if buf.Len() == 0 {
			return
		}
		f := face()
		if n := len(cur); n > 0 && cur[n-1].family == f {
			cur[n-1].text += buf.String()
		} else {
			cur = append(cur, piece{text: buf.String(), family: f})
		}
		buf.Reset()
	}
	flushWord := func() {
		flushPiece()
		if len(cur) > 0 {
			words = append(words, cur)
			cur = nil
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '`':
			flushPiece()
			if code || closes(i, "`") {
				code = !code
			}
		case !code && r == '*' && i+1 < len(rs) && rs[i+1] == '*':
			flushPiece()
			if bold || closes(i, "**") {
				bold = !bold
			}
			i++
		case unicode.IsSpace(r):
			flushWord()
		default:
			buf.WriteRune(r)
		}
	}
	flushWord()
	return words
}

// measure is the width of s in a face at the current size, in millimetres.
func (d *doc) measure(family, s string) float64 {
	size := d.size
	if family == fontMono && d.family != fontMono {
		size *= codeScale
	}
	return d.measureAt(family, size, s)
}

// layout breaks s, with its Markdown, into lines of pieces no wider than w
// in the current font; newlines start new lines and a word wider than w is
// broken between characters.
func (d *doc) layout(s string, w float64) [][]piece {
	if !d.eng {
		s = forClients(s)
	}
	s = d.drawable(s)
	base := d.family
	space := d.measure(base, " ")
	var lines [][]piece
	for _, para := range strings.Split(s, "\n") {
		var line []piece
		var lineW float64
		flush := func() {
			lines = append(lines, line)
			line, lineW = nil, 0
		}
		place := func(word styledWord, at float64) {
			for _, p := range word {
				p.x = at
				line = append(line, p)
				at += d.measure(p.family, p.text)
			}
		}
		for _, word := range inline(para, base) {
			ww := 0.0
			for _, p := range word {
				ww += d.measure(p.family, p.text)
			}
			if ww > w {
				// An over-long word (a URL) is broken at the last
				// character that fits, on lines of its own.
				if len(line) > 0 {
					flush()
				}
				for _, p := range word {
					for _, r := range p.text {
						cw := d.measure(p.family, string(r))
						if lineW > 0 && lineW+cw > w {
							flush()
						}
						if n := len(line); n > 0 && line[n-1].family == p.family {
							line[n-1].text += string(r)
						} else {
							line = append(line, piece{text: string(r), family: p.family, x: lineW})
						}
						lineW += cw
					}
				}
				continue
			}
			switch {
			case len(line) == 0:
				place(word, 0)
				lineW = ww
			case lineW+space+ww <= w:
				place(word, lineW+space)
				lineW += space + ww
			default:
				flush()
				place(word, 0)
				lineW = ww
			}
		}
		if len(line) > 0 || len(lines) == 0 {
			flush()
		}
	}
	return lines
}

// drawLine draws one laid-out line at (x, y) and leaves the current font
// as it was.
func (d *doc) drawLine(x, y float64, line []piece) {
	base, size := d.family, d.size
	for _, p := range line {
		sz := size
		if p.family == fontMono && base != fontMono {
			sz *= codeScale
		}
		if p.family != d.family || sz != d.size {
			d.font(p.family, sz)
		}
		// Smaller monospace sits on the same baseline as the text.
		d.text(x+p.x, y+(size-sz)*ptToMM*0.8, p.text)
	}
	if d.family != base || d.size != size {
		d.font(base, size)
	}
}
