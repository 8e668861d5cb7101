package triage

import (
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// surface is where the fix of a check is made; platforms differ in which
// surfaces the site owner can reach.
type surface int

const (
	surfaceMarkup    surface = iota // templates: head tags, JSON-LD, landmarks
	surfaceContent                  // copy and media: what editors change in the CMS
	surfaceRootFiles                // robots.txt, llms.txt, sitemaps, markdown twins at fixed paths
	surfaceHeaders                  // response headers, redirects, TLS, compression
	surfaceRendering                // server-side rendering and page weight
	surfaceEdge                     // CDN/WAF rules in front of the origin
	surfaceOffsite                  // what others publish: AI mentions
)

// surfaces maps each check to where its fix is made; a check not listed is
// a template (markup) change.
var surfaces = map[string]surface{
	"robots_txt_fetchable": surfaceRootFiles, "robots_txt_syntax": surfaceRootFiles, "ai_search_bots_allowed": surfaceRootFiles,
	"ai_user_fetchers_allowed": surfaceRootFiles, "ai_training_policy": surfaceRootFiles, "stale_ai_tokens": surfaceRootFiles,
	"content_signals": surfaceRootFiles, "sitemap_present": surfaceRootFiles, "sitemap_quality": surfaceRootFiles,
	"llms_txt_present": surfaceRootFiles, "llms_txt_valid": surfaceRootFiles, "markdown_alternates": surfaceRootFiles,
	"edge_bot_reachability": surfaceEdge,
	"homepage_http_ok":      surfaceHeaders, "https_redirect": surfaceHeaders, "compression": surfaceHeaders, "tls_valid": surfaceHeaders,
	"hsts": surfaceHeaders, "security_headers": surfaceHeaders, "soft_404": surfaceHeaders,
	"ssr_text_content": surfaceRendering, "js_rendering_dependence": surfaceRendering, "text_html_ratio": surfaceRendering,
	"html_weight": surfaceRendering, "ttfb": surfaceRendering, "crux_field_vitals": surfaceRendering, "render_blocking_head": surfaceRendering,
	"answer_first_intro": surfaceContent, "passage_chunking": surfaceContent, "question_headings": surfaceContent,
	"facts_and_citations": surfaceContent, "lists_tables": surfaceContent, "image_alt_coverage": surfaceContent,
	"content_freshness": surfaceContent, "about_contact_pages": surfaceContent, "legal_pages": surfaceContent,
	"negative_signals": surfaceContent, "hidden_prompt_injection": surfaceContent, "meta_description": surfaceContent,
	"llm_brand_recognition": surfaceOffsite, "llm_brand_accuracy": surfaceOffsite, "llm_category_mention_rate": surfaceOffsite,
	"llm_search_citation": surfaceOffsite,
}

// restrictions says how many effort levels a platform class adds to fixes
// on each surface. Hosted platforms keep robots.txt and llms.txt behind
// theme templates or apps and give no header control; locked builders add
// limited head-code injection on top.
var restrictions = map[Class]map[surface]int{
	ClassHosted: {surfaceRootFiles: 1, surfaceHeaders: 2},
	ClassLocked: {surfaceRootFiles: 2, surfaceHeaders: 2, surfaceMarkup: 1},
}

// effortFor adjusts the catalog effort of a check's fix to the platform.
func effortFor(c *checks.Check, det Detection) checks.Level {
	level := levelIndex(c.Effort)
	s := surfaces[c.ID]
	if det.CMS != nil {
		level += restrictions[det.CMS.Class][s]
	}
	switch {
	case s == surfaceRendering && clientRendered(det) && (c.ID == "ssr_text_content" || c.ID == "js_rendering_dependence"):
		// Moving a client-rendered application to server rendering is a rebuild.
		level = 2
	case s == surfaceEdge && det.BotManagement:
		// The product is known, so the fix is one documented rule: medium at most.
		level = min(level, 1)
	}
	return levelOf(level)
}

// clientRendered reports a site whose framework renders in the browser
// only. A client-side library on a recognised CMS (React in Wix's runtime,
// a Vue widget on WordPress) does not make the site client-rendered: the
// platform renders the pages.
func clientRendered(det Detection) bool {
	return det.Framework != nil && det.Framework.Class == ClassSPA && det.CMS == nil
}

func levelIndex(l checks.Level) int {
	switch l {
	case checks.Medium:
		return 1
	case checks.High:
		return 2
	}
	return 0
}

func levelOf(i int) checks.Level {
	switch {
	case i <= 0:
		return checks.Low
	case i == 1:
		return checks.Medium
	}
	return checks.High
}

// effortCost weighs a fix by its platform-adjusted effort when actions are
// ranked: points per unit of effort.
var effortCost = map[checks.Level]float64{checks.Low: 1, checks.Medium: 2, checks.High: 4}

// rankActions orders the actions as scoring's plan of fixes does: step by
// step, the fix that adds the most points to the overall score, re-scored
// with the actions above it made (caps and gates included), for its
// effort on this platform. Each action learns what it adds alone, what it
// adds in this order, and the actions it gains only together with.
func rankActions(actions []action, scores scoring.Result) []action {
	byID := make(map[string]int, len(actions))
	for i, a := range actions {
		byID[a.outcome.Check.ID] = i
	}
	plan := scores.Plan(func(id string) float64 {
		if i, ok := byID[id]; ok {
			return effortCost[actions[i].effort]
		}
		return effortCost[checks.Medium]
	})
	out := make([]action, 0, len(actions))
	placed := make([]bool, len(actions))
	for _, step := range plan {
		for _, id := range step.CheckIDs {
			i, ok := byID[id]
			if !ok || placed[i] {
				continue
			}
			a := actions[i]
			a.gain, a.inOrder = scores.Gains[id].Overall, step.Gain.Overall
			for _, other := range step.CheckIDs {
				if other != id {
					a.with = append(a.with, other)
				}
			}
			out = append(out, a)
			placed[i] = true
		}
	}
	// An action the plan does not know (none today: both are the warned
	// and failed checks that weigh) keeps its place after the plan.
	for i, a := range actions {
		if !placed[i] {
			out = append(out, a)
		}
	}
	return out
}
