package checks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
	"golang.org/x/net/publicsuffix"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The content_integrity pillar: is the site free of hidden instructions
// aimed at AI systems and of spam patterns? Prompt injection in hidden
// DOM, comments and invisible Unicode; keyword stuffing and similar
// signals.
const pillarContentIntegrity = "content_integrity"

// contentIntegrityChecks returns the pillar's checks in report order.
func contentIntegrityChecks() []*Check {
	return []*Check{
		hiddenPromptInjectionCheck(),
		negativeSignalsCheck(),
	}
}

func hiddenPromptInjectionCheck() *Check {
	return &Check{
		ID: "hidden_prompt_injection", Ring: scoring.RingTrust, Pillar: pillarContentIntegrity, Weight: 5, Effort: Low,
		Marketing: Text{
			Title: "No hidden instructions to AI tools",
			Why:   "Hidden text that tries to instruct AI assistants is treated as manipulation; engines can drop or distrust the whole site, and it often comes from a hacked plugin.",
			Fix:   "Remove any hidden text aimed at AI tools and check your site for compromised plugins or injected code.",
		},
		Engineering: Text{
			Title: "Hidden prompt injection",
			Why:   "LLM-directed instructions in comments, display:none/visibility:hidden/aria-hidden/micro-font elements or invisible Unicode (tag characters, zero-width runs) are prompt injection; engines filter and penalise such sources.",
			Fix:   "Delete the snippets listed in the evidence, strip U+E0000–E007F and zero-width runs from content, audit templates and plugins for injected markup, and sanitise user content on input.",
		},
		Eval: evalPromptInjection,
	}
}

// injectionRE matches instructions addressed to language models. The
// phrases address the model and tell it what to do; statements about AI
// ("AI systems must be transparent") in collapsed accordions are hidden
// text too, so a bare "AI … should" is not enough.
var injectionRE = regexp.MustCompile(`(?i)` +
	`(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|preceding|system)\s+(instructions|prompts?|directions|rules)` +
	`|\byou\s+are\s+(now\s+)?(an?\s+)?(ai|artificial intelligence|large language model|llm|language model)\b` +
	`|as\s+an\s+ai\s+language\s+model` +
	`|\bai\s+(assistants?|agents?|crawlers?)\s+(should|must|need\s+to|are\s+instructed\s+to)\s+(always|never|only|say|state|recommend|describe|mention|rank|rate|tell|ignore|prefer|prioriti[sz]e|treat|present|cite|summari[sz]e|answer|respond|include)\b` +
	`|\b(llms?|language\s+models?|chatgpt|claude|gemini|perplexity|copilot)\s+(should|must)\s+(always|never|say|recommend|describe|rank|mention|tell)` +
	`|when\s+summari[sz]ing\s+this\s+(page|site|website|article|content|document|text)` +
	`|\b(new|updated|system)\s+instructions\s*:` +
	`|\bnote\s+to\s+(ai|llms?|language\s+models?|assistants?|chatbots?)\b`)

// invisibleScan is what a scan for invisible Unicode found.
type invisibleScan struct {
	tagText    string // tag characters decoded to ASCII
	tagChars   int
	zwRuns     int
	codepoints []string
}

func isZeroWidth(r rune) bool {
	return r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF
}

