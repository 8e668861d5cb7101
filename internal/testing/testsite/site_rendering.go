package testsite

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
)

// The rendering fixtures are small sites for the comparison of a page as
// AI crawlers fetch it (HTML, no JavaScript) with the page a browser
// shows, and for the bounds of the browser that renders it:
//
//   - ClientApp (orbit-planner.test) is a client-rendered app: an empty
//     <div id="root"> and a bundle that fetches the page's content and
//     builds it, 500-odd words with a navigation bar, and adds its JSON-LD.
//   - ServerApp (orbit-planner-ssr.test) is its server-rendered twin: the
//     same page in the HTML, the same JSON-LD, no script.
//   - HydrationCanonical (driftwood-journal.test) serves an article whose
//     canonical link its script points elsewhere once it hydrates.
//   - TagManagerJSONLD (saltmarsh-cafe.test) serves a café's page whose
//     only JSON-LD a tag manager script injects.
//   - InfiniteScroll (endless-feed.test) appends posts on scroll and on a
//     timer, forever.
//   - NeverSettles (busy-ticker.test) polls its API four times a second and
//     keeps a long-poll request open, forever.
//   - RendererCrash (crashing-app.test) allocates memory until the page's
//     renderer dies; its /spin page loops forever instead.
//   - InternalReach (nosy-widgets.test) tries to reach loopback and cloud
//     metadata addresses by every route a page has (fetch, an image, an
//     iframe, a WebSocket, a beacon, a prefetch, a redirect from its own
//     origin); the loopback targets are canary listeners whose connections
//     Server.CanaryHits counts. It names no other private address: a test
//     that lifts the private-address rules would then send packets out of
//     this machine.
//
// RenderTruths gives what each homepage carries before and after its
// scripts. Render them with a client that reaches only the fixtures, as
// Server.Client does (it resolves fixture names only, and no address
// literal), or with netguard's production rules: in dev/test mode
// (GEOSCAN_ALLOW_PRIVATE_TARGETS) loopback addresses are allowed.

// Rendering fixture names.
const (
	ClientApp          = "clientapp"      // orbit-planner.test
	ServerApp          = "serverapp"      // orbit-planner-ssr.test
	HydrationCanonical = "hydracanon"     // driftwood-journal.test
	TagManagerJSONLD   = "tagmanager"     // saltmarsh-cafe.test
	InfiniteScroll     = "infinitescroll" // endless-feed.test
	NeverSettles       = "neversettles"   // busy-ticker.test
	RendererCrash      = "renderercrash"  // crashing-app.test
	InternalReach      = "internalreach"  // nosy-widgets.test
)

// Rendering lists the rendering fixtures. Like Crawl, they are kept out of
// Realistic, whose sites every audit test and golden scans.
var Rendering = []string{ClientApp, ServerApp, HydrationCanonical, TagManagerJSONLD, InfiniteScroll, NeverSettles, RendererCrash, InternalReach}

var renderingHosts = map[string]string{
	ClientApp:          "orbit-planner.test",
	ServerApp:          "orbit-planner-ssr.test",
	HydrationCanonical: "driftwood-journal.test",
	TagManagerJSONLD:   "saltmarsh-cafe.test",
	InfiniteScroll:     "endless-feed.test",
	NeverSettles:       "busy-ticker.test",
	RendererCrash:      "crashing-app.test",
	InternalReach:      "nosy-widgets.test",
}

// The rendering fixtures join the host table here, beside their own
// definitions, so that Start issues their certificates and resolves them.
func init() {
	for name, host := range renderingHosts {
		hosts[name] = host
	}
}

// RenderTruth is what a rendering fixture's homepage carries as served
// (Raw…) and in a browser once its scripts ran (Rendered…). Words, nav
// links and types are read as the audit reads a page (internal/audit/page:
// words of the main text, without header, navigation, footer and scripts;
// distinct targets of the links in <nav>; the @type of each JSON-LD
// block).
type RenderTruth struct {
	Site string
	// RawWords and RenderedWords are the words of the main text. For a
	// page that keeps adding content, RenderedWords is the least a
	// rendered DOM holds.
	RawWords, RenderedWords int
	// RawNavLinks and RenderedNavLinks count the navigation's targets.
	RawNavLinks, RenderedNavLinks int
	// RawCanonical and RenderedCanonical are the canonical link's path,
	// "" when there is none.
	RawCanonical, RenderedCanonical string
	// RawTypes and RenderedTypes are the JSON-LD types, nested nodes
	// included, in page order.
	RawTypes, RenderedTypes []string
	// Settles is false for a page whose network or DOM never goes quiet:
	// a renderer ends it by its time limit.
	Settles bool
	// Renders is false for a page no renderer can finish: its renderer
	// crashes or hangs.
	Renders bool
}

