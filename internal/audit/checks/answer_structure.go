package checks

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The answer_structure pillar: is the content shaped the way answer
// engines quote it? Heading outline, answer-first paragraphs, passage
// length, lists and tables, and cited facts.
const pillarAnswerStructure = "answer_structure"

// answerStructureChecks returns the pillar's checks in report order.
func answerStructureChecks() []*Check {
	return []*Check{
		singleH1Check(),
		headingHierarchyCheck(),
		answerFirstIntroCheck(),
		passageChunkingCheck(),
		listsTablesCheck(),
		questionHeadingsCheck(),
		factsAndCitationsCheck(),
	}
}

func singleH1Check() *Check {
	return &Check{
		ID: "single_h1", Ring: scoring.RingVisibility, Pillar: pillarAnswerStructure, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "One clear headline per page",
			Why:   "The main headline tells AI engines what a page is about; none or several competing headlines blur the topic they match your page to.",
			Fix:   "Give each page exactly one main headline that names its topic, and turn other big titles into subheadings.",
		},
		Engineering: Text{
			Title: "Exactly one non-empty H1",
			Why:   "Engines use the H1 as the document title for chunking and for matching passages to queries; zero or multiple H1s make the topic ambiguous.",
			Fix:   "Emit one non-empty <h1> per template (logos and section titles become <div> or <h2>), and make sure it survives without JavaScript.",
		},
		Eval: evalSingleH1,
	}
}

func evalSingleH1(in *Input) Result {
	pages := answerPages(in)
	if len(pages) == 0 {
		return na(naNoReadable, ev())
	}
	var rows []map[string]any
	ok := 0
	for _, p := range pages {
		var h1s []string
		for _, t := range p.H1s() {
			if t != "" {
				h1s = append(h1s, excerpt(t, 120))
			}
		}
		if len(h1s) == 1 {
			ok++
		}
		rows = append(rows, map[string]any{"url": addressOf(p), "h1_count": len(h1s), "h1": nonNil(h1s)})
	}
	e := ev("pages", rows)
	if ok == len(pages) {
		return pass(fmt.Sprintf("There is exactly one non-empty H1 on %s.", allOf(len(pages), "page", "pages")), e)
	}
	return warn(fmt.Sprintf("%s exactly one non-empty H1; the others have none or several.", ofTotal(ok, len(pages), "page has", "pages have")), e)
}

func headingHierarchyCheck() *Check {
	return &Check{
		ID: "heading_hierarchy", Ring: scoring.RingVisibility, Pillar: pillarAnswerStructure, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Subheadings in a logical order",
			Why:   "Well-ordered subheadings let AI engines split a page into topics and quote the one section that answers a question.",
			Fix:   "Structure longer pages with at least two section subheadings and do not jump levels (for example from the main headline straight to a small sub-subheading).",
		},
		Engineering: Text{
			Title: "Heading hierarchy",
			Why:   "Chunkers split documents on the heading outline; skipped levels and pages without H2s produce oversized or mis-attributed chunks.",
			Fix:   "Nest headings without skipping levels (h1 → h2 → h3), use at least two <h2> on content pages, and style with CSS instead of picking heading levels for their size.",
		},
		Eval: evalHeadingHierarchy,
	}
}

