// Package scancrash kills a real worker process mid-scan. It has a package
// of its own so that no other test's workers share its database and queue.
package scancrash

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
	"github.com/geoscan/geoscan/webhook"
)

// TestWorkerKilledMidScan runs the real binary as a worker, kills it with
// SIGKILL while it is fetching a site, and checks that a second worker
// process rescues the job and completes the scan.
func TestWorkerKilledMidScan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s, caFile := fixtures(t)
	bin := binarytest.Build(t)

	// The API runs in the test process and only queues; workers are processes.
	hosts := map[string][]string{}
	for _, name := range testsite.Realistic {
		hosts[s.Host(name)] = []string{"127.0.0.1"}
	}
	h := apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Hosts: hosts, Getenv: map[string]string{"GEOSCAN_ROLE": "api"}})
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	release := s.Hold(testsite.Docs)
	defer release()
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: s.URL(testsite.Docs)})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	id := created.JSON201.ID

	var resolve []string
	for _, name := range testsite.Realistic {
		resolve = append(resolve, s.Host(name)+"=127.0.0.1")
	}
	env := []string{
		"DATABASE_URL=" + pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
		"GEOSCAN_EXTRA_CA_FILE=" + caFile, "GEOSCAN_RESOLVE=" + strings.Join(resolve, ","),
		"GEOSCAN_PLAIN_HTTP_PORT=" + strconv.Itoa(s.HTTPPort()), "GEOSCAN_SCAN_BUDGET=8s", "GEOSCAN_LOG_LEVEL=info",
	}

	first := binarytest.Serve(t, "first worker", bin, "worker", env)
	binarytest.Until(t, 30*time.Second, "the first worker to start the scan", func() bool {
		return scanStatus(ctx, t, org, id).Status == client.ScanStatusRunning && s.Hits(testsite.Docs)["/"] > 0
	}, first)
	first.Kill(t)
	release()
	require.Equal(t, client.ScanStatusRunning, scanStatus(ctx, t, org, id).Status, "a killed worker leaves its scan running")

	second := binarytest.Serve(t, "second worker", bin, "worker", env)
	binarytest.Until(t, 150*time.Second, "the second worker to finish the rescued scan", func() bool {
		return webhook.IsFinished(string(scanStatus(ctx, t, org, id).Status))
	}, second)
	done := scanStatus(ctx, t, org, id)
	require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v; worker logs:\n%s", done.ErrorMessage, second.Logs())
	var attempts int
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT attempts FROM scans WHERE id = $1", id).Scan(&attempts))
	require.Equal(t, 2, attempts, "the scan ran once in each worker")
}

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	binarytest.Remove()
	os.Exit(code)
}

// fixtures starts the fixture sites and writes their CA for the workers.
func fixtures(t *testing.T) (*testsite.Server, string) {
	t.Helper()
	s, err := testsite.Start()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	ca, err := s.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	return s, ca
}

func scanStatus(ctx context.Context, t *testing.T, org apitest.Org, id client.ScanID) client.Scan {
	t.Helper()
	got, err := org.Client.GetScanWithResponse(ctx, id)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode())
	return *got.JSON200
}
