package testsite

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The megasite's content: the catalogue, journal, care guides and other
// pages, built from small tables so that every page and its ground truth
// come from one place.

// The catalogue: seven categories, each with three product kinds in ten
// ranges, so 210 products.
var megaCategoryTable = []struct {
	slug, name, blurb, section string
	kinds                      [3]string
	sized                      bool
	grams                      [2]int // the range product weights fall in
}{
	{"tents", "Tents", "Backpacking and family tents that stand up to a night of Cumbrian wind and rain.", "tents", [3]string{"1-Person Tent", "2-Person Tent", "4-Person Dome Tent"}, false, [2]int{900, 3600}},
	{"sleeping-bags", "Sleeping bags & pads", "Down and synthetic sleeping bags, mats and liners rated for British summers and alpine winters.", "sleep-systems", [3]string{"Down Sleeping Bag", "Synthetic Sleeping Bag", "Insulated Sleeping Pad"}, true, [2]int{400, 1600}},
	{"backpacks", "Backpacks", "Daypacks, trekking packs and expedition packs, fitted in the shop by our staff.", "packs", [3]string{"28L Daypack", "55L Trekking Pack", "70L Expedition Pack"}, true, [2]int{700, 2300}},
	{"jackets", "Jackets", "Waterproof shells, down jackets and fleeces for every layer of a wet day on the hill.", "clothing", [3]string{"Rain Shell Jacket", "Down Jacket", "Fleece Jacket"}, true, [2]int{250, 800}},
	{"footwear", "Footwear", "Walking boots, trail shoes and approach shoes, with a free gait check in the Kendal shop.", "footwear", [3]string{"Hiking Boot", "Trail Running Shoe", "Approach Shoe"}, true, [2]int{600, 1500}},
	{"cookware", "Stoves & cookware", "Stoves, pots and mugs light enough to carry and sturdy enough to last.", "", [3]string{"Titanium Pot Set", "Canister Stove", "Insulated Mug"}, false, [2]int{80, 400}},
	{"lighting", "Headlamps & lanterns", "Headlamps, lanterns and torches for long winter evenings and early alpine starts.", "", [3]string{"Headlamp", "Camp Lantern", "Rechargeable Torch"}, false, [2]int{60, 300}},
}

var (
	megaRanges = [...]string{"Ridgeline", "Summit", "Fjord", "Cascade", "Timberline", "Aurora", "Basecamp", "Canyon", "Glacier", "Meadow"}
	megaColors = [...]string{"black", "blue", "green", "orange", "red", "grey"}
	megaSizes  = [...]string{"S", "M", "L", "XL"}
)

// The care guides: five sections of five subjects, four guides each.
var megaSectionTable = []struct {
	slug, name, blurb string
	subjects          [5]string
}{
	{"tents", "Tents", "Keep a tent dry, taut and free of mould for years of trips.", [5]string{"tent flysheets", "tent poles", "tent groundsheets", "guy lines and pegs", "tent zips"}},
	{"sleep-systems", "Sleeping bags and pads", "Keep insulation lofty and pads airtight, season after season.", [5]string{"down sleeping bags", "synthetic sleeping bags", "self-inflating pads", "air pads", "sleeping bag liners"}},
	{"packs", "Backpacks", "Keep harnesses comfortable and fabrics waterproof.", [5]string{"hip belts", "shoulder harnesses", "pack frames", "pack rain covers", "hydration reservoirs"}},
	{"footwear", "Footwear", "Keep boots supple and waterproof and shoes in one piece.", [5]string{"leather boots", "fabric boots", "trail running shoes", "insoles", "gaiters"}},
	{"clothing", "Clothing", "Keep shells beading, down lofty and wool fresh.", [5]string{"waterproof shells", "down jackets", "fleece jackets", "merino base layers", "softshell trousers"}},
}

var megaDocActions = [...]string{"Cleaning", "Drying and storing", "Repairing", "Inspecting"}

