package checks

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/text/language"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The indexability pillar: can the pages be kept in the indexes AI
// answers are built from, and quoted? Status codes, redirects, robots
// meta and X-Robots-Tag, snippet controls, canonical and hreflang.
const pillarIndexability = "indexability"

// indexabilityChecks returns the pillar's checks in report order.
func indexabilityChecks() []*Check {
	return []*Check{
		homepageHTTPOKCheck(),
		httpsRedirectCheck(),
		metaRobotsIndexableCheck(),
		snippetControlsCheck(),
		canonicalValidCheck(),
		hreflangValidCheck(),
		soft404Check(),
		crawlableAnchorsCheck(),
	}
}

func homepageHTTPOKCheck() *Check {
	return &Check{
		ID: "homepage_http_ok", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 10, Effort: Medium,
		Marketing: Text{
			Title: "Homepage loads successfully",
			Why:   "If your homepage does not load, or loads only through a long chain of redirects, AI engines cannot reliably read or cite anything on the site.",
			Fix:   "Make sure your main web address opens the homepage directly, or through at most one permanent redirect, without errors.",
		},
		Engineering: Text{
			Title: "Homepage returns 200 within 2 hops",
			Why:   "Crawlers follow a limited number of redirects and treat 302/307 hops as temporary, keeping the source URL; a 4xx/5xx final status drops the page from the indexes AI answers are grounded on.",
			Fix:   "Serve the homepage with 200 at its canonical URL; collapse redirect chains into one 301/308 (http→https and apex→www in a single hop); use 301/308 instead of 302/307 for permanent moves.",
		},
		Eval: evalHomepageHTTPOK,
	}
}

func evalHomepageHTTPOK(in *Input) Result {
	s := siteOf(in)
	h := s.Home
	if h == nil {
		return na("The homepage was not fetched.", ev())
	}
	hops := len(h.Redirects)
	e := ev("url", h.URL, "final_url", h.FinalURL, "status", h.Status, "hops", hops, "chain", chainRows(h.Redirects),
		"access", accessRows(s), "audited_as", s.AuditedAs)
	if fetchFailed(h) {
		e["error"] = h.ErrorText()
		return fail("The homepage could not be fetched: "+h.ErrorText()+".", e)
	}
	after := ""
	if hops > 0 {
		after = " after " + plural(hops, "redirect", "redirects")
	}
	if why := refusalText(h); why != "" && s.AuditorRefused() {
		// GeoScan was refused and so was the browser retry: who else was?
		var servedBots, refusedBots []string
		for _, b := range s.Bots {
			if b.Bot.Role == "browser" || b.Response == nil {
				continue
			}
			if served(b.Response) {
				servedBots = append(servedBots, b.Bot.Token)
			} else if refusalText(b.Response) != "" {
				refusedBots = append(refusedBots, b.Bot.Token)
			}
		}
		if len(servedBots) > 0 {
			return na(fmt.Sprintf("The homepage refused GeoScan's requests, as itself and as a browser (%s), while AI crawler user agents %s were served, so the site could not be audited from here; this is no finding against the site.", why, andList(servedBots)), e)
		}
		if len(refusedBots) > 0 {
			return fail(fmt.Sprintf("The homepage refused every request GeoScan made (%s): as itself, as a browser and as the AI crawlers %s, so crawlers reaching it from networks like GeoScan's are turned away.", why, andList(refusedBots)), e)
		}
	}
	switch {
	case h.Status >= 400 || h.Status < 200:
		return fail(fmt.Sprintf("The homepage answered HTTP %d%s.", h.Status, after), e)
	case h.Status >= 300:
		return fail(fmt.Sprintf("The homepage ended on an HTTP %d redirect that leads nowhere%s.", h.Status, after), e)
	case h.Status != 200:
		return warn(fmt.Sprintf("The homepage answered HTTP %d, a success code other than 200%s.", h.Status, after), e)
	}
	if hops >= 3 {
		steps := make([]string, 0, hops+1)
		for _, r := range h.Redirects {
			steps = append(steps, r.URL)
		}
		steps = append(steps, h.FinalURL)
		return warn(fmt.Sprintf("The homepage answered HTTP 200 only after %d redirects (%s).", hops, strings.Join(steps, " → ")), e)
	}
	for _, r := range h.Redirects {
		if r.Status == http.StatusFound || r.Status == http.StatusSeeOther || r.Status == http.StatusTemporaryRedirect {
			return warn(fmt.Sprintf("The homepage reaches HTTP 200 through a temporary %d redirect from %s, so engines may keep the old URL.", r.Status, r.URL), e)
		}
	}
	// A homepage read as a browser because GeoScan was refused says so.
	as := ""
	if s.AuditedAs != "" {
		as = fmt.Sprintf(" to a browser (GeoScan's own user agent was refused: %s)", refusalText(s.AuditorHome))
	}
	if hops == 0 {
		return pass(fmt.Sprintf("The homepage answered HTTP 200 directly at %s%s.", h.FinalURL, as), e)
	}
	return pass(fmt.Sprintf("The homepage answered HTTP 200 at %s after %s%s.", h.FinalURL, plural(hops, "permanent redirect", "permanent redirects"), as), e)
}

