package checks

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The entity_identity pillar: can AI systems tell exactly who is behind
// the site and connect it to its other profiles? Organization schema
// (in JSON-LD, microdata or RDFa), sameAs profiles, one brand name, about
// and contact pages, and NAP.
const pillarEntityIdentity = "entity_identity"

// entityIdentityChecks returns the pillar's checks in report order.
func entityIdentityChecks() []*Check {
	return []*Check{
		organizationEntityCheck(),
		sameAsProfilesCheck(),
		brandNameConsistencyCheck(),
		aboutContactPagesCheck(),
		localNAPConsistencyCheck(),
	}
}

func organizationEntityCheck() *Check {
	return &Check{
		ID: "organization_entity", Ring: scoring.RingTrust, Pillar: pillarEntityIdentity, Weight: 5, Effort: Low,
		Marketing: Text{
			Title: "Your organisation is clearly identified",
			Why:   "AI engines recommend businesses they can identify with confidence; a complete description of your organisation (name, website, logo, contact) is that identity card.",
			Fix:   "In your SEO plugin or CMS, fill in the organisation profile: official name, website, logo and a phone number, email or address.",
		},
		Engineering: Text{
			Title: "Organization entity with name, url, logo and contact",
			Why:   "An Organization or LocalBusiness node with name, url, logo and contactPoint/address is what engines reconcile with knowledge-graph entities and show in brand answers.",
			Fix:   "Publish Organization (or a LocalBusiness subtype) JSON-LD on the homepage with name, url, an absolute logo URL (ImageObject) and contactPoint or address, and give it an @id other nodes reference; microdata or RDFa with the same properties counts too.",
		},
		Eval: evalOrganizationEntity,
	}
}

// identityCandidate is an entity that says who stands behind the site.
type identityCandidate struct {
	entity *jsonld.Entity
	graph  *jsonld.Graph
	page   *page.Page
}

// siteIdentities returns the Organization, LocalBusiness and Person nodes
// of the homepage, the about and contact pages, and then the other pages,
// in that order. A Person only counts from the homepage top level: on
// articles a Person is an author, not the site owner.
func siteIdentities(in *Input) []identityCandidate {
	var pages []*page.Page
	if in.Home != nil {
		pages = append(pages, in.Home)
	}
	pages = append(pages, sitePages(in, fetch.About, fetch.Contact)...)
	for _, p := range everyPage(in) {
		if !slices.Contains(pages, p) {
			pages = append(pages, p)
		}
	}
	var out []identityCandidate
	orgs := slices.Concat(organizationTypes, localBusinessTypes)
	for _, p := range pages {
		g := graphOf(p)
		if g == nil {
			continue
		}
		for _, e := range g.OfType(orgs...) {
			out = append(out, identityCandidate{e, g, p})
		}
		if p == in.Home {
			for _, e := range g.OfType("Person") {
				if !e.Nested && !e.Is(orgs...) {
					out = append(out, identityCandidate{e, g, p})
				}
			}
		}
	}
	return out
}

// identitySlots are the parts of a complete identity entity.
var identitySlots = []string{"name", "url", "logo", "contact"}

// identityParts reports which identity slots an entity fills. The logo
// must be an absolute URL; it is not downloaded.
func identityParts(c identityCandidate) (have map[string]bool, logo string) {
	e := c.entity
	logo = logoURL(c.graph, e)
	if logo == "" && e.Is("Person") {
		logo = e.String("image")
	}
	lu, err := url.Parse(logo)
	have = map[string]bool{
		"name":    e.String("name") != "",
		"url":     e.String("url") != "",
		"logo":    err == nil && (lu.Scheme == "https" || lu.Scheme == "http") && lu.Host != "",
		"contact": e.Has("contactPoint") || e.Has("address") || e.Has("telephone") || e.Has("email") || (e.Is("Person") && e.Has("sameAs")),
	}
	return have, logo
}

