package webhook

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestErrorTextIsStorable: the recorded reason is cut on a character
// boundary and holds no NUL, so recording an attempt never fails on what a
// receiver presented (a certificate name, a TLS alert text).
func TestErrorTextIsStorable(t *testing.T) {
	long := strings.Repeat("é", 200) // 400 bytes; a byte cut at 300 would split one
	r := Result{Class: ClassTLS, Err: errors.New("certificate is valid for evil\x00.example, not for " + long)}
	got := r.ErrorText()
	require.True(t, utf8.ValidString(got), "%q", got)
	require.NotContains(t, got, "\x00")
	require.LessOrEqual(t, len(got), 300)
	require.True(t, strings.HasPrefix(got, "tls: certificate is valid for evil\uFFFD.example"), got)

	require.Empty(t, Result{}.ErrorText())
	require.Equal(t, "timeout: no complete answer within 10s", Result{Class: ClassTimeout, Err: errors.New("no complete answer within 10s")}.ErrorText())
}

// TestTLSFailuresAreClassedOnce: a receiver's TLS failure is recorded as
// the class "tls" and what failed, without crypto/tls's own "tls:" after it.
func TestTLSFailuresAreClassedOnce(t *testing.T) {
	t.Parallel()
	bad, err := testsite.StartBadTLS()
	require.NoError(t, err)
	t.Cleanup(bad.Close)
	ca, err := bad.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	c, err := netguard.NewClient(netguard.ClientOptions{AllowPrivate: true, ExtraCAFile: ca, Timeout: Timeout})
	require.NoError(t, err)

	for fault, want := range map[string]string{
		testsite.TLSExpired:     "tls: certificate expired on " + bad.Expiry.Format(time.DateOnly),
		testsite.TLSWrongHost:   "tls: certificate is valid for other.test, not for 127.0.0.1",
		testsite.TLSSelfSigned:  "tls: certificate is self-signed, not issued by a trusted certificate authority",
		testsite.TLSOldProtocol: "tls: handshake failed: the server refused it (protocol version not supported)",
	} {
		res := Send(context.Background(), c, Delivery{ID: "d", URL: bad.URL(fault), Event: EventCompleted, Secret: "whsec_x", Body: []byte("{}")}, time.Now())
		require.False(t, res.Delivered, fault)
		require.Equal(t, ClassTLS, res.Class, fault)
		require.Equal(t, want, res.ErrorText(), fault)
	}
}