// The journal: thirty subjects in five kinds of article.
var (
	megaTopics = [...]string{
		"backpacking tents", "down sleeping bags", "synthetic sleeping bags", "sleeping pads", "daypacks",
		"trekking packs", "rain shells", "down jackets", "fleece layers", "merino base layers",
		"hiking boots", "trail running shoes", "approach shoes", "camp stoves", "titanium cookware",
		"water filters", "headlamps", "camp lanterns", "trekking poles", "gaiters",
		"bivvy bags", "hammocks", "map and compass", "winter camping kit", "bikepacking bags",
		"ultralight shelters", "kids' hiking gear", "dog hiking gear", "first aid kits", "navigation apps",
	}
	megaTitles = [...]string{
		"How to choose %s",
		"A beginner's guide to %s",
		"Five mistakes people make with %s",
		"Caring for %s after a long trip",
		"What we learned testing %s this season",
	}
	megaLeads = [...]string{
		"Choosing %s is mostly about matching the kit to the trips you actually do, not the ones you dream about.",
		"If you are new to %s, this guide covers the basics we explain in the shop every weekend.",
		"We see the same handful of mistakes with %s every season, and all of them are easy to avoid.",
		"A long trip is hard on %s. An hour of care when you get home adds years to their life.",
		"Our staff spent the season testing %s on the fells, in the rain and on one memorable snowy night.",
	}
)

// megaAuthor is a member of staff who writes for the journal.
type megaAuthor struct{ Name, Anchor, Role string }

var megaAuthors = []*megaAuthor{
	{"Isla Fairbairn", "isla-fairbairn", "shop manager and winter mountain leader"},
	{"Tomasz Nowak", "tomasz-nowak", "head of the repair workshop"},
	{"Priya Raman", "priya-raman", "footwear specialist"},
	{"Callum Reid", "callum-reid", "buyer for tents and sleeping gear"},
}

type megaCat struct {
	Slug, Name, Blurb string
	Section           *megaSection
	Products          []*megaProduct
}

type megaProduct struct {
	N                                   int // 1-based, across the catalogue
	Slug, Name, Line, SKU, Price, Color string
	Sizes                               []string
	Grams                               int
	Cat                                 *megaCat
	Related                             []*megaProduct
	Modified                            int
}

func (p *megaProduct) path() string { return "/products/" + p.Slug }

type megaSection struct {
	Slug, Name, Lower, Blurb string
	Docs                     []*megaDoc
}

type megaDoc struct {
	Slug, Title, Lower, Action, Subject, Path string
	Section                                   *megaSection
	Next                                      *megaDoc
}

type megaPost struct {
	Slug, Title, Topic, Lead, Path string
	Published, Modified            int
	Author                         *megaAuthor
	Product                        *megaProduct
	Doc                            *megaDoc
	Newer, Older                   *megaPost
}

// megaEvent is a one-off event a fixed number of days from today.
type megaEvent struct {
	Name  string
	When  time.Time
	Month string
}

// megaPage is a page with its ground truth.
type megaPage struct {
	MegasitePage
	web *webPage
}

// megasite is the whole site, built from the tables above.
type megasite struct {
	cats     []*megaCat
	products []*megaProduct
	sections []*megaSection
	posts    []*megaPost
	pages    []*megaPage
	byKey    map[string]*megaPage // by MegasitePage.Path
	catPaths map[string]*megaCat
	// listings are the paths that take ?page=N.
	listings map[string]bool
	notFound *webPage
}

// megaPerPage is the length of a listing page.
const megaPerPage = 12

// megaSize is how much of the catalogue and journal a megasite has: the
// product ranges of every category (three products each) and the posts.
// The default site has 10 ranges and 150 posts; a larger one repeats the
// range names with a series number and the journal's subjects with a part
// number, on the same templates.
type megaSize struct{ ranges, posts int }

var megaDefaultSize = megaSize{ranges: len(megaRanges), posts: len(megaTopics) * len(megaTitles)}

// megaSizeFor is the smallest site of at least pages pages whose journal
// grows with its catalogue (15 posts a range, as in the default site); the
// default site when pages is at most its size.
func megaSizeFor(pages int) megaSize {
	s := megaDefaultSize
	for s.pages() < pages {
		s.ranges++
		s.posts = s.ranges * megaDefaultSize.posts / megaDefaultSize.ranges
	}
	return s
}

// pages counts the pages of a site of this size.
func (s megaSize) pages() int { return megaFixedPages() + s.grownPages() }