// orbitTypes are the types of the app's JSON-LD, nested nodes included.
var orbitTypes = []string{"Organization", "SoftwareApplication", "Offer"}

// RenderTruths lists the ground truth of every rendering fixture, in the
// order of Rendering.
func RenderTruths() []RenderTruth {
	app := orbitAppWords()
	return []RenderTruth{
		{
			Site: ClientApp, RawWords: 0, RenderedWords: app, RawNavLinks: 0, RenderedNavLinks: len(orbitNav),
			RawCanonical: "/", RenderedCanonical: "/",
			RawTypes: nil, RenderedTypes: orbitTypes, Settles: true, Renders: true,
		},
		{
			Site: ServerApp, RawWords: app, RenderedWords: app, RawNavLinks: len(orbitNav), RenderedNavLinks: len(orbitNav),
			RawCanonical: "/", RenderedCanonical: "/",
			RawTypes: orbitTypes, RenderedTypes: orbitTypes,
			Settles: true, Renders: true,
		},
		{
			Site: HydrationCanonical, RawWords: countWords(driftwoodText()), RenderedWords: countWords(driftwoodText()),
			RawNavLinks: len(driftwoodNav), RenderedNavLinks: len(driftwoodNav),
			RawCanonical: "/", RenderedCanonical: driftwoodHydratedCanonical,
			RawTypes: []string{"BlogPosting", "Person"}, RenderedTypes: []string{"BlogPosting", "Person"}, Settles: true, Renders: true,
		},
		{
			Site: TagManagerJSONLD, RawWords: countWords(saltmarshText()), RenderedWords: countWords(saltmarshText()),
			RawNavLinks: len(saltmarshNav), RenderedNavLinks: len(saltmarshNav),
			RawCanonical: "/", RenderedCanonical: "/",
			RawTypes: nil, RenderedTypes: []string{"CafeOrCoffeeShop", "PostalAddress"}, Settles: true, Renders: true,
		},
		{
			Site: InfiniteScroll, RawWords: countWords(feedText(0, feedFirstPage) + feedSentinel), RenderedWords: countWords(feedText(0, feedFirstPage) + feedSentinel),
			RawNavLinks: 2, RenderedNavLinks: 2, RawCanonical: "/", RenderedCanonical: "/",
			Settles: false, Renders: true,
		},
		{
			Site: NeverSettles, RawWords: countWords(tickerText), RenderedWords: countWords(tickerText),
			RawNavLinks: 2, RenderedNavLinks: 2, RawCanonical: "/", RenderedCanonical: "/",
			Settles: false, Renders: true,
		},
		{
			Site: RendererCrash, RawWords: countWords(crashText), RenderedWords: 0, RawCanonical: "/",
			Settles: false, Renders: false,
		},
		{
			Site: InternalReach, RawWords: countWords(nosyText), RenderedWords: countWords(nosyText),
			RawNavLinks: 2, RenderedNavLinks: 2, RawCanonical: "/", RenderedCanonical: "/",
			Settles: true, Renders: true,
		},
	}
}

// RenderTruthOf is the ground truth of one rendering fixture; it panics
// for another name, which can only be a mistake in the calling test.
func RenderTruthOf(site string) RenderTruth {
	for _, t := range RenderTruths() {
		if t.Site == site {
			return t
		}
	}
	panic("testsite: no rendering fixture " + strconv.Quote(site))
}

// countWords counts as the audit's page parser does for text in Latin
// script: runs of letters or digits.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// --- the page kit ----------------------------------------------------------

// rpage is one HTML page of a rendering fixture.
type rpage struct {
	title, description, canonical string
	// head and body are markup inserted as they are.
	head, body string
}

func (p rpage) html() []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s</title>\n", html.EscapeString(p.title))
	if p.description != "" {
		fmt.Fprintf(&b, "<meta name=\"description\" content=\"%s\">\n", html.EscapeString(p.description))
	}
	if p.canonical != "" {
		fmt.Fprintf(&b, "<link rel=\"canonical\" href=\"%s\">\n", html.EscapeString(p.canonical))
	}
	b.WriteString(p.head)
	b.WriteString("</head>\n<body>\n")
	b.WriteString(p.body)
	b.WriteString("\n</body>\n</html>\n")
	return []byte(b.String())
}