func httpsRedirectCheck() *Check {
	return &Check{
		ID: "https_redirect", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "Old http:// links go to the secure site",
			Why:   "Links to the insecure http:// version of your site should forward permanently to the secure one, so AI engines merge them and credit the right address.",
			Fix:   "Ask your host to forward every http:// address permanently to the same page on https://.",
		},
		Engineering: Text{
			Title: "http:// redirects 301/308 to https://",
			Why:   "A permanent redirect consolidates signals on the https URL; 302/307 tells crawlers the move is temporary, and an http:// page answering 200 is a duplicate served without TLS.",
			Fix:   "On port 80 answer every path with `301` (or `308`) and `Location: https://<host><path>`; add `Strict-Transport-Security` once https is stable.",
		},
		Eval: evalHTTPSRedirect,
	}
}

func evalHTTPSRedirect(in *Input) Result {
	r := siteOf(in).HTTP
	if r == nil {
		return na("The plain-HTTP version of the homepage was not probed.", ev())
	}
	if r.Err != nil {
		return na("The site does not answer plain HTTP ("+r.ErrorText()+"), so there is nothing to redirect.",
			ev("url", r.URL, "error", r.ErrorText(), "error_code", fetch.Describe(r.Err).Code))
	}
	loc := ""
	if r.Header != nil {
		loc = strings.TrimSpace(r.Header.Get("Location"))
	}
	if loc != "" {
		if base, err := url.Parse(r.URL); err == nil {
			if ref, err := url.Parse(loc); err == nil {
				loc = base.ResolveReference(ref).String()
			}
		}
	}
	e := ev("url", r.URL, "status", r.Status, "location", loc)
	toHTTPS := strings.HasPrefix(strings.ToLower(loc), "https://")
	switch {
	case r.Status == http.StatusMovedPermanently || r.Status == http.StatusPermanentRedirect:
		if toHTTPS {
			return pass(fmt.Sprintf("%s answers %d with a permanent redirect to %s.", r.URL, r.Status, loc), e)
		}
		if loc == "" {
			return warn(fmt.Sprintf("%s answers %d but sends no Location header.", r.URL, r.Status), e)
		}
		return warn(fmt.Sprintf("%s redirects permanently to %s, another http:// URL, instead of straight to https://.", r.URL, loc), e)
	case r.Status >= 300 && r.Status < 400:
		if toHTTPS {
			return warn(fmt.Sprintf("%s redirects to %s with a temporary %d instead of a permanent 301 or 308.", r.URL, loc, r.Status), e)
		}
		return warn(fmt.Sprintf("%s answers %d without a redirect to https:// (Location %q).", r.URL, r.Status, loc), e)
	case r.Status >= 200 && r.Status < 300:
		return fail(fmt.Sprintf("%s serves the homepage over plain HTTP with status %d instead of redirecting to https://.", r.URL, r.Status), e)
	}
	return warn(fmt.Sprintf("%s answers HTTP %d instead of redirecting to https://.", r.URL, r.Status), e)
}

// indexingAgents are the agents whose directives decide AI-relevant
// indexing: every agent, Google (AI Overviews, AI Mode) and Bing (Copilot).
var indexingAgents = map[string]bool{"": true, "robots": true, "googlebot": true, "bingbot": true}

var unavailableAfterLayouts = []string{
	time.RFC850, time.RFC1123, time.RFC1123Z, time.RFC822, time.RFC822Z, time.RFC3339,
	"2 Jan 2006 15:04:05 MST", "02 Jan 2006 15:04:05 MST", "2006-01-02", "2006-01-02T15:04:05",
}

