package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each mistake is made here the way a receiver makes it, independently of
// the package's own MAC.
func TestDiagnoseNamesTheMistake(t *testing.T) {
	t.Parallel()
	mac := func(key []byte, body string) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(body))
		return hex.EncodeToString(m.Sum(nil))
	}
	decoded, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(vectorSecret, SecretPrefix))
	require.NoError(t, err)
	right := vectorSignature[len(SignaturePrefix):]
	for _, tc := range []struct {
		name, body, sig string
		want            Mistake
	}{
		{"valid", vectorBody, vectorSignature, ""},
		{"valid with surrounding space", vectorBody, " " + vectorSignature + "\n", ""},
		{"python json.dumps", vectorBody, "v1=" + mac([]byte(vectorSecret), `{"event": "scan.test", "scan_id": "test_0"}`), ReserializedJSON},
		{"indented", vectorBody, "v1=" + mac([]byte(vectorSecret), "{\n  \"event\": \"scan.test\",\n  \"scan_id\": \"test_0\"\n}"), ReserializedJSON},
		{"trailing newline", vectorBody, "v1=" + mac([]byte(vectorSecret), vectorBody+"\n"), ReserializedJSON},
		{"prefix stripped from the key", vectorBody, "v1=" + mac([]byte(strings.TrimPrefix(vectorSecret, SecretPrefix)), vectorBody), SecretPrefixStripped},
		{"base64-decoded key", vectorBody, "v1=" + mac(decoded, vectorBody), SecretBase64Decoded},
		{"upper-case hex", vectorBody, "v1=" + strings.ToUpper(right), UppercaseHex},
		{"no prefix", vectorBody, right, MissingPrefix},
		{"another prefix", vectorBody, "sha256=" + right, MissingPrefix},
		{"another secret", vectorBody, "v1=" + mac([]byte("whsec_other"), vectorBody), SignatureMismatch},
		{"tampered body", vectorBody + "x", vectorSignature, SignatureMismatch},
		{"body that is not JSON", "not json", "v1=" + mac([]byte(vectorSecret), "not json "), SignatureMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Diagnose(vectorSecret, []byte(tc.body), tc.sig)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestDiagnoseRefusesWhatIsNoSignature(t *testing.T) {
	t.Parallel()
	body := []byte(vectorBody)
	for sig, want := range map[string]error{
		"":                                  ErrMalformedSignature,
		"v1=abc":                            ErrMalformedSignature,
		"v1=" + strings.Repeat("z", 64):     ErrMalformedSignature,
		"v1=" + strings.Repeat("a", 66):     ErrMalformedSignature,
		vectorStandardSignature:             ErrStandardSignature,
		"v1=\x00" + strings.Repeat("a", 63): ErrMalformedSignature,
	} {
		_, err := Diagnose(vectorSecret, body, sig)
		require.ErrorIs(t, err, want, "%q", sig)
	}
	for _, secret := range []string{"", "whsec_", "not-a-secret", "WHSEC_abc"} {
		_, err := Diagnose(secret, body, vectorSignature)
		require.ErrorIs(t, err, ErrMalformedSecret, "%q", secret)
	}
}

// Whatever a client submits to POST /webhooks/verify, Diagnose answers
// without panicking, and agrees with Verify: a signature it calls valid
// verifies, and one that verifies is valid or written in upper case.
func FuzzDiagnose(f *testing.F) {
	f.Add(vectorSecret, vectorBody, vectorSignature)
	f.Add(vectorSecret, vectorBody, strings.ToUpper(vectorSignature[3:]))
	f.Add(vectorSecret, vectorBody+"\r\n", "sha256="+vectorSignature[3:])
	f.Add("whsec_", "", vectorStandardSignature)
	f.Add(vectorSecret, "\x00{}", "v1=\x00")
	f.Fuzz(func(t *testing.T, secret, body, signature string) {
		mistake, err := Diagnose(secret, []byte(body), signature)
		verified := Verify(secret, []byte(body), signature) == nil
		if err == nil && mistake == "" {
			require.True(t, verified, "Diagnose called %q valid; Verify refuses it", signature)
		}
		if verified {
			require.NoError(t, err)
			require.Contains(t, []Mistake{"", UppercaseHex}, mistake)
		}
	})
}
