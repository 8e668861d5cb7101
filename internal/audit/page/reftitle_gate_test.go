package page

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// refTitleWhole is refTitle without its shortcuts.
func refTitleWhole(s string) bool {
	t := strings.ToLower(clean(s))
	t = strings.TrimRight(t, ":：. ")
	t = refNumberingRE.ReplaceAllString(t, "")
	t = refCountRE.ReplaceAllString(t, "")
	if t == "" || utf8.RuneCountInString(t) > maxRefTitle {
		return false
	}
	if refTitles[t] {
		return true
	}
	parts := refJoinRE.Split(t, -1)
	if len(parts) < 2 {
		return false
	}
	for _, part := range parts {
		if !refTitles[strings.TrimSpace(part)] {
			return false
		}
	}
	return true
}

// refTitle's shortcuts (the length bound taken before trimming, the
// opening title looked for before splitting) answer as the whole reading
// does: for every title, numbered, counted, combined and padded, and for
// random text around them.
func TestRefTitleShortcuts(t *testing.T) {
	t.Parallel()
	var titles []string
	for title := range refTitles {
		titles = append(titles, title)
	}
	for _, title := range titles {
		for _, s := range []string{title, "5.2 " + title, "IV. " + title + " (12)", "CL) " + title, "xc " + title, title + ":", " " + title + "  [3] "} {
			require.True(t, refTitle(s), "%q is a references title", s)
		}
		up := strings.ToUpper(title)
		require.Equal(t, refTitleWhole(up), refTitle(up), up)
	}
	r := rand.New(rand.NewPCG(7, 8))
	joins := []string{" and ", " & ", ", ", " / ", "・", "と", " und ", " ", " x "}
	fill := []string{"1", "12", "IV", "ivx", ".", ")", "(3)", "[4]", ":", "：", " ", "\t", "İ", "lorem", "Ξ", "é", "a"}
	for range 20000 {
		var b strings.Builder
		for k := range 1 + r.IntN(4) {
			if k > 0 {
				b.WriteString(joins[r.IntN(len(joins))])
			}
			if r.IntN(3) == 0 {
				b.WriteString(fill[r.IntN(len(fill))])
			} else {
				b.WriteString(titles[r.IntN(len(titles))])
			}
		}
		for range r.IntN(30) {
			b.WriteString(fill[r.IntN(len(fill))])
		}
		s := b.String()
		require.Equal(t, refTitleWhole(s), refTitle(s), "%q", s)
	}
	require.False(t, refTitle(strings.Repeat("iv. 1 (2) [3]: ", 4)+"references"+strings.Repeat(" lorem", 12)))
}

// refPrefixed finds the first colon, of either width, as IndexAny does.
func TestRefPrefixedFindsTheFirstColon(t *testing.T) {
	t.Parallel()
	whole := func(text string) bool {
		i := strings.IndexAny(text, ":：")
		if i <= 0 || utf8.RuneCountInString(text[:i]) > 40 {
			return false
		}
		return refTitle(text[:i])
	}
	parts := []string{"Source", "Quelle", "出典", ":", "：", " ", "dpa", "\xef\xbc", "\xe2", "Eurostat", "Sources"}
	r := rand.New(rand.NewPCG(13, 14))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		require.Equal(t, whole(s), refPrefixed(s), "%q", s)
	}
	require.True(t, refPrefixed("出典：総務省"))
	require.True(t, refPrefixed("Source: Eurostat"))
}