func parseUnavailableAfter(v string) (time.Time, bool) {
	v = strings.TrimSpace(v)
	for _, l := range unavailableAfterLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func metaRobotsIndexableCheck() *Check {
	return &Check{
		ID: "meta_robots_indexable", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 10, Effort: Low,
		Marketing: Text{
			Title: "Homepage may be indexed",
			Why:   "A \"noindex\" instruction tells search engines to drop the page, and the AI answers of Google, Bing and others are built on those indexes. It is often left over from a staging site.",
			Fix:   "Remove the \"noindex\" setting from the homepage; in many CMSs it is an option like \"discourage search engines\" or \"hide from search\".",
		},
		Engineering: Text{
			Title: "No noindex in meta robots or X-Robots-Tag",
			Why:   "`noindex` or `none` in `<meta name=robots>`, `<meta name=googlebot>`/`bingbot` or the `X-Robots-Tag` header (as does an expired `unavailable_after`) removes the URL from the Google and Bing indexes that AI Overviews, AI Mode and Copilot retrieve from.",
			Fix:   "Delete `noindex`/`none` from the meta tags and from any `X-Robots-Tag` header set by the server, CDN or framework; check environment toggles such as WordPress's \"Discourage search engines\" setting.",
		},
		Eval: withRendering(evalMetaRobotsIndexable, robotsRendered),
	}
}

func evalMetaRobotsIndexable(in *Input) Result {
	if siteOf(in).Home == nil && in.Home == nil {
		return na("The homepage was not fetched, so its robots directives are unknown.", ev())
	}
	ds, metas, headers := homeRobotsDirectives(in)
	var blocking []string
	for _, d := range ds {
		if !indexingAgents[d.agent] {
			continue
		}
		switch d.name {
		case "noindex", "none":
			blocking = append(blocking, d.String())
		case "unavailable_after":
			if t, ok := parseUnavailableAfter(d.value); ok && nowOf(in).After(t) {
				blocking = append(blocking, d.String()+" (date passed)")
			}
		}
	}
	e := ev("meta_robots", nonNil(metas["robots"]), "meta_googlebot", nonNil(metas["googlebot"]),
		"meta_bingbot", nonNil(metas["bingbot"]), "x_robots_tag", nonNil(headers), "blocking", nonNil(blocking))
	if len(blocking) > 0 {
		return fail(fmt.Sprintf("The homepage tells search engines not to index it: %s.", strings.Join(blocking, "; ")), e)
	}
	switch {
	case len(metas["robots"]) > 0 && len(headers) > 0:
		return pass(fmt.Sprintf("The homepage allows indexing: meta robots says %q and X-Robots-Tag says %q.", metas["robots"][0], headers[0]), e)
	case len(metas["robots"]) > 0:
		return pass(fmt.Sprintf("The homepage allows indexing: meta robots says %q and no X-Robots-Tag header is sent.", metas["robots"][0]), e)
	case len(headers) > 0:
		return pass(fmt.Sprintf("The homepage allows indexing: X-Robots-Tag says %q and there is no meta robots tag.", headers[0]), e)
	}
	return pass("The homepage allows indexing: it has no meta robots tag and sends no X-Robots-Tag header.", e)
}

// robotsRendered revises the robots finding by the rendered page: Google
// runs scripts and obeys a noindex that JavaScript adds, while crawlers
// that run none never see one; a noindex in the HTML keeps Google from
// rendering the page at all, whatever scripts would change.
func robotsRendered(r *Result, d *render.Diff) {
	r.Evidence["raw_meta_robots"] = d.Robots.Raw
	r.Evidence["rendered_meta_robots"] = d.Robots.Rendered
	r.Evidence["robots_changed"] = d.RobotsChanged()
	switch {
	case !d.NoindexRaw && d.NoindexRendered:
		r.Status = Fail
		r.Summary = fmt.Sprintf("The homepage's HTML allows indexing, but JavaScript sets its meta robots tag to %q; Google, which runs scripts, then drops the page from its index.", excerpt(d.Robots.Rendered, 80))
	case d.NoindexRaw && !d.NoindexRendered:
		r.Summary += " JavaScript removes the noindex afterwards, but Google does not render a page whose HTML says noindex."
	case d.Robots.Changed():
		atLeastWarn(r)
		r.Summary += fmt.Sprintf(" JavaScript changes the meta robots tag from %q to %q, so crawlers that run scripts and those that do not get different instructions.", excerpt(d.Robots.Raw, 80), excerpt(d.Robots.Rendered, 80))
	case d.Robots.Removed():
		atLeastWarn(r)
		r.Summary += " JavaScript removes the meta robots tag, so crawlers that run scripts and those that do not get different instructions."
	case d.Robots.OnlyRendered():
		atLeastWarn(r)
		r.Summary += fmt.Sprintf(" A meta robots tag (%q) appears only after JavaScript, so crawlers that run scripts and those that do not get different instructions.", excerpt(d.Robots.Rendered, 80))
	}
}

func snippetControlsCheck() *Check {
	return &Check{
		ID: "snippet_controls", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 5, Effort: Low,
		Marketing: Text{
			Title: "AI engines may quote your text",
			Why:   "Snippet settings decide how much of a page search engines may show. Google applies them to AI Overviews and AI Mode too, so strict limits keep your words out of AI answers.",
			Fix:   "Remove \"nosnippet\" settings and very short snippet limits, and hide only text that truly must not be quoted.",
		},
		Engineering: Text{
			Title: "No nosnippet, sane max-snippet, little data-nosnippet",
			Why:   "Google applies `nosnippet`, `max-snippet` and `data-nosnippet` to AI Overviews and AI Mode: `nosnippet` or `max-snippet:0` removes the page as a quoted source, and short limits or large `data-nosnippet` regions cut what can be cited.",
			Fix:   "Drop `nosnippet` from `<meta name=robots>` and `X-Robots-Tag`; use `max-snippet:-1` (or at least 160) rather than small values; keep `data-nosnippet` to legal boilerplate, not main content.",
		},
		Eval: evalSnippetControls,
	}
}

// maxSnippetFloor is the max-snippet below which a limit hampers AI
// answers; 50 characters is about one short sentence.
const maxSnippetFloor = 50

func evalSnippetControls(in *Input) Result {
	if siteOf(in).Home == nil && in.Home == nil {
		return na("The homepage was not fetched, so its snippet controls are unknown.", ev())
	}
	ds, _, _ := homeRobotsDirectives(in)
	var directives, nosnippet, short []string
	maxSnippet := -2 // -2: not set
	for _, d := range ds {
		if !indexingAgents[d.agent] {
			continue
		}
		switch d.name {
		case "nosnippet":
			directives = append(directives, d.String())
			nosnippet = append(nosnippet, d.String())
		case "max-snippet":
			directives = append(directives, d.String())
			var n int
			if _, err := fmt.Sscanf(d.value, "%d", &n); err != nil {
				continue
			}
			if maxSnippet == -2 || (n >= 0 && (maxSnippet < 0 || n < maxSnippet)) {
				maxSnippet = n
			}
			if n == 0 {
				nosnippet = append(nosnippet, d.String())
			} else if n > 0 && n < maxSnippetFloor {
				short = append(short, d.String())
			}
		}
	}
	e := ev("directives", nonNil(directives))
	if maxSnippet != -2 {
		e["max_snippet"] = maxSnippet
	}
	share := 0.0
	if p := in.Home; p != nil {
		words := page.CountWords(p.Text)
		share = percent(min(p.NoSnippetWords, words), words)
		e["nosnippet_words"] = p.NoSnippetWords
		e["text_words"] = words
		e["nosnippet_pct"] = share
	}
	switch {
	case len(nosnippet) > 0:
		return fail(fmt.Sprintf("The homepage forbids snippets (%s), which also keeps it from being quoted in AI Overviews and AI Mode.", strings.Join(nosnippet, "; ")), e)
	case len(short) > 0:
		return warn(fmt.Sprintf("The homepage limits snippets to %d characters (%s), too short to quote a sentence.", maxSnippet, strings.Join(short, "; ")), e)
	case share > 30:
		return warn(fmt.Sprintf("%.0f%% of the homepage's text is inside data-nosnippet elements, which engines may not quote.", share), e)
	}
	if len(directives) > 0 {
		return pass(fmt.Sprintf("The homepage's snippet controls leave room to quote it (%s); %.0f%% of its text is marked data-nosnippet.", strings.Join(directives, "; "), share), e)
	}
	return pass(fmt.Sprintf("The homepage sets no snippet limits; %.0f%% of its text is marked data-nosnippet.", share), e)
}

func canonicalValidCheck() *Check {
	return &Check{
		ID: "canonical_valid", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "Homepage names its main address",
			Why:   "A canonical tag tells AI engines which address is the official one, so your pages are not split across duplicates or credited to the wrong URL.",
			Fix:   "Set the homepage's canonical address to its own final https:// address in your CMS or SEO plugin.",
		},
		Engineering: Text{
			Title: "One absolute, consistent canonical",
			Why:   "Exactly one `rel=canonical` (HTML or `Link` header), absolute, on the same site and pointing at a URL that answers 200 without redirecting; conflicting canonicals are ignored and a canonical that redirects sends mixed signals.",
			Fix:   "Emit one `<link rel=\"canonical\" href=\"https://host/\">` equal to the final URL (scheme, host, trailing slash), remove duplicates emitted by theme and plugins, and align it with redirects and sitemap URLs.",
		},
		Eval: withRendering(evalCanonicalValid, canonicalRendered),
	}
}