// grownPages counts the pages that grow with the size: the products and
// posts with their listings' pages.
func (s megaSize) grownPages() int {
	listing := func(n int) int { return (n + megaPerPage - 1) / megaPerPage }
	perCat := 3 * s.ranges
	return len(megaCategoryTable)*(perCat+listing(perCat)) + s.posts + listing(s.posts)
}

// megaFixedPages counts the pages that do not grow with the size: the
// default site's, less its catalogue and journal.
var megaFixedPages = sync.OnceValue(func() int {
	return len(buildMegasite(megaDefaultSize).pages) - megaDefaultSize.grownPages()
})

// megaRange is the name of product range r: the range names, then the same
// names with a series number ("Ridgeline 2").
func megaRange(r int) string {
	name := megaRanges[r%len(megaRanges)]
	if n := r / len(megaRanges); n > 0 {
		name += " " + strconv.Itoa(n+1)
	}
	return name
}

func buildMegasite(size megaSize) *megasite {
	m := &megasite{byKey: map[string]*megaPage{}, catPaths: map[string]*megaCat{}, listings: map[string]bool{}}

	// Care guides first: products and posts link to them.
	var docs []*megaDoc
	for _, st := range megaSectionTable {
		s := &megaSection{Slug: st.slug, Name: st.name, Lower: strings.ToLower(st.name), Blurb: st.blurb}
		for _, subject := range st.subjects {
			for _, action := range megaDocActions {
				title := action + " " + subject
				d := &megaDoc{Title: title, Lower: strings.ToLower(title), Action: action, Subject: subject, Section: s}
				d.Slug = megaSlug(title)
				d.Path = "/docs/" + s.Slug + "/" + d.Slug
				if len(s.Docs) > 0 {
					s.Docs[len(s.Docs)-1].Next = d
				}
				s.Docs = append(s.Docs, d)
				docs = append(docs, d)
			}
		}
		m.sections = append(m.sections, s)
	}
	sectionBySlug := map[string]*megaSection{}
	for _, s := range m.sections {
		sectionBySlug[s.Slug] = s
	}

	for _, ct := range megaCategoryTable {
		c := &megaCat{Slug: ct.slug, Name: ct.name, Blurb: ct.blurb, Section: sectionBySlug[ct.section]}
		for r := range size.ranges {
			line := megaRange(r)
			for _, kind := range ct.kinds {
				n := len(m.products) + 1
				p := &megaProduct{
					N: n, Name: line + " " + kind, Line: line, Cat: c,
					SKU:      fmt.Sprintf("NW-%05d", 10000+n*37),
					Price:    strconv.Itoa(19+(n*53)%280) + ".95",
					Color:    megaColors[n%len(megaColors)],
					Grams:    ct.grams[0] + (n*97)%(ct.grams[1]-ct.grams[0]),
					Modified: 1 + (n*11)%90,
				}
				p.Slug = megaSlug(p.Name)
				if ct.sized {
					p.Sizes = megaSizes[n%len(megaSizes):]
				}
				c.Products = append(c.Products, p)
				m.products = append(m.products, p)
			}
		}
		for i, p := range c.Products {
			for j := 1; j <= 3; j++ {
				p.Related = append(p.Related, c.Products[(i+j*7)%len(c.Products)])
			}
		}
		m.cats = append(m.cats, c)
		m.catPaths["/c/"+c.Slug] = c
	}

	// Posts, newest first: one every four days (the default site's go
	// back about 600 days).
	for i := range size.posts {
		topic, kind := megaTopics[i%len(megaTopics)], i/len(megaTopics)%len(megaTitles)
		title := fmt.Sprintf(megaTitles[kind], topic)
		if part := i / (len(megaTopics) * len(megaTitles)); part > 0 {
			title += ", part " + strconv.Itoa(part+1)
		}
		p := &megaPost{
			Title: title, Topic: topic,
			Lead:      fmt.Sprintf(megaLeads[kind], topic),
			Published: 3 + 4*i,
			Author:    megaAuthors[i%len(megaAuthors)],
			Product:   m.products[(i*17)%len(m.products)],
			Doc:       docs[(i*7)%len(docs)],
		}
		p.Modified = p.Published
		if i%6 == 5 {
			p.Modified = p.Published/2 + 1
		}
		p.Slug = megaSlug(p.Title)
		d := ago(p.Published)
		p.Path = fmt.Sprintf("/blog/%04d/%02d/%s", d.Year(), int(d.Month()), p.Slug)
		if len(m.posts) > 0 {
			prev := m.posts[len(m.posts)-1]
			prev.Older, p.Newer = p, prev
		}
		m.posts = append(m.posts, p)
	}

	m.addHome()
	m.addInfoPages()
	m.addJournal()
	m.addCatalogue()
	m.addDocs()
	m.addEvents()
	m.addArchive()
	m.addPrivate()
	m.notFound = &webPage{
		Path: "/404", Body: "404.html", Status: http.StatusNotFound,
		Title: "Page not found | Northwind Outfitters",
		Data:  m.data("404", "", nil),
	}
	return m
}

