package checks

import (
	"fmt"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The extractability pillar: are the words in the page itself, where AI
// crawlers, which run no JavaScript, can read them? Server-rendered text,
// dependence on client-side rendering, text-to-HTML ratio, landmarks and
// alt text.
const pillarExtractability = "extractability"

// extractabilityChecks returns the pillar's checks in report order.
func extractabilityChecks() []*Check {
	return []*Check{
		ssrTextContentCheck(),
		jsRenderingDependenceCheck(),
		textHTMLRatioCheck(),
		semanticMainCheck(),
		imageAltCoverageCheck(),
	}
}

func ssrTextContentCheck() *Check {
	return &Check{
		ID: "ssr_text_content", Ring: scoring.RingVisibility, Pillar: pillarExtractability, Weight: 10, Effort: Medium,
		Marketing: Text{
			Title: "Readable text without JavaScript",
			Why:   "AI answer engines read your page as the server sends it, and most of their crawlers never run JavaScript. Words that only appear after scripts run are invisible to them, so there is nothing to quote.",
			Fix:   "Make sure the homepage's main copy is part of the page itself rather than loaded afterwards, and that it explains in at least 300 words who you are and what you offer.",
		},
		Engineering: Text{
			Title: "Server-rendered text content",
			Why:   "GPTBot, OAI-SearchBot, ClaudeBot and PerplexityBot fetch the HTML and do not execute scripts; only words present in the initial response body can be indexed, chunked and cited.",
			Fix:   "Render the main content on the server (SSR, static generation or a prerender service) so the response body carries at least 300 visible words outside nav, header, footer and aside; check with a plain HTTP client, not a browser.",
		},
		Eval: evalSSRText,
	}
}

// Why a page's HTML carries little text. Either the page simply has
// little text, or its text waits for JavaScript; only the page can tell,
// and a finding names the cause it shows.

// scriptSigns lists what in a page shows that its text needs JavaScript:
// an empty mount point while scripts are there to fill it, a page-wide
// <noscript> wall, or prose that sits only in the page's scripts. None
// means the HTML simply has little text. A widget's <noscript> ("enable
// JavaScript to view the comments") and inline-script weight alone are
// no such sign.
func scriptSigns(h *page.Page, r page.Rendering) []string {
	var signs []string
	scripts := len(r.ClientRender) > 0 || r.ScriptOnlyWords > 0
	for _, s := range h.Scripts {
		if s.Src != "" {
			scripts = true
		}
	}
	var empty []string
	for _, m := range r.Mounts {
		if m.Empty() {
			empty = append(empty, m.Selector)
		}
	}
	if len(empty) > 0 && scripts {
		sign := "an empty " + andList(empty) + " for scripts to fill"
		if len(r.ClientRender) > 0 {
			sign += " (" + andList(r.ClientRender) + ")"
		}
		signs = append(signs, sign)
	}
	if wall := h.JavaScriptWall(); wall != "" {
		signs = append(signs, fmt.Sprintf("a <noscript> notice %q", excerpt(wall, 60)))
	}
	if r.ScriptOnlyWords >= minScriptOnlyWords {
		signs = append(signs, fmt.Sprintf("%d words of text that sit only in its scripts", r.ScriptOnlyWords))
	}
	return signs
}

// minScriptOnlyWords is the prose in scripts, not in the HTML, that
// shows a page shipping its text for scripts to render.
const minScriptOnlyWords = 50

// renderingEvidence is what scriptSigns read, for the evidence.
func renderingEvidence(e map[string]any, r page.Rendering, signs []string) {
	cause := "little_text"
	if len(signs) > 0 {
		cause = "needs_javascript"
	}
	e["cause"] = cause
	e["script_signs"] = nonNil(signs)
	e["script_only_words"] = r.ScriptOnlyWords
	e["script_only_sample"] = r.ScriptOnlySample
	e["client_render_calls"] = nonNil(r.ClientRender)
}

func evalSSRText(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	e := ev("words", h.Words, "html_bytes", h.HTMLBytes, "text_sample", excerpt(h.MainText, 300))
	if d := in.Rendered; d != nil && !renderInconclusive(h, d) {
		return ssrTextRendered(h.Words, d, e)
	}
	judgedFromSigns(in, e)
	note := heuristicsNote(in)
	if h.Words >= minSSRWords {
		e["confidence"] = "high"
		return pass(fmt.Sprintf("The homepage HTML carries %s of main content before any script runs.", plural(h.Words, "visible word", "visible words"))+note, e)
	}
	if in.RenderErr != "" {
		return notRendered(in, "whether its text waits for JavaScript", e)
	}
	r := h.Rendering()
	signs := scriptSigns(h, r)
	renderingEvidence(e, r, signs)
	e["confidence"] = heuristicConfidence(h, r, signs)
	if len(signs) > 0 {
		if h.Words >= sparseSSRWords {
			return warn(fmt.Sprintf("The homepage HTML carries %s of main content before any script runs; it has %s, so more of its text appears only with JavaScript.", only(h.Words, "visible word", "visible words"), andList(signs))+note, e)
		}
		return fail(fmt.Sprintf("The homepage HTML carries %s of main content; it has %s, so crawlers that run no JavaScript see an almost empty page.", only(h.Words, "visible word", "visible words"), andList(signs))+note, e)
	}
	if h.Words >= sparseSSRWords {
		return warn(fmt.Sprintf("The homepage HTML carries %s of main content (300 or more is the target); the page itself has little text, nothing in it waits for JavaScript.", only(h.Words, "visible word", "visible words"))+note, e)
	}
	return fail(fmt.Sprintf("The homepage HTML carries %s of main content, and nothing in it waits for JavaScript: the page itself has almost no text to read.", only(h.Words, "visible word", "visible words"))+note, e)
}

// heuristicConfidence is how sure a finding judged from signs in the HTML
// is: high when the HTML has the words or an empty app root or a
// page-wide <noscript> wall shows scripts must fill it; medium when only
// prose in scripts shows it, or when nothing does (a script could still
// fetch the text without leaving a sign).
func heuristicConfidence(h *page.Page, r page.Rendering, signs []string) string {
	if len(signs) == 0 {
		return "medium"
	}
	for _, m := range r.Mounts {
		if m.Empty() {
			return "high"
		}
	}
	if h.JavaScriptWall() != "" {
		return "high"
	}
	return "medium"
}

// ssrTextRendered judges the homepage's text from the page a browser
// rendered: the words its HTML carries of those the browser shows.
func ssrTextRendered(words int, d *render.Diff, e map[string]any) Result {
	renderedCounts(e, d)
	e["judged_with"] = judgedRendering
	e["rendered_url"] = d.URL
	e["confidence"] = "high"
	inRaw, shown := d.Words.InRaw(), d.Words.Rendered
	pct := percent(inRaw, shown)
	e["cause"] = "little_text"
	if d.TextNeedsJS() {
		e["cause"] = "needs_javascript"
		s := fmt.Sprintf("The homepage HTML carries %d of the %d words of main content a browser shows (%.0f%%); the other %d appear only after JavaScript, so crawlers that run no JavaScript miss them.",
			inRaw, shown, pct, shown-inRaw)
		if inRaw < minSSRWords {
			return fail(s, e)
		}
		return warn(s, e)
	}
	if words >= minSSRWords {
		return pass(fmt.Sprintf("The homepage HTML carries %s of main content before any script runs; a browser shows %s, %.0f%% of them without JavaScript.",
			plural(words, "visible word", "visible words"), plural(shown, "word", "words"), pct), e)
	}
	s := fmt.Sprintf("The homepage HTML carries %s of main content (300 or more is the target), and a browser shows %s: the page itself has little text, JavaScript adds little.",
		only(words, "visible word", "visible words"), plural(shown, "word", "words"))
	if words >= sparseSSRWords {
		return warn(s, e)
	}
	return fail(s, e)
}

func jsRenderingDependenceCheck() *Check {
	return &Check{
		ID: "js_rendering_dependence", Ring: scoring.RingVisibility, Pillar: pillarExtractability, Weight: 5, Effort: High,
		Marketing: Text{
			Title: "Content does not depend on JavaScript",
			Why:   "If the page is an empty frame that a script fills in later, AI crawlers see a blank page or a \"please enable JavaScript\" notice instead of your offer.",
			Fix:   "Ask your developers to pre-render pages on the server; modern frameworks (Next.js, Nuxt, Astro, SvelteKit) do this out of the box when configured for it.",
		},
		Engineering: Text{
			Title: "Client-side rendering dependence",
			Why:   "An empty mount node (#root, #app, #__next) that scripts fill, a page-wide <noscript> JavaScript wall, or text shipped in inline scripts instead of the HTML means non-rendering crawlers get no content; a comment widget's <noscript> and inline-script weight alone are not such signs.",
			Fix:   "Switch the routes to SSR or SSG (Next.js app router or getStaticProps, Nuxt ssr: true, Angular SSR, Astro), keep hydration state in JSON script tags, and replace JavaScript-only <noscript> walls with real fallback content.",
		},
		Eval: evalJSDependence,
	}
}

func evalJSDependence(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	if d := in.Rendered; d != nil && !renderInconclusive(h, d) {
		return jsDependenceRendered(h.Words, d)
	}
	if in.RenderErr != "" {
		return notRendered(in, "what JavaScript adds to the page", ev("words", h.Words))
	}
	r := h.Rendering()
	signs := scriptSigns(h, r)
	mounts := h.Mounts()
	wall := h.JavaScriptWall()
	code, state := h.InlineScriptBytes()
	external := 0
	for _, s := range h.Scripts {
		if s.Src != "" {
			external++
		}
	}
	textBytes := len(h.Text)
	var widgets []string
	for _, n := range r.Noscripts {
		if n.Scope == page.NoscriptWidget && n.Wall {
			widgets = append(widgets, n.Widget)
		}
	}
	e := ev("words", h.Words, "empty_mounts", nonNil(mounts), "noscript_wall", excerpt(wall, 200), "widget_noscript_notices", nonNil(widgets),
		"frameworks", nonNil(r.Frameworks), "hydrate_calls", nonNil(r.Hydrate),
		"inline_js_bytes", code, "hydration_state_bytes", state, "inline_script_bytes_total", h.InlineJSBytes,
		"external_scripts", external, "text_bytes", textBytes,
		"inline_js_to_text_ratio", roundTenth(float64(code)/float64(max(textBytes, 1))),
		"measured", "mount points, page-wide <noscript> notices and prose in inline scripts that the HTML does not show; inline script weight is reported, not judged")
	renderingEvidence(e, r, signs)
	judgedFromSigns(in, e)
	note := heuristicsNote(in)
	e["confidence"] = heuristicConfidence(h, r, signs)
	if len(signs) == 0 && wall == "" && h.Words >= sparseSSRWords {
		e["confidence"] = "high"
	}
	sparse := h.Words < sparseSSRWords
	switch {
	case sparse && len(signs) > 0:
		return fail(fmt.Sprintf("The homepage's text needs JavaScript: its HTML has %s, with %s.", only(h.Words, "word", "words"), andList(signs))+note, e)
	case wall != "":
		return warn(fmt.Sprintf("The homepage has %s in its HTML but also a page-wide <noscript> notice asking to enable JavaScript (%q).", plural(h.Words, "word", "words"), excerpt(wall, 60))+note, e)
	case r.ScriptOnlyWords >= 300 && r.ScriptOnlyWords >= 2*h.Words:
		return warn(fmt.Sprintf("The homepage HTML shows %s, but %d more words of text sit only in its scripts (%q), so crawlers that run no JavaScript miss them.", plural(h.Words, "word", "words"), r.ScriptOnlyWords, excerpt(r.ScriptOnlySample, 60))+note, e)
	case sparse:
		return pass(fmt.Sprintf("The homepage does not wait for JavaScript: its HTML has %s, and no empty app root, <noscript> wall or text in scripts suggests scripts add more (the readable-text check reports how little there is).", only(h.Words, "word", "words"))+note, e)
	}
	how := "no framework markers"
	if len(r.Frameworks) > 0 {
		how = "server-rendered " + strings.Join(r.Frameworks, ", ") + " markup"
	}
	msg := fmt.Sprintf("The homepage content is in the HTML (%d words, %s), with no empty app shell or JavaScript wall", h.Words, how)
	if len(widgets) > 0 {
		msg += fmt.Sprintf("; the <noscript> %s of %s only stand%s in for %s", map[bool]string{true: "notice", false: "notices"}[len(widgets) == 1], andList(widgets), map[bool]string{true: "s", false: ""}[len(widgets) == 1], map[bool]string{true: "that widget", false: "those widgets"}[len(widgets) == 1])
	}
	return pass(msg+"."+note, e)
}

// jsDependenceRendered judges the homepage's dependence on JavaScript
// from the page a browser rendered: its text (docs/SCORING.md,
// "Rendering"), then the structured data, canonical, robots directives
// and navigation that only scripts add or change.
func jsDependenceRendered(words int, d *render.Diff) Result {
	e := ev("words", words, "judged_with", judgedRendering, "rendered_url", d.URL, "confidence", "high")
	renderedCounts(e, d)
	inRaw, shown := d.Words.InRaw(), d.Words.Rendered
	added := onlyAfterJS(d)
	e["only_after_javascript"] = nonNil(added)
	e["canonical_changed"] = d.CanonicalChanged()
	e["robots_changed"] = d.RobotsChanged()
	switch {
	case d.TextNeedsJS():
		s := fmt.Sprintf("The homepage's text needs JavaScript: its HTML carries %d of the %d words a browser shows (%.0f%%). %s", inRaw, shown, percent(inRaw, shown), d.Summary())
		if d.Words.RawShare() < 0.3 {
			return fail(s, e)
		}
		return warn(s, e)
	case len(added) > 0 || d.CanonicalChanged() || d.RobotsChanged():
		return warn(fmt.Sprintf("The homepage's text is in its HTML (%s), but scripts add or change what engines read about it. %s", wordsShown(inRaw, shown), d.Summary()), e)
	}
	return pass(fmt.Sprintf("The homepage does not depend on JavaScript: its HTML carries %s, and no structured data, canonical, robots directive or navigation appears only after JavaScript. %s", wordsShown(inRaw, shown), d.Summary()), e)
}

// wordsShown phrases the words of the HTML among those a browser shows:
// "480 of the 505 words a browser shows".
func wordsShown(inRaw, shown int) string {
	if shown == 0 {
		return "no words, and a browser shows none either"
	}
	return fmt.Sprintf("%d of the %s a browser shows", inRaw, plural(shown, "word", "words"))
}

func textHTMLRatioCheck() *Check {
	return &Check{
		ID: "text_html_ratio", Ring: scoring.RingVisibility, Pillar: pillarExtractability, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "Text is not buried in code",
			Why:   "When the visible text is a tiny share of the page, crawlers spend their budget on code and may cut the page off before reaching your content.",
			Fix:   "Have your team trim unused scripts, inline styles and page-builder markup so the words make up a bigger share of each page.",
		},
		Engineering: Text{
			Title: "Text-to-HTML ratio",
			Why:   "Crawlers cap how much of a document they read and chunk; a low ratio of visible text bytes to HTML bytes means markup, inline CSS and JS crowd out content.",
			Fix:   "Move inline <style> and <script> into cached external files, drop unused builder wrappers and SVG sprites from the HTML, and keep the visible text at ≥10% of the decompressed HTML bytes.",
		},
		Eval: evalTextHTMLRatio,
	}
}

