package crawl

import (
	"iter"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

// Source says where a URL of the inventory was found; a URL found in
// several places has several.
type Source uint8

// The sources of URLs.
const (
	FromHome      Source = 1 << iota // the target, or where it redirected
	FromSitemap                      // a <loc> of a sitemap
	FromLLMsTxt                      // a link of llms.txt
	FromLink                         // an <a href> of a fetched page
	FromCanonical                    // the rel=canonical of a fetched page
	FromRedirect                     // where a fetched page redirected
)

var sourceNames = []struct {
	s    Source
	name string
}{
	{FromHome, "homepage"},
	{FromSitemap, "sitemap"},
	{FromLLMsTxt, "llms_txt"},
	{FromLink, "link"},
	{FromCanonical, "canonical"},
	{FromRedirect, "redirect"},
}

// Names lists the sources, in a fixed order.
func (s Source) Names() []string {
	var out []string
	for _, n := range sourceNames {
		if s&n.s != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

func (s Source) String() string { return strings.Join(s.Names(), "+") }

// State is what became of a URL of the inventory.
type State uint8

// The states of a URL.
const (
	Known      State = iota // found, not requested
	Queued                  // picked for the sample, being requested
	Fetched                 // requested; the site answered (any status)
	Redirected              // requested; it redirected (its target is an entry too)
	Failed                  // requested; no answer, or retries ran out
	Merged                  // the same page as another entry (rel=canonical)
	Disallowed              // robots.txt disallows it for GeoScan
)

var stateNames = [...]string{"known", "queued", "fetched", "redirected", "failed", "merged", "disallowed"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// Reason says why something found was not taken or not requested.
type Reason string

// The reasons, as a report prints them.
const (
	ReasonOtherSite        Reason = "other_site"         // a URL on another host
	ReasonOffsiteRedirect  Reason = "offsite_redirect"   // a page redirected to another host; not followed
	ReasonNotAURL          Reason = "not_a_url"          // not an absolute http(s) URL
	ReasonNotAPage         Reason = "not_a_page"         // an image, script, document or archive
	ReasonTooLong          Reason = "too_long"           // a URL over 2 KiB
	ReasonTooDeep          Reason = "too_deep"           // more path segments than MaxPathDepth
	ReasonRepeated         Reason = "repeated_segments"  // a path segment three times (a relative-link trap)
	ReasonInventoryCap     Reason = "inventory_cap"      // found after the inventory held MaxURLs
	ReasonTemplateFull     Reason = "template_full"      // found after its template held MaxTemplateURLs
	ReasonLinkCap          Reason = "links_per_page"     // links of one page past MaxLinksPerPage
	ReasonNoFollow         Reason = "nofollow"           // a page whose robots meta or header says nofollow
	ReasonDisallowed       Reason = "disallowed"         // robots.txt disallows it for GeoScan
	ReasonGaveUp           Reason = "retries_exhausted"  // still 429/503 after MaxTries
	ReasonRedirectLimit    Reason = "redirect_limit"     // the homepage redirected too often
	ReasonUnfinished       Reason = "unfinished"         // in flight when the crawl stopped
	ReasonSitemapOtherSite Reason = "sitemap_other_site" // a sitemap on another site
	ReasonSitemapFiles     Reason = "sitemap_file_limit" // a sitemap past MaxSitemapFiles
	ReasonSitemapDepth     Reason = "sitemap_depth"      // a sitemap nested deeper than MaxSitemapDepth
)

// maxExamples is how many URLs a tally keeps per reason.
const maxExamples = 5

// Skip counts what was left out for one reason, with a few examples.
type Skip struct {
	Reason   Reason   `json:"reason"`
	Count    int      `json:"count"`
	Examples []string `json:"examples,omitempty"`
}

// tally counts skips; safe for concurrent use.
type tally struct {
	mu sync.Mutex
	by map[Reason]*Skip
}

func (t *tally) add(r Reason, example string) {
	t.addN(r, 1, example)
}

func (t *tally) addN(r Reason, n int, example string) {
	if n <= 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.by == nil {
		t.by = map[Reason]*Skip{}
	}
	s := t.by[r]
	if s == nil {
		s = &Skip{Reason: r}
		t.by[r] = s
	}
	s.Count += n
	if example != "" && len(s.Examples) < maxExamples {
		s.Examples = append(s.Examples, example)
	}
}

// count is how many were left out for reason r.
func (t *tally) count(r Reason) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s := t.by[r]; s != nil {
		return s.Count
	}
	return 0
}

// list returns the skips sorted by reason.
func (t *tally) list() []Skip {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]Skip, 0, len(t.by))
	for _, s := range t.by {
		c := *s
		c.Examples = append([]string(nil), s.Examples...)
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Reason < out[j].Reason })
	return out
}