func sendBytes(w http.ResponseWriter, r *http.Request, ctype string, body []byte) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

func sendHTML(w http.ResponseWriter, r *http.Request, p rpage) {
	sendBytes(w, r, "text/html; charset=utf-8", p.html())
}

func sendJS(w http.ResponseWriter, r *http.Request, js string) {
	sendBytes(w, r, "application/javascript; charset=utf-8", []byte(js))
}

func sendJSON(w http.ResponseWriter, r *http.Request, v any) {
	b, _ := json.Marshal(v)
	sendBytes(w, r, "application/json", b)
}

const allowAll = "User-agent: *\nAllow: /\n"

// navHTML renders a <nav> of links (path, label).
func navHTML(links [][2]string) string {
	var b strings.Builder
	b.WriteString("<nav aria-label=\"Main\"><ul>")
	for _, l := range links {
		fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a></li>", html.EscapeString(l[0]), html.EscapeString(l[1]))
	}
	b.WriteString("</ul></nav>")
	return b.String()
}

func paragraphs(ps []string) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(p))
	}
	return b.String()
}

func ldScript(v any) string {
	b, _ := json.Marshal(v)
	// JSON in a <script> must not close it.
	return "<script type=\"application/ld+json\">" + strings.ReplaceAll(string(b), "</", `<\/`) + "</script>\n"
}

// --- Orbit Planner: the client-rendered app and its server-rendered twin ---

var orbitNav = [][2]string{{"/", "Home"}, {"/features", "Features"}, {"/pricing", "Pricing"}, {"/about", "About"}, {"/contact", "Contact"}}

type orbitSection struct {
	Heading    string   `json:"heading"`
	Paragraphs []string `json:"paragraphs"`
}

type orbitPage struct {
	Title    string         `json:"title"`
	Lead     string         `json:"lead"`
	Sections []orbitSection `json:"sections"`
	Nav      [][2]string    `json:"nav"`
	JSONLD   []any          `json:"jsonld"`
}

var orbitFeatures = []struct{ name, what, who string }{
	{"Shared itineraries", "keeps every booking, ticket and note of a trip on one timeline", "families who travel together"},
	{"Offline maps", "downloads the streets, stations and trails around each stop before you leave", "hikers and city walkers"},
	{"Budget tracking", "records what each day costs in the local currency and converts it at the rate you paid", "students on long journeys"},
	{"Visa reminders", "reads the passports of the group and warns weeks ahead about entry rules that apply", "people who cross many borders"},
	{"Packing lists", "suggests what to bring from the weather forecast, the activities planned and the luggage allowance", "anyone who forgets a charger"},
	{"Team travel", "lets an office manager approve trips, share hotel rates and see who is where during an event", "companies with distributed staff"},
	{"Calendar sync", "adds flights, trains and reservations to the calendars you already use, with time zones right", "busy consultants"},
	{"Trip journal", "turns photos, places and short notes into a private diary you can print or share after the trip", "travellers who like to remember"},
}

// orbitPageData is the content of the app's homepage, the same on both
// sides of the twin.
var orbitPageData = sync.OnceValue(func() orbitPage {
	p := orbitPage{
		Title: "Plan every trip in one calm place",
		Lead:  "Orbit Planner is a travel planning app for small groups and teams. It gathers bookings, maps, budgets and documents so that nobody has to search their inbox at the gate.",
		Nav:   orbitNav,
	}
	for _, f := range orbitFeatures {
		p.Sections = append(p.Sections, orbitSection{Heading: f.name, Paragraphs: []string{
			fmt.Sprintf("%s %s. It was built for %s, and it works the same on a phone, a tablet or a laptop.", f.name, f.what, f.who),
			"Everything stays in sync between the members of a trip within seconds, and changes made without a connection are merged when you are back online. You decide who may edit and who may only read, and you can remove access at any time from the settings of the trip.",
		}})
	}
	return p
})

