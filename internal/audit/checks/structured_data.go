package checks

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The structured_data pillar: do the pages tell machines, in schema.org
// terms, who stands behind them and what each page is? JSON-LD validity,
// site entities, page-type schema, required properties, the @id graph and
// its match with the visible text. Every check but JSON-LD validity reads
// the page's one graph of JSON-LD, microdata and RDFa, and says which
// syntax declared what it found.
const pillarStructuredData = "structured_data"

// structuredDataChecks returns the pillar's checks in report order.
func structuredDataChecks() []*Check {
	return []*Check{
		jsonldValidCheck(),
		schemaSiteEntitiesCheck(),
		schemaPageTypeMatchCheck(),
		schemaRequiredPropsCheck(),
		schemaLinkedGraphCheck(),
		schemaVisibleMatchCheck(),
	}
}

func jsonldValidCheck() *Check {
	return &Check{
		ID: "jsonld_valid", Ring: scoring.RingVisibility, Pillar: pillarStructuredData, Weight: 5, Effort: Medium,
		Marketing: Text{
			Title: "Structured data that machines can read",
			Why:   "Structured data is a machine-readable summary of who you are and what each page offers; when it is missing or broken, engines have to guess.",
			Fix:   "Enable structured data in your SEO plugin or CMS and repair any markup the validator reports as broken.",
		},
		Engineering: Text{
			Title: "Valid JSON-LD",
			Why:   "JSON-LD in <script type=application/ld+json> is the format search and answer engines parse most reliably; a block with a syntax error is dropped entirely.",
			Fix:   "Emit schema.org JSON-LD (one @graph per page works well), serialise it with a JSON encoder instead of string templates, and validate with the Schema Markup Validator.",
		},
		Eval: withRendering(evalJSONLDValid, jsonldRendered),
	}
}

