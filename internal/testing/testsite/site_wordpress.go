package testsite

import (
	"fmt"
	"net/http"
	"strings"
)

// Brightpath Studio is the well-kept WordPress site GEO audits meet most
// often: a block theme with the Elementor page builder and Yoast SEO, a
// Yoast @graph of linked entities on every page, a blog with real authors,
// and a robots.txt that opts out of GPTBot (training) while leaving search
// and answer crawlers alone. It has no llms.txt and no Content-Security-Policy.

// wpAuthor is a blog author with an archive page.
type wpAuthor struct {
	Slug, Name, Role, Bio, LinkedIn string
}

var wpAuthors = map[string]*wpAuthor{
	"hannah-okafor": {
		Slug: "hannah-okafor", Name: "Hannah Okafor", Role: "Creative Director",
		Bio:      "Hannah founded Brightpath Studio in 2014 after eight years leading brand teams at agencies in Manchester and London. She writes about brand strategy, typography and the business side of design.",
		LinkedIn: "https://www.linkedin.com/in/hannah-okafor-design",
	},
	"james-whitfield": {
		Slug: "james-whitfield", Name: "James Whitfield", Role: "Lead Web Developer",
		Bio:      "James leads Brightpath's development team. He has built accessible WordPress sites for charities, universities and retailers since 2011 and is a regular speaker at WordCamp Leeds.",
		LinkedIn: "https://www.linkedin.com/in/jameswhitfield-dev",
	},
}

