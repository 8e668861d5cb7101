package triage

import "strings"

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

// where a signal looks. Every place is the site's own: its response
// headers and cookies, its generator tag, the URLs of its own host (and
// of asset hosts evidenced as its own), its markup (class tokens,
// attributes, element names, ids, HTML comments) and the code of its
// inline scripts outside string literals. Text in content, string
// literals, CSS and URLs that point to other sites are never evidence of
// the site's platform.
type where int

const (
	inHeader      where = iota // a response header (name; value contains)
	inCookie                   // a Set-Cookie name starting with
	inGenerator                // <meta name=generator> starting with (case-insensitive)
	inAsset                    // the path of a URL on the site's own hosts contains
	inHost                     // a resource the page loads (not a link) comes from host+path containing
	inClass                    // a class token, or a token of its family ("vc_row" also matches "vc_row-fluid")
	inAttr                     // an attribute name, or one of its family ("data-v" matches "data-v-1a2b")
	inElement                  // an element name
	inID                       // an element id (case-insensitive)
	inCode                     // inline JavaScript outside string literals and comments contains
	inComment                  // an HTML comment contains
	inScript                   // a script src (any host) or an inline script contains; only for technologies that decide nothing
	inBotProbe                 // a header on a response to an AI bot probe
	inFingerprint              // the fingerprint library recognised the named app
)

// signal is one piece of evidence with its weight (out of 100). A signal
// of strongWeight or more names its technology alone; weaker ones need a
// second signal (see accepted).
type signal struct {
	where    where
	key      string // header or cookie name, or fingerprint app name ("" = the rule's name)
	contains string // lower case
	weight   int
	// what names the evidence for the engineering ledger.
	what string
}

// strongWeight is the weight from which a signal is evidence on its own:
// a generator tag, a platform-only header or cookie, an asset path on the
// site's own host, a platform-only attribute.
const strongWeight = 45

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

// fp is a match in the fingerprint database: supporting evidence, or
// strong when a header, cookie or meta pattern matched (see fpFound).
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

func asset(path string, w int, what string) signal {
	return signal{where: inAsset, contains: path, weight: w, what: what + " on the site's own host"}
}

func host(hostPath string, w int, what string) signal {
	return signal{where: inHost, contains: hostPath, weight: w, what: what}
}

func class(token string, w int) signal {
	return signal{where: inClass, contains: token, weight: w, what: "class " + token}
}

func attribute(name string, w int) signal {
	return signal{where: inAttr, contains: name, weight: w, what: name + " attribute"}
}

func element(name string, w int) signal {
	return signal{where: inElement, contains: name, weight: w, what: "<" + name + "> element"}
}

func id(v string, w int) signal {
	return signal{where: inID, contains: strings.ToLower(v), weight: w, what: "#" + v + " element"}
}

func code(marker string, w int, what string) signal {
	return signal{where: inCode, contains: marker, weight: w, what: what}
}

func comment(text string, w int, what string) signal {
	return signal{where: inComment, contains: text, weight: w, what: what}
}

