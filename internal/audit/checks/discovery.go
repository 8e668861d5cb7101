package checks

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The discovery pillar: how easily do crawlers find every important
// page? XML sitemaps, llms.txt, feeds and the homepage's internal links.
const pillarDiscovery = "discovery"

// discoveryChecks returns the pillar's checks in report order.
func discoveryChecks() []*Check {
	return []*Check{
		sitemapPresentCheck(),
		sitemapQualityCheck(),
		llmsTxtPresentCheck(),
		feedDiscoverableCheck(),
		internalLinkHubsCheck(),
	}
}

func sitemapPresentCheck() *Check {
	return &Check{
		ID: "sitemap_present", Ring: scoring.RingSearch, Pillar: pillarDiscovery, Weight: 5, Effort: Low,
		Marketing: Text{
			Title: "Sitemap is published",
			Why:   "A sitemap lists every page you want found, so AI search crawlers discover new and updated content sooner.",
			Fix:   "Turn on your CMS's XML sitemap (most SEO plugins have one) and add its address to robots.txt.",
		},
		Engineering: Text{
			Title: "XML sitemap valid and listed in robots.txt",
			Why:   "A `Sitemap:` record in robots.txt is how crawlers without a webmaster console (OpenAI, Anthropic, Perplexity) find the sitemap; it must be valid `urlset` or `sitemapindex` XML with at most 50,000 URLs and 50 MiB per file.",
			Fix:   "Publish /sitemap.xml (or a sitemap index), add `Sitemap: https://host/sitemap.xml` to robots.txt, split files above 50,000 URLs, and serve them with 200 and an XML content type.",
		},
		Eval: evalSitemapPresent,
	}
}

// sitemapLimitURLs and sitemapLimitBytes are the per-file limits of the
// sitemaps.org protocol.
const (
	sitemapLimitURLs  = 50000
	sitemapLimitBytes = 50 << 20
)

// sitemapFiles are the sitemap files a scan requested, each with where
// its location came from; a site built without that record gets it read
// from the responses, with no source.
func sitemapFiles(s *fetch.Site) []fetch.SitemapFetch {
	if len(s.SitemapFetches) > 0 {
		return s.SitemapFetches
	}
	var out []fetch.SitemapFetch
	for _, r := range s.Sitemaps {
		if r != nil {
			out = append(out, fetch.ReadSitemap(r, "", r.URL, ""))
		}
	}
	return out
}

// sitemapSourceText says where a location came from, to finish "found
// …": "in robots.txt", "at the default location".
var sitemapSourceText = map[fetch.SitemapSource]string{
	fetch.SitemapFromRobots:  "listed in robots.txt",
	fetch.SitemapFromDefault: "at a default location",
	fetch.SitemapFromLink:    "named by the homepage's <link rel=\"sitemap\">",
	fetch.SitemapFromIndex:   "named by a sitemap index",
}

// fileState says how a requested sitemap file ended: "not a sitemap" or
// how its fetch ended.
func fileState(f fetch.SitemapFetch) string {
	if f.Response.OK() {
		return "not a sitemap"
	}
	return statusText(f.Response)
}

