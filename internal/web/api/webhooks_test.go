package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

func TestWebhookVerify(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)
	roomyRateLimits(t, h, org)
	ctx := context.Background()

	// The test vector published in openapi.yaml and docs/WEBHOOKS.md.
	const (
		secret  = "whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw=="
		payload = `{"event":"scan.test","scan_id":"test_0"}`
		sig     = "v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d"
	)
	ok, err := org.Client.VerifyWebhookWithResponse(ctx, client.WebhookVerifyRequest{Payload: payload, Signature: sig, Secret: secret})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, ok.StatusCode(), "body: %s", ok.Body)
	require.True(t, ok.JSON200.Valid)
	require.Nil(t, ok.JSON200.Reason)
	require.Nil(t, ok.JSON200.Hint)
	require.Equal(t, sig, ok.JSON200.ExpectedSignature)
	require.NotContains(t, string(ok.Body), secret, "the secret is not echoed")

	// The common mistakes, each made here the way a receiver would make it.
	mac := func(key, body []byte) string {
		m := hmac.New(sha256.New, key)
		m.Write(body)
		return hex.EncodeToString(m.Sum(nil))
	}
	decoded, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	require.NoError(t, err)
	pretty := `{"event": "scan.test", "scan_id": "test_0"}`
	for _, tc := range []struct {
		name, payload, sig string
		reason             client.WebhookVerifyResultReason
	}{
		{"re-serialized JSON", pretty, "v1=" + mac([]byte(secret), []byte(payload)), client.ReserializedJSON},
		{"indented JSON", payload, "v1=" + mac([]byte(secret), []byte("{\n  \"event\": \"scan.test\",\n  \"scan_id\": \"test_0\"\n}")), client.ReserializedJSON},
		{"prefix stripped from the key", payload, "v1=" + mac([]byte(strings.TrimPrefix(secret, "whsec_")), []byte(payload)), client.SecretPrefixStripped},
		{"base64-decoded key", payload, "v1=" + mac(decoded, []byte(payload)), client.SecretBase64Decoded},
		{"upper-case hex", payload, "v1=" + strings.ToUpper(sig[3:]), client.UppercaseHex},
		{"no v1= prefix", payload, sig[3:], client.MissingPrefix},
		{"another prefix", payload, "sha256=" + sig[3:], client.MissingPrefix},
		{"another secret", payload, "v1=" + mac([]byte("whsec_other"), []byte(payload)), client.SignatureMismatch},
		{"tampered body", payload + "x", sig, client.SignatureMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := org.Client.VerifyWebhookWithResponse(ctx, client.WebhookVerifyRequest{Payload: tc.payload, Signature: tc.sig, Secret: secret})
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, r.StatusCode(), "body: %s", r.Body)
			require.False(t, r.JSON200.Valid)
			require.NotNil(t, r.JSON200.Reason)
			require.Equal(t, tc.reason, *r.JSON200.Reason)
			require.NotEmpty(t, *r.JSON200.Hint)
		})
	}

	// Malformed input is a 422 naming the field.
	for _, tc := range []struct {
		body        map[string]any
		code, param string
	}{
		{map[string]any{"payload": payload, "signature": "v1=abc", "secret": secret}, "invalid_parameter", "signature"},
		{map[string]any{"payload": payload, "signature": "v1=" + strings.Repeat("z", 64), "secret": secret}, "invalid_parameter", "signature"},
		{map[string]any{"payload": payload, "signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", "secret": secret}, "invalid_parameter", "signature"},
		{map[string]any{"payload": payload, "signature": sig, "secret": "not-a-secret"}, "invalid_parameter", "secret"},
		{map[string]any{"payload": payload, "signature": sig, "secret": "whsec_"}, "invalid_parameter", "secret"},
		{map[string]any{"payload": "x"}, "missing_parameter", "signature"},
		{map[string]any{"payload": payload, "signature": sig, "secret": secret, "extra": 1}, "unknown_parameter", "extra"},
		{map[string]any{"payload": 7, "signature": sig, "secret": secret}, "invalid_parameter", "payload"},
	} {
		h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, tc.body).RequireError(t, 422, tc.code, tc.param)
	}
	h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, "{not json").RequireError(t, 400, "invalid_json", "")
	h.Do(t, "POST", "/api/v1/webhooks/verify", "", map[string]any{"payload": payload, "signature": sig, "secret": secret}).RequireError(t, 401, "api_key_required", "")
}

