package render

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// canary is a listener nothing may reach: the pages under test try, by
// every route a browser has, and each connection (or datagram) counts.
type canary struct {
	name string
	tcp  net.Listener
	udp  net.PacketConn
	hits atomic.Int64
	wg   sync.WaitGroup
}

func newCanary(t *testing.T, ip string) *canary {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	// The same port over UDP, for STUN, TURN and QUIC.
	pc, err := net.ListenPacket("udp", fmt.Sprintf("%s:%d", ip, port))
	if err != nil {
		pc, err = net.ListenPacket("udp", ip+":0")
	}
	require.NoError(t, err)
	c := &canary{name: ln.Addr().String(), tcp: ln, udp: pc}
	c.wg.Add(2)
	go func() {
		defer c.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.hits.Add(1)
			_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
			_ = conn.Close()
		}
	}()
	go func() {
		defer c.wg.Done()
		buf := make([]byte, 2048)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				continue
			}
			c.hits.Add(1)
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		_ = pc.Close()
		c.wg.Wait()
	})
	return c
}

func (c *canary) url() string     { return "http://" + c.name }
func (c *canary) udpAddr() string { return c.udp.LocalAddr().String() }

// hostilePage tries to reach the canary c from a page of the fixture.
func hostilePage(c *canary) string {
	u := c.url()
	host, port, _ := net.SplitHostPort(c.udpAddr())
	return strings.NewReplacer("CANARY", u, "CHOST", c.name, "UHOST", host, "UPORT", port).Replace(`<!doctype html>
<html><head>
<link rel="stylesheet" href="/style.css">
<link rel="prefetch" href="CANARY/prefetch">
<link rel="preconnect" href="CANARY">
<link rel="dns-prefetch" href="CANARY">
<link rel="preload" as="script" href="CANARY/preload.js">
<link rel="modulepreload" href="CANARY/modulepreload.js">
<link rel="icon" href="CANARY/favicon.ico">
<link rel="manifest" href="CANARY/manifest.json">
<script type="speculationrules">{"prefetch":[{"source":"list","urls":["CANARY/spec"]}],"prerender":[{"source":"list","urls":["CANARY/prerender"]}]}</script>
<script src="CANARY/script.js"></script>
<style>@import url("CANARY/inline-import.css"); .a{background-image:url("CANARY/inline-bg.png")}</style>
</head><body class="a">
<h1 id="title">hostile</h1>
<img src="CANARY/img.png">
<img srcset="CANARY/srcset.png 2x">
<video src="CANARY/video.mp4" autoplay muted></video>
<audio src="CANARY/audio.mp3" autoplay></audio>
<object data="CANARY/object"></object>
<embed src="CANARY/embed">
<svg><image href="CANARY/svg.png" width="10" height="10"/></svg>
<iframe src="CANARY/frame"></iframe>
<iframe srcdoc="<img src='CANARY/srcdoc.png'><script>fetch('CANARY/srcdoc-fetch')</script>"></iframe>
<iframe src="file:///etc/passwd"></iframe>
<a id="ping" href="#x" ping="CANARY/ping">ping</a>
<script>
const C = "CANARY";
const tryIt = (f) => { try { f(); } catch (e) {} };
tryIt(() => fetch(C + "/fetch").catch(() => {}));
tryIt(() => fetch(C + "/no-cors", {mode: "no-cors"}).catch(() => {}));
tryIt(() => fetch(C + "/keepalive", {method: "POST", body: "x", keepalive: true}).catch(() => {}));
tryIt(() => { const x = new XMLHttpRequest(); x.open("GET", C + "/xhr"); x.send(); });
tryIt(() => { new Image().src = C + "/image-js.png"; });
tryIt(() => import(C + "/dynamic-import.js").catch(() => {}));
tryIt(() => new WebSocket("ws://CHOST/ws"));
tryIt(() => new WebSocket("wss://CHOST/wss"));
tryIt(() => new EventSource(C + "/events"));
tryIt(() => navigator.sendBeacon(C + "/beacon", "x"));
tryIt(() => navigator.serviceWorker.register("/sw.js").catch(() => {}));
tryIt(() => new Worker("/worker.js"));
tryIt(() => new SharedWorker("/worker.js"));
tryIt(() => window.open(C + "/popup"));
tryIt(() => new WebTransport("https://UHOST:UPORT/wt").ready.catch(() => {}));
tryIt(() => document.getElementById("ping").click());
tryIt(() => {
  const pc = new RTCPeerConnection({iceServers: [
    {urls: "stun:UHOST:UPORT"},
    {urls: "turn:UHOST:UPORT?transport=udp", username: "u", credential: "p"},
    {urls: "turn:CHOST?transport=tcp", username: "u", credential: "p"}]});
  pc.createDataChannel("leak");
  pc.createOffer().then(o => pc.setLocalDescription(o)).catch(() => {});
});
tryIt(() => { const f = document.createElement("form"); f.method = "POST"; f.action = C + "/form"; f.target = "sink"; document.body.appendChild(f);
  const i = document.createElement("iframe"); i.name = "sink"; document.body.appendChild(i); f.submit(); });
document.getElementById("title").textContent = "scripts ran";
</script>
</body></html>`)
}

