package testsite

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// The heavy fixture is a homepage of about 4.9 MB shaped the way big
// commercial homepages are: a mega menu of nested divs, spans and links
// with long class and data attributes, megabytes of inline state JSON and
// script, and a long feed of product cards and paragraphs in several
// languages. It is under the fetcher's 5 MiB body cap, so it is read
// whole; what it tests is the memory of parsing and judging such a page.

// heavySize is about the size of the heavy homepage.
const heavySize = 4_900_000

// heavyPage is the homepage, built once.
var heavyPage = sync.OnceValue(func() []byte {
	origin := "https://" + hosts[Heavy]
	var b bytes.Buffer
	b.Grow(heavySize + 64<<10)
	b.WriteString("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
		"<title>Everything Store – Deals in every department</title>" +
		"<meta name=\"description\" content=\"Millions of products, delivered tomorrow.\">" +
		"<link rel=\"canonical\" href=\"" + origin + "/\">" +
		"<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"Organization\",\"name\":\"Everything Store\",\"url\":\"" + origin + "/\"}</script>")
	// Inline state: a JSON blob the client-side app hydrates from.
	b.WriteString("<script id=\"__APP_STATE__\" type=\"application/json\">{\"products\":[")
	for i := 0; b.Len() < 1_300_000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		n := strconv.Itoa(i)
		b.WriteString("{\"id\":" + n + ",\"sku\":\"SKU-" + n + "-XL-BLK\",\"title\":\"Product " + n +
			" with a long marketing title that repeats\",\"price\":{\"amount\":" + n + "99,\"currency\":\"EUR\"},\"tags\":[\"sale\",\"new\",\"popular\"]}")
	}
	b.WriteString("]}</script>")
	// Inline script: bundled analytics and a framework runtime.
	b.WriteString("<script>")
	for i := 0; b.Len() < 1_900_000; i++ {
		b.WriteString("function m" + strconv.Itoa(i) + "(e,t){var n=e&&e.length||0;for(var r=0;r<n;r++){t.push(e[r]*" + strconv.Itoa(i) + ")}return t}\n")
	}
	b.WriteString("</script></head><body><header class=\"site-header\"><nav class=\"mega-menu\" aria-label=\"Departments\">")
	// Mega menu: nested wrappers around thousands of links.
	for d := 0; b.Len() < 2_900_000; d++ {
		dep := strconv.Itoa(d)
		b.WriteString("<div class=\"menu-col menu-col--" + dep + " is-collapsed js-hover-intent\"><div class=\"menu-inner\"><span class=\"menu-title\">Department " + dep + "</span><ul>")
		for k := range 12 {
			cat := dep + "-" + strconv.Itoa(k)
			b.WriteString("<li class=\"menu-item\"><div class=\"menu-item__wrap\"><span class=\"icon icon--chevron\"></span><a class=\"menu-link menu-link--level-2 track-click\" href=\"/c/" + cat +
				"\" data-analytics=\"{&quot;event&quot;:&quot;nav_click&quot;,&quot;category&quot;:&quot;" + cat + "&quot;,&quot;position&quot;:" + strconv.Itoa(k) +
				",&quot;experiment&quot;:&quot;mega-menu-v7-variant-b&quot;}\" data-srcset=\"/img/c/" + cat + "-320.webp 320w, /img/c/" + cat + "-640.webp 640w, /img/c/" + cat +
				"-1280.webp 1280w\"><span>Category " + cat + "</span></a></div></li>")
		}
		b.WriteString("</ul></div></div>")
	}
	b.WriteString("</nav></header><main><h1>Deals in every department</h1>")
	texts := []string{
		"Free delivery on orders over 25 euros, and returns are free for thirty days after the parcel arrives.",
		"Kostenloser Versand ab 25 Euro, und die Rücksendung ist dreißig Tage lang nach Erhalt des Pakets kostenlos.",
		"Бесплатная доставка при заказе от 25 евро, возврат бесплатен в течение тридцати дней после получения посылки.",
		"25ユーロ以上のご注文で送料無料、商品到着後30日間は返品も無料です。",
		"Livraison gratuite dès 25 euros, et les retours sont gratuits pendant trente jours après la réception du colis.",
	}
	// The feed: product cards and paragraphs, nested as card grids are.
	for i := 0; b.Len() < heavySize-200; i++ {
		n := strconv.Itoa(i)
		b.WriteString("<section class=\"shelf\"><div class=\"grid\"><div class=\"card\" data-product-id=\"" + n + "\"><div class=\"card__media\"><a href=\"/p/" + n +
			"\"><img src=\"/img/p/" + n + ".webp\" alt=\"Product " + n + "\" loading=\"lazy\" width=\"320\" height=\"320\"></a></div><div class=\"card__body\"><h3><a href=\"/p/" + n +
			"\">Product " + n + "</a></h3><p>" + texts[i%len(texts)] + "</p><p><span class=\"price\">" + n + ",99 €</span> <span class=\"badge\">Sale</span></p></div></div></div></section>")
	}
	b.WriteString("</main><footer><p>Everything Store</p></footer></body></html>\n")
	return b.Bytes()
})

func newHeavy(e *env) *fixture {
	origin := e.origin(hosts[Heavy])
	// The page is built for the default HTTPS port; the origin of the
	// running server replaces it.
	page := bytes.ReplaceAll(heavyPage(), []byte("https://"+hosts[Heavy]+"/"), []byte(origin+"/"))
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Length", strconv.Itoa(len(page)))
			w.WriteHeader(http.StatusOK)
			if r.Method != http.MethodHead {
				_, _ = w.Write(page)
			}
		case r.URL.Path == "/robots.txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
		case strings.HasPrefix(r.URL.Path, "/p/"), strings.HasPrefix(r.URL.Path, "/c/"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte("<!DOCTYPE html><html lang=\"en\"><head><title>Product</title></head><body><main><h1>Product</h1><p>One product.</p></main></body></html>"))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: Heavy, host: hosts[Heavy], serve: serve}
}
