package checks

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/geoscan/geoscan/internal/fetch"
	"github.com/geoscan/geoscan/internal/jsonld"
	"github.com/geoscan/geoscan/internal/page"
)

// Pillars of the visibility ring.
const (
	pillarStructuredData  = "structured_data"
	pillarMachineMetadata = "machine_metadata"
)

// visibilityChecks is the visibility ring: can an answer engine read the
// pages, find the answer in them, understand what they describe and pick
// up the metadata it shows next to a citation.
func visibilityChecks() []*Check {
	return []*Check{
		{
			ID: "jsonld_valid", Ring: RingVisibility, Pillar: pillarStructuredData, Weight: 5, Effort: Medium,
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
			Eval: evalJSONLDValid,
		},
		{
			ID: "schema_site_entities", Ring: RingVisibility, Pillar: pillarStructuredData, Weight: 5, Effort: Low,
			Marketing: Text{
				Title: "Your site and organisation are described",
				Why:   "Describing your website and your organisation on the homepage tells AI engines exactly which company or person stands behind the site.",
				Fix:   "Turn on the \"site\" and \"organisation\" (or \"person\") settings of your SEO plugin, filling in name, logo and social profiles.",
			},
			Engineering: Text{
				Title: "WebSite and Organization/Person entities on the homepage",
				Why:   "WebSite plus Organization (or LocalBusiness/Person) is the entity anchor engines attach every other page to and reconcile with their knowledge graph.",
				Fix:   "Add WebSite {name, url} and Organization {name, url, logo, sameAs} (or Person) JSON-LD to the homepage, linked by @id (WebSite.publisher → Organization).",
			},
			Eval: evalSiteEntities,
		},
		{
			ID: "schema_page_type_match", Ring: RingVisibility, Pillar: pillarStructuredData, Weight: 3, Effort: Medium,
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
		},
		{
			ID: "schema_required_props", Ring: RingVisibility, Pillar: pillarStructuredData, Weight: 3, Effort: Medium,
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
		},
		{
			ID: "schema_linked_graph", Ring: RingVisibility, Pillar: pillarStructuredData, Weight: 1, Effort: Low,
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
		},
		{
			ID: "schema_visible_match", Ring: RingVisibility, Pillar: pillarStructuredData, Weight: 2, Effort: Medium,
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
		},
		{
			ID: "title_quality", Ring: RingVisibility, Pillar: pillarMachineMetadata, Weight: 3, Effort: Low,
			Marketing: Text{
				Title: "A descriptive page title with your brand",
				Why:   "The page title is often the label AI engines show next to a citation; a clear title with your brand name earns the click and the recognition.",
				Fix:   "Write a homepage title of 10–60 characters that says what you offer and includes your brand name, not just \"Home\".",
			},
			Engineering: Text{
				Title: "<title> length, specificity and brand",
				Why:   "The <title> is the citation label and a primary relevance signal; empty, generic or brandless titles weaken both.",
				Fix:   "Set a unique <title> of 10–60 characters per page, descriptive first and the brand as suffix (\"Topic – Brand\"); never ship template defaults like \"Home\".",
			},
			Eval: evalTitleQuality,
		},
		{
			ID: "meta_description", Ring: RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
			Marketing: Text{
				Title: "A summary of the page for machines",
				Why:   "The page summary is a ready-made description AI tools and search engines can show or use to understand the page at a glance.",
				Fix:   "Write a 70–160 character summary of the homepage in your CMS or SEO plugin.",
			},
			Engineering: Text{
				Title: "Meta description",
				Why:   "<meta name=description> is a compact, author-controlled summary that engines use as snippet text and as a relevance hint.",
				Fix:   "Add <meta name=\"description\" content=\"…\"> of 70–160 characters to every template, written per page.",
			},
			Eval: evalMetaDescription,
		},
		{
			ID: "open_graph", Ring: RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
			Marketing: Text{
				Title: "Link previews are set up",
				Why:   "Social and AI tools build link previews from these tags; complete tags give your citations a proper title, summary and image.",
				Fix:   "Fill in the social sharing title, description and image in your SEO plugin, using a full https:// image address.",
			},
			Engineering: Text{
				Title: "Open Graph and Twitter card tags",
				Why:   "og:title, og:description, og:image, og:type and twitter:card are the de-facto preview metadata that chat interfaces and social platforms render for links.",
				Fix:   "Add <meta property=\"og:title|og:description|og:image|og:type\"> and <meta name=\"twitter:card\" content=\"summary_large_image\">; og:image must be an absolute https URL.",
			},
			Eval: evalOpenGraph,
		},
		{
			ID: "html_lang", Ring: RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
			Marketing: Text{
				Title: "Page language is declared",
				Why:   "Declaring the language lets AI engines offer your pages to people asking in that language and translate them correctly.",
				Fix:   "Ask your developer to set the page language (for example \"en\" or \"de-DE\") in the site template to match your content.",
			},
			Engineering: Text{
				Title: "Valid html lang attribute",
				Why:   "The lang attribute of <html> tells engines the content language for retrieval by language and locale; a missing, malformed or wrong value misroutes the page.",
				Fix:   "Set <html lang=\"…\"> to a valid BCP 47 tag (en, en-US, pt-BR; hyphens, not underscores) that matches the content language.",
			},
			Eval: evalHTMLLang,
		},
		{
			ID: "llms_txt_valid", Ring: RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
			Marketing: Text{
				Title: "The AI guide file is well formed",
				Why:   "An llms.txt file is a proposed table of contents for AI tools; when it exists it should follow the format, or tools that read it get a broken map of your site.",
				Fix:   "Keep llms.txt to the standard layout: your name as the title, a one-line summary, then sections listing your key pages as links with full addresses.",
			},
			Engineering: Text{
				Title: "llms.txt structure (llmstxt.org)",
				Why:   "The llmstxt.org format is H1 first, an optional blockquote summary, then H2 sections of [name](url) lists; parsers rely on that order, and relative or broken links lead nowhere.",
				Fix:   "Serve /llms.txt as text/markdown or text/plain with a single '# Name' first line, a '> summary', and '## Section' blocks of '- [Title](https://…): note' items; use absolute URLs that return 200, and put skippable links under '## Optional'.",
			},
			Eval: evalLLMsTxtValid,
		},
		{
			ID: "markdown_alternates", Ring: RingVisibility, Pillar: pillarMachineMetadata, Weight: 1, Effort: Medium,
			Marketing: Text{
				Title: "Clean text versions of pages",
				Why:   "Some AI tools prefer a plain-text (Markdown) copy of a page; offering one makes your content cheaper and more accurate for them to read.",
				Fix:   "If your platform can, publish Markdown copies of key pages and point to them from the pages or from llms.txt.",
			},
			Engineering: Text{
				Title: "Markdown alternates",
				Why:   "A Markdown twin (linked with rel=alternate type=text/markdown or listed in llms.txt) gives agents boilerplate-free content; it is an emerging convention, so its absence is informational.",
				Fix:   "Publish page.md twins (index.html.md for directory URLs) and add <link rel=\"alternate\" type=\"text/markdown\" href=\"…\"> or list the .md URLs in llms.txt.",
			},
			Eval: evalMarkdownAlternates,
		},
	}
}

