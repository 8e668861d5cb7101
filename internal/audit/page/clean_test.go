package page

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// clean is strings.Join(strings.Fields(s), " "), whether or not the text
// is already clean.
func TestCleanJoinsFields(t *testing.T) {
	t.Parallel()
	parts := []string{"a", "word", " ", "  ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u0085", "\u2003", "\u3000", "é", "中", "\xff", "\xe2\x80", ""}
	r := rand.New(rand.NewPCG(15, 16))
	for range 50000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		require.Equal(t, strings.Join(strings.Fields(s), " "), clean(s), "%q", s)
	}
}

// CountWords reads ASCII from a table and HasWords stops early; both
// count as unicode's letters, digits and marks say.
func TestCountWordsByUnicode(t *testing.T) {
	t.Parallel()
	slow := func(s string) int {
		n, in := 0, false
		for _, r := range s {
			if ideographic(r) {
				n++
				in = false
				continue
			}
			w := unicode.IsLetter(r) || unicode.IsDigit(r) || (in && unicode.IsMark(r))
			if w && !in {
				n++
			}
			in = w
		}
		return n
	}
	parts := []string{"a", "Z", "9", " ", "-", "_", "'", "é", "e\u0301", "\u0301", "中文", "カタ", "ㄅ", "한국", "ไทย", "\xff", "·", "’", "Ⅳ", "٣"}
	r := rand.New(rand.NewPCG(17, 18))
	for range 50000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		want := slow(s)
		require.Equal(t, want, CountWords(s), "%q", s)
		for n := range want + 2 {
			require.Equal(t, want >= n, HasWords(s, n), "%q has %d words", s, n)
		}
	}
}
