package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/jobs/webhook"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
	pubwebhook "github.com/geoscan/geoscan/webhook"
)

// TestWebhook sends one signed scan.test callback and reports the outcome.
// It uses the same URL rules, guarded client and sender as real callbacks;
// nothing is stored and the receiver's answer is reduced to a status code.
func (s *Server) TestWebhook(ctx context.Context, req api.TestWebhookRequestObject) (api.TestWebhookResponseObject, error) {
	target, err := s.checkTarget(ctx, req.Body.URL, apierror.CodeInvalidCallbackURL, "url")
	if err != nil {
		return nil, err
	}
	secret, err := webhook.NewSecret()
	if err != nil {
		return nil, err
	}
	suffix := make([]byte, 8)
	if _, err := rand.Read(suffix); err != nil {
		return nil, err
	}
	now := s.now()
	score := 72.5
	payload := webhook.Payload{
		Event: webhook.EventTest, ScanID: "test_" + hex.EncodeToString(suffix), URL: "https://www.example.com/",
		Status: string(api.WebhookPayloadStatusCompleted), OverallScore: &score,
		CreatedAt: now.Add(-90 * time.Second).Format(webhook.PayloadTimeFormat), CompletedAt: now.Format(webhook.PayloadTimeFormat),
	}
	body, err := payload.Encode()
	if err != nil {
		return nil, err
	}
	d := webhook.Delivery{ID: uuid.NewString(), URL: target.String(), Event: payload.Event, Secret: secret, Body: body}
	res := webhook.Send(ctx, s.d.Webhooks, d, now)

	out := api.WebhookTestResult{
		DeliveryID: uuid.MustParse(d.ID), URL: d.URL, Event: api.WebhookTestResultEventScanTest,
		Secret: secret, Body: string(body), Signature: res.Signature, StandardSignature: res.Standard,
		Timestamp: res.Timestamp, Delivered: res.Delivered, StatusCode: res.StatusCode,
		DurationMs: int(res.Duration.Milliseconds()),
		Payload: api.WebhookPayload{
			Event: api.WebhookPayloadEvent(payload.Event), ScanID: payload.ScanID, URL: payload.URL,
			Status: api.WebhookPayloadStatus(payload.Status), OverallScore: payload.OverallScore,
			CreatedAt: payload.CreatedAt, CompletedAt: payload.CompletedAt,
		},
	}
	if res.Err != nil {
		msg := res.ErrorText()
		out.Error = &msg
	}
	return api.TestWebhook200JSONResponse{Body: out}, nil
}

// Hints for each verdict; they name the fix, not just the symptom.
var verifyHints = map[api.WebhookVerifyResultReason]string{
	api.UppercaseHex: "The HMAC is right but written in upper-case hex; X-GeoScan-Signature is lower-case. " +
		"Compare lower-case hex, or decode both sides and compare the bytes in constant time.",
	api.MissingPrefix: "The HMAC is right but the value does not start with v1=, as X-GeoScan-Signature does. " +
		"Prefix your computed value with v1= before comparing.",
	api.SecretPrefixStripped: "This signature was computed with the secret without its whsec_ prefix. " +
		"The key is the whole webhook_secret string, whsec_ included, as UTF-8 bytes.",
	api.SecretBase64Decoded: "This signature was computed with the base64-decoded secret, which is the key of the " +
		"Standard Webhooks webhook-signature header. X-GeoScan-Signature is keyed with the whole webhook_secret string as UTF-8 bytes.",
	api.ReserializedJSON: "This signature is over a re-serialized copy of the JSON (other whitespace, key order or line ending). " +
		"Sign the raw request body bytes exactly as received, before any JSON parsing.",
	api.SignatureMismatch: "The signature matches none of the common mistakes. Check that secret is the webhook_secret " +
		"of the scan that sent this callback and that payload is the raw body exactly as received.",
}

