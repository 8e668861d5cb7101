// Package webhook owns scan callbacks: secrets, the payload, signing and
// verification (also used by the CLI and the verify endpoint), and sending.
package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
)

// SecretPrefix starts every webhook secret.
const SecretPrefix = "whsec_"

// SignaturePrefix starts the X-GeoScan-Signature value.
const SignaturePrefix = "v1="

// NewSecret returns whsec_ + standard base64 of 32 random bytes: valid both
// as a plain HMAC key and under Standard Webhooks' reading of whsec_ keys.
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b), nil
}

// Sign returns the X-GeoScan-Signature of body: v1= + lowercase hex
// HMAC-SHA256 keyed with the UTF-8 bytes of the whole secret.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return SignaturePrefix + hex.EncodeToString(mac.Sum(nil))
}

// Verification failures.
var (
	ErrMalformedSignature = errors.New("malformed_signature")
	ErrMalformedSecret    = errors.New("malformed_secret")
	ErrSignatureMismatch  = errors.New("signature_mismatch")
)

// Verify checks signature against body and secret in constant time.
func Verify(secret string, body []byte, signature string) error {
	if !strings.HasPrefix(secret, SecretPrefix) || len(secret) == len(SecretPrefix) {
		return ErrMalformedSecret
	}
	hexPart, ok := strings.CutPrefix(signature, SignaturePrefix)
	if !ok || len(hexPart) != 64 {
		return ErrMalformedSignature
	}
	if _, err := hex.DecodeString(hexPart); err != nil {
		return ErrMalformedSignature
	}
	want := Sign(secret, body)
	if subtle.ConstantTimeCompare([]byte(want), []byte(strings.ToLower(signature))) != 1 {
		return ErrSignatureMismatch
	}
	return nil
}
