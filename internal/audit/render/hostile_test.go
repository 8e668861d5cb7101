package render

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/browsertest"
)

const okPage = `<!doctype html><html><body><p id="ok">fine</p><script>document.getElementById("ok").textContent = "rendered";</script></body></html>`

// requireHealthy renders an ordinary page on b: after any hostile page the
// next one must render.
func requireHealthy(t *testing.T, b *Browser, s *site) {
	t.Helper()
	p := b.Render(context.Background(), s.URL+"/ok")
	require.True(t, p.Rendered(), "the page after: %s", p.Err)
	require.Contains(t, string(p.HTML), `<p id="ok">rendered</p>`)
}

// TestHostilePages renders pages built to exhaust or hang a browser, one
// after another on the same Browser: each ends within its budget with a
// clear reason, and the next page renders.
func TestHostilePages(t *testing.T) {
	t.Parallel()
	const budget = 10 * time.Second
	routes := map[string]http.HandlerFunc{
		"/ok":   html(okPage),
		"/loop": html(`<html><body><p>before</p><script>while (true) {}</script></body></html>`),
		"/loop-later": html(`<html><body><p>before</p><script>
			addEventListener("load", () => setTimeout(() => { for (;;) {} }, 50));</script></body></html>`),
		"/huge-dom": html(`<html><body><script>
			const s = "x".repeat(1 << 20);
			for (let i = 0; i < 100; i++) { const d = document.createElement("div"); d.setAttribute("data-x", s); document.body.appendChild(d); }
			</script></body></html>`),
		"/iframes": html(`<html><body><script>
			for (let i = 0; i < 10000; i++) { const f = document.createElement("iframe"); f.src = "/frame?" + i; document.body.appendChild(f); }
			</script></body></html>`),
		"/frame": html(`<p>frame</p>`),
		"/dialogs": html(`<html><body><script>
			addEventListener("beforeunload", (e) => { e.preventDefault(); e.returnValue = "stay"; });
			for (;;) { alert("a"); confirm("b"); prompt("c"); }
			</script></body></html>`),
		"/print": html(`<html><body><script>for (let i = 0; i < 1000; i++) { print(); } document.body.append("printed");</script></body></html>`),
		"/storm": func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			html(fmt.Sprintf(`<script>location = "/storm?n=%d";</script>`, n+1))(w, r)
		},
		"/service-worker": html(`<html><body><p id="sw">waiting</p><script>
			navigator.serviceWorker.register("/sw.js").then(() => { document.getElementById("sw").textContent = "registered"; },
				(e) => { document.getElementById("sw").textContent = "refused: " + e.name; });
			</script></body></html>`),
		"/sw.js": text("application/javascript", `self.addEventListener("fetch", (e) => e.respondWith(new Response("hijacked")));`),
		"/ws-flood": html(`<html><body><p id="ws">start</p><script>
			let n = 0;
			for (let i = 0; i < 2000; i++) { try { new WebSocket("ws://127.0.0.1:9/" + i); n++; } catch (e) {} }
			document.getElementById("ws").textContent = "opened " + n;
			</script></body></html>`),
		"/heap": html(`<html><body><script>const a = []; for (;;) { a.push(new Array(1 << 20).fill(1.5)); }</script></body></html>`),
		"/tarpit.js": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/javascript")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		},
		// The document itself never arrives: a blank tab is not the page.
		"/never": func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		},
		"/tarpit": html(`<html><body><p id="t">static text</p><script src="/tarpit.js"></script></body></html>`),
	}
	s := newSite(t, routes)
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 2, PageTimeout: budget})
	requireHealthy(t, b, s)

	timedOut := "timed out after " + budget.String()
	for _, tc := range []struct {
		path string
		errs []string // any of these; "" is a rendered page
		html string   // what a rendered page holds
	}{
		{path: "/loop", errs: []string{timedOut}},
		{path: "/loop-later", errs: []string{timedOut}},
		{path: "/huge-dom", errs: []string{"the DOM is larger than 20 MB"}},
		{path: "/iframes", errs: []string{"", timedOut}},
		{path: "/dialogs", errs: []string{timedOut}},
		{path: "/print", errs: []string{"", timedOut}, html: "printed"},
		{path: "/storm", errs: []string{"the page redirected more than 10 times"}},
		{path: "/service-worker", errs: []string{""}, html: "refused: SecurityError"},
		{path: "/ws-flood", errs: []string{""}, html: "opened"},
		{path: "/heap", errs: []string{"the renderer crashed", timedOut}},
		{path: "/tarpit", errs: []string{""}, html: "static text"},
		{path: "/never", errs: []string{timedOut}},
	} {
		t.Run(strings.TrimPrefix(tc.path, "/"), func(t *testing.T) {
			p := b.Render(context.Background(), s.URL+tc.path)
			t.Logf("%s: err=%q elapsed=%s requests=%d refused=%d", tc.path, p.Err, p.Elapsed, p.Requests, len(p.Refused))
			require.Contains(t, tc.errs, p.Err)
			// A bound, not a speed: an unbounded page would run until the
			// test's own timeout.
			require.Less(t, p.Elapsed, 2*budget)
			if p.Rendered() && tc.html != "" {
				require.Contains(t, string(p.HTML), tc.html)
			}
			requireHealthy(t, b, s)
		})
	}
	require.Zero(t, s.hit("/sw.js"), "the service worker was never fetched")
}