// VerifyWebhook recomputes a signature, compares it in constant time and,
// when it differs, names the mistake that explains the difference (the
// public webhook package's Diagnose) with a hint.
func (s *Server) VerifyWebhook(_ context.Context, req api.VerifyWebhookRequestObject) (api.VerifyWebhookResponseObject, error) {
	b := req.Body
	body := []byte(b.Payload)
	mistake, err := pubwebhook.Diagnose(b.Secret, body, b.Signature)
	switch {
	case errors.Is(err, pubwebhook.ErrMalformedSecret):
		return nil, apierror.New(apierror.CodeInvalidParameter, "secret",
			"secret must be the scan's whole webhook_secret, starting with whsec_.")
	case errors.Is(err, pubwebhook.ErrStandardSignature):
		return nil, apierror.New(apierror.CodeInvalidParameter, "signature",
			"signature is a Standard Webhooks webhook-signature value (v1,<base64>); this endpoint checks X-GeoScan-Signature (v1=<hex>). Verify webhook-signature with a Standard Webhooks library.")
	case errors.Is(err, pubwebhook.ErrMalformedSignature):
		return nil, apierror.New(apierror.CodeInvalidParameter, "signature",
			"signature must be v1= followed by 64 hexadecimal digits (an HMAC-SHA256).")
	case err != nil:
		return nil, err
	}
	out := api.WebhookVerifyResult{ExpectedSignature: pubwebhook.Sign(b.Secret, body)}
	if mistake == "" {
		out.Valid = true
		return api.VerifyWebhook200JSONResponse{Body: out}, nil
	}
	reason := api.WebhookVerifyResultReason(mistake)
	hint := verifyHints[reason]
	out.Reason, out.Hint = &reason, &hint
	return api.VerifyWebhook200JSONResponse{Body: out}, nil
}

// ListScanDeliveries lists a scan's callback deliveries with their attempts.
func (s *Server) ListScanDeliveries(ctx context.Context, req api.ListScanDeliveriesRequestObject) (api.ListScanDeliveriesResponseObject, error) {
	scan, err := s.loadScan(ctx, req.ScanID)
	if err != nil {
		return nil, err
	}
	pg, err := keysetPage(req.Params.Cursor, req.Params.Limit, func(after *store.Cursor, limit int) ([]store.DeliveryWithAttempts, error) {
		return s.d.Store.ListDeliveries(ctx, scan.ID, after, limit)
	}, toAPIDelivery)
	if err != nil {
		return nil, err
	}
	return deliveryListResponse(api.WebhookDeliveryList{Data: pg.Data, HasMore: pg.HasMore, NextCursor: pg.NextCursor}), nil
}

// RedeliverScanWebhook queues the final event of a finished scan again.
func (s *Server) RedeliverScanWebhook(ctx context.Context, req api.RedeliverScanWebhookRequestObject) (api.RedeliverScanWebhookResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	var d store.WebhookDelivery
	err = s.d.Store.InTx(ctx, func(tx *store.Store) error {
		d, err = s.d.Deliveries.Redeliver(ctx, tx, p.OrgID, req.ScanID)
		return err
	})
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, scanNotFound(req.ScanID)
	case errors.Is(err, webhook.ErrScanNotFinished):
		phrase := "has not finished yet"
		if nf := (*webhook.NotFinishedError)(nil); errors.As(err, &nf) {
			phrase = nf.Status.Phrase()
		}
		return nil, apierror.New(apierror.CodeScanNotFinished, "scan_id",
			"Scan %s %s; its callback is sent when it completes or fails, and can be redelivered after that.", req.ScanID, phrase)
	case errors.Is(err, webhook.ErrNoCallback):
		return nil, apierror.New(apierror.CodeCallbackNotSet, "scan_id",
			"Scan %s was created without a callback_url, so there is nothing to redeliver.", req.ScanID)
	case err != nil:
		return nil, err
	}
	return api.RedeliverScanWebhook202JSONResponse{Body: toAPIDelivery(store.DeliveryWithAttempts{WebhookDelivery: d})}, nil
}

// toAPIDelivery maps a delivery; its payload and the scan's secret stay out.
func toAPIDelivery(d store.DeliveryWithAttempts) api.WebhookDelivery {
	out := api.WebhookDelivery{
		ID: d.ID, Event: api.WebhookDeliveryEvent(d.Event), URL: d.URL,
		Status: api.WebhookDeliveryStatus(d.Status), AttemptCount: int(d.AttemptCount),
		NextAttemptAt: utcPtr(d.NextAttemptAt), LastError: d.LastError, LastStatusCode: intPtr(d.LastStatusCode),
		CreatedAt: d.CreatedAt.UTC(), CompletedAt: utcPtr(d.CompletedAt),
		Attempts: make([]api.WebhookDeliveryAttempt, 0, len(d.Attempts)),
	}
	if d.Status != store.DeliveryPending {
		out.NextAttemptAt = nil
	}
	if d.ScanID != nil {
		out.ScanID = *d.ScanID
	}
	for _, a := range d.Attempts {
		out.Attempts = append(out.Attempts, api.WebhookDeliveryAttempt{
			Attempt: int(a.Attempt), StartedAt: a.StartedAt.UTC(), DurationMs: int(a.DurationMs),
			StatusCode: intPtr(a.StatusCode), Error: a.Error,
		})
	}
	return out
}
