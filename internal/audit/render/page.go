package render

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

const (
	// idleQuiet is how long no request may be in flight before the page
	// counts as settled.
	idleQuiet = 500 * time.Millisecond
	// maxRefused is how many refused requests a Page lists.
	maxRefused = 10
	// perPageFetches bounds a page's requests fetched at once.
	perPageFetches = 6
	// closeGrace is how long closing a tab may take before the browser
	// counts as hung and is restarted.
	closeGrace = 4 * time.Second
)

// pageRun is one page being rendered.
type pageRun struct {
	b    *Browser
	inst *instance
	url  string

	ctx    context.Context // ends at the page deadline
	target atomic.Pointer[chromedp.Target]
	fetchs chan struct{}

	loaded  chan struct{}
	onLoad  sync.Once
	crashed chan struct{}
	onCrash sync.Once
	abort   chan struct{}
	onAbort sync.Once

	mu          sync.Mutex
	requests    int
	documents   int
	inflight    int
	lastActive  time.Time
	status      int
	refused     []string
	abortReason string
	navigated   bool
	// mainErr is why the main frame's last document was refused.
	mainErr string
}

func newPageRun(b *Browser, inst *instance, url string) *pageRun {
	return &pageRun{
		b: b, inst: inst, url: url,
		fetchs:  make(chan struct{}, perPageFetches),
		loaded:  make(chan struct{}),
		crashed: make(chan struct{}),
		abort:   make(chan struct{}),
	}
}

// render runs the page in a new tab of its own browser context, then
// disposes of that context in the background and returns the tab's token
// once it is gone.
func (r *pageRun) render(parent context.Context) Page {
	cfg := r.b.cfg
	deadline := time.Now().Add(cfg.PageTimeout)
	p := Page{URL: r.url}
	bctx, err := r.newBrowserContext(parent, deadline)
	if err != nil {
		r.b.closing.Done()
		<-r.b.tabs
		p.Err = r.reasonFor(parent, err, false)
		if parent.Err() == nil {
			// A browser that cannot open a context within a page's
			// budget is hung: the next page gets a new one.
			r.inst.stop()
		}
		return p
	}
	// Cancelling the tab's context only detaches from it: disposing of
	// the browser context closes the tab without running its unload
	// handlers, which a busy or hostile page would hold up.
	tctx, tcancel := chromedp.NewContext(r.inst.ctx, chromedp.WithExistingBrowserContext(bctx),
		chromedp.WithDetachOnCancel(), chromedp.WithListener(r.onEvent))
	ctx, cancel := context.WithDeadline(tctx, deadline)
	stop := context.AfterFunc(parent, cancel)
	r.ctx = ctx

	err = r.run(ctx, &p) //nolint:contextcheck // a tab's context derives from the browser's; parent ends it through AfterFunc
	stop()
	timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
	cancel()

	r.mu.Lock()
	p.Requests = r.requests
	p.Refused = append([]string(nil), r.refused...)
	p.Status = r.status
	r.mu.Unlock()
	if err != nil {
		p.HTML, p.Screenshot = nil, nil
		p.Err = r.reasonFor(parent, err, timedOut)
	}
	if err != nil {
		r.inst.hold()
	}
	go r.close(tcancel, bctx, err != nil) //nolint:contextcheck // the tab is closed after the page's context ended, within the browser's
	return p
}

// newBrowserContext creates the page's browser context: its own cookies,
// storage, cache and service workers, gone with the page.
func (r *pageRun) newBrowserContext(parent context.Context, deadline time.Time) (cdp.BrowserContextID, error) {
	ctx, cancel := context.WithDeadline(r.inst.ctx, deadline)
	defer cancel()
	defer context.AfterFunc(parent, cancel)()
	res, err := cdp.Call(ctx, r.session(), target.CreateBrowserContext, target.CreateBrowserContextParams{}) //nolint:contextcheck // bounded by the browser's context and by parent, as above
	if err != nil {
		return "", err
	}
	return res.BrowserContextID, nil
}

func (r *pageRun) session() cdp.Session { return chromedp.FromContext(r.inst.ctx).Browser }

// reasonFor words why the page was not rendered.
func (r *pageRun) reasonFor(parent context.Context, err error, timedOut bool) string {
	r.mu.Lock()
	reason := r.abortReason
	r.mu.Unlock()
	switch {
	case isClosed(r.crashed) || r.inst.dead.Load() || r.inst.ctx.Err() != nil:
		return "the renderer crashed"
	case reason != "":
		return reason
	case parent.Err() != nil:
		return "the render was canceled"
	case timedOut || errors.Is(err, context.DeadlineExceeded):
		return "timed out after " + r.b.cfg.PageTimeout.String()
	default:
		return err.Error()
	}
}