func evalTextHTMLRatio(in *Input) Result {
	h := in.Home
	if h == nil || h.HTMLBytes == 0 {
		return na(naNoHome, ev())
	}
	pct := percent(len(h.Text), h.HTMLBytes)
	e := ev("text_bytes", len(h.Text), "html_bytes", h.HTMLBytes, "ratio_pct", pct)
	s := fmt.Sprintf("Visible text is %.1f%% of the %d-byte homepage HTML.", pct, h.HTMLBytes)
	return byThreshold(pct, 10, 5, s, e)
}

func semanticMainCheck() *Check {
	return &Check{
		ID: "semantic_main", Ring: scoring.RingVisibility, Pillar: pillarExtractability, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Main content is clearly marked",
			Why:   "Marking the main content tells AI tools which part of the page is the answer and which part is menus and footers, so they quote the right text.",
			Fix:   "Ask your developer to wrap the main content of each page template in a <main> element (or <article> for posts).",
		},
		Engineering: Text{
			Title: "Semantic <main>/<article> landmark",
			Why:   "Extraction pipelines (Readability-style boilerplate removal) use <main>, role=main and <article> to separate content from chrome; without them nav and footer text leaks into the passages engines embed.",
			Fix:   "Wrap the primary content of every template in a single <main> (role=main) and posts in <article>; keep nav, header, footer and aside outside it.",
		},
		Eval: evalSemanticMain,
	}
}