// logoURL reads a logo given as a URL, an inline ImageObject or an @id
// reference to an ImageObject declared elsewhere in the graph.
func logoURL(g *jsonld.Graph, e *jsonld.Entity) string {
	if obj := e.Object("logo"); obj != nil {
		for _, k := range []string{"url", "contentUrl"} {
			if v := jsonld.Field(obj, k); v != "" {
				return v
			}
		}
		if id, ok := obj["@id"].(string); ok && g != nil {
			if target := g.ByID(id); target != nil {
				if v := target.String("url"); v != "" {
					return v
				}
				return target.String("contentUrl")
			}
		}
		return ""
	}
	return e.String("logo")
}

func evalOrganizationEntity(in *Input) Result {
	if len(everyPage(in)) == 0 {
		return na(naNoHome, ev())
	}
	cands := siteIdentities(in)
	if len(cands) == 0 {
		return fail("No Organization, LocalBusiness or Person entity describes the site on the fetched pages, in JSON-LD, microdata or RDFa.", ev("entity", "", "syntax", []string{}, "missing", identitySlots))
	}
	best, bestN := cands[0], -1
	var bestHave map[string]bool
	var bestLogo string
	for _, c := range cands {
		have, logo := identityParts(c)
		n := 0
		for _, ok := range have {
			if ok {
				n++
			}
		}
		if n > bestN {
			best, bestN, bestHave, bestLogo = c, n, have, logo
		}
	}
	var missing []string
	for _, s := range identitySlots {
		if !bestHave[s] {
			missing = append(missing, s)
		}
	}
	syntax := best.entity.Syntax
	e := ev("entity", best.entity.Label(), "type", best.entity.Types[0], "syntax", nonNil(syntax.Names()), "page", addressOf(best.page), "name", best.entity.String("name"),
		"url", best.entity.String("url"), "logo", bestLogo, "missing", nonNil(missing), "logo_checked", "absolute URL shape; the image is not downloaded")
	if len(missing) == 0 {
		return pass(fmt.Sprintf("%s %q%s declares name, url, logo and contact details.", best.entity.Types[0], best.entity.String("name"), inSyntax(syntax)), e)
	}
	return warn(fmt.Sprintf("%s %q%s lacks %s.", best.entity.Types[0], best.entity.String("name"), inSyntax(syntax), strings.Join(missing, ", ")), e)
}

func sameAsProfilesCheck() *Check {
	return &Check{
		ID: "sameas_profiles", Ring: scoring.RingTrust, Pillar: pillarEntityIdentity, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "Links to your official profiles",
			Why:   "Pointing to your official profiles (Wikipedia, LinkedIn, GitHub, YouTube and the like) lets AI engines confirm that the site, the profiles and the brand they know are one and the same.",
			Fix:   "List your official profile pages in the organisation settings of your SEO plugin (often called \"social profiles\"); include at least two.",
		},
		Engineering: Text{
			Title: "sameAs to authoritative profiles",
			Why:   "Organization.sameAs URLs to Wikipedia, Wikidata, LinkedIn, Crunchbase, GitHub, X or YouTube are the identifiers engines use for entity reconciliation.",
			Fix:   "Add a sameAs array with the canonical profile URLs (at least two of Wikipedia, Wikidata, LinkedIn, Crunchbase, GitHub, X, YouTube, Facebook, Instagram) to the Organization or Person node.",
		},
		Eval: evalSameAs,
	}
}

// actionSegments are first path segments of the profile platforms that
// name an action or a widget, not an account: share buttons
// (facebook.com/sharer.php, twitter.com/intent/tweet,
// linkedin.com/shareArticle), dialogs, plugins and embeds.
var actionSegments = []string{
	"share", "share.php", "sharer", "sharer.php", "sharearticle", "sharing", "cws", "intent", "dialog",
	"plugins", "embed", "tr", "login", "signup", "search", "hashtag", "home",
}

