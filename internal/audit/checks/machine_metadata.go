package checks

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The machine_metadata pillar: the labels machines read first. The
// title, meta description, link previews, html lang, the declared
// character encoding, and the AI-specific files llms.txt and Markdown
// alternates.
const pillarMachineMetadata = "machine_metadata"

// machineMetadataChecks returns the pillar's checks in report order.
func machineMetadataChecks() []*Check {
	return []*Check{
		titleQualityCheck(),
		metaDescriptionCheck(),
		openGraphCheck(),
		htmlLangCheck(),
		charsetDeclaredCheck(),
		llmsTxtValidCheck(),
		markdownAlternatesCheck(),
	}
}

func titleQualityCheck() *Check {
	return &Check{
		ID: "title_quality", Ring: scoring.RingVisibility, Pillar: pillarMachineMetadata, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "A descriptive page title with your brand",
			Why:   "The page title is often the label AI engines show next to a citation; a clear title with your brand name earns the click and the recognition.",
			Fix:   "Write a homepage title of 10–60 characters that says what you offer and includes your brand name, not just \"Home\".",
		},
		Engineering: Text{
			Title: "<title> length, specificity and brand",
			Why:   "The <title> is the citation label and a primary relevance signal; empty, generic or brandless titles weaken both.",
			Fix:   "Set a unique <title> of 10–60 characters per page, descriptive first and the brand as suffix (\"Topic – Brand\"); never ship template defaults like \"Home\".",
		},
		Eval: withRendering(evalTitleQuality, titleRendered),
	}
}

var genericTitles = map[string]bool{
	"home": true, "homepage": true, "home page": true, "welcome": true, "index": true,
	"untitled": true, "untitled document": true, "default": true, "startseite": true, "accueil": true, "inicio": true, "my site": true, "new page": true,
}

func evalTitleQuality(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	title := h.Title
	n := utf8.RuneCountInString(title)
	key := brandKey(in.BrandName)
	hasBrand := sameBrand(key, title)
	generic := genericTitles[strings.ToLower(strings.TrimSpace(title))]
	e := ev("title", title, "length", n, "brand", in.BrandName, "includes_brand", hasBrand, "generic", generic)
	if title == "" {
		return fail("The homepage has no <title>.", e)
	}
	var problems []string
	if n < 10 || n > 60 {
		problems = append(problems, plural(n, "character", "characters")+" (10–60 expected)")
	}
	if generic {
		problems = append(problems, "generic wording")
	}
	if key != "" && !hasBrand {
		problems = append(problems, fmt.Sprintf("brand %q missing", in.BrandName))
	}
	e["problems"] = nonNil(problems)
	if len(problems) == 0 {
		return pass(fmt.Sprintf("The homepage title %q has %d characters and names the brand.", excerpt(title, 80), n), e)
	}
	return warn(fmt.Sprintf("The homepage title %q has issues: %s.", excerpt(title, 80), strings.Join(problems, "; ")), e)
}

// titleRendered notes a title that only JavaScript sets or changes: AI
// crawlers label a citation with the title of the HTML.
func titleRendered(r *Result, d *render.Diff) {
	r.Evidence["raw_title"] = d.Title.Raw
	r.Evidence["rendered_title"] = d.Title.Rendered
	switch {
	case d.Title.OnlyRendered():
		r.Summary += fmt.Sprintf(" A title (%q) appears only after JavaScript, which crawlers that run no JavaScript do not see.", excerpt(d.Title.Rendered, 80))
	case d.Title.Changed():
		r.Summary += fmt.Sprintf(" JavaScript changes it to %q, which crawlers that run no JavaScript do not see.", excerpt(d.Title.Rendered, 80))
	}
}