func newWordPress(e *env) *fixture {
	k := newKit(e, WordPress, true, func(h http.Header) {
		h.Set("Server", "nginx")
		h.Set("X-Powered-By", "PHP/8.2.18")
		h.Set("Strict-Transport-Security", "max-age=31536000")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Link", "<"+e.origin(hosts[WordPress])+`/wp-json/>; rel="https://api.w.org/"`)
	})

	posts := []*webPage{
		{
			Path: "/blog/how-much-does-a-brand-refresh-cost/", Body: "post.html", OGType: "article",
			Title:       "How Much Does a Brand Refresh Cost? A Guide for Small Businesses – Brightpath Studio",
			Description: "What a brand refresh costs in the UK, what drives the price, and how to budget for one without paying for work you do not need.",
			Image:       "/wp-content/uploads/2026/01/brand-refresh-costs.jpg",
			Published:   14, Modified: 10,
			Data: map[string]any{
				"id": 231, "headline": "How Much Does a Brand Refresh Cost? A Guide for Small Businesses",
				"author": "hannah-okafor", "section": "Branding", "md": "post-brand-refresh.md",
				"keywords": []string{"branding", "pricing", "small business"},
				"imageAlt": "Brand guidelines, colour swatches and business cards laid out on a studio desk",
			},
		},
		{
			Path: "/blog/colour-contrast-accessible-brand-palettes/", Body: "post.html", OGType: "article",
			Title:       "Colour Contrast and Accessibility: Building a Brand Palette That Works – Brightpath Studio",
			Description: "How to check a brand palette against WCAG contrast ratios, fix the colours that fail, and keep your identity recognisable.",
			Image:       "/wp-content/uploads/2025/12/accessible-palette.jpg",
			Published:   46, Modified: 40,
			Data: map[string]any{
				"id": 214, "headline": "Colour Contrast and Accessibility: Building a Brand Palette That Works",
				"author": "james-whitfield", "section": "Accessibility", "md": "post-colour-contrast.md",
				"keywords": []string{"accessibility", "colour", "WCAG"},
				"imageAlt": "Colour swatches arranged from light to dark with contrast ratios written beside them",
			},
		},
		{
			Path: "/blog/choosing-web-fonts-without-slowing-your-site/", Body: "post.html", OGType: "article",
			Title:       "Choosing Web Fonts Without Slowing Your Site Down – Brightpath Studio",
			Description: "A designer's guide to picking typefaces for the web: licensing, file size, variable fonts and loading strategies that protect performance.",
			Image:       "/wp-content/uploads/2025/10/web-fonts.jpg",
			Published:   90, Modified: 90,
			Data: map[string]any{
				"id": 198, "headline": "Choosing Web Fonts Without Slowing Your Site Down",
				"author": "hannah-okafor", "section": "Web Design", "md": "post-web-fonts.md",
				"keywords": []string{"typography", "performance", "web fonts"},
				"imageAlt": "Printed type specimens of three typefaces pinned to a wall",
			},
		},
	}
	for _, p := range posts {
		p.Schema = wpPostGraph
		p.Data["a"] = wpAuthors[p.Data["author"].(string)]
		p.Data["sectionSlug"] = slug(p.Data["section"].(string))
		p.Data["readMinutes"] = readingMinutes(p.Data["md"].(string))
	}

	home := &webPage{
		Path: "/", Body: "home.html",
		Title:       "Brightpath Studio – Brand & Web Design Agency in Leeds",
		Description: "Brightpath Studio is a Leeds design agency creating brand identities, websites and campaigns for independent businesses across the UK.",
		Image:       "/wp-content/uploads/2024/03/brightpath-studio-team.jpg",
		Published:   820, Modified: 12,
		Data:   map[string]any{"id": 12, "bodyClass": "home page-template-default page page-id-12", "elementor": true, "posts": posts},
		Schema: wpPageGraph("WebPage"),
	}
	pages := []*webPage{
		{
			Path: "/about/", Body: "about.html",
			Title:       "About Us – Brightpath Studio",
			Description: "Meet the Brightpath Studio team: a twelve-person brand and web design agency in Leeds working with independent businesses since 2014.",
			Image:       "/wp-content/uploads/2024/03/brightpath-studio-team.jpg",
			Published:   800, Modified: 64,
			Data:   map[string]any{"id": 14, "bodyClass": "page-template-default page page-id-14", "elementor": true, "crumb": "About Us"},
			Schema: wpPageGraph("AboutPage"),
		},
		{
			Path: "/contact/", Body: "contact.html",
			Title:       "Contact – Brightpath Studio",
			Description: "Get in touch with Brightpath Studio in Leeds. Call 0113 496 0732, email hello@brightpath-studio.test or visit our studio on Wharf Street.",
			Image:       "/wp-content/uploads/2024/03/brightpath-studio-team.jpg",
			Published:   800, Modified: 150,
			Data:   map[string]any{"id": 16, "bodyClass": "page-template-default page page-id-16", "elementor": true, "crumb": "Contact"},
			Schema: wpPageGraph("ContactPage"),
		},
		{
			Path: "/services/", Body: "services.html",
			Title:       "Brand Identity & Website Design Services – Brightpath Studio",
			Description: "Brand identity, WordPress website design and ongoing design support from Brightpath Studio. Fixed-price projects for UK small businesses.",
			Image:       "/wp-content/uploads/2024/05/services-brand-identity.jpg",
			Published:   790, Modified: 30,
			Data:   map[string]any{"id": 18, "bodyClass": "page-template-default page page-id-18", "elementor": true, "crumb": "Services"},
			Schema: wpServiceGraph,
		},
		{
			Path: "/privacy-policy/", Body: "legal.html",
			Title:       "Privacy Policy – Brightpath Studio",
			Description: "How Brightpath Studio collects, uses and protects personal data from clients, website visitors and job applicants under UK GDPR.",
			Published:   800, Modified: 200,
			Data:   map[string]any{"id": 3, "bodyClass": "privacy-policy page-template-default page page-id-3", "crumb": "Privacy Policy", "md": "privacy.md"},
			Schema: wpPageGraph("WebPage"),
		},
		{
			Path: "/terms/", Body: "legal.html",
			Title:       "Terms and Conditions – Brightpath Studio",
			Description: "The terms under which Brightpath Studio provides design and development services, including payments, revisions, ownership and liability.",
			Published:   800, Modified: 210,
			Data:   map[string]any{"id": 20, "bodyClass": "page-template-default page page-id-20", "crumb": "Terms and Conditions", "md": "terms.md"},
			Schema: wpPageGraph("WebPage"),
		},
	}
	blog := &webPage{
		Path: "/blog/", Body: "blog.html",
		Title:       "Blog – Brightpath Studio",
		Description: "Articles on branding, accessibility and web design from the team at Brightpath Studio in Leeds.",
		Published:   800, Modified: 10,
		Data:   map[string]any{"id": 22, "bodyClass": "blog", "crumb": "Blog", "posts": posts},
		Schema: wpPageGraph("CollectionPage"),
	}
	notFound := &webPage{
		Path: "/404/", Body: "404.html", Status: http.StatusNotFound,
		Title: "Page not found – Brightpath Studio",
		Data:  map[string]any{"bodyClass": "error404", "noindex": true},
	}

	byPath := map[string]*webPage{home.Path: home, blog.Path: blog}
	for _, p := range append(append([]*webPage{}, pages...), posts...) {
		byPath[p.Path] = p
	}
	for _, a := range wpAuthors {
		byPath["/author/"+a.Slug+"/"] = &webPage{
			Path: "/author/" + a.Slug + "/", Body: "author.html", OGType: "profile",
			Title:       a.Name + ", Author at Brightpath Studio",
			Description: a.Bio,
			Published:   800, Modified: 10,
			Data:   map[string]any{"bodyClass": "archive author author-" + a.Slug, "author": a.Slug, "a": a, "crumb": a.Name, "posts": posts},
			Schema: wpAuthorGraph,
		}
	}

	postURLs := func() []smURL {
		var out []smURL
		for _, p := range posts {
			out = append(out, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified), images: []string{k.origin + p.Image}})
		}
		return out
	}
	pageURLs := func() []smURL {
		var out []smURL
		for _, p := range pages {
			out = append(out, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
		}
		return out
	}
	const xsl = "/main-sitemap.xsl"

	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		path := r.URL.Path
		if p, ok := byPath[path]; ok {
			k.page(w, r, p)
			return
		}
		switch path {
		case "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(12), nil)
			return
		case "/sitemap_index.xml":
			posts, pages := postURLs(), pageURLs()
			k.sendXML(w, r, "text/xml; charset=UTF-8", sitemapIndex([]smURL{
				{loc: k.origin + "/post-sitemap.xml", lastmod: newest(posts)},
				{loc: k.origin + "/page-sitemap.xml", lastmod: newest(pages)},
			}, k.origin+xsl), newest(posts))
			return
		case "/post-sitemap.xml":
			urls := postURLs()
			k.sendXML(w, r, "text/xml; charset=UTF-8", urlset(urls, k.origin+xsl), newest(urls))
			return
		case "/page-sitemap.xml":
			urls := pageURLs()
			k.sendXML(w, r, "text/xml; charset=UTF-8", urlset(urls, k.origin+xsl), newest(urls))
			return
		case "/sitemap.xml", "/wp-sitemap.xml":
			// Yoast replaces the core sitemap and points both old names
			// at its index.
			redirect(w, k.origin+"/sitemap_index.xml", http.StatusMovedPermanently)
			return
		case xsl:
			k.file(w, r, "main-sitemap.xsl", "text/xsl; charset=utf-8", ago(200), nil)
			return
		case "/feed/":
			k.file(w, r, "feed.xml", "application/rss+xml; charset=UTF-8", ago(10), map[string]any{"posts": posts})
			return
		case "/wp-json/":
			k.file(w, r, "wp-json.json", "application/json; charset=UTF-8", ago(12), nil)
			return
		}
		if k.asset(w, r, "/wp-content/", "/wp-includes/") {
			return
		}
		// WordPress's canonical redirect adds the missing trailing slash.
		if !strings.HasSuffix(path, "/") {
			if _, ok := byPath[path+"/"]; ok {
				redirect(w, k.origin+path+"/", http.StatusMovedPermanently)
				return
			}
		}
		k.page(w, r, notFound)
	}
	return &fixture{name: WordPress, host: k.host, serve: serve}
}