// orbitJSONLD is the structured data of the app's homepage.
func orbitJSONLD(origin string) []any {
	return []any{
		map[string]any{"@context": "https://schema.org", "@type": "Organization", "name": "Orbit Planner", "url": origin + "/", "logo": origin + "/logo.png"},
		map[string]any{
			"@context": "https://schema.org", "@type": "SoftwareApplication", "name": "Orbit Planner",
			"applicationCategory": "TravelApplication", "operatingSystem": "Web, iOS, Android",
			"offers": map[string]any{"@type": "Offer", "price": "0", "priceCurrency": "EUR"},
		},
	}
}

// orbitAppWords counts the main text of the homepage: its heading, lead,
// section headings and paragraphs.
func orbitAppWords() int {
	p := orbitPageData()
	n := countWords(p.Title) + countWords(p.Lead)
	for _, s := range p.Sections {
		n += countWords(s.Heading)
		for _, para := range s.Paragraphs {
			n += countWords(para)
		}
	}
	return n
}

const orbitFooter = "<footer><p>© Orbit Planner GmbH</p></footer>"

// orbitBundle builds the page from /api/page.json into #root: header and
// navigation, main content, footer, and the JSON-LD into <head>. Text goes
// in through textContent only.
const orbitBundle = `(function () {
  "use strict";
  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text) { e.textContent = text; }
    if (attrs) { Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); }); }
    return e;
  }
  function render(data) {
    var root = document.getElementById("root");
    var header = el("header");
    var nav = el("nav", null, {"aria-label": "Main"});
    var ul = el("ul");
    data.nav.forEach(function (l) { var li = el("li"); li.appendChild(el("a", l[1], {href: l[0]})); ul.appendChild(li); });
    nav.appendChild(ul);
    header.appendChild(nav);
    root.appendChild(header);
    var main = el("main");
    main.appendChild(el("h1", data.title));
    main.appendChild(el("p", data.lead));
    data.sections.forEach(function (s) {
      var section = el("section");
      section.appendChild(el("h2", s.heading));
      s.paragraphs.forEach(function (p) { section.appendChild(el("p", p)); });
      main.appendChild(section);
    });
    root.appendChild(main);
    var footer = el("footer");
    footer.appendChild(el("p", "\u00a9 Orbit Planner GmbH"));
    root.appendChild(footer);
    data.jsonld.forEach(function (d) {
      var s = el("script", JSON.stringify(d), {type: "application/ld+json"});
      document.head.appendChild(s);
    });
    document.title = "Orbit Planner \u2013 travel planning for groups";
  }
  fetch("/api/page.json").then(function (r) { return r.json(); }).then(render);
})();
`

const orbitBundlePath = "/static/js/main.7c1e9a42.js"

func newClientApp(e *env) *fixture {
	host := renderingHosts[ClientApp]
	origin := e.origin(host)
	shell := rpage{
		title: "Orbit Planner", canonical: origin + "/",
		head: "<script defer src=\"" + orbitBundlePath + "\"></script>\n",
		body: "<noscript>You need to enable JavaScript to run this app.</noscript>\n<div id=\"root\"></div>",
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		case orbitBundlePath:
			sendJS(w, r, orbitBundle)
		case "/api/page.json":
			p := orbitPageData()
			p.JSONLD = orbitJSONLD(origin)
			sendJSON(w, r, p)
		default:
			// A single-page app: every route is the same shell.
			sendHTML(w, r, shell)
		}
	}
	return &fixture{name: ClientApp, host: host, serve: serve}
}

func newServerApp(e *env) *fixture {
	host := renderingHosts[ServerApp]
	origin := e.origin(host)
	p := orbitPageData()
	var main strings.Builder
	fmt.Fprintf(&main, "<main>\n<h1>%s</h1>\n<p>%s</p>\n", html.EscapeString(p.Title), html.EscapeString(p.Lead))
	for _, s := range p.Sections {
		fmt.Fprintf(&main, "<section><h2>%s</h2>\n%s</section>\n", html.EscapeString(s.Heading), paragraphs(s.Paragraphs))
	}
	main.WriteString("</main>")
	var ld strings.Builder
	for _, d := range orbitJSONLD(origin) {
		ld.WriteString(ldScript(d))
	}
	home := rpage{
		title: "Orbit Planner – travel planning for groups", canonical: origin + "/", head: ld.String(),
		body: "<div id=\"root\"><header>" + navHTML(orbitNav) + "</header>\n" + main.String() + "\n" + orbitFooter + "</div>",
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			sendHTML(w, r, home)
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: ServerApp, host: host, serve: serve}
}