func metaDescriptionCheck() *Check {
	return &Check{
		ID: "meta_description", Ring: scoring.RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "A summary of the page for machines",
			Why:   "The page summary is a ready-made description AI tools and search engines can show or use to understand the page at a glance.",
			Fix:   "Write a 70–160 character summary of the homepage in your CMS or SEO plugin.",
		},
		Engineering: Text{
			Title: "Meta description",
			Why:   "<meta name=description> is a compact, author-controlled summary that engines use as snippet text and as a relevance hint.",
			Fix:   "Add <meta name=\"description\" content=\"…\"> of 70–160 characters to every template, written per page.",
		},
		Eval: withRendering(evalMetaDescription, descriptionRendered),
	}
}

func evalMetaDescription(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	d := h.MetaContent("description")
	n := utf8.RuneCountInString(d)
	e := ev("description", d, "length", n)
	switch {
	case d == "":
		return fail("The homepage has no meta description.", e)
	case n >= 70 && n <= 160:
		return pass(fmt.Sprintf("The homepage meta description has %d characters.", n), e)
	}
	return warn(fmt.Sprintf("The homepage meta description has %s (70–160 expected).", plural(n, "character", "characters")), e)
}

// descriptionRendered notes a meta description that only JavaScript sets
// or changes.
func descriptionRendered(r *Result, d *render.Diff) {
	r.Evidence["raw_description"] = d.Description.Raw
	r.Evidence["rendered_description"] = d.Description.Rendered
	switch {
	case d.Description.OnlyRendered():
		r.Summary += " One appears only after JavaScript, which crawlers that run no JavaScript do not see."
	case d.Description.Changed():
		r.Summary += " JavaScript changes it afterwards, to a text crawlers that run no JavaScript do not see."
	}
}

func openGraphCheck() *Check {
	return &Check{
		ID: "open_graph", Ring: scoring.RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Link previews are set up",
			Why:   "Social and AI tools build link previews from these tags; complete tags give your citations a proper title, summary and image.",
			Fix:   "Fill in the social sharing title, description and image in your SEO plugin, using a full https:// image address.",
		},
		Engineering: Text{
			Title: "Open Graph and Twitter card tags",
			Why:   "og:title, og:description, og:image, og:type and twitter:card are the de-facto preview metadata that chat interfaces and social platforms render for links.",
			Fix:   "Add <meta property=\"og:title|og:description|og:image|og:type\"> and <meta name=\"twitter:card\" content=\"summary_large_image\">; og:image must be an absolute https URL.",
		},
		Eval: evalOpenGraph,
	}
}

func evalOpenGraph(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	var present, missing []string
	for _, k := range []string{"og:title", "og:description", "og:image", "og:type", "twitter:card"} {
		if h.MetaContent(k) != "" {
			present = append(present, k)
		} else {
			missing = append(missing, k)
		}
	}
	img := h.MetaContent("og:image")
	imgOK := strings.HasPrefix(strings.ToLower(img), "https://")
	e := ev("present", nonNil(present), "missing", nonNil(missing), "og_image", img, "og_image_absolute_https", imgOK)
	switch {
	case len(present) == 0:
		return fail("The homepage has none of og:title, og:description, og:image, og:type and twitter:card.", e)
	case len(missing) == 0 && imgOK:
		return pass("The homepage has og:title, og:description, og:type, twitter:card and an absolute https og:image.", e)
	case len(missing) == 0:
		return warn(fmt.Sprintf("All preview tags are present but og:image %q is not an absolute https URL.", excerpt(img, 100)), e)
	}
	s := fmt.Sprintf("The homepage lacks %s.", strings.Join(missing, ", "))
	if img != "" && !imgOK {
		s = fmt.Sprintf("The homepage lacks %s, and og:image is not an absolute https URL.", strings.Join(missing, ", "))
	}
	return warn(s, e)
}

func htmlLangCheck() *Check {
	return &Check{
		ID: "html_lang", Ring: scoring.RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Page language is declared",
			Why:   "Declaring the language lets AI engines offer your pages to people asking in that language and translate them correctly.",
			Fix:   "Ask your developer to set the page language (for example \"en\" or \"de-DE\") in the site template to match your content.",
		},
		Engineering: Text{
			Title: "Valid html lang attribute",
			Why:   "The lang attribute of <html> tells engines the content language for retrieval by language and locale; a missing, malformed or wrong value misroutes the page.",
			Fix:   "Set <html lang=\"…\"> to a valid BCP 47 tag (en, en-US, pt-BR; hyphens, not underscores) that matches the content language.",
		},
		Eval: evalHTMLLang,
	}
}