var linkCanonicalRE = regexp.MustCompile(`(?i)<\s*([^>]*)\s*>\s*;[^,]*?rel\s*=\s*"?canonical"?`)

func evalCanonicalValid(in *Input) Result {
	s := siteOf(in)
	p := in.Home
	h := s.Home
	if h == nil || p == nil {
		return na("The homepage is not an HTML page that was fetched, so it has no canonical link to check.", ev())
	}
	type cand struct{ raw, abs, source string }
	var cands []cand
	if p.Doc != nil {
		p.Doc.Find("link").Each(func(_ int, sel *goquery.Selection) {
			for _, rel := range strings.Fields(strings.ToLower(sel.AttrOr("rel", ""))) {
				if rel == "canonical" {
					raw := strings.TrimSpace(sel.AttrOr("href", ""))
					cands = append(cands, cand{raw, p.Resolve(raw), "html"})
				}
			}
		})
	} else {
		for _, c := range p.Canonicals {
			cands = append(cands, cand{c, c, "html"})
		}
	}
	if h.Header != nil {
		for _, v := range h.Header.Values("Link") {
			for _, m := range linkCanonicalRE.FindAllStringSubmatch(v, -1) {
				raw := strings.TrimSpace(m[1])
				cands = append(cands, cand{raw, p.Resolve(raw), "link_header"})
			}
		}
	}
	final := h.FinalURL
	var hrefs, sources []string
	distinct := map[string]bool{}
	for _, c := range cands {
		hrefs = append(hrefs, c.raw)
		sources = append(sources, c.source)
		distinct[normURL(c.abs)] = true
	}
	e := ev("canonicals", nonNil(hrefs), "sources", nonNil(sources), "final_url", final)
	if len(cands) == 0 {
		return warn("The homepage declares no canonical URL, so engines choose one among its variants themselves.", e)
	}
	if len(distinct) > 1 {
		return fail(fmt.Sprintf("The homepage declares %d different canonical URLs (%s); engines ignore conflicting canonicals.", len(distinct), andList(hrefs)), e)
	}
	c := cands[0]
	e["href"] = c.abs
	u, err := url.Parse(c.abs)
	if c.raw == "" || err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fail(fmt.Sprintf("The canonical link %q is not a valid http(s) URL.", c.raw), e)
	}
	if hostKey(c.abs) != hostKey(final) {
		return fail(fmt.Sprintf("The canonical URL %s points to another site (%s), so engines credit that site instead of this one.", c.abs, u.Hostname()), e)
	}
	if fu, err := url.Parse(final); err == nil && fu.Scheme == "https" && u.Scheme == "http" {
		return fail(fmt.Sprintf("The canonical URL %s uses http:// while the page is served over https://.", c.abs), e)
	}
	// A canonical URL that itself redirects (seen in the homepage chain or
	// among the other fetches) contradicts the redirect.
	for _, r := range h.Redirects {
		if sameURL(r.URL, c.abs) && !sameURL(r.URL, final) {
			e["target_status"] = r.Status
			return fail(fmt.Sprintf("The canonical URL %s redirects (HTTP %d) to %s, so it points engines at a URL that is not the page.", c.abs, r.Status, final), e)
		}
	}
	self := sameURL(c.abs, final)
	status := 0
	if self {
		status = h.Status
	} else {
		for _, r := range s.All {
			if r == nil || r.Err != nil {
				continue
			}
			if sameURL(r.URL, c.abs) && !sameURL(r.FinalURL, c.abs) && len(r.Redirects) > 0 {
				e["target_status"] = r.Redirects[0].Status
				return fail(fmt.Sprintf("The canonical URL %s redirects to %s, so it points engines at a URL that is not the final one.", c.abs, r.FinalURL), e)
			}
			if sameURL(r.FinalURL, c.abs) && r.Method != http.MethodHead && status == 0 {
				status = r.Status
			}
		}
	}
	if status != 0 {
		e["target_status"] = status
	}
	if status != 0 && status != 200 {
		return fail(fmt.Sprintf("The canonical URL %s answered HTTP %d.", c.abs, status), e)
	}
	relative := !strings.HasPrefix(strings.ToLower(c.raw), "http://") && !strings.HasPrefix(strings.ToLower(c.raw), "https://")
	e["relative"] = relative
	switch {
	case relative:
		return warn(fmt.Sprintf("The canonical link is relative (%q); engines resolve it to %s, but an absolute URL avoids mistakes.", c.raw, c.abs), e)
	case self:
		return pass(fmt.Sprintf("The homepage declares itself (%s) as canonical and answers HTTP %d.", c.abs, status), e)
	case status == 200:
		return pass(fmt.Sprintf("The homepage names %s as canonical, which answers HTTP 200; engines index that URL for it.", c.abs), e)
	}
	return warn(fmt.Sprintf("The homepage names another URL, %s, as canonical; it was not fetched, so whether it answers 200 is unknown.", c.abs), e)
}