func evalHeadingHierarchy(in *Input) Result {
	pages := answerPages(in)
	if len(pages) == 0 {
		return na(naNoReadable, ev())
	}
	articles := map[*page.Page]bool{}
	for _, p := range articlePages(in) {
		articles[p] = true
	}
	var rows []map[string]any
	clean := 0
	for _, p := range pages {
		var issues, outline []string
		prev, h2 := 0, 0
		for _, h := range p.Headings {
			outline = append(outline, fmt.Sprintf("h%d %s", h.Level, excerpt(h.Text, 60)))
			if prev > 0 && h.Level > prev+1 {
				issues = append(issues, fmt.Sprintf("h%d → h%d before %q", prev, h.Level, excerpt(h.Text, 60)))
			}
			if h.Level == 2 {
				h2++
			}
			prev = h.Level
		}
		if len(p.Headings) == 0 {
			issues = append(issues, "no headings")
		} else if articles[p] && h2 < 2 {
			issues = append(issues, fmt.Sprintf("article with %d H2 (2 or more expected)", h2))
		}
		if len(issues) == 0 {
			clean++
		}
		rows = append(rows, map[string]any{"url": addressOf(p), "issues": nonNil(issues), "outline": nonNil(firstN(outline, 25))})
	}
	e := ev("pages", rows)
	if clean == len(pages) {
		return pass(fmt.Sprintf("Headings nest without skipped levels on %s.", allOf(len(pages), "page", "pages")), e)
	}
	return warn(fmt.Sprintf("%s heading problems (skipped levels, missing H2 sections or no headings).", ofTotal(len(pages)-clean, len(pages), "page has", "pages have")), e)
}

func answerFirstIntroCheck() *Check {
	return &Check{
		ID: "answer_first_intro", Ring: scoring.RingVisibility, Pillar: pillarAnswerStructure, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "The answer comes first",
			Why:   "AI answers favour pages that state the point in the first lines; a direct opening sentence is the part most likely to be quoted.",
			Fix:   "Open each page with a 25–90 word paragraph that directly says what the thing is, who it is for, or the key number, before any story or sales copy.",
		},
		Engineering: Text{
			Title: "Answer-first introduction",
			Why:   "Retrieval favours the first passage under the H1; a self-contained, definitional paragraph of 25–90 words is the unit engines lift into answers.",
			Fix:   "Put a <p> of 25–90 words right after the <h1> that defines the subject (\"X is …\") or states a concrete fact with a number; keep bylines and kickers shorter or outside <p>.",
		},
		Eval: evalAnswerFirst,
	}
}

var definitionalRE = regexp.MustCompile(`(?i)\b(is|are|was|were|means|refers to|describes|helps|lets|allows|enables|provides|offers|gives|makes|costs|includes|ist|sind|est|sont|es|son|è|sono|é|são|zijn)\b|\d`)

func evalAnswerFirst(in *Input) Result {
	pages := copyPages(in)
	if len(pages) == 0 {
		return na(naNoReadable, ev())
	}
	var rows []map[string]any
	good := 0
	for _, p := range pages {
		intro := p.IntroParagraph()
		words := page.CountWords(intro)
		definitional := definitionalRE.MatchString(intro)
		ok := words >= 25 && words <= 90 && definitional
		if ok {
			good++
		}
		rows = append(rows, map[string]any{"url": addressOf(p), "intro": excerpt(intro, 300), "words": words, "definitional": definitional, "ok": ok})
	}
	e := ev("pages", rows)
	if good == len(pages) {
		return pass(fmt.Sprintf("A 25–90 word paragraph that states what the subject is opens %s.", allOf(len(pages), "page", "pages")), e)
	}
	return warn(fmt.Sprintf("%s with a direct 25–90 word answer paragraph after the H1.", ofTotal(good, len(pages), "page opens", "pages open")), e)
}

func passageChunkingCheck() *Check {
	return &Check{
		ID: "passage_chunking", Ring: scoring.RingVisibility, Pillar: pillarAnswerStructure, Weight: 3, Effort: Medium,
		Marketing: Text{
			Title: "Content in quotable sections",
			Why:   "AI engines cut pages into passages and quote the best one; sections of a few short paragraphs under a clear subheading are easy to lift, walls of text are not.",
			Fix:   "Break long texts into sections of roughly 40–300 words, each under its own descriptive subheading.",
		},
		Engineering: Text{
			Title: "Passage length between headings",
			Why:   "Retrieval systems embed passages of a few hundred tokens; sections of 40–300 words between H2/H3 map cleanly onto those chunks and stay self-contained.",
			Fix:   "Split content so each <h2>/<h3> section holds 40–300 words: add subheadings to long runs and merge stub sections into their neighbours.",
		},
		Eval: evalPassageChunking,
	}
}