// bcp47RE matches the shape of a BCP 47 language tag: language (with
// extended subtags), script, region, variants, extensions, private use.
var bcp47RE = regexp.MustCompile(`(?i)^([a-z]{2,3}(-[a-z]{3}){0,3}|[a-z]{4,8})(-[a-z]{4})?(-([a-z]{2}|[0-9]{3}))?(-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(-[a-wyz0-9](-[a-z0-9]{2,8})+)*(-x(-[a-z0-9]{1,8})+)?$`)

// guessLanguage names the language of a text among those of stopwords, or
// "" when the text is short or no language clearly dominates.
func guessLanguage(text string) string {
	words := tokens(text)
	if len(words) < 50 {
		return ""
	}
	counts := map[string]int{}
	for _, w := range words {
		for _, lang := range stopwordLangs[w] {
			counts[lang]++
		}
	}
	langs := sortedKeys(counts)
	sort.SliceStable(langs, func(i, j int) bool { return counts[langs[i]] > counts[langs[j]] })
	if len(langs) == 0 {
		return ""
	}
	best, second := langs[0], 0
	if len(langs) > 1 {
		second = counts[langs[1]]
	}
	// The winner must be frequent (one word in twenty) and clearly ahead.
	if counts[best]*20 < len(words) || counts[best] < 2*second {
		return ""
	}
	return best
}

func evalHTMLLang(in *Input) Result {
	h := in.Home
	if h == nil {
		return na(naNoHome, ev())
	}
	lang := strings.TrimSpace(h.Lang)
	detected := guessLanguage(h.Text)
	e := ev("lang", lang, "detected_language", detected)
	if lang == "" {
		return fail("The homepage <html> element has no lang attribute.", e)
	}
	valid := bcp47RE.MatchString(lang)
	e["valid_bcp47"] = valid
	if !valid {
		return warn(fmt.Sprintf("The homepage declares lang=%q, which is not a valid BCP 47 tag.", lang), e)
	}
	primary := strings.ToLower(strings.SplitN(lang, "-", 2)[0])
	if detected != "" && primary != detected {
		return warn(fmt.Sprintf("The homepage declares lang=%q but its text reads as %q.", lang, detected), e)
	}
	if detected != "" {
		return pass(fmt.Sprintf("The homepage declares lang=%q, matching the language of its text.", lang), e)
	}
	return pass(fmt.Sprintf("The homepage declares a valid lang=%q.", lang), e)
}

func charsetDeclaredCheck() *Check {
	return &Check{
		ID: "charset_declared", Ring: scoring.RingVisibility, Pillar: pillarMachineMetadata, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "Text encoding is declared",
			Why:   "A page should say which character set it is written in. Without that, browsers and AI crawlers have to guess, and a wrong guess turns accents, currency signs and quotation marks into gibberish such as \"Ã¼\" in the text they read and quote.",
			Fix:   "Ask your web team or host to send \"charset=utf-8\" with every page, or to put <meta charset=\"utf-8\"> at the very top of the page template.",
		},
		Engineering: Text{
			Title: "Charset in Content-Type or the first 1,024 bytes",
			Why:   "The WHATWG encoding sniffing algorithm reads a byte-order mark, the charset parameter of Content-Type, then a <meta charset> or http-equiv Content-Type within the first 1,024 bytes; after that, browsers guess and re-decode when a late declaration turns up, and many crawlers and HTTP libraries fall back to windows-1252 and garble undeclared UTF-8.",
			Fix:   "Send `Content-Type: text/html; charset=utf-8` from the origin or CDN and make `<meta charset=\"utf-8\">` the first element of <head>, before scripts, styles and long comments, so it lies within the first 1,024 bytes; keep header and meta in agreement.",
		},
		Eval: evalCharsetDeclared,
	}
}