// canonicalRendered revises the canonical finding by the rendered page: a
// canonical that JavaScript changes tells crawlers that run scripts one
// URL and those that do not another, and engines ignore conflicting
// canonicals; one that only JavaScript adds is missing for the latter.
func canonicalRendered(r *Result, d *render.Diff) {
	r.Evidence["raw_canonical"] = d.Canonical.Raw
	r.Evidence["rendered_canonical"] = d.Canonical.Rendered
	r.Evidence["canonical_changed"] = d.CanonicalChanged()
	switch {
	case d.Canonical.Changed():
		r.Status = Fail
		r.Summary = fmt.Sprintf("JavaScript changes the homepage's canonical from %s to %s, so crawlers that run scripts and those that do not are told different URLs.", excerpt(d.Canonical.Raw, 100), excerpt(d.Canonical.Rendered, 100))
	case d.Canonical.Removed():
		atLeastWarn(r)
		r.Summary += " JavaScript removes the canonical link afterwards, so crawlers that run scripts see none."
	case d.Canonical.OnlyRendered():
		atLeastWarn(r)
		r.Summary += fmt.Sprintf(" A canonical (%s) appears only after JavaScript, which crawlers that run no JavaScript do not see.", excerpt(d.Canonical.Rendered, 100))
	}
}