// Structured data.

func evalJSONLDValid(in *Input) Result {
	pages := everyPage(in)
	if len(pages) == 0 {
		return na(naNoHome, ev())
	}
	blocks, valid, micro, rdfa := 0, 0, 0, 0
	var errs, types []string
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
		for _, err := range g.Errors {
			errs = append(errs, addressOf(p)+": "+err)
		}
		for _, t := range g.Types() {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	e := ev("pages", len(pages), "blocks", blocks, "valid_blocks", valid, "errors", nonNil(firstN(errs, 10)), "types", nonNil(types),
		"microdata_items", micro, "rdfa_nodes", rdfa)
	switch {
	case blocks == 0 && micro+rdfa > 0:
		return warn(fmt.Sprintf("There is no JSON-LD on %s, only microdata or RDFa (%d items), which fewer consumers read reliably.", theN(len(pages), "page", "pages"), micro+rdfa), e)
	case blocks == 0:
		return fail(fmt.Sprintf("There is no JSON-LD, microdata or RDFa on %s.", theN(len(pages), "page", "pages")), e)
	case valid == 0:
		return fail(fmt.Sprintf("No JSON-LD block parses (%d found).", blocks), e)
	case len(errs) > 0:
		return warn(fmt.Sprintf("%d of %d JSON-LD blocks parse; %d are broken.", valid, blocks, blocks-valid), e)
	}
	return pass(fmt.Sprintf("JSON-LD parses without errors in %s, declaring %s.", plural(blocks, "block", "blocks"), strings.Join(firstN(types, 8), ", ")), e)
}

func evalSiteEntities(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	g := graphOf(h)
	var types []string
	website, identity := false, ""
	if g != nil {
		types = g.Types()
		website = g.Has("WebSite")
		if ids := g.OfType(identityTypes...); len(ids) > 0 {
			identity = ids[0].Types[0]
		}
	}
	var elsewhere []string
	for _, p := range sitePages(in, fetch.About, fetch.Contact) {
		if g := graphOf(p); g != nil && g.Has(identityTypes...) {
			elsewhere = append(elsewhere, addressOf(p))
		}
	}
	e := ev("homepage_types", nonNil(types), "website", website, "identity_type", identity, "identity_on_other_pages", nonNil(elsewhere))
	switch {
	case website && identity != "":
		return pass(fmt.Sprintf("The homepage declares WebSite and %s.", identity), e)
	case website:
		return warn("The homepage declares WebSite but no Organization, LocalBusiness or Person.", e)
	case identity != "":
		return warn(fmt.Sprintf("The homepage declares %s but no WebSite.", identity), e)
	}
	return fail("The homepage declares neither WebSite nor an Organization, LocalBusiness or Person.", e)
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
			rows = append(rows, map[string]any{"url": addressOf(p), "page_type": string(gr.purpose), "types": nonNil(types), "missing": nonNil(missing)})
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
	return warn(fmt.Sprintf("%d of %d article and product pages declare the expected schema types; the evidence lists what is missing.", matched, judged), e)
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
				rows = append(rows, map[string]any{"url": addressOf(p), "type": rule.family, "entity": e.Label(), "missing": missing})
			}
		}
	}
	if entities == 0 {
		return na("No schema.org entity of a type with known required properties was found.", ev())
	}
	pct := percent(present, expected)
	e := ev("entities", entities, "properties_expected", expected, "properties_present", present, "completeness_pct", pct, "missing", firstN(rows, 20))
	s := fmt.Sprintf("%d of %d expected properties are present across %s (%.0f%%), %d of them complete.", present, expected, plural(entities, "schema entity", "schema entities"), pct, entities-len(rows))
	return byThreshold(pct, 90, 60, s, e)
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
		rows = append(rows, map[string]any{"url": addressOf(p), "entities": len(top), "islands": len(islands), "groups": firstN(labels, 10)})
	}
	if pagesWithEntities == 0 {
		return na("No page declares schema.org entities, so there is no graph to link.", ev())
	}
	e := ev("pages", rows, "id_edges", edges)
	if split == 0 {
		return pass(fmt.Sprintf("The schema.org entities form one connected graph on %s.", allOf(pagesWithEntities, "page", "pages")), e)
	}
	return warn(fmt.Sprintf("On %d of %d pages the schema.org entities form separate, unlinked groups.", split, pagesWithEntities), e)
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
		check := func(kind, value string, ok bool) {
			checked++
			if !ok {
				mismatches = append(mismatches, map[string]any{"url": addressOf(p), "field": kind, "schema_value": excerpt(value, 120)})
			}
		}
		for _, e := range g.OfType(articleTypes...) {
			if hl := e.String("headline"); hl != "" {
				check("headline", hl, tokenCoverage(hl, visible) >= 0.8)
			}
			for _, name := range authorNames(g, e) {
				check("author", name, tokenCoverage(name, visible) >= 0.8)
			}
		}
		for _, e := range g.OfType("Product", "ProductGroup", "Event") {
			if n := e.String("name"); n != "" {
				check("name", n, tokenCoverage(n, visible) >= 0.8)
			}
		}
		for _, e := range g.OfType("Offer") {
			if price, err := strconv.ParseFloat(strings.TrimSpace(e.String("price")), 64); err == nil && price > 0 {
				check("price", e.String("price"), numbers[math.Round(price*100)])
			}
		}
		for _, e := range g.OfType("FAQPage") {
			for _, q := range firstN(questionNames(e), 5) {
				check("FAQ question", q, tokenCoverage(q, visible) >= 0.8)
			}
		}
	}
	if checked == 0 {
		return na("No headline, author, product name, price or FAQ question in the markup to compare with the visible text.", ev())
	}
	share := float64(len(mismatches)) / float64(checked)
	e := ev("values_checked", checked, "mismatches", len(mismatches), "not_visible", firstN(mismatches, 15))
	switch {
	case len(mismatches) == 0:
		return pass(fmt.Sprintf("Every value taken from the markup (%d) appears in the visible text.", checked), e)
	case share <= 0.5:
		return warn(fmt.Sprintf("%d of %d values taken from the markup do not appear in the visible text.", len(mismatches), checked), e)
	}
	return fail(fmt.Sprintf("%d of %d values taken from the markup do not appear in the visible text.", len(mismatches), checked), e)
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