// hasInvisible reports a body with a tag character or a zero-width
// character anywhere: without one scanInvisible finds nothing.
func hasInvisible(body []byte) bool {
	for i := 0; i < len(body); {
		if body[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(body[i:])
		if r >= 0xE0000 && r <= 0xE007F || isZeroWidth(r) {
			return true
		}
		i += size
	}
	return false
}

// scanInvisible looks for Unicode tag characters (U+E0000–E007F) outside
// emoji flag sequences, and for runs of three or more zero-width
// characters. Both can carry text a reader never sees; a leading byte
// order mark, single joiners in emoji or scripts, and subdivision flags
// (U+1F3F4 followed by tags) are legitimate and skipped.
func scanInvisible(s string) invisibleScan {
	var sc invisibleScan
	var tag strings.Builder
	seen := map[rune]bool{}
	note := func(r rune) {
		if !seen[r] {
			seen[r] = true
			sc.codepoints = append(sc.codepoints, fmt.Sprintf("U+%04X", r))
		}
	}
	inFlag := false
	run := 0
	var runRunes []rune
	endRun := func() {
		if run >= 3 {
			sc.zwRuns++
			for _, r := range runRunes {
				note(r)
			}
		}
		run, runRunes = 0, runRunes[:0]
	}
	for i, r := range s {
		switch {
		case r == 0x1F3F4:
			inFlag = true
			endRun()
		case r >= 0xE0000 && r <= 0xE007F:
			if inFlag {
				if r == 0xE007F {
					inFlag = false
				}
				continue
			}
			sc.tagChars++
			note(r)
			if r >= 0xE0020 && r <= 0xE007E {
				tag.WriteRune(r - 0xE0000)
			}
		case isZeroWidth(r):
			if i == 0 && r == 0xFEFF {
				continue
			}
			run++
			runRunes = append(runRunes, r)
		default:
			inFlag = false
			endRun()
		}
	}
	endRun()
	sc.tagText = tag.String()
	return sc
}

// scriptStyleRE finds script and style elements; their content is code,
// where zero-width characters in string literals are legitimate. JSON-LD
// is kept because engines read it.
var scriptStyleRE = regexp.MustCompile(`(?is)<(script|style)\b([^>]*)>.*?</(script|style)\s*>`)

func stripCode(body string) string {
	return scriptStyleRE.ReplaceAllStringFunc(body, func(m string) string {
		head := m[:strings.IndexByte(m, '>')+1]
		if strings.Contains(strings.ToLower(head), "ld+json") {
			return m
		}
		return " "
	})
}

func evalPromptInjection(in *Input) Result {
	if in.Site == nil {
		return na(naNoHome, ev())
	}
	type doc struct {
		resp   *fetch.Response
		parsed *page.Page
	}
	var docs []doc
	if h := in.Site.Home; h != nil && h.OK() && h.IsHTML() {
		docs = append(docs, doc{h, in.Home})
	}
	for _, r := range in.Site.Pages {
		if r.OK() && r.IsHTML() {
			docs = append(docs, doc{r, in.Site.Page(r)})
		}
	}
	if len(docs) == 0 {
		return na(naNoHome, ev())
	}
	var findings []map[string]any
	explicit, suspicious := 0, 0
	for _, d := range docs {
		u := d.resp.FinalURL
		if p := d.parsed; p != nil {
			for _, c := range p.Comments {
				if m := injectionRE.FindString(c); m != "" {
					explicit++
					findings = append(findings, map[string]any{"url": u, "where": "HTML comment", "match": m, "snippet": excerpt(strings.Join(strings.Fields(c), " "), 160)})
				}
			}
			for _, h := range p.HiddenTexts() {
				if m := injectionRE.FindString(h.Text); m != "" {
					explicit++
					findings = append(findings, map[string]any{"url": u, "where": "hidden element (" + h.Reason + ")", "selector": h.Selector, "match": m, "snippet": excerpt(h.Text, 160)})
				}
			}
		}
		if !hasInvisible(d.resp.Body) {
			// Nothing for scanInvisible to find, with or without code.
			continue
		}
		sc := scanInvisible(stripCode(string(d.resp.Body)))
		if sc.tagChars == 0 && sc.zwRuns == 0 {
			continue
		}
		row := map[string]any{"url": u, "where": "invisible Unicode", "tag_characters": sc.tagChars, "zero_width_runs": sc.zwRuns, "codepoints": sc.codepoints}
		if sc.tagText != "" {
			row["decoded_tag_text"] = excerpt(sc.tagText, 160)
		}
		if m := injectionRE.FindString(sc.tagText); m != "" {
			explicit++
			row["match"] = m
		} else {
			suspicious++
		}
		findings = append(findings, row)
	}
	e := ev("pages_scanned", len(docs), "explicit_instructions", explicit, "suspicious_unicode", suspicious, "findings", nonNilRows(firstN(findings, 10)))
	switch {
	case explicit > 0:
		f := findings[slices.IndexFunc(findings, func(m map[string]any) bool { _, ok := m["match"]; return ok })]
		return fail(fmt.Sprintf("Found %s addressed to AI models in hidden content, e.g. %q in a %s on %s.", plural(explicit, "instruction", "instructions"), f["match"], f["where"], f["url"]), e)
	case suspicious > 0:
		return warn(fmt.Sprintf("Found invisible Unicode (tag characters or zero-width runs) on %s that could carry hidden text.", plural(suspicious, "page", "pages")), e)
	}
	return pass(fmt.Sprintf("There are no hidden instructions to AI models and no invisible Unicode on %s scanned.", theN(len(docs), "page", "pages")), e)
}

func negativeSignalsCheck() *Check {
	return &Check{
		ID: "negative_signals", Ring: scoring.RingTrust, Pillar: pillarContentIntegrity, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "No spam-like patterns",
			Why:   "Repeating one keyword, pop-ups and a wall of sales buttons make a page look like spam to AI engines, which then prefer other sources.",
			Fix:   "Write naturally instead of repeating keywords, limit pop-ups, and keep a few clear calls to action.",
		},
		Engineering: Text{
			Title: "Spam and low-quality signals",
			Why:   "Keyword stuffing (one term over 4% of the words; web addresses, units and tax labels beside numbers and legal boilerplate are not terms), interstitial markup, call-to-action overload and boilerplate-dominated pages match spam-policy heuristics.",
			Fix:   "Rewrite stuffed copy, remove interstitial/popup overlays on landing, cap repeated CTAs, and move boilerplate out of the main content.",
		},
		Eval: evalNegativeSignals,
	}
}

