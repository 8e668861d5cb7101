package testsite

import (
	"net/http"
	"strings"
)

// Copper Kettle Coffee is a Shopify store on the Dawn theme with a PageFly
// homepage: assets on cdn.shopify.com, the Shopify.theme bootstrap script,
// Shopify's platform headers and default robots.txt (which, like every
// Shopify store's, disallows /policies/), a sitemap index with product,
// page and blog children, Product JSON-LD with offers and ratings, an
// Organization block on the homepage, and blog articles whose author is
// just the string "Copper Kettle". No llms.txt.

// shopProduct is a product as its page and JSON-LD describe it.
type shopProduct struct {
	Handle, Name, SKU, Price, Availability, Image, ImageAlt, Summary string
	Rating, Reviews                                                  string
	Weight                                                           string
}

var shopProducts = []*shopProduct{
	{
		Handle: "ethiopia-yirgacheffe-single-origin", Name: "Ethiopia Yirgacheffe Single Origin",
		SKU: "CK-ETH-250", Price: "12.50", Availability: "https://schema.org/InStock", Weight: "250g",
		Image:    "https://cdn.shopify.com/s/files/1/0612/3456/7890/files/ethiopia-yirgacheffe-250g.jpg?v=1709210043",
		ImageAlt: "250g bag of Ethiopia Yirgacheffe coffee beside a cup of black coffee",
		Summary:  "A bright, floral washed coffee from smallholder farms in Gedeo, with notes of bergamot, peach and jasmine. Roasted light for filter brewing.",
		Rating:   "4.8", Reviews: "126",
	},
	{
		Handle: "house-espresso-blend", Name: "House Espresso Blend",
		SKU: "CK-ESP-250", Price: "10.95", Availability: "https://schema.org/InStock", Weight: "250g",
		Image:    "https://cdn.shopify.com/s/files/1/0612/3456/7890/files/house-espresso-250g.jpg?v=1709210051",
		ImageAlt: "250g bag of House Espresso Blend with an espresso shot in a glass",
		Summary:  "Our everyday espresso: Brazilian and Colombian coffees roasted medium for chocolate, hazelnut and a sweet caramel finish that stands up to milk.",
		Rating:   "4.6", Reviews: "212",
	},
	{
		Handle: "copper-pour-over-kettle", Name: "Copper Pour-Over Kettle",
		SKU: "CK-KET-001", Price: "64.00", Availability: "https://schema.org/InStock", Weight: "0.9kg",
		Image:    "https://cdn.shopify.com/s/files/1/0612/3456/7890/files/copper-pour-over-kettle.jpg?v=1709210067",
		ImageAlt: "Copper gooseneck pour-over kettle on a wooden counter",
		Summary:  "A 900ml gooseneck kettle in solid copper with a stainless steel lining, built for precise, steady pouring over filter coffee.",
		Rating:   "4.7", Reviews: "58",
	},
}