// close detaches from the tab and disposes of its browser context. The
// renderer of a page that failed is crashed first, since its script may
// still run, and the browser is asked whether it still answers: a page
// can swamp the browser process itself (thousands of frames), and a
// browser that does not answer, or cannot dispose of the context in time,
// is stopped so that the next page starts a new one. Until a failed
// page's close is done no new page starts on this browser.
func (r *pageRun) close(detach context.CancelFunc, bctx cdp.BrowserContextID, failed bool) {
	defer r.b.closing.Done()
	defer func() { <-r.b.tabs }()
	if failed {
		defer r.inst.release()
	}
	ctx, cancel := context.WithTimeout(r.inst.ctx, closeGrace)
	defer cancel()
	detached := make(chan struct{})
	defer func() { <-detached }()
	if t := r.target.Load(); failed && t != nil {
		cctx, ccancel := context.WithTimeout(ctx, 500*time.Millisecond)
		_, _ = cdp.Call(cctx, t, page.Crash, cdp.Empty{})
		ccancel()
		pctx, pcancel := context.WithTimeout(ctx, time.Second)
		_, err := cdp.Call(pctx, r.session(), browser.GetVersion, cdp.Empty{})
		pcancel()
		if err != nil && r.inst.ctx.Err() == nil {
			r.inst.stop()
		}
	}
	go func() {
		detach()
		close(detached)
	}()
	_, err := cdp.Call(ctx, r.session(), target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: bctx})
	if err != nil && r.inst.ctx.Err() == nil {
		r.inst.stop()
	}
}

// run loads the page, waits for it to settle and reads it into p.
func (r *pageRun) run(ctx context.Context, p *Page) error {
	err := chromedp.Do(ctx, chromedp.Func(r.setUp))
	if err != nil {
		return err
	}
	t := r.target.Load()
	r.mu.Lock()
	r.navigated = true
	r.mu.Unlock()
	nav, err := cdp.Call(ctx, t, page.Navigate, page.NavigateParams{URL: r.url})
	if err != nil {
		return r.failed(ctx, err)
	}
	if nav.ErrorText != "" {
		r.mu.Lock()
		reason, why := r.abortReason, r.mainErr
		r.mu.Unlock()
		if reason != "" {
			return errors.New(reason)
		}
		return fmt.Errorf("the page could not be loaded: %s", cmp.Or(why, nav.ErrorText))
	}
	if err := r.settle(ctx); err != nil {
		return err
	}
	if err := r.read(ctx, t, p); err != nil {
		return r.failed(ctx, err)
	}
	if r.b.cfg.Screenshot {
		shot, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatJpeg, Quality: ptr(int64(60)), OptimizeForSpeed: ptr(true),
		})
		if err != nil {
			return r.failed(ctx, err)
		}
		p.Screenshot = shot.Data
	}
	return nil
}

// failed turns a failed call into the page's reason: the deadline, a
// crash or an abort when one of those caused it.
func (r *pageRun) failed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var pe pageError
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("the page could not be rendered: %w", err)
}

// setUp prepares the new tab: every request paused for GeoScan to fetch,
// WebSockets blocked, service workers bypassed, downloads refused.
func (r *pageRun) setUp(ctx context.Context, t *chromedp.Target) error {
	r.target.Store(t)
	c := chromedp.FromContext(ctx)
	// chromedp turns on the DOM, CSS and log domains and lifecycle events
	// for its own actions; none is used here, and on a page with
	// thousands of frames their events alone would swamp the browser.
	for _, step := range []func() error{
		func() error { _, err := cdp.Call(ctx, t, dom.Disable, cdp.Empty{}); return err },
		func() error { _, err := cdp.Call(ctx, t, css.Disable, cdp.Empty{}); return err },
		func() error { _, err := cdp.Call(ctx, t, log.Disable, cdp.Empty{}); return err },
		func() error {
			_, err := cdp.Call(ctx, t, page.SetLifecycleEventsEnabled, page.SetLifecycleEventsEnabledParams{Enabled: false})
			return err
		},
	} {
		if err := step(); err != nil {
			return err
		}
	}
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: c.BrowserContextID,
	}); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, t, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{
		{URLPattern: "ws://*:*/*", Block: true}, {URLPattern: "wss://*:*/*", Block: true},
	}}); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, t, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: noServiceWorkers, RunImmediately: ptr(true),
	}); err != nil {
		return err
	}
	_, err := cdp.Call(ctx, t, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
		{URLPattern: "*", RequestStage: fetch.RequestStageRequest},
	}})
	return err
}

// noServiceWorkers makes registering a service worker fail in the page:
// a worker would outlive the page and make requests outside its
// interception (which the proxy refuses anyway).
const noServiceWorkers = `(() => {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const refuse = () => Promise.reject(new DOMException("service workers are disabled", "SecurityError"));
  try { Object.defineProperty(Object.getPrototypeOf(sw), "register", {value: refuse}); } catch (e) {}
})()`