// Machine metadata.

var genericTitles = map[string]bool{
	"home": true, "homepage": true, "home page": true, "welcome": true, "index": true,
	"untitled": true, "untitled document": true, "default": true, "startseite": true, "accueil": true, "inicio": true, "my site": true, "new page": true,
}

func evalTitleQuality(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	title := h.Title
	n := utf8.RuneCountInString(title)
	key := brandKey(in.BrandName)
	hasBrand := sameBrand(key, title)
	generic := genericTitles[strings.ToLower(strings.TrimSpace(title))]
	e := ev("title", title, "length", n, "brand", in.BrandName, "includes_brand", hasBrand, "generic", generic)
	if title == "" {
		return fail("The homepage has no <title>.", e)
	}
	var problems []string
	if n < 10 || n > 60 {
		problems = append(problems, fmt.Sprintf("%d characters (10–60 expected)", n))
	}
	if generic {
		problems = append(problems, "generic wording")
	}
	if key != "" && !hasBrand {
		problems = append(problems, fmt.Sprintf("brand %q missing", in.BrandName))
	}
	e["problems"] = nonNil(problems)
	if len(problems) == 0 {
		return pass(fmt.Sprintf("The homepage title %q has %d characters and names the brand.", excerpt(title, 80), n), e)
	}
	return warn(fmt.Sprintf("The homepage title %q has issues: %s.", excerpt(title, 80), strings.Join(problems, "; ")), e)
}

