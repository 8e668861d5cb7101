package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

// maxHomeRedirects is how many redirects of the homepage are followed.
const maxHomeRedirects = 5

// homePage is the homepage as Discover fetched it, waiting for Run.
type homePage struct {
	idx   int32
	resp  *fetch.Response
	tries int
}

// Discover builds the inventory of the site at target: it reads
// robots.txt, fetches the homepage (following its redirects within the
// site, see below), reads the sitemaps — those robots.txt lists and the
// indexes they lead to; /sitemap.xml and /sitemap_index.xml when those
// give none; the homepage's <link rel="sitemap"> — then the links of
// llms.txt and of the homepage. Every request is paced and bounded as
// Run's are, and robots.txt is obeyed for all but itself and the
// sitemaps it lists.
//
// The site is target's scheme and host. When the homepage redirects to
// its www or apex twin (example.com → www.example.com), the site moves
// there and URLs on either name are one site; otherwise the twin is
// another site. A redirect to any other host leaves the inventory without
// a homepage (recorded as an offsite redirect).
//
// Discover fails only for a target that is no http(s) URL; a site that
// cannot be read gives an inventory that says so.
func Discover(ctx context.Context, f *fetch.Fetcher, target *url.URL, opts Options) (*Inventory, error) {
	if f == nil {
		return nil, errors.New("crawl: no fetcher")
	}
	if target == nil {
		return nil, errors.New("crawl: no target URL")
	}
	t, err := Canonicalize(nil, target.String())
	if err != nil {
		return nil, fmt.Errorf("crawl: target %q: %w", clipURL(target.String()), err)
	}
	opts = opts.withDefaults()
	inv := &Inventory{
		f: f, opts: opts, host: newHost(opts), inFlight: make(chan struct{}, opts.PerHost), started: opts.clock.Now(),
		index: map[string]int32{}, byTmpl: map[string]int32{}, byPath: map[string]int32{},
	}
	if opts.MaxDuration > 0 {
		// Contexts run on the real clock, whatever the crawl's.
		inv.deadline = time.Now().Add(opts.MaxDuration)
	}
	inv.setSite(t.Scheme, t.Host, "")
	ctx, cancel := inv.bound(ctx)
	defer cancel()

	inv.readRobots(ctx)
	homeURL, links, sitemapLinks := inv.readHome(ctx, t)
	inv.readSitemaps(ctx, homeURL, sitemapLinks)
	inv.readLLMsTxt(ctx)
	for _, l := range links {
		inv.add(l, FromLink)
	}
	return inv, nil
}

func (inv *Inventory) setSite(scheme, host, twin string) {
	inv.scope = scope{scheme: scheme, host: host, twin: twin}
	inv.origin = &url.URL{Scheme: scheme, Host: host, Path: "/"}
}

// bound applies MaxDuration, counted from the start of Discover.
func (inv *Inventory) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if inv.deadline.IsZero() {
		return ctx, func() {}
	}
	return context.WithDeadline(ctx, inv.deadline)
}

func (inv *Inventory) at(p string) string {
	return inv.origin.ResolveReference(&url.URL{Path: p}).String()
}

// readRobots reads the site's robots.txt and its Crawl-delay for GeoScan.
// Without an answer RFC 9309 has everything disallowed.
func (inv *Inventory) readRobots(ctx context.Context) {
	resp, _, _ := inv.get(ctx, fetch.Request{Purpose: fetch.Robots, URL: inv.at("/robots.txt"), Accept: "text/plain,*/*;q=0.5"})
	inv.robotsResp = resp
	inv.robots = robots.Parse(resp)
	inv.delay = crawlDelay(resp, inv.robots)
	inv.host.setDelay(inv.delay)
}