// hostileCallbacks are refused when a scan is created or a test callback
// is requested (the send-time refusals are tested in internal/jobs/webhook).
var hostileCallbacks = []string{
	"https://127.0.0.1/hook",
	"https://10.0.0.1/",
	"https://10.255.255.255/",
	"https://172.16.0.1/",
	"https://172.31.0.1/",
	"https://192.168.1.1/",
	"https://169.254.169.254/latest/meta-data/",
	"https://[::1]/",
	"https://[::ffff:127.0.0.1]/",
	"https://[::ffff:7f00:1]/",
	"https://[::ffff:10.0.0.1]/",
	"https://2130706433/",
	"https://3232235777/",
	"https://0x7f000001/",
	"https://0177.0.0.1/",
	"https://127.1/",
	"https://inward.example.com/",
	"https://v6inward.example.com/",
	"https://mixed.example.com/",
	"https://localhost/",
	"http://hooks.example.com/",
	"https://hooks.example.com:8443/",
	"https://user:pass@hooks.example.com/",
}

func TestHostileCallbacksRefusedAtCreation(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)
	for _, u := range hostileCallbacks {
		h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://www.example.com/", "callback_url": u}).
			RequireError(t, 422, "invalid_callback_url", "callback_url")
		h.Do(t, "POST", "/api/v1/webhooks/test", org.Key, map[string]any{"url": u}).
			RequireError(t, 422, "invalid_callback_url", "url")
	}
	// A public receiver passes the same checks (no request is made: no workers run).
	ok := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://www.example.com/", "callback_url": "https://hooks.example.com/geoscan"})
	require.Equal(t, http.StatusCreated, ok.Status, "body: %s", ok.Body)
}

// receiver is a loopback HTTPS endpoint that records what it gets.
type receiver struct {
	srv    *httptest.Server
	caFile string
	mu     sync.Mutex
	got    []*http.Request
	bodies [][]byte
	status int
}

func newReceiver(t *testing.T, status int) *receiver {
	t.Helper()
	rc := &receiver{status: status}
	rc.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, r)
		rc.bodies = append(rc.bodies, b)
		rc.mu.Unlock()
		w.WriteHeader(rc.status)
	}))
	t.Cleanup(rc.srv.Close)
	rc.caFile = filepath.Join(t.TempDir(), "ca.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rc.srv.Certificate().Raw})
	require.NoError(t, os.WriteFile(rc.caFile, pemBytes, 0o600))
	return rc
}