func evalMetaDescription(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	d := h.MetaContent("description")
	n := utf8.RuneCountInString(d)
	e := ev("description", d, "length", n)
	switch {
	case d == "":
		return fail("The homepage has no meta description.", e)
	case n >= 70 && n <= 160:
		return pass(fmt.Sprintf("The homepage meta description has %d characters.", n), e)
	}
	return warn(fmt.Sprintf("The homepage meta description has %d characters (70–160 expected).", n), e)
}

func evalOpenGraph(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	var present, missing []string
	for _, k := range []string{"og:title", "og:description", "og:image", "og:type", "twitter:card"} {
		if h.MetaContent(k) != "" {
			present = append(present, k)
		} else {
			missing = append(missing, k)
		}
	}
	img := h.MetaContent("og:image")
	imgOK := strings.HasPrefix(strings.ToLower(img), "https://")
	e := ev("present", nonNil(present), "missing", nonNil(missing), "og_image", img, "og_image_absolute_https", imgOK)
	switch {
	case len(present) == 0:
		return fail("The homepage has none of og:title, og:description, og:image, og:type and twitter:card.", e)
	case len(missing) == 0 && imgOK:
		return pass("The homepage has og:title, og:description, og:type, twitter:card and an absolute https og:image.", e)
	case len(missing) == 0:
		return warn(fmt.Sprintf("All preview tags are present but og:image %q is not an absolute https URL.", excerpt(img, 100)), e)
	}
	s := fmt.Sprintf("The homepage lacks %s.", strings.Join(missing, ", "))
	if img != "" && !imgOK {
		s = fmt.Sprintf("The homepage lacks %s, and og:image is not an absolute https URL.", strings.Join(missing, ", "))
	}
	return warn(s, e)
}