// charsetPage is how one page declares its encoding.
type charsetPage struct {
	url     string
	cs      fetch.Charset
	verdict string // "declared", "conflict", "late", "ascii", "none"
}

// charsetOf reads the declarations of a fetched HTML page.
func charsetOf(r *fetch.Response) charsetPage {
	cs := r.Charset
	p := charsetPage{url: r.FinalURL, cs: cs}
	switch {
	case cs.BOM == "" && cs.Header != "" && cs.Prescan != "" && cs.Header != cs.Prescan:
		p.verdict = "conflict"
	case cs.Declared():
		p.verdict = "declared"
	case cs.InHead != "":
		p.verdict = "late"
	case asciiOnly(r.Body):
		p.verdict = "ascii"
	default:
		p.verdict = "none"
	}
	return p
}

// where names the place a page declares its encoding.
func (p charsetPage) where() string {
	switch {
	case p.cs.BOM != "":
		return "a byte-order mark"
	case p.cs.Header != "":
		return "the Content-Type header"
	}
	return "a <meta> in the first 1,024 bytes"
}

func asciiOnly(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func evalCharsetDeclared(in *Input) Result {
	s := siteOf(in)
	var docs []*fetch.Response
	if h := s.Home; h != nil && h.OK() && h.IsHTML() && in.Home != nil {
		docs = append(docs, h)
	}
	for _, r := range s.Pages {
		if r != nil && r.OK() && r.IsHTML() && s.Page(r) != nil {
			docs = append(docs, r)
		}
	}
	if len(docs) == 0 {
		return na("No fetched page is an HTML document, so there is no encoding declaration to look for.", ev())
	}
	var rows []map[string]any
	by := map[string][]charsetPage{}
	for _, r := range docs {
		p := charsetOf(r)
		by[p.verdict] = append(by[p.verdict], p)
		rows = append(rows, map[string]any{
			"url": p.url, "verdict": p.verdict, "decoded_as": p.cs.Encoding, "decided_by": string(p.cs.Source),
			"bom": p.cs.BOM, "header_charset": p.cs.HeaderLabel, "meta_first_1024_bytes": p.cs.Prescan, "meta_later_in_head": p.cs.InHead,
		})
	}
	e := ev("pages", rows)
	urls := func(ps []charsetPage) string {
		var out []string
		for _, p := range firstN(ps, 3) {
			out = append(out, p.url)
		}
		if len(ps) > 3 {
			out = append(out, fmt.Sprintf("%d more", len(ps)-3))
		}
		return andList(out)
	}
	// pages names the pages of a verdict as the subject of a sentence,
	// with the verb in agreement.
	pages := func(ps []charsetPage, one, many string) string {
		if len(ps) == 1 {
			return ps[0].url + " " + one
		}
		return fmt.Sprintf("%d of %d pages (%s) %s", len(ps), len(docs), urls(ps), many)
	}
	switch {
	case len(by["none"]) > 0:
		ps := by["none"]
		return fail(fmt.Sprintf("%s no encoding in the Content-Type header or the first 1,024 bytes, so browsers and crawlers have to guess (GeoScan read %s as %s, as browsers do).",
			pages(ps, "declares", "declare"), map[bool]string{true: "it", false: "them"}[len(ps) == 1], ps[0].cs.Encoding), e)
	case len(by["conflict"]) > 0:
		p := by["conflict"][0]
		return warn(fmt.Sprintf("The Content-Type header of %s says %s but its <meta> says %s; browsers follow the header.", p.url, p.cs.Header, p.cs.Prescan), e)
	case len(by["late"]) > 0:
		ps := by["late"]
		return warn(fmt.Sprintf("%s the encoding (%s) only after the first 1,024 bytes, so browsers start with a guess and decode the page again when they reach it.", pages(ps, "declares", "declare"), ps[0].cs.InHead), e)
	case len(by["ascii"]) > 0:
		ps := by["ascii"]
		return warn(fmt.Sprintf("%s no encoding; %s plain ASCII, which every guess reads right, but the first accented letter or currency sign will depend on the guess.",
			pages(ps, "declares", "declare"), map[bool]string{true: "its bytes are", false: "their bytes are"}[len(ps) == 1]), e)
	}
	encodings, places := []string{}, []string{}
	for _, p := range by["declared"] {
		if !slices.Contains(encodings, p.cs.Encoding) {
			encodings = append(encodings, p.cs.Encoding)
		}
		if w := p.where(); !slices.Contains(places, w) {
			places = append(places, w)
		}
	}
	subject := docs[0].FinalURL + " declares"
	if len(docs) > 1 {
		subject = fmt.Sprintf("All %d fetched HTML pages declare", len(docs))
	}
	return pass(fmt.Sprintf("%s the encoding (%s) in %s.", subject, andList(encodings), andList(places)), e)
}

func llmsTxtValidCheck() *Check {
	return &Check{
		ID: "llms_txt_valid", Ring: scoring.RingVisibility, Pillar: pillarMachineMetadata, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "The AI guide file is well formed",
			Why:   "An llms.txt file is a proposed table of contents for AI tools; when it exists it should follow the format, or tools that read it get a broken map of your site.",
			Fix:   "Keep llms.txt to the standard layout: your name as the title, a one-line summary, then sections listing your key pages as links with full addresses.",
		},
		Engineering: Text{
			Title: "llms.txt structure (llmstxt.org)",
			Why:   "The llmstxt.org format is H1 first, an optional blockquote summary, then H2 sections of [name](url) lists; parsers rely on that order, and relative or broken links lead nowhere.",
			Fix:   "Serve /llms.txt as text/markdown or text/plain with a single '# Name' first line, a '> summary', and '## Section' blocks of '- [Title](https://…): note' items; use absolute URLs that return 200, and put skippable links under '## Optional'.",
		},
		Eval: evalLLMsTxtValid,
	}
}

