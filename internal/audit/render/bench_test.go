package render

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/testing/browsertest"
)

// benchSite serves pages shaped like a small site's: a stylesheet, a
// script that builds part of the page and fetches data, two images.
func benchSite(tb testing.TB) (*site, []string) {
	tb.Helper()
	routes := map[string]http.HandlerFunc{
		"/style.css": text("text/css", `body{font-family:sans-serif;margin:2em} .card{border:1px solid #ccc;padding:1em}`),
		"/app.js": text("application/javascript", `
const list = document.getElementById("list");
for (let i = 0; i < 50; i++) { const li = document.createElement("li"); li.className = "card"; li.textContent = "Item " + i; list.appendChild(li); }
fetch("/data.json").then(r => r.json()).then(d => { document.getElementById("data").textContent = d.text; });`),
		"/data.json": text("application/json", `{"text":"loaded by script"}`),
		"/a.png":     text("image/png", strings.Repeat("p", 2048)),
		"/b.png":     text("image/png", strings.Repeat("q", 4096)),
	}
	var paths []string
	for i := range 8 {
		path := fmt.Sprintf("/page%d", i)
		paths = append(paths, path)
		routes[path] = html(fmt.Sprintf(`<!doctype html><html><head><title>Page %d</title>
<link rel="stylesheet" href="/style.css"></head><body><h1>Page %d</h1>
<p>%s</p><img src="/a.png"><img src="/b.png"><ul id="list"></ul><p id="data"></p>
<script src="/app.js"></script></body></html>`, i, i, strings.Repeat("Lorem ipsum dolor sit amet. ", 40)))
	}
	s := newSite(tb, routes)
	urls := make([]string, len(paths))
	for i, p := range paths {
		urls[i] = s.URL + p
	}
	return s, urls
}

// renderAll renders n pages of urls through b, tabs at a time.
func renderAll(tb testing.TB, b *Browser, urls []string, n, workers int) {
	tb.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				if p := b.Render(context.Background(), urls[i%int64(len(urls))]); !p.Rendered() {
					failed.Store(p.URL + ": " + p.Err)
				}
			}
		}()
	}
	wg.Wait()
	if f := failed.Load(); f != nil {
		tb.Fatalf("a page was not rendered: %v", f)
	}
}

// BenchmarkRenderPool compares pages per second through the pool (4
// tabs in one long-lived browser) with a browser launched per page
// (chromium --dump-dom, 4 at a time) on the same pages.
func BenchmarkRenderPool(b *testing.B) {
	const tabs = 4
	_, urls := benchSite(b)
	br := newBrowser(b, Config{Client: allowOnly(strings.TrimPrefix(urls[0][:strings.LastIndex(urls[0], "/")], "http://")), Tabs: tabs})
	renderAll(b, br, urls, tabs, tabs) // warm up

	b.ResetTimer()
	start := time.Now()
	renderAll(b, br, urls, b.N, tabs)
	pool := float64(b.N) / time.Since(start).Seconds()
	b.StopTimer()

	path := browsertest.Path(b)
	n := min(b.N, 24)
	var next atomic.Int64
	var wg sync.WaitGroup
	start = time.Now()
	for range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				dir, err := os.MkdirTemp("", "render-bench-")
				if err != nil {
					b.Error(err)
					return
				}
				out, err := exec.Command(path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
					"--user-data-dir="+dir, "--dump-dom", urls[i%int64(len(urls))]).Output()
				_ = os.RemoveAll(dir)
				if err != nil || !bytes.Contains(out, []byte("Item 49")) {
					b.Errorf("--dump-dom: %v, %d bytes", err, len(out))
					return
				}
			}
		}()
	}
	wg.Wait()
	dump := float64(n) / time.Since(start).Seconds()
	b.ReportMetric(pool, "pool-pages/s")
	b.ReportMetric(dump, "dumpdom-pages/s")
	b.ReportMetric(pool/dump, "speedup")
}

// BenchmarkRenderMemory measures the memory of the test process plus the
// browser's process tree (proportional set size, so pages shared between
// Chromium's processes count once): idle, the peak while 4 tabs render
// 200 pages, and after them once their tabs are closed.
func BenchmarkRenderMemory(b *testing.B) {
	const tabs, pages = 4, 200
	_, urls := benchSite(b)
	br := newBrowser(b, Config{Client: allowOnly(strings.TrimPrefix(urls[0][:strings.LastIndex(urls[0], "/")], "http://")), Tabs: tabs})
	renderAll(b, br, urls, tabs, tabs)
	br.closing.Wait()
	idle := settledPSS(br)

	var peak atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if m := treePSS(br.PID()); m > peak.Load() {
				peak.Store(m)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	b.ResetTimer()
	for range b.N {
		renderAll(b, br, urls, pages, tabs)
	}
	b.StopTimer()
	close(stop)
	<-sampled
	br.closing.Wait()
	after := settledPSS(br)

	mb := func(kb int64) float64 { return float64(kb) / 1024 }
	b.ReportMetric(mb(idle), "idle-MB")
	b.ReportMetric(mb(peak.Load()), "peak-MB")
	b.ReportMetric(mb(after), "after-MB")
	b.ReportMetric(float64(after)/float64(idle), "after/idle")
}

// settledPSS waits for the memory to stop shrinking (renderers of closed
// tabs exit a moment after their tab) and returns it.
func settledPSS(br *Browser) int64 {
	last := treePSS(br.PID())
	for range 20 {
		time.Sleep(250 * time.Millisecond)
		m := treePSS(br.PID())
		if m >= last-last/100 {
			return m
		}
		last = m
	}
	return last
}

// treePSS sums the proportional set size, in KiB, of this process and of
// pid with all its descendants.
func treePSS(pid int) int64 {
	total := pss(os.Getpid())
	if pid == 0 {
		return total
	}
	for _, p := range processTree(pid) {
		total += pss(p)
	}
	return total
}

// processTree is pid and its descendants: the browser binary may be a
// wrapper script whose child is the browser.
func processTree(pid int) []int {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The parent's pid is the second field after the command, which
		// is in parentheses and may hold spaces.
		rest := stat[bytes.LastIndexByte(stat, ')')+1:]
		fields := strings.Fields(string(rest))
		if len(fields) > 1 {
			ppid, _ := strconv.Atoi(fields[1])
			children[ppid] = append(children[ppid], p)
		}
	}
	tree := []int{pid}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, children[tree[i]]...)
	}
	return tree
}

func pss(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