func evalSitemapPresent(in *Input) Result {
	s := siteOf(in)
	var listed []string
	robotsState := ""
	if s.Robots != nil {
		f := robots.Parse(s.Robots)
		robotsState = string(f.State())
		if f.State() == robots.Rules {
			listed = f.AllSitemaps()
		}
	}
	files := sitemapFiles(s)
	var rows []map[string]any
	var readable, broken []fetch.SitemapFetch
	var oversized []string
	bySource := map[fetch.SitemapSource][]fetch.SitemapFetch{}
	urlsInFiles, indexes, indexEntries := 0, 0, 0
	for _, f := range files {
		r := f.Response
		rows = append(rows, map[string]any{
			"url": r.URL, "listed_as": f.Listed, "source": string(f.Source), "parent": f.Parent, "status": r.Status,
			"kind": f.Kind, "entries": f.Entries, "gzip": f.Gzip, "bytes": r.Bytes,
		})
		if f.Kind == "" {
			broken = append(broken, f)
			continue
		}
		readable = append(readable, f)
		bySource[f.Source] = append(bySource[f.Source], f)
		if f.Kind == "sitemapindex" {
			indexes++
			indexEntries += f.Entries
		} else {
			urlsInFiles += f.Entries
		}
		if (f.Kind != "sitemapindex" && f.Entries > sitemapLimitURLs) || r.Bytes > sitemapLimitBytes {
			oversized = append(oversized, fmt.Sprintf("%s (%d URLs, %d bytes)", r.URL, f.Entries, r.Bytes))
		}
	}
	var skipped []map[string]any
	var offSite []string
	for _, sk := range s.SitemapSkipped {
		skipped = append(skipped, map[string]any{"listed_as": sk.Listed, "url": sk.URL, "source": string(sk.Source), "reason": sk.Reason})
		if sk.Source == fetch.SitemapFromRobots && sk.Reason == "other_site" {
			offSite = append(offSite, sk.URL)
		}
	}
	e := ev("listed_in_robots", nonNil(listed), "robots_state", robotsState, "sitemaps", nonNilRows(rows), "skipped", nonNilRows(skipped),
		"default_locations_tried", nonNil(s.SitemapDefaultsTried), "link_rel_sitemaps_tried", nonNil(s.SitemapLinksTried),
		"total_urls", s.SitemapTotal, "urls_in_files", urlsInFiles)

	// states says how files ended and where their locations came from.
	states := func(fs []fetch.SitemapFetch) string {
		var out []string
		for _, f := range fs {
			where := ""
			if t := sitemapSourceText[f.Source]; t != "" {
				where = " (" + t + ")"
			}
			out = append(out, fmt.Sprintf("%s%s %s", f.Response.URL, where, fileState(f)))
		}
		return andList(out)
	}
	// tried says what was requested and how it ended, in the order
	// crawlers look: robots.txt's lines, the default locations, the
	// homepage's <link rel="sitemap">.
	tried := func() string {
		var parts []string
		switch {
		case s.Robots == nil || robotsState == "":
			parts = append(parts, "robots.txt was not read")
		case robotsState != string(robots.Rules):
			parts = append(parts, "robots.txt "+statusText(s.Robots)+", so it lists none")
		case len(listed) == 0:
			parts = append(parts, "robots.txt lists none")
		}
		if len(broken) > 0 {
			parts = append(parts, states(broken))
		}
		if len(offSite) > 0 {
			parts = append(parts, fmt.Sprintf("robots.txt lists %s on another site, which GeoScan does not read", andList(offSite)))
		}
		return strings.Join(parts, "; ")
	}
	switch {
	case len(files) == 0 && len(offSite) > 0:
		return warn(fmt.Sprintf("robots.txt lists %s on another site, which GeoScan does not read, so no sitemap could be checked.", andList(offSite)), e)
	case len(files) == 0:
		return na("No sitemap location was requested in this scan, so whether the site has one is unknown.", e)
	case len(readable) == 0 && len(offSite) > 0:
		// The protocol lets robots.txt list a sitemap on another host;
		// it is not read here, so the site may well have one.
		return warn(fmt.Sprintf("No sitemap on this site could be read, and the one robots.txt lists could not be checked: %s.", tried()), e)
	case len(readable) == 0:
		return fail(fmt.Sprintf("No readable sitemap was found: %s.", tried()), e)
	case len(oversized) > 0:
		return warn(fmt.Sprintf("A sitemap exceeds the protocol's limit of 50,000 URLs or 50 MiB: %s.", andList(oversized)), e)
	}
	first := readable[0]
	contents := func() string {
		var c []string
		if urlsInFiles > 0 || indexes == 0 {
			c = append(c, plural(urlsInFiles, "URL", "URLs"))
		}
		if indexes > 0 {
			c = append(c, fmt.Sprintf("%s naming %s", plural(indexes, "sitemap index", "sitemap indexes"), plural(indexEntries, "sitemap", "sitemaps")))
		}
		return andList(c)
	}
	fromRobots := len(bySource[fetch.SitemapFromRobots]) > 0
	if !fromRobots && first.Source != "" && len(offSite) == 0 {
		// Found only where crawlers have to guess or look twice.
		where := "at " + first.Response.URL
		missed := "robots.txt does not list it, so crawlers that do not guess the path miss it"
		if first.Source == fetch.SitemapFromLink {
			where = "only through the homepage's <link rel=\"sitemap\"> at " + first.Response.URL
			missed = "robots.txt does not list it and few crawlers follow such a link"
		}
		var listedBroken []fetch.SitemapFetch
		for _, f := range broken {
			if f.Source == fetch.SitemapFromRobots {
				listedBroken = append(listedBroken, f)
			}
		}
		if len(listedBroken) > 0 {
			missed = "robots.txt lists only sitemaps that could not be read: " + states(listedBroken)
		}
		return warn(fmt.Sprintf("A sitemap with %s was found %s, but %s.", plural(first.Entries, "entry", "entries"), where, missed), e)
	}
	// Default locations tried before one was found, or after robots.txt
	// led nowhere, are guesses, not broken files of the site.
	var brokenFiles []fetch.SitemapFetch
	for _, f := range broken {
		if f.Source != fetch.SitemapFromDefault {
			brokenFiles = append(brokenFiles, f)
		}
	}
	if len(brokenFiles) > 0 {
		return warn(fmt.Sprintf("%s could not be read: %s.", ofTotal(len(brokenFiles), len(files), "sitemap file", "sitemap files"), states(brokenFiles)), e)
	}
	if !fromRobots && len(offSite) > 0 {
		return pass(fmt.Sprintf("robots.txt lists %s on another site, which was not read; %s read at the default location, with %s.",
			andList(offSite), plural(len(readable), "valid file was", "valid files were"), contents()), e)
	}
	if first.Source == "" {
		return pass(fmt.Sprintf("%s read, with %s.", plural(len(readable), "valid sitemap file was", "valid sitemap files were"), contents()), e)
	}
	return pass(fmt.Sprintf("robots.txt lists %s; %s read, with %s.", plural(len(listed), "sitemap", "sitemaps"),
		plural(len(readable), "valid file was", "valid files were"), contents()), e)
}