// --- Driftwood Journal: hydration moves the canonical ---------------------

var driftwoodNav = [][2]string{{"/", "Journal"}, {"/archive", "Archive"}, {"/about", "About"}}

// driftwoodHydratedCanonical is where the canonical points after the
// script ran: the app's own route for the homepage, a different URL.
const driftwoodHydratedCanonical = "/en/home"

func driftwoodParagraphs() []string {
	return []string{
		"Every winter the storms bring new wood to the northern beaches, and every spring we walk the tide line to see what the sea has left. This journal collects what we find, where we found it and what it became.",
		"Most pieces are pine and spruce from the forests upriver, bleached grey by salt and sun. Now and then oak turns up, heavy and dark, from an old pier or a boat that was broken up long ago.",
		"We dry the wood slowly in the shed for a full season before it is cut. Rushing it splits the grain, and a split piece is only good for the stove. Patience is most of the craft.",
		"This month we built a bench from a single beam that washed up after the January gale. It took four people to carry it off the sand and three weeks to shape it, and it now stands by the harbour wall.",
	}
}

func driftwoodText() string {
	return "Driftwood notes from the northern shore " + strings.Join(driftwoodParagraphs(), " ")
}

const driftwoodHydrate = `(function () {
  "use strict";
  // The app's router knows the homepage as /en/home and rewrites the
  // canonical link when it takes over the page.
  document.documentElement.setAttribute("data-hydrated", "true");
  var link = document.querySelector('link[rel="canonical"]');
  if (link) { link.setAttribute("href", location.origin + "` + driftwoodHydratedCanonical + `"); }
})();
`

func newHydrationCanonical(e *env) *fixture {
	host := renderingHosts[HydrationCanonical]
	origin := e.origin(host)
	ld := ldScript(map[string]any{
		"@context": "https://schema.org", "@type": "BlogPosting", "headline": "Driftwood notes from the northern shore",
		"author": map[string]any{"@type": "Person", "name": "Ilse Marken"}, "url": origin + "/",
	})
	home := rpage{
		title: "Driftwood Journal", description: "Notes on the wood the sea brings to the northern beaches.", canonical: origin + "/",
		head: ld + "<script defer src=\"/assets/hydrate.js\"></script>\n",
		body: "<header>" + navHTML(driftwoodNav) + "</header>\n<main><article><h1>Driftwood notes from the northern shore</h1>\n" +
			paragraphs(driftwoodParagraphs()) + "</article></main>\n<footer><p>Driftwood Journal</p></footer>",
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/", driftwoodHydratedCanonical:
			sendHTML(w, r, home)
		case "/assets/hydrate.js":
			sendJS(w, r, driftwoodHydrate)
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: HydrationCanonical, host: host, serve: serve}
}

// --- Saltmarsh Café: JSON-LD from a tag manager ------------------------------

var saltmarshNav = [][2]string{{"/", "Home"}, {"/menu", "Menu"}, {"/visit", "Visit us"}}

func saltmarshParagraphs() []string {
	return []string{
		"Saltmarsh Café sits at the end of the dyke road, where the marsh meets the bay. We open at seven for the fishermen and the birdwatchers and close when the last walkers come back at dusk.",
		"Our bread is baked each morning in the wood oven behind the kitchen, and the coffee is roasted in small batches by a family roastery in the next village. In summer we serve samphire from the marsh with smoked fish.",
		"Dogs are welcome on the terrace, muddy boots are welcome everywhere, and the binoculars by the window are there for anyone who wants a closer look at the geese.",
	}
}

func saltmarshText() string {
	return "Coffee and bread at the edge of the marsh " + strings.Join(saltmarshParagraphs(), " ")
}

// saltmarshGTM is what a tag manager container does with structured data
// the marketing team configured in it: it builds a JSON-LD block and adds
// it to <head> once the page has loaded.
const saltmarshGTM = `(function () {
  "use strict";
  window.dataLayer = window.dataLayer || [];
  window.dataLayer.push({event: "gtm.js", "gtm.start": Date.now()});
  var data = {
    "@context": "https://schema.org",
    "@type": "CafeOrCoffeeShop",
    "name": "Saltmarsh Caf\u00e9",
    "servesCuisine": "Coffee, bread, smoked fish",
    "address": {"@type": "PostalAddress", "streetAddress": "Dyke Road 1", "addressLocality": "Saltmarsh", "addressCountry": "GB"},
    "openingHours": "Mo-Su 07:00-19:00"
  };
  var s = document.createElement("script");
  s.type = "application/ld+json";
  s.textContent = JSON.stringify(data);
  document.head.appendChild(s);
})();
`

