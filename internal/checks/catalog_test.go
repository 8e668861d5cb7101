package checks

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/scoring"
)

var update = flag.Bool("update", false, "rewrite the generated tables of docs/SCORING.md")

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestCatalog holds the catalog to its contract: unique snake_case ids,
// known rings and pillars, weights from the scale, complete texts that
// differ by audience.
func TestCatalog(t *testing.T) {
	t.Parallel()
	all := All()
	require.GreaterOrEqual(t, len(all), 55)
	seen := map[string]bool{}
	for _, c := range all {
		require.Regexp(t, snakeCase, c.ID)
		require.False(t, seen[c.ID], "duplicate id %s", c.ID)
		seen[c.ID] = true
		p, ok := scoring.Pillar(c.Pillar)
		require.True(t, ok, "%s: unknown pillar %s", c.ID, c.Pillar)
		require.Equal(t, p.Ring, c.Ring, "%s: pillar %s is in ring %s", c.ID, c.Pillar, p.Ring)
		require.Contains(t, []float64{0, 1, 2, 3, 5, 10}, c.Weight, c.ID)
		require.Contains(t, []Level{Low, Medium, High}, c.Effort, c.ID)
		require.NotNil(t, c.Eval, c.ID)
		for _, txt := range []Text{c.Marketing, c.Engineering} {
			require.NotEmpty(t, txt.Title, c.ID)
			require.NotEmpty(t, txt.Why, c.ID)
			require.NotEmpty(t, txt.Fix, c.ID)
		}
		require.NotEqual(t, c.Marketing.Why, c.Engineering.Why, "%s: audiences must differ", c.ID)
		require.NotEqual(t, c.Marketing.Fix, c.Engineering.Fix, "%s: audiences must differ", c.ID)
	}
	for _, g := range scoring.Gates {
		c := Lookup(g.CheckID)
		require.NotNil(t, c, "gate %s names unknown check %s", g.ID, g.CheckID)
		require.GreaterOrEqual(t, c.Weight, 5.0, "gating check %s must carry a high weight", c.ID)
	}
	for _, p := range scoring.Pillars {
		n := 0
		for _, c := range all {
			if c.Pillar == p.ID {
				n++
			}
		}
		require.Positive(t, n, "pillar %s has no checks", p.ID)
	}
}

// TestEvaluatorsSurviveAnEmptySite runs every check on a site where
// nothing but an empty homepage was fetched.
func TestEvaluatorsSurviveAnEmptySite(t *testing.T) {
	t.Parallel()
	s := site(t, "")
	for _, o := range Run(input(s)) {
		require.NotContains(t, o.Result.Evidence, "internal_error", "%s panicked: %s", o.Check.ID, o.Result.Summary)
		require.NotEmpty(t, o.Result.Summary, o.Check.ID)
		require.Contains(t, []Status{Pass, Warn, Fail, NA, Info}, o.Result.Status, o.Check.ID)
	}
}

func TestScoringDocIsCurrent(t *testing.T) {
	t.Parallel()
	var defs []scoring.CheckDef
	for _, c := range All() {
		defs = append(defs, scoring.CheckDef{ID: c.ID, Ring: c.Ring, Pillar: c.Pillar, Effort: string(c.Effort), Weight: c.Weight})
	}
	var table bytes.Buffer
	require.NoError(t, scoring.WriteMarkdown(&table, defs))
	const path = "../../docs/SCORING.md"
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	const begin, end = "<!-- BEGIN GENERATED RUBRIC -->\n", "<!-- END GENERATED RUBRIC -->"
	i, j := strings.Index(string(doc), begin), strings.Index(string(doc), end)
	require.True(t, i >= 0 && j > i, "markers missing in %s", path)
	want := string(doc[:i+len(begin)]) + table.String() + string(doc[j:])
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, string(doc), "docs/SCORING.md is stale: go test ./internal/checks -update")
}
