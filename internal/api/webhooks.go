package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/apierror"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/webhook"
)

// TestWebhook sends one signed scan.test callback and reports the outcome.
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
		Event: "scan.test", ScanID: "test_" + hex.EncodeToString(suffix), URL: "https://www.example.com/",
		Status: "completed", OverallScore: &score,
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
		Secret: secret, Body: string(body), Signature: res.Signature, Timestamp: res.Timestamp,
		Delivered: res.Delivered, StatusCode: res.StatusCode, DurationMs: int(res.Duration.Milliseconds()),
		Payload: api.WebhookPayload{
			Event: api.WebhookPayloadEvent(payload.Event), ScanID: payload.ScanID, URL: payload.URL,
			Status: api.WebhookPayloadStatus(payload.Status), OverallScore: payload.OverallScore,
			CreatedAt: payload.CreatedAt, CompletedAt: payload.CompletedAt,
		},
	}
	if res.Err != nil {
		msg := res.Err.Error()
		if netguard.IsBlocked(res.Err) {
			msg = "blocked_destination: the receiver's address is not a public address"
		}
		out.Error = &msg
	}
	return api.TestWebhook200JSONResponse(out), nil
}

// VerifyWebhook recomputes a signature and compares it in constant time.
func (s *Server) VerifyWebhook(_ context.Context, req api.VerifyWebhookRequestObject) (api.VerifyWebhookResponseObject, error) {
	b := req.Body
	out := api.WebhookVerifyResult{ExpectedSignature: webhook.Sign(b.Secret, []byte(b.Payload))}
	err := webhook.Verify(b.Secret, []byte(b.Payload), b.Signature)
	var reason api.WebhookVerifyResultReason
	switch {
	case err == nil:
		out.Valid = true
	case errors.Is(err, webhook.ErrMalformedSecret):
		reason = api.MalformedSecret
	case errors.Is(err, webhook.ErrMalformedSignature):
		reason = api.MalformedSignature
	case errors.Is(err, webhook.ErrSignatureMismatch):
		reason = api.SignatureMismatch
	default:
		return nil, fmt.Errorf("verify: %w", err)
	}
	if !out.Valid {
		out.Reason = &reason
	}
	return api.VerifyWebhook200JSONResponse(out), nil
}
