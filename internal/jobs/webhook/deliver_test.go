package webhook_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// The tests of this file run one after another: each starts workers on the
// package's queue, and a worker of one test must not pick up another
// test's jobs (it would not trust that test's receiver certificate).

// callback is one request a receiver got, kept as raw as it arrived.
type callback struct {
	Path   string
	Header http.Header
	Body   []byte
}

// receiver is a loopback HTTPS server. POSTs under /hook are callbacks,
// answered by answer (n counts callbacks from 1); GET / is a small site a
// scan completes on and GET /down/ a site whose scan fails.
type receiver struct {
	srv    *httptest.Server
	caFile string
	answer func(n int, w http.ResponseWriter, r *http.Request)

	mu    sync.Mutex
	hooks []callback
	paths map[string]int
}

func newReceiver(t testing.TB, answer func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	rc := &receiver{answer: answer, paths: map[string]int{}}
	rc.srv = httptest.NewTLSServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	rc.caFile = filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rc.srv.Certificate().Raw})
	require.NoError(t, os.WriteFile(rc.caFile, pemBytes, 0o600))
	return rc
}

const sitePage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receiver Site</title>
<meta name="description" content="A page the scanner can finish on."></head>
<body><h1>Receiver Site</h1><p>Plain content for a quick scan.</p></body></html>`

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/hook") {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.hooks = append(rc.hooks, callback{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		n := len(rc.hooks)
		rc.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		rc.answer(n, w, r)
		return
	}
	rc.mu.Lock()
	rc.paths[r.URL.Path]++
	rc.mu.Unlock()
	switch r.URL.Path {
	case "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, sitePage)
	case "/down/":
		w.WriteHeader(http.StatusServiceUnavailable)
	default:
		http.NotFound(w, r)
	}
}

func (rc *receiver) callbacks() []callback {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]callback(nil), rc.hooks...)
}

func (rc *receiver) hits(path string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.paths[path]
}

func status(code int) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(code) }
}

// closedPort is a loopback port nothing listens on (the scanner's http://
// probe goes there and is refused at once).
func closedPort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	return strconv.Itoa(port)
}

// engine starts the API with scan and callback workers; retries come after
// 100 ms so a test sees the whole schedule quickly.
func engine(t *testing.T, rc *receiver) *apitest.Harness {
	t.Helper()
	return apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{
		"GEOSCAN_ROLE":                 "all",
		"GEOSCAN_EXTRA_CA_FILE":        rc.caFile,
		"GEOSCAN_PLAIN_HTTP_PORT":      closedPort(t),
		"GEOSCAN_SCAN_BUDGET":          "10s",
		"GEOSCAN_WEBHOOK_RETRY_DELAYS": "100ms,100ms,100ms",
	}})
}

// createScan creates a scan of the receiver's site (path "/" completes,
// "/down/" fails) with a callback to /hook; it returns the scan and its secret.
func createScan(t *testing.T, org apitest.Org, rc *receiver, sitePath string) (client.Scan, string) {
	t.Helper()
	cb := rc.srv.URL + "/hook?token=abc"
	created, err := org.Client.CreateScanWithResponse(context.Background(), nil, client.ScanCreateRequest{URL: rc.srv.URL + sitePath, CallbackURL: &cb})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	require.NotNil(t, created.JSON201.WebhookSecret)
	return *created.JSON201, *created.JSON201.WebhookSecret
}

// deliveries reads the delivery log of a scan.
func deliveries(t *testing.T, org apitest.Org, scanID uuid.UUID) []client.WebhookDelivery {
	t.Helper()
	resp, err := org.Client.ListScanDeliveriesWithResponse(context.Background(), scanID, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode(), "body: %s", resp.Body)
	return resp.JSON200.Data
}

// waitSettled waits until the scan's only delivery is no longer pending.
func waitSettled(t *testing.T, org apitest.Org, scanID uuid.UUID, limit time.Duration) client.WebhookDelivery {
	t.Helper()
	ds, ok := poll.For(t, limit, func() ([]client.WebhookDelivery, bool) {
		ds := deliveries(t, org, scanID)
		return ds, len(ds) == 1 && ds[0].Status != client.WebhookDeliveryStatusPending
	})
	if !ok {
		t.Fatalf("the delivery of scan %s did not settle within %s: %+v", scanID, limit, ds)
	}
	return ds[0]
}

func getScan(t *testing.T, org apitest.Org, id uuid.UUID) client.Scan {
	t.Helper()
	got, err := org.Client.GetScanWithResponse(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode())
	return *got.JSON200
}

// The signature checks below are written here from the published rules,
// not with the code under test.

func independentSignature(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

func independentStandard(t *testing.T, secret, id, ts string, body []byte) string {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	require.NoError(t, err)
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + ts + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// requireSigned checks both signatures of a callback over its raw bytes,
// and that changing one byte of the body or of the secret breaks each.
func requireSigned(t *testing.T, cb callback, secret string) {
	t.Helper()
	sig := cb.Header.Get("X-GeoScan-Signature")
	require.Regexp(t, `^v1=[0-9a-f]{64}$`, sig)
	require.Equal(t, independentSignature(secret, cb.Body), sig)

	id, ts := cb.Header.Get("webhook-id"), cb.Header.Get("webhook-timestamp")
	require.Equal(t, cb.Header.Get("X-GeoScan-Delivery"), id)
	require.Equal(t, cb.Header.Get("X-GeoScan-Timestamp"), ts)
	std := cb.Header.Get("webhook-signature")
	require.Equal(t, independentStandard(t, secret, id, ts, cb.Body), std)

	tampered := append([]byte(nil), cb.Body...)
	tampered[len(tampered)/2] ^= 0x01
	require.NotEqual(t, independentSignature(secret, tampered), sig, "one body byte changed must break the signature")
	require.NotEqual(t, independentStandard(t, secret, id, ts, tampered), std)
	otherSecret := []byte(secret)
	otherSecret[len(otherSecret)-3] ^= 0x01
	require.NotEqual(t, independentSignature(string(otherSecret), cb.Body), sig, "one secret byte changed must break the signature")
}

var isoNoZone = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$`)