func newShopify(e *env) *fixture {
	k := newKit(e, Shopify, true, func(h http.Header) {
		h.Set("x-shopid", "12345")
		h.Set("x-sorting-hat-shopid", "12345")
		h.Set("x-shardid", "300")
		h.Set("powered-by", "Shopify")
		h.Set("x-storefront-renderer-rendered", "1")
		h.Set("content-language", "en")
		h.Set("strict-transport-security", "max-age=7889238")
		h.Set("x-content-type-options", "nosniff")
		h.Set("x-download-options", "noopen")
		h.Set("x-permitted-cross-domain-policies", "none")
		h.Set("x-xss-protection", "1; mode=block")
		h.Set("x-frame-options", "DENY")
		h.Set("content-security-policy", "block-all-mixed-content; frame-ancestors 'none'; upgrade-insecure-requests;")
	})
	const logo = "https://cdn.shopify.com/s/files/1/0612/3456/7890/files/copper-kettle-logo.png?v=1690000000"

	home := &webPage{
		Path: "/", Body: "home.html", Published: 900, Modified: 5,
		Title:       "Copper Kettle Coffee – Small-batch coffee roasted in Bristol",
		Description: "Speciality coffee roasted in small batches in Bristol every Tuesday. Single origins, espresso blends and brewing kit, delivered free over £25.",
		Image:       "https://cdn.shopify.com/s/files/1/0612/3456/7890/files/roastery-share.jpg?v=1709210001",
		Data:        map[string]any{"template": "index", "products": shopProducts, "pagefly": true},
		Schema: func(v *view) any {
			return []any{
				obj{
					"@context": "https://schema.org",
					"@type":    "Organization",
					"name":     "Copper Kettle Coffee",
					"url":      v.Abs(""),
					"logo":     logo,
					"sameAs": []string{
						"https://www.instagram.com/copperkettlecoffee",
						"https://www.facebook.com/copperkettlecoffee",
					},
				},
				obj{
					"@context": "https://schema.org",
					"@type":    "WebSite",
					"name":     "Copper Kettle Coffee",
					"url":      v.Abs(""),
					"potentialAction": obj{
						"@type":       "SearchAction",
						"target":      v.Abs("/search?q={search_term_string}"),
						"query-input": "required name=search_term_string",
					},
				},
			}
		},
	}

	byPath := map[string]*webPage{"/": home}
	var productPages, infoPages, articlePages []*webPage
	for i, sp := range shopProducts {
		p := &webPage{
			Path: "/products/" + sp.Handle, Body: "product.html", OGType: "product",
			Title:       sp.Name + " – Copper Kettle Coffee",
			Description: sp.Summary,
			Image:       sp.Image,
			Published:   400 + 30*i, Modified: 6 + 9*i,
			Data: map[string]any{"template": "product", "p": sp, "md": "product-" + sp.Handle + ".md"},
			Schema: func(v *view) any {
				return obj{
					"@context":    "https://schema.org/",
					"@type":       "Product",
					"name":        sp.Name,
					"url":         v.URL(),
					"image":       []string{sp.Image},
					"description": sp.Summary,
					"sku":         sp.SKU,
					"brand":       obj{"@type": "Brand", "name": "Copper Kettle Coffee"},
					"offers": obj{
						"@type":         "Offer",
						"sku":           sp.SKU,
						"price":         sp.Price,
						"priceCurrency": "GBP",
						"availability":  sp.Availability,
						"url":           v.URL(),
						"seller":        obj{"@type": "Organization", "name": "Copper Kettle Coffee"},
					},
					"aggregateRating": obj{
						"@type": "AggregateRating", "ratingValue": sp.Rating, "reviewCount": sp.Reviews,
						"bestRating": "5", "worstRating": "1",
					},
				}
			},
		}
		productPages = append(productPages, p)
	}
	articles := []struct {
		handle, title, desc, image string
		pub, mod                   int
	}{
		{
			"how-to-brew-pour-over-coffee-at-home", "How to Brew Pour-Over Coffee at Home",
			"A step-by-step pour-over recipe for a clean, sweet cup: the ratio, grind, water temperature and timings we use in the roastery.",
			"https://cdn.shopify.com/s/files/1/0612/3456/7890/articles/pour-over-guide.jpg?v=1712000000", 20, 18,
		},
		{
			"what-does-direct-trade-coffee-mean", "What Does Direct Trade Coffee Mean?",
			"What direct trade means at Copper Kettle, how it differs from Fairtrade certification, and what we pay the farms we buy from.",
			"https://cdn.shopify.com/s/files/1/0612/3456/7890/articles/direct-trade.jpg?v=1705000000", 75, 75,
		},
	}
	for _, a := range articles {
		p := &webPage{
			Path: "/blogs/news/" + a.handle, Body: "article.html", OGType: "article",
			Title: a.title + " – Copper Kettle Coffee", Description: a.desc, Image: a.image,
			Published: a.pub, Modified: a.mod,
			Data: map[string]any{"template": "article", "headline": a.title, "md": "article-" + a.handle + ".md"},
		}
		p.Schema = func(v *view) any {
			return obj{
				"@context":         "https://schema.org/",
				"@type":            "Article",
				"headline":         p.Data["headline"],
				"description":      p.Description,
				"mainEntityOfPage": obj{"@type": "WebPage", "@id": v.URL()},
				"image":            obj{"@type": "ImageObject", "url": p.Image, "width": 1920, "height": 1080},
				"datePublished":    v.Pub().Format("2006-01-02T15:04:05Z"),
				"dateModified":     v.Mod().Format("2006-01-02T15:04:05Z"),
				"author":           "Copper Kettle",
				"publisher": obj{
					"@type": "Organization", "name": "Copper Kettle Coffee",
					"logo": obj{"@type": "ImageObject", "url": logo},
				},
			}
		}
		articlePages = append(articlePages, p)
	}
	infoPages = []*webPage{
		{
			Path: "/pages/about-us", Body: "page.html", Published: 880, Modified: 95,
			Title:       "About Us – Copper Kettle Coffee",
			Description: "Copper Kettle Coffee is a small-batch roastery in Bristol founded in 2017 by Tom and Elif Marsh, buying directly from farms in five countries.",
			Data:        map[string]any{"template": "page", "heading": "About us", "md": "about-us.md"},
		},
		{
			Path: "/pages/contact", Body: "contact.html", Published: 880, Modified: 140,
			Title:       "Contact – Copper Kettle Coffee",
			Description: "Contact Copper Kettle Coffee: email hello@copperkettle-shop.test, call 0117 496 0288 or visit the roastery shop in Bristol.",
			Data:        map[string]any{"template": "page.contact"},
		},
	}
	policies := []*webPage{
		{
			Path: "/policies/privacy-policy", Body: "policy.html", Published: 880, Modified: 250,
			Title: "Privacy policy – Copper Kettle Coffee",
			Data:  map[string]any{"template": "policy", "heading": "Privacy policy", "md": "privacy-policy.md"},
		},
		{
			Path: "/policies/terms-of-service", Body: "policy.html", Published: 880, Modified: 250,
			Title: "Terms of service – Copper Kettle Coffee",
			Data:  map[string]any{"template": "policy", "heading": "Terms of service", "md": "terms-of-service.md"},
		},
	}
	collection := &webPage{
		Path: "/collections/all", Body: "collection.html", Published: 880, Modified: 6,
		Title:       "Products – Copper Kettle Coffee",
		Description: "Every coffee and piece of brewing kit in the Copper Kettle Coffee shop, roasted and packed in Bristol.",
		Data:        map[string]any{"template": "collection", "products": shopProducts},
	}
	blog := &webPage{
		Path: "/blogs/news", Body: "blog.html", Published: 880, Modified: 18,
		Title:       "News – Copper Kettle Coffee",
		Description: "Brewing guides, sourcing stories and roastery news from Copper Kettle Coffee in Bristol.",
		Data:        map[string]any{"template": "blog", "articles": articlePages},
	}
	cart := &webPage{
		Path: "/cart", Body: "cart.html", Published: 880, Modified: 30,
		Title: "Your Shopping Cart – Copper Kettle Coffee",
		Data:  map[string]any{"template": "cart"},
	}
	for _, list := range [][]*webPage{productPages, infoPages, articlePages, policies, {collection, blog, cart}} {
		for _, p := range list {
			byPath[p.Path] = p
		}
	}
	notFound := &webPage{
		Path: "/404", Body: "404.html", Status: http.StatusNotFound,
		Title: "404 Not Found – Copper Kettle Coffee",
		Data:  map[string]any{"template": "404"},
	}

	sitemaps := map[string]func() []smURL{
		"/sitemap_products_1.xml": func() []smURL {
			urls := []smURL{{loc: k.origin + "/", lastmod: ago(home.Modified)}}
			for _, p := range productPages {
				urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified), images: []string{p.Image}})
			}
			return urls
		},
		"/sitemap_pages_1.xml": func() []smURL {
			var urls []smURL
			for _, p := range infoPages {
				urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
			}
			return urls
		},
		"/sitemap_blogs_1.xml": func() []smURL {
			urls := []smURL{{loc: k.origin + blog.Path, lastmod: ago(blog.Modified)}}
			for _, p := range articlePages {
				urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
			}
			return urls
		},
	}

	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		path := r.URL.Path
		if len(path) > 1 && strings.HasSuffix(path, "/") {
			// Shopify routes have no trailing slash and redirect to drop it.
			redirect(w, k.origin+strings.TrimSuffix(path, "/"), http.StatusMovedPermanently)
			return
		}
		if p, ok := byPath[path]; ok {
			k.page(w, r, p)
			return
		}
		if list, ok := sitemaps[path]; ok {
			urls := list()
			k.sendXML(w, r, "application/xml; charset=utf-8", urlset(urls, ""), newest(urls))
			return
		}
		switch path {
		case "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(30), nil)
			return
		case "/sitemap.xml":
			// Shopify pages child sitemaps by id range.
			children := []smURL{
				{loc: k.origin + "/sitemap_products_1.xml?from=7012345678901&to=7012345679093", lastmod: newest(sitemaps["/sitemap_products_1.xml"]())},
				{loc: k.origin + "/sitemap_pages_1.xml?from=98765432101&to=98765432187", lastmod: newest(sitemaps["/sitemap_pages_1.xml"]())},
				{loc: k.origin + "/sitemap_blogs_1.xml", lastmod: newest(sitemaps["/sitemap_blogs_1.xml"]())},
			}
			k.sendXML(w, r, "application/xml; charset=utf-8", sitemapIndex(children, ""), newest(children))
			return
		}
		k.page(w, r, notFound)
	}
	return &fixture{name: Shopify, host: k.host, serve: serve}
}