// entry is one URL: all the crawl keeps of it.
type entry struct {
	url     string
	group   int32
	sources Source
	state   State
}

// group is the URLs of one template, in the order they were found.
type group struct {
	template string
	family   int32
	urls     []int32
	cursor   int // urls before it were picked or passed over
	taken    int // picked for the sample
	fetched  int // requested and answered
	copies   int // of those, pages whose rel=canonical names another URL
}

// family is the templates of one path template: /c/{slug}, /c/{slug}?color
// and /c/{slug}?color&size. They share one turn of the round-robin, so
// the query variants of a listing (filters, sorts, pages) cannot outvote
// the site's other templates.
type family struct {
	groups []int32
	taken  int
}

// copyProbe is how many pages of a template are requested before a
// template whose pages all name another URL as canonical is sampled no
// further: its pages say they are copies.
const copyProbe = 3

// Entry is one URL of the inventory as reported.
type Entry struct {
	URL      string `json:"url"`
	Template string `json:"template"`
	Sources  Source `json:"sources"`
	State    State  `json:"state"`
}

// Inventory is a site's URLs as a crawl knows them: each canonical URL
// once, with its template, where it was found and what became of it. It
// also carries what the crawl read to find them (robots.txt, sitemaps),
// its pacing, and the homepage as fetched until Run hands it to the
// visitor. Discover builds it; Run samples it and adds what fetched pages
// link to. An Inventory is crawled once, by one Run; read it (Lookup,
// All, …) before or after that Run, not during it.
type Inventory struct {
	f    *fetch.Fetcher
	opts Options
	host *host
	// inFlight holds a token per request in flight (PerHost of them).
	inFlight chan struct{}
	scope    scope
	origin   *url.URL
	started  time.Time
	// deadline is where MaxDuration ends; zero without one.
	deadline time.Time

	robotsResp *fetch.Response
	robots     *robots.File
	delay      time.Duration

	entries  []entry
	index    map[string]int32
	groups   []*group
	byTmpl   map[string]int32
	families []*family
	byPath   map[string]int32
	priority []int32 // redirect targets, picked before the round-robin
	overflow int     // URLs past MaxURLs or MaxTemplateURLs (not deduplicated)

	sitemaps []SitemapFile
	skips    tally

	// home is the homepage response waiting to be visited.
	home *homePage

	mu         sync.Mutex // guards the fields below during Run
	requests   int
	bytes      int64
	retries    int
	stop       Stop // set once a reason to stop is known
	stopDetail string
}

// Site is the origin the crawl stays on: the target's scheme and host, or
// its www/apex twin when the target redirected there.
func (inv *Inventory) Site() *url.URL {
	u := *inv.origin
	return &u
}

// Known is the number of distinct pages known: URLs kept, less those
// merged into another by rel=canonical.
func (inv *Inventory) Known() int {
	n := 0
	for i := range inv.entries {
		if inv.entries[i].state != Merged {
			n++
		}
	}
	return n
}

// Overflow is the number of URLs found past the inventory's caps; they
// are counted, not kept, so duplicates among them count again.
func (inv *Inventory) Overflow() int { return inv.overflow }

