package testsite

import (
	"bytes"
	"net/http"
	"strings"
)

// Lumen's documentation is the model answer: a static Hugo site with
// complete metadata, WebSite and Organization JSON-LD on the homepage,
// TechArticle and BreadcrumbList on every doc, question headings with
// answer-first paragraphs, tables and cited sources, a valid llms.txt and
// llms-full.txt, a Markdown twin of every doc page, a robots.txt that
// welcomes AI search crawlers and declares content signals, a fresh
// sitemap, an Atom feed and a full set of security headers.

// docsAuthor is a documentation author.
type docsAuthor struct {
	Name, Anchor, GitHub, Mastodon string
}

var docsAuthors = map[string]*docsAuthor{
	"maya": {Name: "Maya Lindqvist", Anchor: "maya-lindqvist", GitHub: "https://github.com/mayalindqvist", Mastodon: "https://fosstodon.org/@mayalindqvist"},
	"dan":  {Name: "Daniel Osei", Anchor: "daniel-osei", GitHub: "https://github.com/danosei", Mastodon: "https://hachyderm.io/@danosei"},
}

func newDocs(e *env) *fixture {
	k := newKit(e, Docs, true, func(h http.Header) {
		h.Set("Server", "Netlify")
		h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains; preload")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cache-Control", "public, max-age=0, must-revalidate")
	})

	docs := []*webPage{
		{
			Path: "/docs/getting-started/", Published: 200, Modified: 4,
			Title:       "Getting started with Lumen | Lumen",
			Description: "Install Lumen, index your first static site and add the search box to your pages in about five minutes.",
			Data:        map[string]any{"md": "getting-started.md", "name": "Getting started", "author": "maya", "note": "install Lumen, index a site and add the search box in five minutes"},
		},
		{
			Path: "/docs/configuration/", Published: 190, Modified: 9,
			Title:       "Configuring Lumen with lumen.toml | Lumen",
			Description: "Every option in lumen.toml: which pages to index, how to weight fields, language settings, result snippets and index size limits.",
			Data:        map[string]any{"md": "configuration.md", "name": "Configuration", "author": "maya", "note": "every lumen.toml option with defaults and examples"},
		},
		{
			Path: "/docs/search-index/", Published: 170, Modified: 15,
			Title:       "How the Lumen search index works | Lumen",
			Description: "How Lumen builds a compressed, sharded search index at build time and answers queries in the browser without a server.",
			Data:        map[string]any{"md": "search-index.md", "name": "How the search index works", "author": "dan", "note": "index format, sharding, ranking and size benchmarks"},
		},
		{
			Path: "/docs/deployment/", Published: 160, Modified: 22,
			Title:       "Deploying a Lumen-powered site | Lumen",
			Description: "Build the Lumen index in CI and deploy it with your static site to Netlify, GitHub Pages, Cloudflare Pages or any web server.",
			Data:        map[string]any{"md": "deployment.md", "name": "Deployment", "author": "dan", "note": "building the index in CI and hosting it on any static host"},
		},
	}
	for _, p := range docs {
		p.Body = "doc.html"
		p.OGType = "article"
		p.Image = "/images/lumen-card.png"
		p.Data["a"] = docsAuthors[p.Data["author"].(string)]
		p.Data["docs"] = docs
		p.Data["section"] = "Docs"
		p.Schema = docsArticleSchema
	}
	home := &webPage{
		Path: "/", Body: "home.html", Published: 400, Modified: 4, Image: "/images/lumen-card.png",
		Title:       "Lumen – Fast, private search for static documentation sites",
		Description: "Lumen is an open-source search engine for static sites. It builds a compact index at build time and searches in the browser, with no server.",
		Data:        map[string]any{"docs": docs},
		Schema:      docsHomeSchema,
	}
	index := &webPage{
		Path: "/docs/", Body: "docs-index.html", Published: 200, Modified: 4, Image: "/images/lumen-card.png",
		Title:       "Documentation | Lumen",
		Description: "Lumen documentation: getting started, configuration reference, how the search index works, and deployment guides.",
		Data:        map[string]any{"docs": docs, "crumb": "Docs"},
		Schema:      docsCrumbSchema,
	}
	// The site launched 400 days ago; each page says when it last changed.
	simple := func(path, md, title, desc string, mod int) *webPage {
		return &webPage{
			Path: path, Body: "simple.html", Published: 400, Modified: mod, Image: "/images/lumen-card.png",
			Title: title, Description: desc,
			Data:   map[string]any{"md": md, "crumb": strings.SplitN(title, " |", 2)[0]},
			Schema: docsCrumbSchema,
		}
	}
	others := []*webPage{
		simple("/about/", "about.md", "About Lumen | Lumen",
			"Lumen is an open-source project started in 2021, maintained by Maya Lindqvist and Daniel Osei and funded by sponsors.", 30),
		simple("/contact/", "contact.md", "Contact | Lumen",
			"How to reach the Lumen maintainers: email for security and partnerships, GitHub issues and discussions for bugs and questions.", 60),
		simple("/privacy/", "privacy.md", "Privacy policy | Lumen",
			"The Lumen website sets no cookies and runs no analytics. This policy explains the little data our host and email provider process.", 120),
		simple("/terms/", "terms.md", "Terms of use | Lumen",
			"Terms of use for the Lumen website and documentation, which are published under the Creative Commons Attribution 4.0 licence.", 120),
	}
	notFound := &webPage{
		Path: "/404.html", Body: "404.html", Status: http.StatusNotFound,
		Title: "Page not found | Lumen", Description: "This page does not exist.",
		Data: map[string]any{"noindex": true},
	}

	byPath := map[string]*webPage{home.Path: home, index.Path: index}
	twins := map[string]*webPage{}
	for _, p := range docs {
		byPath[p.Path] = p
		twins[p.Path+"index.md"] = p
	}
	for _, p := range others {
		byPath[p.Path] = p
	}
	sitemapPages := append([]*webPage{home, index}, docs...)
	sitemapPages = append(sitemapPages, others[0], others[1])

	// markdown renders the Markdown source of a doc, the same text the
	// HTML page is made from.
	markdown := func(p *webPage) ([]byte, error) {
		var b bytes.Buffer
		err := k.tmpl.ExecuteTemplate(&b, p.Data["md"].(string), k.newView(p))
		return b.Bytes(), err
	}

	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		path := r.URL.Path
		if p, ok := byPath[path]; ok {
			k.page(w, r, p)
			return
		}
		if p, ok := twins[path]; ok {
			md, err := markdown(p)
			if err != nil {
				k.fail(w, err)
				return
			}
			k.send(w, r, doc{status: http.StatusOK, ctype: "text/markdown; charset=utf-8", body: md, modified: ago(p.Modified)})
			return
		}
		switch path {
		case "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(30), nil)
			return
		case "/llms.txt":
			k.file(w, r, "llms.txt", "text/plain; charset=utf-8", ago(4), map[string]any{"docs": docs})
			return
		case "/llms-full.txt":
			var b bytes.Buffer
			b.WriteString("# Lumen documentation\n\n> The complete Lumen documentation in one Markdown file.\n")
			for _, p := range docs {
				md, err := markdown(p)
				if err != nil {
					k.fail(w, err)
					return
				}
				b.WriteString("\n---\n\nSource: " + k.origin + p.Path + "\n\n")
				b.Write(md)
			}
			k.send(w, r, doc{status: http.StatusOK, ctype: "text/plain; charset=utf-8", body: b.Bytes(), modified: ago(4)})
			return
		case "/sitemap.xml":
			var urls []smURL
			for _, p := range sitemapPages {
				urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
			}
			k.sendXML(w, r, "application/xml", urlset(urls, ""), newest(urls))
			return
		case "/index.xml":
			k.file(w, r, "index.xml", "application/atom+xml; charset=utf-8", ago(4), map[string]any{"docs": docs})
			return
		}
		if k.asset(w, r, "/images/", "/css/", "/js/", "/favicon") {
			return
		}
		// Hugo's static host adds the trailing slash a directory URL needs.
		if !strings.HasSuffix(path, "/") {
			if _, ok := byPath[path+"/"]; ok {
				redirect(w, k.origin+path+"/", http.StatusMovedPermanently)
				return
			}
		}
		k.page(w, r, notFound)
	}
	return &fixture{name: Docs, host: k.host, serve: serve}
}

