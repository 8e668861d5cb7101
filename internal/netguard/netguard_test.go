package netguard

import (
	"context"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

type fakeResolver map[string][]string

func (f fakeResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	addrs, ok := f[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, 0, len(addrs))
	for _, a := range addrs {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	return out, nil
}

var hosts = fakeResolver{
	"example.com":           {"93.184.216.34"},
	"www.example.com":       {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
	"xn--bcher-kva.example": {"93.184.216.35"},
	"lvh.example.com":       {"127.0.0.1"},
	"mixed.example.com":     {"93.184.216.34", "10.0.0.1"},
	"v6loop.example.com":    {"::1"},
	"mapped.example.com":    {"::ffff:127.0.0.1"},
	"meta.example.com":      {"169.254.169.254"},
}

func TestCheckURLRefuses(t *testing.T) {
	t.Parallel()
	p := Policy{Resolver: hosts}
	refused := []string{
		"http://example.com/", "file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "ftp://example.com/",
		"data:text/html,hi", "javascript:alert(1)", "https://user:pass@example.com/", "https://user@example.com/",
		"https://127.0.0.1/", "https://127.255.255.254/", "https://127.1/", "https://0/", "https://0.0.0.0/",
		"https://2130706433/", "https://0x7f000001/", "https://0x7f.0x0.0x0.0x1/", "https://017700000001/",
		"https://0177.0.0.1/", "https://[::1]/", "https://[::]/", "https://[0000::1]/", "https://[::ffff:127.0.0.1]/",
		"https://[::ffff:7f00:1]/", "https://[::ffff:169.254.169.254]/", "https://[64:ff9b::a9fe:a9fe]/",
		"https://[2002:a9fe:a9fe::1]/", "https://10.0.0.1/", "https://172.16.0.1/", "https://192.168.0.1/",
		"https://169.254.169.254/latest/meta-data/", "https://[fd00:ec2::254]/", "https://[fe80::1%25eth0]/",
		"https://100.64.0.1/", "https://100.100.100.200/", "https://224.0.0.1/", "https://255.255.255.255/",
		"https://240.0.0.1/", "https://192.0.2.1/", "https://198.18.0.1/", "https://localhost/", "https://LOCALHOST./",
		"https://api.localhost/", "https://metadata.google.internal/", "https://metadata/", "https://printer.local/",
		"https://svc.cluster.local/", "https://example.com@127.0.0.1/", "https://127.0.0.1#@example.com/",
		"https://example.com\\@127.0.0.1/", "https://%31%32%37.0.0.1/", "https://①②⑦.0.0.1/", "https://127。0。0。1/",
		"https://example.com:22/", "https://example.com:8080/", "https://example.com:0/", "https://example.com:65536/",
		"https://lvh.example.com/", "https://mixed.example.com/", "https://v6loop.example.com/", "https://mapped.example.com/",
		"https://meta.example.com/", "https://unknown.example.org/", "https://example.com/\r\nHost:x", "https://exa mple.com/",
		"https://example.com/\x00", "https://" + strings.Repeat("a", 64) + ".example.com/", "https://" + strings.Repeat("a.", 130) + "com/",
		"https://example.com/" + strings.Repeat("x", MaxURLLength), "", "not a url", "//example.com/", "https:///path",
	}
	for _, raw := range refused {
		_, err := p.CheckURL(context.Background(), raw)
		var ue *URLError
		require.ErrorAs(t, err, &ue, "%q must be refused", raw)
		require.NotEmpty(t, ue.Reason)
	}
}

func TestCheckURLAcceptsAndNormalizes(t *testing.T) {
	t.Parallel()
	p := Policy{Resolver: hosts}
	for raw, want := range map[string]string{
		"https://Example.COM:443/path?q=1#frag": "https://example.com/path?q=1",
		"https://example.com":                   "https://example.com/",
		"https://example.com./":                 "https://example.com/",
		"HTTPS://www.example.com/a%20b":         "https://www.example.com/a%20b",
		"https://xn--bcher-kva.example/":        "https://xn--bcher-kva.example/",
		"https://bücher.example/":               "https://xn--bcher-kva.example/",
		"https://93.184.216.34/":                "https://93.184.216.34/",
		"https://[2606:4700::6810:84e5]/x":      "https://[2606:4700::6810:84e5]/x",
	} {
		got, err := p.CheckURL(context.Background(), raw)
		require.NoError(t, err, raw)
		require.Equal(t, want, got.String(), raw)
	}
	long := "https://example.com/" + strings.Repeat("x", MaxURLLength-len("https://example.com/"))
	_, err := p.CheckURL(context.Background(), long)
	require.NoError(t, err, "exactly %d characters is allowed", MaxURLLength)
	_, err = p.CheckURL(context.Background(), long+"x")
	require.Error(t, err)
}

func TestAllowPrivate(t *testing.T) {
	t.Parallel()
	p := Policy{AllowPrivate: true, Resolver: fakeResolver{"localhost": {"127.0.0.1"}}}
	for raw, want := range map[string]string{
		"https://127.0.0.1:8443/":  "https://127.0.0.1:8443/",
		"https://localhost:9999/x": "https://localhost:9999/x",
		"https://[::1]:443/":       "https://[::1]/",
	} {
		got, err := p.CheckURL(context.Background(), raw)
		require.NoError(t, err, raw)
		require.Equal(t, want, got.String())
	}
	_, err := p.CheckURL(context.Background(), "http://127.0.0.1/")
	require.Error(t, err, "https is required even for local targets")
}

// TestUnresolvableRefusedInEveryMode: a host name that does not resolve
// through the policy's resolver is refused when the URL comes in, with
// private targets allowed too, instead of failing later when it is
// fetched.
func TestUnresolvableRefusedInEveryMode(t *testing.T) {
	t.Parallel()
	resolver := fakeResolver{"fixture.example.com": {"127.0.0.1"}, "example.com": {"93.184.216.34"}, "empty.example.com": {}}
	for _, allow := range []bool{false, true} {
		p := Policy{AllowPrivate: allow, Resolver: resolver}
		for _, raw := range []string{"https://unknown.example.org/", "https://empty.example.com/", "https://brokenbay.test/"} {
			_, err := p.CheckURL(context.Background(), raw)
			var ue *URLError
			require.ErrorAs(t, err, &ue, "allow private %v: %s", allow, raw)
			require.True(t, ue.Unresolvable, "allow private %v: %s: %s", allow, raw, ue.Reason)
			require.Contains(t, ue.Reason, "could not be resolved")
		}
		_, err := p.CheckURL(context.Background(), "https://example.com/")
		require.NoError(t, err, "allow private %v", allow)
	}
	_, err := Policy{AllowPrivate: true, Resolver: resolver}.CheckURL(context.Background(), "https://fixture.example.com:8443/")
	require.NoError(t, err)
	// An address needs no lookup.
	_, err = Policy{AllowPrivate: true, Resolver: resolver}.CheckURL(context.Background(), "https://127.0.0.1:8443/")
	require.NoError(t, err)
}

func TestHelpers(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]string{
		"www.shop.example.co.uk": "example.co.uk", "example.com": "example.com", "xn--bcher-kva.example": "bücher.example",
		"WWW.Nimbus-App.com": "nimbus-app.com",
		"93.184.216.34":      "93.184.216.34", "localhost": "localhost",
	} {
		require.Equal(t, want, RegistrableName(host), host)
	}
	for raw, want := range map[string]bool{"https://a.com": true, "https://a.com/": true, "https://a.com/x": false, "https://a.com/?q": false, "https://a.com/?": false} {
		got, err := parse(raw, false)
		require.NoError(t, err)
		require.Equal(t, want, IsHomepage(got.URL), raw)
	}
	n, err := Normalize("https://WWW.Example.com:443")
	require.NoError(t, err)
	require.Equal(t, "https://www.example.com/", n)
}

// tlsServer is a loopback HTTPS server counting its requests, with its CA
// in a PEM file.
func tlsServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, string, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	return srv, caFile, &hits
}

func get(c *http.Client, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

func TestClientBlocksAtDialTime(t *testing.T) {
	t.Parallel()
	srv, caFile, hits := tlsServer(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })

	guarded, err := NewClient(ClientOptions{ExtraCAFile: caFile})
	require.NoError(t, err)
	_, err = get(guarded, srv.URL)
	require.Error(t, err)
	require.True(t, IsBlocked(err), "%v", err)
	require.Zero(t, hits.Load(), "no request reached the loopback server")

	open, err := NewClient(ClientOptions{AllowPrivate: true, ExtraCAFile: caFile, UserAgent: "GeoScan-Test"})
	require.NoError(t, err)
	resp, err := get(open, srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	untrusting, err := NewClient(ClientOptions{AllowPrivate: true})
	require.NoError(t, err)
	_, err = get(untrusting, srv.URL)
	require.Error(t, err)
	require.False(t, IsBlocked(err))
	require.Contains(t, err.Error(), "certificate")

	_, err = NewClient(ClientOptions{ExtraCAFile: filepath.Join(t.TempDir(), "missing.pem")})
	require.Error(t, err)
}

func TestClientRedirects(t *testing.T) {
	t.Parallel()
	var srvURL string
	srv, caFile, _ := tlsServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/http":
			http.Redirect(w, r, "http://127.0.0.1/", http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/hop/"):
			n := len(r.URL.Path) - len("/hop/")
			if n >= 8 {
				w.WriteHeader(http.StatusOK)
				return
			}
			http.Redirect(w, r, srvURL+r.URL.Path+"x", http.StatusFound)
		default:
			w.WriteHeader(http.StatusOK)
		}
	})
	srvURL = srv.URL

	noFollow, err := NewClient(ClientOptions{AllowPrivate: true, ExtraCAFile: caFile})
	require.NoError(t, err)
	resp, err := get(noFollow, srv.URL+"/hop/")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode, "MaxRedirects 0 returns the redirect itself")

	follow, err := NewClient(ClientOptions{AllowPrivate: true, ExtraCAFile: caFile, MaxRedirects: 5})
	require.NoError(t, err)
	resp, err = get(follow, srv.URL+"/hop/xxx") // 5 hops to reach 8 x's
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	_, err = get(follow, srv.URL+"/hop/") // 8 hops
	require.ErrorContains(t, err, "stopped after 5 redirects")
	_, err = get(follow, srv.URL+"/http")
	require.Error(t, err)
	require.True(t, IsBlocked(err), "a downgrade to http is refused: %v", err)
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://example.com/", "https://127.0.0.1/", "https://[::1]/", "https://user@x.com/", "https://①②⑦.0.0.1/", "https://bücher.example/"} {
		f.Add(s)
	}
	p := Policy{Resolver: fakeResolver{"example.com": {"93.184.216.34"}, "xn--bcher-kva.example": {"93.184.216.35"}}}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := p.CheckURL(context.Background(), raw)
		if err != nil {
			return
		}
		u := got.URL
		if u.Scheme != "https" || u.User != nil || (u.Port() != "" && u.Port() != "443") {
			t.Fatalf("accepted %q as %q", raw, got.String())
		}
		again, err := Normalize(got.String())
		if err != nil || again != got.String() {
			t.Fatalf("normal form %q of %q is not stable: %q, %v", got.String(), raw, again, err)
		}
	})
}

