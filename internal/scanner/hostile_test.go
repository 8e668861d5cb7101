package scanner_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testsite"
)

// TestHostileTargets: each hostile site ends in a failed scan with a clear
// code and message, never a crash or a scan left running.
func TestHostileTargets(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	cases := map[string]string{
		testsite.SlowDrip:         "timeout",
		testsite.Huge:             "response_too_large",
		testsite.GzipBomb:         "response_too_large",
		testsite.MetadataRedirect: "blocked_destination",
	}
	for site, code := range cases {
		t.Run(site, func(t *testing.T) {
			t.Parallel()
			done := scan(ctx, t, org, s.URL(site))
			require.Equal(t, client.ScanStatusFailed, done.Status)
			require.NotNil(t, done.ErrorCode)
			require.Equal(t, code, *done.ErrorCode, "message: %s", *done.ErrorMessage)
			require.NotEmpty(t, *done.ErrorMessage)
			require.NotNil(t, done.CompletedAt)
			// A failed scan has no results.
			rep, err := org.Client.GetScanReportWithResponse(ctx, done.ID, nil)
			require.NoError(t, err)
			require.Equal(t, 400, rep.StatusCode())
			h.Do(t, "GET", "/api/v1/scans/"+done.ID.String()+"/triage", org.Key, nil).RequireError(t, 404, "triage_not_available", "scan_id")
		})
	}
}