func hreflangValidCheck() *Check {
	return &Check{
		ID: "hreflang_valid", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 1, Effort: Medium,
		Marketing: Text{
			Title: "Language versions are linked correctly",
			Why:   "If your site has several language or country versions, correct language tags help AI engines cite the version that matches the reader's language.",
			Fix:   "Have each language version list all the others with valid language codes, including itself and a default version.",
		},
		Engineering: Text{
			Title: "hreflang codes, URLs, self-reference, x-default",
			Why:   "`<link rel=alternate hreflang>` needs an ISO 639-1 language with an optional ISO 3166-1 alpha-2 region (en-GB, not en-UK), fully qualified URLs, an entry for the page itself and preferably `x-default`; invalid entries are ignored.",
			Fix:   "Fix the listed entries: use codes such as `en`, `en-GB`, `zh-Hans`; make hrefs absolute https URLs; include the page itself; add `hreflang=\"x-default\"`; keep the set reciprocal across all versions.",
		},
		Eval: evalHreflangValid,
	}
}

var hreflangFormRE = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$`)

func evalHreflangValid(in *Input) Result {
	p := in.Home
	if p == nil {
		return na("The homepage is not HTML, so it has no hreflang links.", ev())
	}
	type alt struct{ code, raw, abs string }
	var alts []alt
	if p.Doc != nil {
		p.Doc.Find("link[hreflang]").Each(func(_ int, sel *goquery.Selection) {
			if !strings.Contains(" "+strings.ToLower(sel.AttrOr("rel", ""))+" ", " alternate ") {
				return
			}
			raw := strings.TrimSpace(sel.AttrOr("href", ""))
			alts = append(alts, alt{strings.TrimSpace(sel.AttrOr("hreflang", "")), raw, p.Resolve(raw)})
		})
	} else {
		for _, a := range p.Alternates {
			if a.Hreflang != "" {
				alts = append(alts, alt{a.Hreflang, a.Href, a.Href})
			}
		}
	}
	if len(alts) == 0 {
		return na("The homepage declares no hreflang alternates, so the check does not apply.", ev())
	}
	final := addressOf(p)
	if h := siteOf(in).Home; h != nil && h.FinalURL != "" {
		final = h.FinalURL
	}
	var errs, warns []string
	var pairs []map[string]any
	byCode := map[string]string{}
	hasSelf, hasDefault := false, false
	for _, a := range alts {
		pairs = append(pairs, map[string]any{"hreflang": a.code, "href": a.raw})
		lc := strings.ToLower(a.code)
		if lc == "x-default" {
			hasDefault = true
		} else if !hreflangFormRE.MatchString(a.code) {
			errs = append(errs, fmt.Sprintf("%q is not a language or language-region code", a.code))
		} else if tag, err := language.Parse(a.code); err != nil {
			errs = append(errs, fmt.Sprintf("%q names an unknown language", a.code))
		} else {
			parts := strings.Split(a.code, "-")
			last := parts[len(parts)-1]
			if len(parts) > 1 && len(last) == 2 {
				if r, _ := tag.Region(); !strings.EqualFold(r.String(), last) {
					errs = append(errs, fmt.Sprintf("%q: %s is not an ISO 3166-1 region (use %s)", a.code, strings.ToUpper(last), r.String()))
				}
			} else if len(parts) > 1 && len(last) == 3 {
				warns = append(warns, fmt.Sprintf("%q: Google supports only two-letter region codes", a.code))
			}
		}
		lowerRaw := strings.ToLower(a.raw)
		if !strings.HasPrefix(lowerRaw, "http://") && !strings.HasPrefix(lowerRaw, "https://") {
			errs = append(errs, fmt.Sprintf("%q points to %q, which is not a fully qualified URL", a.code, a.raw))
		}
		if prev, dup := byCode[lc]; dup && !sameURL(prev, a.abs) {
			errs = append(errs, fmt.Sprintf("%q is declared twice with different URLs", a.code))
		}
		byCode[lc] = a.abs
		if sameURL(a.abs, final) {
			hasSelf = true
		}
	}
	if !hasSelf {
		warns = append(warns, "no entry points to the page itself")
	}
	if !hasDefault {
		warns = append(warns, "no x-default entry")
	}
	e := ev("pairs", pairs, "errors", nonNil(errs), "warnings", nonNil(warns))
	switch {
	case len(errs) > 0:
		return fail(fmt.Sprintf("%s in %s: %s.", plural(len(errs), "error", "errors"), plural(len(alts), "hreflang entry", "hreflang entries"), strings.Join(errs, "; ")), e)
	case len(warns) > 0:
		return warn(fmt.Sprintf("%s valid, but %s.", capFirst(theN(len(alts), "hreflang entry is", "hreflang entries are")), strings.Join(warns, " and ")), e)
	}
	return pass(fmt.Sprintf("The %d hreflang entries use valid codes and absolute URLs, include the page itself and an x-default.", len(alts)), e)
}

func soft404Check() *Check {
	return &Check{
		ID: "soft_404", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "Missing pages report \"not found\"",
			Why:   "When addresses that do not exist still look like normal pages, crawlers waste their visits on them and may index junk instead of your real content.",
			Fix:   "Make sure the site shows a real \"page not found\" error for addresses that do not exist, rather than the homepage or an empty page.",
		},
		Engineering: Text{
			Title: "Unknown paths return 404/410",
			Why:   "A 200 for a random path (soft 404: SPA catch-all routes, redirects of unknown URLs to the homepage) lets crawlers index endless duplicates and wastes crawl budget meant for real URLs.",
			Fix:   "Return status 404 (or 410) for unknown routes: make the SPA fallback or server send 404 with the not-found page, and stop redirecting unknown URLs to the homepage.",
		},
		Eval: evalSoft404,
	}
}

func evalSoft404(in *Input) Result {
	r := siteOf(in).NotFound
	if r == nil {
		return na("No non-existent path was probed in this scan.", ev())
	}
	e := ev("url", r.URL, "final_url", r.FinalURL, "status", r.Status, "bytes", r.Bytes, "redirects", chainRows(r.Redirects))
	if r.Err != nil {
		e["error"] = r.ErrorText()
		return na("The probe of a non-existent path failed ("+r.ErrorText()+"), so soft 404s could not be tested.", e)
	}
	via := ""
	if len(r.Redirects) > 0 {
		via = " after redirecting to " + r.FinalURL
	}
	switch {
	case r.Status == http.StatusNotFound || r.Status == http.StatusGone:
		return pass(fmt.Sprintf("A non-existent path answered HTTP %d, as it should.", r.Status), e)
	case r.Status >= 200 && r.Status < 300:
		return fail(fmt.Sprintf("A non-existent path (%s) answered HTTP %d with %d bytes%s: a soft 404.", r.URL, r.Status, r.Bytes, via), e)
	}
	return warn(fmt.Sprintf("A non-existent path answered HTTP %d%s instead of 404 or 410.", r.Status, via), e)
}

func crawlableAnchorsCheck() *Check {
	return &Check{
		ID: "crawlable_anchors", Ring: scoring.RingSearch, Pillar: pillarIndexability, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "Links can be followed by crawlers",
			Why:   "AI crawlers discover your pages by following real links. Menus and buttons that only work with JavaScript hide those pages from them.",
			Fix:   "Ask your developers to build navigation from standard links with real page addresses, not click-only buttons.",
		},
		Engineering: Text{
			Title: "Anchors with a real href",
			Why:   "Crawlers follow only `<a href>` with a resolvable URL; `href=\"#\"`, `javascript:` or anchors without href (JS click handlers) expose nothing, and AI crawlers execute no JavaScript.",
			Fix:   "Render navigation as `<a href=\"/path\">` in the server HTML and keep click handlers as enhancement; replace `javascript:void(0)` and `#` placeholders with destination URLs, or use `<button>` for actions.",
		},
		Eval: withRendering(evalCrawlableAnchors, navRendered),
	}
}