// bcp47RE matches the shape of a BCP 47 language tag: language (with
// extended subtags), script, region, variants, extensions, private use.
var bcp47RE = regexp.MustCompile(`(?i)^([a-z]{2,3}(-[a-z]{3}){0,3}|[a-z]{4,8})(-[a-z]{4})?(-([a-z]{2}|[0-9]{3}))?(-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(-[a-wyz0-9](-[a-z0-9]{2,8})+)*(-x(-[a-z0-9]{1,8})+)?$`)

// guessLanguage names the language of a text among those of stopwords, or
// "" when the text is short or no language clearly dominates.
func guessLanguage(text string) string {
	words := tokens(text)
	if len(words) < 50 {
		return ""
	}
	counts := map[string]int{}
	for _, w := range words {
		for lang, list := range stopwords {
			if slices.Contains(list, w) {
				counts[lang]++
			}
		}
	}
	langs := sortedKeys(counts)
	sort.SliceStable(langs, func(i, j int) bool { return counts[langs[i]] > counts[langs[j]] })
	if len(langs) == 0 {
		return ""
	}
	best, second := langs[0], 0
	if len(langs) > 1 {
		second = counts[langs[1]]
	}
	// The winner must be frequent (one word in twenty) and clearly ahead.
	if counts[best]*20 < len(words) || counts[best] < 2*second {
		return ""
	}
	return best
}

func evalHTMLLang(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	lang := strings.TrimSpace(h.Lang)
	detected := guessLanguage(h.Text)
	e := ev("lang", lang, "detected_language", detected)
	if lang == "" {
		return fail("The homepage <html> element has no lang attribute.", e)
	}
	valid := bcp47RE.MatchString(lang)
	e["valid_bcp47"] = valid
	if !valid {
		return warn(fmt.Sprintf("The homepage declares lang=%q, which is not a valid BCP 47 tag.", lang), e)
	}
	primary := strings.ToLower(strings.SplitN(lang, "-", 2)[0])
	if detected != "" && primary != detected {
		return warn(fmt.Sprintf("The homepage declares lang=%q but its text reads as %q.", lang, detected), e)
	}
	if detected != "" {
		return pass(fmt.Sprintf("The homepage declares lang=%q, matching the language of its text.", lang), e)
	}
	return pass(fmt.Sprintf("The homepage declares a valid lang=%q.", lang), e)
}

// llmsReport is what a read of llms.txt found.
type llmsReport struct {
	title      string
	blockquote bool
	sections   []string
	links      int
	relative   []string
	mdLinks    []string
	optional   bool
	html       bool // an HTML page, not a Markdown file
	fatal      string
	violations []string
}

var (
	llmsLinkRE     = regexp.MustCompile(`\[([^\]]*)\]\(\s*([^)\s]+)`)
	llmsListLinkRE = regexp.MustCompile(`^[-*+]\s+\[[^\]]*\]\(\s*[^)\s]+[^)]*\)`)
)

