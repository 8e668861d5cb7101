package report

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Chinese, Japanese and Korean need a font of tens of thousands of glyphs,
// megabytes the binary does not carry: the PDF reads one from the system,
// WenQuanYi Micro Hei by default (Debian's fonts-wqy-microhei, Apache
// licensed, Han, kana and Hangul), a TrueType font with glyf outlines, which
// the PDF library embeds as a subset of the characters drawn; the first
// font of a collection (.ttc) is taken out of it. It is registered only in
// a document that has such characters. Without it they are drawn as one
// marker per run and the cover says the font is not installed.

// DefaultCJKFont is where Debian and Ubuntu install the CJK font.
const DefaultCJKFont = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"

// CJKFontInstall installs the default CJK font (Debian, Ubuntu).
const CJKFontInstall = "apt-get install fonts-wqy-microhei"

// cjkMarker stands for a run of CJK characters when no CJK font is
// installed.
const cjkMarker = '□'

// fontCJK is the CJK font's family in a document.
const fontCJK = "cjk"

// isCJK says whether r is written in the CJK font: Han, kana, Hangul,
// Bopomofo, and the CJK and full-width punctuation around them.
func isCJK(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r == 0x3000: // the ideographic space is a space
		return false
	}
	for _, b := range cjkBlocks {
		if r >= b[0] && r <= b[1] {
			return true
		}
	}
	return false
}

// cjkBlocks are the Unicode blocks of Chinese, Japanese and Korean: Hangul
// Jamo, radicals, CJK punctuation, kana, Bopomofo, compatibility Jamo,
// enclosed and compatibility CJK, the unified ideographs and their
// extensions, Hangul syllables, compatibility ideographs, vertical and
// small forms, and the full- and half-width forms.
var cjkBlocks = [][2]rune{
	{0x1100, 0x11ff},
	{0x2e80, 0x2fdf},
	{0x3000, 0x303f},
	{0x3040, 0x30ff},
	{0x3100, 0x31ff},
	{0x3200, 0x4dbf},
	{0x4e00, 0x9fff},
	{0xa960, 0xa97f},
	{0xac00, 0xd7ff},
	{0xf900, 0xfaff},
	{0xfe30, 0xfe4f},
	{0xff00, 0xffef},
	{0x20000, 0x3ffff},
}

// hasCJK says whether s has a CJK character.
func hasCJK(s string) bool {
	for _, r := range s {
		if isCJK(r) {
			return true
		}
	}
	return false
}

// cjkFont is a CJK font read from the system, shared by every document
// drawn with it.
type cjkFont struct {
	path string
	ttf  []byte
	font *sfnt.Font

	mu  sync.Mutex
	buf sfnt.Buffer
	adv map[rune]float64 // advance as a fraction of the size; 0: no glyph
}

// cjkFonts are the fonts read so far, by path: a font is read and parsed
// once per process, not once per document.
var cjkFonts sync.Map

// errNoCJKFont is a CJK font that is not installed.
var errNoCJKFont = errors.New("the CJK font is not installed")

// loadCJKFont reads and parses the font at path (DefaultCJKFont when
// empty). A missing file is errNoCJKFont; the next call looks again, so a
// font installed later is used without a restart.
func loadCJKFont(path string) (*cjkFont, error) {
	if path == "" {
		path = DefaultCJKFont
	}
	if f, ok := cjkFonts.Load(path); ok {
		return f.(*cjkFont), nil
	}
	ttf, err := os.ReadFile(path) //nolint:gosec // the operator's font
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s (%s)", errNoCJKFont, path, CJKFontInstall)
	}
	if err != nil {
		return nil, fmt.Errorf("read CJK font: %w", err)
	}
	if ttf, err = firstFont(ttf); err != nil {
		return nil, fmt.Errorf("CJK font %s: %w", path, err)
	}
	font, err := sfnt.Parse(ttf)
	if err != nil {
		return nil, fmt.Errorf("parse CJK font %s: %w", path, err)
	}
	f := &cjkFont{path: path, ttf: ttf, font: font, adv: map[rune]float64{}}
	actual, _ := cjkFonts.LoadOrStore(path, f)
	return actual.(*cjkFont), nil
}

// CJKFontStatus says whether the CJK font at path (DefaultCJKFont when
// empty) can be used, for the start-up banner: its path, or why not and how
// to install it.
func CJKFontStatus(path string) string {
	f, err := loadCJKFont(path)
	if err != nil {
		if errors.Is(err, errNoCJKFont) {
			return "not installed — Chinese, Japanese and Korean text is marked □ in PDFs; install: " + CJKFontInstall
		}
		return "unusable — " + err.Error()
	}
	return f.path
}

