package testsite

import (
	"fmt"
	"net/http"
	"strings"
)

// Fortress Insurance is a perfectly decent server-rendered site whose CDN
// bot protection challenges AI crawlers: the robots.txt invites everyone,
// yet GPTBot, ClaudeBot, PerplexityBot and friends get a 403 "Just a
// moment..." interstitial marked cf-mitigated: challenge. Browsers and
// GeoScan's own user agent see the real pages, which is exactly why site
// owners do not notice.

// challengedAgents are the user-agent tokens the edge challenges, matched
// case-insensitively anywhere in the User-Agent header.
var challengedAgents = []string{
	"GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Claude-SearchBot", "Claude-User",
	"PerplexityBot", "Perplexity-User", "Google-Extended", "CCBot", "Bytespider", "Amazonbot",
	"Applebot", "meta-externalagent",
}

func challenged(ua string) bool {
	ua = strings.ToLower(ua)
	for _, t := range challengedAgents {
		if strings.Contains(ua, strings.ToLower(t)) {
			return true
		}
	}
	return false
}

// cfRay is a Cloudflare-style request id. It is derived from the request
// rather than random so that repeated scans record identical evidence.
func cfRay(r *http.Request) string {
	return fmt.Sprintf("%016x-LHR", fnv64([]byte(r.Method+" "+r.URL.RequestURI()+" "+r.UserAgent())))
}

func newEdge(e *env) *fixture {
	k := newKit(e, Edge, true, func(h http.Header) {
		h.Set("Server", "cloudflare")
		h.Set("CF-Cache-Status", "DYNAMIC")
		h.Set("Strict-Transport-Security", "max-age=15552000; includeSubDomains")
		h.Set("X-Content-Type-Options", "nosniff")
	})
	org := func(v *view) any {
		return obj{
			"@context":     "https://schema.org",
			"@type":        "Organization",
			"@id":          v.Abs("/#organization"),
			"name":         "Fortress Insurance",
			"legalName":    "Fortress Insurance Services Ltd",
			"url":          v.Abs("/"),
			"logo":         v.Abs("/assets/img/fortress-logo.png"),
			"foundingDate": "1987",
			"address": obj{
				"@type": "PostalAddress", "streetAddress": "22 Park Row", "addressLocality": "Leeds",
				"postalCode": "LS1 5JF", "addressCountry": "GB",
			},
			"contactPoint": obj{
				"@type": "ContactPoint", "telephone": "+44-113-496-0815", "contactType": "customer service",
				"areaServed": "GB", "availableLanguage": "English",
			},
			"sameAs": []string{
				"https://www.linkedin.com/company/fortress-insurance-uk",
				"https://www.facebook.com/fortressinsuranceuk",
			},
		}
	}
	pages := []*webPage{
		{
			Path: "/", Body: "home.html", Published: 1200, Modified: 21,
			Title:       "Fortress Insurance | Home, Landlord and Small Business Insurance",
			Description: "Independent UK insurance broker since 1987. Compare home, landlord and small business cover from 30 insurers with advice from a named broker.",
			Image:       "/assets/img/fortress-share.jpg",
			Schema:      org,
		},
		{
			Path: "/home-insurance/", Body: "home-insurance.html", Published: 900, Modified: 35,
			Title:       "Home Insurance Quotes from an Independent Broker | Fortress Insurance",
			Description: "Buildings and contents cover arranged by a Fortress broker who compares 30 UK insurers, explains the exclusions and helps when you claim.",
			Image:       "/assets/img/fortress-share.jpg",
		},
		{
			Path: "/about/", Body: "about.html", Published: 1200, Modified: 120,
			Title:       "About Fortress Insurance | Independent Broker in Leeds",
			Description: "Fortress Insurance is a family-run, FCA-authorised insurance broker founded in Leeds in 1987, arranging cover for 14,000 UK customers.",
			Image:       "/assets/img/fortress-share.jpg",
			Schema:      org,
		},
		{
			Path: "/contact/", Body: "contact.html", Published: 1200, Modified: 120,
			Title:       "Contact Fortress Insurance | Call, Email or Visit",
			Description: "Call Fortress Insurance on 0113 496 0815, email help@fortress-edge.test, or visit our Leeds office on Park Row. Claims line open 24 hours.",
		},
		{
			Path: "/privacy/", Body: "privacy.html", Published: 1200, Modified: 300,
			Title:       "Privacy Notice | Fortress Insurance",
			Description: "How Fortress Insurance Services Ltd uses the personal information you give us when you ask for a quote, buy a policy or make a claim.",
		},
	}
	byPath := map[string]*webPage{}
	for _, p := range pages {
		byPath[p.Path] = p
	}
	notFound := &webPage{Path: "/404", Body: "404.html", Status: http.StatusNotFound, Title: "Page not found | Fortress Insurance"}

	serve := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("CF-RAY", cfRay(r))
		if challenged(r.UserAgent()) {
			challenge(k, w, r)
			return
		}
		if !methodOK(w, r) {
			return
		}
		if p, ok := byPath[r.URL.Path]; ok {
			k.page(w, r, p)
			return
		}
		switch r.URL.Path {
		case "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(200), nil)
			return
		case "/sitemap.xml":
			var urls []smURL
			for _, p := range pages {
				if p.Path != "/privacy/" {
					urls = append(urls, smURL{loc: k.origin + p.Path, lastmod: ago(p.Modified)})
				}
			}
			k.sendXML(w, r, "application/xml; charset=utf-8", urlset(urls, ""), newest(urls))
			return
		}
		if k.asset(w, r, "/assets/") {
			return
		}
		k.page(w, r, notFound)
	}
	return &fixture{name: Edge, host: k.host, serve: serve}
}

// challenge answers with the managed-challenge interstitial.
func challenge(k *kit, w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("cf-mitigated", "challenge")
	h.Set("Cache-Control", "private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0")
	h.Set("Expires", "Thu, 01 Jan 1970 00:00:01 GMT")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Permissions-Policy", "accelerometer=(),autoplay=(),camera=(),clipboard-read=(),geolocation=(),gyroscope=(),microphone=()")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "SAMEORIGIN")
	var b strings.Builder
	if err := k.tmpl.ExecuteTemplate(&b, "challenge.html", map[string]string{"Host": k.host, "Ray": strings.TrimSuffix(cfRay(r), "-LHR")}); err != nil {
		k.fail(w, err)
		return
	}
	k.send(w, r, doc{status: http.StatusForbidden, ctype: "text/html; charset=UTF-8", body: []byte(b.String())})
}
