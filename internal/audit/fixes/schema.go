package fixes

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// JSON-LD is filled with what the site states about itself: its existing
// entities first, then its meta tags, links and visible text. A value the
// scan could not find is a placeholder that no one could take for data:
// text starting with "REVIEW:", and for URLs an address under
// review.invalid (a name that can never resolve), so the snippet still has
// the shape the checks and consumers expect while it is reviewed.

const reviewHost = "https://review.invalid/"

// jsonldResult is a JSON-LD snippet and what in it needs review.
type jsonldResult struct {
	artifact *Artifact
	review   []string
	err      error
}

// reviewer collects the placeholders of a snippet.
type reviewer struct{ items []string }

// text is a placeholder for a text value.
func (r *reviewer) text(what string) string {
	r.items = append(r.items, fmt.Sprintf("Replace \"REVIEW: %s\" with the real value.", what))
	return "REVIEW: " + what
}

// url is a placeholder for a URL value.
func (r *reviewer) url(name, what string) string {
	r.items = append(r.items, fmt.Sprintf("Replace %s%s with %s.", reviewHost, name, what))
	return reviewHost + name
}

func (r *reviewer) note(s string) { r.items = append(r.items, s) }

// identity is who stands behind the site, as the site states it.
type identity struct {
	typ, id, name, url, logo, description, email, phone, lang string
	sameAs                                                    []string
	existing                                                  *jsonld.Entity
}

// existingIdentity is the entity organization_entity judged best, when it
// found one.
func (s *scan) existingIdentity() *jsonld.Entity {
	name := s.orgEvidence("name")
	typ := s.orgEvidence("type")
	p := s.pageAt(s.orgEvidence("page"))
	if p == nil || p.Graph == nil || typ == "" {
		return nil
	}
	for _, e := range p.Graph.OfType(typ) {
		if e.String("name") == name {
			return e
		}
	}
	return nil
}

// siteName is the name the site gives itself: its identity entity, then
// og:site_name, its WebSite entity, the application name, the part of the
// title that names the brand, and last the brand the scan was made for.
func (s *scan) siteName() string {
	if e := s.existingIdentity(); e != nil {
		if n := line(e.String("name")); n != "" {
			return n
		}
	}
	h := s.home
	if h == nil {
		return line(s.in.BrandName)
	}
	for _, k := range []string{"og:site_name", "application-name", "apple-mobile-web-app-title"} {
		if n := line(h.MetaContent(k)); n != "" {
			return n
		}
	}
	if h.Graph != nil {
		for _, e := range h.Graph.OfType("WebSite") {
			if n := line(e.String("name")); n != "" {
				return n
			}
		}
	}
	key := brandKey(s.in.BrandName)
	for _, part := range titleParts(h.Title) {
		if key != "" && strings.Contains(brandKey(part), key) || strings.Contains(key, brandKey(part)) && len(brandKey(part)) >= 4 {
			return part
		}
	}
	return line(s.in.BrandName)
}

// brandKey reduces a name to lower-case letters and digits, a domain to
// its first label, for comparing names.
func brandKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if !strings.Contains(s, " ") && strings.Count(s, ".") >= 1 {
		s, _, _ = strings.Cut(s, ".")
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f && r != '\u00a0' {
			return r
		}
		return -1
	}, s)
}

// titleSeparators split a title into its parts ("Topic | Brand").
var titleSeparators = []string{" | ", " – ", " — ", " - ", " · ", " :: ", " : ", " • "}

func titleParts(title string) []string {
	parts := []string{line(title)}
	for _, sep := range titleSeparators {
		var next []string
		for _, p := range parts {
			for _, x := range strings.Split(p, sep) {
				if x = strings.TrimSpace(x); x != "" {
					next = append(next, x)
				}
			}
		}
		parts = next
	}
	return parts
}

// describe is the site's description: its identity entity's, its meta
// description, og:description, the homepage's lead paragraph.
func (s *scan) describe() string {
	if e := s.existingIdentity(); e != nil {
		if d := line(e.String("description")); d != "" {
			return clip(d, 300)
		}
	}
	if s.home == nil {
		return ""
	}
	for _, d := range []string{s.home.MetaContent("description"), s.home.MetaContent("og:description"), s.home.IntroParagraph()} {
		if d = line(d); d != "" {
			return clip(d, 300)
		}
	}
	return ""
}

