package render

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// InstallCommand installs the browser the renderer runs (Debian, Ubuntu).
const InstallCommand = "apt-get install chromium-headless-shell"

// Defaults of Config.
const (
	DefaultTabs             = 2
	DefaultPageTimeout      = 15 * time.Second
	DefaultMaxDOMBytes      = 20 << 20
	DefaultMaxResponseBytes = 10 << 20
	DefaultMaxRequests      = 300
	DefaultMaxNavigations   = 10
	DefaultMaxHeapMB        = 256
)

// Viewport is the size of the browser window, in CSS pixels.
type Viewport struct{ Width, Height int }

// Config configures a Browser. Zero fields take the defaults above.
type Config struct {
	// Path is the browser binary; empty finds one on PATH (see Find).
	Path string
	// Tabs is how many pages render at once.
	Tabs int
	// PageTimeout bounds one page from the moment it has a tab: loading,
	// settling, reading the DOM and the screenshot.
	PageTimeout time.Duration
	// MaxDOMBytes is the largest serialized DOM returned.
	MaxDOMBytes int64
	// Client fetches every request the browser makes; it must be
	// netguard's guarded client (or, in tests, one as strict). Redirects
	// are returned to the browser, which follows them through the client
	// again, so each hop is checked.
	Client *http.Client
	// UserAgent is the browser's User-Agent; empty keeps Chromium's.
	UserAgent string
	// Viewport is the window size (default 1280×800).
	Viewport Viewport
	// Screenshot takes a small JPEG of the viewport once the page settled.
	Screenshot bool
	// MaxResponseBytes caps one response body, after decompression.
	MaxResponseBytes int64
	// MaxRequests caps the requests of one page; later ones are refused.
	MaxRequests int
	// MaxNavigations caps the documents loaded into the main frame (HTTP
	// and script redirects); a page past it is not rendered.
	MaxNavigations int
	// MaxHeapMB caps a page's JavaScript heap (V8's old space).
	MaxHeapMB int
}

func (c Config) withDefaults() Config {
	c.Tabs = cmp.Or(max(c.Tabs, 0), DefaultTabs)
	if c.PageTimeout <= 0 {
		c.PageTimeout = DefaultPageTimeout
	}
	if c.MaxDOMBytes <= 0 {
		c.MaxDOMBytes = DefaultMaxDOMBytes
	}
	if c.MaxResponseBytes <= 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	c.MaxRequests = cmp.Or(max(c.MaxRequests, 0), DefaultMaxRequests)
	c.MaxNavigations = cmp.Or(max(c.MaxNavigations, 0), DefaultMaxNavigations)
	c.MaxHeapMB = cmp.Or(max(c.MaxHeapMB, 0), DefaultMaxHeapMB)
	if c.Viewport.Width <= 0 || c.Viewport.Height <= 0 {
		c.Viewport = Viewport{Width: 1280, Height: 800}
	}
	return c
}

// browserNames are the binaries Find looks for, best first: the headless
// shell is the smallest and starts fastest.
var browserNames = []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"}

// Find returns the browser binary to run: path when set (a name is looked
// up on PATH), else the first of chromium-headless-shell, chromium,
// chromium-browser and google-chrome on PATH. The error says how to
// install one.
func Find(path string) (string, error) {
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("render: browser %q not found: %w; install one with: %s", path, err, InstallCommand)
		}
		return p, nil
	}
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("render: no Chromium on PATH (looked for %s); install one with: %s",
		strings.Join(browserNames, ", "), InstallCommand)
}

// Browser renders pages in one long-lived Chromium, a bounded number at a
// time, each in a tab of its own browser context (no cookies, storage,
// cache or service workers shared between pages). When the browser dies or
// hangs it is restarted for the next page. It is safe for concurrent use.
type Browser struct {
	cfg    Config
	path   string
	client *http.Client
	sink   *sink

	// tabs holds a token per tab in use; a token is returned once the
	// tab is closed, not when Render returns.
	tabs chan struct{}

	mu     sync.Mutex
	inst   *instance
	closed bool

	// closing counts the renders under way, their tabs' closing in the
	// background included; Close waits for them. It is added to under mu,
	// before closed is set, so that no render starts while Close waits.
	closing sync.WaitGroup
	starts  atomic.Int64
}

