package api

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/apierror"
	"github.com/geoscan/geoscan/internal/webhook"
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

// signatureForm is how a submitted signature was written.
type signatureForm int

const (
	formV1          signatureForm = iota // v1=<hex>, as sent
	formBare                             // <hex> without a prefix
	formOtherPrefix                      // sha256=<hex> and the like
)

// parseSignature reads the MAC out of a submitted signature, accepting the
// near-misses the hints explain; anything else is malformed input.
func parseSignature(sig string) (mac []byte, form signatureForm, upper bool, err error) {
	sig = strings.TrimSpace(sig)
	if strings.HasPrefix(sig, "v1,") {
		return nil, 0, false, apierror.New(apierror.CodeInvalidParameter, "signature",
			"signature is a Standard Webhooks webhook-signature value (v1,<base64>); this endpoint checks X-GeoScan-Signature (v1=<hex>). Verify webhook-signature with a Standard Webhooks library.")
	}
	hexPart, ok := strings.CutPrefix(sig, pubwebhook.SignaturePrefix)
	switch {
	case ok:
		form = formV1
	case strings.Contains(sig, "="):
		_, hexPart, _ = strings.Cut(sig, "=")
		form = formOtherPrefix
	default:
		form = formBare
	}
	mac, herr := hex.DecodeString(hexPart)
	if herr != nil || len(mac) != sha256.Size {
		return nil, 0, false, apierror.New(apierror.CodeInvalidParameter, "signature",
			"signature must be v1= followed by 64 hexadecimal digits (an HMAC-SHA256).")
	}
	return mac, form, hexPart != strings.ToLower(hexPart), nil
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
// when it differs, looks for the mistake that explains the difference.
func (s *Server) VerifyWebhook(_ context.Context, req api.VerifyWebhookRequestObject) (api.VerifyWebhookResponseObject, error) {
	b := req.Body
	if !strings.HasPrefix(b.Secret, pubwebhook.SecretPrefix) || len(b.Secret) == len(pubwebhook.SecretPrefix) {
		return nil, apierror.New(apierror.CodeInvalidParameter, "secret",
			"secret must be the scan's whole webhook_secret, starting with whsec_.")
	}
	got, form, upper, err := parseSignature(b.Signature)
	if err != nil {
		return nil, err
	}
	body := []byte(b.Payload)
	out := api.WebhookVerifyResult{ExpectedSignature: pubwebhook.Sign(b.Secret, body)}
	var reason api.WebhookVerifyResultReason
	switch {
	case !hmac.Equal(hmacOf([]byte(b.Secret), body), got):
		reason = diagnose(b.Secret, body, got)
	case form != formV1:
		reason = api.MissingPrefix
	case upper:
		reason = api.UppercaseHex
	default:
		out.Valid = true
		return api.VerifyWebhook200JSONResponse{Body: out}, nil
	}
	hint := verifyHints[reason]
	out.Reason, out.Hint = &reason, &hint
	return api.VerifyWebhook200JSONResponse{Body: out}, nil
}

func hmacOf(key, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(body)
	return m.Sum(nil)
}

// diagnose tries the usual wrong keys and wrong bodies; the first that
// reproduces the submitted MAC names the mistake.
func diagnose(secret string, body, got []byte) api.WebhookVerifyResultReason {
	stripped := strings.TrimPrefix(secret, pubwebhook.SecretPrefix)
	if hmac.Equal(hmacOf([]byte(stripped), body), got) {
		return api.SecretPrefixStripped
	}
	if key, err := base64.StdEncoding.DecodeString(stripped); err == nil && hmac.Equal(hmacOf(key, body), got) {
		return api.SecretBase64Decoded
	}
	for _, alt := range reserialized(body) {
		if hmac.Equal(hmacOf([]byte(secret), alt), got) {
			return api.ReserializedJSON
		}
	}
	return api.SignatureMismatch
}

// reserialized lists what common JSON libraries make of body when a
// receiver parses it and serializes it again, plus line-ending slips.
func reserialized(body []byte) [][]byte {
	out := [][]byte{append(bytes.Clone(body), '\n'), bytes.TrimSpace(body)}
	var compact bytes.Buffer
	if json.Compact(&compact, body) != nil {
		return out // not JSON: only the whitespace slips apply
	}
	c := compact.Bytes()
	out = append(out, c, spaced(c))
	for _, indent := range []string{"  ", "    ", "\t"} {
		var b bytes.Buffer
		if json.Indent(&b, c, "", indent) == nil {
			out = append(out, b.Bytes())
		}
	}
	// Decoding into a map sorts the keys on the way out (Go, and Python's
	// sort_keys=True); numbers keep their text.
	dec := json.NewDecoder(bytes.NewReader(c))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) == nil {
			sorted := bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
			out = append(out, sorted, spaced(sorted))
		}
	}
	return out
}

// spaced turns compact JSON into Python's default json.dumps layout:
// ", " between items and ": " after keys.
func spaced(compact []byte) []byte {
	var b bytes.Buffer
	inString, escaped := false, false
	for _, c := range compact {
		b.WriteByte(c)
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ',' || c == ':'):
			b.WriteByte(' ')
		}
	}
	return b.Bytes()
}