// contacts are the email addresses and phone numbers the homepage and the
// contact pages link to.
func (s *scan) contacts() (emails, phones []string) {
	pages := slices.Concat([]*page.Page{s.home}, s.pagesFor(fetch.Contact), s.pagesFor(fetch.About))
	for _, p := range pages {
		if p == nil {
			continue
		}
		for _, l := range p.Links {
			h := strings.TrimSpace(l.RawHref)
			switch lower := strings.ToLower(h); {
			case strings.HasPrefix(lower, "mailto:"):
				addr, _, _ := strings.Cut(h[len("mailto:"):], "?")
				if a, err := url.PathUnescape(addr); err == nil {
					addr = a
				}
				if addr = strings.TrimSpace(addr); plausibleEmail(addr) && !slices.Contains(emails, addr) {
					emails = append(emails, addr)
				}
			case strings.HasPrefix(lower, "tel:"):
				num := strings.TrimSpace(h[len("tel:"):])
				if plausiblePhone(num) && !slices.Contains(phones, num) {
					phones = append(phones, num)
				}
			}
		}
	}
	return emails, phones
}

func plausibleEmail(s string) bool {
	at := strings.IndexByte(s, '@')
	return at > 0 && at < len(s)-3 && strings.Contains(s[at:], ".") && len(s) <= 254 &&
		!strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || strings.ContainsRune(`"<>(),;:\[]`, r) })
}

func plausiblePhone(s string) bool {
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune("+-. ()/", r):
		default:
			return false
		}
	}
	return digits >= 5 && digits <= 20
}

// logo is the site's logo: its identity entity's, an apple-touch-icon,
// or an image whose address or text names a logo.
func (s *scan) logo() string {
	if l := s.orgEvidence("logo"); absoluteHTTP(l) {
		return l
	}
	h := s.home
	if h == nil {
		return ""
	}
	if h.Doc != nil {
		for _, sel := range []string{`link[rel~="apple-touch-icon"]`, `link[rel~="icon"][sizes]`} {
			if href, ok := h.Doc.Find(sel).Last().Attr("href"); ok {
				if u := h.Resolve(href); absoluteHTTP(u) && !strings.HasSuffix(strings.ToLower(u), ".ico") {
					return u
				}
			}
		}
	}
	for _, img := range h.Images {
		if (strings.Contains(strings.ToLower(img.Src), "logo") || strings.Contains(strings.ToLower(img.Alt), "logo")) && absoluteHTTP(img.Src) {
			return img.Src
		}
	}
	return ""
}

func absoluteHTTP(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && !strings.ContainsAny(raw, " \t\r\n")
}

func (s *scan) identityFacts(rv *reviewer) identity {
	id := identity{typ: "Organization", id: s.root() + "#organization", url: s.root(), name: s.siteName(), description: s.describe()}
	if s.home != nil {
		id.lang = line(s.home.Lang)
	}
	e := s.existingIdentity()
	if e != nil {
		id.existing = e
		id.typ = e.Types[0]
		if e.ID != "" {
			id.id = e.ID
		}
		if u := e.String("url"); absoluteHTTP(u) {
			id.url = u
		}
		id.email, id.phone = line(e.String("email")), line(e.String("telephone"))
		for _, v := range e.Strings("sameAs") {
			// A share button declared as sameAs is kept out: the check
			// counts no such link, and the fix should not repeat it.
			if absoluteHTTP(v) && !checks.PlatformAction(v) && !slices.Contains(id.sameAs, v) {
				id.sameAs = append(id.sameAs, v)
			}
		}
	}
	for _, v := range slices.Concat(s.evidenceStrings("sameas_profiles", "same_as"), s.evidenceStrings("sameas_profiles", "profile_links_on_homepage")) {
		if absoluteHTTP(v) && checks.ProfilePlatform(v) != "" && !slices.Contains(id.sameAs, v) {
			id.sameAs = append(id.sameAs, v)
		}
	}
	emails, phones := s.contacts()
	if id.email == "" && len(emails) > 0 {
		id.email = emails[0]
	}
	if id.phone == "" && len(phones) > 0 {
		id.phone = phones[0]
	}
	id.logo = s.logo()
	if id.name == "" {
		id.name = rv.text("the organisation's official name")
	}
	if id.logo == "" {
		id.logo = rv.url("logo.png", "the absolute URL of the logo (a square or wide image, at least 112 pixels)")
	}
	if id.description == "" {
		id.description = rv.text("one or two sentences on what " + id.name + " does")
	}
	platforms := map[string]bool{}
	for _, v := range id.sameAs {
		platforms[checks.ProfilePlatform(v)] = true
	}
	delete(platforms, "")
	for _, want := range []struct{ name, url string }{
		{"LinkedIn", "https://www.linkedin.com/company/REVIEW-company-page"},
		{"Wikidata", "https://www.wikidata.org/wiki/REVIEW-item-id"},
		{"GitHub", "https://github.com/REVIEW-organisation"},
	} {
		if len(platforms) >= 2 {
			break
		}
		if !platforms[want.name] {
			id.sameAs = append(id.sameAs, want.url)
			platforms[want.name] = true
			rv.note(fmt.Sprintf("Replace %s with the organisation's %s page, or remove it if there is none (sameAs must name official profiles only).", want.url, want.name))
		}
	}
	return id
}