func evalCrawlableAnchors(in *Input) Result {
	p := in.Home
	if p == nil {
		return na("The homepage is not HTML, so it has no links to check.", ev())
	}
	total, good, inPage := 0, 0, 0
	var samples []string
	for _, l := range p.Links {
		raw := strings.ToLower(strings.TrimSpace(l.RawHref))
		// Contact links are not navigation; they neither help nor hurt.
		if strings.HasPrefix(raw, "mailto:") || strings.HasPrefix(raw, "tel:") || strings.HasPrefix(raw, "sms:") {
			continue
		}
		// A jump to an element of the same page (a footnote, "skip to
		// content") leads to no other page and needs no script; an <a>
		// without href or text is a jump target, not a link.
		if l.InPage || (raw == "" && l.Text == "") {
			inPage++
			continue
		}
		total++
		if l.Href != "" {
			good++
			continue
		}
		if len(samples) < 5 {
			text := l.Text
			if text == "" {
				text = "(no text)"
			}
			samples = append(samples, fmt.Sprintf("%q → %s", l.RawHref, text))
		}
	}
	pct := percent(good, total)
	e := ev("anchors", total, "crawlable", good, "crawlable_pct", pct, "in_page_anchors", inPage, "samples", nonNil(samples))
	jumps := ""
	if inPage > 0 {
		jumps = fmt.Sprintf(" (%s within the page left out)", plural(inPage, "jump", "jumps"))
	}
	switch {
	case total == 0 && inPage > 0:
		jumpsOnly := fmt.Sprintf("all %d anchors are jumps", inPage)
		if inPage == 1 {
			jumpsOnly = "its only anchor is a jump"
		}
		return fail(fmt.Sprintf("The homepage HTML links to no other page; %s within the page.", jumpsOnly), e)
	case total == 0:
		return fail("The homepage HTML contains no <a> links, so crawlers cannot follow anything from it.", e)
	}
	links := func(share string) string {
		return fmt.Sprintf("%s on the homepage (%.0f%%) %s a crawlable href%s", capFirst(share), pct, map[bool]string{true: "has", false: "have"}[total == 1], jumps)
	}
	switch {
	case pct >= 90:
		return pass(links(ofTotal(good, total, "link", "links"))+".", e)
	case pct >= 70:
		return warn(links(fewOf(good, total, "link", "links"))+"; the rest use #, javascript: or no href.", e)
	}
	return fail(links(fewOf(good, total, "link", "links"))+"; the rest use #, javascript: or no href.", e)
}

// navRendered revises the links finding by the rendered page: a primary
// navigation that only JavaScript builds cannot be followed by crawlers
// that run none.
func navRendered(r *Result, d *render.Diff) {
	r.Evidence["raw_nav_links"] = d.NavLinks.Raw
	r.Evidence["rendered_nav_links"] = d.NavLinks.Rendered
	r.Evidence["raw_internal_links"] = d.InternalLinks.Raw
	r.Evidence["rendered_internal_links"] = d.InternalLinks.Rendered
	r.Evidence["nav_only_rendered"] = d.NavOnlyRendered()
	if !d.NavOnlyRendered() {
		return
	}
	atLeastWarn(r)
	r.Summary += fmt.Sprintf(" In a browser, the navigation (%s) appears only after JavaScript, so crawlers that run no JavaScript cannot follow it.", ofTotal(d.NavLinks.OnlyRendered, d.NavLinks.Rendered, "link", "links"))
}