// metadataForms are cloud metadata addresses and names in every spelling
// that reaches them: they stay refused when private targets are allowed.
var metadataForms = []string{
	"169.254.169.254", "169.254.0.23", "[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]", "[::a9fe:a9fe]",
	"[64:ff9b::a9fe:a9fe]", "[64:ff9b::169.254.169.254]", "[64:ff9b:1::a9fe:a9fe]", "[2002:a9fe:a9fe::1]",
	"[2002:a9fe:a9fe:1234:5678:9abc:def0:1]", "[2001:0:a9fe:a9fe::1]", "[2001:0:4136:e378:8000:63bf:5601:5601]",
	"[fe80::a9fe:a9fe]", "[fe80::5efe:a9fe:a9fe]", "[fd00:ec2::254]", "100.100.100.200", "[::ffff:100.100.100.200]",
	"[64:ff9b::6464:64c8]", "[2002:6464:64c8::]", "192.0.0.192", "①⑥⑨.②⑤④.①⑥⑨.②⑤④",
	"metadata", "metadata.google.internal", "METADATA.GOOGLE.INTERNAL.", "metadata.goog", "instance-data",
	"instance-data.ec2.internal", "metadata.tencentyun.com",
}

func TestMetadataRefusedWithPrivateTargetsAllowed(t *testing.T) {
	t.Parallel()
	resolver := fakeResolver{
		"meta.example.com": {"169.254.169.254"}, "nat64.example.com": {"64:ff9b::a9fe:a9fe"},
		"sixtofour.example.com": {"2002:a9fe:a9fe::1"}, "alibaba.example.com": {"100.100.100.200"},
		"fixture.example.com": {"127.0.0.1"},
	}
	for _, allow := range []bool{false, true} {
		p := Policy{AllowPrivate: allow, Resolver: resolver}
		for _, host := range metadataForms {
			for _, raw := range []string{"https://" + host + "/latest/meta-data/", "https://" + host + ":8443/"} {
				if !allow && strings.Contains(raw, ":8443") {
					continue
				}
				_, err := p.CheckURL(context.Background(), raw)
				var ue *URLError
				require.ErrorAs(t, err, &ue, "allow private %v: %q must be refused", allow, raw)
			}
		}
		for _, name := range []string{"meta", "nat64", "sixtofour", "alibaba"} {
			_, err := p.CheckURL(context.Background(), "https://"+name+".example.com/")
			require.Error(t, err, "allow private %v: %s resolves to a metadata address", allow, name)
		}
	}
	// The private fixture it is meant for still passes.
	_, err := Policy{AllowPrivate: true, Resolver: resolver}.CheckURL(context.Background(), "https://fixture.example.com:8443/")
	require.NoError(t, err)

	for _, s := range []string{"8.8.8.8", "2606:4700::6810:84e5", "64:ff9b::808:808", "2002:808:808::1", "2001:db8::1", "fe80::1"} {
		ip := netip.MustParseAddr(s)
		require.Equal(t, strings.HasPrefix(s, "fe80"), alwaysBlocked(ip), s)
	}
}