func TestWebhookTest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("CountsAgainstApiWrite", func(t *testing.T) {
		t.Parallel()
		rc := newReceiver(t, http.StatusNoContent)
		h := start(t, apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{"GEOSCAN_EXTRA_CA_FILE": rc.caFile}})
		org := h.NewOrg(t, "free", true) // 10 api_write per minute
		body := map[string]any{"url": rc.srv.URL + "/hook"}
		for i := range 10 {
			r := h.Do(t, "POST", "/api/v1/webhooks/test", org.Key, body)
			require.Equal(t, http.StatusOK, r.Status, "test %d: %s", i+1, r.Body)
			require.Equal(t, "api_write", r.Header.Get("X-RateLimit-Group"))
		}
		h.Do(t, "POST", "/api/v1/webhooks/test", org.Key, body).RequireError(t, http.StatusTooManyRequests, "org_rate_limit_exceeded", "")
		rc.mu.Lock()
		defer rc.mu.Unlock()
		require.Len(t, rc.got, 10, "the refused test sent nothing")
	})

	t.Run("DeliversSignedSample", func(t *testing.T) {
		t.Parallel()
		rc := newReceiver(t, http.StatusNoContent)
		h := start(t, apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{"GEOSCAN_EXTRA_CA_FILE": rc.caFile}})
		org := h.NewOrg(t, "free", true)

		resp, err := org.Client.TestWebhookWithResponse(ctx, client.WebhookTestRequest{URL: rc.srv.URL + "/hook"})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode(), "body: %s", resp.Body)
		res := resp.JSON200
		require.True(t, res.Delivered, "error: %s", deref(res.Error))
		require.Equal(t, 204, *res.StatusCode)
		require.Equal(t, client.WebhookPayloadEventScanTest, res.Payload.Event)
		require.Regexp(t, `^test_[0-9a-f]{16}$`, res.Payload.ScanID)

		rc.mu.Lock()
		defer rc.mu.Unlock()
		require.Len(t, rc.got, 1)
		got, body := rc.got[0], rc.bodies[0]
		require.Equal(t, res.Body, string(body), "the response shows the exact bytes sent")
		require.Equal(t, res.Signature, got.Header.Get("X-GeoScan-Signature"))
		m := hmac.New(sha256.New, []byte(res.Secret))
		m.Write(body)
		require.Equal(t, "v1="+hex.EncodeToString(m.Sum(nil)), res.Signature, "checked independently over the raw bytes")
		require.Equal(t, res.StandardSignature, got.Header.Get("webhook-signature"))
		require.Equal(t, res.DeliveryID.String(), got.Header.Get("webhook-id"))
		require.Equal(t, "scan.test", got.Header.Get("X-GeoScan-Event"))
		require.Equal(t, res.DeliveryID.String(), got.Header.Get("X-GeoScan-Delivery"))
		require.Equal(t, "GeoScan-Webhook/1.0", got.Header.Get("User-Agent"))
		require.Equal(t, "application/json", got.Header.Get("Content-Type"))
		require.NotContains(t, h.Logs(), res.Secret, "secrets never reach the logs")
	})

	t.Run("ReportsFailure", func(t *testing.T) {
		t.Parallel()
		rc := newReceiver(t, http.StatusInternalServerError)
		h := start(t, apitest.Options{AllowPrivateTargets: true, Getenv: map[string]string{"GEOSCAN_EXTRA_CA_FILE": rc.caFile}})
		org := h.NewOrg(t, "free", true)
		resp, err := org.Client.TestWebhookWithResponse(ctx, client.WebhookTestRequest{URL: rc.srv.URL})
		require.NoError(t, err)
		require.False(t, resp.JSON200.Delivered)
		require.NotNil(t, resp.JSON200.StatusCode, "error: %s", deref(resp.JSON200.Error))
		require.Equal(t, 500, *resp.JSON200.StatusCode)
		require.NotNil(t, resp.JSON200.Error)
	})

	t.Run("UntrustedCertificate", func(t *testing.T) {
		t.Parallel()
		rc := newReceiver(t, http.StatusOK)
		h := start(t, apitest.Options{AllowPrivateTargets: true})
		org := h.NewOrg(t, "free", true)
		resp, err := org.Client.TestWebhookWithResponse(ctx, client.WebhookTestRequest{URL: rc.srv.URL})
		require.NoError(t, err)
		require.False(t, resp.JSON200.Delivered)
		require.Nil(t, resp.JSON200.StatusCode)
		require.Equal(t, "tls: certificate is self-signed, not issued by a trusted certificate authority", *resp.JSON200.Error)
		require.Empty(t, rc.got)
	})

	t.Run("ProductionRefusesLoopback", func(t *testing.T) {
		t.Parallel()
		rc := newReceiver(t, http.StatusOK)
		h := start(t)
		org := h.NewOrg(t, "free", true)
		h.Do(t, "POST", "/api/v1/webhooks/test", org.Key, map[string]any{"url": rc.srv.URL}).RequireError(t, 422, "invalid_callback_url", "url")
		h.Do(t, "POST", "/api/v1/webhooks/test", org.Key, map[string]any{"url": "http://hooks.example.com/"}).RequireError(t, 422, "invalid_callback_url", "url")
		require.Empty(t, rc.got)
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// No scan engine runs in this package, so scans stay pending: these tests
// cover scoping and refusals. Delivery, retries and redelivery of finished
// scans are tested with real workers in internal/jobs/webhook.
func TestDeliveriesEndpoints(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	other := h.NewOrg(t, "pro", true)

	cb := "https://hooks.example.com/geoscan"
	withCallback, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://www.example.com/", CallbackURL: &cb})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, withCallback.StatusCode(), "body: %s", withCallback.Body)
	scanID := withCallback.JSON201.ID
	without, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://www.example.com/"})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, without.StatusCode())

	t.Run("EmptyUntilTheScanFinishes", func(t *testing.T) {
		list, err := org.Client.ListScanDeliveriesWithResponse(ctx, scanID, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, list.StatusCode(), "body: %s", list.Body)
		require.Empty(t, list.JSON200.Data)
		require.False(t, list.JSON200.HasMore)
		require.Nil(t, list.JSON200.NextCursor)
	})

	t.Run("Refusals", func(t *testing.T) {
		base := "/api/v1/scans/" + scanID.String() + "/deliveries"
		for _, tc := range []struct {
			name, method, path, key string
			status                  int
			code, param             string
		}{
			{"other organization lists", "GET", base, other.Key, 404, "scan_not_found", "scan_id"},
			{"other organization redelivers", "POST", base + "/redeliver", other.Key, 404, "scan_not_found", "scan_id"},
			{"unknown scan", "GET", "/api/v1/scans/" + uuid.NewString() + "/deliveries", org.Key, 404, "scan_not_found", "scan_id"},
			{"unknown scan redelivers", "POST", "/api/v1/scans/" + uuid.NewString() + "/deliveries/redeliver", org.Key, 404, "scan_not_found", "scan_id"},
			{"malformed id", "GET", "/api/v1/scans/not-a-uuid/deliveries", org.Key, 422, "invalid_parameter", "scan_id"},
			{"no key", "GET", base, "", 401, "api_key_required", ""},
			{"limit too small", "GET", base + "?limit=0", org.Key, 422, "invalid_parameter", "limit"},
			{"limit too large", "GET", base + "?limit=101", org.Key, 422, "invalid_parameter", "limit"},
			{"foreign cursor", "GET", base + "?cursor=bm90LWEtY3Vyc29y", org.Key, 422, "invalid_parameter", "cursor"},
			{"scan not finished", "POST", base + "/redeliver", org.Key, 409, "scan_not_finished", "scan_id"},
			{"no callback_url", "POST", "/api/v1/scans/" + without.JSON201.ID.String() + "/deliveries/redeliver", org.Key, 409, "callback_not_configured", "scan_id"},
			{"wrong method", "DELETE", base, org.Key, 405, "method_not_allowed", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				h.Do(t, tc.method, tc.path, tc.key, nil).RequireError(t, tc.status, tc.code, tc.param)
			})
		}
	})

	t.Run("NotFinishedNamesTheState", func(t *testing.T) {
		r := h.Do(t, "POST", "/api/v1/scans/"+scanID.String()+"/deliveries/redeliver", org.Key, nil)
		r.RequireError(t, 409, "scan_not_finished", "scan_id")
		require.Contains(t, r.Error(t).Error.Message, "Scan "+scanID.String()+" is waiting to run;")
	})
}