// instance is one run of the browser process.
type instance struct {
	ctx    context.Context    // the chromedp context of the browser
	kill   context.CancelFunc // ends the process tree and removes its profile
	pid    int
	dead   atomic.Bool
	killed sync.Once

	// failing counts the failed pages being closed; clear is closed
	// when it drops to zero.
	gate    sync.Mutex
	failing int
	clear   chan struct{}
}

// hold marks a failed page's close as pending.
func (in *instance) hold() {
	in.gate.Lock()
	defer in.gate.Unlock()
	if in.failing == 0 {
		in.clear = make(chan struct{})
	}
	in.failing++
}

func (in *instance) release() {
	in.gate.Lock()
	defer in.gate.Unlock()
	in.failing--
	if in.failing == 0 {
		close(in.clear)
	}
}

// settled is closed once no failed page's close is pending.
func (in *instance) settled() <-chan struct{} {
	in.gate.Lock()
	defer in.gate.Unlock()
	if in.failing == 0 {
		return closedChan
	}
	return in.clear
}

var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

func (in *instance) stop() {
	in.dead.Store(true)
	in.killed.Do(in.kill)
}

var _ Renderer = (*Browser)(nil)

var errClosed = errors.New("the renderer is closed")

// New starts the browser. ctx bounds the start only; the browser lives
// until Close.
func New(ctx context.Context, cfg Config) (*Browser, error) {
	if cfg.Client == nil {
		return nil, errors.New("render: Config.Client is required: every request goes through the guarded client")
	}
	cfg = cfg.withDefaults()
	path, err := Find(cfg.Path)
	if err != nil {
		return nil, err
	}
	// The browser follows redirects itself, asking for each hop through
	// the client, so the client must hand them back.
	client := *cfg.Client
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	s, err := newSink(ctx)
	if err != nil {
		return nil, fmt.Errorf("render: proxy listener: %w", err)
	}
	b := &Browser{cfg: cfg, path: path, client: &client, sink: s, tabs: make(chan struct{}, cfg.Tabs)}
	inst, err := b.start(ctx)
	if err != nil {
		s.close()
		return nil, err
	}
	b.inst = inst
	return b, nil
}

// flags are the browser's command line. Requests are answered through
// interception; the rest is defense in depth so that nothing the page does
// reaches the network on its own: every connection goes to the package's
// own dead-end proxy, loopback included, host names never resolve, WebRTC
// may use no UDP, and popups, site isolation (which would put cross-site
// frames in targets the page's interception does not cover), prefetching
// and background services are off.
func (b *Browser) flags() []chromedp.ExecAllocatorOption {
	c := b.cfg
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	opts = append(opts,
		chromedp.ExecPath(b.path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(c.Viewport.Width, c.Viewport.Height),
		chromedp.ProxyServer("http://"+b.sink.addr()),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("block-new-web-contents", true),
		chromedp.Flag("deny-permission-prompts", true),
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", strings.Join([]string{
			"Translate", "BlinkGenPropertyTrees", "IsolateOrigins", "site-per-process",
			"OptimizationHints", "MediaRouter", "DialMediaRouteProvider", "Prerender2",
			"NoStatePrefetch", "SpeculationRulesPrefetchFuture", "AutofillServerCommunication",
			"CertificateTransparencyComponentUpdater", "DnsOverHttps", "AsyncDns",
			"InterestFeedContentSuggestions", "PrivacySandboxSettings4",
		}, ",")),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-notifications", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("dns-prefetch-disable", true),
		chromedp.Flag("js-flags", "--max-old-space-size="+strconv.Itoa(c.MaxHeapMB)),
	)
	if c.UserAgent != "" {
		opts = append(opts, chromedp.UserAgent(c.UserAgent))
	}
	return opts
}

func nop(string, ...any) {}