// Robots is robots.txt as read for the site (nil before Discover read it).
func (inv *Inventory) Robots() *robots.File { return inv.robots }

// CrawlDelay is the robots.txt Crawl-delay obeyed (0 for none).
func (inv *Inventory) CrawlDelay() time.Duration { return inv.delay }

// Sitemaps lists the sitemap files requested, in order.
func (inv *Inventory) Sitemaps() []SitemapFile { return append([]SitemapFile(nil), inv.sitemaps...) }

// Skipped lists what was left out, by reason.
func (inv *Inventory) Skipped() []Skip { return inv.skips.list() }

// Lookup finds a URL (canonicalized first).
func (inv *Inventory) Lookup(raw string) (Entry, bool) {
	u, err := Canonicalize(nil, raw)
	if err != nil || !inv.scope.own(u) {
		return Entry{}, false
	}
	i, ok := inv.index[u.String()]
	if !ok {
		return Entry{}, false
	}
	return inv.entry(i), true
}

// All yields every URL kept, in the order found.
func (inv *Inventory) All() iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		for i := range inv.entries {
			if !yield(inv.entry(int32(i))) {
				return
			}
		}
	}
}

func (inv *Inventory) entry(i int32) Entry {
	e := inv.entries[i]
	return Entry{URL: e.url, Template: inv.groups[e.group].template, Sources: e.sources, State: e.state}
}

// BySource counts the URLs kept per source (a URL found in two places
// counts for both).
func (inv *Inventory) BySource() map[string]int {
	out := map[string]int{}
	for i := range inv.entries {
		for _, n := range inv.entries[i].sources.Names() {
			out[n]++
		}
	}
	return out
}

// take resolves raw against base and adds it when it is a page of the
// site, or tallies why not.
func (inv *Inventory) take(base *url.URL, raw string, src Source) {
	u, reason := inv.accept(base, raw)
	if reason != "" {
		inv.skips.add(reason, clipURL(raw))
		return
	}
	inv.add(u, src)
}

// accept canonicalizes raw and checks it belongs in the inventory.
func (inv *Inventory) accept(base *url.URL, raw string) (*url.URL, Reason) {
	u, err := Canonicalize(base, raw)
	if err != nil {
		return nil, ReasonNotAURL
	}
	if !inv.scope.own(u) {
		return nil, ReasonOtherSite
	}
	if r := refusal(u, inv.opts.MaxPathDepth); r != "" {
		return nil, r
	}
	return u, ""
}

// add keeps a canonical URL of the site, or adds src to the entry that
// has it.
func (inv *Inventory) add(u *url.URL, src Source) int32 {
	key := u.String()
	if i, ok := inv.index[key]; ok {
		inv.entries[i].sources |= src
		return i
	}
	if len(inv.entries) >= inv.opts.MaxURLs {
		inv.overflow++
		inv.skips.add(ReasonInventoryCap, key)
		return -1
	}
	tmpl := Template(u)
	gi, ok := inv.byTmpl[tmpl]
	if !ok {
		path, _, _ := strings.Cut(tmpl, "?")
		fi, ok := inv.byPath[path]
		if !ok {
			fi = int32(len(inv.families))
			inv.families = append(inv.families, &family{})
			inv.byPath[path] = fi
		}
		gi = int32(len(inv.groups))
		inv.groups = append(inv.groups, &group{template: tmpl, family: fi})
		inv.byTmpl[tmpl] = gi
		inv.families[fi].groups = append(inv.families[fi].groups, gi)
	}
	g := inv.groups[gi]
	if len(g.urls) >= inv.opts.MaxTemplateURLs {
		inv.overflow++
		inv.skips.add(ReasonTemplateFull, key)
		return -1
	}
	i := int32(len(inv.entries))
	inv.entries = append(inv.entries, entry{url: key, group: gi, sources: src})
	inv.index[key] = i
	g.urls = append(g.urls, i)
	return i
}