// advance is r's advance as a fraction of the font size; 0 when the font
// has no glyph for r.
func (f *cjkFont) advance(r rune) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if a, ok := f.adv[r]; ok {
		return a
	}
	var a float64
	if g, err := f.font.GlyphIndex(&f.buf, r); err == nil && g != 0 {
		upem := f.font.UnitsPerEm()
		if adv, err := f.font.GlyphAdvance(&f.buf, g, fixed.Int26_6(upem)<<6, 0); err == nil {
			a = float64(adv) / 64 / float64(upem)
		}
	}
	f.adv[r] = a
	return a
}

// addCJK registers the CJK font at path in a document whose report or
// dossier has CJK characters, or notes that they will be marked.
func (d *doc) addCJK(path string) error {
	if !d.needsCJK() {
		return nil
	}
	f, err := loadCJKFont(path)
	switch {
	case errors.Is(err, errNoCJKFont):
		d.cjkMissing = true
		return nil
	case err != nil:
		// A font that cannot be read is a broken installation: the
		// document is still drawn, with the marker.
		d.cjkMissing = true
		return nil //nolint:nilerr // the marker and the cover's note say it
	}
	if err := d.pdf.AddTTFFontData(fontCJK, f.ttf); err != nil {
		return fmt.Errorf("embed CJK font %s: %w", f.path, err)
	}
	d.cjk = f
	return nil
}

// needsCJK says whether anything the document may draw has a CJK
// character.
func (d *doc) needsCJK() bool {
	if hasCJK(d.look.Name) || hasCJK(d.look.Contact) || hasCJK(d.look.Footer) {
		return true
	}
	b, err := json.Marshal(d.r)
	if err != nil || hasCJK(string(b)) {
		return true
	}
	if d.t != nil {
		if b, err = json.Marshal(d.t); err != nil || hasCJK(string(b)) {
			return true
		}
	}
	return false
}

// drawable is the package's drawable with the document's CJK font: CJK
// characters it has are kept, and each run of those it lacks, or of any
// without the font, becomes one marker.
func (d *doc) drawable(s string) string {
	s = drawable(s)
	if !hasCJK(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	marked := false
	for _, r := range s {
		if isCJK(r) && (d.cjk == nil || d.cjk.advance(r) == 0) {
			if !marked {
				b.WriteRune(cjkMarker)
			}
			marked = true
			continue
		}
		b.WriteRune(r)
		marked = false
	}
	return b.String()
}

// scriptRun is a run of text drawn in one font: the CJK one or the
// document's.
type scriptRun struct {
	text string
	cjk  bool
}

// scriptRuns splits s into runs of CJK and other characters.
func scriptRuns(s string) []scriptRun {
	var runs []scriptRun
	start, cur := 0, false
	for i, r := range s {
		c := isCJK(r)
		if i > 0 && c != cur {
			runs = append(runs, scriptRun{s[start:i], cur})
			start = i
		}
		cur = c
	}
	if start < len(s) {
		runs = append(runs, scriptRun{s[start:], cur})
	}
	return runs
}

// measureAt is the width of drawable text in a face and size, in
// millimetres; CJK characters are measured in the CJK font.
func (d *doc) measureAt(family string, size float64, s string) float64 {
	adv := advances()[family]
	var w float64
	for _, r := range s {
		a, ok := adv[r]
		if !ok && d.cjk != nil && isCJK(r) {
			a = d.cjk.advance(r)
		}
		w += a
	}
	return w * size * ptToMM
}

// firstFont is a font file as it is, or the first font of a TrueType
// collection (a .ttc, which the PDF library does not read) as a font file
// of its own: its table directory with the tables it names copied after.
func firstFont(b []byte) ([]byte, error) {
	if len(b) < 16 || string(b[:4]) != "ttcf" {
		return b, nil
	}
	u32 := func(at int) int { return int(binary.BigEndian.Uint32(b[at:])) }
	u16 := func(at int) int { return int(binary.BigEndian.Uint16(b[at:])) }
	if u32(8) == 0 {
		return nil, errors.New("empty font collection")
	}
	dir := u32(12)
	if dir+12 > len(b) {
		return nil, errors.New("font collection truncated")
	}
	n := u16(dir + 4)
	if dir+12+16*n > len(b) {
		return nil, errors.New("font collection truncated")
	}
	head := 12 + 16*n
	out := make([]byte, head, len(b))
	copy(out, b[dir:dir+12])
	for i := range n {
		rec := dir + 12 + 16*i
		off, length := u32(rec+8), u32(rec+12)
		if off+length > len(b) {
			return nil, errors.New("font collection truncated")
		}
		copy(out[12+16*i:], b[rec:rec+8])
		binary.BigEndian.PutUint32(out[12+16*i+8:], uint32(len(out))) //nolint:gosec // within the file read
		binary.BigEndian.PutUint32(out[12+16*i+12:], uint32(length))  //nolint:gosec // within the file read
		out = append(out, b[off:off+length]...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	return out, nil
}
