package fetch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/geoscan/geoscan/internal/audit/page"
)

// Bot is a user agent the edge reachability probe fetches the homepage as.
type Bot struct {
	Token     string // product token, e.g. OAI-SearchBot
	UserAgent string
	Role      string // search, user_fetch, training, browser
}

// ProbeBots are the user agents of the edge reachability probe: a browser
// baseline and the AI crawlers whose blocking costs visibility, plus one
// training crawler so an edge that blocks every AI agent is recognisable.
var ProbeBots = []Bot{
	{"Browser", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36", "browser"},
	{"OAI-SearchBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot", "search"},
	{"ChatGPT-User", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "user_fetch"},
	{"Claude-SearchBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com", "search"},
	{"PerplexityBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "search"},
	{"GPTBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot", "training"},
}

// SitemapURL is one <url> of a sitemap.
type SitemapURL struct {
	Loc     string
	LastMod string
}

// BotResult is the homepage as one bot saw it.
type BotResult struct {
	Bot      Bot
	Response *Response
}

// Site is everything fetched for one audit.
type Site struct {
	Target *url.URL
	// Home is the homepage the audit reads. It is GeoScan's own fetch,
	// unless GeoScan's user agent was refused (see Refusal) and a
	// browser-like re-fetch was served: then Home is that re-fetch (its
	// UserAgent and Agent name the browser), AuditorHome keeps GeoScan's
	// refused answer, AuditedAs is "Browser", and every later request of
	// the audit is made as that browser and says so in its UserAgent.
	// BrowserHome is the re-fetch whenever one was made, served or not.
	// HomeAccess lists what each requester (GeoScan, the browser retry,
	// the probes) got.
	Home        *Response
	AuditorHome *Response
	BrowserHome *Response
	AuditedAs   string
	HomePage    *page.Page // parsed homepage; nil when it is not HTML
	// TTFBSamples are the time to first byte of the homepage fetches,
	// the first one included.
	TTFBSamples []time.Duration
	HTTP        *Response // http:// homepage, redirects not followed
	Robots      *Response
	// Sitemaps are the sitemap files requested, in order; SitemapFetches
	// says, for each (same order), where its location came from.
	Sitemaps       []*Response
	SitemapFetches []SitemapFetch
	// SitemapDefaultsTried are the default locations (/sitemap.xml, then
	// /sitemap_index.xml) that were requested because robots.txt led to no
	// readable sitemap; empty when they were not needed. SitemapLinksTried
	// are the homepage's <link rel="sitemap"> targets requested after them.
	SitemapDefaultsTried []string
	SitemapLinksTried    []string
	// SitemapSkipped are sitemap locations found but not requested (another
	// site, not a URL, the file limit).
	SitemapSkipped []SitemapSkip
	SitemapURLs    []SitemapURL
	// SitemapTotal counts every URL listed, including those beyond the
	// ones kept in SitemapURLs.
	SitemapTotal   int
	SitemapSamples []*Response // HEAD/GET of a few sitemap URLs
	LLMsTxt        *Response
	LLMsFullTxt    *Response
	LLMsLinks      []*Response // a sample of the links in llms.txt
	NotFound       *Response
	Pages          []*Response // about, contact, privacy, terms, articles, product
	Parsed         map[*Response]*page.Page
	Bots           []BotResult
	// All is every fetch in the order it finished.
	All     []*Response
	Elapsed time.Duration
	// ParseTime is the part of Elapsed spent parsing HTML.
	ParseTime time.Duration
}

// PagesFor returns the fetched pages of a purpose.
func (s *Site) PagesFor(p Purpose) []*Response {
	var out []*Response
	for _, r := range s.Pages {
		if r.Purpose == p {
			out = append(out, r)
		}
	}
	return out
}

// Page returns the parsed page of a response, or nil.
func (s *Site) Page(r *Response) *page.Page {
	if r == nil {
		return nil
	}
	return s.Parsed[r]
}

// HomeError is a homepage that could not be audited at all.
type HomeError struct {
	Failure
	Response *Response
}

func (e *HomeError) Error() string { return e.Message }

// maxKeptSitemapURLs bounds the URLs kept for sampling and triage.
const maxKeptSitemapURLs = 2000

// crawl carries the state of one Site fetch.
type crawl struct {
	f    *Fetcher
	site *Site
	sem  chan struct{}
	mu   sync.Mutex
	// as is the user agent of requests that name none: GeoScan's own
	// (the zero Bot), or the browser's once GeoScan's was refused.
	as Bot
}

func (c *crawl) do(ctx context.Context, r Request) *Response {
	if r.UserAgent == "" && c.as.UserAgent != "" {
		r.UserAgent, r.Agent = c.as.UserAgent, c.as.Token
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		resp := &Response{Purpose: r.Purpose, URL: r.URL, FinalURL: r.URL, Err: context.Cause(ctx)}
		c.record(resp)
		return resp
	}
	resp := c.f.Do(ctx, r)
	<-c.sem
	c.record(resp)
	return resp
}

func (c *crawl) record(r *Response) {
	c.mu.Lock()
	c.site.All = append(c.site.All, r)
	c.mu.Unlock()
}

// Site fetches everything an audit of target needs. It returns a
// *HomeError when the homepage itself could not be fetched or answered
// 5xx: nothing else is worth auditing then.
func (f *Fetcher) Site(ctx context.Context, target *url.URL) (*Site, error) {
	return f.SiteWith(ctx, target, SiteOpts{})
}

// SiteOpts are the settings of one SiteWith fetch.
type SiteOpts struct {
	// BeforeParse, when set, is called with the bytes of HTML about to be
	// parsed: the homepage's once it is read, then the key pages'
	// together. A parsed page holds several times its HTML, so this is
	// where a caller bounding memory waits for it. Its error ends the
	// fetch with that error, the site as read so far beside it.
	BeforeParse func(ctx context.Context, htmlBytes int) error
}

// SiteWith is Site with opts.
func (f *Fetcher) SiteWith(ctx context.Context, target *url.URL, opts SiteOpts) (*Site, error) {
	start := time.Now()
	site := &Site{Target: target, Parsed: map[*Response]*page.Page{}}
	c := &crawl{f: f, site: site, sem: make(chan struct{}, f.opts.PerHost)}
	defer func() { site.Elapsed = time.Since(start) }()

	home := c.do(ctx, Request{Purpose: Homepage, URL: target.String()})
	site.Home = home
	if Refusal(home) != "" {
		// An edge that turns GeoScan away may serve everyone else: the
		// homepage is asked for again as a browser, and when that is
		// served, the audit reads what browsers (and the crawlers the
		// probes imitate) get.
		b := browserBot()
		retry := c.do(ctx, Request{Purpose: Homepage, URL: target.String(), UserAgent: b.UserAgent, Agent: b.Token})
		site.BrowserHome = retry
		if retry.Err == nil && retry.Status < 500 && Refusal(retry) == "" {
			site.AuditorHome, site.Home, site.AuditedAs = home, retry, b.Token
			c.as = b
			home = retry
		}
	}
	if home.Err != nil {
		return site, &HomeError{Failure: describeHome(home), Response: home}
	}
	if home.Status >= 500 {
		return site, &HomeError{Failure: Failure{Code: "http_error", Message: "the homepage answered HTTP " + strconv.Itoa(home.Status)}, Response: home}
	}
	site.TTFBSamples = append(site.TTFBSamples, home.TTFB)
	if home.IsHTML() {
		if err := opts.beforeParse(ctx, len(home.Body)); err != nil {
			return site, err
		}
		parseStart := time.Now()
		finalURL, _ := url.Parse(home.FinalURL)
		if p, err := page.Parse(home.Body, finalURL); err == nil {
			site.HomePage = p
			site.Parsed[home] = p
		}
		site.ParseTime += time.Since(parseStart)
	}
	origin := &url.URL{Scheme: "https", Host: target.Host}
	at := func(p string) string { return origin.ResolveReference(&url.URL{Path: p}).String() }

	// Independent fetches, bounded by the per-host semaphore.
	var wg sync.WaitGroup
	run := func(fn func()) {
		wg.Add(1)
		go func() { defer wg.Done(); fn() }()
	}
	run(func() {
		site.Robots = c.do(ctx, Request{Purpose: Robots, URL: at("/robots.txt"), Accept: "text/plain,*/*;q=0.5"})
	})
	run(func() {
		site.LLMsTxt = c.do(ctx, Request{Purpose: LLMsTxt, URL: at("/llms.txt"), Accept: "text/plain,text/markdown,*/*;q=0.5"})
	})
	run(func() {
		site.LLMsFullTxt = c.do(ctx, Request{Purpose: LLMsFullTxt, URL: at("/llms-full.txt"), Method: http.MethodHead})
	})
	run(func() {
		site.NotFound = c.do(ctx, Request{Purpose: NotFoundProbe, URL: at("/geoscan-probe-" + randomToken() + "/")})
	})
	run(func() { site.HTTP = c.do(ctx, Request{Purpose: HTTPProbe, URL: f.plainURL(target), NoFollow: true}) })
	bots := make([]BotResult, len(ProbeBots))
	for i, b := range ProbeBots {
		run(func() {
			bots[i] = BotResult{Bot: b, Response: c.do(ctx, Request{Purpose: BotProbe, URL: target.String(), UserAgent: b.UserAgent, Agent: b.Token, Keep: refusalWindow})}
		})
	}
	samples := make([]time.Duration, 2)
	for i := range samples {
		run(func() {
			if r := c.do(ctx, Request{Purpose: HomeSample, URL: target.String(), Method: http.MethodHead}); r.Err == nil {
				samples[i] = r.TTFB
			}
		})
	}
	wg.Wait()
	site.Bots = bots
	for _, s := range samples {
		if s > 0 {
			site.TTFBSamples = append(site.TTFBSamples, s)
		}
	}

	// Sitemaps: robots.txt first, then the default locations, then the
	// homepage's <link rel="sitemap">.
	c.sitemaps(ctx, origin)

	// Key pages, then a sample of sitemap URLs and of llms.txt links.
	pages := c.choosePages(origin)
	results := make([]*Response, len(pages))
	for i, p := range pages {
		run(func() { results[i] = c.do(ctx, p) })
	}
	sampleURLs := sampleSitemap(site.SitemapURLs, pages, 5)
	sampled := make([]*Response, len(sampleURLs))
	for i, u := range sampleURLs {
		run(func() { sampled[i] = c.do(ctx, Request{Purpose: SitemapSample, URL: u, Method: http.MethodHead}) })
	}
	llmsLinks := llmsTxtLinks(site.LLMsTxt, 5)
	linked := make([]*Response, len(llmsLinks))
	for i, u := range llmsLinks {
		run(func() { linked[i] = c.do(ctx, Request{Purpose: LLMsLink, URL: u, Method: http.MethodHead}) })
	}
	wg.Wait()
	site.Pages = results
	site.SitemapSamples = sampled
	site.LLMsLinks = linked
	html := 0
	for _, r := range results {
		if r.OK() && r.IsHTML() {
			html += len(r.Body)
		}
	}
	if html > 0 {
		if err := opts.beforeParse(ctx, html); err != nil {
			return site, err
		}
	}
	parseStart := time.Now()
	defer func() { site.ParseTime += time.Since(parseStart) }()
	for _, r := range results {
		if r.OK() && r.IsHTML() {
			u, _ := url.Parse(r.FinalURL)
			if p, err := page.Parse(r.Body, u); err == nil {
				site.Parsed[r] = p
			}
		}
	}
	return site, nil
}

func (o SiteOpts) beforeParse(ctx context.Context, htmlBytes int) error {
	if o.BeforeParse == nil {
		return nil
	}
	return o.BeforeParse(ctx, htmlBytes)
}

func describeHome(r *Response) Failure {
	fl := Describe(r.Err)
	fl.Message = "The homepage could not be fetched: " + fl.Message + "."
	return fl
}

func (f *Fetcher) plainURL(target *url.URL) string {
	u := *target
	u.Scheme = "http"
	host := u.Hostname()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if f.opts.PlainHTTPPort != 80 {
		host = net.JoinHostPort(u.Hostname(), strconv.Itoa(f.opts.PlainHTTPPort))
	}
	u.Host = host
	return u.String()
}

func randomToken() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func sameSite(raw string, origin *url.URL) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" {
		return false
	}
	return SameSite(u, origin)
}