var (
	ctaRE = regexp.MustCompile(`(?i)^(buy( now)?|shop now|order now|add to cart|sign up|get started|start (your )?free trial|try (it )?(for )?free|free trial|book a (demo|call)|request a demo|get a quote|subscribe|download( now)?|contact (us|sales)|join now|register now|claim)\b`)
	// overlaySelector finds markup of interstitials and pop-ups; cookie
	// consent banners are legal requirements and not looked for.
	overlaySelector = `[class*=interstitial], [id*=interstitial], [class*=exit-intent], [id*=exit-intent], [class*=popup], [id*=popup], [class*=pop-up], [id*=pop-up], [class*=paywall], [id*=paywall]`
)

// overlayWords are the words overlaySelector looks for in class and id
// names.
var overlayWords = []string{"interstitial", "exit-intent", "popup", "pop-up", "paywall"}

// overlayElements counts the elements below roots that overlaySelector
// matches, in one walk without a selector engine.
func overlayElements(roots []*html.Node) int {
	count := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && overlayNamed(c) {
				count++
			}
			walk(c)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return count
}

func overlayNamed(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" {
			continue
		}
		for _, w := range overlayWords {
			if strings.Contains(a.Val, w) {
				return true
			}
		}
	}
	return false
}

// maxCTAs is the number of calls to action on one page beyond which they
// read as sales pressure rather than navigation.
const maxCTAs = 15

func evalNegativeSignals(in *Input) Result {
	pages := answerPages(in)
	if len(pages) == 0 {
		return na(naNoReadable, ev())
	}
	brand := map[string]bool{}
	for _, t := range tokens(in.BrandName) {
		brand[t] = true
	}
	if k := brandKey(in.BrandName); k != "" {
		brand[k] = true
	}
	var stuffed []map[string]any
	left := stuffingLeftOut{}
	for _, p := range pages {
		words, counts := stuffingTerms(p.TextBlocks(), brand, &left)
		if words < 200 {
			continue
		}
		// The most frequent term; of several, the first in sort order.
		top, n := "", 0
		for w, c := range counts {
			if c > n || c == n && w < top {
				top, n = w, c
			}
		}
		share := percent(n, words)
		if share > 4 {
			stuffed = append(stuffed, map[string]any{"url": addressOf(p), "term": top, "count": n, "words": words, "share_pct": share})
		}
	}
	var others []string
	e := ev("keyword_stuffing", nonNilRows(stuffed), "not_counted_as_terms", map[string]any{
		"repeated_blocks": left.repeats, "domain_names": left.domains, "legal_sentences": left.legal, "quantity_labels": left.labels,
	})
	if h := in.Home; h != nil {
		ctas := 0
		for _, l := range h.Links {
			if ctaRE.MatchString(l.Text) {
				ctas++
			}
		}
		overlays := 0
		if h.Doc != nil {
			h.Doc.Find("button").Each(func(_ int, s *goquery.Selection) {
				if ctaRE.MatchString(strings.TrimSpace(s.Text())) {
					ctas++
				}
			})
			overlays = overlayElements(h.Doc.Nodes)
		}
		allWords := page.CountWords(h.Text)
		boilerplate := 0.0
		if allWords > 0 {
			boilerplate = percent(allWords-h.Words, allWords)
		}
		e["calls_to_action"] = ctas
		e["overlay_elements"] = overlays
		e["boilerplate_pct"] = boilerplate
		if ctas > maxCTAs {
			others = append(others, fmt.Sprintf("%d calls to action on the homepage", ctas))
		}
		if overlays > 0 {
			others = append(others, fmt.Sprintf("%s with pop-up or interstitial markup", plural(overlays, "element", "elements")))
		}
		if allWords >= 200 && boilerplate > 80 {
			others = append(others, fmt.Sprintf("%.0f%% of the homepage words are navigation, header and footer", boilerplate))
		}
	}
	e["other_signals"] = nonNil(others)
	switch {
	case len(stuffed) > 0:
		return warn(fmt.Sprintf("Keyword stuffing: %q makes up %.1f%% of the words on %s.", stuffed[0]["term"], stuffed[0]["share_pct"], stuffed[0]["url"]), e)
	case len(others) >= 2:
		return warn(fmt.Sprintf("Several spam-like patterns: %s.", strings.Join(others, "; ")), e)
	}
	if len(others) == 1 {
		return pass(fmt.Sprintf("No keyword stuffing; one minor signal on its own (%s).", others[0]), e)
	}
	return pass(fmt.Sprintf("There is no keyword stuffing, pop-up markup, call-to-action overload or boilerplate-heavy page: %s checked.", allOf(len(pages), "page was", "pages were")), e)
}

