package triage

// Role is what a deciding technology decides in the platform triple.
type Role string

// The roles; "" is a technology that explains findings without deciding
// the triple (SEO plugins, CDN/WAF, bot management, consent, analytics).
const (
	RoleCMS       Role = "cms"
	RoleBuilder   Role = "page_builder"
	RoleFramework Role = "js_framework"
	RoleOther     Role = ""
)

// Class is how much of a site its owner controls on a platform; it drives
// effort adjustment and the platform_fixability lens.
type Class string

// The classes.
const (
	ClassOpen   Class = "open"   // self-hosted CMS: files, headers and templates are yours
	ClassStatic Class = "static" // static generator: everything is a file in a repository
	ClassHosted Class = "hosted" // SaaS with theme code but no server: root files and headers are limited
	ClassLocked Class = "locked" // SaaS without theme code: root files, headers and markup are limited
	ClassSPA    Class = "spa"    // client-rendered library: text exists only after JavaScript
	ClassSSR    Class = "ssr"    // framework that renders on the server or at build time
)

// where a signal looks.
type where int

const (
	inHeader      where = iota // a response header (name; value contains)
	inCookie                   // a Set-Cookie name starting with
	inGenerator                // <meta name=generator> starting with (case-insensitive)
	inBody                     // the lower-cased HTML contains
	inScript                   // a script src contains
	inBotProbe                 // a header on a response to an AI bot probe
	inFingerprint              // the fingerprint library recognised the named app
)

// signal is one piece of evidence with its weight (out of 100).
type signal struct {
	where    where
	key      string // header or cookie name, or fingerprint app name ("" = the rule's name)
	contains string // lower case
	weight   int
	// what names the evidence for the engineering ledger.
	what string
}

// rule recognises one technology.
type rule struct {
	name       string
	role       Role
	class      Class
	categories []string
	// subsumes names rules a detection of this one replaces in its role:
	// Next.js is the framework, not React; Elementor is the builder even
	// though block markup is present.
	subsumes []string
	signals  []signal
	// botManagement marks CDN/WAF products that challenge bots.
	botManagement bool
	headless      bool
}

// fp is a match in the fingerprint database: supporting evidence on its
// own, decisive with one more signal.
func fp() signal {
	return signal{where: inFingerprint, weight: fpWeight, what: "fingerprint database match"}
}

const fpWeight = 40

// fpNamed is a fingerprint match under another name in the database.
func fpNamed(name string) signal {
	s := fp()
	s.key = name
	return s
}

func body(s string, w int, what string) signal {
	return signal{where: inBody, contains: s, weight: w, what: what}
}

func script(s string, w int) signal {
	return signal{where: inScript, contains: s, weight: w, what: "script from " + s}
}

func header(name, contains string, w int) signal {
	what := "header " + name
	if contains != "" {
		what += ": " + contains
	}
	return signal{where: inHeader, key: name, contains: contains, weight: w, what: what}
}

func cookie(prefix string, w int) signal {
	return signal{where: inCookie, key: prefix, weight: w, what: "cookie " + prefix}
}

func generator(prefix string, w int) signal {
	return signal{where: inGenerator, contains: prefix, weight: w, what: "meta generator " + prefix}
}

func botProbe(name, contains string, w int) signal {
	s := header(name, contains, w)
	s.where, s.what = inBotProbe, "AI bot probe answered with "+s.what
	return s
}

