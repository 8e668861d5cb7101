package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
)

// A comparison of whole-site audits prints the page counts and the pages
// that changed, largest change first as the API lists them, with the
// site's URLs escaped; a homepage comparison prints nothing more.
func TestPrintPageComparison(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	var out bytes.Buffer
	require.NoError(t, printPageComparison(&out, &client.PageComparison{
		InBoth: 3, OnlyBase: 1, OnlyTarget: 2,
		Changed: []client.PageDelta{
			{URL: "https://example.com/blog/b", Base: f(40), Target: f(70), Delta: f(30)},
			{URL: "https://example.com/\x1b[31mred", Base: f(55.5), Target: f(50), Delta: f(-5.5)},
			{URL: "https://example.com/", Base: f(90), Target: f(90), Delta: f(0)},
			{URL: "https://example.com/old"},
		},
	}))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Equal(t, "Pages: 3 in both, 1 only in the base scan, 2 only in the target.", lines[0])
	require.Regexp(t, `^DELTA\s+BASE\s+TARGET\s+URL$`, lines[1])
	require.Regexp(t, `^\+30\.0\s+40\.0\s+70\.0\s+https://example.com/blog/b$`, lines[2])
	require.Regexp(t, `^-5\.5\s+55\.5\s+50\.0\s+https://example.com/`, lines[3])
	require.NotContains(t, out.String(), "\x1b", "the site's text is escaped")
	require.Len(t, lines, 4, "unchanged and unjudged pages are left out")

	out.Reset()
	require.NoError(t, printPageComparison(&out, nil))
	require.Empty(t, out.String())
}