// data is a page's template data: what every page needs plus extra.
func (m *megasite) data(tmpl, canonical string, extra map[string]any) map[string]any {
	d := map[string]any{"template": tmpl, "categories": m.cats}
	if canonical != "" {
		d["canonical"] = canonical
	}
	for k, v := range extra {
		d[k] = v
	}
	return d
}

// add registers a page. The ground truth's Title and Description come
// from the page itself, so they cannot drift apart.
func (m *megasite) add(p *webPage, truth MegasitePage) {
	truth.Title, truth.Description = p.Title, p.Description
	if truth.Canonical == "" {
		truth.Canonical = truth.Path
	}
	if truth.JSONLD == "" {
		truth.JSONLD = MegasiteJSONLDValid
		if p.Schema == nil {
			truth.JSONLD = MegasiteJSONLDMissing
		}
	}
	truth.Disallowed = strings.HasPrefix(truth.Path, MegasiteDisallowedPrefix)
	truth.Slow = strings.HasPrefix(truth.Path, MegasiteSlowPrefix)
	mp := &megaPage{MegasitePage: truth, web: p}
	m.pages = append(m.pages, mp)
	m.byKey[truth.Path] = mp
}

func (m *megasite) addHome() {
	p := &webPage{
		Path: "/", Body: "home.html", Published: 4000, Modified: 1, Image: "/assets/img/northwind-share.jpg",
		Title:       "Northwind Outfitters – Outdoor gear from Kendal since 1987",
		Description: "Tents, sleeping bags, packs, jackets and boots tested on the Lakeland fells, with care and repair guides from our Kendal workshop.",
		Data: m.data("home", "/", map[string]any{
			"featured": []*megaProduct{m.products[2], m.products[44], m.products[101]},
			"latest":   m.posts[:6],
		}),
		Schema: func(v *view) any {
			return []any{
				megaOrg(v),
				obj{
					"@context": "https://schema.org", "@type": "WebSite", "@id": v.Abs("/#website"),
					"name": "Northwind Outfitters", "url": v.Abs("/"),
					"publisher": obj{"@id": v.Abs("/#organization")},
					"potentialAction": obj{
						"@type": "SearchAction", "target": v.Abs("/search?q={search_term_string}"),
						"query-input": "required name=search_term_string",
					},
				},
			}
		},
	}
	m.add(p, MegasitePage{Path: "/", Template: "home", Schema: "Organization", InSitemap: true})
}

func megaOrg(v *view) obj {
	return obj{
		"@context": "https://schema.org", "@type": "Organization", "@id": v.Abs("/#organization"),
		"name": "Northwind Outfitters", "url": v.Abs("/"), "logo": v.Abs("/assets/img/northwind-logo.png"),
		"foundingDate": "1987", "telephone": "+44 1539 720418",
		"address": obj{
			"@type": "PostalAddress", "streetAddress": "14 Stricklandgate", "addressLocality": "Kendal",
			"postalCode": "LA9 4ND", "addressCountry": "GB",
		},
		"sameAs": []string{"https://www.instagram.com/northwindoutfitters", "https://www.facebook.com/northwindoutfitters"},
	}
}