// What keyword stuffing is not. A domain name written out ("Photo:
// LifeDaily.com" under every picture) repeats "com"; a shop repeats the
// units and tax labels around its prices ("4,99 € inkl. MwSt."); legal
// lines repeat their own vocabulary. None of that is a term pushed for
// ranking, so none of it is counted.
var (
	// webAddressRE finds URLs, e-mail addresses and names shaped like
	// domains; a name counts as one when it ends in a public suffix.
	webAddressRE = regexp.MustCompile(`(?i)\bhttps?://\S+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+|\b(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}\b`)
	// sentenceEndRE splits text into sentences.
	sentenceEndRE = regexp.MustCompile(`[.!?。！？]+(?:\s+|$)`)
	// legalRE marks the sentences of legal boilerplate: copyright and
	// trademark lines, cookie, privacy and liability notices, affiliate
	// disclosures, in the languages of the stopword lists.
	legalRE = regexp.MustCompile(`(?i)©|\(c\)\s*\d{4}|\bcopyright\b|all rights reserved|alle rechte vorbehalten|tous droits réservés|todos los derechos reservados|tutti i diritti riservati|todos os direitos reservados|alle rechten voorbehouden|registered trademarks?|trademarks? of\b|terms (?:of (?:use|service)|and conditions|& conditions)|privacy (?:policy|notice|statement)|\b(?:we|this (?:site|website)) uses? cookies|cookie (?:policy|settings|preferences|consent)|datenschutz|impressum|haftungsausschluss|disclaimer|not (?:be )?(?:held )?(?:liable|responsible)\b|affiliate links?|earn (?:a|an affiliate) commission`)
	// legalKeys are words one of which every match of legalRE holds, in
	// lower case: a sentence with none of them is not legal boilerplate,
	// and most sentences are ruled out without running the expression.
	legalFold = strings.NewReplacer("ſ", "s", "\u212a", "k")
	legalKeys = []string{
		"©", "(c)", "copyright", "rights", "rechte", "droits", "derechos", "diritti", "direitos",
		"trademark", "terms", "privacy", "cookie", "datenschutz", "impressum", "haftungsausschluss",
		"disclaimer", "liable", "responsible", "affiliate", "commission",
	}
	// labelTerms are units, currencies and tax labels: they stand beside
	// numbers and are never the term a page is stuffed with, and the
	// parts of web addresses that survive being split into words.
	labelTerms = map[string]bool{
		"mwst": true, "ust": true, "vat": true, "gst": true, "hst": true, "tva": true, "iva": true, "btw": true, "moms": true,
		"inkl": true, "incl": true, "zzgl": true, "excl": true, "exkl": true,
		"eur": true, "usd": true, "gbp": true, "chf": true, "jpy": true, "aud": true, "cad": true, "sek": true, "nok": true, "dkk": true, "pln": true,
		"kcal": true, "kwh": true, "mph": true, "lbs": true, "pcs": true, "stk": true, "sqft": true,
		"com": true, "net": true, "org": true, "www": true, "http": true, "https": true, "html": true, "php": true,
	}
)

// stuffingLeftOut counts what stuffingTerms left out, for the evidence.
type stuffingLeftOut struct{ repeats, domains, legal, labels int }

