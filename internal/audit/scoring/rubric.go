// Package scoring owns the rubric — the rings, pillar and ring weights,
// gates, grade bands, and the two audiences its texts (and every other text
// of a scan) are written for — and rolls check results up into pillar, ring
// and overall scores.
// The rubric is data (this file) and versioned: a scan's report names the
// version it was scored with, and comparisons are only exact within one.
// docs/SCORING.md shows the same table; a test keeps the two in step.
package scoring

// Version identifies this rubric in every report.
const Version = "2026.4"

// Ring is one of the three scores a scan gets.
type Ring string

// The rings, in report order.
const (
	RingSearch     Ring = "search"
	RingVisibility Ring = "visibility"
	RingTrust      Ring = "trust"
)

// Audience is who a text is written for. Every text of a scan — the
// rubric's descriptions here, the check catalog's, the report's and the
// triage dossier's — has one wording per audience; facts and numbers are
// the same for both.
type Audience string

// The audiences; Marketing is the default.
const (
	Marketing   Audience = "marketing"
	Engineering Audience = "engineering"
)

// PillarDef is a pillar of a ring.
type PillarDef struct {
	ID     string
	Name   string
	Ring   Ring
	Weight float64 // share of the ring score
	// Descriptions per audience.
	Marketing   string
	Engineering string
}

// Description is the pillar's description for audience a.
func (p PillarDef) Description(a Audience) string {
	if a == Engineering {
		return p.Engineering
	}
	return p.Marketing
}

// GateDef caps rings while a critical check fails.
type GateDef struct {
	ID      string
	CheckID string
	Rings   []Ring
	Cap     int
	Message string
}

// GradeBand is the lowest score of a grade and what it means.
type GradeBand struct {
	Min         float64
	Grade       string
	Marketing   string
	Engineering string
}

// Rings in report order, and their share of the overall score.
var (
	Rings        = []Ring{RingSearch, RingVisibility, RingTrust}
	RingWeights  = map[Ring]float64{RingSearch: 0.35, RingVisibility: 0.35, RingTrust: 0.30}
	RingNames    = map[Ring]string{RingSearch: "Search", RingVisibility: "AI visibility", RingTrust: "AI trust"}
	allRingsGate = []Ring{RingSearch, RingVisibility, RingTrust}
)

// Pillars of every ring.
var Pillars = []PillarDef{
	{
		"crawl_access", "Crawl access", RingSearch, 0.40,
		"Whether AI search engines and assistants are allowed in and actually get through to your pages.",
		"robots.txt rules per crawler role (RFC 9309) and what the edge answers to AI user agents.",
	},
	{
		"indexability", "Indexability", RingSearch, 0.30,
		"Whether your pages can be kept in the indexes AI answers are built from, and quoted.",
		"Status codes, redirects, robots meta and X-Robots-Tag, snippet controls, canonical and hreflang.",
	},
	{
		"discovery", "Discovery", RingSearch, 0.15,
		"How easily crawlers find all of your important pages.",
		"XML sitemaps, llms.txt, feeds and internal links from the homepage.",
	},
	{
		"delivery", "Delivery", RingSearch, 0.15,
		"How quickly and lightly your pages reach a crawler.",
		"TTFB, HTML weight, compression, render-blocking resources and image sizing.",
	},

	{
		"extractability", "Extractability", RingVisibility, 0.35,
		"Whether your words are in the page itself, where AI crawlers (which run no JavaScript) can read them.",
		"Server-rendered text, dependence on client-side rendering, text-to-HTML ratio, landmarks and alt text.",
	},
	{
		"answer_structure", "Answer structure", RingVisibility, 0.25,
		"Whether your content is shaped the way answer engines quote it: clear headings, direct answers, facts.",
		"Heading outline, answer-first paragraphs, passage length, lists and tables, cited facts.",
	},
	{
		"structured_data", "Structured data", RingVisibility, 0.25,
		"Whether your pages tell machines, in schema.org terms, who you are and what each page is.",
		"JSON-LD validity, site entities, page-type schema, required properties, @id graph, match with visible text.",
	},
	{
		"machine_metadata", "Machine-readable metadata", RingVisibility, 0.15,
		"The labels machines read first: titles, descriptions, previews, language and AI-specific files.",
		"<title>, meta description, Open Graph, html lang, llms.txt structure and markdown alternates.",
	},

	{
		"entity_identity", "Entity identity", RingTrust, 0.35,
		"Whether AI systems can tell exactly who is behind the site and connect it to your other profiles.",
		"Organization schema, sameAs profiles, consistent brand name, about and contact pages, NAP.",
	},
	{
		"authorship_freshness", "Authorship and freshness", RingTrust, 0.20,
		"Whether content shows who wrote it and when, signals AI systems use to judge expertise.",
		"Author bylines and Person schema, published/modified dates, recency of updates.",
	},
	{
		"site_security", "Site security", RingTrust, 0.15,
		"The basic security and legal signals a trustworthy business site shows.",
		"TLS validity, HSTS, security headers, mixed content, privacy and terms pages.",
	},
	{
		"content_integrity", "Content integrity", RingTrust, 0.15,
		"Whether the site is free of hidden instructions aimed at AI systems and of spam patterns.",
		"Prompt injection in hidden DOM, comments and invisible Unicode; keyword stuffing and similar signals.",
	},
	{
		"ai_mentions", "AI mentions", RingTrust, 0.15,
		"What AI assistants already say about your brand.",
		"Language-model probes of brand recognition, accuracy, category mentions and search citations.",
	},
}