func docsOrg(v *view) obj {
	return obj{
		"@context": "https://schema.org",
		"@type":    "Organization",
		"@id":      v.Abs("/#organization"),
		"name":     "Lumen",
		"url":      v.Abs("/"),
		"logo":     obj{"@type": "ImageObject", "url": v.Abs("/images/lumen-logo.png"), "width": 512, "height": 512},
		"sameAs": []string{
			"https://github.com/lumen",
			"https://www.wikidata.org/wiki/Q118234567",
			"https://fosstodon.org/@lumen",
		},
		"contactPoint": obj{
			"@type": "ContactPoint", "contactType": "technical support",
			"email": "maintainers@lumen-docs.test", "url": v.Abs("/contact/"),
		},
		"foundingDate": "2021",
	}
}

func docsHomeSchema(v *view) any {
	return []any{
		obj{
			"@context":    "https://schema.org",
			"@type":       "WebSite",
			"@id":         v.Abs("/#website"),
			"name":        "Lumen",
			"url":         v.Abs("/"),
			"description": v.Page.Description,
			"inLanguage":  "en",
			"publisher":   obj{"@id": v.Abs("/#organization")},
		},
		docsOrg(v),
	}
}

func docsBreadcrumb(v *view) obj {
	items := []any{obj{"@type": "ListItem", "position": 1, "name": "Home", "item": v.Abs("/")}}
	if strings.HasPrefix(v.Page.Path, "/docs/") && v.Page.Path != "/docs/" {
		items = append(items,
			obj{"@type": "ListItem", "position": 2, "name": "Docs", "item": v.Abs("/docs/")},
			obj{"@type": "ListItem", "position": 3, "name": v.Page.Data["name"], "item": v.URL()})
	} else {
		items = append(items, obj{"@type": "ListItem", "position": 2, "name": v.Page.Data["crumb"], "item": v.URL()})
	}
	return obj{"@context": "https://schema.org", "@type": "BreadcrumbList", "@id": v.URL() + "#breadcrumb", "itemListElement": items}
}