// The Yoast schema graph. Every page carries the same WebSite and
// Organization nodes and links to them by @id, as Yoast does.

func wpOrgID(v *view) string     { return v.Abs("/#organization") }
func wpWebsiteID(v *view) string { return v.Abs("/#website") }
func wpLogoID(v *view) string    { return v.Abs("/#/schema/logo/image/") }
func wpPersonID(v *view, slug string) string {
	return v.Abs(fmt.Sprintf("/#/schema/person/%x", fnv64([]byte(slug))))
}

func wpSiteNodes(v *view) []any {
	return []any{
		obj{
			"@type":       "WebSite",
			"@id":         wpWebsiteID(v),
			"url":         v.Abs("/"),
			"name":        "Brightpath Studio",
			"description": "Brand & web design agency in Leeds",
			"publisher":   obj{"@id": wpOrgID(v)},
			"potentialAction": []any{obj{
				"@type":       "SearchAction",
				"target":      obj{"@type": "EntryPoint", "urlTemplate": v.Abs("/?s={search_term_string}")},
				"query-input": obj{"@type": "PropertyValueSpecification", "valueRequired": true, "valueName": "search_term_string"},
			}},
			"inLanguage": "en-GB",
		},
		obj{
			"@type": "Organization",
			"@id":   wpOrgID(v),
			"name":  "Brightpath Studio",
			"url":   v.Abs("/"),
			"logo": obj{
				"@type":      "ImageObject",
				"inLanguage": "en-GB",
				"@id":        wpLogoID(v),
				"url":        v.Abs("/wp-content/uploads/2024/03/brightpath-logo.png"),
				"contentUrl": v.Abs("/wp-content/uploads/2024/03/brightpath-logo.png"),
				"width":      512,
				"height":     512,
				"caption":    "Brightpath Studio",
			},
			"image": obj{"@id": wpLogoID(v)},
			"sameAs": []string{
				"https://www.linkedin.com/company/brightpath-studio",
				"https://x.com/brightpathleeds",
				"https://www.youtube.com/@brightpathstudio",
			},
		},
	}
}