// ProfilePlatform names the authoritative profile site a URL points to,
// or "" when it points elsewhere, or to the platform's own front page or
// one of its actions (a share button is no profile). It is what
// sameas_profiles counts, so a generated fix proposes the same profiles.
func ProfilePlatform(raw string) string {
	name, action := platformOf(raw)
	if action {
		return ""
	}
	return name
}

// PlatformAction reports a URL on a profile platform that is its front
// page or one of its actions (facebook.com/sharer.php,
// twitter.com/intent/tweet): never a profile, whatever a page declares.
func PlatformAction(raw string) bool {
	name, action := platformOf(raw)
	return name != "" && action
}

// platformOf names the profile platform of a URL's host ("" for none) and
// says whether its path is the front page or an action.
func platformOf(raw string) (name string, action bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "", false
	}
	first, _, _ := strings.Cut(strings.Trim(u.EscapedPath(), "/"), "/")
	action = first == "" || slices.Contains(actionSegments, strings.ToLower(first))
	host := strings.ToLower(u.Hostname())
	for _, p := range profilePlatforms {
		if host == p.domain || strings.HasSuffix(host, "."+p.domain) {
			return p.name, action
		}
	}
	return "", false
}

// profilePlatforms are the profile sites sameAs is judged by.
var profilePlatforms = []struct{ name, domain string }{
	{"Wikipedia", "wikipedia.org"},
	{"Wikidata", "wikidata.org"},
	{"LinkedIn", "linkedin.com"},
	{"Crunchbase", "crunchbase.com"},
	{"GitHub", "github.com"},
	{"X", "x.com"},
	{"X", "twitter.com"},
	{"YouTube", "youtube.com"},
	{"YouTube", "youtu.be"},
	{"Facebook", "facebook.com"},
	{"Facebook", "fb.com"},
	{"Instagram", "instagram.com"},
}

func evalSameAs(in *Input) Result {
	if len(everyPage(in)) == 0 {
		return na(naNoHome, ev())
	}
	var sameAs, platforms []string
	var syntax jsonld.Syntax
	for _, c := range siteIdentities(in) {
		if c.entity.Has("sameAs") {
			syntax |= c.entity.Syntax
		}
		for _, s := range c.entity.Strings("sameAs") {
			if !slices.Contains(sameAs, s) {
				sameAs = append(sameAs, s)
			}
			if p := ProfilePlatform(s); p != "" && !slices.Contains(platforms, p) {
				platforms = append(platforms, p)
			}
		}
	}
	// Profile links in the page itself are context for the fix, not a
	// substitute: sameAs is what ties them to the entity.
	var linked []string
	if in.Home != nil {
		for _, l := range in.Home.Links {
			if p := ProfilePlatform(l.Href); p != "" && !slices.Contains(linked, l.Href) {
				linked = append(linked, l.Href)
			}
		}
	}
	e := ev("same_as", nonNil(firstN(sameAs, 20)), "syntax", nonNil(syntax.Names()), "authoritative_platforms", nonNil(platforms), "count", len(platforms),
		"profile_links_on_homepage", nonNil(firstN(linked, 10)))
	switch {
	case len(platforms) >= 2:
		return pass(fmt.Sprintf("sameAs links the site's entity to %d authoritative profiles (%s).", len(platforms), strings.Join(platforms, ", ")), e)
	case len(platforms) == 1:
		return warn(fmt.Sprintf("sameAs links the site's entity to only one authoritative profile (%s).", platforms[0]), e)
	case len(linked) > 0:
		return fail(fmt.Sprintf("No sameAs link to an authoritative profile, although the homepage links %s.", plural(len(linked), "profile", "profiles")), e)
	}
	return fail("No sameAs link to an authoritative profile (Wikipedia, Wikidata, LinkedIn, Crunchbase, GitHub, X, YouTube, Facebook, Instagram).", e)
}