// readLLMsTxt checks a body against the llmstxt.org layout: an H1 first,
// an optional blockquote, free sections, then H2 sections whose bodies are
// lists of [name](url) links.
func readLLMsTxt(body []byte, contentType string) llmsReport {
	var r llmsReport
	text := strings.TrimPrefix(string(body), "\ufeff")
	trimmed := strings.ToLower(strings.TrimSpace(text))
	if strings.HasPrefix(trimmed, "<!doctype") || strings.HasPrefix(trimmed, "<html") || (contentType == "text/html" && strings.HasPrefix(trimmed, "<")) {
		r.html = true
		return r
	}
	if contentType == "text/html" {
		r.violations = append(r.violations, "served as text/html (text/plain or text/markdown expected)")
	}
	if trimmed == "" {
		r.fatal = "the file is empty"
		return r
	}
	inFence, first, h1s, deep := false, true, 0, 0
	nonList, emptySections := 0, 0
	sectionLinks := -1
	closeSection := func() {
		if sectionLinks == 0 {
			emptySections++
		}
	}
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" {
			continue
		}
		if first {
			first = false
			if !strings.HasPrefix(t, "# ") {
				r.fatal = fmt.Sprintf("the first line is not an H1 title but %q", excerpt(t, 60))
				return r
			}
		}
		for _, m := range llmsLinkRE.FindAllStringSubmatch(t, -1) {
			r.links++
			target := m[2]
			if !strings.HasPrefix(target, "https://") && !strings.HasPrefix(target, "http://") {
				r.relative = append(r.relative, target)
			}
			if u, err := url.Parse(target); err == nil && strings.HasSuffix(strings.ToLower(u.Path), ".md") {
				r.mdLinks = append(r.mdLinks, target)
			}
		}
		switch {
		case strings.HasPrefix(t, "# "):
			h1s++
			if h1s == 1 {
				r.title = strings.TrimSpace(t[2:])
			}
		case strings.HasPrefix(t, "## "):
			closeSection()
			name := strings.TrimSpace(t[3:])
			r.sections = append(r.sections, name)
			r.optional = r.optional || strings.EqualFold(name, "optional")
			sectionLinks = 0
		case strings.HasPrefix(t, "###"):
			deep++
		case strings.HasPrefix(t, ">") && len(r.sections) == 0:
			r.blockquote = true
		case len(r.sections) > 0:
			if llmsListLinkRE.MatchString(t) {
				sectionLinks++
			} else if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
				// Indented lines continue the list item above them.
				nonList++
			}
		}
	}
	closeSection()
	if h1s > 1 {
		r.violations = append(r.violations, fmt.Sprintf("%d H1 headings (exactly one expected)", h1s))
	}
	if !r.blockquote {
		r.violations = append(r.violations, "no '>' blockquote summary after the title")
	}
	if deep > 0 {
		r.violations = append(r.violations, fmt.Sprintf("%d H3-or-deeper headings (sections are H2 only)", deep))
	}
	if len(r.sections) == 0 {
		r.violations = append(r.violations, "no H2 sections of links")
	}
	if emptySections > 0 {
		r.violations = append(r.violations, fmt.Sprintf("%d H2 sections without a [name](url) link list", emptySections))
	}
	if nonList > 0 {
		r.violations = append(r.violations, fmt.Sprintf("%d lines inside H2 sections that are not '- [name](url)' list items", nonList))
	}
	if len(r.relative) > 0 {
		r.violations = append(r.violations, fmt.Sprintf("%d relative links (absolute URLs expected)", len(r.relative)))
	}
	if r.links == 0 {
		r.violations = append(r.violations, "no links at all")
	}
	return r
}