// readHome fetches the homepage, following its redirects by hand so that
// each hop is judged: within the site, to the www/apex twin (the site
// moves there), or elsewhere (not followed). It returns the homepage's
// final URL, its links and <link rel="sitemap"> targets.
func (inv *Inventory) readHome(ctx context.Context, target *url.URL) (*url.URL, []*url.URL, []string) {
	cur := target
	var hops []*url.URL
	record := func(final State) int32 {
		// Entries are added once the site is settled, so a hop on the
		// twin lands on the same entry as the page it led to.
		for _, h := range hops {
			if !inv.scope.own(h) {
				continue
			}
			if i := inv.add(h, FromHome); i >= 0 && inv.entries[i].state == Known {
				inv.entries[i].state = Redirected
			}
		}
		src := FromHome
		if len(hops) > 0 {
			src |= FromRedirect
		}
		if !inv.scope.own(cur) {
			return -1
		}
		i := inv.add(cur, src)
		if i >= 0 {
			inv.entries[i].state = final
		}
		return i
	}
	for hop := 0; ; hop++ {
		if !inv.allowed(cur.String()) {
			inv.skips.add(ReasonDisallowed, cur.String())
			record(Disallowed)
			return cur, nil, nil
		}
		resp, tries, err := inv.get(ctx, fetch.Request{Purpose: fetch.Homepage, URL: cur.String(), NoFollow: true})
		if resp == nil || errors.Is(err, errStopped) {
			inv.skips.add(ReasonUnfinished, cur.String())
			record(Known)
			return cur, nil, nil
		}
		if loc := location(resp); loc != "" && err == nil {
			next, cerr := Canonicalize(cur, loc)
			switch {
			case cerr != nil:
				inv.skips.add(ReasonNotAURL, clipURL(loc))
			case hop+1 > maxHomeRedirects:
				inv.skips.add(ReasonRedirectLimit, next.String())
			case next.Host == inv.scope.host || (inv.scope.twin == "" && twinOf(next.Host, inv.scope.host)):
				hops = append(hops, cur)
				if next.Host != inv.scope.host || next.Scheme != inv.scope.scheme {
					twin := inv.scope.twin
					if next.Host != inv.scope.host {
						twin = inv.scope.host
					}
					inv.setSite(next.Scheme, next.Host, twin)
					inv.readRobots(ctx)
				}
				cur = next
				continue
			default:
				inv.skips.add(ReasonOffsiteRedirect, next.String())
			}
			inv.home = &homePage{resp: resp, tries: tries}
			inv.home.idx = record(Redirected)
			return cur, nil, nil
		}
		state := Fetched
		if resp.Err != nil || err != nil {
			state = Failed
		}
		inv.home = &homePage{resp: resp, tries: tries}
		inv.home.idx = record(state)
		if !resp.OK() || !resp.IsHTML() {
			return cur, nil, nil
		}
		links, canonical, sitemaps := inv.pageLinks(resp)
		if canonical != nil && inv.home.idx >= 0 {
			inv.mergeCanonical(inv.home.idx, canonical)
		}
		return cur, links, sitemaps
	}
}

// location is the target of a redirect response, or "".
func location(r *fetch.Response) string {
	switch r.Status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return strings.TrimSpace(r.Header.Get("Location"))
	}
	return ""
}

func finalURL(r *fetch.Response) *url.URL {
	u, err := url.Parse(r.FinalURL)
	if err != nil {
		u, _ = url.Parse(r.URL)
	}
	return u
}

// pageLinks reads the links of a fetched 2xx HTML page that belong in
// the inventory (canonical, on the site, no traps; at most
// MaxLinksPerPage), its rel=canonical when it names one page of the site,
// and its <link rel="sitemap"> targets. A page whose robots meta tag says
// nofollow (for all robots or for GeoScan) gives no links. Safe for
// concurrent use.
func (inv *Inventory) pageLinks(resp *fetch.Response) (links []*url.URL, canonical *url.URL, sitemaps []string) {
	pageURL := finalURL(resp)
	r := readRefs(resp.Body, pageURL, 4*inv.opts.MaxLinksPerPage)
	if cs := r.canonicals; len(cs) > 0 && allSame(cs) {
		if u, reason := inv.accept(nil, cs[0]); reason == "" {
			canonical = u
		}
	}
	if r.nofollow {
		inv.skips.addN(ReasonNoFollow, len(r.links)+r.over, resp.URL)
		return nil, canonical, r.sitemaps
	}
	seen := map[string]bool{}
	over := r.over
	for _, l := range r.links {
		u, reason := inv.accept(nil, l)
		if reason != "" {
			if reason != ReasonNotAURL {
				inv.skips.add(reason, clipURL(l))
			}
			continue
		}
		key := u.String()
		if seen[key] {
			continue
		}
		seen[key] = true
		if len(links) >= inv.opts.MaxLinksPerPage {
			over++
			continue
		}
		links = append(links, u)
	}
	inv.skips.addN(ReasonLinkCap, over, resp.URL)
	return links, canonical, r.sitemaps
}

func allSame(s []string) bool {
	for _, v := range s[1:] {
		if v != s[0] {
			return false
		}
	}
	return true
}

// mergeCanonical makes page i and its canonical one page: a canonical not
// yet requested is not requested (i's fetch stands for it); when it was
// requested already (or is in i's wave, or stands merged with another
// page), i is the duplicate.
func (inv *Inventory) mergeCanonical(i int32, cu *url.URL) {
	j := inv.add(cu, FromCanonical)
	if j < 0 || j == i {
		return
	}
	switch inv.entries[j].state {
	case Known:
		inv.entries[j].state = Merged
	case Queued, Fetched, Merged:
		if inv.entries[i].state == Fetched {
			inv.entries[i].state = Merged
		}
	}
}

// sitemapItem is a sitemap location waiting to be requested.
type sitemapItem struct {
	url    string
	parent string
	source fetch.SitemapSource
	depth  int
}