func newTagManagerJSONLD(e *env) *fixture {
	host := renderingHosts[TagManagerJSONLD]
	origin := e.origin(host)
	// The container is loaded the way tag managers ask sites to load them:
	// an inline snippet that adds an async script.
	snippet := `<script>(function(w,d,s,i){var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src="/gtm.js?id="+i;f.parentNode.insertBefore(j,f);})(window,document,"script","GTM-5QX7ZP");</script>` + "\n"
	home := rpage{
		title: "Saltmarsh Café", description: "Coffee and bread at the edge of the marsh.", canonical: origin + "/", head: snippet,
		body: "<header>" + navHTML(saltmarshNav) + "</header>\n<main><h1>Coffee and bread at the edge of the marsh</h1>\n" +
			paragraphs(saltmarshParagraphs()) + "</main>\n<footer><p>Saltmarsh Café, Dyke Road 1</p></footer>",
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			sendHTML(w, r, home)
		case "/gtm.js":
			sendJS(w, r, saltmarshGTM)
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: TagManagerJSONLD, host: host, serve: serve}
}

// --- Endless Feed: infinite scroll ---------------------------------------------

// feedFirstPage is how many posts the HTML carries; the script adds more.
const feedFirstPage = 8

// feedSentinel is the text under the posts whose coming into view loads
// more.
const feedSentinel = " Loading more…"

func feedPost(i int) (title, text string) {
	title = "Post number " + strconv.Itoa(i+1)
	text = "This is post " + strconv.Itoa(i+1) + " of a feed that never ends. Each one is short, and another one is always on its way as you scroll."
	return title, text
}

func feedText(from, n int) string {
	var b strings.Builder
	b.WriteString("The feed")
	for i := from; i < from+n; i++ {
		t, x := feedPost(i)
		b.WriteString(" " + t + " " + x)
	}
	return b.String()
}

// feedScript appends the next page of posts when the sentinel under the
// list comes into view, and one more post every half second whatever the
// reader does.
const feedScript = `(function () {
  "use strict";
  var list = document.getElementById("feed");
  var next = ` + "FIRST" + `;
  var loading = false;
  function add(posts) {
    posts.forEach(function (p) {
      var a = document.createElement("article");
      var h = document.createElement("h2"); h.textContent = p.title; a.appendChild(h);
      var t = document.createElement("p"); t.textContent = p.text; a.appendChild(t);
      list.appendChild(a);
    });
    next += posts.length;
  }
  function more(n) {
    if (loading) { return; }
    loading = true;
    fetch("/api/feed?from=" + next + "&n=" + n).then(function (r) { return r.json(); }).then(add).finally(function () { loading = false; });
  }
  new IntersectionObserver(function (es) { if (es[0].isIntersecting) { more(8); } }).observe(document.getElementById("sentinel"));
  window.addEventListener("scroll", function () { more(8); });
  setInterval(function () { more(1); }, 500);
})();
`

func newInfiniteScroll(e *env) *fixture {
	host := renderingHosts[InfiniteScroll]
	origin := e.origin(host)
	var posts strings.Builder
	for i := range feedFirstPage {
		t, x := feedPost(i)
		fmt.Fprintf(&posts, "<article><h2>%s</h2><p>%s</p></article>\n", html.EscapeString(t), html.EscapeString(x))
	}
	home := rpage{
		title: "Endless Feed", canonical: origin + "/", head: "<script defer src=\"/feed.js\"></script>\n",
		body: "<header>" + navHTML([][2]string{{"/", "Feed"}, {"/about", "About"}}) + "</header>\n<main><h1>The feed</h1>\n<div id=\"feed\">\n" +
			posts.String() + "</div>\n<div id=\"sentinel\">" + strings.TrimSpace(feedSentinel) + "</div></main>",
	}
	script := strings.Replace(feedScript, "FIRST", strconv.Itoa(feedFirstPage), 1)
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			sendHTML(w, r, home)
		case "/feed.js":
			sendJS(w, r, script)
		case "/api/feed":
			from, _ := strconv.Atoi(r.URL.Query().Get("from"))
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			from, n = max(from, 0), min(max(n, 1), 20)
			type post struct {
				Title string `json:"title"`
				Text  string `json:"text"`
			}
			out := make([]post, 0, n)
			for i := from; i < from+n; i++ {
				t, x := feedPost(i)
				out = append(out, post{t, x})
			}
			sendJSON(w, r, out)
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: InfiniteScroll, host: host, serve: serve}
}

