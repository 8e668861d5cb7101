package fixes

import (
	"slices"
	"strings"
)

// topic is a kind of change, for which each platform has its own place.
type topic int

const (
	// topicRobotsEdit: change the rules of robots.txt.
	topicRobotsEdit topic = iota
	// topicRobotsServe: make /robots.txt answer 200 with text (a server
	// error, an HTML catch-all, no file at all).
	topicRobotsServe
	topicSitemap
	topicLLMsTxt
	// topicSchema: add JSON-LD to the site's pages.
	topicSchema
	// topicHead: set the title, meta description or canonical of a page.
	topicHead
	// topicEdge: let AI crawlers through the CDN or firewall.
	topicEdge
)

const genericPlatform = "generic"

// platformDef is where a platform keeps what each topic changes.
type platformDef struct {
	name  string
	steps map[topic][]string
}

// stepsFor are the platform's steps of a topic, or the generic ones.
func (p *platformDef) stepsFor(t topic) []string {
	if st, ok := p.steps[t]; ok {
		return st
	}
	return generic.steps[t]
}

// platformFor picks the steps for what Site Triage detected: the CMS or
// hosted platform first (its settings are where a change is made), then
// the framework that renders the pages.
func platformFor(p Platform) *platformDef {
	for _, def := range platforms {
		if strings.EqualFold(p.CMS, def.name) {
			return def
		}
	}
	for _, def := range platforms {
		if strings.EqualFold(p.Framework, def.name) {
			return def
		}
	}
	return generic
}

// steps are the platform's steps of a topic for this site: on WordPress,
// led by the SEO plugin Site Triage saw, whose settings they name.
func (s *scan) steps(t topic) []string {
	st := s.plat.stepsFor(t)
	if s.plat.name != "WordPress" || (t != topicRobotsEdit && t != topicSchema && t != topicHead && t != topicSitemap) {
		return st
	}
	if p := seoPlugin(s.in.Platform); p != "" {
		return append([]string{"Site Triage saw " + p + " on the site: make the change in its settings, named below, so the plugin does not overwrite it."}, st...)
	}
	return st
}

// seoPlugin is the WordPress SEO plugin Site Triage recognised, if any.
func seoPlugin(p Platform) string {
	for _, name := range []string{"Yoast SEO", "Rank Math", "All in One SEO", "SEOPress"} {
		if slices.Contains(p.Technologies, name) {
			return name
		}
	}
	return ""
}

var generic = &platformDef{name: genericPlatform, steps: map[topic][]string{
	topicRobotsEdit: {
		"Edit the robots.txt file that the web server serves from the site's document root (or, behind a CDN, wherever the edge serves /robots.txt from), then deploy it.",
	},
	topicRobotsServe: {
		"Find what answers /robots.txt: the web server's static files, the application's router or a CDN rule.",
		"Serve robots.txt as a static text/plain file with status 200, outside the application, so an application error, a maintenance page or a catch-all route cannot answer for it.",
		"Exempt /robots.txt from rate limits, bot challenges and firewall rules: crawlers fetch it before anything else.",
	},
	topicSitemap: {
		"Have the CMS or build generate sitemap.xml on every publish (most CMSs and static site generators have a sitemap feature or plugin), or publish the stub below at /sitemap.xml and keep it current.",
		"List it in robots.txt with a `Sitemap:` line so crawlers without a webmaster console find it.",
	},
	topicLLMsTxt: {
		"Publish the file at /llms.txt in the site's document root, served as text/plain or text/markdown with status 200.",
	},
	topicSchema: {
		"Add the snippet to the <head> of the page's template (for site-wide entities, of every page), or let the CMS's SEO feature emit the same entities; keep one Organization per site, referenced by its @id.",
	},
	topicHead: {
		"Set the tag in the template or the CMS field that writes the page's <head>; make sure only one of each is emitted.",
	},
	topicEdge: {
		"In the CDN's or firewall's bot rules, allow the AI search crawlers and assistants verified by their published IP ranges or reverse DNS; exempt them from JavaScript challenges and rate limits.",
		"Serve them the same HTML as browsers.",
	},
}}

