package report

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/i18n"
)

func TestPassCount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		passed, scored int
		want           string
	}{
		{0, 0, "no check could be scored"},
		{0, 10, "none of the 10 scored checks pass"},
		{4, 10, "4 of 10 scored checks pass"},
		{12, 12, "all 12 scored checks pass"},
		{1, 1, "the only scored check passes"},
		{0, 1, "the only scored check does not pass"},
	} {
		require.Equal(t, tc.want, (&summaryWriter{w: i18n.For("en")}).passCount(tc.passed, tc.scored))
	}
	require.Equal(t, "no pages", plural(0, "page", "pages"))
	require.Equal(t, "1 page", plural(1, "page", "pages"))
	require.Equal(t, "a, b and c", joinAnd([]string{"a", "b", "c"}))
}

func TestDrawable(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Καφέ Москва Ærø":       "Καφέ Москва Ærø",
		"Cafe\u0301":            "Café",
		"東京都 Sushi":             "東京都 Sushi", // drawn in the CJK font (pdf_cjk.go)
		"a\x00b\u200bc\td\r\ne": "abc d \ne",
		"🚀🚀 x":                  "\uFFFD x",
	} {
		require.Equal(t, want, drawable(in), in)
	}
}

// Stars inside a code span are text: they close no bold opened before it,
// so the rest of the paragraph is not drawn bold.
func TestInlineStarsInCode(t *testing.T) {
	t.Parallel()
	faces := map[string]string{}
	for _, w := range inline("a **b `c**` d e", fontRegular) {
		for _, p := range w {
			faces[p.text] = p.family
		}
	}
	require.Equal(t, fontRegular, faces["a"])
	require.Equal(t, fontMono, faces["c**"], "the code keeps its stars")
	require.Equal(t, fontRegular, faces["d"], "no bold after the code span")
	require.Equal(t, fontRegular, faces["e"])

	faces = map[string]string{}
	for _, w := range inline("**bold** `x` after", fontRegular) {
		for _, p := range w {
			faces[p.text] = p.family
		}
	}
	require.Equal(t, fontBold, faces["bold"])
	require.Equal(t, fontMono, faces["x"])
	require.Equal(t, fontRegular, faces["after"])
}
