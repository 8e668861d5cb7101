package httpserver

import (
	"net/http"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIPExtractorTrustsOnlyConfiguredProxies(t *testing.T) {
	t.Parallel()
	req := func(peer string, xff ...string) *http.Request {
		r := &http.Request{RemoteAddr: peer, Header: http.Header{}}
		for _, v := range xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		return r
	}
	direct := ipExtractor(nil)
	// By default the header is ignored, loopback and private peers included.
	require.Equal(t, "127.0.0.1", direct(req("127.0.0.1:5000", "203.0.113.9")))
	require.Equal(t, "10.1.2.3", direct(req("10.1.2.3:5000", "203.0.113.9")))
	require.Equal(t, "2001:db8::1", direct(req("[2001:db8::1]:443")))

	proxied := ipExtractor([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")})
	require.Equal(t, "203.0.113.9", proxied(req("10.1.2.3:5000", "203.0.113.9")))
	// The rightmost address not of a trusted proxy is the client; what the
	// client wrote further left is not believed.
	require.Equal(t, "203.0.113.9", proxied(req("10.1.2.3:5000", "198.51.100.1, 203.0.113.9, 10.0.0.5")))
	// A peer that is not a trusted proxy cannot choose its address.
	require.Equal(t, "192.0.2.50", proxied(req("192.0.2.50:5000", "203.0.113.9")))
	// Private networks other than the configured ones are not trusted.
	require.Equal(t, "172.16.0.1", proxied(req("172.16.0.1:5000", "203.0.113.9")))
	// A malformed header falls back to the peer.
	require.Equal(t, "10.1.2.3", proxied(req("10.1.2.3:5000", "not-an-ip")))
}
