package webhook_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/geoscan/geoscan/webhook"
)

// FuzzVerify: any input is answered without a panic; a signature GeoScan
// made always verifies; and what verifies is that signature (hex case and
// surrounding space aside), never one of a different body.
func FuzzVerify(f *testing.F) {
	f.Add("whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw==", []byte(`{"event":"scan.test","scan_id":"test_0"}`),
		"v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d")
	f.Add("whsec_x", []byte{}, "v1=")
	f.Add("", []byte("\x00"), " v1=ZZ ")
	f.Fuzz(func(t *testing.T, secret string, body []byte, signature string) {
		err := webhook.Verify(secret, body, signature)
		good := webhook.Sign(secret, body)
		if err == nil && !strings.EqualFold(strings.TrimSpace(signature), good) {
			t.Fatalf("accepted %q for a body whose signature is %q", signature, good)
		}
		if !strings.HasPrefix(secret, webhook.SecretPrefix) || secret == webhook.SecretPrefix {
			if err == nil {
				t.Fatalf("accepted malformed secret %q", secret)
			}
			return
		}
		if err := webhook.Verify(secret, body, good); err != nil {
			t.Fatalf("own signature refused: %v", err)
		}
		if err := webhook.Verify(secret, append(bytes.Clone(body), 'x'), good); err == nil {
			t.Fatal("a signature verified a different body")
		}
	})
}

// FuzzVerifyStandard: the Standard Webhooks verifier never panics, accepts
// what SignStandard makes (within tolerance), and refuses it for another
// id or body.
func FuzzVerifyStandard(f *testing.F) {
	f.Add("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", int64(1614265330), []byte(`{"test": 2432232314}`),
		"v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
	f.Add("whsec_", "", int64(-1), []byte{}, "v1a,x v2,y v1,")
	f.Fuzz(func(t *testing.T, secret, id string, ts int64, body []byte, signatures string) {
		now := time.Unix(1614265330, 0)
		timestamp := strconv.FormatInt(ts, 10)
		_ = webhook.VerifyStandard(secret, id, timestamp, body, signatures, now, 0)
		_ = webhook.VerifyStandard(secret, id, signatures, body, signatures, now, time.Hour)

		sig, err := webhook.SignStandard(secret, id, now.Unix(), body)
		if err != nil || id == "" {
			return
		}
		nowStamp := strconv.FormatInt(now.Unix(), 10)
		if err := webhook.VerifyStandard(secret, id, nowStamp, body, signatures+" "+sig, now, 0); err != nil {
			t.Fatalf("own signature refused among %q: %v", signatures, err)
		}
		if err := webhook.VerifyStandard(secret, id+"x", nowStamp, body, sig, now, 0); err == nil {
			t.Fatal("a signature verified another message id")
		}
		if err := webhook.VerifyStandard(secret, id, nowStamp, append(bytes.Clone(body), 'x'), sig, now, 0); err == nil {
			t.Fatal("a signature verified another body")
		}
	})
}
