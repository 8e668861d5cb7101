// Package triagefault makes the triage computation fail at scan
// completion. It has a package (and so a database and queue) of its own:
// the failure is injected into one application's runner, and no other
// test's workers may pick its scans up.
package triagefault

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestTriageFailureIsFilledInLater: the scan still completes with its
// report, answers triage_not_available meanwhile, and the recompute job
// queued with the completion fills the dossier in.
func TestTriageFailureIsFilledInLater(t *testing.T) {
	s, err := testsite.Start()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	ca, err := s.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	h := apitest.Start(t, pgtest.URL(), apitest.Options{
		AllowPrivateTargets: true,
		Hosts:               map[string][]string{s.Host(testsite.Docs): {"127.0.0.1"}},
		Getenv: map[string]string{
			"GEOSCAN_ROLE": "all", "GEOSCAN_EXTRA_CA_FILE": ca, "GEOSCAN_PLAIN_HTTP_PORT": strconv.Itoa(s.HTTPPort()),
			"GEOSCAN_SCAN_BUDGET": "10s",
		},
	})
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	failures := make(chan struct{}, 10)
	h.App.Runner().SetTriageBuilder(func(triage.Input) (triage.Stored, error) {
		failures <- struct{}{}
		return triage.Stored{}, errors.New("injected failure")
	})
	var jobs int
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: s.URL(testsite.Docs)})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	id := created.JSON201.ID

	_, finished := poll.For(t, 60*time.Second, func() (client.ScanStatus, bool) {
		got, err := org.Client.GetScanWithResponse(ctx, id)
		require.NoError(t, err)
		require.NotEqual(t, client.ScanStatusFailed, got.JSON200.Status, "the scan must not fail because triage did")
		return got.JSON200.Status, got.JSON200.Status == client.ScanStatusCompleted
	})
	require.True(t, finished, "scan did not finish")
	require.Len(t, failures, 1, "the injected builder ran once")
	rep, err := org.Client.GetScanReportWithResponse(ctx, id, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, rep.StatusCode(), "the report does not depend on triage")

	require.NoError(t, h.Store.Pool().QueryRow(ctx,
		`SELECT count(*) FROM river_job WHERE kind = 'triage' AND args->>'scan_id' = $1`, id.String()).Scan(&jobs))
	require.Equal(t, 1, jobs, "the recompute job is queued with the completion")

	r, filled := poll.For(t, 60*time.Second, func() (*client.GetScanTriageResponse, bool) {
		r, err := org.Client.GetScanTriageWithResponse(ctx, id, nil)
		require.NoError(t, err)
		if r.StatusCode() != http.StatusOK {
			require.Equal(t, http.StatusNotFound, r.StatusCode())
		}
		return r, r.StatusCode() == http.StatusOK
	})
	require.True(t, filled, "the recompute job did not fill the dossier in")
	require.NotNil(t, r.JSON200.Platform.Cms)
	require.Equal(t, "Hugo", *r.JSON200.Platform.Cms)
}
