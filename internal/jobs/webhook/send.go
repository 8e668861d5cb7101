package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store/storable"
	"github.com/geoscan/geoscan/webhook"
)

// Timeout bounds one delivery attempt: connect, TLS, headers and body.
const Timeout = 10 * time.Second

// UserAgent identifies GeoScan's callbacks.
const UserAgent = "GeoScan-Webhook/1.0"

// MaxResponseBytes is how much of a receiver's answer is read (and thrown
// away): enough to keep the connection reusable, too little to be a cost.
const MaxResponseBytes = 64 << 10

// PayloadTimeFormat is ISO 8601 in UTC without a zone suffix, as the
// specification's payload shows.
const PayloadTimeFormat = "2006-01-02T15:04:05"

// Events.
const (
	EventCompleted = "scan.completed"
	EventFailed    = "scan.failed"
	EventTest      = "scan.test"
)

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
	// PagesAudited is the pages a whole-site audit judged; absent for a
	// homepage audit, so its body is the specification's exactly.
	PagesAudited *int `json:"pages_audited,omitempty"`
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

// Outcome classes of an attempt, the prefix of its recorded error.
const (
	ClassBlocked    = "blocked_destination"
	ClassTimeout    = "timeout"
	ClassRedirect   = "redirect"
	ClassHTTPStatus = "http_status"
	ClassTLS        = "tls"
	ClassConnection = "connection"
	ClassDNS        = "dns"
)

// Result is how the receiver answered one attempt.
type Result struct {
	Delivered  bool
	StatusCode *int
	Duration   time.Duration
	Signature  string // X-GeoScan-Signature sent
	Standard   string // webhook-signature sent
	Timestamp  int64
	// Class is one of the Class constants when the attempt failed.
	Class string
	Err   error
}

// Blocked reports a destination the SSRF guard refused: retrying cannot help.
func (r Result) Blocked() bool { return r.Class == ClassBlocked }

// ErrorText is the attempt's failure as recorded and shown: the class, then
// a short reason. It never contains the receiver's body or headers, but a
// reason may quote what the receiver presented (a certificate's names), so
// it is cut on a character boundary and made storable.
func (r Result) ErrorText() string {
	if r.Err == nil {
		return ""
	}
	return storable.Truncate(r.Class+": "+r.Err.Error(), 300)
}

// Send makes one attempt with client, which must not follow redirects and
// must guard destinations (netguard.NewClient). Only a 2xx counts; the
// response body is read up to MaxResponseBytes and discarded, never stored.
func Send(ctx context.Context, client *http.Client, d Delivery, now time.Time) (res Result) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	res = Result{Signature: webhook.Sign(d.Secret, d.Body), Timestamp: now.Unix()}
	start := time.Now()
	defer func() { res.Duration = time.Since(start) }()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		res.Class, res.Err = ClassConnection, errors.New("the URL cannot be requested")
		return res
	}
	ts := strconv.FormatInt(res.Timestamp, 10)
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", UserAgent)
	h.Set(webhook.HeaderSignature, res.Signature)
	h.Set(webhook.HeaderTimestamp, ts)
	h.Set(webhook.HeaderEvent, d.Event)
	h.Set(webhook.HeaderDelivery, d.ID)
	if sig, err := webhook.SignStandard(d.Secret, d.ID, res.Timestamp, d.Body); err == nil {
		res.Standard = sig
		// Lower-case names as the Standard Webhooks specification writes them;
		// HTTP header names are case-insensitive, so set them raw.
		h[webhook.HeaderStandardID] = []string{d.ID}
		h[webhook.HeaderStandardTimestamp] = []string{ts}
		h[webhook.HeaderStandardSignature] = []string{sig}
	}
	resp, err := client.Do(req)
	if err != nil {
		res.Class, res.Err = classify(err)
		return res
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponseBytes))
	code := resp.StatusCode
	res.StatusCode = &code
	switch {
	case code >= 200 && code < 300:
		res.Delivered = true
	case code >= 300 && code < 400:
		res.Class, res.Err = ClassRedirect, fmt.Errorf("receiver answered %d; redirects are not followed", code)
	default:
		res.Class, res.Err = ClassHTTPStatus, fmt.Errorf("receiver answered %d", code)
	}
	return res
}

// classify turns a transport error into a class and a reason without the
// URL (which the caller knows) and without anything the receiver sent.
func classify(err error) (string, error) {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var (
		dnsErr *net.DNSError
		netErr net.Error
	)
	tlsReason := netguard.TLSReason(err)
	switch {
	case netguard.IsBlocked(err):
		return ClassBlocked, errors.New("the receiver's address is not a public address")
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return ClassTimeout, fmt.Errorf("no complete answer within %s", Timeout)
	case errors.As(err, &dnsErr):
		return ClassDNS, fmt.Errorf("host %s could not be resolved", dnsErr.Name)
	case tlsReason != "":
		// The class says TLS; the reason says what failed, without
		// crypto/tls's own "tls:" ("tls: certificate expired on …").
		return ClassTLS, errors.New(tlsReason)
	default:
		return ClassConnection, err
	}
}