func evalJSONLDValid(in *Input) Result {
	pages := everyPage(in)
	if len(pages) == 0 {
		return na(naNoHome, ev())
	}
	blocks, valid, empty, micro, rdfa := 0, 0, 0, 0, 0
	var errs, types, quirks, kinds []string
	for _, p := range pages {
		m, r := p.StructuredMarkup()
		micro += m
		rdfa += r
		g := graphOf(p)
		if g == nil {
			continue
		}
		blocks += g.Blocks
		valid += g.Valid
		empty += g.Empty
		for _, err := range g.Errors {
			errs = append(errs, addressOf(p)+": "+err)
		}
		for _, q := range g.Quirks {
			quirks = append(quirks, addressOf(p)+": "+q)
			if _, kind, ok := strings.Cut(q, ": "); ok && !slices.Contains(kinds, kind) {
				kinds = append(kinds, kind)
			}
		}
		for _, t := range g.TypesIn(jsonld.JSONLD) {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	e := ev("pages", len(pages), "blocks", blocks, "valid_blocks", valid, "empty_blocks", empty, "errors", nonNil(firstN(errs, 10)),
		"quirks", nonNil(firstN(quirks, 10)), "types", nonNil(types), "microdata_items", micro, "rdfa_nodes", rdfa)
	// Empty blocks are skipped by every consumer: neither valid nor broken.
	filled := blocks - empty
	unusual := ""
	if len(kinds) > 0 {
		unusual = fmt.Sprintf("; read past as search engines do, though strict validators may not: %s", strings.Join(kinds, ", "))
	}
	switch {
	case filled == 0 && micro+rdfa > 0:
		return warn(fmt.Sprintf("There is no JSON-LD on %s, only %s, which fewer consumers read reliably.", theN(len(pages), "page", "pages"), markupCounts(micro, rdfa)), e)
	case filled == 0 && empty > 0:
		return fail(fmt.Sprintf("The only JSON-LD on %s is %s, and there is no microdata or RDFa.", theN(len(pages), "page", "pages"), plural(empty, "empty script block", "empty script blocks")), e)
	case filled == 0:
		return fail(fmt.Sprintf("There is no JSON-LD, microdata or RDFa on %s.", theN(len(pages), "page", "pages")), e)
	case valid == 0:
		return fail(fmt.Sprintf("No JSON-LD block parses (%d found).", filled), e)
	case len(errs) > 0:
		return warn(fmt.Sprintf("%s; %d %s broken%s.", ofTotal(valid, filled, "JSON-LD block parses", "JSON-LD blocks parse"), filled-valid, map[bool]string{true: "is", false: "are"}[filled-valid == 1], unusual), e)
	}
	return pass(fmt.Sprintf("JSON-LD parses without errors in %s, declaring %s%s.", plural(valid, "block", "blocks"), strings.Join(firstN(types, 8), ", "), unusual), e)
}

// jsonldRendered revises the JSON-LD finding by the rendered page: JSON-LD
// that only JavaScript adds is invisible to crawlers that run none.
func jsonldRendered(r *Result, d *render.Diff) {
	r.Evidence["raw_jsonld_blocks"] = d.JSONLD.Raw
	r.Evidence["rendered_jsonld_blocks"] = d.JSONLD.Rendered
	r.Evidence["raw_types"] = nonNil(d.RawTypes)
	r.Evidence["rendered_types"] = nonNil(d.RenderedTypes)
	r.Evidence["jsonld_only_rendered"] = nonNil(d.TypesOnlyRendered)
	if !d.JSONLDOnlyRendered() {
		return
	}
	what := "JSON-LD"
	if len(d.TypesOnlyRendered) > 0 {
		what = "the " + andList(firstN(d.TypesOnlyRendered, 4)) + " JSON-LD"
	}
	r.Summary += fmt.Sprintf(" In a browser, %s appears only after JavaScript, where crawlers that run no JavaScript do not see it.", what)
	atLeastWarn(r)
}

// markupCounts says how much microdata and RDFa there is: "microdata (3
// items)", "microdata (1 item) and RDFa (2 items)".
func markupCounts(micro, rdfa int) string {
	var parts []string
	if micro > 0 {
		parts = append(parts, fmt.Sprintf("microdata (%s)", plural(micro, "item", "items")))
	}
	if rdfa > 0 {
		parts = append(parts, fmt.Sprintf("RDFa (%s)", plural(rdfa, "item", "items")))
	}
	return strings.Join(parts, " and ")
}

// inSyntax is " (in microdata)": where a finding was declared, for a
// summary; "" when unknown.
func inSyntax(s jsonld.Syntax) string {
	if s == 0 {
		return ""
	}
	return " (in " + s.String() + ")"
}

// declaredPair names two declared types with their syntaxes, once when
// both share them: "WebSite and Organization (in microdata)",
// "WebSite (in JSON-LD) and Organization (in microdata)".
func declaredPair(a string, as jsonld.Syntax, b string, bs jsonld.Syntax) string {
	if as == bs {
		return a + " and " + b + inSyntax(as)
	}
	return a + inSyntax(as) + " and " + b + inSyntax(bs)
}

// syntaxOf is the set of syntaxes that declare the entities.
func syntaxOf(es []*jsonld.Entity) jsonld.Syntax {
	var s jsonld.Syntax
	for _, e := range es {
		s |= e.Syntax
	}
	return s
}

func schemaSiteEntitiesCheck() *Check {
	return &Check{
		ID: "schema_site_entities", Ring: scoring.RingVisibility, Pillar: pillarStructuredData, Weight: 5, Effort: Low,
		Marketing: Text{
			Title: "Your site and organisation are described",
			Why:   "Describing your website and your organisation on the homepage tells AI engines exactly which company or person stands behind the site.",
			Fix:   "Turn on the \"site\" and \"organisation\" (or \"person\") settings of your SEO plugin, filling in name, logo and social profiles.",
		},
		Engineering: Text{
			Title: "WebSite and Organization/Person entities on the homepage",
			Why:   "WebSite plus Organization (or LocalBusiness/Person) is the entity anchor engines attach every other page to and reconcile with their knowledge graph.",
			Fix:   "Add WebSite {name, url} and Organization {name, url, logo, sameAs} (or Person) JSON-LD to the homepage, linked by @id (WebSite.publisher → Organization); microdata or RDFa of the same types count too.",
		},
		Eval: evalSiteEntities,
	}
}

func evalSiteEntities(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	g := graphOf(h)
	var types []string
	website, identity := false, ""
	var websiteIn, identityIn jsonld.Syntax
	if g != nil {
		types = g.Types()
		website = g.Has("WebSite")
		websiteIn = g.DeclaredIn("WebSite")
		if ids := g.OfType(identityTypes...); len(ids) > 0 {
			identity = ids[0].Types[0]
			identityIn = syntaxOf(ids)
		}
	}
	var elsewhere []string
	for _, p := range sitePages(in, fetch.About, fetch.Contact) {
		if g := graphOf(p); g != nil && g.Has(identityTypes...) {
			elsewhere = append(elsewhere, addressOf(p))
		}
	}
	var unread []string
	if g != nil {
		unread = g.Cut
	}
	e := ev("homepage_types", nonNil(types), "website", website, "website_syntax", nonNil(websiteIn.Names()),
		"identity_type", identity, "identity_syntax", nonNil(identityIn.Names()), "identity_on_other_pages", nonNil(elsewhere),
		"markup_unread", nonNil(unread))
	// What is missing may lie in markup beyond the reading limits.
	partly := ""
	if len(unread) > 0 {
		partly = ", as far as its markup could be read (" + unread[0] + " left unread)"
	}
	switch {
	case website && identity != "":
		return pass(fmt.Sprintf("The homepage declares %s.", declaredPair("WebSite", websiteIn, identity, identityIn)), e)
	case website:
		return warn(fmt.Sprintf("The homepage declares WebSite%s but no Organization, LocalBusiness or Person%s.", inSyntax(websiteIn), partly), e)
	case identity != "":
		return warn(fmt.Sprintf("The homepage declares %s%s but no WebSite%s.", identity, inSyntax(identityIn), partly), e)
	}
	return fail(fmt.Sprintf("The homepage declares neither WebSite nor an Organization, LocalBusiness or Person, in JSON-LD, microdata or RDFa%s.", partly), e)
}

func schemaPageTypeMatchCheck() *Check {
	return &Check{
		ID: "schema_page_type_match", Ring: scoring.RingVisibility, Pillar: pillarStructuredData, Weight: 3, Effort: Medium,
		Marketing: Text{
			Title: "Each page says what kind of page it is",
			Why:   "Labelling articles as articles and products as products (with their price) lets AI engines present your pages correctly and with the right details.",
			Fix:   "Make sure blog posts carry article markup, product or service pages carry product or service markup with offers, and inner pages carry breadcrumbs.",
		},
		Engineering: Text{
			Title: "Schema type matches the page type",
			Why:   "Engines rely on the declared type to extract the right fields: Article (headline, author, dates) for posts, Product + Offer for product pages, BreadcrumbList for site hierarchy.",
			Fix:   "Emit Article/BlogPosting on posts, Product with offers (or Service/SoftwareApplication) on product pages and BreadcrumbList on inner pages; FAQPage and HowTo are optional and bring no Google rich results.",
		},
		Eval: evalPageTypeMatch,
	}
}

func evalPageTypeMatch(in *Input) Result {
	type expect struct {
		purpose fetch.Purpose
		pages   []*page.Page
	}
	groups := []expect{{fetch.Article, articlePages(in)}, {fetch.Product, sitePages(in, fetch.Product)}}
	var rows []map[string]any
	judged, matched := 0, 0
	for _, gr := range groups {
		for _, p := range gr.pages {
			g := graphOf(p)
			var types, missing []string
			if g != nil {
				types = g.Types()
			}
			has := func(ts ...string) bool { return g != nil && g.Has(ts...) }
			switch gr.purpose {
			case fetch.Article:
				if !has(articleTypes...) {
					missing = append(missing, "Article (or BlogPosting/NewsArticle)")
				}
			case fetch.Product:
				if !has(productTypes...) {
					missing = append(missing, "Product, Service or SoftwareApplication")
				} else if has("Product", "SoftwareApplication", "WebApplication", "MobileApplication") && !hasOffer(g) {
					missing = append(missing, "Offer (offers with price)")
				}
			}
			if !has("BreadcrumbList") {
				missing = append(missing, "BreadcrumbList")
			}
			judged++
			if len(missing) == 0 {
				matched++
			}
			var syntax jsonld.Syntax
			if g != nil {
				syntax = syntaxOf(g.Entities)
			}
			rows = append(rows, map[string]any{"url": addressOf(p), "page_type": string(gr.purpose), "types": nonNil(types), "syntax": nonNil(syntax.Names()), "missing": nonNil(missing)})
		}
	}
	notes := faqHowToNotes(in)
	if judged == 0 {
		return na("No article or product page was fetched, so page types cannot be compared with their markup.", ev("notes", nonNil(notes)))
	}
	e := ev("pages", rows, "notes", nonNil(notes))
	if matched == judged {
		return pass(fmt.Sprintf("The markup declares the expected schema type and breadcrumbs on %s.", allOf(judged, "article or product page", "article and product pages")), e)
	}
	i := slices.IndexFunc(rows, func(r map[string]any) bool { return len(r["missing"].([]string)) > 0 })
	first := fmt.Sprintf("%s lacks %s", rows[i]["url"], andList(rows[i]["missing"].([]string)))
	if judged-matched > 1 {
		first = "e.g. " + first
	}
	return warn(fmt.Sprintf("%s the expected schema type and breadcrumbs; %s.", ofTotal(matched, judged, "article or product page declares", "article and product pages declare"), first), e)
}

func hasOffer(g *jsonld.Graph) bool {
	if g == nil {
		return false
	}
	if g.Has("Offer", "AggregateOffer") {
		return true
	}
	for _, e := range g.OfType("Product", "SoftwareApplication", "WebApplication", "MobileApplication") {
		if e.Has("offers") {
			return true
		}
	}
	return false
}

// faqHowToNotes reports FAQPage and HowTo markup as information only:
// both remain valid schema.org, but Google shows no rich results for them
// any more, so they are never recommended for that.
func faqHowToNotes(in *Input) []string {
	var notes []string
	for _, p := range everyPage(in) {
		g := graphOf(p)
		if g == nil {
			continue
		}
		for _, t := range []string{"FAQPage", "HowTo"} {
			if g.Has(t) {
				notes = append(notes, fmt.Sprintf("%s found on %s: valid schema.org that describes the content; Google no longer shows rich results for it.", t, addressOf(p)))
			}
		}
	}
	return notes
}

func schemaRequiredPropsCheck() *Check {
	return &Check{
		ID: "schema_required_props", Ring: scoring.RingVisibility, Pillar: pillarStructuredData, Weight: 3, Effort: Medium,
		Marketing: Text{
			Title: "Structured data is complete",
			Why:   "Half-filled structured data leaves out the facts engines look for first, such as the author, the date, the logo or the price.",
			Fix:   "Fill in the missing fields listed in the evidence (for example author, publish date, logo or price) in your CMS or SEO plugin.",
		},
		Engineering: Text{
			Title: "Required and recommended schema properties",
			Why:   "Each schema.org type has properties consumers depend on (Article.author/datePublished, Organization.logo/sameAs, Offer.price/priceCurrency); missing ones make the entity unusable for those facts.",
			Fix:   "Add the missing properties listed per type in the evidence; reference shared entities by @id instead of repeating them.",
		},
		Eval: evalRequiredProps,
	}
}

// propSlot is one expected property; any of the names satisfies it.
type propSlot []string

// propRule lists what a type family needs: required slots are checked on
// every node, recommended ones only on top-level nodes (a nested
// publisher stub is a reference, not the organisation's declaration).
type propRule struct {
	family      string
	types       []string
	required    []propSlot
	recommended []propSlot
}

var propRules = []propRule{
	{"LocalBusiness", localBusinessTypes, []propSlot{{"name"}, {"address"}}, []propSlot{{"telephone"}, {"url"}, {"image", "logo"}, {"openingHoursSpecification", "openingHours"}}},
	{"Organization", organizationTypes, []propSlot{{"name"}}, []propSlot{{"url"}, {"logo"}, {"sameAs"}, {"contactPoint", "address", "email", "telephone"}}},
	{"WebSite", []string{"WebSite"}, []propSlot{{"name"}, {"url"}}, nil},
	{"Article", articleTypes, []propSlot{{"headline", "name"}}, []propSlot{{"author"}, {"datePublished"}, {"dateModified"}, {"image"}, {"publisher"}}},
	{"Product", []string{"Product", "ProductGroup", "IndividualProduct", "ProductModel"}, []propSlot{{"name"}, {"offers", "review", "aggregateRating"}}, []propSlot{{"image"}, {"description"}, {"brand"}}},
	{"SoftwareApplication", []string{"SoftwareApplication", "WebApplication", "MobileApplication"}, []propSlot{{"name"}}, []propSlot{{"offers"}, {"applicationCategory", "operatingSystem"}}},
	{"Offer", []string{"Offer"}, []propSlot{{"price", "priceSpecification"}, {"priceCurrency", "priceSpecification"}}, []propSlot{{"availability"}}},
	{"AggregateOffer", []string{"AggregateOffer"}, []propSlot{{"lowPrice"}, {"priceCurrency"}}, nil},
	{"Person", []string{"Person"}, []propSlot{{"name"}}, []propSlot{{"url", "sameAs"}}},
	{"BreadcrumbList", []string{"BreadcrumbList"}, []propSlot{{"itemListElement"}}, nil},
	{"FAQPage", []string{"FAQPage"}, []propSlot{{"mainEntity"}}, nil},
	{"Event", []string{"Event", "BusinessEvent", "EducationEvent", "MusicEvent"}, []propSlot{{"name"}, {"startDate"}, {"location"}}, []propSlot{{"endDate"}, {"offers"}, {"image"}}},
	{"VideoObject", []string{"VideoObject"}, []propSlot{{"name"}, {"thumbnailUrl"}, {"uploadDate"}}, []propSlot{{"description"}, {"contentUrl", "embedUrl"}}},
}

func ruleFor(e *jsonld.Entity) *propRule {
	for i := range propRules {
		if e.Is(propRules[i].types...) {
			return &propRules[i]
		}
	}
	return nil
}

func evalRequiredProps(in *Input) Result {
	present, expected, entities := 0, 0, 0
	var syntax jsonld.Syntax
	var rows []map[string]any
	// Site-wide nodes (the Organization, the WebSite) repeat on every page
	// under one @id; they are judged once.
	judged := map[string]bool{}
	for _, p := range everyPage(in) {
		g := graphOf(p)
		if g == nil {
			continue
		}
		for _, e := range g.Entities {
			rule := ruleFor(e)
			if rule == nil || (e.ID != "" && judged[e.ID]) {
				continue
			}
			if e.ID != "" {
				judged[e.ID] = true
			}
			slots := rule.required
			if !e.Nested {
				slots = slices.Concat(rule.required, rule.recommended)
			}
			entities++
			syntax |= e.Syntax
			var missing []string
			for _, slot := range slots {
				expected++
				if slices.ContainsFunc(slot, e.Has) {
					present++
					continue
				}
				missing = append(missing, strings.Join(slot, " or "))
			}
			if len(missing) > 0 {
				rows = append(rows, map[string]any{"url": addressOf(p), "type": rule.family, "entity": e.Label(), "syntax": nonNil(e.Syntax.Names()), "missing": missing})
			}
		}
	}
	if entities == 0 {
		return na("No schema.org entity of a type with known required properties was found.", ev())
	}
	pct := percent(present, expected)
	e := ev("entities", entities, "syntax", nonNil(syntax.Names()), "properties_expected", expected, "properties_present", present, "completeness_pct", pct, "missing", firstN(rows, 20))
	complete := fmt.Sprintf("%d of them complete", entities-len(rows))
	if entities == 1 {
		complete = map[bool]string{true: "which is complete", false: "which is incomplete"}[len(rows) == 0]
	}
	where := ""
	if syntax != 0 {
		where = " in " + syntax.String()
	}
	s := fmt.Sprintf("%s present across %s%s (%.0f%%), %s.", ofTotal(present, expected, "expected property is", "expected properties are"), plural(entities, "schema entity", "schema entities"), where, pct, complete)
	return byThreshold(pct, 90, 60, s, e)
}

func schemaLinkedGraphCheck() *Check {
	return &Check{
		ID: "schema_linked_graph", Ring: scoring.RingVisibility, Pillar: pillarStructuredData, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "Structured data is connected",
			Why:   "When the article, the page, the site and the company are linked together in the markup, AI engines know they all belong to you.",
			Fix:   "Use one SEO plugin that outputs connected markup instead of several tools each adding their own separate piece.",
		},
		Engineering: Text{
			Title: "Entities linked by @id",
			Why:   "@id references (publisher, author, isPartOf, mainEntityOfPage) join separate nodes into one graph; disconnected nodes are separate claims an engine cannot attribute to the same publisher.",
			Fix:   "Give each node an @id (e.g. https://example.com/#organization) and reference it from the others: WebPage.isPartOf → WebSite, Article.publisher → Organization, Article.author → Person.",
		},
		Eval: evalLinkedGraph,
	}
}

func evalLinkedGraph(in *Input) Result {
	var rows []map[string]any
	pagesWithEntities, split := 0, 0
	edges := 0
	for _, p := range everyPage(in) {
		g := graphOf(p)
		top := g.TopLevel()
		if len(top) == 0 {
			continue
		}
		pagesWithEntities++
		edges += g.Edges()
		islands := g.Islands()
		var labels []string
		for _, isl := range islands {
			var names []string
			for _, e := range isl {
				names = append(names, e.Label())
			}
			labels = append(labels, strings.Join(names, " + "))
		}
		if len(islands) > 1 {
			split++
		}
		rows = append(rows, map[string]any{"url": addressOf(p), "entities": len(top), "syntax": nonNil(syntaxOf(top).Names()), "islands": len(islands), "groups": firstN(labels, 10)})
	}
	if pagesWithEntities == 0 {
		return na("No page declares schema.org entities, so there is no graph to link.", ev())
	}
	e := ev("pages", rows, "id_edges", edges)
	if split == 0 {
		return pass(fmt.Sprintf("The schema.org entities form one connected graph on %s.", allOf(pagesWithEntities, "page", "pages")), e)
	}
	return warn(fmt.Sprintf("On %s the schema.org entities form separate, unlinked groups.", ofTotal(split, pagesWithEntities, "page", "pages")), e)
}

func schemaVisibleMatchCheck() *Check {
	return &Check{
		ID: "schema_visible_match", Ring: scoring.RingVisibility, Pillar: pillarStructuredData, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "Structured data matches the page",
			Why:   "Engines trust markup only when it says the same as the visible page; a different headline, author or price looks like manipulation.",
			Fix:   "Make sure the headline, author names, product names, prices and FAQ questions in your markup are the ones visitors see on the page.",
		},
		Engineering: Text{
			Title: "Schema values visible on the page",
			Why:   "Google and answer engines require structured data to describe visible content; values absent from the rendered text are ignored or treated as spam signals.",
			Fix:   "Generate JSON-LD from the same fields the template renders (headline, author.name, offers.price, Question.name) so markup and visible HTML cannot drift apart.",
		},
		Eval: evalVisibleMatch,
	}
}