// megaWebPage is the JSON-LD of a plain page of the given type.
func megaWebPage(typ string) func(v *view) any {
	return func(v *view) any {
		return obj{
			"@context": "https://schema.org", "@type": typ, "@id": v.Abs(v.Page.Data["canonical"].(string)),
			"url": v.Abs(v.Page.Data["canonical"].(string)), "name": v.Page.Title,
			"description": v.Page.Description, "inLanguage": "en-GB",
			"isPartOf": obj{"@id": v.Abs("/#website")},
		}
	}
}

func (m *megasite) addInfoPages() {
	for _, ip := range []struct{ slug, heading, desc, schema string }{
		{"about", "About Northwind Outfitters", "Northwind Outfitters is an independent outdoor shop in Kendal, founded in 1987, whose staff test everything it sells on the Lakeland fells.", "AboutPage"},
		{"contact", "Contact us", "Email, phone or visit Northwind Outfitters at 14 Stricklandgate, Kendal. We answer within one working day and repair gear in our workshop.", "ContactPage"},
		{"shipping-returns", "Shipping and returns", "Free UK delivery over £50, same-day dispatch before 2pm and 60-day returns on unused items.", "WebPage"},
		{"size-guide", "Size guide", "Chest, waist and shoe measurements for Northwind clothing and footwear sizes S to XL.", "WebPage"},
	} {
		path := "/" + ip.slug + "/"
		p := &webPage{
			Path: path, Body: "page.html", Published: 2000, Modified: 40,
			Title: ip.heading + " | Northwind Outfitters", Description: ip.desc,
			Data:   m.data("page", path, map[string]any{"slug": ip.slug, "heading": ip.heading, "authors": megaAuthors}),
			Schema: megaWebPage(ip.schema),
		}
		m.add(p, MegasitePage{Path: path, Template: "page", Schema: ip.schema, InSitemap: true})
	}
}

// megaPagerLink is one link of a listing's page numbers.
type megaPagerLink struct {
	N       int
	Href    string
	Current bool
}

// pagination is the ?page=N paths of a listing of n items and the data
// its page k (1-based) needs.
func pagination(base string, n, k int) (path string, data map[string]any) {
	pages := (n + megaPerPage - 1) / megaPerPage
	at := func(i int) string {
		if i == 1 {
			return base
		}
		return base + "?page=" + strconv.Itoa(i)
	}
	data = map[string]any{"pageNo": k}
	var links []megaPagerLink
	for i := 1; i <= pages; i++ {
		links = append(links, megaPagerLink{N: i, Href: at(i), Current: i == k})
	}
	data["pager"] = links
	if k > 1 {
		data["prev"] = at(k - 1)
	}
	if k < pages {
		data["next"] = at(k + 1)
	}
	return at(k), data
}

func (m *megasite) addJournal() {
	m.listings["/blog/"] = true
	for k := 1; (k-1)*megaPerPage < len(m.posts); k++ {
		path, extra := pagination("/blog/", len(m.posts), k)
		extra["posts"] = m.posts[(k-1)*megaPerPage : min(k*megaPerPage, len(m.posts))]
		title := "Journal | Northwind Outfitters"
		if k > 1 {
			title = "Journal, page " + strconv.Itoa(k) + " | Northwind Outfitters"
		}
		p := &webPage{
			Path: path, Body: "blog.html", Published: 700, Modified: 3,
			Title:       title,
			Description: "Buying advice, gear tests and care tips from the staff of Northwind Outfitters in Kendal.",
			Data:        m.data("blog", path, extra),
			Schema: func(v *view) any {
				return obj{
					"@context": "https://schema.org", "@type": "Blog", "@id": v.Abs("/blog/#blog"),
					"name": "The Northwind journal", "url": v.Abs(path),
					"publisher": obj{"@id": v.Abs("/#organization")},
				}
			},
		}
		m.add(p, MegasitePage{Path: path, Template: "blog", Schema: "Blog", InSitemap: k == 1})
	}
	for i, post := range m.posts {
		p := &webPage{
			Path: post.Path, Body: "post.html", OGType: "article", Image: "/assets/journal/" + post.Slug + ".jpg",
			Published: post.Published, Modified: post.Modified,
			Title:       post.Title + " | Northwind Outfitters",
			Description: post.Lead,
			Data:        m.data("post", post.Path, map[string]any{"post": post}),
			Schema: func(v *view) any {
				return obj{
					"@context": "https://schema.org", "@type": "BlogPosting",
					"headline": post.Title, "description": post.Lead,
					"url": v.Abs(post.Path), "mainEntityOfPage": obj{"@type": "WebPage", "@id": v.Abs(post.Path)},
					"image":         v.Abs("/assets/journal/" + post.Slug + ".jpg"),
					"datePublished": v.Pub().Format(time.RFC3339), "dateModified": v.Mod().Format(time.RFC3339),
					"author":    obj{"@type": "Person", "name": post.Author.Name, "url": v.Abs("/about/#" + post.Author.Anchor)},
					"publisher": obj{"@id": v.Abs("/#organization"), "@type": "Organization", "name": "Northwind Outfitters"},
				}
			},
		}
		truth := MegasitePage{Path: post.Path, Template: "post", Schema: "BlogPosting", InSitemap: i >= megaUnlistedPosts}
		if (i+1)%megaBrokenPostEvery == 0 {
			truth.JSONLD = MegasiteJSONLDBroken
		}
		m.add(p, truth)
	}
}

