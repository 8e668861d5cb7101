package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Timeout bounds one delivery attempt: connect, TLS, headers and body.
const Timeout = 10 * time.Second

// UserAgent identifies GeoScan's callbacks.
const UserAgent = "GeoScan-Webhook/1.0"

// PayloadTimeFormat is ISO 8601 in UTC without a zone suffix, as the
// specification's payload shows.
const PayloadTimeFormat = "2006-01-02T15:04:05"

// Payload is the JSON body of a callback; the field order is the wire order.
type Payload struct {
	Event        string   `json:"event"`
	ScanID       string   `json:"scan_id"`
	URL          string   `json:"url"`
	Status       string   `json:"status"`
	OverallScore *float64 `json:"overall_score"`
	ErrorMessage *string  `json:"error_message"`
	CreatedAt    string   `json:"created_at"`
	CompletedAt  string   `json:"completed_at"`
}

// Encode returns the exact bytes that are signed and sent.
func (p Payload) Encode() ([]byte, error) { return json.Marshal(p) }

// Delivery is one attempt to send a signed body.
type Delivery struct {
	ID     string // X-GeoScan-Delivery and webhook-id; stable across retries
	URL    string
	Event  string
	Secret string
	Body   []byte
}

// Result is how the receiver answered one attempt.
type Result struct {
	Delivered  bool
	StatusCode *int
	Duration   time.Duration
	Signature  string
	Timestamp  int64
	Err        error
}

// Send makes one attempt with client, which must not follow redirects and
// must guard destinations (netguard.NewClient). Only a 2xx counts; the
// response body is read up to a small cap and discarded, never stored.
func Send(ctx context.Context, client *http.Client, d Delivery, now time.Time) Result {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	res := Result{Signature: Sign(d.Secret, d.Body), Timestamp: now.Unix()}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		res.Err = fmt.Errorf("build request: %w", err)
		return res
	}
	ts := strconv.FormatInt(res.Timestamp, 10)
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", UserAgent)
	h.Set("X-GeoScan-Signature", res.Signature)
	h.Set("X-GeoScan-Timestamp", ts)
	h.Set("X-GeoScan-Event", d.Event)
	h.Set("X-GeoScan-Delivery", d.ID)
	if sig, ok := standardSignature(d.Secret, d.ID, ts, d.Body); ok {
		h.Set("webhook-id", d.ID)
		h.Set("webhook-timestamp", ts)
		h.Set("webhook-signature", sig)
	}
	start := time.Now()
	resp, err := client.Do(req)
	res.Duration = time.Since(start)
	if err != nil {
		res.Err = err
		return res
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	code := resp.StatusCode
	res.StatusCode = &code
	if code >= 200 && code < 300 {
		res.Delivered = true
	} else {
		res.Err = fmt.Errorf("receiver answered %d", code)
	}
	return res
}

// standardSignature is the Standard Webhooks signature: base64 HMAC-SHA256
// of "id.timestamp.body" keyed with the base64-decoded secret after whsec_.
func standardSignature(secret, id, ts string, body []byte) (string, bool) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 {
		return "", false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), true
}