func TestClientRefusesMetadataWithPrivateTargetsAllowed(t *testing.T) {
	t.Parallel()
	var srvURL string
	srv, caFile, hits := tlsServer(t, func(w http.ResponseWriter, r *http.Request) {
		if target := r.URL.Query().Get("to"); target != "" {
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	srvURL = srv.URL
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	require.NoError(t, err)
	// Names a redirect may lead to; dialling them is refused before any
	// packet leaves (the dialer's Control hook runs before connect).
	resolver := fakeResolver{
		"fixture.example.com": {"127.0.0.1"}, "meta.example.com": {"169.254.169.254"},
		"nat64.example.com": {"64:ff9b::a9fe:a9fe"}, "sixtofour.example.com": {"2002:a9fe:a9fe::1"},
		"alibaba.example.com": {"100.100.100.200"}, "ec2v6.example.com": {"fd00:ec2::254"},
	}
	c, err := NewClient(ClientOptions{AllowPrivate: true, ExtraCAFile: caFile, MaxRedirects: 5, Resolver: resolver})
	require.NoError(t, err)

	resp, err := get(c, "https://fixture.example.com:"+port+"/")
	require.NoError(t, err, "the private fixture is reachable")
	resp.Body.Close()

	var targets []string
	for _, host := range metadataForms {
		targets = append(targets, "https://"+host+"/latest/meta-data/")
	}
	for _, name := range []string{"meta", "nat64", "sixtofour", "alibaba", "ec2v6"} {
		targets = append(targets, "https://"+name+".example.com:"+port+"/")
	}
	before := hits.Load()
	for _, target := range targets {
		// Directly.
		_, err := get(c, target)
		require.Error(t, err, "direct %s", target)
		require.True(t, IsBlocked(err), "direct %s: %v", target, err)
		// Through a redirect from the allowed fixture.
		_, err = get(c, srvURL+"/?to="+url.QueryEscape(target))
		require.Error(t, err, "redirect to %s", target)
		require.True(t, IsBlocked(err), "redirect to %s: %v", target, err)
	}
	require.Equal(t, before+int32(len(targets)), hits.Load(), "only the redirecting fixture was reached")
}

// A client shared by many requests in flight keeps as many idle
// connections as MaxIdleConns says, so a second wave of as many concurrent
// requests opens none; with the default (4 per host) it would open 12.
func TestClientKeepsMaxIdleConns(t *testing.T) {
	t.Parallel()
	const wave = 16
	var (
		opened  atomic.Int32
		arrived = make(chan struct{}, wave)
		release = make(chan struct{})
	)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		arrived <- struct{}{}
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	c, err := NewClient(ClientOptions{AllowPrivate: true, ExtraCAFile: caFile, MaxIdleConns: wave})
	require.NoError(t, err)

	for round := range 2 {
		errs := make(chan error, wave)
		for range wave {
			go func() {
				resp, err := get(c, srv.URL)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				errs <- err
			}()
		}
		// Every request is in the handler at once, so each has its own
		// connection.
		for range wave {
			<-arrived
		}
		for range wave {
			release <- struct{}{}
		}
		for range wave {
			require.NoError(t, <-errs)
		}
		require.EqualValues(t, wave, opened.Load(), "round %d", round+1)
	}
}