// pick chooses up to n URLs to request next: redirect targets first,
// then round-robin over the path templates — each round takes one URL
// from every path template that has had the fewest taken so far, in the
// order they were found; within a path template, from its query variant
// with the fewest taken, and within that in the order its URLs were
// found. The same inventory gives the same picks. A URL robots.txt
// disallows is marked so and passed over, never requested.
func (inv *Inventory) pick(n int) []int32 {
	var out []int32
	for len(inv.priority) > 0 && len(out) < n {
		i := inv.priority[0]
		inv.priority = inv.priority[1:]
		if inv.open(inv.groups[inv.entries[i].group]) && inv.eligible(i) {
			inv.takeEntry(i, 1)
			out = append(out, i)
		}
	}
	for len(out) < n {
		least := -1
		for _, f := range inv.families {
			if inv.familyOpen(f) && (least < 0 || f.taken < least) {
				least = f.taken
			}
		}
		if least < 0 {
			break
		}
		for _, f := range inv.families {
			if len(out) == n {
				break
			}
			if f.taken != least {
				continue
			}
			if i, ok := inv.pickIn(f); ok {
				out = append(out, i)
			}
		}
	}
	return out
}

// pickIn takes the next URL of a family, from its open template with the
// fewest taken.
func (inv *Inventory) pickIn(f *family) (int32, bool) {
	for {
		var best *group
		for _, gi := range f.groups {
			if g := inv.groups[gi]; inv.open(g) && (best == nil || g.taken < best.taken) {
				best = g
			}
		}
		if best == nil {
			return 0, false
		}
		for best.cursor < len(best.urls) {
			i := best.urls[best.cursor]
			best.cursor++
			if inv.eligible(i) {
				inv.takeEntry(i, 1)
				return i, true
			}
		}
	}
}

// open reports a template that may give another page: URLs left, under
// MaxTemplatePages, and not found to be copies of other pages.
func (inv *Inventory) open(g *group) bool {
	return g.cursor < len(g.urls) && g.taken < inv.opts.MaxTemplatePages && !g.copied()
}

// copied reports a template whose first pages all named another URL as
// their canonical.
func (g *group) copied() bool {
	return g.copies >= copyProbe && g.copies == g.fetched
}

func (inv *Inventory) familyOpen(f *family) bool {
	for _, gi := range f.groups {
		if inv.open(inv.groups[gi]) {
			return true
		}
	}
	return false
}

// takeEntry counts entry i as picked (by +1) or as not picked after all
// (-1, a request the crawl's stop cut short).
func (inv *Inventory) takeEntry(i int32, by int) {
	if by > 0 {
		inv.entries[i].state = Queued
	}
	g := inv.groups[inv.entries[i].group]
	g.taken += by
	inv.families[g.family].taken += by
}

// eligible reports a URL that may be requested now: known, not merged,
// allowed by robots.txt (a disallowed one is marked so).
func (inv *Inventory) eligible(i int32) bool {
	e := &inv.entries[i]
	if e.state != Known {
		return false
	}
	if !inv.allowed(e.url) {
		e.state = Disallowed
		inv.skips.add(ReasonDisallowed, e.url)
		return false
	}
	return true
}

// allowed asks robots.txt whether GeoScan may request u.
func (inv *Inventory) allowed(u string) bool {
	if inv.robots == nil {
		return false
	}
	return inv.robots.Allowed(Token, u).Allowed
}

// remaining reports whether a URL could still be picked, ignoring the
// page budget: the difference between a crawl that ran out of budget and
// one that ran out of site.
func (inv *Inventory) remaining() bool {
	for _, i := range inv.priority {
		if inv.entries[i].state == Known {
			return true
		}
	}
	for _, g := range inv.groups {
		if g.taken >= inv.opts.MaxTemplatePages || g.copied() {
			continue
		}
		for _, i := range g.urls[g.cursor:] {
			if inv.entries[i].state == Known {
				return true
			}
		}
	}
	return false
}

// clipURL shortens a URL kept as an example.
func clipURL(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