// llmsReport is what a read of llms.txt found.
type llmsReport struct {
	title      string
	blockquote bool
	sections   []string
	links      int
	relative   []string
	mdLinks    []string
	optional   bool
	html       bool // an HTML page, not a Markdown file
	fatal      string
	violations []string
}

var (
	llmsLinkRE     = regexp.MustCompile(`\[([^\]]*)\]\(\s*([^)\s]+)`)
	llmsListLinkRE = regexp.MustCompile(`^[-*+]\s+\[[^\]]*\]\(\s*[^)\s]+[^)]*\)`)
)

// readLLMsTxt checks a body against the llmstxt.org layout: an H1 first,
// an optional blockquote, free sections, then H2 sections whose bodies are
// lists of [name](url) links.
func readLLMsTxt(body []byte, contentType string) llmsReport {
	var r llmsReport
	text := strings.TrimPrefix(string(body), "\ufeff")
	trimmed := strings.ToLower(strings.TrimSpace(text))
	if strings.HasPrefix(trimmed, "<!doctype") || strings.HasPrefix(trimmed, "<html") || (contentType == "text/html" && strings.HasPrefix(trimmed, "<")) {
		r.html = true
		return r
	}
	if contentType == "text/html" {
		r.violations = append(r.violations, "served as text/html (text/plain or text/markdown expected)")
	}
	if trimmed == "" {
		r.fatal = "the file is empty"
		return r
	}
	inFence, first, h1s, deep := false, true, 0, 0
	nonList, emptySections := 0, 0
	sectionLinks := -1
	closeSection := func() {
		if sectionLinks == 0 {
			emptySections++
		}
	}
	for _, raw := range strings.Split(text, "\n") {
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" {
			continue
		}
		if first {
			first = false
			if !strings.HasPrefix(t, "# ") {
				r.fatal = fmt.Sprintf("the first line is not an H1 title but %q", excerpt(t, 60))
				return r
			}
		}
		for _, m := range llmsLinkRE.FindAllStringSubmatch(t, -1) {
			r.links++
			target := m[2]
			if !strings.HasPrefix(target, "https://") && !strings.HasPrefix(target, "http://") {
				r.relative = append(r.relative, target)
			}
			if u, err := url.Parse(target); err == nil && strings.HasSuffix(strings.ToLower(u.Path), ".md") {
				r.mdLinks = append(r.mdLinks, target)
			}
		}
		switch {
		case strings.HasPrefix(t, "# "):
			h1s++
			if h1s == 1 {
				r.title = strings.TrimSpace(t[2:])
			}
		case strings.HasPrefix(t, "## "):
			closeSection()
			name := strings.TrimSpace(t[3:])
			r.sections = append(r.sections, name)
			r.optional = r.optional || strings.EqualFold(name, "optional")
			sectionLinks = 0
		case strings.HasPrefix(t, "###"):
			deep++
		case strings.HasPrefix(t, ">") && len(r.sections) == 0:
			r.blockquote = true
		case len(r.sections) > 0:
			if llmsListLinkRE.MatchString(t) {
				sectionLinks++
			} else if !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") {
				// Indented lines continue the list item above them.
				nonList++
			}
		}
	}
	closeSection()
	if h1s > 1 {
		r.violations = append(r.violations, fmt.Sprintf("%d H1 headings (exactly one expected)", h1s))
	}
	if !r.blockquote {
		r.violations = append(r.violations, "no '>' blockquote summary after the title")
	}
	if deep > 0 {
		r.violations = append(r.violations, plural(deep, "H3-or-deeper heading", "H3-or-deeper headings")+" (sections are H2 only)")
	}
	if len(r.sections) == 0 {
		r.violations = append(r.violations, "no H2 sections of links")
	}
	if emptySections > 0 {
		r.violations = append(r.violations, plural(emptySections, "H2 section without a [name](url) link list", "H2 sections without a [name](url) link list"))
	}
	if nonList > 0 {
		r.violations = append(r.violations, plural(nonList, "line inside H2 sections that is not a '- [name](url)' list item", "lines inside H2 sections that are not '- [name](url)' list items"))
	}
	if len(r.relative) > 0 {
		r.violations = append(r.violations, plural(len(r.relative), "relative link", "relative links")+" (absolute URLs expected)")
	}
	if r.links == 0 {
		r.violations = append(r.violations, "no links at all")
	}
	return r
}