// localBusiness reports an identity entity of a local business: one of
// the common LocalBusiness types, or one that states an address or
// opening hours.
func localBusiness(e *jsonld.Entity) bool {
	if e == nil {
		return false
	}
	return e.Is("LocalBusiness", "Restaurant", "FoodEstablishment", "CafeOrCoffeeShop", "Bakery", "BarOrPub", "Store", "ProfessionalService",
		"LegalService", "Attorney", "Dentist", "Physician", "MedicalClinic", "Pharmacy", "HomeAndConstructionBusiness", "Plumber", "Electrician",
		"AutoRepair", "Hotel", "LodgingBusiness", "HealthAndBeautyBusiness", "SportsActivityLocation", "Winery", "Brewery", "RealEstateAgent") ||
		e.Has("openingHours") || e.Has("openingHoursSpecification")
}

// identityNode is the identity entity: the site's own declaration, when
// there is one, with every property it states kept, and what it lacks
// filled from the site or marked for review.
func (s *scan) identityNode(id identity, rv *reviewer) map[string]any {
	org := map[string]any{}
	missing := map[string]bool{"name": true, "url": true, "logo": true, "contact": true}
	if e := id.existing; e != nil {
		for k, v := range e.Props {
			org[k] = storable(v)
		}
		missing = map[string]bool{}
		for _, m := range s.evidenceStrings("organization_entity", "missing") {
			missing[m] = true
		}
		if e.String("description") == "" {
			missing["description"] = true
		}
	} else {
		missing["description"] = true
	}
	org["@type"], org["@id"] = id.typ, id.id
	if missing["name"] {
		org["name"] = id.name
	}
	if missing["url"] {
		org["url"] = id.url
	}
	if missing["logo"] {
		org["logo"] = map[string]any{"@type": "ImageObject", "url": id.logo}
	}
	if missing["description"] {
		org["description"] = id.description
	}
	org["sameAs"] = id.sameAs
	if missing["contact"] {
		contact := map[string]any{"@type": "ContactPoint", "contactType": "customer service"}
		if id.email != "" {
			org["email"], contact["email"] = id.email, id.email
		}
		if id.phone != "" {
			org["telephone"], contact["telephone"] = id.phone, id.phone
		}
		if id.email == "" && id.phone == "" {
			contact["email"] = rv.text("a contact email address")
		}
		org["contactPoint"] = contact
	}
	if localBusiness(id.existing) {
		e := id.existing
		if !e.Has("address") {
			org["address"] = map[string]any{
				"@type": "PostalAddress", "streetAddress": rv.text("street and number"), "addressLocality": rv.text("town or city"),
				"postalCode": rv.text("postal code"), "addressCountry": rv.text("two-letter country code"),
			}
		}
		if !e.Has("telephone") {
			if id.phone != "" {
				org["telephone"] = id.phone
			} else {
				org["telephone"] = rv.text("the phone number, with country code")
			}
		}
		if !e.Has("openingHours") && !e.Has("openingHoursSpecification") {
			org["openingHours"] = rv.text("opening hours, such as Mo-Fr 08:00-18:00")
		}
		if !e.Has("image") && !e.Has("logo") {
			org["image"] = id.logo
		}
	}
	return org
}