const (
	// megaUnlistedPosts newest posts are not in the sitemap yet: it is
	// rebuilt weekly.
	megaUnlistedPosts = 4
	// Every megaBrokenPostEvery-th post's JSON-LD has a trailing comma.
	megaBrokenPostEvery = 13
	// Every megaNoSchemaProductEvery-th product has no JSON-LD: those were
	// imported from a supplier feed that skipped the theme's snippet.
	megaNoSchemaProductEvery = 7
	// Every megaUnlistedProductEvery-th product is missing from the
	// product sitemap.
	megaUnlistedProductEvery = 25
)

func (m *megasite) addCatalogue() {
	for _, c := range m.cats {
		base := "/c/" + c.Slug
		m.listings[base] = true
		for k := 1; (k-1)*megaPerPage < len(c.Products); k++ {
			path, extra := pagination(base, len(c.Products), k)
			extra["cat"] = c
			extra["heading"] = c.Name
			extra["products"] = c.Products[(k-1)*megaPerPage : min(k*megaPerPage, len(c.Products))]
			extra["colorLinks"], extra["sizeLinks"] = megaFacetLinks(base, nil, nil)
			title := c.Name + " | Northwind Outfitters"
			if k > 1 {
				title = c.Name + ", page " + strconv.Itoa(k) + " | Northwind Outfitters"
			}
			p := &webPage{
				Path: path, Body: "category.html", Published: 1500, Modified: 2,
				Title: title, Description: c.Blurb,
				Data:   m.data("category", path, extra),
				Schema: megaCollection(c),
			}
			m.add(p, MegasitePage{Path: path, Template: "category", Schema: "CollectionPage", InSitemap: k == 1})
		}
		for _, pr := range c.Products {
			p := &webPage{
				Path: pr.path(), Body: "product.html", OGType: "product", Image: "/assets/products/" + pr.Slug + ".jpg",
				Published: 300 + pr.N, Modified: pr.Modified,
				Title:       pr.Name + " | Northwind Outfitters",
				Description: fmt.Sprintf("The %s from our %s range: %d g, in %s. %s", pr.Name, pr.Line, pr.Grams, pr.Color, c.Blurb),
				Data:        m.data("product", pr.path(), map[string]any{"product": pr}),
			}
			if pr.N%megaNoSchemaProductEvery != 0 {
				p.Schema = megaProductSchema(pr)
			}
			m.add(p, MegasitePage{Path: pr.path(), Template: "product", Schema: "Product", InSitemap: pr.N%megaUnlistedProductEvery != 0})
		}
	}
}

func megaCollection(c *megaCat) func(v *view) any {
	return func(v *view) any {
		return []any{
			obj{
				"@context": "https://schema.org", "@type": "CollectionPage",
				"@id": v.Abs(v.Page.Data["canonical"].(string)), "url": v.Abs(v.Page.Data["canonical"].(string)),
				"name": c.Name, "description": c.Blurb, "isPartOf": obj{"@id": v.Abs("/#website")},
			},
			obj{
				"@context": "https://schema.org", "@type": "BreadcrumbList",
				"itemListElement": []any{
					obj{"@type": "ListItem", "position": 1, "name": "Home", "item": v.Abs("/")},
					obj{"@type": "ListItem", "position": 2, "name": c.Name, "item": v.Abs("/c/" + c.Slug)},
				},
			},
		}
	}
}

