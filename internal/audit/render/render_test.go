package render

import (
	"compress/gzip"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/testing/browsertest"
)

// allowOnly is a client as strict as netguard's for the tests: it dials
// only the listed host:port addresses (the fixture server), refusing
// everything else as netguard refuses a private address.
func allowOnly(addrs ...string) *http.Client {
	ok := map[string]bool{}
	for _, a := range addrs {
		ok[a] = true
	}
	d := &net.Dialer{Timeout: 5 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		if !ok[address] {
			return fmt.Errorf("%w: %s is not the fixture", netguard.ErrBlocked, address)
		}
		return nil
	}}
	return &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: d.DialContext, MaxIdleConnsPerHost: 16}}
}

// site serves pages from a map of path → handler on loopback.
type site struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newSite(t testing.TB, routes map[string]http.HandlerFunc) *site {
	t.Helper()
	s := &site{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		h, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) hit(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func (s *site) addr() string { return strings.TrimPrefix(s.URL, "http://") }

func html(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprint(w, body)
	}
}

func text(ctype, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		_, _ = fmt.Fprint(w, body)
	}
}

// newBrowser starts a Browser for the test. A missing browser is
// installed as root or fails the test with the install command:
// rendering is never skipped.
func newBrowser(t testing.TB, cfg Config) *Browser {
	t.Helper()
	if cfg.Path == "" {
		cfg.Path = browsertest.Path(t)
	}
	if cfg.PageTimeout == 0 {
		// Generous: a test that is not about the budget must not fail
		// because the machine is busy.
		cfg.PageTimeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := New(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, b.Close()) })
	return b
}

func TestRenderRunsScripts(t *testing.T) {
	t.Parallel()
	s := newSite(t, map[string]http.HandlerFunc{
		"/": html(`<!doctype html><html><head><title>x</title><script src="/app.js"></script></head>
<body><div id="root"></div><img src="/pic.png"></body></html>`),
		"/app.js": text("application/javascript", `document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("root").innerHTML = "<h1>Rendered by script</h1>";
  fetch("/data.json").then(r => r.json()).then(d => {
    const p = document.createElement("p"); p.id = "data"; p.textContent = d.msg; document.body.appendChild(p);
  });
});`),
		"/data.json": text("application/json", `{"msg":"loaded after load"}`),
		"/pic.png":   text("image/png", "not really a png"),
		"/moved":     http.RedirectHandler("/", http.StatusFound).ServeHTTP,
	})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Screenshot: true})

	p := b.Render(context.Background(), s.URL+"/moved")
	require.True(t, p.Rendered(), p.Err)
	require.Equal(t, 200, p.Status)
	require.Equal(t, s.URL+"/", p.FinalURL)
	require.Contains(t, string(p.HTML), "<h1>Rendered by script</h1>")
	require.Contains(t, string(p.HTML), `<p id="data">loaded after load</p>`)
	require.GreaterOrEqual(t, p.Requests, 5, "moved, /, app.js, pic.png, data.json")
	require.Equal(t, []byte{0xff, 0xd8}, p.Screenshot[:2], "a JPEG")
	require.Empty(t, p.Refused)
}

// TestPagesShareNothing: each page has its own browser context, so what
// one page stores (cookies, local storage) the next does not see.
func TestPagesShareNothing(t *testing.T) {
	t.Parallel()
	s := newSite(t, map[string]http.HandlerFunc{
		"/set": func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "server", Value: "1", Path: "/"})
			html(`<p id="c"></p><script>document.cookie = "script=2; path=/"; localStorage.setItem("k", "v");
				fetch("/echo").then(r => r.text()).then(t => { document.getElementById("c").textContent = t; });</script>`)(w, r)
		},
		"/get": html(`<p id="c"></p><script>const ls = localStorage.getItem("k");
			fetch("/echo").then(r => r.text()).then(t => { document.getElementById("c").textContent = t + " storage=" + ls; });</script>`),
		"/echo": func(w http.ResponseWriter, r *http.Request) {
			text("text/plain", "cookie="+r.Header.Get("Cookie"))(w, r)
		},
	})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 1})
	p := b.Render(context.Background(), s.URL+"/set")
	require.True(t, p.Rendered(), p.Err)
	require.Contains(t, string(p.HTML), `<p id="c">cookie=server=1; script=2</p>`, "cookies work within a page")
	p = b.Render(context.Background(), s.URL+"/get")
	require.True(t, p.Rendered(), p.Err)
	require.Contains(t, string(p.HTML), `<p id="c">cookie= storage=null</p>`)
}

// TestRenderCanceled: the caller's context ends a page early.
func TestRenderCanceled(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	var once sync.Once
	s := newSite(t, map[string]http.HandlerFunc{
		"/ok": html(okPage),
		"/loop": func(w http.ResponseWriter, r *http.Request) {
			once.Do(func() { close(started) })
			html(`<script>while (true) {}</script>`)(w, r)
		},
	})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 1, PageTimeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the page is loading, so the page itself is cut short.
		<-started
		cancel()
	}()
	p := b.Render(ctx, s.URL+"/loop")
	require.Equal(t, "the render was canceled", p.Err)
	requireHealthy(t, b, s)
}

// TestResponsesDecodedAndBounded: bodies come to the browser decoded, an
// error status is the page's status, and a body over the limit is refused.
func TestResponsesDecodedAndBounded(t *testing.T) {
	t.Parallel()
	gz := func(ctype, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			_, _ = zw.Write([]byte(body))
			_ = zw.Close()
		}
	}
	s := newSite(t, map[string]http.HandlerFunc{
		"/":       gz("text/html", `<html><body><p id="a">static</p><script src="/gz.js"></script><script src="/big.js"></script></body></html>`),
		"/gz.js":  gz("application/javascript", `document.getElementById("a").textContent = "from a gzip script";`),
		"/big.js": text("application/javascript", "//"+strings.Repeat("x", 2<<20)),
		"/gone": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			_, _ = fmt.Fprint(w, `<p>not here</p>`)
		},
	})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), MaxResponseBytes: 1 << 20})
	p := b.Render(context.Background(), s.URL+"/")
	require.True(t, p.Rendered(), p.Err)
	require.Contains(t, string(p.HTML), `<p id="a">from a gzip script</p>`)
	require.Len(t, p.Refused, 1)
	require.Contains(t, p.Refused[0], "/big.js: the response is too large (over 1 MB)")

	p = b.Render(context.Background(), s.URL+"/gone")
	require.True(t, p.Rendered(), p.Err)
	require.Equal(t, http.StatusNotFound, p.Status)
	require.Contains(t, string(p.HTML), "not here")
}

// TestNetguardClient renders through netguard's own client: allowed
// with private addresses allowed (tests), refused without.
func TestNetguardClient(t *testing.T) {
	t.Parallel()
	s := newSite(t, map[string]http.HandlerFunc{"/ok": html(okPage)})
	open, err := netguard.NewClient(netguard.ClientOptions{AllowPrivate: true, AllowHTTP: true, RawEncoding: true})
	require.NoError(t, err)
	b := newBrowser(t, Config{Client: open, Tabs: 1})
	requireHealthy(t, b, s)

	strict, err := netguard.NewClient(netguard.ClientOptions{AllowHTTP: true, RawEncoding: true})
	require.NoError(t, err)
	b = newBrowser(t, Config{Client: strict, Tabs: 1})
	p := b.Render(context.Background(), s.URL+"/ok")
	require.Contains(t, p.Err, "the page could not be loaded: "+s.URL+"/ok: ")
	require.Contains(t, p.Err, "blocked_destination")
}