func brandNameConsistencyCheck() *Check {
	return &Check{
		ID: "brand_name_consistency", Ring: scoring.RingTrust, Pillar: pillarEntityIdentity, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "One brand name everywhere",
			Why:   "When the title, the sharing tags, the logo and the copyright line all use the same name, AI engines connect every mention to one brand instead of splitting it.",
			Fix:   "Use exactly the same brand name in the site title, the social sharing name, the organisation profile, the logo description and the footer.",
		},
		Engineering: Text{
			Title: "Brand name consistency",
			Why:   "Entity resolution matches names across <title>, og:site_name, Organization.name, WebSite.name, logo alt and the © line; conflicting variants fragment the entity.",
			Fix:   "Derive <title> suffix, og:site_name, Organization.name, WebSite.name, the logo's alt and the footer © line from one configured brand string.",
		},
		Eval: evalBrandConsistency,
	}
}

var copyrightRE = regexp.MustCompile(`(?i)(?:©|\(c\)|copyright)\s*(?:\d{4}(?:\s*[-–]\s*\d{4})?)?\s*,?\s*([\p{L}\p{N}&.,' -]{2,60})`)

// brandMention is one place the brand name shows up.
type brandMention struct{ source, value string }

func brandMentions(in *Input) []brandMention {
	var out []brandMention
	add := func(source, value string) {
		if v := strings.TrimSpace(value); v != "" {
			out = append(out, brandMention{source, v})
		}
	}
	h := in.Home
	if h == nil {
		return out
	}
	add("title", h.Title)
	add("og:site_name", h.MetaContent("og:site_name"))
	if g := graphOf(h); g != nil {
		// The site's own organisation is declared at the top level; nested
		// ones are brands of products, employers of authors and the like.
		orgs := g.OfType(slices.Concat(organizationTypes, localBusinessTypes)...)
		if i := slices.IndexFunc(orgs, func(e *jsonld.Entity) bool { return !e.Nested }); i >= 0 {
			add("Organization.name", orgs[i].String("name"))
		} else if len(orgs) > 0 {
			add("Organization.name", orgs[0].String("name"))
		}
		if sites := g.OfType("WebSite"); len(sites) > 0 {
			add("WebSite.name", sites[0].String("name"))
		}
	}
	for _, img := range h.Images {
		if img.Alt != "" && (strings.Contains(strings.ToLower(img.Src), "logo") || strings.Contains(strings.ToLower(img.Alt), "logo")) {
			add("logo alt", img.Alt)
			break
		}
	}
	if m := copyrightRE.FindStringSubmatch(h.Text); m != nil {
		v := m[1]
		// The line goes on after the name: "Example Inc. All rights
		// reserved", "The Example authors. Licensed under …".
		if i := strings.Index(strings.ToLower(v), "all rights"); i >= 0 {
			v = v[:i]
		}
		if i := strings.Index(v, ". "); i >= 0 {
			v = v[:i]
		}
		add("copyright", strings.Trim(v, " .,-"))
	}
	return out
}

// DeclaredBrand is the name the homepage declares for the site itself:
// its og:site_name, its top-level organisation's name or its WebSite's
// name, the first of them it gives; "" when it gives none. It is the
// brand brand_name_consistency compares with when no brand was given,
// and the name a competitor is shown under when none was given for it.
// The value is the site's text, untrimmed: a caller bounds it.
func DeclaredBrand(in *Input) string {
	if in.Home == nil {
		return ""
	}
	return declaredName(brandMentions(in))
}

func declaredName(mentions []brandMention) string {
	for _, m := range mentions {
		if m.source == "og:site_name" || m.source == "Organization.name" || m.source == "WebSite.name" {
			return m.value
		}
	}
	return ""
}

