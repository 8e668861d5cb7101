package api_test

import (
	"context"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/apitest"
	"github.com/geoscan/geoscan/internal/webhook"
)

func TestWebhookVerify(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)
	ctx := context.Background()

	// The test vector published in openapi.yaml.
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
	require.Equal(t, sig, ok.JSON200.ExpectedSignature)
	require.NotContains(t, string(ok.Body), secret, "the secret is not echoed")

	for _, tc := range []struct {
		payload, sig, secret string
		reason               client.WebhookVerifyResultReason
	}{
		{payload + " ", sig, secret, client.SignatureMismatch},
		{payload, "sha256=abc", secret, client.MalformedSignature},
		{payload, sig, "not-a-secret", client.MalformedSecret},
	} {
		r, err := org.Client.VerifyWebhookWithResponse(ctx, client.WebhookVerifyRequest{Payload: tc.payload, Signature: tc.sig, Secret: tc.secret})
		require.NoError(t, err)
		require.False(t, r.JSON200.Valid)
		require.Equal(t, tc.reason, *r.JSON200.Reason)
	}
	h.Do(t, "POST", "/api/v1/webhooks/verify", org.Key, map[string]any{"payload": "x"}).RequireError(t, 422, "missing_parameter", "signature")
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
		require.NoError(t, webhook.Verify(res.Secret, body, got.Header.Get("X-GeoScan-Signature")))
		require.Equal(t, "scan.test", got.Header.Get("X-GeoScan-Event"))
		require.Equal(t, res.DeliveryID.String(), got.Header.Get("X-GeoScan-Delivery"))
		require.Equal(t, "GeoScan-Webhook/1.0", got.Header.Get("User-Agent"))
		require.Equal(t, "application/json", got.Header.Get("Content-Type"))
		require.NotEmpty(t, got.Header.Get("webhook-signature"))
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
		require.Contains(t, *resp.JSON200.Error, "certificate")
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