func evalSemanticMain(in *Input) Result {
	var rows []map[string]any
	covered, judged := 0, 0
	for _, p := range answerPages(in) {
		if p.Words < 20 {
			continue
		}
		name, words := p.Landmark()
		cov := min(percent(words, p.Words), 100)
		judged++
		ok := name != "" && cov >= 50
		if ok {
			covered++
		}
		rows = append(rows, map[string]any{"url": addressOf(p), "landmark": name, "landmark_words": words, "text_words": p.Words, "coverage_pct": cov, "ok": ok})
	}
	if judged == 0 {
		return na("No fetched page has enough text to judge its content landmark.", ev())
	}
	e := ev("pages", rows)
	if covered == judged {
		return pass(fmt.Sprintf("Most of the text sits in <main> or <article> on %s.", allOf(judged, "page", "pages")), e)
	}
	return warn(fmt.Sprintf("%s in <main> or <article>.", ofTotal(covered, judged, "page wraps most of its text", "pages wrap most of their text")), e)
}

func imageAltCoverageCheck() *Check {
	return &Check{
		ID: "image_alt_coverage", Ring: scoring.RingVisibility, Pillar: pillarExtractability, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Images are described in words",
			Why:   "AI engines cannot see pictures in a page they read as text; the short description of each image is the only way your product shots and diagrams count as content.",
			Fix:   "Add a short, factual description to every meaningful image in your CMS's \"alt text\" field; leave purely decorative images empty on purpose.",
		},
		Engineering: Text{
			Title: "Image alt attribute coverage",
			Why:   "Text pipelines replace <img> with its alt text; images without an alt attribute drop out of the extracted content, and multimodal engines use alt as a caption signal.",
			Fix:   "Give every content <img> a descriptive alt attribute and decorative ones alt=\"\" (or role=presentation); fix the component or CMS field that emits images without alt.",
		},
		Eval: evalImageAlt,
	}
}

func evalImageAlt(in *Input) Result {
	var total, withAlt, decorative int
	var missing []string
	for _, p := range everyPage(in) {
		st := p.ImageAlts()
		total += st.Images
		withAlt += st.WithAlt
		decorative += st.Decorative
		missing = append(missing, st.Missing...)
	}
	if total == 0 {
		return na("No images were found on the fetched pages.", ev("images", 0))
	}
	covered := withAlt + decorative
	pct := percent(covered, total)
	e := ev("images", total, "with_alt", withAlt, "decorative", decorative, "missing_alt", len(missing), "coverage_pct", pct, "missing_sources", firstN(missing, 10))
	s := fmt.Sprintf("%s (%.0f%%).", ofTotal(covered, total, "image has alt text or is marked decorative", "images have alt text or are marked decorative"), pct)
	return byThreshold(pct, 90, 60, s, e)
}