// identitySnippet is the site's Organization (or the type it declares)
// and WebSite, linked by @id, checked with the structured data and entity
// checks on a homepage that holds it.
func (s *scan) identitySnippet() *jsonldResult {
	if s.identity != nil {
		return s.identity
	}
	rv := &reviewer{}
	id := s.identityFacts(rv)
	org := s.identityNode(id, rv)
	website := map[string]any{
		"@type": "WebSite", "@id": s.root() + "#website", "name": id.name, "url": s.root(),
		"publisher": map[string]any{"@id": id.id},
	}
	if id.lang != "" {
		website["inLanguage"] = id.lang
	}
	res := &jsonldResult{review: rv.items}
	s.identity = res
	text, err := marshalGraph(org, website)
	if err != nil {
		res.err = err
		return res
	}
	ids := []string{"jsonld_valid", "schema_site_entities", "organization_entity", "sameas_profiles", "schema_required_props"}
	body := "<h1>" + htmlText(id.name) + "</h1>"
	if err := s.run(trial{pageURL: s.homeURL, purpose: fetch.Homepage, lang: id.lang, head: scriptBlock(text), body: body}, ids...); err != nil {
		res.err = err
		return res
	}
	if id.existing != nil {
		res.review = append(res.review, fmt.Sprintf("The site already declares %s %q; the snippet keeps its @id (%s), so replace that declaration with this one (or add the missing properties to it) rather than publishing both.", id.typ, id.name, id.id))
	}
	res.artifact = &Artifact{
		Filename: "organization.jsonld.html", MediaType: "text/html", Kind: Snippet, Location: s.homeURL,
		Content: scriptBlock(text),
		Checked: []string{"Read back with GeoScan's JSON-LD reader: one block, no error.", checkedBy("a copy of the homepage holding it", ids...)},
	}
	return res
}

// storable copies a value of the site's JSON-LD with every string made
// text that is stored and served as is: NUL and bytes that are not UTF-8
// become U+FFFD, as everywhere GeoScan keeps a site's text.
func storable(v any) any {
	switch t := v.(type) {
	case string:
		return strings.ReplaceAll(strings.ToValidUTF8(t, "\uFFFD"), "\x00", "\uFFFD")
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[storable(k).(string)] = storable(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = storable(x)
		}
		return out
	}
	return v
}

// marshalGraph writes nodes as one JSON-LD document with an @graph and
// reads it back with the project's JSON-LD reader.
func marshalGraph(nodes ...map[string]any) (string, error) {
	doc := map[string]any{"@context": "https://schema.org"}
	if len(nodes) == 1 {
		for k, v := range nodes[0] {
			doc[k] = v
		}
	} else {
		graph := make([]any, len(nodes))
		for i, n := range nodes {
			graph[i] = n
		}
		doc["@graph"] = graph
	}
	// json.Marshal escapes <, > and & (and U+2028, U+2029), so no text of
	// the site can end the script element the JSON goes into.
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return "", err
	}
	g := jsonld.Parse([]string{string(b)})
	if g.Valid != 1 || len(g.Errors) > 0 {
		return "", fmt.Errorf("the JSON-LD does not read back: %v", g.Errors)
	}
	return string(b), nil
}