// wirePayload is the specification's field list; decoding with unknown
// fields disallowed proves there is nothing else.
type wirePayload struct {
	Event        string   `json:"event"`
	ScanID       string   `json:"scan_id"`
	URL          string   `json:"url"`
	Status       string   `json:"status"`
	OverallScore *float64 `json:"overall_score"`
	ErrorMessage *string  `json:"error_message"`
	CreatedAt    string   `json:"created_at"`
	CompletedAt  string   `json:"completed_at"`
}

func decodePayload(t *testing.T, body []byte) wirePayload {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	var p wirePayload
	require.NoError(t, dec.Decode(&p), "body: %s", body)
	// Every field is present, in the specification's order.
	require.Regexp(t, `^\{"event":.*,"scan_id":.*,"url":.*,"status":.*,"overall_score":.*,"error_message":.*,"created_at":.*,"completed_at":"[^"]*"\}$`, string(body))
	require.Regexp(t, isoNoZone, p.CreatedAt)
	require.Regexp(t, isoNoZone, p.CompletedAt)
	return p
}

func TestDeliveredOnFirstAttempt(t *testing.T) {
	rc := newReceiver(t, status(http.StatusOK))
	h := engine(t, rc)
	org := h.NewOrg(t, "pro", true)

	scan, secret := createScan(t, org, rc, "/")
	d := waitSettled(t, org, scan.ID, 60*time.Second)
	done := getScan(t, org, scan.ID)
	require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v", done.ErrorMessage)

	require.Equal(t, client.WebhookDeliveryStatusSucceeded, d.Status)
	require.Equal(t, client.WebhookDeliveryEventScanCompleted, d.Event)
	require.Equal(t, 1, d.AttemptCount)
	require.Len(t, d.Attempts, 1)
	require.Equal(t, 200, *d.Attempts[0].StatusCode)
	require.Nil(t, d.Attempts[0].Error)
	require.Nil(t, d.NextAttemptAt)
	require.NotNil(t, d.CompletedAt)
	require.False(t, d.Attempts[0].StartedAt.Before(done.CompletedAt.Truncate(time.Second)), "sent only once the scan had finished")

	cbs := rc.callbacks()
	require.Len(t, cbs, 1)
	cb := cbs[0]
	require.Equal(t, "/hook", cb.Path)
	require.Equal(t, "application/json", cb.Header.Get("Content-Type"))
	require.Equal(t, "GeoScan-Webhook/1.0", cb.Header.Get("User-Agent"))
	require.Equal(t, "scan.completed", cb.Header.Get("X-GeoScan-Event"))
	require.Equal(t, d.ID.String(), cb.Header.Get("X-GeoScan-Delivery"))
	ts, err := strconv.ParseInt(cb.Header.Get("X-GeoScan-Timestamp"), 10, 64)
	require.NoError(t, err)
	require.WithinDuration(t, time.Now(), time.Unix(ts, 0), time.Minute)
	requireSigned(t, cb, secret)

	p := decodePayload(t, cb.Body)
	require.Equal(t, "scan.completed", p.Event)
	require.Equal(t, scan.ID.String(), p.ScanID)
	require.Equal(t, scan.URL, p.URL)
	require.Equal(t, "completed", p.Status)
	require.NotNil(t, p.OverallScore)
	require.InDelta(t, *done.OverallScore, *p.OverallScore, 0.001)
	require.Nil(t, p.ErrorMessage)
	require.Equal(t, scan.CreatedAt.UTC().Format("2006-01-02T15:04:05"), p.CreatedAt)
	require.Equal(t, done.CompletedAt.UTC().Format("2006-01-02T15:04:05"), p.CompletedAt)

	logs := h.Logs()
	require.NotContains(t, logs, secret, "the secret never reaches the logs")
	require.NotContains(t, logs, cb.Header.Get("X-GeoScan-Signature")[3:], "nor does a signature")
	require.NotContains(t, logs, "token=abc", "nor the callback's query")
	list := h.Do(t, "GET", "/api/v1/scans/"+scan.ID.String()+"/deliveries", org.Key, nil)
	require.NotContains(t, string(list.Body), secret, "the delivery log never returns the secret")
}