func evalVisibleMatch(in *Input) Result {
	var mismatches []map[string]any
	checked := 0
	for _, p := range everyPage(in) {
		g := graphOf(p)
		if g == nil || len(g.Entities) == 0 {
			continue
		}
		visible := tokenSet(p.Title, p.Text)
		numbers := visibleNumbers(p.Text)
		check := func(e *jsonld.Entity, kind, value string, ok bool) {
			checked++
			if !ok {
				mismatches = append(mismatches, map[string]any{"url": addressOf(p), "field": kind, "schema_value": excerpt(value, 120), "syntax": nonNil(e.Syntax.Names())})
			}
		}
		for _, e := range g.OfType(articleTypes...) {
			if hl := e.String("headline"); hl != "" {
				check(e, "headline", hl, tokenCoverage(hl, visible) >= 0.8)
			}
			for _, name := range authorNames(g, e) {
				check(e, "author", name, tokenCoverage(name, visible) >= 0.8)
			}
		}
		for _, e := range g.OfType("Product", "ProductGroup", "Event") {
			if n := e.String("name"); n != "" {
				check(e, "name", n, tokenCoverage(n, visible) >= 0.8)
			}
		}
		for _, e := range g.OfType("Offer") {
			if price, err := strconv.ParseFloat(strings.TrimSpace(e.String("price")), 64); err == nil && price > 0 {
				check(e, "price", e.String("price"), numbers[math.Round(price*100)])
			}
		}
		for _, e := range g.OfType("FAQPage") {
			for _, q := range firstN(questionNames(e), 5) {
				check(e, "FAQ question", q, tokenCoverage(q, visible) >= 0.8)
			}
		}
	}
	if checked == 0 {
		return na("No headline, author, product name, price or FAQ question in the markup to compare with the visible text.", ev())
	}
	share := float64(len(mismatches)) / float64(checked)
	e := ev("values_checked", checked, "mismatches", len(mismatches), "not_visible", firstN(mismatches, 15))
	notVisible := ofTotal(len(mismatches), checked, "value taken from the markup does not appear", "values taken from the markup do not appear") + " in the visible text."
	switch {
	case len(mismatches) == 0:
		return pass(fmt.Sprintf("Every value taken from the markup (%d) appears in the visible text.", checked), e)
	case share <= 0.5:
		return warn(notVisible, e)
	}
	return fail(notVisible, e)
}

