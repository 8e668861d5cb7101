package webhook

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
)

// Mistake names why an X-GeoScan-Signature value a receiver computed does
// not verify: the slips receivers make, found by making them.
type Mistake string

// The mistakes Diagnose recognises; SignatureMismatch is none of them.
const (
	UppercaseHex         Mistake = "uppercase_hex"          // the right MAC in upper-case hex
	MissingPrefix        Mistake = "missing_prefix"         // the right MAC without v1= (or with sha256= and the like)
	SecretPrefixStripped Mistake = "secret_prefix_stripped" // keyed with the secret without whsec_
	SecretBase64Decoded  Mistake = "secret_base64_decoded"  // keyed as Standard Webhooks keys its signature
	ReserializedJSON     Mistake = "reserialized_json"      // over a re-serialized copy of the body
	SignatureMismatch    Mistake = "signature_mismatch"     // none of the above
)

// ErrStandardSignature means the value is a Standard Webhooks
// webhook-signature ("v1,<base64>"), which VerifyStandard checks.
var ErrStandardSignature = errors.New("standard_webhooks_signature")

// Diagnose checks an X-GeoScan-Signature value as Verify does, in constant
// time, and returns "" when it verifies. Otherwise it looks for the mistake
// that explains the difference. It accepts the near-misses it can explain
// (no v1= prefix, another prefix, upper-case hex); anything else that is not
// 64 hexadecimal digits is ErrMalformedSignature, a malformed secret
// ErrMalformedSecret.
func Diagnose(secret string, body []byte, signature string) (Mistake, error) {
	if !strings.HasPrefix(secret, SecretPrefix) || len(secret) == len(SecretPrefix) {
		return "", ErrMalformedSecret
	}
	got, prefixed, upper, err := parseLenient(signature)
	if err != nil {
		return "", err
	}
	switch {
	case !hmac.Equal(geoscanMAC([]byte(secret), body), got):
		return wrongInput(secret, body, got), nil
	case !prefixed:
		return MissingPrefix, nil
	case upper:
		return UppercaseHex, nil
	}
	return "", nil
}

// parseLenient reads the MAC out of a signature written as v1=<hex>, as
// <hex> alone or behind another prefix, in either case.
func parseLenient(sig string) (mac []byte, prefixed, upper bool, err error) {
	sig = strings.TrimSpace(sig)
	if strings.HasPrefix(sig, "v1,") {
		return nil, false, false, ErrStandardSignature
	}
	hexPart, prefixed := strings.CutPrefix(sig, SignaturePrefix)
	if !prefixed && strings.Contains(sig, "=") {
		_, hexPart, _ = strings.Cut(sig, "=")
	}
	mac, err = hex.DecodeString(hexPart)
	if err != nil || len(mac) != sha256.Size {
		return nil, false, false, ErrMalformedSignature
	}
	return mac, prefixed, hexPart != strings.ToLower(hexPart), nil
}

// wrongInput tries the usual wrong keys and wrong bodies; the first that
// reproduces the MAC names the mistake.
func wrongInput(secret string, body, got []byte) Mistake {
	stripped := strings.TrimPrefix(secret, SecretPrefix)
	if hmac.Equal(geoscanMAC([]byte(stripped), body), got) {
		return SecretPrefixStripped
	}
	if key, err := base64.StdEncoding.DecodeString(stripped); err == nil && hmac.Equal(geoscanMAC(key, body), got) {
		return SecretBase64Decoded
	}
	for _, alt := range reserialized(body) {
		if hmac.Equal(geoscanMAC([]byte(secret), alt), got) {
			return ReserializedJSON
		}
	}
	return SignatureMismatch
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