// readSitemaps reads the site's sitemaps, breadth first, within
// MaxSitemapFiles and MaxSitemapDepth: robots.txt's first; the default
// locations when those give no readable sitemap; then the homepage's
// <link rel="sitemap">.
func (inv *Inventory) readSitemaps(ctx context.Context, home *url.URL, linkRel []string) {
	var queue []sitemapItem
	seen := map[string]bool{}
	requested := 0
	push := func(base *url.URL, raw, parent string, src fetch.SitemapSource, depth int) {
		u, err := Canonicalize(base, raw)
		switch {
		case err != nil:
			inv.skips.add(ReasonNotAURL, clipURL(raw))
		case !inv.sitemapOnSite(u):
			inv.skips.add(ReasonSitemapOtherSite, u.String())
		case seen[u.String()]:
		case depth > inv.opts.MaxSitemapDepth:
			inv.skips.add(ReasonSitemapDepth, u.String())
		case requested+len(queue) >= inv.opts.MaxSitemapFiles:
			inv.skips.add(ReasonSitemapFiles, u.String())
		default:
			seen[u.String()] = true
			queue = append(queue, sitemapItem{url: u.String(), parent: parent, source: src, depth: depth})
		}
	}
	readable := false
	drain := func() {
		for len(queue) > 0 {
			it := queue[0]
			queue = queue[1:]
			if it.source != fetch.SitemapFromRobots && !inv.allowed(it.url) {
				inv.skips.add(ReasonDisallowed, it.url)
				continue
			}
			requested++
			resp, _, err := inv.get(ctx, fetch.Request{Purpose: fetch.Sitemap, URL: it.url, Accept: "application/xml,text/xml,*/*;q=0.5"})
			if resp == nil || errors.Is(err, errStopped) {
				inv.skips.addN(ReasonUnfinished, 1+len(queue), it.url)
				queue = nil
				return
			}
			file := SitemapFile{URL: it.url, Source: it.source, Parent: it.parent, Status: resp.Status}
			tooLarge := errors.Is(resp.Err, fetch.ErrTooLarge)
			switch {
			case resp.Status < 200 || resp.Status > 299:
				file.Error = "the server answered HTTP " + strconv.Itoa(resp.Status)
				if resp.Err != nil {
					file.Error = resp.ErrorText()
				}
			case resp.Err != nil && !tooLarge:
				file.Error = resp.ErrorText()
			default:
				base := finalURL(resp)
				// An index's entries are queued, a urlset's taken into
				// the inventory, as they are read.
				sr := sitemapReader{limit: inv.opts.MaxSitemapBytes, each: func(loc string) {
					if file.Kind == "sitemapindex" {
						push(base, loc, it.url, fetch.SitemapFromIndex, it.depth+1)
						return
					}
					inv.take(base, loc, FromSitemap)
				}}
				sr.read(&file, resp.Body, tooLarge)
			}
			inv.sitemaps = append(inv.sitemaps, file)
			readable = readable || file.Kind != ""
		}
	}

	if inv.robots.State() == robots.Rules && inv.robotsResp != nil {
		base := finalURL(inv.robotsResp)
		for _, v := range inv.robots.AllSitemaps() {
			push(base, v, "", fetch.SitemapFromRobots, 0)
		}
		drain()
	}
	if !readable {
		for _, p := range []string{"/sitemap.xml", "/sitemap_index.xml"} {
			push(inv.origin, p, "", fetch.SitemapFromDefault, 0)
			drain()
			if readable {
				break
			}
		}
	}
	for _, l := range linkRel {
		push(home, l, "", fetch.SitemapFromLink, 0)
	}
	drain()
}

// sitemapOnSite reports a sitemap the crawl may read: on the site's host
// or its twin, or another host of the same registrable domain (a
// sitemaps. subdomain, a CDN name of the site's own). A sitemap on another
// site is not this site's.
func (inv *Inventory) sitemapOnSite(u *url.URL) bool {
	if inv.scope.own(&url.URL{Scheme: u.Scheme, Host: u.Host}) {
		return true
	}
	a, errA := publicsuffix.EffectiveTLDPlusOne(u.Hostname())
	b, errB := publicsuffix.EffectiveTLDPlusOne(inv.origin.Hostname())
	return errA == nil && errB == nil && a == b
}

// llmsLinkRE matches the targets of Markdown links.
var llmsLinkRE = regexp.MustCompile(`\]\(\s*<?([^()\s<>]+)>?(?:\s+"[^"]*")?\s*\)`)

// readLLMsTxt takes the links of /llms.txt (a Markdown file) that point
// into the site.
func (inv *Inventory) readLLMsTxt(ctx context.Context) {
	u := inv.at("/llms.txt")
	if !inv.allowed(u) {
		inv.skips.add(ReasonDisallowed, u)
		return
	}
	resp, _, err := inv.get(ctx, fetch.Request{Purpose: fetch.LLMsTxt, URL: u, Accept: "text/plain,text/markdown,*/*;q=0.5"})
	if err != nil || !resp.OK() || resp.IsHTML() {
		return
	}
	base := finalURL(resp)
	for _, m := range llmsLinkRE.FindAllSubmatch(resp.Body, inv.opts.MaxURLs) {
		inv.take(base, string(m[1]), FromLLMsTxt)
	}
}