// --- Busy Ticker: the network never goes quiet -----------------------------

const tickerText = "Market prices, live Prices of the harbour fish market, updated as boats come in. Cod 12.40 Haddock 9.80 Plaice 7.15"

// tickerLongPoll is how long the ticker's stream request is held open
// before it is answered (and at once asked again).
const tickerLongPoll = 20 * time.Second

const tickerScript = `(function () {
  "use strict";
  var n = 0;
  setInterval(function () {
    fetch("/api/ticker?n=" + (n++)).then(function (r) { return r.json(); }).then(function (d) {
      document.getElementById("updated").textContent = "Tick " + d.tick;
    });
  }, 250);
  function stream() {
    fetch("/api/stream").then(function (r) { return r.text(); }).finally(stream);
  }
  stream();
})();
`

func newNeverSettles(e *env) *fixture {
	host := renderingHosts[NeverSettles]
	origin := e.origin(host)
	home := rpage{
		title: "Busy Ticker", canonical: origin + "/", head: "<script defer src=\"/ticker.js\"></script>\n",
		body: "<header>" + navHTML([][2]string{{"/", "Prices"}, {"/about", "About"}}) + "</header>\n<main><h1>Market prices, live</h1>\n" +
			"<p>Prices of the harbour fish market, updated as boats come in.</p>\n" +
			"<table><tr><td>Cod</td><td>12.40</td></tr><tr><td>Haddock</td><td>9.80</td></tr><tr><td>Plaice</td><td>7.15</td></tr></table>\n" +
			"<aside id=\"updated\" hidden></aside></main>",
	}
	var ticks sync.Mutex
	tick := 0
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			sendHTML(w, r, home)
		case "/ticker.js":
			sendJS(w, r, tickerScript)
		case "/api/ticker":
			ticks.Lock()
			tick++
			n := tick
			ticks.Unlock()
			sendJSON(w, r, map[string]int{"tick": n})
		case "/api/stream":
			if !sleep(r.Context(), e.done, tickerLongPoll) {
				return
			}
			sendBytes(w, r, "text/plain; charset=utf-8", []byte("nothing new\n"))
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: NeverSettles, host: host, serve: serve}
}

// --- Crashing App: the renderer dies or hangs -------------------------------

const crashText = "Loading your dashboard This page needs a modern browser."

// crashScript allocates until the page's JavaScript heap is exhausted,
// which kills its renderer process.
const crashScript = `(function () {
  "use strict";
  var hoard = [];
  for (;;) { hoard.push(new Array(1 << 20).fill(hoard.length)); }
})();
`

// spinScript never returns: the page's main thread is busy forever.
const spinScript = `(function () { "use strict"; for (;;) {} })();`

func newRendererCrash(e *env) *fixture {
	host := renderingHosts[RendererCrash]
	origin := e.origin(host)
	page := func(script string) rpage {
		return rpage{
			title: "Crashing App", canonical: origin + "/", head: "<script defer src=\"" + script + "\"></script>\n",
			body: "<main><h1>Loading your dashboard</h1>\n<p>This page needs a modern browser.</p></main>",
		}
	}
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			sendHTML(w, r, page("/hoard.js"))
		case "/spin":
			sendHTML(w, r, page("/spin.js"))
		case "/hoard.js":
			sendJS(w, r, crashScript)
		case "/spin.js":
			sendJS(w, r, spinScript)
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: RendererCrash, host: host, serve: serve}
}

// --- Nosy Widgets: a page that reaches for internal addresses ------------------

const nosyText = "Widgets for your dashboard Drop our widgets into any page. They load their data from wherever they are told to."

// nosyTargets are the addresses the page reaches for besides the canaries:
// the cloud metadata service, by address and by name. The guard refuses
// them in every mode.
var nosyTargets = []string{"http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/computeMetadata/v1/"}