var platforms = []*platformDef{
	{name: "WordPress", steps: map[topic][]string{
		topicRobotsEdit: {
			"If a physical robots.txt sits in the WordPress root (the folder with wp-config.php), edit that file by SFTP or the host's file manager.",
			"Otherwise WordPress generates robots.txt: edit it in the SEO plugin (Yoast SEO → Tools → File editor; Rank Math → General Settings → Edit robots.txt; All in One SEO → Tools → Robots.txt Editor).",
		},
		topicRobotsServe: {
			"Without a physical file, WordPress answers /robots.txt through PHP, so a PHP error, an exhausted database or a maintenance mode answers for it. Upload a static robots.txt to the WordPress root so the web server serves it without PHP.",
			"Check the PHP error log and the security or caching plugin (and the host's firewall) for rules that rate-limit or block /robots.txt.",
		},
		topicSitemap: {
			"Turn on the XML sitemap of the SEO plugin (Yoast SEO → Settings → Site features → XML sitemaps, served at /sitemap_index.xml; Rank Math → Sitemap Settings); without a plugin, WordPress 5.5 and later serve /wp-sitemap.xml unless a plugin or theme turned it off.",
		},
		topicLLMsTxt: {
			"Upload llms.txt to the WordPress root (next to wp-config.php) by SFTP or the host's file manager; check that no caching or security plugin rewrites /llms.txt.",
		},
		topicSchema: {
			"Fill in the SEO plugin's site settings first (Yoast SEO → Settings → Site representation: organization name, logo, other profiles and the organization's contact details; Rank Math → Titles & Meta → Local SEO): it then outputs the Organization and WebSite itself, under its own @id.",
			"For properties the plugin has no field for, add the snippet in the theme's header (a child theme's header.php before </head>) or with a code-snippets plugin, and reuse the plugin's @id rather than declaring a second Organization.",
		},
		topicHead: {
			"Edit the page and set the SEO title, meta description and canonical URL in the SEO plugin's box under the editor (Yoast SEO: the Search appearance and Advanced tabs; Rank Math: Edit Snippet and Advanced).",
		},
	}},
	{name: "Shopify", steps: map[topic][]string{
		topicRobotsEdit: {
			"Online Store → Themes → ⋯ → Edit code → Templates → Add a new template → robots: this creates robots.txt.liquid, which starts with Shopify's default rules.",
			"Add the patch's new lines after the default rules; to drop one of Shopify's default rules, wrap it in a Liquid condition instead of deleting the loop that prints them.",
		},
		topicRobotsServe: {
			"Shopify serves robots.txt itself: if robots.txt.liquid exists, look for a Liquid error in it; otherwise, and for a proxy or CDN in front of the store, contact Shopify support with the URL and the time of the scan.",
		},
		topicSitemap: {
			"Shopify generates /sitemap.xml for every store and lists it in robots.txt; products, pages and collections that are not published to the Online Store channel are left out.",
		},
		topicLLMsTxt: {
			"Shopify does not serve files uploaded by the store at its root: upload llms.txt under Content → Files and add a URL redirect from /llms.txt to the file's address (Online Store → Navigation → URL redirects).",
		},
		topicSchema: {
			"Online Store → Themes → ⋯ → Edit code: add site-wide entities to layout/theme.liquid before </head>, and product or article entities to the section that renders them (for example sections/main-product.liquid), writing Liquid values through the json filter ({{ product.title | json }}).",
			"Many themes already output Product and Organization JSON-LD: extend theirs rather than adding a second one.",
		},
		topicHead: {
			"For a product, page, collection or blog post, set the title and meta description under \"Search engine listing\" at the bottom of its editor; the homepage's are in Online Store → Preferences. The canonical link comes from the theme ({{ canonical_url }} in layout/theme.liquid).",
		},
		topicEdge: {
			"Shopify runs the edge in front of the store: bot protection there cannot be configured by the store. Check apps and any proxy or CDN put in front of the store; otherwise contact Shopify support with the user agents refused.",
		},
	}},
	{name: "Next.js", steps: map[topic][]string{
		topicRobotsEdit: {
			"Edit public/robots.txt, or, when the app generates it, the rules array returned by app/robots.ts (MetadataRoute.Robots); redeploy.",
		},
		topicRobotsServe: {
			"Serve robots.txt statically from public/robots.txt (or app/robots.ts), and exclude /robots.txt from middleware matchers, rewrites and catch-all routes ([...slug]) so no page or error answers for it.",
		},
		topicSitemap: {
			"Generate the sitemap with app/sitemap.ts (MetadataRoute.Sitemap) from the same data the pages are built from, or publish public/sitemap.xml; reference it from robots.txt.",
		},
		topicLLMsTxt: {
			"Add llms.txt to public/ (served at /llms.txt) and exclude the path from middleware matchers and catch-all routes.",
		},
		topicSchema: {
			"Render the JSON-LD in app/layout.tsx (site-wide) or the page's page.tsx as <script type=\"application/ld+json\" dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, '\\u003c') }} />, so it is in the server-rendered HTML.",
		},
		topicHead: {
			"Set title, description and alternates.canonical in the metadata export (or generateMetadata) of app/layout.tsx or the page's page.tsx; with the pages router, in next/head. Make sure the page is rendered on the server so the tags are in the HTML.",
		},
	}},
	{name: "Wix", steps: map[topic][]string{
		topicRobotsEdit: {
			"Dashboard → Marketing & SEO → SEO → Tools and settings → Robots.txt Editor → View file: make the change there and save.",
		},
		topicRobotsServe: {
			"Wix serves robots.txt itself: a server error there is on Wix's side, or on a proxy in front of the site. Contact Wix support with the URL and the time of the scan.",
		},
		topicSitemap: {
			"Wix generates sitemap.xml for published pages and lists it in robots.txt; check that the pages are not hidden from search engines in their SEO settings.",
		},
		topicLLMsTxt: {
			"Wix does not serve files uploaded by the site at its root: look for an llms.txt option in the Marketing & SEO settings, or serve the file from a proxy in front of the site.",
		},
		topicSchema: {
			"Open the page's SEO settings → Advanced SEO → Structured data markup → Add new markup, and paste the JSON (without the <script> tags).",
		},
		topicHead: {
			"Pages menu → the page's ⋯ → SEO basics: title tag and meta description; the canonical URL is under Advanced SEO.",
		},
		topicEdge: {
			"Wix runs the edge in front of the site: bot protection there cannot be configured by the site. Contact Wix support with the user agents refused.",
		},
	}},
	{name: "Squarespace", steps: map[topic][]string{
		topicRobotsEdit: {
			"Squarespace generates robots.txt and does not let it be edited. Its AI crawler rules come from Settings → Crawlers: turn off the blocking of AI crawlers there; search engine crawling is in the same place.",
		},
		topicRobotsServe: {
			"Squarespace serves robots.txt itself: a server error there is on Squarespace's side, or on a proxy in front of the site. Contact Squarespace support with the URL and the time of the scan.",
		},
		topicSitemap: {
			"Squarespace generates /sitemap.xml for every site; pages hidden from search results in their SEO settings are left out.",
		},
		topicLLMsTxt: {
			"Squarespace does not serve files uploaded by the site at its root; the file can only be served from a proxy in front of the site.",
		},
		topicSchema: {
			"Settings → Advanced → Code Injection → Header for site-wide entities (plans with code injection), or the page's settings → Advanced → Page Header Code Injection for one page.",
		},
		topicHead: {
			"The page's settings → SEO: SEO title and SEO description; site-wide defaults under Marketing → SEO.",
		},
		topicEdge: {
			"Squarespace runs the edge in front of the site: bot protection there cannot be configured by the site. Check Settings → Crawlers, then contact Squarespace support with the user agents refused.",
		},
	}},
	{name: "Drupal", steps: map[topic][]string{
		topicRobotsEdit: {
			"Edit robots.txt in the Drupal web root; on a Composer-managed site, exclude it from drupal/core-composer-scaffold's file mapping so the next update does not overwrite it. With the RobotsTxt module, edit it at /admin/config/search/robotstxt instead.",
		},
		topicRobotsServe: {
			"A physical robots.txt in the web root is served by the web server without Drupal; check the web server and PHP error logs, and that no rewrite rule sends /robots.txt to index.php.",
		},
		topicSitemap: {
			"Install the Simple XML Sitemap module and configure it at /admin/config/search/simplesitemap; it serves /sitemap.xml.",
		},
		topicLLMsTxt: {
			"Put llms.txt in the web root (on a Composer-managed site, also in the scaffold file mapping so updates keep it).",
		},
		topicSchema: {
			"Use the Schema.org Metatag module (with Metatag) to output Organization, WebSite, Article and Product per content type, or add the snippet in the theme's html.html.twig.",
		},
		topicHead: {
			"Metatag module: set the defaults per content type at /admin/config/search/metatag and override them on a node's Meta tags tab (title, description, canonical URL).",
		},
	}},
	{name: "Webflow", steps: map[topic][]string{
		topicRobotsEdit: {
			"Site settings → SEO → Indexing → Robots.txt: make the change there, save and publish.",
		},
		topicRobotsServe: {
			"Webflow serves robots.txt itself: a server error there is on Webflow's side, or on a proxy in front of the site. Contact Webflow support with the URL and the time of the scan.",
		},
		topicSitemap: {
			"Site settings → SEO → Sitemap: turn on Auto-generate sitemap and publish.",
		},
		topicLLMsTxt: {
			"Look for an llms.txt upload under Site settings → SEO; otherwise the file can only be served from a proxy in front of the site.",
		},
		topicSchema: {
			"Page settings → Custom code → Inside <head> tag for one page (CMS template pages can insert field values), or Site settings → Custom code → Head code for site-wide entities; publish.",
		},
		topicHead: {
			"Page settings → SEO settings: title tag and meta description; Site settings → SEO → Global canonical tag URL for the canonical.",
		},
		topicEdge: {
			"Webflow runs the edge in front of the site: bot protection there cannot be configured by the site. Contact Webflow support with the user agents refused.",
		},
	}},
}