func sitemapQualityCheck() *Check {
	return &Check{
		ID: "sitemap_quality", Ring: scoring.RingSearch, Pillar: pillarDiscovery, Weight: 3, Effort: Medium,
		Marketing: Text{
			Title: "Sitemap is accurate and up to date",
			Why:   "A sitemap full of broken, redirected or undated addresses teaches crawlers to ignore it, while real update dates help AI engines pick up your latest content.",
			Fix:   "Make sure the sitemap lists only live pages at their final addresses, with last-updated dates that change when the content changes.",
		},
		Engineering: Text{
			Title: "Sitemap URLs live, same host, real lastmod",
			Why:   "Sampled URLs should return 200 without redirects and sit on the sitemap's host; Google and Bing use `<lastmod>` only when it is consistently accurate, and Bing stresses it for freshness in AI answers.",
			Fix:   "Generate the sitemap from published canonical URLs only; drop redirected and 404 entries; emit `<lastmod>` as a W3C datetime taken from the content's real modification time, not the build time.",
		},
		Eval: evalSitemapQuality,
	}
}

// sitemapFreshDays is how recent the newest lastmod should be.
const sitemapFreshDays = 90

var lastmodLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02", "2006-01", "2006"}

func parseLastmod(v string) (time.Time, bool) {
	for _, l := range lastmodLayouts {
		if t, err := time.Parse(l, strings.TrimSpace(v)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func evalSitemapQuality(in *Input) Result {
	s := siteOf(in)
	now := nowOf(in)
	// Entries without a <loc> are unusable to crawlers and say nothing
	// about the listed pages.
	var urls []fetch.SitemapURL
	for _, u := range s.SitemapURLs {
		if strings.TrimSpace(u.Loc) != "" {
			urls = append(urls, u)
		}
	}
	// The files the URLs were read from, and where their locations came
	// from.
	var from []string
	for _, f := range sitemapFiles(s) {
		if f.Kind == "urlset" || f.Kind == "text" {
			src := ""
			if t := sitemapSourceText[f.Source]; t != "" {
				src = " (" + t + ")"
			}
			from = append(from, f.Response.URL+src)
		}
	}
	if len(urls) == 0 {
		return na("No sitemap URLs were read (the check for a published sitemap says what was looked for), so their quality cannot be judged.",
			ev("total_urls", s.SitemapTotal, "entries_without_loc", len(s.SitemapURLs), "read_from", nonNil(from)))
	}
	host := siteHost(in)
	sameHost, withLastmod, future := 0, 0, 0
	distinct := map[string]bool{}
	var newest time.Time
	var offHost []string
	for _, u := range urls {
		if host == "" || hostKey(u.Loc) == host {
			sameHost++
		} else if len(offHost) < 5 {
			offHost = append(offHost, u.Loc)
		}
		if u.LastMod == "" {
			continue
		}
		t, ok := parseLastmod(u.LastMod)
		if !ok {
			continue
		}
		if t.After(now.Add(24 * time.Hour)) {
			// A date in the future is a generator bug, not freshness.
			future++
			continue
		}
		withLastmod++
		distinct[u.LastMod] = true
		if t.After(newest) {
			newest = t
		}
	}
	checked, ok := 0, 0
	var samples []map[string]any
	for _, r := range s.SitemapSamples {
		if r == nil {
			continue
		}
		row := map[string]any{"url": r.URL, "status": r.Status, "redirected": len(r.Redirects) > 0, "final_url": r.FinalURL}
		samples = append(samples, row)
		// Servers that refuse HEAD say nothing about the URL itself.
		if r.Err != nil || r.Status == http.StatusMethodNotAllowed || r.Status == http.StatusNotImplemented {
			continue
		}
		checked++
		if r.Status == http.StatusOK && len(r.Redirects) == 0 {
			ok++
		}
	}
	n := len(urls)
	hostPct, lastmodPct, samplePct := percent(sameHost, n), percent(withLastmod, n), percent(ok, checked)
	e := ev("urls_checked", n, "total_urls", s.SitemapTotal, "read_from", nonNil(from), "same_host_pct", hostPct, "off_host", nonNil(offHost),
		"lastmod_pct", lastmodPct, "distinct_lastmod", len(distinct), "future_lastmod", future,
		"samples", nonNilRows(samples), "sampled", checked, "sample_ok", ok)
	var problems []string
	failing := false
	if checked > 0 {
		e["sample_ok_pct"] = samplePct
		if samplePct < 90 {
			problems = append(problems, fmt.Sprintf("%s answered 200 without a redirect", fewOf(ok, checked, "sampled URL", "sampled URLs")))
			failing = failing || samplePct < 70
		}
	}
	if hostPct < 100 {
		problems = append(problems, fmt.Sprintf("%.0f%% of URLs are on %s", hostPct, host))
		failing = failing || hostPct < 70
	}
	if !newest.IsZero() {
		age := int(now.Sub(newest).Hours() / 24)
		e["newest_lastmod"] = newest.Format("2006-01-02")
		e["newest_age_days"] = age
		if age > sitemapFreshDays {
			problems = append(problems, fmt.Sprintf("the newest lastmod (%s) is %d days old", newest.Format("2006-01-02"), age))
		}
	}
	switch {
	case withLastmod == 0:
		problems = append(problems, "no URL has a usable lastmod")
	case lastmodPct < 50:
		problems = append(problems, fmt.Sprintf("only %.0f%% of URLs have a lastmod", lastmodPct))
	case withLastmod >= 5 && len(distinct) == 1:
		problems = append(problems, "every lastmod is the same value, which looks like a build timestamp")
	}
	if future > 0 {
		problems = append(problems, plural(future, "lastmod lies", "lastmods lie")+" in the future")
	}
	switch {
	case failing:
		return fail("The sitemap is unreliable: "+strings.Join(problems, "; ")+".", e)
	case len(problems) > 0:
		return warn("The sitemap has quality gaps: "+strings.Join(problems, "; ")+".", e)
	}
	msg := fmt.Sprintf("%s on %s, %.0f%% carry a lastmod (newest %s)", capFirst(allOf(n, "sitemap URL read is", "sitemap URLs read are")), host, lastmodPct, newest.Format("2006-01-02"))
	if checked > 0 {
		msg += fmt.Sprintf(", and %s answered 200 directly", ofTotal(ok, checked, "sampled URL", "sampled URLs"))
	}
	return pass(msg+".", e)
}

func llmsTxtPresentCheck() *Check {
	return &Check{
		ID: "llms_txt_present", Ring: scoring.RingSearch, Pillar: pillarDiscovery, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "llms.txt guide for AI (optional)",
			Why:   "llms.txt is a proposed short guide to your site written for AI tools. No major AI search engine has committed to reading it, so it counts for little, but it is cheap to add.",
			Fix:   "Publish a short llms.txt with your company name, a one-line summary and links to your most important pages.",
		},
		Engineering: Text{
			Title: "/llms.txt served as text",
			Why:   "llmstxt.org proposes a Markdown file at /llms.txt (H1, blockquote, H2 link lists); Google says AI features need no special files, hence the low weight, but a 5xx or an HTML catch-all at that path is a server fault.",
			Fix:   "Serve /llms.txt as `text/plain` or `text/markdown` with 200: `# Name`, `> summary`, then `## Section` lists of `- [Title](https://…): note`; exclude the path from the SPA fallback route.",
		},
		Eval: evalLLMsTxtPresent,
	}
}

func evalLLMsTxtPresent(in *Input) Result {
	s := siteOf(in)
	r := s.LLMsTxt
	if r == nil {
		return na("/llms.txt was not fetched in this scan.", ev())
	}
	e := ev("url", r.URL, "final_url", r.FinalURL, "status", r.Status, "bytes", r.Bytes, "content_type", r.ContentType())
	if f := s.LLMsFullTxt; f != nil {
		e["llms_full_txt_status"] = f.Status
	}
	switch {
	case r.Err != nil:
		e["error"] = r.ErrorText()
		return warn("/llms.txt could not be fetched ("+r.ErrorText()+").", e)
	case r.Status >= 500:
		return fail(fmt.Sprintf("/llms.txt answered HTTP %d, a server error.", r.Status), e)
	case r.Status >= 400:
		return warn(fmt.Sprintf("/llms.txt answered HTTP %d; the site publishes no llms.txt (an optional proposal).", r.Status), e)
	case r.Status < 200 || r.Status >= 300:
		return warn(fmt.Sprintf("/llms.txt answered HTTP %d.", r.Status), e)
	case r.IsHTML() || looksLikeHTMLDoc(r.Body):
		return warn("/llms.txt returns an HTML page (probably a catch-all route), not a text file.", e)
	case len(strings.TrimSpace(string(r.Body))) == 0:
		return warn("/llms.txt answered HTTP 200 but is empty.", e)
	}
	ct := r.ContentType()
	if ct == "" {
		ct = "no content type"
	}
	return pass(fmt.Sprintf("/llms.txt answered HTTP %d with %d bytes of text (%s).", r.Status, r.Bytes, ct), e)
}

func looksLikeHTMLDoc(b []byte) bool {
	head := strings.ToLower(strings.TrimSpace(string(b[:min(len(b), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

func feedDiscoverableCheck() *Check {
	return &Check{
		ID: "feed_discoverable", Ring: scoring.RingSearch, Pillar: pillarDiscovery, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "News or blog feed is available",
			Why:   "An RSS or Atom feed announces new articles the moment they go live, which helps AI engines and aggregators keep up with your latest content.",
			Fix:   "Enable your blog's RSS feed (usually one setting in the CMS) and make sure your pages advertise it.",
		},
		Engineering: Text{
			Title: "RSS/Atom advertised via rel=alternate",
			Why:   "`<link rel=\"alternate\" type=\"application/rss+xml\">` (or Atom, JSON Feed) lets crawlers poll for new URLs cheaply; search engines recommend feeds alongside sitemaps for discovering fresh content.",
			Fix:   "Add `<link rel=\"alternate\" type=\"application/rss+xml\" title=\"…\" href=\"https://host/feed.xml\">` to the `<head>` of the homepage and blog pages, pointing at a valid feed of recent posts.",
		},
		Eval: evalFeedDiscoverable,
	}
}

var feedTypes = map[string]bool{"application/rss+xml": true, "application/atom+xml": true, "application/feed+json": true}

// blogPathRE recognises paths of a blog or news section.
var blogPathRE = regexp.MustCompile(`(?i)(^|/)(blog|blogs|news|articles?|posts?|insights|journal|stories|magazine|updates|press)(/|$)`)

func evalFeedDiscoverable(in *Input) Result {
	home := in.Home
	if home == nil {
		return na("The homepage is not HTML, so no feed link could be read.", ev())
	}
	pages := everyPage(in)
	var feeds []string
	seen := map[string]bool{}
	for _, p := range pages {
		for _, a := range p.Alternates {
			if feedTypes[strings.TrimSpace(a.Type)] && a.Href != "" && !seen[a.Href] {
				seen[a.Href] = true
				feeds = append(feeds, a.Href)
			}
		}
	}
	var blog []string
	for _, r := range siteOf(in).PagesFor(fetch.Article) {
		if r != nil && r.OK() && len(blog) < 3 {
			blog = append(blog, r.FinalURL)
		}
	}
	for _, l := range home.InternalLinks() {
		if len(blog) >= 5 {
			break
		}
		if u, err := url.Parse(l); err == nil && blogPathRE.MatchString(u.Path) {
			blog = append(blog, l)
		}
	}
	e := ev("feeds", nonNil(feeds), "blog_signals", nonNil(blog))
	switch {
	case len(feeds) > 0:
		return pass(fmt.Sprintf("The site advertises %s via <link rel=alternate>: %s.", plural(len(feeds), "feed", "feeds"), andList(feeds)), e)
	case len(blog) > 0:
		return warn(fmt.Sprintf("The site has a blog or news section (%s) but advertises no RSS, Atom or JSON feed.", blog[0]), e)
	}
	return na("No blog or news section was found and no feed is advertised, so the check does not apply.", e)
}

func internalLinkHubsCheck() *Check {
	return &Check{
		ID: "internal_link_hubs", Ring: scoring.RingSearch, Pillar: pillarDiscovery, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Homepage links to key pages",
			Why:   "AI crawlers start at your homepage. Clear links to your about, contact, product or service, and blog pages help them find and understand the pages that matter.",
			Fix:   "Make sure the homepage menu or footer links to About, Contact, your products or services, and your blog or resources.",
		},
		Engineering: Text{
			Title: "Static links to hub pages",
			Why:   "Crawlers that run no JavaScript discover URLs only from links in the server HTML; the homepage should link to the about, contact, offer and content hubs and to at least 10 distinct internal URLs.",
			Fix:   "Render primary navigation and footer links as `<a href>` in the server response, including /about, /contact, the product or service hub and the blog or resources index.",
		},
		Eval: evalInternalLinkHubs,
	}
}

// linkHubs are the hub pages a homepage should link to, recognised by
// path segment or link text: about and contact pages by fetch's
// multilingual vocabulary of page roles, the others by these words.
var linkHubs = []struct {
	name string
	role fetch.Purpose
	re   *regexp.Regexp
}{
	{"about", fetch.About, nil},
	{"contact", fetch.Contact, nil},
	{"offer", "", regexp.MustCompile(
		`(?i)\b(products?|services?|solutions?|pricing|prices|plans|shop|store|features?|catalog|catalogue|menu|collections?|angebote?|produkte|leistungen|sortiment|boutique|tienda|productos|servicios|prodotti|servizi|produits)\b`)}, //nolint:misspell // Spanish and Italian words
	// Categories, topics and archives are the content hubs of blogs and
	// wikis alike.
	{"content", "", regexp.MustCompile(`(?i)\b(blog|news|articles?|insights|resources|guides?|learn|journal|posts?|docs|documentation|categor(?:y|ies)|topics?|archives?|magazine|stories|ratgeber|aktuelles)\b`)},
}

// hubWords names a hub and what its address or link text says.
var hubWords = map[string]string{
	"about": "an about page (about, company, team…)", "contact": "a contact page (contact, get in touch…)",
	"offer": "an offer hub (products, services, pricing, shop…)", "content": "a content hub (blog, news, guides, categories…)",
}

// minHubLinks is the number of distinct internal links a homepage should
// offer crawlers.
const minHubLinks = 10

func evalInternalLinkHubs(in *Input) Result {
	p := in.Home
	if p == nil {
		return na("The homepage is not HTML, so its links could not be read.", ev())
	}
	self := normURL(addressOf(p))
	var internal []string
	for _, l := range p.InternalLinks() {
		if normURL(l) != self {
			internal = append(internal, l)
		}
	}
	found := map[string]any{}
	var names, missing []string
	for _, hub := range linkHubs {
		for _, l := range p.Links {
			if !l.Internal || l.Href == "" {
				continue
			}
			path := ""
			if u, err := url.Parse(l.Href); err == nil {
				// Wikis write spaces in page names as underscores.
				path = strings.NewReplacer("/", " ", "_", " ").Replace(u.Path)
			}
			if hub.re == nil && fetch.LinkRole(l.Href, l.Text) == hub.role ||
				hub.re != nil && (hub.re.MatchString(path) || hub.re.MatchString(l.Text)) {
				found[hub.name] = l.Href
				break
			}
		}
		if _, ok := found[hub.name]; ok {
			names = append(names, hub.name)
		} else {
			missing = append(missing, hub.name)
		}
	}
	e := ev("internal_links", len(internal), "hubs", found, "missing", nonNil(missing))
	switch {
	case len(names) == 0:
		return fail(fmt.Sprintf("The homepage HTML links to %s and to none of the about, contact, offer or content hubs.",
			plural(len(internal), "internal URL", "internal URLs")), e)
	case len(internal) < 3:
		return fail(fmt.Sprintf("The homepage HTML links to only %s (the %s %s), too few for crawlers to discover the site.",
			plural(len(internal), "internal URL", "internal URLs"), andList(names), map[bool]string{true: "hub", false: "hubs"}[len(names) == 1]), e)
	case len(internal) >= minHubLinks && len(names) >= 3:
		msg := fmt.Sprintf("The homepage HTML links to %d internal URLs, including the %s hubs", len(internal), andList(names))
		if len(missing) > 0 {
			msg += "; no " + andList(missing) + " hub was found"
		}
		return pass(msg+".", e)
	}
	msg := fmt.Sprintf("The homepage HTML links to %s", plural(len(internal), "internal URL", "internal URLs"))
	if len(internal) < minHubLinks {
		msg += fmt.Sprintf(" (fewer than %d)", minHubLinks)
	}
	msg += " with the " + andList(names) + " " + map[bool]string{true: "hub", false: "hubs"}[len(names) == 1]
	if len(missing) > 0 {
		var hubs []string
		for _, m := range missing {
			hubs = append(hubs, hubWords[m])
		}
		msg += " but no link whose address or text names " + strings.Join(hubs, " or ")
	}
	return warn(msg+".", e)
}
