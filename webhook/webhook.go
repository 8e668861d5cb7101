// Package webhook verifies GeoScan's scan callbacks on the receiving side.
// It is the one implementation of the signing schemes: GeoScan signs with
// it, and receivers written in Go can import it (it depends only on the
// standard library).
//
// Every callback carries two independent signatures over the same raw body:
//
//   - X-GeoScan-Signature: "v1=" + lowercase hex HMAC-SHA256 of the body,
//     keyed with the UTF-8 bytes of the whole webhook_secret, "whsec_"
//     included. Check it with Verify; when a signature a receiver computed
//     does not match, Diagnose names the usual mistake behind it (POST
//     /webhooks/verify answers with it).
//   - webhook-signature (Standard Webhooks): "v1," + base64 HMAC-SHA256 of
//     "webhook-id.webhook-timestamp.body", keyed with the base64-decoded
//     part of the secret after "whsec_". It signs the timestamp too, so a
//     receiver can refuse replays. Check it with VerifyStandard.
//
// It is also the public home of the hand-written helpers for API clients
// (IsFinished, IsCompleted): it is the one package of this module that is
// importable, written by hand and free of dependencies, while gen/client
// holds only what make generate writes. A receiver reads a scan's status
// from a callback as a poller reads it from the API, so both share them.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Header names of a callback.
const (
	HeaderSignature = "X-GeoScan-Signature"
	HeaderTimestamp = "X-GeoScan-Timestamp"
	HeaderEvent     = "X-GeoScan-Event"
	HeaderDelivery  = "X-GeoScan-Delivery"

	HeaderStandardID        = "webhook-id"
	HeaderStandardTimestamp = "webhook-timestamp"
	HeaderStandardSignature = "webhook-signature"
)

// SecretPrefix starts every webhook secret.
const SecretPrefix = "whsec_"

// SignaturePrefix starts the X-GeoScan-Signature value.
const SignaturePrefix = "v1="

// DefaultTolerance is how far a Standard Webhooks timestamp may be from the
// receiver's clock before VerifyStandard refuses it.
const DefaultTolerance = 5 * time.Minute

// Verification failures. They are distinct so a receiver can log why a
// callback was refused; all of them mean "do not trust this request".
var (
	ErrMalformedSignature = errors.New("malformed_signature")
	ErrMalformedSecret    = errors.New("malformed_secret")
	ErrSignatureMismatch  = errors.New("signature_mismatch")
	ErrTimestamp          = errors.New("timestamp_out_of_tolerance")
)

// Sign returns the X-GeoScan-Signature value of body under secret.
func Sign(secret string, body []byte) string {
	return SignaturePrefix + hex.EncodeToString(geoscanMAC([]byte(secret), body))
}

// geoscanMAC is the MAC of X-GeoScan-Signature: HMAC-SHA256 of body. Its
// key is the UTF-8 bytes of the whole secret, whsec_ included; Diagnose
// also tries the keys receivers use by mistake.
func geoscanMAC(key, body []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(body)
	return mac.Sum(nil)
}

// Verify checks an X-GeoScan-Signature value against the raw body received
// (never a re-serialized copy) and the scan's webhook_secret, in constant
// time.
func Verify(secret string, body []byte, signature string) error {
	if !strings.HasPrefix(secret, SecretPrefix) || len(secret) == len(SecretPrefix) {
		return ErrMalformedSecret
	}
	hexPart, ok := strings.CutPrefix(strings.TrimSpace(signature), SignaturePrefix)
	if !ok || len(hexPart) != 2*sha256.Size {
		return ErrMalformedSignature
	}
	got, err := hex.DecodeString(hexPart)
	if err != nil {
		return ErrMalformedSignature
	}
	if !hmac.Equal(geoscanMAC([]byte(secret), body), got) {
		return ErrSignatureMismatch
	}
	return nil
}

// standardKey is the Standard Webhooks reading of a secret: the base64
// bytes after the prefix (which Standard Webhooks libraries also accept
// absent).
func standardKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 {
		return nil, ErrMalformedSecret
	}
	return key, nil
}

func standardMAC(key []byte, id, timestamp string, body []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(timestamp))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return mac.Sum(nil)
}

// SignStandard returns the webhook-signature value of a message under the
// Standard Webhooks scheme.
func SignStandard(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := standardKey(secret)
	if err != nil {
		return "", err
	}
	return "v1," + base64.StdEncoding.EncodeToString(standardMAC(key, id, strconv.FormatInt(timestamp, 10), body)), nil
}

// VerifyStandard checks the Standard Webhooks headers of a callback: the
// webhook-signature value (a space-separated list; one valid v1 entry
// suffices) over id, timestamp and the raw body, and a timestamp within
// tolerance of now (DefaultTolerance when tolerance is 0). Remember
// webhook-id to refuse a replay inside the tolerance window.
func VerifyStandard(secret, id, timestamp string, body []byte, signatures string, now time.Time, tolerance time.Duration) error {
	key, err := standardKey(secret)
	if err != nil {
		return err
	}
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || id == "" {
		return ErrMalformedSignature
	}
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	if d := now.Sub(time.Unix(ts, 0)); d > tolerance || d < -tolerance {
		return ErrTimestamp
	}
	want := standardMAC(key, id, timestamp, body)
	seen := false
	for _, entry := range strings.Fields(signatures) {
		b64, ok := strings.CutPrefix(entry, "v1,")
		if !ok {
			continue // other schemes (v1a, future versions) are not ours to judge
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			continue
		}
		seen = true
		if hmac.Equal(want, got) {
			return nil
		}
	}
	if !seen {
		return ErrMalformedSignature
	}
	return ErrSignatureMismatch
}