// rules is the in-house table: every technology that decides cms,
// page_builder or js_framework, plus the ones that explain findings. The
// fingerprint library recognises thousands more; these carry weights so a
// page with competing signals picks the right winner. Weights: a generator
// tag or a platform-only header is near proof (60–70); an asset path is
// strong (40–50); a class prefix or a host that third parties also embed
// is supporting (20–30).
var rules = []rule{
	// Content management systems, shops and site builders.
	{name: "WordPress", role: RoleCMS, class: ClassOpen, categories: []string{"CMS", "Blogs"}, signals: []signal{
		generator("wordpress", 70), body("/wp-content/", 45, "assets under /wp-content/"), body("/wp-includes/", 35, "assets under /wp-includes/"),
		body("/wp-json/", 30, "REST API link /wp-json/"), body("https://api.w.org/", 30, "api.w.org link"), fp(),
	}},
	{name: "Shopify", role: RoleCMS, class: ClassHosted, categories: []string{"Ecommerce", "CMS"}, signals: []signal{
		header("x-shopid", "", 70), header("x-shopify-stage", "", 70), header("powered-by", "shopify", 70),
		body("cdn.shopify.com/s/files/", 35, "store files on cdn.shopify.com"), body("shopify.theme", 50, "Shopify.theme bootstrap"),
		body("window.shopify", 40, "window.Shopify global"), cookie("_shopify_", 40), fp(),
		// Buy buttons and widgets embed cdn.shopify.com on other platforms: weak.
		script("cdn.shopify.com", 15),
	}},
	{name: "Wix", role: RoleCMS, class: ClassLocked, categories: []string{"CMS"}, signals: []signal{
		header("x-wix-request-id", "", 70), generator("wix.com", 70), body("static.wixstatic.com", 40, "media on static.wixstatic.com"),
		body("static.parastorage.com", 40, "assets on static.parastorage.com"), fp(),
	}},
	{name: "Squarespace", role: RoleCMS, class: ClassLocked, categories: []string{"CMS"}, signals: []signal{
		generator("squarespace", 50), body("static1.squarespace.com", 45, "assets on static1.squarespace.com"),
		body("squarespace_context", 50, "Squarespace context global"), header("server", "squarespace", 60), fp(),
	}},
	{name: "Webflow", role: RoleCMS, class: ClassHosted, categories: []string{"CMS", "Page builders"}, signals: []signal{
		generator("webflow", 70), body("data-wf-page", 50, "data-wf-page attribute"), body("data-wf-site", 40, "data-wf-site attribute"),
		body("assets.website-files.com", 30, "assets on website-files.com"), fp(),
	}},
	{name: "Framer", role: RoleCMS, class: ClassHosted, categories: []string{"CMS"}, signals: []signal{
		generator("framer", 70), body("framerusercontent.com", 40, "assets on framerusercontent.com"), header("server", "framer", 60), fp(),
	}},
	{name: "Drupal", role: RoleCMS, class: ClassOpen, categories: []string{"CMS"}, signals: []signal{
		generator("drupal", 70), header("x-drupal-cache", "", 60), header("x-generator", "drupal", 70),
		body("/sites/default/files/", 40, "files under /sites/default/files/"), body("drupal-settings-json", 50, "drupalSettings JSON"), fp(),
	}},
	{name: "Joomla", role: RoleCMS, class: ClassOpen, categories: []string{"CMS"}, signals: []signal{
		generator("joomla", 70), body("/media/jui/", 40, "assets under /media/jui/"), body("/components/com_", 30, "component paths /components/com_"), fp(),
	}},
	{name: "Ghost", role: RoleCMS, class: ClassHosted, categories: []string{"CMS", "Blogs"}, signals: []signal{
		generator("ghost", 70), body("/ghost/api/", 40, "Ghost content API"), body("ghost-portal", 30, "Ghost portal script"), fp(),
	}},
	{name: "HubSpot CMS", role: RoleCMS, class: ClassHosted, categories: []string{"CMS"}, signals: []signal{
		generator("hubspot", 70), header("x-hs-hub-id", "", 60), body("hs-sites.com", 30, "hs-sites.com assets"),
		body("/hs/hsstatic/", 40, "assets under /hs/hsstatic/"),
		fpNamed("HubSpot CMS Hub"),
	}},
	{name: "Duda", role: RoleCMS, class: ClassHosted, categories: []string{"CMS"}, signals: []signal{
		body("irp.cdn-website.com", 50, "assets on irp.cdn-website.com"), body("dmalbum", 20, "Duda album markup"), fp(),
	}},
	{name: "Hugo", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator"}, signals: []signal{generator("hugo", 70), fp()}},
	{name: "Jekyll", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator"}, signals: []signal{generator("jekyll", 70), fp()}},
	{name: "Eleventy", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator"}, signals: []signal{generator("eleventy", 70), fp()}},
	{name: "Docusaurus", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator", "Documentation"}, signals: []signal{
		generator("docusaurus", 70), body("__docusaurus", 50, "__docusaurus markers"), fp(),
	}},
	{name: "Mintlify", role: RoleCMS, class: ClassHosted, categories: []string{"Documentation"}, signals: []signal{body("mintlify", 40, "Mintlify assets"), fp()}},

	// Page builders.
	{name: "Elementor", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		body("/wp-content/plugins/elementor/", 50, "Elementor plugin assets"), body("elementor-element", 40, "elementor- classes"),
		body("data-elementor-type", 40, "data-elementor-type attribute"), generator("elementor", 60), fp(),
	}},
	{name: "Divi", role: RoleBuilder, categories: []string{"Page builders", "WordPress themes"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		body("et_pb_section", 50, "et_pb_ classes"), body("/themes/divi/", 40, "Divi theme assets"), fp(),
	}},
	{name: "WPBakery", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		body("vc_row", 40, "vc_ classes"), body("js_composer", 50, "js_composer assets"), generator("wpbakery", 60), fp(),
	}},
	{name: "Beaver Builder", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		body("fl-builder", 50, "fl-builder classes"), body("/plugins/bb-plugin/", 50, "bb-plugin assets"), fp(),
	}},
	{name: "Bricks", role: RoleBuilder, categories: []string{"Page builders", "WordPress themes"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		body("brxe-", 50, "brxe- classes"), body("/themes/bricks/", 40, "Bricks theme assets"), fp(),
	}},
	{name: "Oxygen", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		body("ct-section", 40, "ct-section classes"), body("/plugins/oxygen/", 50, "Oxygen plugin assets"), fp(),
	}},
	{name: "Gutenberg", role: RoleBuilder, categories: []string{"Editors", "WordPress plugins"}, signals: []signal{
		body("wp-block-", 40, "wp-block- classes"), body("/wp-includes/css/dist/block-library/", 30, "block library styles"),
	}},
	{name: "PageFly", role: RoleBuilder, categories: []string{"Page builders", "Shopify apps"}, signals: []signal{
		body("__pf", 30, "PageFly __pf markup"), body("pagefly", 50, "PageFly assets"), fp(),
	}},
	{name: "Shogun", role: RoleBuilder, categories: []string{"Page builders", "Shopify apps"}, signals: []signal{
		body("shogun-root", 50, "shogun-root markup"), body("cdn.getshogun.com", 50, "assets on cdn.getshogun.com"), fp(),
	}},
	{name: "GemPages", role: RoleBuilder, categories: []string{"Page builders", "Shopify apps"}, signals: []signal{
		body("gempages", 50, "GemPages assets"), body("gem-", 10, "gem- classes"), fp(),
	}},

	// JavaScript frameworks. Meta-frameworks subsume the library they build on.
	{name: "Next.js", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, subsumes: []string{"React"}, signals: []signal{
		body("__next_data__", 60, "__NEXT_DATA__ state"), body("/_next/static/", 50, "assets under /_next/static/"),
		header("x-powered-by", "next.js", 60), header("x-nextjs-cache", "", 50), body("self.__next_f", 50, "app router flight data"), fp(),
	}},
	{name: "Nuxt", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, subsumes: []string{"Vue"}, signals: []signal{
		body("__nuxt__", 60, "__NUXT__ state"), body("/_nuxt/", 50, "assets under /_nuxt/"), body("id=\"__nuxt\"", 40, "#__nuxt mount"), fp(),
	}},
	{name: "SvelteKit", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, signals: []signal{
		body("data-sveltekit", 60, "data-sveltekit attributes"), body("/_app/immutable/", 50, "assets under /_app/immutable/"), body("data-svelte-h", 30, "data-svelte-h markers"), fp(),
	}},
	{name: "Astro", role: RoleFramework, class: ClassSSR, categories: []string{"Static site generator", "Web frameworks"}, signals: []signal{
		generator("astro", 70), body("astro-island", 50, "astro-island elements"), body("/_astro/", 40, "assets under /_astro/"), fp(),
	}},
	{name: "Gatsby", role: RoleFramework, class: ClassSSR, categories: []string{"Static site generator"}, subsumes: []string{"React"}, signals: []signal{
		generator("gatsby", 70), body("id=\"___gatsby\"", 60, "#___gatsby mount"), fp(),
	}},
	{name: "Remix", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, subsumes: []string{"React"}, signals: []signal{
		body("__remixcontext", 60, "__remixContext state"), body("window.__remixmanifest", 50, "Remix manifest"), fp(),
	}},
	{name: "Angular", role: RoleFramework, class: ClassSPA, categories: []string{"JavaScript frameworks"}, signals: []signal{
		body("ng-version=", 60, "ng-version attribute"), body("<app-root", 30, "<app-root> mount"), fp(),
	}},
	{name: "React", role: RoleFramework, class: ClassSPA, categories: []string{"JavaScript frameworks"}, signals: []signal{
		body("data-reactroot", 50, "data-reactroot attribute"), body("react-dom", 30, "react-dom bundle"), fp(),
	}},
	{name: "Vue", role: RoleFramework, class: ClassSPA, categories: []string{"JavaScript frameworks"}, signals: []signal{
		body("data-v-app", 50, "data-v-app mount"), body(" data-v-", 30, "data-v- scoped styles"), fpNamed("Vue.js"),
	}},

	// Technologies that explain findings.
	{name: "WooCommerce", categories: []string{"Ecommerce", "WordPress plugins"}, signals: []signal{body("woocommerce", 50, "woocommerce classes"), fp()}},
	{name: "Yoast SEO", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{
		body("yoast-schema-graph", 60, "yoast-schema-graph JSON-LD"), body("yoast seo plugin", 60, "Yoast comment"), fp(),
	}},
	{name: "Rank Math", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{
		body("rank-math-schema", 60, "rank-math-schema JSON-LD"), body("rank math", 40, "Rank Math comment"), fp(),
	}},
	{name: "All in One SEO", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{body("aioseo", 60, "aioseo markup"), fp()}},
	{name: "SEOPress", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{body("seopress", 60, "seopress markup"), fp()}},
	{name: "Cloudflare", categories: []string{"CDN"}, signals: []signal{header("cf-ray", "", 60), header("server", "cloudflare", 60), fp()}},
	{name: "Cloudflare Bot Management", categories: []string{"Security"}, botManagement: true, signals: []signal{
		botProbe("cf-mitigated", "challenge", 80), cookie("__cf_bm", 60), fp(),
	}},
	{name: "Akamai", categories: []string{"CDN"}, signals: []signal{header("x-akamai-transformed", "", 60), header("akamai-grn", "", 60), fp()}},
	{name: "Akamai Bot Manager", categories: []string{"Security"}, botManagement: true, signals: []signal{cookie("_abck", 60), cookie("ak_bmsc", 60), fp()}},
	{name: "Fastly", categories: []string{"CDN"}, signals: []signal{header("x-fastly-request-id", "", 60), header("x-served-by", "cache-", 40), fp()}},
	{name: "Vercel", categories: []string{"PaaS"}, signals: []signal{header("server", "vercel", 60), header("x-vercel-id", "", 60), fp()}},
	{name: "Netlify", categories: []string{"PaaS", "CDN"}, signals: []signal{header("server", "netlify", 60), header("x-nf-request-id", "", 60), fp()}},
	{name: "Imperva", categories: []string{"Security"}, botManagement: true, signals: []signal{header("x-iinfo", "", 60), cookie("incap_ses", 60), cookie("visid_incap", 60), fp()}},
	{name: "DataDome", categories: []string{"Security"}, botManagement: true, signals: []signal{header("x-datadome", "", 70), cookie("datadome", 60), fp()}},
	{name: "HUMAN", categories: []string{"Security"}, botManagement: true, signals: []signal{cookie("_px", 50), body("px-captcha", 50, "px-captcha markup"), fpNamed("PerimeterX")}},
	{name: "Contentful", categories: []string{"CMS"}, headless: true, signals: []signal{body("images.ctfassets.net", 50, "assets on images.ctfassets.net"), fp()}},
	{name: "Sanity", categories: []string{"CMS"}, headless: true, signals: []signal{body("cdn.sanity.io", 50, "assets on cdn.sanity.io"), fp()}},
	{name: "Strapi", categories: []string{"CMS"}, headless: true, signals: []signal{body("/uploads/", 10, "uploads path"), fp()}},
	{name: "Storyblok", categories: []string{"CMS"}, headless: true, signals: []signal{body("a.storyblok.com", 50, "assets on a.storyblok.com"), fp()}},
	{name: "Cookiebot", categories: []string{"Cookie compliance"}, signals: []signal{script("consent.cookiebot.com", 60), fp()}},
	{name: "OneTrust", categories: []string{"Cookie compliance"}, signals: []signal{script("cdn.cookielaw.org", 60), fp()}},
	{name: "Google Tag Manager", categories: []string{"Tag managers"}, signals: []signal{body("googletagmanager.com/gtm.js", 60, "gtm.js loader"), fp()}},
	{name: "Google Analytics", categories: []string{"Analytics"}, signals: []signal{body("googletagmanager.com/gtag/js", 60, "gtag.js loader"), fp()}},
}

// Confidence thresholds on a rule's summed weight.
const (
	minScore    = 30
	mediumScore = 50
	highScore   = 80
)