// SameHost reports whether two URLs name one host: the same name but for
// case, a trailing dot and a leading "www.", whatever their scheme and
// port.
func SameHost(a, b *url.URL) bool { return hostName(a) == hostName(b) }

// SameSite reports whether two URLs are of one site: SameHost on the same
// port, the scheme's default written or not (https://WWW.example.com:443/
// is https://example.com/).
func SameSite(a, b *url.URL) bool { return SameHost(a, b) && portOf(a) == portOf(b) }

func hostName(u *url.URL) string {
	return strings.TrimPrefix(strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")), "www.")
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// Page-role patterns over URL paths and link texts.
var (
	privacyRE = regexp.MustCompile(`(?i)(privacy|datenschutz|gdpr)`)
	termsRE   = regexp.MustCompile(`(?i)(terms|conditions|tos|legal|imprint|impressum)`)
	articleRE = regexp.MustCompile(`(?i)/(blog|blogs|news|articles?|posts?|insights|guides?|docs|learn|resources|journal|\d{4}/\d{2})/[^/?#]+`)
	productRE = regexp.MustCompile(`(?i)/(products?|services?|solutions?|pricing|plans|shop/[^/]+|features?)(/[^/?#]+)?/?$`)
)

// choosePages picks the key pages from the homepage's links first (what a
// crawler reaches) and the sitemap second.
func (c *crawl) choosePages(origin *url.URL) []Request {
	var links []page.Link
	if c.site.HomePage != nil {
		links = c.site.HomePage.Links
	}
	// A homepage link brings its text; a sitemap URL has none.
	type candidate struct{ href, text string }
	var candidates []candidate
	for _, l := range links {
		if l.Internal && l.Href != "" {
			candidates = append(candidates, candidate{l.Href, l.Text})
		}
	}
	for _, s := range c.site.SitemapURLs {
		candidates = append(candidates, candidate{href: s.Loc})
	}
	home := strings.TrimSuffix(c.site.Target.String(), "/")
	picked := map[string]bool{}
	var out []Request
	take := func(p Purpose, is func(u *url.URL, text string) bool, max int) {
		n := 0
		for _, cand := range candidates {
			if n >= max {
				return
			}
			u, err := url.Parse(cand.href)
			if err != nil || !sameSite(cand.href, origin) || u.RawQuery != "" {
				continue
			}
			u.Fragment = ""
			s := u.String()
			if picked[s] || strings.TrimSuffix(s, "/") == home || path.Ext(u.Path) == ".xml" {
				continue
			}
			if is(u, cand.text) {
				picked[s] = true
				out = append(out, Request{Purpose: p, URL: s})
				n++
			}
		}
	}
	role := func(r Purpose) func(*url.URL, string) bool {
		return func(u *url.URL, text string) bool { return LinkRole(u.String(), text) == r }
	}
	byPath := func(re *regexp.Regexp) func(*url.URL, string) bool {
		return func(u *url.URL, _ string) bool { return re.MatchString(u.Path) }
	}
	take(About, role(About), 1)
	take(Contact, role(Contact), 1)
	take(Privacy, byPath(privacyRE), 1)
	take(Terms, byPath(termsRE), 1)
	take(Article, byPath(articleRE), 3)
	take(Product, byPath(productRE), 1)
	return out
}

// sampleSitemap picks up to n sitemap URLs not already fetched as pages,
// spread over the list so one section does not dominate.
func sampleSitemap(urls []SitemapURL, pages []Request, n int) []string {
	fetched := map[string]bool{}
	for _, p := range pages {
		fetched[p.URL] = true
	}
	var pool []string
	for _, u := range urls {
		if !fetched[u.Loc] && strings.HasPrefix(u.Loc, "https://") {
			pool = append(pool, u.Loc)
		}
	}
	if len(pool) <= n {
		return pool
	}
	out := make([]string, 0, n)
	step := float64(len(pool)) / float64(n)
	for i := range n {
		out = append(out, pool[int(float64(i)*step)])
	}
	return out
}

var mdLinkRE = regexp.MustCompile(`\]\((https?://[^)\s]+)\)`)

func llmsTxtLinks(r *Response, n int) []string {
	if !r.OK() {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range mdLinkRE.FindAllSubmatch(r.Body, -1) {
		u := string(m[1])
		if seen[u] || !strings.HasPrefix(u, "https://") {
			continue
		}
		seen[u] = true
		out = append(out, u)
		if len(out) == n {
			break
		}
	}
	sort.Strings(out)
	return out
}