// wpWebPage is the WebPage node and its primary image and breadcrumb.
func wpWebPage(v *view, types any) []any {
	p := v.Page
	url := v.URL()
	page := obj{
		"@type":         types,
		"@id":           url,
		"url":           url,
		"name":          p.Title,
		"isPartOf":      obj{"@id": wpWebsiteID(v)},
		"datePublished": v.Pub().Format("2006-01-02T15:04:05+00:00"),
		"dateModified":  v.Mod().Format("2006-01-02T15:04:05+00:00"),
		"breadcrumb":    obj{"@id": url + "#breadcrumb"},
		"inLanguage":    "en-GB",
		"potentialAction": []any{obj{
			"@type": "ReadAction", "target": []string{url},
		}},
	}
	if p.Description != "" {
		page["description"] = p.Description
	}
	if p.Path == "/" {
		page["about"] = obj{"@id": wpOrgID(v)}
	}
	nodes := []any{page}
	if p.Image != "" {
		page["primaryImageOfPage"] = obj{"@id": url + "#primaryimage"}
		page["image"] = obj{"@id": url + "#primaryimage"}
		page["thumbnailUrl"] = v.Abs(p.Image)
		nodes = append(nodes, obj{
			"@type": "ImageObject", "inLanguage": "en-GB", "@id": url + "#primaryimage",
			"url": v.Abs(p.Image), "contentUrl": v.Abs(p.Image), "width": 1200, "height": 630,
		})
	}
	crumbs := []any{obj{"@type": "ListItem", "position": 1, "name": "Home", "item": v.Abs("/")}}
	if strings.HasPrefix(p.Path, "/blog/") && p.Path != "/blog/" {
		crumbs = append(crumbs,
			obj{"@type": "ListItem", "position": 2, "name": "Blog", "item": v.Abs("/blog/")},
			obj{"@type": "ListItem", "position": 3, "name": p.Data["headline"]})
	} else if name, ok := p.Data["crumb"]; ok {
		crumbs = append(crumbs, obj{"@type": "ListItem", "position": 2, "name": name})
	}
	nodes = append(nodes, obj{"@type": "BreadcrumbList", "@id": url + "#breadcrumb", "itemListElement": crumbs})
	return nodes
}

