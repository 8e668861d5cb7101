package fixes

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// The homepage's head tags, written from its own text. Text goes into
// HTML escaped (html.EscapeString escapes <, >, &, ' and "), so a title
// from the site cannot close the element or the attribute it lands in.

func htmlText(s string) string { return html.EscapeString(line(s)) }

// headFix is a fix whose artifact is one tag for the homepage's <head>,
// checked with the check it fixes on a copy of the homepage holding it.
func (s *scan) headFix(o checks.Outcome, cause Cause, filename, tag string, review []string, sum Said) *Fix {
	fix := &Fix{
		Cause: cause, Summary: sum, PlatformSteps: s.steps(topicHead), Review: review,
		Verify: []Verification{
			{
				Step: Said{
					Engineering: "The homepage's HTML, as served, holds the new tag (once).",
					Marketing:   "View the source of the homepage in a browser and find the new tag.",
				},
				Command: "curl -sS " + shellQuote(s.homeURL) + " | grep -i -m 3 " + shellQuote(grepFor(tag)),
			},
			rerun(o.Check.ID),
		},
	}
	lang := ""
	if s.home != nil {
		lang = line(s.home.Lang)
	}
	if err := s.run(trial{pageURL: s.homeURL, purpose: fetch.Homepage, lang: lang, head: tag + "\n", body: "<h1>" + htmlText(firstH1(s.home)) + "</h1>"}, o.Check.ID); err != nil {
		fix.Notes = append(fix.Notes, "No tag could be written that passes the check: "+errText(err))
		fix.Review = nil
		return fix
	}
	fix.Artifact = &Artifact{
		Filename: filename, MediaType: "text/html", Kind: Snippet, Location: s.homeURL, Content: tag + "\n",
		Checked: []string{checkedBy("a copy of the homepage holding it", o.Check.ID)},
	}
	return fix
}

func grepFor(tag string) string {
	switch {
	case strings.HasPrefix(tag, "<title"):
		return "<title"
	case strings.HasPrefix(tag, `<meta name="description"`):
		return `name="description"`
	}
	return `rel="canonical"`
}

// genericTitles are template titles that say nothing.
var genericTitles = map[string]bool{
	"home": true, "homepage": true, "home page": true, "welcome": true, "index": true, "untitled": true,
	"start": true, "startseite": true, "accueil": true, "inicio": true, "início": true, "home - welcome": true,
}

func titleFix(s *scan, o checks.Outcome) *Fix {
	if s.home == nil {
		return nil
	}
	name := s.siteName()
	nameKey := brandKey(name)
	current := titleParts(s.home.Title)
	// The site's own convention: the name first or last, and its separator.
	nameFirst := len(current) > 1 && brandKey(current[0]) == nameKey
	sep := " – "
	for _, x := range titleSeparators {
		if strings.Contains(s.home.Title, x) {
			sep = x
			break
		}
	}
	type candidate struct{ text, from string }
	var candidates []candidate
	for _, p := range current {
		candidates = append(candidates, candidate{p, "the current title"})
	}
	candidates = append(candidates,
		candidate{firstH1(s.home), "the page's main heading"},
		candidate{line(s.home.MetaContent("og:title")), "its og:title"},
		candidate{firstSentence(s.describe()), "its description"},
	)
	var topic, from string
	for _, c := range candidates {
		k := brandKey(c.text)
		if c.text != "" && k != "" && k != nameKey && !genericTitles[strings.ToLower(c.text)] && utf8.RuneCountInString(c.text) >= 4 {
			topic, from = c.text, c.from
			break
		}
	}
	// The brand part: the site's own name, or the scan's brand when that
	// name is too long to share a title with anything.
	brands := []string{name}
	if b := line(s.in.BrandName); b != "" && b != name && !strings.Contains(b, ".") {
		brands = append(brands, b)
	}
	var titles []string
	var review []string
	for _, brand := range brands {
		if utf8.RuneCountInString(brand) > 45 {
			continue
		}
		switch {
		case topic == "":
			titles = append(titles, "REVIEW: what "+brand+" offers"+sep+brand, brand+sep+"REVIEW: what "+brand+" offers")
		case brandKey(brand) != "" && strings.Contains(brandKey(topic), brandKey(brand)):
			titles = append(titles, clipWords(topic, 60))
		default:
			room := max(60-utf8.RuneCountInString(sep+brand), 10)
			last, first := clipWords(topic, room)+sep+brand, brand+sep+clipWords(topic, room)
			if nameFirst {
				titles = append(titles, first, last)
			} else {
				titles = append(titles, last, first)
			}
		}
	}
	if len(titles) == 0 {
		titles = []string{clipWords(nonEmpty(topic, name), 60)}
	}
	if topic == "" {
		review = append(review, "The page has no text to name what it offers: replace the REVIEW part of the title.")
	} else {
		review = append(review, fmt.Sprintf("Written from %s and the site's name; check that it says what the page offers.", from))
	}
	// The first that the title check passes: its brand matching reads the
	// scan's brand, which may differ from the name the site gives itself.
	title := titles[0]
	for _, t := range titles {
		if s.run(trial{pageURL: s.homeURL, purpose: fetch.Homepage, head: "<title>" + htmlText(t) + "</title>\n"}, o.Check.ID) == nil {
			title = t
			break
		}
	}
	cause := TagWeak
	if line(s.home.Title) == "" {
		cause = TagMissing
	}
	tag := "<title>" + htmlText(title) + "</title>"
	return s.headFix(o, cause, "homepage-title.html", tag, review, Said{
		Engineering: line(o.Result.Summary) + fmt.Sprintf(" Suggested: %q (%d characters).", title, utf8.RuneCountInString(title)),
		Marketing:   fmt.Sprintf("Your homepage's title, the label AI engines show next to a citation, needs work. A suggestion built from your own page: %q.", title),
	})
}