func TestRetriedUntilDelivered(t *testing.T) {
	rc := newReceiver(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	h := engine(t, rc)
	org := h.NewOrg(t, "pro", true)

	scan, secret := createScan(t, org, rc, "/down/")
	d := waitSettled(t, org, scan.ID, 60*time.Second)
	done := getScan(t, org, scan.ID)
	require.Equal(t, client.ScanStatusFailed, done.Status)

	require.Equal(t, client.WebhookDeliveryStatusSucceeded, d.Status)
	require.Equal(t, client.WebhookDeliveryEventScanFailed, d.Event)
	require.Len(t, d.Attempts, 2)
	require.Equal(t, 1, d.Attempts[0].Attempt)
	require.Equal(t, 500, *d.Attempts[0].StatusCode)
	require.Equal(t, "http_status: receiver answered 500", *d.Attempts[0].Error)
	require.Equal(t, 202, *d.Attempts[1].StatusCode)
	require.Nil(t, d.Attempts[1].Error)

	cbs := rc.callbacks()
	require.Len(t, cbs, 2)
	require.Equal(t, cbs[0].Header.Get("X-GeoScan-Delivery"), cbs[1].Header.Get("X-GeoScan-Delivery"), "a retry is the same delivery")
	require.Equal(t, d.ID.String(), cbs[1].Header.Get("X-GeoScan-Delivery"))
	require.Equal(t, cbs[0].Body, cbs[1].Body, "a retry sends the same bytes")
	for _, cb := range cbs {
		requireSigned(t, cb, secret)
	}
	p := decodePayload(t, cbs[1].Body)
	require.Equal(t, "scan.failed", p.Event)
	require.Equal(t, "failed", p.Status)
	require.Nil(t, p.OverallScore)
	require.NotNil(t, p.ErrorMessage)
	require.Equal(t, *done.ErrorMessage, *p.ErrorMessage)
}

func TestReceiverThatHangs(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the 10 s attempt time-out")
	}
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			select { // hang until GeoScan gives up on the attempt
			case <-r.Context().Done():
			case <-time.After(30 * time.Second):
			}
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	h := engine(t, rc)
	org := h.NewOrg(t, "pro", true)

	scan, _ := createScan(t, org, rc, "/down/")
	d := waitSettled(t, org, scan.ID, 90*time.Second)
	require.Equal(t, client.WebhookDeliveryStatusSucceeded, d.Status)
	require.Len(t, d.Attempts, 2)
	first := d.Attempts[0]
	require.Nil(t, first.StatusCode)
	require.NotNil(t, first.Error)
	require.True(t, strings.HasPrefix(*first.Error, "timeout: "), "error: %s", *first.Error)
	require.GreaterOrEqual(t, first.DurationMs, 10_000, "the attempt was given its full 10 s")
	require.Less(t, first.DurationMs, 15_000, "and not much more")
	require.Equal(t, 200, *d.Attempts[1].StatusCode)
}