// Gates: while the check fails, the rings are capped.
var Gates = []GateDef{
	{
		"homepage_unreachable", "homepage_http_ok", allRingsGate, 40,
		"The homepage does not answer with a success status, so nothing else can be used by AI engines.",
	},
	{
		"homepage_noindex", "meta_robots_indexable", allRingsGate, 40,
		"The homepage tells search engines not to index it, which keeps it out of AI answers.",
	},
	{
		"search_blocked_for_ai_search", "ai_search_bots_allowed",
		[]Ring{RingSearch},
		50,
		"robots.txt blocks at least one major AI search crawler.",
	},
	// An edge that challenges AI search crawlers blocks them as surely as
	// robots.txt does, whatever robots.txt says.
	{
		"edge_blocks_ai_search", "edge_bot_reachability",
		[]Ring{RingSearch},
		50,
		"The CDN or firewall in front of the site blocks or challenges AI search crawlers.",
	},
	{
		"content_not_server_rendered", "ssr_text_content",
		[]Ring{RingVisibility},
		50,
		"The homepage's HTML carries almost no readable text, so AI crawlers find almost nothing there to quote.",
	},
	{
		"prompt_injection_found", "hidden_prompt_injection",
		[]Ring{RingTrust},
		50,
		"Hidden instructions aimed at AI systems were found in the pages.",
	},
}

// Grades from the highest band down.
var Grades = []GradeBand{
	{
		95, "A+", "Outstanding: AI engines can reach, read and trust this site about as well as any.",
		"Near-complete conformance; remaining findings are minor.",
	},
	{
		85, "A", "Strong: the site is well prepared for AI answer engines.",
		"All critical checks pass; a few medium or low findings remain.",
	},
	{
		70, "B", "Good: solid foundations with clear room to improve.",
		"No gate fires; several medium-weight checks warn or fail.",
	},
	{
		55, "C", "Fair: AI engines can use the site, but important signals are missing.",
		"Multiple high-weight checks fail or warn; fixes are worth planning.",
	},
	{
		40, "D", "Weak: significant gaps limit how AI engines use and cite the site.",
		"High-weight failures or a gate cap the score; prioritise the quick wins.",
	},
	{
		0, "F", "Critical: AI engines largely cannot reach, read or trust the site.",
		"Gating checks fail; start with access, indexability and server-rendered content.",
	},
}

// Descriptor says what the grade means to audience a.
func (g GradeBand) Descriptor(a Audience) string {
	if a == Engineering {
		return g.Engineering
	}
	return g.Marketing
}

// GradeFor maps a 0–100 score to its band.
func GradeFor(score float64) GradeBand {
	for _, g := range Grades {
		if score >= g.Min {
			return g
		}
	}
	return Grades[len(Grades)-1]
}

// Pillar returns a pillar definition by id.
func Pillar(id string) (PillarDef, bool) {
	for _, p := range Pillars {
		if p.ID == id {
			return p, true
		}
	}
	return PillarDef{}, false
}
