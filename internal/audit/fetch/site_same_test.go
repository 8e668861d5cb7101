package fetch

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

// A site's links are recognised as its own whatever the case of the host,
// a leading www. or the default port written out; another port or host is
// another site.
func TestSameSite(t *testing.T) {
	t.Parallel()
	origin, err := url.Parse("https://example.com/")
	require.NoError(t, err)
	for raw, want := range map[string]bool{
		"https://example.com/about":       true,
		"https://WWW.Example.COM/about":   true,
		"https://example.com:443/about":   true,
		"https://www.example.com.:443/x":  true,
		"https://example.com:8443/about":  false,
		"https://shop.example.com/":       false,
		"http://example.com/about":        false,
		"https://example.com.evil.test/x": false,
		"https://wwwexample.com/":         false,
	} {
		require.Equal(t, want, sameSite(raw, origin), raw)
	}
	u, err := url.Parse("http://WWW.example.com:8080/x")
	require.NoError(t, err)
	require.True(t, SameHost(u, origin), "the host, whatever the scheme and port")
}