func evalLLMsTxtValid(in *Input) Result {
	if in.Site == nil || !in.Site.LLMsTxt.OK() {
		status := 0
		if in.Site != nil && in.Site.LLMsTxt != nil {
			status = in.Site.LLMsTxt.Status
		}
		return na("The site publishes no /llms.txt, so there is no structure to validate.", ev("status", status))
	}
	lt := in.Site.LLMsTxt
	r := readLLMsTxt(lt.Body, lt.ContentType())
	if r.html {
		// A catch-all route answering every path is the absence of the
		// file, not a malformed one.
		return na("/llms.txt answers with an HTML page (a catch-all route), so the site publishes no llms.txt to validate.", ev("status", lt.Status, "content_type", lt.ContentType(), "html_catch_all", true))
	}
	var linkRows []map[string]any
	broken := 0
	for _, l := range in.Site.LLMsLinks {
		if l == nil {
			continue
		}
		row := map[string]any{"url": l.URL, "status": l.Status}
		// 405 answers the HEAD method, not the link; it says nothing about
		// whether the page exists.
		bad := l.Err != nil || (l.Status >= 400 && l.Status != 405)
		if l.Err != nil {
			row["error"] = l.ErrorText()
		}
		if bad {
			broken++
		}
		row["ok"] = !bad
		linkRows = append(linkRows, row)
	}
	violations := r.violations
	if broken > 0 {
		violations = append(violations, ofTotal(broken, len(linkRows), "sampled link does not answer", "sampled links do not answer"))
	}
	e := ev("url", lt.FinalURL, "content_type", lt.ContentType(), "bytes", len(lt.Body), "title", r.title, "blockquote", r.blockquote,
		"sections", nonNil(r.sections), "links", r.links, "relative_links", nonNil(firstN(r.relative, 10)), "optional_section", r.optional,
		"sampled_links", nonNilRows(linkRows), "violations", nonNil(violations), "llms_full_txt", in.Site.LLMsFullTxt.OK())
	switch {
	case r.fatal != "":
		return fail(fmt.Sprintf("/llms.txt does not follow the llmstxt.org format: %s.", r.fatal), e)
	case len(linkRows) > 0 && broken*2 >= len(linkRows):
		return fail(fmt.Sprintf("/llms.txt is well formed but %s.", ofTotal(broken, len(linkRows), "sampled link does not answer", "sampled links do not answer")), e)
	case len(violations) > 0:
		return warn(fmt.Sprintf("/llms.txt starts with an H1 but has %s: %s.", plural(len(violations), "issue", "issues"), strings.Join(violations, "; ")), e)
	}
	full := ""
	if in.Site.LLMsFullTxt.OK() {
		full = ", and /llms-full.txt exists too"
	}
	return pass(fmt.Sprintf("/llms.txt follows the llmstxt.org layout with %s and %s%s.", plural(len(r.sections), "section", "sections"), plural(r.links, "link", "links"), full), e)
}