// A quotable passage between H2/H3 headings holds this many words.
const (
	minWordsForPassage = 40
	maxWordsForPassage = 300
)

func evalPassageChunking(in *Input) Result {
	var rows []map[string]any
	inRange, total := 0, 0
	for _, p := range copyPages(in) {
		secs := p.Sections()
		counted := 0
		for _, s := range secs {
			if s.Words == 0 {
				// A heading followed straight by a subheading only groups
				// the sections below it.
				continue
			}
			counted++
			ok := s.Words >= minWordsForPassage && s.Words <= maxWordsForPassage
			if ok {
				inRange++
			}
			rows = append(rows, map[string]any{"url": addressOf(p), "heading": excerpt(s.Heading, 80), "words": s.Words, "in_range": ok})
		}
		if counted == 0 && p.Words >= minSSRWords {
			rows = append(rows, map[string]any{"url": addressOf(p), "heading": "", "words": p.Words, "in_range": false})
			counted = 1
		}
		total += counted
	}
	if total == 0 {
		return na("The pages have too little text under H2/H3 headings to judge passage length.", ev())
	}
	share := percent(inRange, total)
	e := ev("sections", total, "in_range", inRange, "share_pct", share, "per_section", firstN(rows, 30))
	s := fmt.Sprintf("%s 40–300 words between H2/H3 headings (%.0f%%).", ofTotal(inRange, total, "content section holds", "content sections hold"), share)
	return byThreshold(share, 60, 30, s, e)
}

func listsTablesCheck() *Check {
	return &Check{
		ID: "lists_tables", Ring: scoring.RingVisibility, Pillar: pillarAnswerStructure, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "Lists and tables for key facts",
			Why:   "Steps, comparisons and specifications in lists or tables are the formats AI engines copy most readily into their answers.",
			Fix:   "Present steps, features, prices and comparisons as bullet lists or tables in the page content.",
		},
		Engineering: Text{
			Title: "Lists and tables in content",
			Why:   "<ul>, <ol>, <dl> and <table> carry explicit structure that extractors keep, so enumerations and comparisons survive chunking intact.",
			Fix:   "Mark up enumerations as <ul>/<ol>, definitions as <dl> and comparisons as <table> with header cells, inside the main content rather than as styled <div>s.",
		},
		Eval: evalListsTables,
	}
}

func evalListsTables(in *Input) Result {
	pages := answerPages(in)
	if len(pages) == 0 {
		return na(naNoReadable, ev())
	}
	var rows []map[string]any
	lists, tables := 0, 0
	for _, p := range pages {
		l, t := p.ContentBlocks()
		lists += l
		tables += t
		rows = append(rows, map[string]any{"url": addressOf(p), "lists": l, "tables": t})
	}
	e := ev("lists", lists, "tables", tables, "pages", rows)
	if lists+tables > 0 {
		return pass(fmt.Sprintf("The main content of %s holds %s and %s.", theN(len(pages), "page", "pages"), plural(lists, "list", "lists"), plural(tables, "table", "tables")), e)
	}
	return warn(fmt.Sprintf("The main content of %s holds no list or table.", theN(len(pages), "page", "pages")), e)
}

func questionHeadingsCheck() *Check {
	return &Check{
		ID: "question_headings", Ring: scoring.RingVisibility, Pillar: pillarAnswerStructure, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "Headings phrased as questions",
			Why:   "People ask AI tools questions; a subheading that mirrors the question helps the engine match your section to it.",
			Fix:   "Where it reads naturally, phrase a few subheadings as the questions your customers ask, with the answer right below.",
		},
		Engineering: Text{
			Title: "Question-style headings",
			Why:   "Conversational queries match headings phrased as questions closely, so the section under them ranks as a candidate passage.",
			Fix:   "Phrase some <h2>/<h3> as questions (What, How, Why …?) and answer in the first sentence below; FAQPage markup is optional and brings no Google rich result.",
		},
		Eval: evalQuestionHeadings,
	}
}