func evalBrandConsistency(in *Input) Result {
	if in.Home == nil {
		return na(naNoHome, ev())
	}
	mentions := brandMentions(in)
	key := brandKey(in.BrandName)
	reference := in.BrandName
	if key == "" {
		// Without a given brand the name the site declares about itself is
		// the reference, falling back on the domain.
		if d := declaredName(mentions); d != "" {
			key, reference = brandKey(d), d
		}
		if key == "" && in.Site != nil && in.Site.Target != nil {
			key, reference = brandKey(in.Site.Target.Host), in.Site.Target.Host
		}
	}
	if len(mentions) < 2 || key == "" {
		if len(mentions) == 0 {
			return na("The brand name was not found on the homepage, so there is nothing to compare.", ev("brand", reference))
		}
		return na(fmt.Sprintf("Only %s of the brand name found on the homepage, too few to compare.", plural(len(mentions), "mention", "mentions")), ev("brand", reference))
	}
	var rows []map[string]any
	var outliers []string
	for _, m := range mentions {
		ok := sameBrand(key, m.value)
		if !ok {
			outliers = append(outliers, fmt.Sprintf("%s %q", m.source, excerpt(m.value, 60)))
		}
		rows = append(rows, map[string]any{"source": m.source, "value": excerpt(m.value, 120), "matches": ok})
	}
	e := ev("brand", reference, "mentions", rows, "outliers", nonNil(outliers))
	switch len(outliers) {
	case 0:
		return pass(fmt.Sprintf("All %d brand mentions on the homepage use %q.", len(mentions), reference), e)
	case 1:
		return warn(fmt.Sprintf("%d of %d brand mentions use %q; %s differs.", len(mentions)-1, len(mentions), reference, outliers[0]), e)
	}
	return fail(fmt.Sprintf("%d of %d brand mentions differ from %q: %s.", len(outliers), len(mentions), reference, strings.Join(firstN(outliers, 3), ", ")), e)
}

func aboutContactPagesCheck() *Check {
	return &Check{
		ID: "about_contact_pages", Ring: scoring.RingTrust, Pillar: pillarEntityIdentity, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "About and contact pages",
			Why:   "AI engines and the people who use them look for who runs a site and how to reach them; reachable about and contact pages are basic proof that a real business stands behind it.",
			Fix:   "Publish an About page and a Contact page with an email, phone number, address or form, and link both from the homepage.",
		},
		Engineering: Text{
			Title: "About and contact pages linked and reachable",
			Why:   "About and contact pages linked from the homepage are core E-E-A-T signals; engines fetch them to verify the publisher.",
			Fix:   "Serve /about and /contact with 200, link them from the homepage navigation or footer with plain <a href>, and put a mailto:, tel:, <address> or contact <form> on the contact page.",
		},
		Eval: evalAboutContact,
	}
}

func evalAboutContact(in *Input) Result {
	if noPagesAtAll(in) {
		return na(naNoHome, ev())
	}
	about, aboutOK, _ := keyPage(in, fetch.About)
	contact, contactOK, contactPage := keyPage(in, fetch.Contact)
	methods := contactPage.ContactMethods()
	contact["contact_methods"] = nonNil(methods)
	if contactOK && len(methods) == 0 {
		contactOK = false
		contact["problem"] = "no email, phone, address or form on the page"
	}
	e := ev("pages", []map[string]any{about, contact})
	unlinked := (aboutOK && about["linked_from_home"] == false) || (contactOK && contact["linked_from_home"] == false)
	switch {
	case aboutOK && contactOK && !unlinked:
		return pass(fmt.Sprintf("About and contact pages answer 200, are linked from the homepage, and the contact page offers %s.", strings.Join(methods, ", ")), e)
	case aboutOK && contactOK:
		return warn("About and contact pages answer 200, but the homepage does not link to both.", e)
	case aboutOK:
		return warn("An about page answers 200, but no contact page with an email, phone, address or form was found.", e)
	case contactOK:
		return warn(fmt.Sprintf("A contact page offers %s, but no about page was found.", strings.Join(methods, ", ")), e)
	}
	return fail("Neither an about page nor a contact page with contact details was found.", e)
}

