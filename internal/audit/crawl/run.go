package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"sync"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// PagePurpose labels the fetches of pages a crawl samples.
const PagePurpose fetch.Purpose = "crawl_page"

// Page is one page of the sample as fetched, handed to the visitor.
type Page struct {
	// URL is the canonical URL requested.
	URL      string
	Template string
	Sources  Source
	// Response is the answer as it came: redirects are not followed, so a
	// 3xx is a page too (see RedirectTo); a failed request has Err set.
	Response *fetch.Response
	// RedirectTo is where a 3xx leads when that is on the site (it joins
	// the inventory and is requested next); "" otherwise.
	RedirectTo string
	// Tries is how many requests the page took (more than one after 429
	// or 503 answers).
	Tries int

	parse  sync.Once
	parsed *page.Page
}

// HTML is the page parsed by page.Parse when the response is 2xx HTML,
// else nil. It is parsed on the first call, once: the crawl reads the
// links it needs with a lighter reader, so parsing costs only the
// visitors that want it.
func (p *Page) HTML() *page.Page {
	p.parse.Do(func() {
		r := p.Response
		if r == nil || !r.OK() || !r.IsHTML() {
			return
		}
		if parsed, err := page.Parse(r.Body, finalURL(r)); err == nil {
			p.parsed = parsed
		}
	})
	return p.parsed
}

// Visitor receives each page as soon as it is fetched and its links read
// (Page.HTML parses it), one call at a time. An error stops the crawl and is returned by Run. The crawl keeps
// nothing of the page after the call.
type Visitor func(*Page) error

// Stop says why a crawl ended.
type Stop string

// The ends of a crawl.
const (
	// StopComplete: every URL the sample may take was requested (some
	// templates may have reached MaxTemplatePages; see Sample).
	StopComplete Stop = "complete"
	StopPages    Stop = "page_budget" // MaxPages were requested
	StopBytes    Stop = "byte_budget" // MaxBytes were read
	StopTime     Stop = "time_budget" // the context's deadline or MaxDuration
	StopCanceled Stop = "canceled"    // the context was cancelled
	// StopRetryAfter: the site answered 429 or 503 with a Retry-After
	// longer than MaxRetryWait.
	StopRetryAfter Stop = "retry_after"
	StopVisitor    Stop = "visitor_error" // the visitor returned an error
)

// Result is what a crawl did and why it ended, in a form a report prints.
type Result struct {
	// Site is the origin crawled.
	Site       string `json:"site"`
	Stop       Stop   `json:"stop"`
	StopDetail string `json:"stop_detail,omitempty"`
	// Pages counts the pages handed to the visitor.
	Pages int `json:"pages"`
	// Requests counts every request: robots.txt, sitemaps, llms.txt,
	// redirects of the homepage and retries included.
	Requests int   `json:"requests"`
	Retries  int   `json:"retries"`
	Bytes    int64 `json:"bytes"`
	// Elapsed is the wall time from the start of Discover.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Robots is the state of robots.txt ("rules", "unavailable",
	// "unreachable"); RobotsReason explains the latter two.
	Robots       string `json:"robots"`
	RobotsReason string `json:"robots_reason,omitempty"`
	// CrawlDelay is the robots.txt Crawl-delay read for GeoScan; Interval
	// is the spacing of requests that was in force (0: unthrottled).
	CrawlDelay time.Duration `json:"crawl_delay_ns"`
	Interval   time.Duration `json:"interval_ns"`
	Sample     Sample        `json:"sample"`
	// BySource counts the URLs kept per source; Overflow the URLs found
	// past the inventory's caps.
	BySource map[string]int `json:"by_source"`
	Overflow int            `json:"overflow"`
	Sitemaps []SitemapFile  `json:"sitemaps"`
	Skipped  []Skip         `json:"skipped"`
}

// Crawl discovers the site at target and crawls a sample of it: Discover
// then Run.
func Crawl(ctx context.Context, f *fetch.Fetcher, target *url.URL, opts Options, visit Visitor) (*Result, error) {
	inv, err := Discover(ctx, f, target, opts)
	if err != nil {
		return nil, err
	}
	return Run(ctx, inv, visit)
}

// errStopped marks a request not made or cut short because the crawl is
// stopping; errGaveUp a URL still answering 429 or 503 after MaxTries.
var (
	errStopped = errors.New("crawl stopping")
	errGaveUp  = errors.New("retries exhausted")
)