func megaProductSchema(pr *megaProduct) func(v *view) any {
	return func(v *view) any {
		o := obj{
			"@context": "https://schema.org", "@type": "Product",
			"name": pr.Name, "sku": pr.SKU, "url": v.Abs(pr.path()), "color": pr.Color,
			"image":       v.Abs("/assets/products/" + pr.Slug + ".jpg"),
			"description": v.Page.Description,
			"brand":       obj{"@type": "Brand", "name": "Northwind " + pr.Line},
			"weight":      obj{"@type": "QuantitativeValue", "value": pr.Grams, "unitCode": "GRM"},
			"offers": obj{
				"@type": "Offer", "price": pr.Price, "priceCurrency": "GBP",
				"availability": "https://schema.org/InStock", "url": v.Abs(pr.path()),
				"seller": obj{"@id": v.Abs("/#organization")},
			},
		}
		if pr.N%3 == 0 {
			o["aggregateRating"] = obj{"@type": "AggregateRating", "ratingValue": fmt.Sprintf("4.%d", pr.N%9+1), "reviewCount": 3 + pr.N%40}
		}
		return o
	}
}

func (m *megasite) addDocs() {
	index := &webPage{
		Path: "/docs/", Body: "docs.html", Published: 900, Modified: 5,
		Title:       "Care and repair guides | Northwind Outfitters",
		Description: "Step-by-step guides from the Northwind workshop to cleaning, drying, storing, inspecting and repairing outdoor gear.",
		Data:        m.data("docs", "/docs/", map[string]any{"sections": m.sections}),
		Schema:      megaWebPage("CollectionPage"),
	}
	m.add(index, MegasitePage{Path: "/docs/", Template: "docs", Schema: "CollectionPage", InSitemap: true})
	for si, s := range m.sections {
		path := "/docs/" + s.Slug + "/"
		p := &webPage{
			Path: path, Body: "docs-section.html", Published: 900, Modified: 5 + si,
			Title:       "Caring for " + s.Lower + " | Northwind Outfitters",
			Description: s.Blurb + " Guides to cleaning, storing, inspecting and repairing " + s.Lower + ".",
			Data:        m.data("docs-section", path, map[string]any{"section": s}),
			Schema:      megaWebPage("CollectionPage"),
		}
		m.add(p, MegasitePage{Path: path, Template: "docs-section", Schema: "CollectionPage", InSitemap: true})
	}
	n := 0
	for _, s := range m.sections {
		section := "/docs/" + s.Slug + "/"
		for _, d := range s.Docs {
			n++
			p := &webPage{
				Path: d.Path, Body: "doc.html", OGType: "article", Published: 600 - 3*n, Modified: 5 + (n*13)%120,
				Title:       d.Title + " | Northwind care guides",
				Description: d.Action + " " + d.Subject + " step by step: what you need, how to do it and when to bring them to our workshop.",
				// The docs template builds its canonical from the
				// section, the bug crawler tests look for.
				Data: m.data("doc", section, map[string]any{"doc": d}),
				Schema: func(v *view) any {
					return []any{
						obj{
							"@context": "https://schema.org", "@type": "TechArticle",
							"headline": d.Title, "description": v.Page.Description, "url": v.Abs(d.Path),
							"datePublished": v.Pub().Format(time.RFC3339), "dateModified": v.Mod().Format(time.RFC3339),
							"author":    obj{"@type": "Organization", "name": "Northwind Outfitters workshop"},
							"publisher": obj{"@id": v.Abs("/#organization")},
						},
						obj{
							"@context": "https://schema.org", "@type": "BreadcrumbList",
							"itemListElement": []any{
								obj{"@type": "ListItem", "position": 1, "name": "Care & repair", "item": v.Abs("/docs/")},
								obj{"@type": "ListItem", "position": 2, "name": s.Name, "item": v.Abs(section)},
								obj{"@type": "ListItem", "position": 3, "name": d.Title, "item": v.Abs(d.Path)},
							},
						},
					}
				},
			}
			m.add(p, MegasitePage{Path: d.Path, Template: "doc", Canonical: section, Schema: "TechArticle", InSitemap: true})
		}
	}
}

