package webhook

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestErrorTextIsStorable: the recorded reason is cut on a character
// boundary and holds no NUL, so recording an attempt never fails on what a
// receiver presented (a certificate name, a TLS alert text).
func TestErrorTextIsStorable(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes; a byte cut at 300 would split one
	r := Result{Class: ClassTLS, Err: errors.New("x509: certificate is valid for evil\x00.example, not " + long)}
	got := r.ErrorText()
	require.True(t, utf8.ValidString(got), "%q", got)
	require.NotContains(t, got, "\x00")
	require.LessOrEqual(t, len(got), 300)
	require.True(t, strings.HasPrefix(got, "tls: x509: certificate is valid for evil\uFFFD.example"), got)

	require.Empty(t, Result{}.ErrorText())
	require.Equal(t, "timeout: no complete answer within 10s", Result{Class: ClassTimeout, Err: errors.New("no complete answer within 10s")}.ErrorText())
}