func evalLLMsTxtValid(in *Input) Result {
	if in.Site == nil || !in.Site.LLMsTxt.OK() {
		status := 0
		if in.Site != nil && in.Site.LLMsTxt != nil {
			status = in.Site.LLMsTxt.Status
		}
		return na("The site publishes no /llms.txt, so there is no structure to validate.", ev("status", status))
	}
	lt := in.Site.LLMsTxt
	r := readLLMsTxt(lt.Body, lt.ContentType())
	if r.html {
		// A catch-all route answering every path is the absence of the
		// file, not a malformed one.
		return na("/llms.txt answers with an HTML page (a catch-all route), so the site publishes no llms.txt to validate.", ev("status", lt.Status, "content_type", lt.ContentType(), "html_catch_all", true))
	}
	var linkRows []map[string]any
	broken := 0
	for _, l := range in.Site.LLMsLinks {
		if l == nil {
			continue
		}
		row := map[string]any{"url": l.URL, "status": l.Status}
		// 405 answers the HEAD method, not the link; it says nothing about
		// whether the page exists.
		bad := l.Err != nil || (l.Status >= 400 && l.Status != 405)
		if l.Err != nil {
			row["error"] = l.ErrorText()
		}
		if bad {
			broken++
		}
		row["ok"] = !bad
		linkRows = append(linkRows, row)
	}
	violations := r.violations
	if broken > 0 {
		violations = append(violations, fmt.Sprintf("%d of %d sampled links do not answer", broken, len(linkRows)))
	}
	e := ev("url", lt.FinalURL, "content_type", lt.ContentType(), "bytes", len(lt.Body), "title", r.title, "blockquote", r.blockquote,
		"sections", nonNil(r.sections), "links", r.links, "relative_links", nonNil(firstN(r.relative, 10)), "optional_section", r.optional,
		"sampled_links", nonNilRows(linkRows), "violations", nonNil(violations), "llms_full_txt", in.Site.LLMsFullTxt.OK())
	switch {
	case r.fatal != "":
		return fail(fmt.Sprintf("/llms.txt does not follow the llmstxt.org format: %s.", r.fatal), e)
	case len(linkRows) > 0 && broken*2 >= len(linkRows):
		return fail(fmt.Sprintf("/llms.txt is well formed but %d of %d sampled links do not answer.", broken, len(linkRows)), e)
	case len(violations) > 0:
		return warn(fmt.Sprintf("/llms.txt starts with an H1 but has %s: %s.", plural(len(violations), "issue", "issues"), strings.Join(violations, "; ")), e)
	}
	full := ""
	if in.Site.LLMsFullTxt.OK() {
		full = ", and /llms-full.txt exists too"
	}
	return pass(fmt.Sprintf("/llms.txt follows the llmstxt.org layout with %s and %s%s.", plural(len(r.sections), "section", "sections"), plural(r.links, "link", "links"), full), e)
}

func evalMarkdownAlternates(in *Input) Result {
	var alternates []string
	for _, p := range everyPage(in) {
		for _, a := range p.Alternates {
			if (a.Type == "text/markdown" || a.Type == "text/x-markdown") && a.Href != "" && !slices.Contains(alternates, a.Href) {
				alternates = append(alternates, a.Href)
			}
		}
	}
	var mdLinks []string
	if in.Site != nil && in.Site.LLMsTxt.OK() {
		mdLinks = readLLMsTxt(in.Site.LLMsTxt.Body, in.Site.LLMsTxt.ContentType()).mdLinks
	}
	if len(everyPage(in)) == 0 && len(mdLinks) == 0 {
		return na(naNoHome, ev())
	}
	e := ev("link_alternates", nonNil(firstN(alternates, 10)), "llms_txt_md_links", nonNil(firstN(mdLinks, 10)))
	switch {
	case len(alternates) > 0:
		return pass(fmt.Sprintf("%s a Markdown alternate, e.g. %s.", plural(len(alternates), "page links", "pages link"), alternates[0]), e)
	case len(mdLinks) > 0:
		return pass(fmt.Sprintf("/llms.txt points to %s, e.g. %s.", plural(len(mdLinks), "Markdown page", "Markdown pages"), mdLinks[0]), e)
	}
	return info("No Markdown alternates were found (no rel=alternate type=text/markdown link, no .md links in llms.txt); an emerging convention, not scored.", e)
}

func structuredDataChecks() []*Check { return pillarOf(visibilityChecks(), pillarStructuredData) }

func machineMetadataChecks() []*Check { return pillarOf(visibilityChecks(), pillarMachineMetadata) }