// get requests one URL politely: it takes one of the PerHost slots for
// all its tries, waits its turn (a Retry-After pause, the rate), retries
// a 429 or 503 up to MaxTries, and counts the request and its bytes. It
// returns the last response, the tries made, and errStopped (the context
// ended, the byte budget is spent, or the site asked for a longer pause
// than MaxRetryWait) or errGaveUp.
func (inv *Inventory) get(ctx context.Context, req fetch.Request) (*fetch.Response, int, error) {
	select {
	case inv.inFlight <- struct{}{}:
	case <-ctx.Done():
		return nil, 0, errStopped
	}
	defer func() { <-inv.inFlight }()
	for try := 1; ; try++ {
		if inv.halted() || inv.spent() {
			return nil, try - 1, errStopped
		}
		if err := inv.host.wait(ctx); err != nil {
			return nil, try - 1, errStopped
		}
		resp := inv.f.Do(ctx, req)
		inv.mu.Lock()
		inv.requests++
		inv.bytes += int64(resp.Bytes)
		inv.mu.Unlock()
		if ctx.Err() != nil {
			return resp, try, errStopped
		}
		if !retryable(resp.Status) {
			return resp, try, nil
		}
		if try >= inv.opts.MaxTries {
			inv.skips.add(ReasonGaveUp, req.URL)
			return resp, try, errGaveUp
		}
		wait, asked := retryAfter(resp.Header, inv.opts.clock.Now())
		if asked && wait > inv.opts.MaxRetryWait {
			inv.halt(StopRetryAfter, fmt.Sprintf("%s answered HTTP %d asking to wait %s, longer than the %s a crawl waits",
				clipURL(req.URL), resp.Status, wait, inv.opts.MaxRetryWait))
			return resp, try, errStopped
		}
		if !asked {
			wait = min(backoff(try), inv.opts.MaxRetryWait)
		}
		inv.mu.Lock()
		inv.retries++
		inv.mu.Unlock()
		// The pause holds every request, this URL's next try first: it
		// keeps its slot.
		inv.host.pause(wait)
	}
}

// halt records why the crawl must stop; the first reason stands.
func (inv *Inventory) halt(s Stop, detail string) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if inv.stop == "" {
		inv.stop, inv.stopDetail = s, detail
	}
}

func (inv *Inventory) halted() bool {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.stop != ""
}

// spent reports the byte budget used up.
func (inv *Inventory) spent() bool {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.bytes >= inv.opts.MaxBytes
}

// outcome is what one page request left for the inventory: small, so a
// wave's outcomes are cheap to hold until they are merged.
type outcome struct {
	state      State
	unfinished bool
	redirect   *url.URL
	canonical  *url.URL
	links      []*url.URL
}

// runner is one Run.
type runner struct {
	inv     *Inventory
	visit   Visitor
	visitMu sync.Mutex
	visited int
	err     error // the visitor's
}

// Run crawls a sample of the inventory: the homepage first (as Discover
// fetched it), then waves of URLs picked round-robin over the templates
// (see Sample), each wave requested PerHost at a time at the pace
// robots.txt and Options allow, each page's links read and the page
// handed to visit, and what the wave's pages link to, redirect to and
// name as canonical added to the inventory before the next wave is
// picked. Picking a wave only once the
// last one is merged makes the sample depend on the site alone, not on
// which response came first.
//
// Run stops cleanly at the first bound reached — the page budget, the
// byte budget, the context's deadline or MaxDuration, a Retry-After
// longer than MaxRetryWait — or when the sample has nothing left, and
// says which in Result.Stop. It returns an error only for a cancelled
// context or a visitor's error, with the Result so far.
func Run(ctx context.Context, inv *Inventory, visit Visitor) (*Result, error) {
	if inv == nil {
		return nil, errors.New("crawl: no inventory")
	}
	if visit == nil {
		visit = func(*Page) error { return nil }
	}
	ctx, cancel := inv.bound(ctx)
	defer cancel()
	r := &runner{inv: inv, visit: visit}
	budget := inv.opts.MaxPages
	if h := inv.home; h != nil {
		inv.home = nil
		budget--
		if h.idx >= 0 {
			// Discover recorded what became of it; it counts as taken.
			st := inv.entries[h.idx].state
			inv.takeEntry(h.idx, 1)
			inv.entries[h.idx].state = st
			if st == Fetched {
				inv.groups[inv.entries[h.idx].group].fetched++
			}
		}
		p := inv.pageOf(h.idx, h.resp, h.tries, nil)
		if inv.opts.ParsePages {
			p.HTML()
		}
		r.hand(p)
	}
	// A wave ends when its slowest page answers, and no request is out
	// while the next is picked: the first waves are short, so what they
	// teach (the site's links, its copied templates) steers the sample
	// early, and each wave is twice the last, up to maxWave, so a slow
	// page holds up fewer of them.
	wave, maxWave := max(16, 8*inv.opts.PerHost), max(16, 32*inv.opts.PerHost)
	for r.err == nil && !inv.halted() && ctx.Err() == nil && !inv.spent() {
		n := min(wave, budget)
		if n <= 0 {
			if inv.remaining() {
				inv.halt(StopPages, fmt.Sprintf("the page budget of %d was used", inv.opts.MaxPages))
			}
			break
		}
		batch := inv.pick(n)
		if len(batch) == 0 {
			break
		}
		budget -= len(batch)
		outs := r.wave(ctx, batch)
		wave = min(2*wave, maxWave)
		for k, i := range batch {
			if outs[k].unfinished {
				budget++
			}
			inv.merge(i, outs[k])
		}
	}
	return r.result(ctx)
}

