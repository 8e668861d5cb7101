package report_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// The HTML report says what the dossier says of a lens none of whose
// checks was scored: not measured, with no step of the scale lit.
func TestWriteHTMLLensNotMeasured(t *testing.T) {
	t.Parallel()
	f := built(t, testsite.NextShell, "")
	d := f.dossier.For(scoring.Marketing)
	var label string
	for _, l := range d.RiskLenses {
		if l.Bucket == api.TriageRiskLensBucketNotMeasured {
			label = l.Label
		}
	}
	require.NotEmpty(t, label, "the fixture has a lens with nothing scored")
	var buf bytes.Buffer
	require.NoError(t, report.WriteHTML(&buf, report.HTMLInput{Report: f.report.For(scoring.Marketing), Triage: &d}))
	item := regexp.MustCompile(`<li class="lens"><span>` + regexp.QuoteMeta(label) + `</span>(.*?)</li>`).FindStringSubmatch(buf.String())
	require.NotNil(t, item, "the lens is listed")
	require.Contains(t, item[1], `<span class="lens-level">not measured</span>`)
	require.NotContains(t, item[1], `#565e64`, "no step is lit")
	require.NotContains(t, item[1], "not_measured")
}
