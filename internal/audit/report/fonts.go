package report

import (
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/unicode/norm"
)

// The PDF embeds the Go fonts (golang.org/x/image/font/gofont, BSD
// licensed, WGL4 coverage): Latin with its accents, Greek and Cyrillic,
// plus the punctuation and symbols reports use. Chinese, Japanese and
// Korean are drawn in a fallback font read from the system (cjk.go), run by
// run, so Latin text keeps the Go fonts. Other scripts the fonts lack
// (Arabic, Hebrew, Devanagari, Thai, emoji …) are drawn as U+FFFD, the
// visible replacement character, one per run of missing characters, so a
// site title in any script renders without breaking the document.

// Font families registered in every document.
const (
	fontRegular = "regular"
	fontBold    = "bold"
	fontMono    = "mono"
)

var fontData = []struct {
	family string
	ttf    []byte
}{
	{fontRegular, goregular.TTF}, {fontBold, gobold.TTF}, {fontMono, gomono.TTF},
}

// replacement stands for a character no embedded font has.
const replacement = '\uFFFD'

// covered is the set of characters every embedded font can draw, read
// once from the fonts' character maps.
var covered = sync.OnceValue(func() map[rune]bool {
	var set map[rune]bool
	var buf sfnt.Buffer
	for _, f := range fontData {
		font, err := sfnt.Parse(f.ttf)
		if err != nil {
			panic("report: parse embedded font " + f.family + ": " + err.Error())
		}
		has := map[rune]bool{}
		for r := rune(0x20); r < 0x3000; r++ {
			if g, err := font.GlyphIndex(&buf, r); err == nil && g != 0 {
				has[r] = true
			}
		}
		for _, r := range []rune{replacement} {
			if g, err := font.GlyphIndex(&buf, r); err == nil && g != 0 {
				has[r] = true
			}
		}
		if set == nil {
			set = has
			continue
		}
		for r := range set {
			if !has[r] {
				delete(set, r)
			}
		}
	}
	return set
})

// lookalikes are characters the fonts lack that the texts use, and the
// character drawn for each: a menu's "more" button (⋯) is an ellipsis.
var lookalikes = map[rune]rune{'⋯': '…', '⋮': '…', '−': '-', '‑': '-'}

// drawable returns s as the fonts can draw it: whitespace becomes a plain
// space (newlines are kept), other control and format characters are
// dropped, a character the fonts lack with a lookalike becomes that, and
// each run of other characters the fonts lack becomes one U+FFFD. Chinese,
// Japanese and Korean characters are kept for the document to draw in its
// CJK font or mark (doc.drawable).
func drawable(s string) string {
	set := covered()
	var b strings.Builder
	b.Grow(len(s))
	lastReplaced := false
	for _, r := range norm.NFC.String(s) {
		switch {
		case r == '\n':
			b.WriteRune(r)
			lastReplaced = false
			continue
		case unicode.IsSpace(r):
			r = ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Mn, r) && !set[r]:
			// Zero-width and combining marks the fonts lack would only
			// add replacement characters inside a word.
			continue
		}
		if l, ok := lookalikes[r]; ok && !set[r] {
			r = l
		}
		if !set[r] && !isCJK(r) {
			if !lastReplaced {
				b.WriteRune(replacement)
			}
			lastReplaced = true
			continue
		}
		b.WriteRune(r)
		lastReplaced = false
	}
	return b.String()
}