// docsCrumbSchema is the markup of pages that are not articles: the page
// itself, linked to the site and to its breadcrumb trail.
func docsCrumbSchema(v *view) any {
	return []any{
		obj{
			"@context":   "https://schema.org",
			"@type":      "WebPage",
			"@id":        v.URL(),
			"url":        v.URL(),
			"name":       v.Page.Title,
			"isPartOf":   obj{"@id": v.Abs("/#website")},
			"publisher":  obj{"@id": v.Abs("/#organization")},
			"breadcrumb": obj{"@id": v.URL() + "#breadcrumb"},
			"inLanguage": "en",
		},
		docsBreadcrumb(v),
	}
}

func docsArticleSchema(v *view) any {
	a := v.Page.Data["a"].(*docsAuthor)
	return []any{
		obj{
			"@context":         "https://schema.org",
			"@type":            "TechArticle",
			"headline":         strings.TrimSuffix(v.Page.Title, " | Lumen"),
			"description":      v.Page.Description,
			"url":              v.URL(),
			"mainEntityOfPage": obj{"@type": "WebPage", "@id": v.URL(), "breadcrumb": obj{"@id": v.URL() + "#breadcrumb"}},
			"image":            v.Abs(v.Page.Image),
			"datePublished":    v.Pub().Format("2006-01-02T15:04:05Z07:00"),
			"dateModified":     v.Mod().Format("2006-01-02T15:04:05Z07:00"),
			"inLanguage":       "en",
			"author": obj{
				"@type":  "Person",
				"name":   a.Name,
				"url":    v.Abs("/about/#" + a.Anchor),
				"sameAs": []string{a.GitHub, a.Mastodon},
			},
			"publisher": obj{"@id": v.Abs("/#organization"), "@type": "Organization", "name": "Lumen", "logo": obj{"@type": "ImageObject", "url": v.Abs("/images/lumen-logo.png")}},
		},
		docsBreadcrumb(v),
	}
}