// edgeSteps are the bot-management steps of the CDN or firewall Site
// Triage recognised in front of the site, most specific first.
func edgeSteps(p Platform, def *platformDef) []string {
	var out []string
	has := func(name string) bool { return slices.Contains(p.Technologies, name) }
	switch {
	case has("Cloudflare") || has("Cloudflare Bot Management"):
		out = append(out,
			"Cloudflare: in the dashboard, check Security → Bots (Bot Fight Mode, and the setting that blocks AI bots) and the per-crawler choices of AI Crawl Control; allow the AI search crawlers and assistants. Search Security → WAF custom rules for rules matching these user agents.",
			"Cloudflare lists the crawlers it verifies as verified bots; a rule that skips challenges for verified bots lets the real crawlers through without opening the site to every client claiming their names.")
	case has("Akamai") || has("Akamai Bot Manager"):
		out = append(out, "Akamai: in Bot Manager, find the bot categories of the refused crawlers (AI search and assistants) and set their action to allow instead of deny or challenge.")
	case has("Imperva"):
		out = append(out, "Imperva: in the site's Bot Protection and WAF policies, allow the refused AI crawlers as good bots rather than challenging them.")
	case has("DataDome"):
		out = append(out, "DataDome: allow the refused AI crawlers in the dashboard's bot rules (they are verified bots) instead of blocking or challenging them.")
	case has("HUMAN"):
		out = append(out, "HUMAN (PerimeterX): allow the refused AI crawlers in the bot defender's policy instead of showing them the challenge.")
	case has("Vercel"):
		out = append(out, "Vercel: check the project's Firewall (custom rules, Attack Challenge Mode and bot protection) for rules that challenge these user agents.")
	case has("Fastly"):
		out = append(out, "Fastly: look for VCL or Next-Gen WAF rules that match these user agents and exempt the verified crawlers.")
	}
	return append(out, def.stepsFor(topicEdge)...)
}
