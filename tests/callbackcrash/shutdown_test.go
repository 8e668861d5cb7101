package callbackcrash

import (
	"context"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// TestWorkerStoppedMidCallback is a deploy while a callback is being sent:
// the receiver holds the first attempt for longer than the grace period,
// the real binary gets SIGTERM and exits, and the attempt is neither lost
// nor counted as a failure — no attempt recorded, the delivery still
// pending, its job back in the queue with the attempt given back. The next
// worker process sends the same delivery, which then has exactly one
// attempt: the successful one.
func TestWorkerStoppedMidCallback(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := binarytest.Build(t)

	rc := &receiver{calls: map[string][]http.Header{}, body: map[string][][]byte{}}
	srv := httptest.NewTLSServer(rc)
	t.Cleanup(srv.Close)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedPort := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	require.NoError(t, ln.Close())

	h := apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{"GEOSCAN_ROLE": "api"}})
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	env := []string{
		"DATABASE_URL=" + pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
		"GEOSCAN_EXTRA_CA_FILE=" + caFile, "GEOSCAN_PLAIN_HTTP_PORT=" + closedPort,
		// The grace is shorter than the 10 s an attempt may take.
		"GEOSCAN_SHUTDOWN_TIMEOUT=1s", "GEOSCAN_SCAN_BUDGET=5s", "GEOSCAN_LOG_LEVEL=info",
	}

	first := binarytest.Serve(t, "first worker", bin, "worker", env)
	cb := srv.URL + "/hold"
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: srv.URL + "/", CallbackURL: &cb})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	id := created.JSON201.ID
	binarytest.Until(t, 60*time.Second, "the first attempt to reach the receiver", func() bool { return rc.count("/hold") == 1 }, first)
	first.Signal(t, syscall.SIGTERM)
	signalled := time.Now()
	require.NoError(t, first.Wait(t, 60*time.Second), "a stopped worker exits cleanly; logs:\n%s", first.Logs())
	t.Logf("the worker exited %s after SIGTERM (grace 1s)", time.Since(signalled).Round(10*time.Millisecond))

	d := delivery(ctx, t, org, id)
	require.Equal(t, client.WebhookDeliveryStatusPending, d.Status, "logs:\n%s", first.Logs())
	require.Empty(t, d.Attempts, "the interrupted attempt is not the receiver's failure")
	var state string
	var attempt, errs int
	readJob := func() {
		require.NoError(t, h.Store.Pool().QueryRow(ctx, `
			SELECT state::text, attempt, coalesce(array_length(errors, 1), 0) FROM river_job
			WHERE kind = 'webhook_delivery' AND args->>'delivery_id' = $1`, d.ID.String()).Scan(&state, &attempt, &errs))
	}
	readJob()
	require.Equal(t, "available", state)
	require.Zero(t, attempt)
	require.Zero(t, errs)

	next := binarytest.Serve(t, "next worker", bin, "worker", env)
	binarytest.Until(t, 60*time.Second, "the callback to arrive through the next worker and its job to complete", func() bool {
		readJob()
		return delivery(ctx, t, org, id).Status == client.WebhookDeliveryStatusSucceeded && state == "completed"
	}, next)
	d = delivery(ctx, t, org, id)
	require.Len(t, d.Attempts, 1, "logs:\n%s", next.Logs())
	require.Nil(t, d.Attempts[0].Error)
	require.Equal(t, 2, rc.count("/hold"), "the interrupted send and the successful one")
	for i := range 2 {
		header, body := rc.call("/hold", i)
		require.Equal(t, d.ID.String(), header.Get("X-GeoScan-Delivery"))
		require.Contains(t, string(body), `"event":"scan.completed"`)
	}
	require.Equal(t, 1, attempt)
	require.Zero(t, errs)
}
