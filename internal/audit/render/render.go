// Package render shows a page the way a browser does: it loads the page in
// a headless Chromium (through chromedp) whose every request is fetched by
// GeoScan's guarded client or refused, and returns the DOM after scripts
// ran, so the audit can compare what AI crawlers (raw HTML, no JavaScript)
// and people (a browser) each get.
//
// # The browser
//
// [New] starts one long-lived Chromium ([Find] picks the binary; the
// error names the install command) and [Browser.Render] renders a page in
// it, [Config.Tabs] at a time. Each page gets a new tab in a browser
// context of its own, disposed of with the page, so no cookie, storage,
// cache or service worker passes from one page or scan to the next.
//
// # What reaches the network
//
// Nothing but GeoScan's client. Every request of the page is paused
// (the Fetch domain, request stage): an http or https request is fetched
// with [Config.Client] (netguard's guarded client: public addresses only,
// checked when dialled; redirects go back to the browser, which asks for
// each hop the same way), its body decoded and size-limited, and handed
// to the browser; any other scheme, a request past the page's budget and
// one the client refuses fail as blocked and are listed in
// [Page.Refused]. Around that, so that what interception does not see
// (workers, WebSockets, WebRTC, Chromium's own services) goes nowhere:
// the browser's proxy is a loopback listener of this package that closes
// every connection (loopback traffic included), host names resolve to
// nothing, WebRTC may not use UDP, WebSockets are blocked, service worker
// registration fails, popups, downloads and permission prompts are
// refused, and dialogs are dismissed. The tests render pages that try
// every route to canary listeners and require that none was reached.
//
// # Budgets
//
// [Config.PageTimeout] bounds a page from the moment it has a tab: it
// loads, settles (no request in flight for half a second, or three
// quarters of the budget spent), and its DOM is read, refused past
// [Config.MaxDOMBytes] before it crosses the protocol. A page that
// spins, floods the browser with frames or navigates endlessly ends with
// Page.Err saying so; its renderer is crashed and its context disposed
// of. JavaScript heaps are capped ([Config.MaxHeapMB]); a renderer that
// dies ends its page as "the renderer crashed". A browser that dies or
// stops answering is stopped and a new one started for the next page.
package render

import (
	"context"
	"time"
)

// Renderer renders one page. The audit gets one from its caller
// (audit.Options.Renderer); nil means rendering is off.
type Renderer interface {
	// Render loads url and returns the page after it settled, or, when
	// it could not be rendered, a Page whose Err says why. It never
	// panics and never leaves the renderer unusable for the next page.
	Render(ctx context.Context, url string) Page
}

// Page is one page as the browser rendered it.
type Page struct {
	// URL is the URL asked for; FinalURL the document's URL after
	// redirects (HTTP or script navigation).
	URL      string
	FinalURL string
	// Status is the HTTP status of the main document, 0 when unknown.
	Status int
	// HTML is the serialized DOM after rendering (document.documentElement
	// outerHTML), bounded by the renderer's DOM limit.
	HTML []byte
	// Screenshot is a small JPEG of the rendered viewport; nil when none
	// was taken.
	Screenshot []byte
	// Err is empty when the page was rendered; otherwise it is the reason
	// it was not ("timed out after 15s", "the renderer crashed", "the DOM
	// is larger than 20 MB"), and a finding built on it is "not measured".
	Err string
	// Elapsed is the time the page took.
	Elapsed time.Duration
	// Requests counts the requests the page made; Refused lists (up to a
	// few) of those that were refused, with why.
	Requests int
	Refused  []string
}

// Rendered reports whether the page was rendered.
func (p Page) Rendered() bool { return p.Err == "" }