// questionRE matches a heading phrased as a question: a question mark, or
// an English question word followed by the verb or "to" that makes it a
// question ("How to …", "What is …"), not a statement ("How we work").
var questionRE = regexp.MustCompile(`(?i)[?？]\s*$|^¿|^(what|how|why|when|where|who|which)\s+(is|are|was|were|do|does|did|can|could|should|would|will|to|much|many|long|often|happens)\b`)

func evalQuestionHeadings(in *Input) Result {
	pages := answerPages(in)
	if len(pages) == 0 {
		return na(naNoReadable, ev())
	}
	var found []string
	headings := 0
	for _, p := range pages {
		for _, h := range p.Headings {
			if h.Level < 2 || h.Text == "" {
				continue
			}
			headings++
			if questionRE.MatchString(h.Text) {
				found = append(found, excerpt(h.Text, 100))
			}
		}
	}
	e := ev("question_headings", nonNil(firstN(found, 10)), "count", len(found), "subheadings", headings)
	if len(found) > 0 {
		return pass(fmt.Sprintf("%s, e.g. %q.", ofTotal(len(found), headings, "subheading is phrased as a question", "subheadings are phrased as questions"), found[0]), e)
	}
	if headings == 0 {
		return info("The pages have no subheadings, so none is phrased as a question; this is a hint, not a requirement.", e)
	}
	if headings == 1 {
		return info("The only subheading is not phrased as a question; this is a hint, not a requirement.", e)
	}
	return info(fmt.Sprintf("None of the %d subheadings is phrased as a question; this is a hint, not a requirement.", headings), e)
}

func factsAndCitationsCheck() *Check {
	return &Check{
		ID: "facts_and_citations", Ring: scoring.RingVisibility, Pillar: pillarAnswerStructure, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "Concrete facts and sources",
			Why:   "AI engines prefer to cite pages with specific numbers and links to the sources behind them; vague copy gives them nothing to verify or quote.",
			Fix:   "Add concrete figures (prices, dates, quantities, results) and link the source of each claim where you make it, or list your sources at the end.",
		},
		Engineering: Text{
			Title: "Fact density and outbound citations",
			Why:   "Passages with numbers and citations (a link in the sentence it supports, a footnote, a references section, cite markup, the press release a story reports on) read as grounded evidence in generative answers; what makes a link a citation is its role in the text, not its host.",
			Fix:   "Include quantitative statements (at least one number per 100 words) and cite sources in the body copy: <a href> inside the sentence, footnotes (role=doc-noteref / doc-endnotes) or a References list; links only in nav, footer, share bars, ads or profile icons cite nothing.",
		},
		Eval: evalFactsCitations,
	}
}

