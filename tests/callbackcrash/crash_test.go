// Package callbackcrash kills a real worker process after a scan finished but
// before its callback succeeded, and checks that the callback still
// arrives once another worker runs. It has a package of its own so that no
// other test's workers share its database and queue.
package callbackcrash

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	binarytest.Remove()
	os.Exit(code)
}

// receiver records callbacks per path. On /hang and /hold the first
// callback hangs until the connection drops; on /fail the first one gets a
// 500. Every later callback gets a 200. GET / is a small site scans
// complete on.
type receiver struct {
	mu    sync.Mutex
	calls map[string][]http.Header
	body  map[string][][]byte
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		if r.URL.Path == "/" {
			_, _ = io.WriteString(w, `<!doctype html><html lang="en"><head><title>Crash Site</title></head><body><h1>Crash Site</h1></body></html>`)
			return
		}
		http.NotFound(w, r)
		return
	}
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.calls[r.URL.Path] = append(rc.calls[r.URL.Path], r.Header.Clone())
	rc.body[r.URL.Path] = append(rc.body[r.URL.Path], b)
	n := len(rc.calls[r.URL.Path])
	rc.mu.Unlock()
	switch {
	case n == 1 && (r.URL.Path == "/hang" || r.URL.Path == "/hold"):
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Minute):
		}
	case n == 1 && r.URL.Path == "/fail":
		w.WriteHeader(http.StatusInternalServerError)
	default:
		w.WriteHeader(http.StatusOK)
	}
}

func (rc *receiver) count(path string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.calls[path])
}

func (rc *receiver) call(path string, i int) (http.Header, []byte) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.calls[path][i], rc.body[path][i]
}

// TestWorkerKilledBeforeCallbackSucceeded runs the real binary as a worker
// and SIGKILLs it while two finished scans' callbacks are outstanding: one
// attempt is in flight (the receiver hangs), the other failed and waits for
// its retry. A second worker process delivers both.
func TestWorkerKilledBeforeCallbackSucceeded(t *testing.T) {
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

	// The API runs in the test process and only queues; workers are processes.
	h := apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{"GEOSCAN_ROLE": "api"}})
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	create := func(hook string) (client.ScanID, string) {
		cb := srv.URL + hook
		created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: srv.URL + "/", CallbackURL: &cb})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
		return created.JSON201.ID, *created.JSON201.WebhookSecret
	}

	env := []string{
		"DATABASE_URL=" + pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
		"GEOSCAN_EXTRA_CA_FILE=" + caFile, "GEOSCAN_PLAIN_HTTP_PORT=" + closedPort,
		"GEOSCAN_SCAN_BUDGET=5s", "GEOSCAN_WEBHOOK_RETRY_DELAYS=3s", "GEOSCAN_LOG_LEVEL=info",
	}

	first := binarytest.Serve(t, "first worker", bin, "worker", env)
	hangScan, hangSecret := create("/hang")
	failScan, failSecret := create("/fail")
	binarytest.Until(t, 60*time.Second, "both first attempts", func() bool { return rc.count("/hang") == 1 && rc.count("/fail") == 1 }, first)
	for _, id := range []client.ScanID{hangScan, failScan} {
		require.Equal(t, client.ScanStatusCompleted, scanStatus(ctx, t, org, id), "worker logs:\n%s", first.Logs())
	}
	first.Kill(t)
	for _, id := range []client.ScanID{hangScan, failScan} {
		require.Equal(t, client.WebhookDeliveryStatusPending, delivery(ctx, t, org, id).Status, "the callback has not succeeded yet")
	}

	second := binarytest.Serve(t, "second worker", bin, "worker", env)
	binarytest.Until(t, 150*time.Second, "both callbacks to arrive through the second worker", func() bool {
		return rc.count("/hang") >= 2 && rc.count("/fail") >= 2 &&
			delivery(ctx, t, org, hangScan).Status == client.WebhookDeliveryStatusSucceeded &&
			delivery(ctx, t, org, failScan).Status == client.WebhookDeliveryStatusSucceeded
	}, second)
	for _, c := range []struct {
		path, secret string
		scan         client.ScanID
	}{{"/hang", hangSecret, hangScan}, {"/fail", failSecret, failScan}} {
		d := delivery(ctx, t, org, c.scan)
		firstHeader, firstBody := rc.call(c.path, 0)
		lastHeader, lastBody := rc.call(c.path, rc.count(c.path)-1)
		require.Equal(t, d.ID.String(), firstHeader.Get("X-GeoScan-Delivery"))
		require.Equal(t, d.ID.String(), lastHeader.Get("X-GeoScan-Delivery"), "the same delivery, resumed; logs:\n%s", second.Logs())
		require.Equal(t, firstBody, lastBody)
		mac := hmac.New(sha256.New, []byte(c.secret))
		mac.Write(lastBody)
		require.Equal(t, "v1="+hex.EncodeToString(mac.Sum(nil)), lastHeader.Get("X-GeoScan-Signature"))
		require.Contains(t, string(lastBody), `"event":"scan.completed"`)
	}
}

func scanStatus(ctx context.Context, t *testing.T, org apitest.Org, id client.ScanID) client.ScanStatus {
	t.Helper()
	got, err := org.Client.GetScanWithResponse(ctx, id)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode())
	return got.JSON200.Status
}

func delivery(ctx context.Context, t *testing.T, org apitest.Org, id client.ScanID) client.WebhookDelivery {
	t.Helper()
	got, err := org.Client.ListScanDeliveriesWithResponse(ctx, id, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode(), "body: %s", got.Body)
	require.Len(t, got.JSON200.Data, 1)
	return got.JSON200.Data[0]
}