// mayBeLegal reports whether a sentence holds one of legalKeys: false
// means legalRE cannot match it. The two letters that case-fold to ASCII
// without lower-casing to it (long s, Kelvin sign) are folded first, as
// the expression's (?i) does.
func mayBeLegal(sentence string) bool {
	low := strings.ToLower(legalFold.Replace(sentence))
	for _, k := range legalKeys {
		if strings.Contains(low, k) {
			return true
		}
	}
	return false
}

// stuffingTerms reads a page's main text, as blocks (see TextBlocks), the
// way keyword stuffing is judged: a block repeated word for word counts
// once (a template wrote it, not an author), web addresses and the
// sentences of legal boilerplate are removed, then every word counts
// towards the total and the candidate terms are counted apart. A term is three letters or longer and none of the
// brand's words, a stopword, a number, a unit or label, or a word right
// beside a number (one before it or two after: "EUR 12", "12 kg", "4,99
// € inkl. MwSt."). Chinese and Japanese characters are no terms: without
// spaces between words there is no term to count.
func stuffingTerms(blocks []string, brand map[string]bool, left *stuffingLeftOut) (words int, counts map[string]int) {
	seen := map[string]bool{}
	var once []string
	for _, b := range blocks {
		if seen[b] {
			left.repeats++
			continue
		}
		seen[b] = true
		once = append(once, b)
	}
	// No match of webAddressRE spans a line break, so only the blocks
	// that may hold a web address are searched.
	for i, b := range once {
		if !mayHoldAddress(b) {
			continue
		}
		once[i] = webAddressRE.ReplaceAllStringFunc(b, func(m string) string {
			if strings.Contains(m, "://") || strings.Contains(m, "@") || domainName(m) {
				left.domains++
				return " "
			}
			return m
		})
	}
	text := strings.Join(once, "\n")
	// Sentence ends are no letters or digits, so without a legal
	// sentence to drop the words are read from the text whole.
	if mayBeLegal(text) {
		var kept []string
		for _, sentence := range sentenceEndRE.Split(strings.ReplaceAll(text, "\n", ". "), -1) {
			if mayBeLegal(sentence) && legalRE.MatchString(sentence) {
				left.legal++
				continue
			}
			kept = append(kept, sentence)
		}
		text = strings.Join(kept, " ")
	}
	ws := tokens(text)
	return len(ws), countTerms(ws, brand, left)
}

// countTerms counts the candidate terms of a page's words (see
// stuffingTerms).
func countTerms(ws []string, brand map[string]bool, left *stuffingLeftOut) map[string]int {
	numeric := func(i int) bool { return i >= 0 && i < len(ws) && digitsOnly(ws[i]) }
	counts := map[string]int{}
	// reach is how many words after the last number still label it: two,
	// and one more for every known label on the way ("12,90 € inkl.
	// MwSt. zzgl. Versand").
	reach := 0
	for i, w := range ws {
		if numeric(i) {
			reach = 2
			continue
		}
		label := labelTerms[w] || reach > 0 || numeric(i+1)
		if reach > 0 && !labelTerms[w] {
			reach--
		}
		switch {
		case len([]rune(w)) < 3, brand[w], isStopword(w), strings.IndexFunc(w, ideographicRune) >= 0:
		case label:
			left.labels++
		default:
			counts[w]++
		}
	}
	return counts
}

// digitsOnly reports a word of ASCII digits alone.
func digitsOnly(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// domainName reports a dotted name whose last labels are a public suffix
// ("LifeDaily.com", "www.example.co.uk"), not "etc.Then".
func domainName(s string) bool {
	host := strings.ToLower(strings.Trim(s, "."))
	suffix, icann := publicsuffix.PublicSuffix(host)
	return icann && suffix != host
}

// ideographicRune reports a Han, Hiragana or Katakana character.
func ideographicRune(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

func isStopword(w string) bool { return len(stopwordLangs[w]) > 0 }

// mayHoldAddress reports whether s may hold a match of webAddressRE:
// every match has "://", "@" or a dot right before a letter. Any rune
// outside ASCII after a dot counts as a letter here, which keeps the
// test simple and errs only towards searching.
func mayHoldAddress(s string) bool {
	if strings.Contains(s, "://") || strings.Contains(s, "@") {
		return true
	}
	for i := strings.IndexByte(s, '.'); i >= 0 && i+1 < len(s); {
		c := s[i+1]
		if c >= utf8.RuneSelf || 'a' <= c|0x20 && c|0x20 <= 'z' {
			return true
		}
		j := strings.IndexByte(s[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