// authorNames resolves an entity's authors: inline names, @id references
// to declared Person or Organization nodes, or plain strings.
func authorNames(g *jsonld.Graph, e *jsonld.Entity) []string {
	var out []string
	var add func(v any)
	add = func(v any) {
		switch t := v.(type) {
		case string:
			if s := strings.TrimSpace(t); s != "" && !strings.HasPrefix(s, "http") {
				out = append(out, s)
			}
		case []any:
			for _, x := range t {
				add(x)
			}
		case map[string]any:
			if n := jsonld.Field(t, "name"); n != "" {
				out = append(out, n)
				return
			}
			if id, ok := t["@id"].(string); ok {
				if target := g.ByID(id); target != nil && target.String("name") != "" {
					out = append(out, target.String("name"))
				}
			}
		}
	}
	add(e.Props["author"])
	return out
}

func questionNames(faq *jsonld.Entity) []string {
	var out []string
	list, _ := faq.Props["mainEntity"].([]any)
	if m := faq.Object("mainEntity"); m != nil && list == nil {
		list = []any{m}
	}
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			if n := jsonld.Field(m, "name"); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// visibleNumbers collects the numbers of a text in cents, reading each
// token both with a decimal point and with a decimal comma so "1,299.00"
// and "1.299,00" both yield 129900.
func visibleNumbers(text string) map[float64]bool {
	out := map[float64]bool{}
	for _, tok := range numberRE.FindAllString(text, -1) {
		tok = strings.TrimSuffix(tok, "%")
		if v, err := strconv.ParseFloat(strings.ReplaceAll(tok, ",", ""), 64); err == nil {
			out[math.Round(v*100)] = true
		}
		if v, err := strconv.ParseFloat(strings.ReplaceAll(strings.ReplaceAll(tok, ".", ""), ",", "."), 64); err == nil {
			out[math.Round(v*100)] = true
		}
	}
	return out
}