// sourceHost reports a host of reference works and primary records:
// government, universities, international bodies, DOIs, Wikipedia and
// web archives. It is a signal reported beside the citations, never
// what makes a link one.
func sourceHost(host string) bool {
	host = strings.ToLower(strings.TrimPrefix(host, "www."))
	for _, suffix := range []string{".gov", ".edu", ".int", ".mil"} {
		if strings.HasSuffix(host, suffix) || strings.Contains(host, suffix+".") {
			return true
		}
	}
	if strings.Contains(host, ".ac.") || strings.Contains(host, ".gouv.") || strings.Contains(host, ".gob.") {
		return true
	}
	// Web archives hold the copies writers cite when a source may move
	// or vanish.
	for _, d := range []string{
		"wikipedia.org", "doi.org", "arxiv.org", "pubmed.ncbi.nlm.nih.gov", "nature.com", "sciencedirect.com", "europa.eu", "who.int", "oecd.org", "worldbank.org", "iso.org", "w3.org", "ietf.org", "rfc-editor.org",
		"web.archive.org", "archive.org", "archive.today", "archive.ph", "archive.is", "archive.li", "webcitation.org", "perma.cc",
	} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// citationRoleText says where citations of a role sit, after their count.
var citationRoleText = map[page.CitationRole]string{
	page.CiteFootnote:    "in footnotes",
	page.CiteReferences:  "in a references section",
	page.CiteQuotation:   "in cite or quotation markup",
	page.CitePrimary:     "linking the party their sentence names",
	page.CiteRunningText: "in running text",
}

func evalFactsCitations(in *Input) Result {
	pages := copyPages(in)
	words, numbers, outbound := 0, 0, 0
	var cites []page.Citation
	seen := map[string]int{}
	for _, p := range pages {
		words += p.Words
		numbers += len(numberRE.FindAllString(p.MainText, -1))
		for _, l := range p.Links {
			if l.Internal || l.Href == "" {
				continue
			}
			if u, err := url.Parse(l.Href); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				outbound++
			}
		}
		// A source cited on two pages is one source, in its most
		// specific role.
		for _, c := range p.Citations() {
			key := c.URL
			if key == "" {
				key = "unlinked:" + strings.ToLower(c.Text)
			}
			if i, ok := seen[key]; ok {
				if slices.Index(page.CitationRoles, c.Role) < slices.Index(page.CitationRoles, cites[i].Role) {
					cites[i].Role = c.Role
				}
				continue
			}
			seen[key] = len(cites)
			cites = append(cites, c)
		}
	}
	if words < sparseSSRWords {
		return na(fmt.Sprintf("The judged pages have %s of content, too little to measure facts and citations.", only(words, "word", "words")), ev("words", words))
	}
	per100 := roundTenth(100 * float64(numbers) / float64(words))
	hasFacts := per100 >= 1

	byRole := map[string]any{}
	count := map[page.CitationRole]int{}
	unlinked, referenceHosts := 0, 0
	examples := []map[string]any{}
	for _, c := range cites {
		count[c.Role]++
		if c.URL == "" {
			unlinked++
		} else if sourceHost(c.Host) {
			referenceHosts++
		}
		if len(examples) < 10 {
			examples = append(examples, map[string]any{"url": c.URL, "role": string(c.Role), "text": excerpt(c.Text, 100), "context": excerpt(c.Context, 160)})
		}
	}
	var parts []string
	for _, r := range page.CitationRoles {
		byRole[string(r)] = count[r]
		if count[r] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[r], citationRoleText[r]))
		}
	}
	e := ev("pages", len(pages), "words", words, "numbers", numbers, "numbers_per_100_words", per100,
		"outbound_links", outbound, "citations", len(cites), "citations_by_role", byRole, "citations_without_link", unlinked,
		"reference_host_citations", referenceHosts, "citation_examples", examples,
		"measured", "citations by their role in the main content: links in running text, footnotes, references sections, cite markup and links to the party a sentence names; links in menus, footers, share bars, ads, affiliate links, profiles and image-only links are not citations")

	s := fmt.Sprintf("The content has %.1f numbers per 100 words and ", per100)
	switch {
	case len(cites) > 0:
		s += fmt.Sprintf("cites %s: %s", plural(len(cites), "source", "sources"), andList(parts))
		if unlinked > 0 {
			s += fmt.Sprintf(" (%d named without a link)", unlinked)
		}
	case outbound == 0:
		s += "links to no other site, so it cites no sources"
	case outbound == 1:
		s += "cites no sources: its 1 outbound link is not in running text, a footnote, a references section or cite markup"
	default:
		s += fmt.Sprintf("cites no sources: none of its %d outbound links is in running text, a footnote, a references section or cite markup", outbound)
	}
	s += "."
	switch {
	case hasFacts && len(cites) > 0:
		return pass(s, e)
	case hasFacts || len(cites) > 0:
		return warn(s, e)
	}
	return fail(s, e)
}