// TestCanaryNothingEscapes renders pages that try to reach the canaries
// by every route a browser offers (subresources, scripts, workers,
// sockets, WebRTC, navigation) and requires that the canaries saw
// nothing, while the pages themselves rendered through the guarded client.
func TestCanaryNothingEscapes(t *testing.T) {
	t.Parallel()
	canaries := []*canary{newCanary(t, "127.0.0.2"), newCanary(t, "127.0.0.1")}
	routes := map[string]http.HandlerFunc{}
	for i, c := range canaries {
		u := c.url()
		routes[fmt.Sprintf("/hostile%d", i)] = html(hostilePage(c))
		routes[fmt.Sprintf("/redirect%d", i)] = http.RedirectHandler(u+"/redirected", http.StatusFound).ServeHTTP
		routes[fmt.Sprintf("/meta%d", i)] = html(`<meta http-equiv="refresh" content="0;url=` + u + `/meta">meta`)
		routes[fmt.Sprintf("/location%d", i)] = html(`<script>location = "` + u + `/location";</script>`)
		routes[fmt.Sprintf("/style%d.css", i)] = text("text/css", `@import url("`+u+`/import.css");
body { background: url("`+u+`/bg.png"); }
@font-face { font-family: leak; src: url("`+u+`/font.woff2"); }
h1 { font-family: leak; }`)
	}
	// One set of worker scripts serves both canaries.
	workerJS := func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		for _, c := range canaries {
			fmt.Fprintf(&b, "try { fetch(%q).catch(() => {}); } catch (e) {}\n", c.url()+"/from-worker")
			fmt.Fprintf(&b, "try { new WebSocket(%q); } catch (e) {}\n", "ws://"+c.name+"/from-worker")
			fmt.Fprintf(&b, "try { importScripts(%q); } catch (e) {}\n", c.url()+"/import-scripts.js")
		}
		text("application/javascript", b.String())(w, r)
	}
	routes["/sw.js"] = workerJS
	routes["/worker.js"] = workerJS
	routes["/style.css"] = func(w http.ResponseWriter, r *http.Request) {
		text("text/css", `@import url("/style0.css"); @import url("/style1.css");`)(w, r)
	}
	s := newSite(t, routes)
	b := newBrowser(t, Config{Client: allowOnly(s.addr()), Tabs: 4, PageTimeout: 20 * time.Second})

	var wg sync.WaitGroup
	pages := make(map[string]Page)
	var mu sync.Mutex
	for i := range canaries {
		for _, path := range []string{"/hostile%d", "/redirect%d", "/meta%d", "/location%d"} {
			path := fmt.Sprintf(path, i)
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := b.Render(context.Background(), s.URL+path)
				mu.Lock()
				pages[path] = p
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	escaped := b.Escaped()
	// Once the browser is gone nothing more can reach the canaries.
	require.NoError(t, b.Close())

	for i, c := range canaries {
		require.Zero(t, c.hits.Load(), "canary %s was reached", c.name)
		p := pages[fmt.Sprintf("/hostile%d", i)]
		require.True(t, p.Rendered(), p.Err)
		require.Contains(t, string(p.HTML), "scripts ran")
		require.NotEmpty(t, p.Refused)
		require.Contains(t, strings.Join(p.Refused, "\n"), c.name, "the page's attempts were refused through interception")
		for path, want := range map[string]string{"/redirect%d": "/redirected", "/meta%d": "/meta", "/location%d": "/location"} {
			p := pages[fmt.Sprintf(path, i)]
			require.Contains(t, p.Err, "the page could not be loaded")
			require.Contains(t, strings.Join(p.Refused, "\n"), c.name+want)
		}
	}
	require.Positive(t, s.hit("/style0.css"), "the stylesheet with the CSS routes was loaded")
	t.Logf("connections that reached the dead-end proxy: %d; worker script fetched %d times, service worker %d times",
		escaped, s.hit("/worker.js"), s.hit("/sw.js"))
	for path, p := range pages {
		t.Logf("%s: err=%q requests=%d refused=%q", path, p.Err, p.Requests, p.Refused)
	}
}