// clipWords shortens text to at most n characters at a word boundary,
// without an ellipsis (a title reads whole), and drops a trailing
// connecting word.
func clipWords(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	words := strings.Fields(s)
	out := ""
	for _, w := range words {
		next := strings.TrimSpace(out + " " + w)
		if utf8.RuneCountInString(next) > n {
			break
		}
		out = next
	}
	if out == "" {
		return string([]rune(s)[:n])
	}
	for {
		f := strings.Fields(out)
		last := strings.ToLower(strings.Trim(f[len(f)-1], ",;:"))
		if len(f) < 2 || !connectors[last] {
			break
		}
		out = strings.Join(f[:len(f)-1], " ")
	}
	return strings.TrimRight(out, " ,;:-–—|·&")
}

// connectors are words a clipped title must not end on, in the languages
// of the web's larger sites.
var connectors = map[string]bool{
	"and": true, "or": true, "of": true, "for": true, "the": true, "a": true, "in": true, "with": true, "to": true, "&": true,
	"und": true, "oder": true, "für": true, "der": true, "die": true, "das": true, "mit": true, "von": true,
	"et": true, "ou": true, "de": true, "pour": true, "le": true, "la": true, "les": true, "du": true, "des": true,
	"y": true, "o": true, "para": true, "el": true, "los": true, "con": true, "e": true, "di": true, "per": true, "il": true,
}

func firstSentence(s string) string {
	for i, r := range s {
		if (r == '.' || r == '!' || r == '?') && i > 10 {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

func descriptionFix(s *scan, o checks.Outcome) *Fix {
	if s.home == nil {
		return nil
	}
	current := line(s.home.MetaContent("description"))
	var from string
	text := ""
	for _, c := range []struct{ text, from string }{
		{s.home.IntroParagraph(), "the homepage's lead paragraph"},
		{s.home.MetaContent("og:description"), "its og:description"},
		{current, "the current description"},
		{strings.Join(s.home.Paragraphs, " "), "the homepage's paragraphs"},
	} {
		t := line(c.text)
		if utf8.RuneCountInString(t) >= 70 {
			text, from = t, c.from
			break
		}
	}
	var review []string
	if text == "" {
		text = "REVIEW: one or two sentences, 70 to 160 characters, on what " + s.siteName() + " offers and to whom."
		review = append(review, "The homepage has too little text to summarise: replace the REVIEW text with the summary.")
	} else {
		text = clip(text, 158)
		review = append(review, fmt.Sprintf("Taken from %s; a summary written for the purpose reads better.", from))
	}
	cause := TagWeak
	if current == "" {
		cause = TagMissing
	}
	tag := `<meta name="description" content="` + htmlText(text) + `">`
	return s.headFix(o, cause, "homepage-meta-description.html", tag, review, Said{
		Engineering: line(o.Result.Summary) + descriptionFrom(from, text),
		Marketing:   "Your homepage lacks a good short summary for machines to show. A suggestion taken from your own page is attached.",
	})
}

// descriptionFrom says where a suggested description came from.
func descriptionFrom(from, text string) string {
	if from == "" {
		return " The homepage has too little text to summarise, so the tag below holds a placeholder to replace."
	}
	return fmt.Sprintf(" Suggested (%d characters), from %s.", utf8.RuneCountInString(text), from)
}

func canonicalFix(s *scan, o checks.Outcome) *Fix {
	if s.home == nil {
		return nil
	}
	declared := s.evidenceStrings(o.Check.ID, "canonicals")
	cause := TagConflict
	switch {
	case len(declared) == 0:
		cause = TagMissing
	case o.Result.Status == checks.Warn:
		cause = TagWeak
	}
	tag := `<link rel="canonical" href="` + html.EscapeString(s.homeURL) + `">`
	fix := s.headFix(o, cause, "homepage-canonical.html", tag, nil, Said{
		Engineering: line(o.Result.Summary) + " Declare the homepage's final URL, " + s.homeURL + ", exactly once.",
		Marketing:   "Your homepage does not clearly name its official address, so engines may credit a duplicate. The one-line fix is attached.",
	})
	for _, d := range declared {
		fix.Edits = append(fix.Edits, fmt.Sprintf("Remove the canonical %q the page declares now (from the template, a plugin or a Link header).", line(d)))
	}
	return fix
}