func wpPerson(v *view, a *wpAuthor) obj {
	return obj{
		"@type": "Person",
		"@id":   wpPersonID(v, a.Slug),
		"name":  a.Name,
		"image": obj{
			"@type": "ImageObject", "inLanguage": "en-GB", "@id": v.Abs("/#/schema/person/image/" + a.Slug),
			"url":     v.Abs("/wp-content/uploads/2024/03/" + a.Slug + "-300x300.jpg"),
			"caption": a.Name,
		},
		"description": a.Bio,
		"jobTitle":    a.Role,
		"sameAs":      []string{a.LinkedIn},
		"url":         v.Abs("/author/" + a.Slug + "/"),
		"worksFor":    obj{"@id": wpOrgID(v)},
	}
}

func wpPageGraph(pageType string) func(v *view) any {
	return func(v *view) any {
		var types any = "WebPage"
		if pageType != "WebPage" {
			types = []string{"WebPage", pageType}
		}
		return obj{"@context": "https://schema.org", "@graph": append(wpWebPage(v, types), wpSiteNodes(v)...)}
	}
}

func wpServiceGraph(v *view) any {
	nodes := append(wpWebPage(v, "WebPage"), obj{
		"@type":       "Service",
		"@id":         v.URL() + "#service",
		"name":        "Brand identity and website design",
		"serviceType": "Brand identity design",
		"description": "Fixed-price brand identity and WordPress website projects for independent UK businesses, from discovery workshop to launch and support.",
		"provider":    obj{"@id": wpOrgID(v)},
		"areaServed":  obj{"@type": "Country", "name": "United Kingdom"},
		"url":         v.URL(),
		"offers": obj{
			"@type": "AggregateOffer", "priceCurrency": "GBP", "lowPrice": "4500", "highPrice": "28000",
		},
	})
	return obj{"@context": "https://schema.org", "@graph": append(nodes, wpSiteNodes(v)...)}
}

func wpPostGraph(v *view) any {
	p := v.Page
	a := wpAuthors[p.Data["author"].(string)]
	url := v.URL()
	article := obj{
		"@type":            "BlogPosting",
		"@id":              url + "#article",
		"isPartOf":         obj{"@id": url},
		"author":           obj{"name": a.Name, "@id": wpPersonID(v, a.Slug)},
		"headline":         p.Data["headline"],
		"datePublished":    v.Pub().Format("2006-01-02T15:04:05+00:00"),
		"dateModified":     v.Mod().Format("2006-01-02T15:04:05+00:00"),
		"mainEntityOfPage": obj{"@id": url},
		"publisher":        obj{"@id": wpOrgID(v)},
		"image":            obj{"@id": url + "#primaryimage"},
		"thumbnailUrl":     v.Abs(p.Image),
		"keywords":         p.Data["keywords"],
		"articleSection":   []any{p.Data["section"]},
		"inLanguage":       "en-GB",
	}
	nodes := append([]any{article}, wpWebPage(v, "WebPage")...)
	nodes = append(nodes, wpSiteNodes(v)...)
	nodes = append(nodes, wpPerson(v, a))
	return obj{"@context": "https://schema.org", "@graph": nodes}
}

func wpAuthorGraph(v *view) any {
	a := wpAuthors[v.Page.Data["author"].(string)]
	nodes := wpWebPage(v, "ProfilePage")
	nodes[0].(obj)["mainEntity"] = obj{"@id": wpPersonID(v, a.Slug)}
	nodes = append(nodes, wpSiteNodes(v)...)
	nodes = append(nodes, wpPerson(v, a))
	return obj{"@context": "https://schema.org", "@graph": nodes}
}

// readingMinutes is the reading-time estimate Yoast shows for a post, at
// about 200 words a minute.
func readingMinutes(md string) int {
	b, err := siteFiles.ReadFile("sites/" + WordPress + "/" + md)
	if err != nil {
		return 1
	}
	return max(1, (len(strings.Fields(string(b)))+199)/200)
}