func siteEntitiesFix(s *scan, o checks.Outcome) *Fix {
	if s.home == nil {
		return nil
	}
	res := s.identitySnippet()
	fix := &Fix{PlatformSteps: s.steps(topicSchema)}
	name := s.siteName()
	switch o.Check.ID {
	case "jsonld_valid":
		if errs := s.evidenceStrings("jsonld_valid", "errors"); len(errs) > 0 {
			fix.Cause = MarkupBroken
			for _, e := range errs {
				fix.Edits = append(fix.Edits, "Repair or remove the block that does not parse: "+line(e)+".")
			}
			fix.Summary = Said{
				Engineering: line(o.Result.Summary) + " A block with a syntax error is dropped whole; write JSON-LD with a JSON encoder rather than string templates. The snippet below declares who stands behind the site, checked to parse.",
				Marketing:   "Some of your site's structured data is broken, so machines drop it. Ask your web team to repair it; a correct description of your organisation is attached.",
			}
		} else {
			fix.Cause = MarkupMissing
			fix.Summary = Said{
				Engineering: line(o.Result.Summary) + " Start with the site-wide entities below, filled with what the site states about itself.",
				Marketing:   "Your pages carry no structured data, the machine-readable summary AI engines use to know who you are. A description of " + name + " for your homepage is attached.",
			}
		}
	case "sameas_profiles":
		fix.Cause = MarkupIncomplete
		if o.Result.Status == checks.Fail && s.status("organization_entity") == checks.Fail {
			fix.Cause = MarkupMissing
		}
		fix.Summary = Said{
			Engineering: line(o.Result.Summary) + s.sameAsWords(),
			Marketing:   "AI engines cannot tie " + name + " to its official profiles (LinkedIn, Wikipedia and the like). The attached description lists the profiles your site links to.",
		}
	default:
		fix.Cause = MarkupIncomplete
		if o.Result.Status == checks.Fail {
			fix.Cause = MarkupMissing
		}
		fix.Summary = Said{
			Engineering: line(o.Result.Summary) + " The snippet below declares the site's " + s.identityType() + " and WebSite with the site's own name, address, logo, profiles and contact details.",
			Marketing:   "AI engines look for a clear description of who stands behind a site. The attached description of " + name + " fills in what your site already says about itself.",
		}
	}
	if res.err != nil {
		fix.Notes = append(fix.Notes, "No JSON-LD could be written that passes the project's structured data checks: "+errText(res.err))
	} else {
		fix.Artifact, fix.Review = res.artifact, res.review
	}
	fix.Verify = []Verification{
		{
			Step: Said{
				Engineering: "The homepage's HTML, as served (not after JavaScript), holds the block.",
				Marketing:   "View the source of the homepage in a browser and search for application/ld+json.",
			},
			Command: "curl -sS " + shellQuote(s.homeURL) + " | grep -c 'application/ld+json'",
		},
		rerun(o.Check.ID),
	}
	return fix
}

// sameAsWords says what the snippet's sameAs holds: the profiles the site
// names, or placeholders when it names none the scan could see.
func (s *scan) sameAsWords() string {
	var real []string
	for _, v := range slices.Concat(s.evidenceStrings("sameas_profiles", "same_as"), s.evidenceStrings("sameas_profiles", "profile_links_on_homepage")) {
		if p := checks.ProfilePlatform(v); p != "" && !slices.Contains(real, p) {
			real = append(real, p)
		}
	}
	if len(real) == 0 {
		return " The site links to no profile the scan could see, so the snippet's sameAs holds placeholders to replace with the official profiles."
	}
	return " The snippet's sameAs lists the profiles the site names (" + strings.Join(real, ", ") + ")."
}

func (s *scan) identityType() string {
	if e := s.existingIdentity(); e != nil {
		return e.Types[0]
	}
	return "Organization"
}

// pageGraph is JSON-LD for one page: the nodes it lacks.
type pageNeeds struct {
	article, product, offer, breadcrumb bool
}

func (n pageNeeds) any() bool { return n.article || n.product || n.offer || n.breadcrumb }

func pageTypeFix(s *scan, o checks.Outcome) *Fix {
	for _, row := range s.evidenceRows(o.Check.ID, "pages") {
		missing := rowStrings(row, "missing")
		if len(missing) == 0 {
			continue
		}
		u, _ := row["url"].(string)
		p := s.pageAt(u)
		if p == nil {
			continue
		}
		var need pageNeeds
		for _, m := range missing {
			switch {
			case strings.HasPrefix(m, "Article"):
				need.article = true
			case strings.HasPrefix(m, "Product"):
				need.product = true
			case strings.HasPrefix(m, "Offer"):
				need.offer = true
			case m == "BreadcrumbList":
				need.breadcrumb = true
			}
		}
		if !need.any() {
			continue
		}
		purpose := fetch.Purpose(fmt.Sprint(row["page_type"]))
		fix := &Fix{
			Cause:         MarkupMissing,
			PlatformSteps: s.steps(topicSchema),
			Summary: Said{
				Engineering: line(o.Result.Summary) + fmt.Sprintf(" The snippet below adds %s to %s, filled from the page itself; emit the same from the template of every page of its kind.", andList(missing), p.URL),
				Marketing:   "Some pages do not say in machine-readable form what kind of page they are. The attached markup for " + p.URL.String() + " is a model for every page of its kind.",
			},
			Verify: []Verification{
				{Step: Said{Engineering: "The page's HTML, as served, holds the block.", Marketing: "View the page's source in a browser and search for application/ld+json."}, Command: "curl -sS " + shellQuote(p.URL.String()) + " | grep -c 'application/ld+json'"},
				rerun(o.Check.ID),
			},
		}
		res := s.pageSnippet(p, purpose, need, "schema_page_type_match", "jsonld_valid")
		if res.err != nil {
			fix.Notes = append(fix.Notes, "No JSON-LD could be written that passes the project's structured data checks: "+errText(res.err))
		} else {
			fix.Artifact, fix.Review = res.artifact, res.review
		}
		if need.offer && !need.product {
			fix.Review = append(fix.Review, "The page already declares a Product: move the offers of the snippet into it rather than publishing a second Product.")
		}
		return fix
	}
	return nil
}