func newInternalReach(e *env) *fixture {
	host := renderingHosts[InternalReach]
	origin := e.origin(host)
	v4 := "http://" + e.canaryV4
	v6 := "http://" + e.canaryV6
	var head, body strings.Builder
	fmt.Fprintf(&head, "<link rel=\"prefetch\" href=\"%s/prefetch\">\n<link rel=\"stylesheet\" href=\"%s/style.css\">\n", v4, v6)
	head.WriteString("<script defer src=\"/widgets.js\"></script>\n")
	body.WriteString("<header>" + navHTML([][2]string{{"/", "Widgets"}, {"/docs", "Docs"}}) + "</header>\n")
	body.WriteString("<main><h1>Widgets for your dashboard</h1>\n<p>Drop our widgets into any page. They load their data from wherever they are told to.</p>\n")
	fmt.Fprintf(&body, "<img src=\"%s/pixel.gif\" alt=\"\" width=\"1\" height=\"1\">\n", v4)
	fmt.Fprintf(&body, "<img src=\"%s\" alt=\"\" width=\"1\" height=\"1\">\n", html.EscapeString(nosyTargets[0]))
	fmt.Fprintf(&body, "<iframe src=\"%s/admin\" title=\"admin\" width=\"1\" height=\"1\"></iframe>\n", v6)
	fmt.Fprintf(&body, "<iframe src=\"%s\" title=\"metadata\" width=\"1\" height=\"1\"></iframe>\n", html.EscapeString(nosyTargets[1]))
	body.WriteString("</main>")
	home := rpage{title: "Nosy Widgets", canonical: origin + "/", head: head.String(), body: body.String()}
	targets, _ := json.Marshal(append([]string{v4 + "/steal", v6 + "/steal", origin + "/go-internal"}, nosyTargets...))
	script := `(function () {
  "use strict";
  var targets = ` + string(targets) + `;
  targets.forEach(function (u) { fetch(u, {mode: "no-cors"}).catch(function () {}); });
  try { navigator.sendBeacon("` + v4 + `/beacon", "x"); } catch (e) {}
  try { new WebSocket("ws://` + e.canaryV4 + `/socket"); } catch (e) {}
  try { new EventSource("` + v6 + `/events"); } catch (e) {}
  var x = new XMLHttpRequest(); x.open("GET", "` + v4 + `/xhr"); x.send();
})();
`
	serve := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			sendHTML(w, r, home)
		case "/widgets.js":
			sendJS(w, r, script)
		case "/go-internal":
			// A redirect from the site's own origin to a loopback address.
			redirect(w, v4+"/redirected", http.StatusFound)
		case "/robots.txt":
			sendBytes(w, r, "text/plain; charset=utf-8", []byte(allowAll))
		default:
			http.NotFound(w, r)
		}
	}
	return &fixture{name: InternalReach, host: host, serve: serve}
}

// --- the canaries ----------------------------------------------------------------

// canaries are loopback listeners that nothing a fixture page asks for may
// reach: each accepted connection counts.
type canaries struct {
	v4, v6 net.Listener // v6 is nil where the machine has no ::1
	v6Addr string
	hits   atomic.Int64
	wg     sync.WaitGroup
}

func startCanaries() (*canaries, error) {
	var lc net.ListenConfig
	v4, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("testsite: canary listener: %w", err)
	}
	c := &canaries{v4: v4}
	if v6, err := lc.Listen(context.Background(), "tcp", "[::1]:0"); err == nil {
		c.v6, c.v6Addr = v6, v6.Addr().String()
	} else {
		// Without IPv6 loopback the page still names ::1, where a
		// connection is refused on the spot.
		c.v6Addr = net.JoinHostPort("::1", strconv.Itoa(portOf(v4)))
	}
	for _, ln := range []net.Listener{c.v4, c.v6} {
		if ln == nil {
			continue
		}
		c.wg.Go(func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				c.hits.Add(1)
				_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\ncanary"))
				_ = conn.Close()
			}
		})
	}
	return c, nil
}

func (c *canaries) close() {
	_ = c.v4.Close()
	if c.v6 != nil {
		_ = c.v6.Close()
	}
	c.wg.Wait()
}

// CanaryAddrs are the loopback addresses (host:port) the InternalReach
// fixture's page reaches for: one on 127.0.0.1, one on ::1.
func (s *Server) CanaryAddrs() []string {
	return []string{s.canary.v4.Addr().String(), s.canary.v6Addr}
}

// CanaryHits counts the connections the canary listeners accepted: a
// renderer that keeps to the scans' rules makes none.
func (s *Server) CanaryHits() int64 { return s.canary.hits.Load() }