func TestRedirectIsNotFollowed(t *testing.T) {
	rc := newReceiver(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	h := engine(t, rc)
	org := h.NewOrg(t, "pro", true)

	scan, _ := createScan(t, org, rc, "/down/")
	d := waitSettled(t, org, scan.ID, 60*time.Second)
	require.Equal(t, client.WebhookDeliveryStatusSucceeded, d.Status)
	require.Len(t, d.Attempts, 2)
	require.Equal(t, 302, *d.Attempts[0].StatusCode)
	require.Equal(t, "redirect: receiver answered 302; redirects are not followed", *d.Attempts[0].Error)
	require.Len(t, rc.callbacks(), 2)
	require.Zero(t, rc.hits("/elsewhere"), "the redirect was not followed")
}

func TestAllAttemptsFail(t *testing.T) {
	var answer sync.Mutex
	code := http.StatusInternalServerError
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		answer.Lock()
		defer answer.Unlock()
		w.WriteHeader(code)
	})
	h := engine(t, rc)
	org := h.NewOrg(t, "pro", true)
	ctx := context.Background()

	scan, secret := createScan(t, org, rc, "/down/")
	d := waitSettled(t, org, scan.ID, 60*time.Second)
	require.Equal(t, client.WebhookDeliveryStatusFailed, d.Status)
	require.Equal(t, 4, d.AttemptCount, "the first attempt and three retries")
	require.Len(t, d.Attempts, 4)
	for i, a := range d.Attempts {
		require.Equal(t, i+1, a.Attempt)
		require.Equal(t, 500, *a.StatusCode)
	}
	require.Nil(t, d.NextAttemptAt)
	require.NotNil(t, d.CompletedAt)
	require.Equal(t, 500, *d.LastStatusCode)

	// Nothing more is sent: once the last job run has ended, no job of this
	// delivery is left that could send.
	require.Equal(t, "completed", jobState(t, h, d.ID.String(), "completed"))
	var live int
	require.NoError(t, h.Store.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE args->>'delivery_id' = $1
		AND state IN ('available', 'pending', 'running', 'retryable', 'scheduled')`, d.ID.String()).Scan(&live))
	require.Zero(t, live)
	require.Len(t, rc.callbacks(), 4)

	// A redelivery sends the same event again, with the whole schedule.
	answer.Lock()
	code = http.StatusOK
	answer.Unlock()
	resp, err := org.Client.RedeliverScanWebhookWithResponse(ctx, scan.ID)
	require.NoError(t, err)
	require.Equal(t, http.StatusAccepted, resp.StatusCode(), "body: %s", resp.Body)
	require.Equal(t, d.ID, resp.JSON202.ID)
	require.NotContains(t, string(resp.Body), secret)
	again := waitSettled(t, org, scan.ID, 60*time.Second)
	require.Equal(t, client.WebhookDeliveryStatusSucceeded, again.Status)
	require.Equal(t, 5, again.AttemptCount, "attempts are numbered across redeliveries")
	require.Equal(t, 200, *again.Attempts[4].StatusCode)
	cbs := rc.callbacks()
	require.Len(t, cbs, 5)
	require.Equal(t, cbs[0].Header.Get("X-GeoScan-Delivery"), cbs[4].Header.Get("X-GeoScan-Delivery"))
	require.Equal(t, cbs[0].Body, cbs[4].Body, "a redelivery sends the same bytes")
	requireSigned(t, cbs[4], secret)
}

func TestDeletedScanEndsItsDelivery(t *testing.T) {
	rc := newReceiver(t, status(http.StatusServiceUnavailable))
	h := apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{
		"GEOSCAN_ROLE": "all", "GEOSCAN_EXTRA_CA_FILE": rc.caFile, "GEOSCAN_PLAIN_HTTP_PORT": closedPort(t),
		// The retry waits long enough for the test to delete the scan first.
		"GEOSCAN_WEBHOOK_RETRY_DELAYS": "2s",
	}})
	org := h.NewOrg(t, "pro", true)
	ctx := context.Background()

	scan, _ := createScan(t, org, rc, "/down/")
	cbs, _ := poll.For(t, 60*time.Second, func() ([]callback, bool) { cbs := rc.callbacks(); return cbs, len(cbs) > 0 })
	require.NotEmpty(t, cbs, "the first attempt arrives")
	id := cbs[0].Header.Get("X-GeoScan-Delivery")

	del, err := org.Client.DeleteScanWithResponse(ctx, scan.ID)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, del.StatusCode())
	var rows int
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT count(*) FROM webhook_deliveries WHERE id = $1", id).Scan(&rows))
	require.Zero(t, rows, "deleting the scan deleted its delivery")

	// The retry job still runs, finds nothing to deliver and ends.
	require.Equal(t, "completed", jobState(t, h, id, "completed"))
	require.Len(t, rc.callbacks(), 1, "nothing is sent for a deleted scan")
}

// jobState polls the state of the newest job of a delivery until it is
// want (or a minute passes) and returns the last state seen.
func jobState(t *testing.T, h *apitest.Harness, deliveryID, want string) string {
	t.Helper()
	state, _ := poll.For(t, time.Minute, func() (string, bool) {
		var state string
		require.NoError(t, h.Store.Pool().QueryRow(context.Background(),
			"SELECT state FROM river_job WHERE args->>'delivery_id' = $1 ORDER BY id DESC LIMIT 1", deliveryID).Scan(&state))
		return state, state == want
	})
	return state
}