func requiredPropsFix(s *scan, o checks.Outcome) *Fix {
	rows := s.evidenceRows(o.Check.ID, "missing")
	if len(rows) == 0 {
		return nil
	}
	fix := &Fix{
		Cause:         MarkupIncomplete,
		PlatformSteps: s.steps(topicSchema),
		Summary: Said{
			Engineering: line(o.Result.Summary),
			Marketing:   "Some of your structured data leaves out facts engines look for first, such as the author, the date, the logo or the price.",
		},
		Verify: []Verification{rerun(o.Check.ID)},
	}
	for i, row := range rows {
		if i == 10 {
			break
		}
		u, _ := row["url"].(string)
		fix.Edits = append(fix.Edits, fmt.Sprintf("%s on %s: add %s.", line(fmt.Sprint(row["entity"])), u, andList(rowStrings(row, "missing"))))
	}
	for _, row := range rows {
		typ, _ := row["type"].(string)
		u, _ := row["url"].(string)
		var res *jsonldResult
		switch typ {
		case "Organization", "LocalBusiness", "WebSite", "Person":
			if s.home == nil {
				continue
			}
			res = s.identitySnippet()
		case "Article", "Product", "Offer":
			p := s.pageAt(u)
			if p == nil {
				continue
			}
			purpose := fetch.Article
			need := pageNeeds{article: true}
			if typ != "Article" {
				purpose, need = fetch.Product, pageNeeds{product: true}
			}
			res = s.pageSnippet(p, purpose, need, "schema_required_props", "jsonld_valid")
		default:
			continue
		}
		if res.err != nil {
			fix.Notes = append(fix.Notes, "No JSON-LD could be written that passes the project's structured data checks: "+errText(res.err))
			break
		}
		fix.Artifact, fix.Review = res.artifact, res.review
		fix.Summary.Engineering += fmt.Sprintf(" The snippet below is a complete %s for %s, filled from the page; merge it into the existing one (same @id) rather than publishing both.", typ, u)
		fix.Summary.Marketing += " A completed version of the first incomplete description is attached."
		break
	}
	return fix
}