func markdownAlternatesCheck() *Check {
	return &Check{
		ID: "markdown_alternates", Ring: scoring.RingVisibility, Pillar: pillarMachineMetadata, Weight: 1, Effort: Medium,
		Marketing: Text{
			Title: "Clean text versions of pages",
			Why:   "Some AI tools prefer a plain-text (Markdown) copy of a page; offering one makes your content cheaper and more accurate for them to read.",
			Fix:   "If your platform can, publish Markdown copies of key pages and point to them from the pages or from llms.txt.",
		},
		Engineering: Text{
			Title: "Markdown alternates",
			Why:   "A Markdown twin (linked with rel=alternate type=text/markdown or listed in llms.txt) gives agents boilerplate-free content; it is an emerging convention, so its absence is informational.",
			Fix:   "Publish page.md twins (index.html.md for directory URLs) and add <link rel=\"alternate\" type=\"text/markdown\" href=\"…\"> or list the .md URLs in llms.txt.",
		},
		Eval: evalMarkdownAlternates,
	}
}

func evalMarkdownAlternates(in *Input) Result {
	var alternates []string
	for _, p := range everyPage(in) {
		for _, a := range p.Alternates {
			if (a.Type == "text/markdown" || a.Type == "text/x-markdown") && a.Href != "" && !slices.Contains(alternates, a.Href) {
				alternates = append(alternates, a.Href)
			}
		}
	}
	var mdLinks []string
	if in.Site != nil && in.Site.LLMsTxt.OK() {
		mdLinks = readLLMsTxt(in.Site.LLMsTxt.Body, in.Site.LLMsTxt.ContentType()).mdLinks
	}
	if len(everyPage(in)) == 0 && len(mdLinks) == 0 {
		return na(naNoHome, ev())
	}
	e := ev("link_alternates", nonNil(firstN(alternates, 10)), "llms_txt_md_links", nonNil(firstN(mdLinks, 10)))
	switch {
	case len(alternates) > 0:
		return pass(fmt.Sprintf("%s a Markdown alternate, e.g. %s.", plural(len(alternates), "page links", "pages link"), alternates[0]), e)
	case len(mdLinks) > 0:
		return pass(fmt.Sprintf("/llms.txt points to %s, e.g. %s.", plural(len(mdLinks), "Markdown page", "Markdown pages"), mdLinks[0]), e)
	}
	return info("No Markdown alternates were found (no rel=alternate type=text/markdown link, no .md links in llms.txt); an emerging convention, not scored.", e)
}