// script is a third-party service's loader: it decides no role, and its
// presence is proof of the service.
func script(s string) signal {
	return signal{where: inScript, contains: s, weight: 60, what: "script " + s}
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
// tag or a platform-only header is near proof (60–70); an asset path on
// the site's own host or a platform-only attribute is strong (45–50); a
// class family, an asset host that third parties also embed, or a
// fingerprint match is supporting (10–40).
var rules = []rule{
	// Content management systems, shops and site builders.
	{name: "WordPress", role: RoleCMS, class: ClassOpen, categories: []string{"CMS", "Blogs"}, signals: []signal{
		generator("wordpress", 70), header("link", "api.w.org", 60), asset("/wp-content/", 45, "assets under /wp-content/"),
		asset("/wp-includes/", 45, "assets under /wp-includes/"), asset("/wp-json/", 30, "REST API link /wp-json/"), fp(),
	}},
	{name: "Shopify", role: RoleCMS, class: ClassHosted, categories: []string{"Ecommerce", "CMS"}, signals: []signal{
		header("x-shopid", "", 70), header("x-shopify-stage", "", 70), header("powered-by", "shopify", 70),
		host("cdn.shopify.com/s/files/", 35, "store files on cdn.shopify.com"), code("shopify.theme", 50, "Shopify.theme bootstrap"),
		code("window.shopify", 40, "window.Shopify global"), cookie("_shopify_", 45), fp(),
		// Buy buttons and widgets embed cdn.shopify.com on other platforms: weak.
		host("cdn.shopify.com", 15, "resources from cdn.shopify.com"),
	}},
	{name: "Wix", role: RoleCMS, class: ClassLocked, categories: []string{"CMS"}, signals: []signal{
		header("x-wix-request-id", "", 70), generator("wix.com", 70), host("static.wixstatic.com", 40, "media on static.wixstatic.com"),
		host("static.parastorage.com", 40, "assets on static.parastorage.com"), fp(),
	}},
	{name: "Squarespace", role: RoleCMS, class: ClassLocked, categories: []string{"CMS"}, signals: []signal{
		generator("squarespace", 50), host("static1.squarespace.com", 45, "assets on static1.squarespace.com"),
		code("squarespace_context", 50, "Squarespace context global"), header("server", "squarespace", 60), fp(),
	}},
	{name: "Webflow", role: RoleCMS, class: ClassHosted, categories: []string{"CMS", "Page builders"}, signals: []signal{
		generator("webflow", 70), attribute("data-wf-page", 50), attribute("data-wf-site", 40),
		host("website-files.com", 30, "assets on website-files.com"), fp(),
	}},
	{name: "Framer", role: RoleCMS, class: ClassHosted, categories: []string{"CMS"}, signals: []signal{
		generator("framer", 70), host("framerusercontent.com", 40, "assets on framerusercontent.com"), header("server", "framer", 60), fp(),
	}},
	{name: "Drupal", role: RoleCMS, class: ClassOpen, categories: []string{"CMS"}, signals: []signal{
		generator("drupal", 70), header("x-drupal-cache", "", 60), header("x-generator", "drupal", 70),
		asset("/sites/default/files/", 45, "files under /sites/default/files/"), asset("/core/misc/drupal", 45, "core scripts under /core/misc/"),
		attribute("data-drupal-selector", 50), fp(),
	}},
	{name: "Joomla", role: RoleCMS, class: ClassOpen, categories: []string{"CMS"}, signals: []signal{
		generator("joomla", 70), asset("/media/jui/", 45, "assets under /media/jui/"), asset("/components/com_", 30, "component paths /components/com_"), fp(),
	}},
	{name: "Ghost", role: RoleCMS, class: ClassHosted, categories: []string{"CMS", "Blogs"}, signals: []signal{
		generator("ghost", 70), asset("/ghost/api/", 40, "Ghost content API"), attribute("data-ghost", 40), fp(),
	}},
	{name: "HubSpot CMS", role: RoleCMS, class: ClassHosted, categories: []string{"CMS"}, signals: []signal{
		generator("hubspot", 70), header("x-hs-hub-id", "", 60), host("hs-sites.com", 30, "hs-sites.com assets"),
		asset("/hs/hsstatic/", 45, "assets under /hs/hsstatic/"),
		fpNamed("HubSpot CMS Hub"),
	}},
	{name: "Duda", role: RoleCMS, class: ClassHosted, categories: []string{"CMS"}, signals: []signal{
		host("irp.cdn-website.com", 50, "assets on irp.cdn-website.com"), class("dmalbum", 20), fp(),
	}},
	{name: "Hugo", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator"}, signals: []signal{generator("hugo", 70), fp()}},
	{name: "Jekyll", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator"}, signals: []signal{generator("jekyll", 70), fp()}},
	{name: "Eleventy", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator"}, signals: []signal{generator("eleventy", 70), fp()}},
	{name: "Docusaurus", role: RoleCMS, class: ClassStatic, categories: []string{"Static site generator", "Documentation"}, signals: []signal{
		generator("docusaurus", 70), id("__docusaurus", 50), fp(),
	}},
	{name: "Mintlify", role: RoleCMS, class: ClassHosted, categories: []string{"Documentation"}, signals: []signal{host("mintlify", 40, "Mintlify assets"), fp()}},

	// Page builders.
	{name: "Elementor", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		asset("/wp-content/plugins/elementor/", 50, "Elementor plugin assets"), class("elementor-element", 40),
		attribute("data-elementor-type", 50), generator("elementor", 60), fp(),
	}},
	{name: "Divi", role: RoleBuilder, categories: []string{"Page builders", "WordPress themes"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		class("et_pb_section", 40), asset("/themes/divi/", 50, "Divi theme assets"), fp(),
	}},
	{name: "WPBakery", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		class("vc_row", 40), asset("/plugins/js_composer/", 50, "js_composer assets"), generator("wpbakery", 60), fp(),
	}},
	{name: "Beaver Builder", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		class("fl-builder", 40), asset("/plugins/bb-plugin/", 50, "bb-plugin assets"), fp(),
	}},
	{name: "Bricks", role: RoleBuilder, categories: []string{"Page builders", "WordPress themes"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		class("brxe", 40), asset("/themes/bricks/", 50, "Bricks theme assets"), fp(),
	}},
	{name: "Oxygen", role: RoleBuilder, categories: []string{"Page builders", "WordPress plugins"}, subsumes: []string{"Gutenberg"}, signals: []signal{
		class("ct-section", 40), class("oxygen-body", 40), asset("/plugins/oxygen/", 50, "Oxygen plugin assets"), fp(),
	}},
	{name: "Gutenberg", role: RoleBuilder, categories: []string{"Editors", "WordPress plugins"}, signals: []signal{
		class("wp-block", 40), asset("/wp-includes/css/dist/block-library/", 30, "block library styles"),
	}},
	{name: "PageFly", role: RoleBuilder, categories: []string{"Page builders", "Shopify apps"}, signals: []signal{
		class("__pf", 30), host("pagefly", 50, "PageFly assets"), fp(),
	}},
	{name: "Shogun", role: RoleBuilder, categories: []string{"Page builders", "Shopify apps"}, signals: []signal{
		id("shogun-root", 50), host("cdn.getshogun.com", 50, "assets on cdn.getshogun.com"), fp(),
	}},
	{name: "GemPages", role: RoleBuilder, categories: []string{"Page builders", "Shopify apps"}, signals: []signal{
		host("gempages", 50, "GemPages assets"), class("gem", 10), fp(),
	}},

	// JavaScript frameworks. Meta-frameworks subsume the library they build on.
	{name: "Next.js", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, subsumes: []string{"React"}, signals: []signal{
		id("__NEXT_DATA__", 60), asset("/_next/static/", 50, "assets under /_next/static/"),
		header("x-powered-by", "next.js", 60), header("x-nextjs-cache", "", 50), code("self.__next_f", 50, "app router flight data"), fp(),
	}},
	{name: "Nuxt", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, subsumes: []string{"Vue"}, signals: []signal{
		code("window.__nuxt__", 60, "__NUXT__ state"), id("__NUXT_DATA__", 60), asset("/_nuxt/", 50, "assets under /_nuxt/"), id("__nuxt", 40), fp(),
	}},
	{name: "SvelteKit", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, signals: []signal{
		attribute("data-sveltekit", 60), asset("/_app/immutable/", 50, "assets under /_app/immutable/"), attribute("data-svelte-h", 30), fp(),
	}},
	{name: "Astro", role: RoleFramework, class: ClassSSR, categories: []string{"Static site generator", "Web frameworks"}, signals: []signal{
		generator("astro", 70), element("astro-island", 50), asset("/_astro/", 40, "assets under /_astro/"), fp(),
	}},
	{name: "Gatsby", role: RoleFramework, class: ClassSSR, categories: []string{"Static site generator"}, subsumes: []string{"React"}, signals: []signal{
		generator("gatsby", 70), id("___gatsby", 60), fp(),
	}},
	{name: "Remix", role: RoleFramework, class: ClassSSR, categories: []string{"Web frameworks"}, subsumes: []string{"React"}, signals: []signal{
		code("__remixcontext", 60, "__remixContext state"), code("window.__remixmanifest", 50, "Remix manifest"), fp(),
	}},
	{name: "Angular", role: RoleFramework, class: ClassSPA, categories: []string{"JavaScript frameworks"}, signals: []signal{
		attribute("ng-version", 60), element("app-root", 30), fp(),
	}},
	{name: "React", role: RoleFramework, class: ClassSPA, categories: []string{"JavaScript frameworks"}, signals: []signal{
		attribute("data-reactroot", 50), host("react-dom", 30, "react-dom bundle"), fp(),
	}},
	{name: "Vue", role: RoleFramework, class: ClassSPA, categories: []string{"JavaScript frameworks"}, signals: []signal{
		attribute("data-v-app", 50), attribute("data-v", 30), fpNamed("Vue.js"),
	}},

	// Technologies that explain findings.
	{name: "WooCommerce", categories: []string{"Ecommerce", "WordPress plugins"}, signals: []signal{
		class("woocommerce", 50), asset("/plugins/woocommerce/", 50, "WooCommerce plugin assets"), fp(),
	}},
	{name: "Yoast SEO", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{
		class("yoast-schema-graph", 60), comment("yoast seo plugin", 60, "Yoast comment"), fp(),
	}},
	{name: "Rank Math", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{
		class("rank-math-schema", 60), comment("rank math", 40, "Rank Math comment"), fp(),
	}},
	{name: "All in One SEO", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{
		class("aioseo-schema", 60), comment("all in one seo", 60, "All in One SEO comment"), fp(),
	}},
	{name: "SEOPress", categories: []string{"SEO", "WordPress plugins"}, signals: []signal{
		comment("seopress", 60, "SEOPress comment"), asset("/plugins/wp-seopress/", 50, "SEOPress plugin assets"), fp(),
	}},
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
	{name: "HUMAN", categories: []string{"Security"}, botManagement: true, signals: []signal{cookie("_px", 50), id("px-captcha", 50), fpNamed("PerimeterX")}},
	{name: "Contentful", categories: []string{"CMS"}, headless: true, signals: []signal{host("images.ctfassets.net", 50, "assets on images.ctfassets.net"), fp()}},
	{name: "Sanity", categories: []string{"CMS"}, headless: true, signals: []signal{host("cdn.sanity.io", 50, "assets on cdn.sanity.io"), fp()}},
	{name: "Strapi", categories: []string{"CMS"}, headless: true, signals: []signal{asset("/uploads/", 10, "uploads path"), fp()}},
	{name: "Storyblok", categories: []string{"CMS"}, headless: true, signals: []signal{host("a.storyblok.com", 50, "assets on a.storyblok.com"), fp()}},
	{name: "Cookiebot", categories: []string{"Cookie compliance"}, signals: []signal{script("consent.cookiebot.com"), fp()}},
	{name: "OneTrust", categories: []string{"Cookie compliance"}, signals: []signal{script("cdn.cookielaw.org"), fp()}},
	{name: "Google Tag Manager", categories: []string{"Tag managers"}, signals: []signal{script("googletagmanager.com/gtm.js"), fp()}},
	{name: "Google Analytics", categories: []string{"Analytics"}, signals: []signal{script("googletagmanager.com/gtag/js"), fp()}},
}

// fpClasses are the platform classes of content management systems the
// in-house table leaves to the fingerprint database (see Detect); one
// that is not listed gets no class, and effort estimates stay generic.
var fpClasses = map[string]Class{
	"Blogger": ClassHosted, "Tumblr": ClassHosted, "Medium": ClassLocked, "Substack": ClassLocked, "Weebly": ClassLocked,
	"Jimdo": ClassLocked, "Tilda": ClassHosted, "BigCommerce": ClassHosted, "WordPress.com": ClassHosted,
	"MediaWiki": ClassOpen, "TYPO3 CMS": ClassOpen, "SPIP": ClassOpen, "Contao": ClassOpen, "1C-Bitrix": ClassOpen,
	"Magento": ClassOpen, "PrestaShop": ClassOpen, "OpenCart": ClassOpen, "Shopware": ClassOpen, "Craft CMS": ClassOpen,
	"Umbraco": ClassOpen, "Sitecore": ClassOpen, "Adobe Experience Manager": ClassOpen, "Kentico CMS": ClassOpen,
	"DNN": ClassOpen, "Concrete CMS": ClassOpen, "Grav": ClassOpen, "Plone": ClassOpen, "ProcessWire": ClassOpen,
	"Textpattern CMS": ClassOpen, "Bolt CMS": ClassOpen, "Silverstripe": ClassOpen, "October CMS": ClassOpen,
	"Statamic": ClassOpen, "Kirby": ClassOpen, "Dokuwiki": ClassOpen, "Confluence": ClassHosted,
}

// fpCMSCategories are the database categories that name what a site is
// managed with.
var fpCMSCategories = []string{"CMS", "Wikis", "Blogs", "Ecommerce"}

// Confidence thresholds on a rule's summed weight.
const (
	minScore    = 30
	mediumScore = 50
	highScore   = 80
)