// start runs a browser process and waits, within ctx, until it answers.
func (b *Browser) start(ctx context.Context) (*instance, error) {
	// The browser outlives ctx, which bounds only the start.
	actx, kill := chromedp.NewExecAllocator(context.WithoutCancel(ctx), b.flags()...)
	bctx, _ := chromedp.NewContext(actx, chromedp.WithBrowserOption(
		chromedp.WithBrowserLogf(nop), chromedp.WithBrowserErrorf(nop)))
	started := make(chan error, 1)
	go func() {
		// The browser lives as long as the context of its first Run.
		started <- chromedp.Do(bctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior,
				browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorDeny})
			return err
		}))
	}()
	select {
	case err := <-started:
		if err != nil {
			kill()
			return nil, fmt.Errorf("render: start %s: %w", b.path, err)
		}
	case <-ctx.Done():
		kill()
		return nil, fmt.Errorf("render: start %s: %w", b.path, ctx.Err())
	}
	c := chromedp.FromContext(bctx)
	in := &instance{ctx: bctx, kill: kill}
	if p := c.Browser.Process(); p != nil {
		in.pid = p.Pid
	}
	// A window a page opens is closed at once: the popup blocker flag
	// should leave none, this is for any that gets through anyway.
	err := chromedp.ListenBrowser(bctx, func(ev any) {
		if ev, ok := ev.(*target.EventTargetCreated); ok && ev.TargetInfo.OpenerID != "" {
			go closeTarget(bctx, c.Browser, ev.TargetInfo.TargetID)
		}
	})
	if err != nil {
		kill()
		return nil, fmt.Errorf("render: start %s: %w", b.path, err)
	}
	go func() {
		<-bctx.Done()
		in.dead.Store(true)
	}()
	b.starts.Add(1)
	return in, nil
}

func closeTarget(ctx context.Context, s cdp.Session, id target.ID) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, _ = cdp.Call(ctx, s, target.CloseTarget, target.CloseTargetParams{TargetID: id})
}

// current returns the running browser, starting a new one when the last
// has died. While a failed page of the browser is being closed it waits:
// that close may find the browser hung and stop it.
func (b *Browser) current(ctx context.Context) (*instance, error) {
	for {
		inst, err := b.running(ctx)
		if err != nil {
			return nil, err
		}
		select {
		case <-inst.settled():
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !inst.dead.Load() {
			return inst, nil
		}
	}
}

func (b *Browser) running(ctx context.Context) (*instance, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, errClosed
	}
	if b.inst != nil && !b.inst.dead.Load() {
		return b.inst, nil
	}
	if b.inst != nil {
		b.inst.stop()
		b.inst = nil
	}
	inst, err := b.start(ctx)
	if err != nil {
		return nil, err
	}
	b.inst = inst
	return inst, nil
}

// Close stops the browser after the tabs being closed are gone. Renders
// still running end with an error.
func (b *Browser) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	inst := b.inst
	b.inst = nil
	b.mu.Unlock()
	if inst != nil {
		inst.stop()
	}
	b.closing.Wait()
	b.sink.close()
	return nil
}

// Render loads rawURL in a fresh tab and returns the page once it settled:
// after its load event and, within the page budget, once no request has
// been in flight for a moment. It implements Renderer.
func (b *Browser) Render(ctx context.Context, rawURL string) (p Page) {
	start := time.Now()
	p = Page{URL: rawURL}
	defer func() {
		if r := recover(); r != nil {
			p.Err = fmt.Sprintf("the renderer failed: %v", r)
		}
		p.Elapsed = time.Since(start)
	}()
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.Err = "only http and https URLs are rendered"
		return p
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		p.Err = errClosed.Error()
		return p
	}
	b.closing.Add(1)
	b.mu.Unlock()
	select {
	case b.tabs <- struct{}{}:
	case <-ctx.Done():
		b.closing.Done()
		p.Err = "the render was canceled"
		return p
	}
	inst, err := b.current(ctx)
	if err != nil {
		b.closing.Done()
		<-b.tabs
		switch {
		case errors.Is(err, errClosed):
			p.Err = errClosed.Error()
		case ctx.Err() != nil:
			p.Err = "the render was canceled"
		default:
			p.Err = "the browser could not start: " + err.Error()
		}
		return p
	}
	r := newPageRun(b, inst, rawURL)
	return r.render(ctx)
}

// Escaped counts the connections the browser made past interception: they
// reached the dead-end proxy and went nowhere.
func (b *Browser) Escaped() int64 { return b.sink.accepted.Load() }

// Starts counts the browser processes started, the first included.
func (b *Browser) Starts() int64 { return b.starts.Load() }

// PID is the current browser process's id, 0 when none runs.
func (b *Browser) PID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.inst == nil || b.inst.dead.Load() {
		return 0
	}
	return b.inst.pid
}