// megaEvents are the one-off events, a fixed number of days ahead.
func megaEvents() []megaEvent {
	var out []megaEvent
	for _, e := range []struct {
		name string
		days int
	}{
		{"Tent repair workshop", 8},
		{"Guided walk: Helvellyn by Striding Edge", 15},
		{"Boot fitting evening", 29},
		{"Navigation skills day", 43},
	} {
		when := today().AddDate(0, 0, e.days).Add(18 * time.Hour)
		out = append(out, megaEvent{Name: e.name, When: when, Month: when.Format("2006-01")})
	}
	return out
}

func (m *megasite) addEvents() {
	p := &webPage{
		Path: "/events/", Body: "events.html", Published: 800, Modified: 6,
		Title:       "Events | Northwind Outfitters",
		Description: "Repair cafés, boot fitting evenings, navigation days and guided walks from Northwind Outfitters in Kendal.",
		Data:        m.data("events", "/events/", map[string]any{"events": megaEvents(), "month": today().Format("2006-01")}),
	}
	m.add(p, MegasitePage{Path: "/events/", Template: "events", InSitemap: true})
}

func (m *megasite) addArchive() {
	y := today().Year()
	var years []int
	for i := 1; i <= 6; i++ {
		years = append(years, y-i)
	}
	// The archive predates the theme: no descriptions, no structured data.
	index := &webPage{
		Path: "/archive/", Body: "archive.html", Published: 3000, Modified: 400,
		Title: "News archive | Northwind Outfitters",
		Data:  m.data("archive", "/archive/", map[string]any{"heading": "News archive", "years": years}),
	}
	m.add(index, MegasitePage{Path: "/archive/", Template: "archive", InSitemap: true})
	notes := [...]string{
		"Winter opening hours", "New boot fitting room opens", "Repair workshop moves upstairs",
		"Summer sale starts Saturday", "Staff complete the Bob Graham Round", "Mountain rescue fundraiser raises record sum",
	}
	type note struct{ Date, Title string }
	for i, year := range years {
		var list []note
		for j, n := range notes {
			list = append(list, note{Date: fmt.Sprintf("%d-%02d-%02d", year, 1+2*j, 3+(i*5+j*7)%25), Title: n})
		}
		path := "/archive/" + strconv.Itoa(year) + "/"
		p := &webPage{
			Path: path, Body: "archive.html", Published: 365 * (i + 1), Modified: 365 * (i + 1),
			Title: "News archive " + strconv.Itoa(year) + " | Northwind Outfitters",
			Data:  m.data("archive", path, map[string]any{"heading": "News from " + strconv.Itoa(year), "notes": list}),
		}
		m.add(p, MegasitePage{Path: path, Template: "archive", InSitemap: true})
	}
}

func (m *megasite) addPrivate() {
	for _, pp := range []struct{ path, slug, heading, desc string }{
		{"/private/wholesale/", "wholesale", "Wholesale partners", "Trade accounts for outdoor centres, schools and mountain rescue teams."},
		{"/private/wholesale/price-list", "price-list", "Wholesale price list", "Trade discounts by product range for Northwind wholesale partners."},
		{"/private/staff/handbook", "handbook", "Partner and staff handbook", "Opening hours, returns routine and workshop safety rules."},
	} {
		p := &webPage{
			Path: pp.path, Body: "private.html", Published: 500, Modified: 60,
			Title: pp.heading + " | Northwind Outfitters", Description: pp.desc,
			Data: m.data("private", pp.path, map[string]any{"slug": pp.slug, "heading": pp.heading}),
		}
		m.add(p, MegasitePage{Path: pp.path, Template: "private"})
	}
}

// megaFacetLink is one filter link of a category page.
// dropped, every other run of non-alphanumerics one hyphen.
func megaSlug(s string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if gap && b.Len() > 0 {
				b.WriteByte('-')
			}
			gap = false
			b.WriteRune(r)
		case r == '\'':
		default:
			gap = true
		}
	}
	return b.String()
}