// onEvent runs on the tab's read loop: it must not block or call the
// browser, so anything slow goes to a goroutine.
func (r *pageRun) onEvent(ev any) {
	switch ev := ev.(type) {
	case *fetch.EventRequestPaused:
		go r.intercept(ev)
	case *page.EventLoadEventFired:
		r.mu.Lock()
		ok := r.navigated && r.documents > 0
		r.mu.Unlock()
		if ok {
			r.onLoad.Do(func() { close(r.loaded) })
		}
	case *page.EventJavascriptDialogOpening:
		go r.dismiss(ev.Type)
	case *inspector.EventTargetCrashed:
		r.onCrash.Do(func() { close(r.crashed) })
	case *network.EventWebSocketCreated:
		r.refuse(ev.URL, "WebSockets are not allowed")
	case *page.EventWindowOpen:
		r.refuse(ev.URL, "new windows are not allowed")
	case *browser.EventDownloadWillBegin:
		r.refuse(ev.URL, "downloads are not allowed")
	}
}

func (r *pageRun) dismiss(kind page.DialogType) {
	t := r.target.Load()
	if t == nil {
		return
	}
	// Leaving the page is allowed: a beforeunload prompt must not hold a
	// navigation. Every other dialog is dismissed.
	_, _ = cdp.Call(r.ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: kind == page.DialogTypeBeforeunload})
}

// refuse records a refused request.
func (r *pageRun) refuse(u, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.refused) < maxRefused {
		r.refused = append(r.refused, clip(u, 200)+": "+why)
	}
}

// stopWith aborts the page with reason.
func (r *pageRun) stopWith(reason string) {
	r.onAbort.Do(func() {
		r.mu.Lock()
		r.abortReason = reason
		r.mu.Unlock()
		close(r.abort)
	})
}

// settle waits for the load event, then for the network to be idle; both
// within the page budget less a share kept for reading the page. A page
// that never goes idle is read when that share begins.
func (r *pageRun) settle(ctx context.Context) error {
	budget := r.b.cfg.PageTimeout
	deadline, _ := ctx.Deadline()
	settleBy := time.Until(deadline.Add(-budget / 4))
	timer := time.NewTimer(max(settleBy, 0))
	defer timer.Stop()
	select {
	case <-r.loaded:
	case <-r.crashed:
		return errors.New("the renderer crashed")
	case <-r.abort:
		return errors.New(r.reason())
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		// Read a page that never finished loading, but only once its
		// document arrived: before that the tab still shows a blank page,
		// which compared with the HTML would read as a site whose
		// JavaScript removes everything.
		r.mu.Lock()
		arrived := r.status != 0
		r.mu.Unlock()
		if !arrived {
			return context.DeadlineExceeded
		}
		return nil
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		r.mu.Lock()
		idle := r.inflight == 0 && time.Since(r.lastActive) >= idleQuiet
		r.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-tick.C:
		case <-r.crashed:
			return errors.New("the renderer crashed")
		case <-r.abort:
			return errors.New(r.reason())
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			return nil
		}
	}
}

func (r *pageRun) reason() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.abortReason
}

// domScript serializes the DOM in the page and returns it only when it is
// within the limit (in UTF-16 units, at most the byte count), so a huge
// DOM never crosses the protocol. The text and attribute values are
// summed first, stopping past the limit: a DOM that is too large is told
// without serializing all of it.
const domScript = `(() => {
  const limit = %d;
  const d = document.documentElement;
  if (!d) return {url: location.href, n: 0, empty: true};
  let n = 0;
  const w = document.createTreeWalker(d, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT);
  for (let node = w.currentNode; node; node = w.nextNode()) {
    if (node.nodeType === 1) { for (const a of node.attributes) n += a.value.length; } else n += node.nodeValue.length;
    if (n > limit) return {url: location.href, n};
  }
  const h = d.outerHTML;
  const r = {url: location.href, n: h.length};
  if (h.length <= limit) r.html = h;
  return r;
})()`

func (r *pageRun) read(ctx context.Context, t *chromedp.Target, p *Page) error {
	limit := r.b.cfg.MaxDOMBytes
	res, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{
		Expression: fmt.Sprintf(domScript, limit), ReturnByValue: ptr(true), Silent: ptr(true),
	})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("reading the DOM: %s", res.ExceptionDetails.Text)
	}
	var v struct {
		URL   string  `json:"url"`
		N     int64   `json:"n"`
		HTML  *string `json:"html"`
		Empty bool    `json:"empty"`
	}
	if res.Result == nil || json.Unmarshal(res.Result.Value, &v) != nil {
		return errors.New("reading the DOM: no result")
	}
	p.FinalURL = v.URL
	if strings.HasPrefix(v.URL, "chrome-error:") {
		// The main frame shows the browser's error page, not the site.
		r.mu.Lock()
		why := r.mainErr
		r.mu.Unlock()
		return pageError("the page could not be loaded: " + cmp.Or(why, "the browser showed an error page"))
	}
	if v.Empty {
		return pageError("the page had no document when it was read")
	}
	if v.HTML == nil || int64(len(*v.HTML)) > limit {
		r.stopWith("the DOM is larger than " + megabytes(limit))
		return errors.New(r.reason())
	}
	p.HTML = []byte(*v.HTML)
	return nil
}

func megabytes(n int64) string {
	if n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
}

// pageError is a reason already worded for the Page.
type pageError string

func (e pageError) Error() string { return string(e) }

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func ptr[T any](v T) *T { return &v }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