// TestBrowserCrashRecovers kills the browser under a page and between
// pages: the page in flight ends as crashed, and the next page renders in
// a new browser.
func TestBrowserCrashRecovers(t *testing.T) {
	t.Parallel()
	s := newSite(t, map[string]http.HandlerFunc{
		"/ok":   html(okPage),
		"/loop": html(`<script>while (true) {}</script>`),
	})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 2, PageTimeout: 10 * time.Second})
	requireHealthy(t, b, s)

	// The browser crashes while a page hangs in it.
	b.mu.Lock()
	inst := b.inst
	b.mu.Unlock()
	done := make(chan Page, 1)
	go func() { done <- b.Render(context.Background(), s.URL+"/loop") }()
	require.Eventually(t, func() bool { return s.hit("/loop") > 0 }, 10*time.Second, 10*time.Millisecond)
	_, _ = cdp.Call(inst.ctx, browserSession(inst), browser.Crash, cdp.Empty{})
	p := <-done
	require.Equal(t, "the renderer crashed", p.Err)
	requireHealthy(t, b, s)
	require.EqualValues(t, 2, b.Starts())

	// The process is killed between pages.
	pid := b.PID()
	require.NotZero(t, pid)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	require.Eventually(t, func() bool { return b.PID() != pid }, 10*time.Second, 10*time.Millisecond)
	requireHealthy(t, b, s)
	require.EqualValues(t, 3, b.Starts())
}

// TestRenderRefusesOtherSchemes: only http and https pages are rendered.
func TestRenderRefusesOtherSchemes(t *testing.T) {
	t.Parallel()
	s := newSite(t, map[string]http.HandlerFunc{"/ok": html(okPage)})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 1})
	for _, u := range []string{"file:///etc/passwd", "chrome://crash", "javascript:alert(1)", "data:text/html,hi", "ftp://example.com/"} {
		p := b.Render(context.Background(), u)
		require.Equal(t, "only http and https URLs are rendered", p.Err, u)
	}
	requireHealthy(t, b, s)
}

// TestFindNamesTheInstallCommand: a missing browser says how to install one.
func TestFindNamesTheInstallCommand(t *testing.T) {
	t.Parallel()
	_, err := Find("/nonexistent/chromium")
	require.ErrorContains(t, err, InstallCommand)
	browsertest.Path(t)
	path, err := Find("")
	require.NoError(t, err)
	require.NotEmpty(t, path)
}

func browserSession(in *instance) cdp.Session { return chromedp.FromContext(in.ctx).Browser }

// TestBrowserHangRecovers stops the browser process (SIGSTOP): the page
// times out, and the next page renders in a new browser.
func TestBrowserHangRecovers(t *testing.T) {
	t.Parallel()
	s := newSite(t, map[string]http.HandlerFunc{"/ok": html(okPage)})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 1, PageTimeout: 10 * time.Second})
	requireHealthy(t, b, s)
	pid := b.PID()
	// A stop is delivered asynchronously, and a process forked meanwhile
	// escapes the first pass: stop the tree until all of it is stopped.
	var held []int
	// Processes stopped stay stopped when the browser is replaced: end them.
	t.Cleanup(func() {
		for _, p := range held {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	})
	stopped := func() bool {
		all := true
		for _, p := range processTree(pid) {
			if !slices.Contains(held, p) {
				held = append(held, p)
			}
			if !isStopped(p) {
				all = false
				_ = syscall.Kill(p, syscall.SIGSTOP)
			}
		}
		return all
	}
	require.Eventually(t, stopped, 10*time.Second, 20*time.Millisecond, "the browser's processes did not stop")
	p := b.Render(context.Background(), s.URL+"/ok")
	// Either the page runs into the stopped browser and times out, or the
	// browser is found hung first and the page renders in a new one.
	require.Contains(t, []string{"timed out after 10s", ""}, p.Err)
	requireHealthy(t, b, s)
	require.NotEqual(t, pid, b.PID())
	require.EqualValues(t, 2, b.Starts())
}

// isStopped says whether process pid is stopped (state T), or gone.
func isStopped(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 0 && (fields[0] == "T" || fields[0] == "Z" || fields[0] == "X")
}

// TestCloseEndsRenders: Close ends the renders under way and the ones
// waiting for a tab, and later renders say the renderer is closed.
func TestCloseEndsRenders(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 8)
	s := newSite(t, map[string]http.HandlerFunc{"/loop": func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		html(`<script>while (true) {}</script>`)(w, r)
	}})
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 2, PageTimeout: time.Minute})
	pages := make(chan Page, 4)
	for range 4 {
		go func() { pages <- b.Render(context.Background(), s.URL+"/loop") }()
	}
	<-started
	<-started
	require.NoError(t, b.Close())
	for range 4 {
		p := <-pages
		require.Contains(t, []string{"the renderer crashed", "the renderer is closed"}, p.Err)
	}
	require.Equal(t, "the renderer is closed", b.Render(context.Background(), s.URL+"/loop").Err)
}
