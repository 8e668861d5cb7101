package scancrash

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
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

// callbacks records the events a receiver was sent.
type callbacks struct {
	mu     sync.Mutex
	events []string
}

func (c *callbacks) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var p struct {
		Event string `json:"event"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &p)
	c.mu.Lock()
	c.events = append(c.events, p.Event)
	c.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (c *callbacks) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.events...)
}

// TestWorkerStoppedMidScan is a deploy: the real binary runs a scan whose
// homepage hangs for longer than the grace period, gets SIGTERM, and exits
// within the grace period (plus River's margin). The scan is not failed —
// still running, no callback, its job back in the queue with the attempt
// not counted — and the next worker process completes it once: one
// scan.completed callback, no scan.failed, the quota used once.
func TestWorkerStoppedMidScan(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s, sitesCA := fixtures(t)
	bin := binarytest.Build(t)

	rc := &callbacks{}
	receiver := httptest.NewTLSServer(rc)
	t.Cleanup(receiver.Close)
	// One bundle trusted by the workers: the fixture CA and the receiver's.
	caFile := filepath.Join(t.TempDir(), "cas.pem")
	sitesPEM, err := os.ReadFile(sitesCA)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(caFile, append(sitesPEM, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: receiver.Certificate().Raw})...), 0o600))

	hosts := map[string][]string{}
	var resolve []string
	for _, name := range testsite.Realistic {
		hosts[s.Host(name)] = []string{"127.0.0.1"}
		resolve = append(resolve, s.Host(name)+"=127.0.0.1")
	}
	h := apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Hosts: hosts, Getenv: map[string]string{"GEOSCAN_ROLE": "api"}})
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	release := s.Hold(testsite.Docs)
	defer release()
	callback := receiver.URL + "/hook"
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: s.URL(testsite.Docs), CallbackURL: &callback})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	id := created.JSON201.ID
	require.Equal(t, 1, usage(ctx, t, org))

	env := []string{
		"DATABASE_URL=" + pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
		"GEOSCAN_EXTRA_CA_FILE=" + caFile, "GEOSCAN_RESOLVE=" + strings.Join(resolve, ","),
		"GEOSCAN_PLAIN_HTTP_PORT=" + strconv.Itoa(s.HTTPPort()), "GEOSCAN_LOG_LEVEL=info",
		// The grace is far shorter than the hang and than the scan's budget.
		"GEOSCAN_SHUTDOWN_TIMEOUT=2s", "GEOSCAN_SCAN_BUDGET=60s",
	}
	first := binarytest.Serve(t, "first worker", bin, "worker", env)
	binarytest.Until(t, 30*time.Second, "the first worker to start the scan", func() bool {
		return scanStatus(ctx, t, org, id).Status == client.ScanStatusRunning && s.Hits(testsite.Docs)["/"] > 0
	}, first)
	first.Signal(t, syscall.SIGTERM)
	signalled := time.Now()
	require.NoError(t, first.Wait(t, 60*time.Second), "a stopped worker exits cleanly; logs:\n%s", first.Logs())
	t.Logf("the worker exited %s after SIGTERM (grace 2s)", time.Since(signalled).Round(10*time.Millisecond))

	// Untouched: running to clients, no error, no callback, and the job
	// available again with its attempt given back.
	stopped := scanStatus(ctx, t, org, id)
	require.Equal(t, client.ScanStatusRunning, stopped.Status, "logs:\n%s", first.Logs())
	require.Nil(t, stopped.ErrorCode)
	require.Empty(t, rc.got())
	state, attempt, errs := job(ctx, t, h, id)
	require.Equal(t, "available", state, "logs:\n%s", first.Logs())
	require.Zero(t, attempt, "the interrupted run does not count")
	require.Zero(t, errs)
	require.Contains(t, first.Logs(), "scan interrupted; it goes back to the queue")

	release()
	released := time.Now()
	next := binarytest.Serve(t, "next worker", bin, "worker", env)
	binarytest.Until(t, 120*time.Second, "the next worker to complete the scan, call back and complete the job", func() bool {
		state, _, _ := job(ctx, t, h, id)
		return webhook.IsFinished(string(scanStatus(ctx, t, org, id).Status)) && len(rc.got()) > 0 && state != "running"
	}, next)
	done := scanStatus(ctx, t, org, id)
	require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v; logs:\n%s", done.ErrorMessage, next.Logs())
	t.Logf("the next worker completed the scan %s after it was released", time.Since(released).Round(10*time.Millisecond))
	require.Equal(t, []string{"scan.completed"}, rc.got(), "one callback, and no scan.failed")
	var runs int
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT attempts FROM scans WHERE id = $1", id).Scan(&runs))
	require.Equal(t, 2, runs, "started in each worker")
	state, attempt, errs = job(ctx, t, h, id)
	require.Equal(t, "completed", state)
	require.Equal(t, 1, attempt, "one attempt counted in all")
	require.Zero(t, errs)
	require.Equal(t, 1, usage(ctx, t, org), "the quota was used once, at creation")
}

// job reads the River job of a scan: its state, attempt and error count.
func job(ctx context.Context, t *testing.T, h *apitest.Harness, id client.ScanID) (state string, attempt, errs int) {
	t.Helper()
	err := h.Store.Pool().QueryRow(ctx, `
		SELECT j.state::text, j.attempt, coalesce(array_length(j.errors, 1), 0)
		FROM scans s JOIN river_job j ON j.id = s.job_id WHERE s.id = $1`, id).Scan(&state, &attempt, &errs)
	require.NoError(t, err)
	return state, attempt, errs
}

func usage(ctx context.Context, t *testing.T, org apitest.Org) int {
	t.Helper()
	u, err := org.Client.GetUsageWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, u.StatusCode())
	return u.JSON200.Used
}