// wave requests a batch. PerHost bounds the requests in flight (see
// get); a few more workers than that read the pages already fetched while
// the next requests are out, so parsing does not idle the connections.
func (r *runner) wave(ctx context.Context, batch []int32) []outcome {
	outs := make([]outcome, len(batch))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(r.inv.opts.PerHost+runtime.GOMAXPROCS(0), len(batch)) {
		wg.Go(func() {
			for k := range jobs {
				outs[k] = r.one(ctx, batch[k])
			}
		})
	}
	for k := range batch {
		jobs <- k
	}
	close(jobs)
	wg.Wait()
	return outs
}

// one requests one page, reads its links and visits it. The inventory's entries are
// only read here: the coordinator changes them between waves.
func (r *runner) one(ctx context.Context, i int32) outcome {
	inv := r.inv
	if r.failed() {
		return outcome{unfinished: true}
	}
	u := inv.entries[i].url
	resp, tries, err := inv.get(ctx, fetch.Request{Purpose: PagePurpose, URL: u, NoFollow: true})
	if resp == nil || errors.Is(err, errStopped) {
		inv.skips.add(ReasonUnfinished, u)
		return outcome{unfinished: true}
	}
	o := outcome{state: Fetched}
	switch {
	case errors.Is(err, errGaveUp), resp.Err != nil:
		o.state = Failed
	case location(resp) != "":
		o.state = Redirected
		target, reason := inv.accept(finalURL(resp), location(resp))
		switch reason {
		case "":
			o.redirect = target
		case ReasonOtherSite:
			inv.skips.add(ReasonOffsiteRedirect, clipURL(location(resp)))
		default:
			inv.skips.add(reason, clipURL(location(resp)))
		}
	case resp.OK() && resp.IsHTML():
		o.links, o.canonical, _ = inv.pageLinks(resp)
	}
	p := inv.pageOf(i, resp, tries, o.redirect)
	if inv.opts.ParsePages {
		p.HTML()
	}
	r.hand(p)
	return o
}

func (inv *Inventory) pageOf(i int32, resp *fetch.Response, tries int, redirect *url.URL) *Page {
	p := &Page{URL: resp.URL, Response: resp, Tries: tries}
	if i >= 0 {
		e := inv.entries[i]
		p.URL, p.Template, p.Sources = e.url, inv.groups[e.group].template, e.sources
	}
	if redirect != nil {
		p.RedirectTo = redirect.String()
	}
	return p
}

// hand gives a page to the visitor, one at a time.
func (r *runner) hand(p *Page) {
	r.visitMu.Lock()
	defer r.visitMu.Unlock()
	if r.err != nil {
		return
	}
	r.visited++
	if err := r.visit(p); err != nil {
		r.err = err
		r.inv.halt(StopVisitor, "the visitor failed: "+err.Error())
	}
}

func (r *runner) failed() bool {
	r.visitMu.Lock()
	defer r.visitMu.Unlock()
	return r.err != nil
}

// merge applies one page's outcome to the inventory.
func (inv *Inventory) merge(i int32, o outcome) {
	e := &inv.entries[i]
	if o.unfinished {
		inv.takeEntry(i, -1)
		e.state = Known
		return
	}
	e.state = o.state
	if o.state == Fetched {
		inv.groups[e.group].fetched++
	}
	if o.redirect != nil {
		if j := inv.add(o.redirect, FromRedirect); j >= 0 && inv.entries[j].state == Known {
			inv.priority = append(inv.priority, j)
		}
	}
	if o.canonical != nil && o.canonical.String() != e.url {
		inv.groups[e.group].copies++
		inv.mergeCanonical(i, o.canonical)
	}
	for _, l := range o.links {
		inv.add(l, FromLink)
	}
}

func (r *runner) result(ctx context.Context) (*Result, error) {
	inv := r.inv
	var err error
	switch {
	case r.err != nil:
		err = fmt.Errorf("crawl: visitor: %w", r.err)
	case inv.halted():
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		inv.halt(StopTime, "the crawl's time budget ran out")
	case ctx.Err() != nil:
		inv.halt(StopCanceled, "the crawl was cancelled")
		err = context.Cause(ctx)
	case inv.spent():
		inv.halt(StopBytes, fmt.Sprintf("the byte budget of %d MiB was read", inv.opts.MaxBytes>>20))
	default:
		inv.halt(StopComplete, "")
	}
	res := &Result{
		Site:  inv.origin.String(),
		Pages: r.visited, Elapsed: inv.opts.clock.Now().Sub(inv.started),
		Robots:     string(inv.robots.State()),
		CrawlDelay: inv.delay, Interval: inv.host.interval(),
		Sample:   inv.sample(),
		BySource: inv.BySource(), Overflow: inv.overflow,
		Sitemaps: inv.Sitemaps(), Skipped: inv.Skipped(),
	}
	res.RobotsReason = inv.robots.StateReason()
	inv.mu.Lock()
	res.Stop, res.StopDetail = inv.stop, inv.stopDetail
	res.Requests, res.Retries, res.Bytes = inv.requests, inv.retries, inv.bytes
	inv.mu.Unlock()
	return res, err
}
