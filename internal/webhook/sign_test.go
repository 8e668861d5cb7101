package webhook

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The vector published in openapi.yaml; a change here breaks every receiver.
const (
	vectorSecret    = "whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw=="
	vectorBody      = `{"event":"scan.test","scan_id":"test_0"}`
	vectorSignature = "v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d"
)

func TestSignMatchesPublishedVector(t *testing.T) {
	t.Parallel()
	require.Equal(t, vectorSignature, Sign(vectorSecret, []byte(vectorBody)))
	require.NoError(t, Verify(vectorSecret, []byte(vectorBody), vectorSignature))
}

func TestVerify(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name      string
		secret    string
		body      string
		signature string
		want      error
	}{
		{"tampered body", vectorSecret, vectorBody + " ", vectorSignature, ErrSignatureMismatch},
		{"wrong secret", vectorSecret + "x", vectorBody, vectorSignature, ErrSignatureMismatch},
		{"no prefix", vectorSecret, vectorBody, strings.TrimPrefix(vectorSignature, "v1="), ErrMalformedSignature},
		{"short hex", vectorSecret, vectorBody, vectorSignature[:20], ErrMalformedSignature},
		{"not hex", vectorSecret, vectorBody, "v1=" + strings.Repeat("z", 64), ErrMalformedSignature},
		{"secret without prefix", "dGVzdA==", vectorBody, vectorSignature, ErrMalformedSecret},
		{"empty secret body", "whsec_", vectorBody, vectorSignature, ErrMalformedSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.ErrorIs(t, Verify(tt.secret, []byte(tt.body), tt.signature), tt.want)
		})
	}
}

func TestNewSecret(t *testing.T) {
	t.Parallel()
	s, err := NewSecret()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(s, SecretPrefix))
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, SecretPrefix))
	require.NoError(t, err)
	require.Len(t, raw, 32)
	other, err := NewSecret()
	require.NoError(t, err)
	require.NotEqual(t, s, other)
}
