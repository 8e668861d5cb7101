package checks_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) { audittest.Main(m) }

// TestFixtureSitesReadAsWritten audits the fixture sites as a scan does
// (the realistic ones, and the hostile one whose homepage can be read):
// every result keeps the evidence rule, so no summary names an internal id
// or miscounts.
func TestFixtureSitesReadAsWritten(t *testing.T) {
	t.Parallel()
	_, f := audittest.Sites(t)
	names := append([]string{testsite.NulBytes}, testsite.Realistic...)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			res := audittest.Run(t, name, name, audit.Options{Fetcher: f, Now: func() time.Time { return checks.TestNow }})
			for _, o := range res.Outcomes {
				require.NotContains(t, o.Result.Evidence, "internal_error", "%s: %s", o.Check.ID, o.Result.Summary)
				t.Run(o.Check.ID, func(t *testing.T) { checks.RequireResult(t, o.Result) })
			}
		})
	}
}