// pageSnippet writes the JSON-LD a page lacks and checks it, together
// with the page's own blocks, with the given checks.
func (s *scan) pageSnippet(p *page.Page, purpose fetch.Purpose, need pageNeeds, ids ...string) *jsonldResult {
	rv := &reviewer{}
	u := p.URL.String()
	var nodes []map[string]any
	orgRef := map[string]any{"@id": s.root() + "#organization"}
	if e := s.existingIdentity(); e != nil && e.ID != "" {
		orgRef = map[string]any{"@id": e.ID}
	}
	headline := nonEmpty(firstH1(p), line(p.MetaContent("og:title")), titleParts(p.Title)[0])
	if headline == "" {
		headline = rv.text("the page's headline")
	}
	headline = clip(headline, 110)
	image := firstImage(p)
	if image == "" {
		image = rv.url("image.jpg", "the absolute URL of the page's main image")
	}
	if need.article {
		art := map[string]any{
			"@type": "Article", "@id": u + "#article", "headline": headline, "mainEntityOfPage": u,
			"image": image, "publisher": orgRef,
		}
		if d := line(p.MetaContent("description")); d != "" {
			art["description"] = clip(d, 300)
		}
		published := nonEmpty(line(p.MetaContent("article:published_time")), firstOf(p.TimeValues))
		if published == "" {
			published = rv.text("the date first published, as YYYY-MM-DD")
		}
		art["datePublished"] = published
		modified := nonEmpty(line(p.MetaContent("article:modified_time")), line(p.MetaContent("og:updated_time")))
		if modified == "" {
			modified = rv.text("the date last changed, as YYYY-MM-DD")
		}
		art["dateModified"] = modified
		author := line(p.Byline())
		if author == "" {
			author = rv.text("the author's name")
		}
		art["author"] = map[string]any{"@type": "Person", "name": clip(author, 100)}
		if p.Lang != "" {
			art["inLanguage"] = line(p.Lang)
		}
		nodes = append(nodes, art)
	}
	if need.product || need.offer {
		prod := map[string]any{
			"@type": "Product", "@id": u + "#product", "name": headline, "image": image,
			"brand": map[string]any{"@type": "Brand", "name": s.siteName()},
		}
		if d := line(nonEmpty(p.MetaContent("description"), p.MetaContent("og:description"))); d != "" {
			prod["description"] = clip(d, 300)
		} else {
			prod["description"] = rv.text("a sentence describing the product")
		}
		offer := map[string]any{"@type": "Offer", "url": u}
		price := line(nonEmpty(p.MetaContent("product:price:amount"), p.MetaContent("og:price:amount")))
		if price == "" {
			price = rv.text("the price, as a number such as 19.00")
		}
		offer["price"] = price
		currency := line(nonEmpty(p.MetaContent("product:price:currency"), p.MetaContent("og:price:currency")))
		if currency == "" {
			currency = rv.text("the ISO 4217 currency code, such as EUR")
		}
		offer["priceCurrency"] = currency
		switch strings.ToLower(line(nonEmpty(p.MetaContent("product:availability"), p.MetaContent("og:availability")))) {
		case "instock", "in stock", "in_stock":
			offer["availability"] = "https://schema.org/InStock"
		case "oos", "out of stock", "outofstock", "out_of_stock":
			offer["availability"] = "https://schema.org/OutOfStock"
		default:
			offer["availability"] = rv.url("availability", "https://schema.org/InStock, OutOfStock or PreOrder")
		}
		prod["offers"] = offer
		rv.note("If the page sells a service or software rather than a product, use Service or SoftwareApplication (with applicationCategory) as the type instead.")
		nodes = append(nodes, prod)
	}
	if need.breadcrumb {
		nodes = append(nodes, map[string]any{
			"@type": "BreadcrumbList", "@id": u + "#breadcrumb",
			"itemListElement": []any{
				map[string]any{"@type": "ListItem", "position": 1, "name": "Home", "item": s.root()},
				map[string]any{"@type": "ListItem", "position": 2, "name": headline, "item": u},
			},
		})
		rv.note("The breadcrumb goes from the homepage straight to the page; add the levels in between as the site's navigation shows them.")
	}
	res := &jsonldResult{review: rv.items}
	text, err := marshalGraph(nodes...)
	if err != nil {
		res.err = err
		return res
	}
	t := trial{pageURL: u, purpose: purpose, lang: line(p.Lang), head: existingBlocks(p) + scriptBlock(text), body: "<h1>" + htmlText(headline) + "</h1>"}
	if err := s.run(t, ids...); err != nil {
		res.err = err
		return res
	}
	name := "page.jsonld.html"
	switch {
	case need.article:
		name = "article.jsonld.html"
	case need.product || need.offer:
		name = "product.jsonld.html"
	case need.breadcrumb:
		name = "breadcrumb.jsonld.html"
	}
	res.artifact = &Artifact{
		Filename: name, MediaType: "text/html", Kind: Snippet, Location: u, Content: scriptBlock(text),
		Checked: []string{"Read back with GeoScan's JSON-LD reader: one block, no error.", checkedBy("a copy of the page holding it with the page's own JSON-LD", ids...)},
	}
	return res
}

func firstH1(p *page.Page) string {
	for _, h := range p.H1s() {
		if h = line(h); h != "" {
			return h
		}
	}
	return ""
}

func firstImage(p *page.Page) string {
	if v := p.MetaContent("og:image"); absoluteHTTP(p.Resolve(v)) && v != "" {
		return p.Resolve(v)
	}
	for _, img := range p.Images {
		if absoluteHTTP(img.Src) {
			return img.Src
		}
	}
	return ""
}

func firstOf(list []string) string {
	for _, v := range list {
		if v = line(v); v != "" {
			return v
		}
	}
	return ""
}