func localNAPConsistencyCheck() *Check {
	return &Check{
		ID: "local_nap_consistency", Ring: scoring.RingTrust, Pillar: pillarEntityIdentity, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "Name, address and phone match",
			Why:   "For local businesses, AI answers about \"near me\" rely on the name, address and phone being the same in your markup and on your pages.",
			Fix:   "Make sure the business name, street address and phone number in your local business settings are exactly what the footer and contact page show.",
		},
		Engineering: Text{
			Title: "LocalBusiness NAP consistency",
			Why:   "LocalBusiness name, address and telephone in JSON-LD are matched against visible text and third-party listings; mismatches weaken local entity confidence.",
			Fix:   "Render the footer/contact NAP from the same data as LocalBusiness.name, address (PostalAddress: streetAddress, postalCode, addressLocality) and telephone.",
		},
		Eval: evalLocalNAP,
	}
}

var phoneRE = regexp.MustCompile(`\+?\d[\d\s().\-/]{5,}\d`)

// lastDigits keeps the final n digits of s: phone numbers are compared on
// their subscriber part so "+1 (555) 010-9999" matches "555.010.9999".
func lastDigits(s string, n int) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	d := b.String()
	if len(d) > n {
		d = d[len(d)-n:]
	}
	return d
}

func evalLocalNAP(in *Input) Result {
	var biz *jsonld.Entity
	for _, p := range everyPage(in) {
		if g := graphOf(p); g != nil {
			if list := g.OfType(localBusinessTypes...); len(list) > 0 {
				biz = list[0]
				break
			}
		}
	}
	if biz == nil {
		return na("No LocalBusiness markup was found, so the site is not treated as a local business.", ev())
	}
	var texts []string
	var phones []string
	for _, p := range everyPage(in) {
		texts = append(texts, p.Text)
		for _, l := range p.Links {
			if strings.HasPrefix(strings.ToLower(l.RawHref), "tel:") {
				phones = append(phones, lastDigits(l.RawHref, 9))
			}
		}
		for _, m := range phoneRE.FindAllString(p.Text, -1) {
			phones = append(phones, lastDigits(m, 9))
		}
	}
	visible := tokenSet(texts...)
	name := biz.String("name")
	street, postal, phone := "", "", biz.String("telephone")
	if addr := biz.Object("address"); addr != nil {
		street, postal = jsonld.Field(addr, "streetAddress"), jsonld.Field(addr, "postalCode")
	} else {
		street = biz.String("address")
	}
	var rows []map[string]any
	problems := 0
	check := func(field, value string, match func() bool) {
		row := map[string]any{"field": field, "schema_value": value}
		switch {
		case value == "":
			row["status"] = "missing in schema"
			problems++
		case match():
			row["status"] = "matches visible text"
		default:
			row["status"] = "not found in visible text"
			problems++
		}
		rows = append(rows, row)
	}
	check("name", name, func() bool { return tokenCoverage(name, visible) >= 0.8 })
	check("streetAddress", street, func() bool { return tokenCoverage(street, visible) >= 0.8 })
	if postal != "" {
		check("postalCode", postal, func() bool { return tokenCoverage(postal, visible) == 1 })
	}
	check("telephone", phone, func() bool {
		want := lastDigits(phone, 9)
		return len(want) >= 6 && slices.ContainsFunc(phones, func(p string) bool {
			return len(p) >= 6 && (strings.HasSuffix(p, want) || strings.HasSuffix(want, p))
		})
	})
	e := ev("business", biz.Label(), "syntax", nonNil(biz.Syntax.Names()), "nap", rows)
	if problems == 0 {
		return pass(fmt.Sprintf("The name, address and phone of %s %q match the visible text.", biz.Types[0], name), e)
	}
	return warn(fmt.Sprintf("%d of the %d name, address and phone values of %s %q are missing or do not match the visible text.", problems, len(rows), biz.Types[0], name), e)
}
