package report

// What a summary may say and how a summary text is checked: SummaryFacts
// reads the report's structured results, and ValidateSummary reads a text
// as claims about them (scores, grades, counts, caps, checks passing or
// failing, tone for the grade) and rejects any it cannot confirm, or any
// link, markup or instruction.

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/i18n"
)

// SummaryData is what a summary may be written from.
type SummaryData struct {
	Audience     string        `json:"audience"`
	Brand        string        `json:"brand"`
	Overall      float64       `json:"overall_score"`
	OverallGrade string        `json:"overall_grade"`
	Rings        []RingData    `json:"rings"`
	Gates        []GateData    `json:"gates_fired"`
	Findings     []FindingData `json:"checks_to_fix"`
	Counts       api.CheckCounts
	Caveats      []string `json:"caveats"`
	// Language is the language the summaries are written in, empty for
	// English; the findings' titles are given in it.
	Language string `json:"language,omitempty"`

	// checks are every check of the report, by id.
	checks map[string]checkFact
	// hosts are the domains the audit data names: the site's, and those
	// its checks' titles, summaries and caveats mention.
	hosts map[string]bool
	// names finds, in a text, what names a check, pillar or gate, and
	// refs says what each name stands for.
	names  *regexp.Regexp
	byName map[string]int
	refs   []ref
	// keywords are the words of each check's titles that a paraphrase
	// must use; common counts the checks a keyword belongs to.
	keywords map[string][]string
	common   map[string]int
}

// checkFact is one check of the report as the validator reads it.
type checkFact struct {
	ring, status string
	// title is the check's title in the report's edition; marketing is its
	// marketing title, which states the passing state ("Sitemap is
	// published").
	title, marketing string
}

// RingData is one ring as a summary may state it.
type RingData struct {
	Ring     string       `json:"ring"`
	Score    int          `json:"score"`
	Grade    string       `json:"grade"`
	CappedBy string       `json:"capped_by,omitempty"`
	Pillars  []PillarData `json:"pillars"`
}

// PillarData is one pillar's score (absent when it has none).
type PillarData struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Score *int   `json:"score"`
}

// GateData is a fired gate.
type GateData struct {
	ID      string `json:"id"`
	Ring    string `json:"ring"`
	CheckID string `json:"check_id"`
	Cap     int    `json:"cap"`
}

// FindingData is a check to fix.
type FindingData struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Ring   string `json:"ring"`
	Status string `json:"status"`
	Impact string `json:"impact"`
}

// SummaryFacts reads the structured results of a report, for summaries in
// lang (an i18n tag; English when empty or unsupported): the titles of the
// checks to fix are given in it, and a text is read in it and in English.
func SummaryFacts(r *api.Report, lang string) SummaryData {
	d := SummaryData{
		Audience: string(r.Audience), Brand: r.BrandName, Overall: r.OverallScore, OverallGrade: string(r.OverallGrade),
		Counts: r.Counts, checks: map[string]checkFact{}, hosts: map[string]bool{},
	}
	if w := i18n.For(lang); w.Lang() != i18n.English {
		d.Language = w.Lang()
	}
	if u, err := url.Parse(r.URL); err == nil && u.Hostname() != "" {
		d.hosts[strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")] = true
	}
	named := func(text string) {
		for _, h := range domainRE.FindAllString(text, -1) {
			d.hosts[strings.TrimPrefix(strings.ToLower(h), "www.")] = true
		}
	}
	for _, rr := range []api.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
		rd := RingData{Ring: string(rr.Ring), Score: rr.Score, Grade: string(rr.Grade)}
		if rr.CappedBy != nil {
			rd.CappedBy = *rr.CappedBy
		}
		for _, p := range rr.Pillars {
			rd.Pillars = append(rd.Pillars, PillarData{ID: p.ID, Name: p.Name, Score: p.Score})
		}
		d.Rings = append(d.Rings, rd)
	}
	for _, g := range r.GatesFired {
		d.Gates = append(d.Gates, GateData{ID: g.ID, Ring: string(g.Ring), CheckID: g.CheckID, Cap: g.Cap})
	}
	rank := map[api.Level]int{api.LevelHigh: 0, api.LevelMedium: 1, api.LevelLow: 2}
	var fix []api.CheckResult
	for _, c := range r.Checks {
		d.checks[c.ID] = checkFact{ring: string(c.Ring), status: string(c.Status), title: c.Title, marketing: c.Title}
		named(c.Title)
		named(c.Summary)
		if c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn {
			fix = append(fix, c)
		}
	}
	sort.SliceStable(fix, func(i, j int) bool { return rank[fix[i].Impact] < rank[fix[j].Impact] })
	w := i18n.For(d.Language)
	for _, c := range fix[:min(len(fix), 8)] {
		title := w.CheckText(c.ID, string(r.Audience), "title", c.Title)
		d.Findings = append(d.Findings, FindingData{ID: c.ID, Title: title, Ring: string(c.Ring), Status: string(c.Status), Impact: string(c.Impact)})
	}
	if r.Caveats != nil {
		d.Caveats = *r.Caveats
	}
	for _, c := range d.Caveats {
		named(c)
	}
	d.index()
	return d
}

// refKind is what a name in a text stands for.
type refKind int

const (
	refCheck refKind = iota
	refPillar
	refGate
	refBrand
)

// ref is a name found in a text: a check by its id or one of its titles, a
// pillar by its id or name, a fired gate by its id, or the brand.
type ref struct {
	kind refKind
	id   string
	// byID is a name written as an id (hidden_prompt_injection), which
	// only the engineering edition shows.
	byID bool
	// statement is a check's marketing title, which states the passing
	// state: written unquoted in a sentence, it claims that state.
	statement bool
}

// refRune is the first private-use rune that stands for a name in a masked
// text (refRune+i for refs[i]); a text with private-use runes of its own is
// refused before it is masked.
const refRune = 0xF0000

// index prepares what ValidateSummary reads besides the facts: every name
// of a check (its id and its titles in both editions), pillar, fired gate
// and the brand, longest first so a title wins over a pillar name it
// starts with, and the keywords of each check's titles.
func (d *SummaryData) index() {
	type name struct {
		phrase string
		r      ref
	}
	var names []name
	add := func(phrase string, r ref) {
		phrase = strings.TrimSpace(phrase)
		if len([]rune(phrase)) < 3 {
			return
		}
		names = append(names, name{phrase, r})
		// A title's closing aside, "(optional)" or "(info)", is often left out.
		if i := strings.LastIndex(phrase, " ("); i > 0 && strings.HasSuffix(phrase, ")") {
			names = append(names, name{phrase[:i], r})
		}
	}
	catalog := map[string]*checks.Check{}
	for _, c := range checks.All() {
		catalog[c.ID] = c
	}
	// In another language, a check is also named by its titles in it,
	// and its translated marketing title states the passing state too.
	w := i18n.For(d.Language)
	stop := lexiconFor(w.Lang()).keywordStop
	d.keywords, d.common = map[string][]string{}, map[string]int{}
	for _, id := range slices.Sorted(maps.Keys(d.checks)) {
		c := d.checks[id]
		titles := []string{c.title}
		statements := map[string]bool{}
		if cc := catalog[id]; cc != nil {
			c.marketing = cc.Marketing.Title
			d.checks[id] = c
			titles = append(titles, cc.Marketing.Title, cc.Engineering.Title)
			if w.Lang() != i18n.English {
				m := w.CheckText(id, string(scoring.Marketing), "title", cc.Marketing.Title)
				statements[m] = true
				titles = append(titles, m, w.CheckText(id, string(scoring.Engineering), "title", cc.Engineering.Title))
			}
		}
		statements[c.marketing] = true
		for _, t := range titles {
			add(t, ref{kind: refCheck, id: id, statement: statements[t]})
		}
		add(id, ref{kind: refCheck, id: id, byID: strings.Contains(id, "_")})
		d.keywords[id] = keywordsIn(strings.Join(titles, " "), stop)
		for _, k := range d.keywords[id] {
			d.common[k]++
		}
	}
	for _, p := range scoring.Pillars {
		add(p.Name, ref{kind: refPillar, id: p.ID})
		add(p.ID, ref{kind: refPillar, id: p.ID, byID: strings.Contains(p.ID, "_")})
	}
	for _, g := range d.Gates {
		add(g.ID, ref{kind: refGate, id: g.ID, byID: true})
	}
	if d.Brand != "" {
		add(d.Brand, ref{kind: refBrand})
	}
	sort.SliceStable(names, func(i, j int) bool { return len(names[i].phrase) > len(names[j].phrase) })
	d.byName = map[string]int{}
	var alts []string
	for _, n := range names {
		k := strings.ToLower(n.phrase)
		if _, ok := d.byName[k]; ok {
			continue
		}
		d.byName[k] = len(d.refs)
		d.refs = append(d.refs, n.r)
		alts = append(alts, regexp.QuoteMeta(n.phrase))
	}
	if len(alts) > 0 {
		d.names = regexp.MustCompile(`(?i)` + strings.Join(alts, "|"))
	}
}

// keywordStop are the words of check titles too common to tell checks
// apart.
var keywordStop = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "your": true, "you": true, "are": true, "its": true, "not": true,
	"can": true, "may": true, "per": true, "each": true, "one": true, "all": true, "from": true, "that": true, "this": true,
	"has": true, "have": true, "into": true, "out": true, "via": true, "who": true, "what": true, "than": true, "them": true,
	"they": true, "our": true, "page": true, "pages": true, "site": true, "homepage": true, "content": true, "text": true,
	"web": true, "website": true, "well": true, "within": true, "under": true, "set": true, "also": true, "only": true,
	"very": true, "more": true, "most": true, "less": true, "every": true, "without": true, "info": true, "optional": true,
	"clear": true, "clearly": true, "is": true, "be": true, "does": true, "their": true, "there": true, "these": true,
	"those": true, "which": true, "where": true, "when": true, "how": true, "why": true, "will": true, "would": true,
	"should": true, "must": true, "did": true, "was": true, "were": true, "been": true, "being": true, "onto": true,
	"over": true, "about": true, "just": true, "like": true, "some": true, "any": true, "way": true, "ways": true,
}

// keywordsOf lists the distinct words of s a paraphrase of it would use.
func keywordsOf(s string) []string { return keywordsIn(s, keywordStop) }

// keywordsIn is keywordsOf with the words of stop left out.
func keywordsIn(s string, stop map[string]bool) []string {
	var out []string
	for _, w := range wordRE.FindAllString(fold(s), -1) {
		if len(w) < 3 || stop[w] || w[0] >= '0' && w[0] <= '9' || slices.Contains(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// sameWord says whether two folded words are one word in two forms
// ("know" and "known", "crawl" and "crawlers", "recognise" and
// "recognition"): past a shared stem of at least four letters, each has at
// most an ending of inflection ("site" and "sitemap" are two words).
func sameWord(a, b string) bool {
	if a == b {
		return true
	}
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 4 && wordEndings[a[n:]] && wordEndings[b[n:]]
}

var wordEndings = map[string]bool{
	"": true, "s": true, "es": true, "e": true, "ed": true, "d": true, "n": true, "er": true, "ers": true, "ing": true,
	"ly": true, "y": true, "ies": true, "ied": true, "ion": true, "ions": true, "tion": true, "able": true, "ity": true,
	"se": true, "sed": true, "ze": true, "zed": true, "ise": true, "ised": true, "ize": true, "ized": true,
}

var (
	wordRE = regexp.MustCompile(`[\p{L}\p{N}]+(?:['.-][\p{L}\p{N}]+)*`)
	// domainRE is a host name as a text would write one; the endings of
	// files a report names (robots.txt, llms.txt, Node.js) are not hosts.
	domainRE  = regexp.MustCompile(`(?i)\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}\b`)
	fileEndRE = regexp.MustCompile(`(?i)\.(txt|xml|json|html?|js|mjs|css|php|pdf|md|png|jpe?g|gif|svg|webp|ico|gz|zip)$`)
	emailRE   = regexp.MustCompile(`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`)
	idRE      = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
	// markupRE is a link, an address or markup: nothing a summary shows
	// is clickable or styled.
	markupRE = regexp.MustCompile(`(?i)://|\bwww\.|\bmailto:|\]\s*\(|[<>]|&#?[a-z0-9]+;|\*\*|__|\||` + "`" + `|(?m:^\s*(?:#|[-*•]\s|\d+[.)]\s))`)
)

// fold lowercases s and drops its diacritics, so the word lists below are
// written once in plain letters ("pret" for "prêt"), and spells the
// contraction "n't" as " not".
func fold(s string) string {
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		out = s
	}
	out = strings.ToLower(strings.ReplaceAll(out, "’", "'"))
	return strings.ReplaceAll(out, "n't", " not")
}

// ValidateSummary returns why a summary text cannot be used in slot
// (SlotExecutive or a ring), or "" when it can. It reads the text as claims
// about the report and rejects the text unless each is true: every number
// and grade must be the score or grade of what it is said of (a ring
// paragraph speaks of its own ring only), every count the report's count,
// every cap a gate that fired, every check, pillar or gate named one of the
// report's, every claim that a check passes or needs work — by id, by
// either edition's title or in other words — its status, and praise the
// grade's. Links, markup, hosts the audit did not name and instructions
// (to an assistant, or to visit or recommend something) are refused, as is
// a claim of a check's state that names no check of the report: when in
// doubt, the report keeps its template.
func ValidateSummary(slot, text string, d SummaryData) string {
	if slot != SlotExecutive && d.ring(slot).Ring == "" {
		return fmt.Sprintf("%q is not a summary of the report", slot)
	}
	if text == "" {
		return "the text is empty"
	}
	limit := 900
	if len([]rune(text)) > limit {
		return "the text is longer than " + strconv.Itoa(limit) + " characters"
	}
	for _, r := range text {
		if r != '\n' && r != '\t' && (unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) || r == unicode.ReplacementChar) {
			return "the text contains invisible or control characters"
		}
		if unicode.IsDigit(r) && r > '9' && norm.NFKC.String(string(r)) == string(r) {
			return "the text writes digits in another script"
		}
	}
	if d.names == nil {
		d.index()
	}
	v := validation{d: &d, slot: slot, lx: lexiconFor(d.Language)}
	n := norm.NFKC.String(text)
	t := v.mask(n)
	if markupRE.MatchString(t) || emailRE.MatchString(n) {
		return "the text contains a link or markup"
	}
	// Names masked, what is left is English: a letter of another script
	// is another language or a look-alike ("Еxcellent" with a Cyrillic Е).
	for _, r := range t {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return "the text contains letters of another script"
		}
	}
	for _, h := range domainRE.FindAllString(t, -1) {
		if !fileEndRE.MatchString(h) && !d.hosts[strings.TrimPrefix(strings.ToLower(h), "www.")] {
			return fmt.Sprintf("it names %s, which the audit data does not", h)
		}
	}
	if id := idRE.FindString(t); id != "" {
		return fmt.Sprintf("%s is not a check, pillar or gate of the report", id)
	}
	v.tokenize(t)
	for _, check := range []func() string{v.names, v.instructions, v.tone, v.counts, v.numbers, v.grades, v.caps, v.ranks, v.claims} {
		if why := check(); why != "" {
			return why
		}
	}
	return ""
}

// validation is one text being validated.
type validation struct {
	d    *SummaryData
	slot string
	// lx are the words the text is read with: English and the report's
	// language.
	lx *lexicon
	// sentences are the text's tokens, sentence by sentence.
	sentences []sentence
}

// token is a word, a number, a name (ref >= 0) or one punctuation mark.
type token struct {
	raw   string // as written (NFKC)
	low   string // folded
	ref   int    // index in refs, or -1
	num   float64
	isNum bool
	// quoted is a name written in quotation marks: a name, not a statement.
	quoted bool
	// denom is a number written after "/" or "of" ("/100", "of 100").
	denom bool
	// counted is a number a count claim has read.
	counted bool
}

// sentence is a sentence's tokens and its folded words joined by spaces,
// with where each token starts in that string.
type sentence struct {
	toks []token
	f    string
	at   []int
}

// tokenAt is the token starting at or before byte off of s.f.
func (s sentence) tokenAt(off int) int {
	i := sort.SearchInts(s.at, off+1) - 1
	return max(i, 0)
}

// mask replaces every name of the report in t by its rune.
func (v *validation) mask(t string) string {
	d := v.d
	if d.names == nil {
		return t
	}
	word := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	var b strings.Builder
	last := 0
	for _, m := range d.names.FindAllStringIndex(t, -1) {
		first, _ := utf8.DecodeRuneInString(t[m[0]:])
		end, _ := utf8.DecodeLastRuneInString(t[:m[1]])
		before, _ := utf8.DecodeLastRuneInString(t[:m[0]])
		after, _ := utf8.DecodeRuneInString(t[m[1]:])
		if word(first) && word(before) || word(end) && word(after) {
			continue
		}
		i, ok := d.byName[strings.ToLower(t[m[0]:m[1]])]
		if !ok {
			continue
		}
		b.WriteString(t[last:m[0]])
		b.WriteRune(refRune + rune(i))
		last = m[1]
	}
	b.WriteString(t[last:])
	return b.String()
}

var quoteRunes = "\"“”„‘’'«»‹›"

// tokenize splits the masked text into sentences of tokens.
func (v *validation) tokenize(t string) {
	var cur []token
	flush := func() {
		if len(cur) == 0 {
			return
		}
		s := sentence{toks: cur}
		var b strings.Builder
		for i, tk := range cur {
			if i > 0 {
				b.WriteByte(' ')
			}
			s.at = append(s.at, b.Len())
			b.WriteString(tk.low)
		}
		s.f = b.String()
		v.sentences = append(v.sentences, s)
		cur = nil
	}
	rs := []rune(t)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r) && r != '\n':
			i++
		case r >= refRune && r < refRune+0x10000:
			tk := token{raw: string(r), low: string(r), ref: int(r - refRune)}
			prev, next := ' ', ' '
			if i > 0 {
				prev = rs[i-1]
			}
			if i+1 < len(rs) {
				next = rs[i+1]
			}
			tk.quoted = strings.ContainsRune(quoteRunes, prev) && strings.ContainsRune(quoteRunes, next)
			cur = append(cur, tk)
			i++
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i + 1
			for j < len(rs) {
				if unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) {
					j++
					continue
				}
				// Inner marks join: 72.5, robots.txt, world-class, don't.
				if j+1 < len(rs) && strings.ContainsRune(".,'’-", rs[j]) && (unicode.IsLetter(rs[j+1]) || unicode.IsDigit(rs[j+1])) &&
					(rs[j] != ',' || unicode.IsDigit(rs[j-1]) && unicode.IsDigit(rs[j+1])) {
					j += 2
					continue
				}
				break
			}
			raw := string(rs[i:j])
			if raw == "A" && j < len(rs) && rs[j] == '+' {
				raw, j = "A+", j+1
			}
			raw = strings.TrimSuffix(strings.TrimSuffix(raw, "'s"), "’s") // "trust's score"
			tk := token{raw: raw, ref: -1}
			for _, w := range strings.Fields(fold(raw)) {
				tk.low = w
				if n, err := strconv.ParseFloat(strings.ReplaceAll(raw, ",", "."), 64); err == nil {
					tk.num, tk.isNum = n, true
					k := len(cur) - 1
					tk.denom = i > 0 && rs[i-1] == '/' || k >= 0 && v.lx.of[cur[k].low]
				}
				cur = append(cur, tk)
			}
			i = j
		default:
			cur = append(cur, token{raw: string(r), low: string(r), ref: -1})
			i++
			if strings.ContainsRune(".!?;\n", r) {
				flush()
			}
		}
	}
	flush()
}

// names refuses names the text may not use: an id in the marketing
// edition, a check, pillar or gate of another ring in a ring's paragraph,
// and a "… check", "… pillar" or "… gate" the report does not have.
func (v *validation) names() string {
	d := v.d
	for _, s := range v.sentences {
		for i, tk := range s.toks {
			if tk.ref >= 0 {
				if why := v.nameInSlot(d.refs[tk.ref]); why != "" {
					return why
				}
				continue
			}
			kind := strings.TrimSuffix(tk.low, "s")
			if kind != "check" && kind != "test" && kind != "pillar" && kind != "gate" {
				continue
			}
			var words []string
			for j := i - 1; j >= 0 && j >= i-3; j-- {
				w := s.toks[j]
				if _, n := numberWords[w.low]; n || w.ref >= 0 || w.isNum || !wordRE.MatchString(w.low) || nameStop[w.low] {
					break
				}
				words = append([]string{w.low}, words...)
			}
			if len(words) > 0 && !v.knownName(kind, words) {
				what := strings.Join(words, " ") + " " + tk.low
				if kind == "gate" {
					return fmt.Sprintf("it names a gate (%q) that did not fire", clip(what))
				}
				if kind == "test" {
					kind = "check"
				}
				return fmt.Sprintf("it names a %s (%q) the report does not have", kind, clip(what))
			}
		}
	}
	return ""
}

// nameStop are the words before "check", "pillar" or "gate" that are not
// part of a name ("the failing check", "each gate").
var nameStop = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "these": true, "those": true, "each": true, "every": true,
	"any": true, "all": true, "no": true, "one": true, "first": true, "next": true, "last": true, "same": true, "other": true,
	"remaining": true, "scored": true, "failing": true, "failed": true, "passing": true, "warning": true, "critical": true,
	"gating": true, "single": true, "only": true, "which": true, "whose": true, "its": true, "their": true, "top": true,
	"key": true, "main": true, "important": true, "high": true, "low": true, "medium": true, "high-impact": true, "open": true,
	"biggest": true, "largest": true, "weakest": true, "strongest": true, "most": true, "more": true, "of": true, "and": true,
	"or": true, "to": true, "in": true, "on": true, "by": true, "for": true, "with": true, "is": true, "are": true, "was": true,
	"fired": true, "firing": true, "binding": true, "not": true, "also": true, "still": true, "several": true, "many": true,
	"both": true, "own": true, "audit": true, "geoscan": true, "geo": true, "ring": true, "rings": true, "search": true,
	"visibility": true, "trust": true, "overall": true, "site": true,
}

// knownName says whether words before "check" (or "pillar", "gate") name
// one of the report's: each word (but the most common) a keyword of one
// check's titles, of one pillar's name, or of one fired gate's id or its
// check's titles.
func (v *validation) knownName(kind string, words []string) bool {
	d := v.d
	all := func(kw []string) bool {
		for _, w := range words {
			if keywordStop[w] {
				continue
			}
			if !slices.ContainsFunc(kw, func(k string) bool { return sameWord(w, k) }) {
				return false
			}
		}
		return true
	}
	var sets [][]string
	switch kind {
	case "pillar":
		for _, p := range scoring.Pillars {
			sets = append(sets, keywordsOf(p.Name+" "+strings.ReplaceAll(p.ID, "_", " ")+" "+string(p.Ring)))
		}
	case "gate":
		for _, g := range d.Gates {
			sets = append(sets, append(keywordsOf(strings.ReplaceAll(g.ID, "_", " ")+" "+g.Ring), d.keywords[g.CheckID]...))
		}
	default:
		for _, kw := range d.keywords {
			sets = append(sets, kw)
		}
	}
	return slices.ContainsFunc(sets, all)
}

// nameInSlot refuses a name the slot's text may not use.
func (v *validation) nameInSlot(r ref) string {
	d := v.d
	if r.byID && d.Audience == string(api.ReportAudienceMarketing) {
		return fmt.Sprintf("it names %s by its id, which the marketing edition never shows", r.id)
	}
	if v.slot == SlotExecutive {
		return ""
	}
	switch r.kind {
	case refCheck:
		ring := d.checks[r.id].ring
		if ring == v.slot {
			return ""
		}
		for _, g := range d.Gates {
			if g.CheckID == r.id && g.Ring == v.slot {
				return ""
			}
		}
		return fmt.Sprintf("it names %s, a check of the %s ring, in the %s summary", v.checkName(r.id), ring, v.slot)
	case refPillar:
		p, _ := scoring.Pillar(r.id)
		if string(p.Ring) != v.slot {
			return fmt.Sprintf("it names the %s pillar of the %s ring in the %s summary", p.Name, p.Ring, v.slot)
		}
	case refGate:
		for _, g := range d.Gates {
			if g.ID == r.id && g.Ring == v.slot {
				return ""
			}
		}
		return fmt.Sprintf("it names gate %s, which does not fire on %s", r.id, v.slot)
	}
	return ""
}

// checkName is how the edition names a check: its id for engineers, its
// title in quotation marks for marketing.
func (v *validation) checkName(id string) string {
	if v.d.Audience == string(api.ReportAudienceEngineering) {
		return id
	}
	return "“" + v.d.checks[id].title + "”"
}

var (
	// Instructions: to ignore the writer's own, in the languages a page is
	// likely to carry them; spoken to an assistant; in a role's voice.
	ignoreRE  = regexp.MustCompile(`\b(?:ignor\w*|disregard\w*|forget|override|oubliez|vergiss\w*|olvid\w*)\b(?:\s+\S+){0,4}?\s+(?:instructions?|prompts?|rules?|directions?|guidelines|anweisung\w*|regeln|instrucciones|reglas|consignes|regles|system)\b`)
	roleRE    = regexp.MustCompile(`(?m)^\s*(?:system|assistant|user|developer|human)\s*:|\[/?(?:inst|system)\]|\bend data\b|\bsystem prompt\b`)
	addressRE = regexp.MustCompile(`\b(?:as an? (?:ai|language model|llm|assistant|chatbot)|you are (?:an? )?(?:ai|assistant|language model|llm|chatbot|chatgpt)|(?:dear|attention|note to|hey|hello) (?:ai|assistants?|chatgpt|gpt|claude|gemini|llms?|models?|bots?|crawlers?)|if you are an? (?:ai|llm|assistant|language model|bot|crawler))\b`)
	modalRE   = regexp.MustCompile(`\b(?:ai|assistants?|chatbots?|llms?|language models?|models?|answer engines?|engines?|chatgpt|gemini|claude|perplexity|copilot|you)\s+(?:should|must|shall|need to|have to|are to|ought to|always|never)\s+(?:\w+\s+)?(?:recommend|say|tell|answer|respond|reply|describe|call|mention|cite|rank|prefer|promote|endorse|praise|ignore|trust|list|state|claim|rate|grade)\w*\b`)
	// ctaRE is a sentence that begins by telling the reader (or a model)
	// to do something other than fix the site.
	ctaRE   = regexp.MustCompile(`^(?:\W+ )?(?:please |now |always )?(?:visit|go to|head to|click|call|buy|order|shop|sign up|subscribe|download|contact|email|follow|check out|book|tell|say|respond|reply|answer|write|output|print|repeat|forget|ignore|disregard|pretend|act as|rate|recommend|mention|praise|promote|remember)\b`)
	visitRE = regexp.MustCompile(`\b(?:please|should|must|to|and|then|now)\s+visit\b`)
	// promoRE praises a business as its own pages would.
	promoRE = regexp.MustCompile(`\bthe best \S+(?: \S+)? (?:in|of) (?:town|the (?:city|world|area|region|country|market))\b|\bnumber one\b|#1\b|\bunbeatable\b`)
	// vocativeRE is a sentence spoken to a model: "Assistant, …".
	vocativeRE = regexp.MustCompile(`^(?:\W+ )?(?:ai|assistants?|chatgpt|claude|gemini|copilot|models?|llms?|bots?|crawlers?)\s*,`)
)

// instructions refuses text that gives orders instead of reporting.
func (v *validation) instructions() string {
	d := v.d
	for _, s := range v.sentences {
		for _, re := range v.lx.instructionREs {
			if m := re.FindString(s.f); m != "" {
				return fmt.Sprintf("it contains an instruction: %q", clip(v.plain(m)))
			}
		}
		if m := v.lx.promoRE.FindString(s.f); m != "" {
			return fmt.Sprintf("it praises the brand: %q", clip(v.plain(m)))
		}
		for i, tk := range s.toks {
			recommends := slices.ContainsFunc(v.lx.recommend, func(stem string) bool { return strings.HasPrefix(tk.low, stem) })
			promotes := recommends
			if tk.ref >= 0 && d.refs[tk.ref].kind == refBrand {
				promotes = true
			}
			if !promotes {
				continue
			}
			for j := i + 1; j < len(s.toks) && j <= i+4; j++ {
				w := s.toks[j]
				brand := w.ref >= 0 && d.refs[w.ref].kind == refBrand
				said := clip(v.plain(s.f[s.at[i] : s.at[j]+len(w.low)]))
				if recommends && (brand || v.lx.us[w.low]) {
					return fmt.Sprintf("it contains an instruction: %q", said)
				}
				if !recommends && v.lx.praise[w.low] {
					return fmt.Sprintf("it praises the brand: %q", said)
				}
			}
		}
	}
	return ""
}

// plain puts the names back into a folded excerpt, for a reason.
func (v *validation) plain(f string) string {
	var b strings.Builder
	for _, r := range f {
		if r >= refRune && int(r-refRune) < len(v.d.refs) {
			rf := v.d.refs[r-refRune]
			switch rf.kind {
			case refBrand:
				b.WriteString(v.d.Brand)
			case refCheck:
				b.WriteString(strings.Trim(v.checkName(rf.id), "“”"))
			default:
				b.WriteString(rf.id)
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// clip shortens a phrase quoted in a reason.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

// subject is what a number, grade or judgement is said of: a ring id,
// "overall", or "pillar:" and a pillar id.
type subject string

const overall subject = "overall"

// subjectAt is the subject token i names, or "".
func (v *validation) subjectAt(s sentence, i int) subject {
	tk := s.toks[i]
	if tk.ref >= 0 {
		switch r := v.d.refs[tk.ref]; r.kind {
		case refPillar:
			return subject("pillar:" + r.id)
		case refBrand:
			return overall
		}
		return ""
	}
	low := func(j int) string {
		if j < 0 || j >= len(s.toks) {
			return ""
		}
		return s.toks[j].low
	}
	switch tk.low {
	case "search":
		if low(i-1) == "ai" || strings.HasPrefix(low(i+1), "engine") || strings.HasPrefix(low(i+1), "crawler") ||
			strings.HasPrefix(low(i+1), "bot") || strings.HasPrefix(low(i+1), "result") || strings.HasPrefix(low(i+1), "citation") {
			return ""
		}
		return "search"
	case "visibility":
		return "visibility"
	case "trust":
		switch low(i - 1) {
		case "to", "not", "can", "cannot", "would", "will", "may", "might", "engines", "assistants", "they", "users", "people", "customers":
			return ""
		}
		return "trust"
	case "overall", "site", "website", "total", "global":
		return overall
	}
	return v.langSubject(s, i)
}

// langSubject is the subject a word of the report's language names: a
// ring's name, or the site as a whole. A word that is also a verb or part
// of a longer name is not one ("Nutzer vertrauen", "moteurs de
// recherche", "faire confiance").
func (v *validation) langSubject(s sentence, i int) subject {
	tk := s.toks[i]
	sub, ok := v.lx.ringWords[tk.low]
	if !ok {
		return ""
	}
	low := func(j int) string {
		if j < 0 || j >= len(s.toks) {
			return ""
		}
		return s.toks[j].low
	}
	switch tk.low {
	case "vertrauen":
		if !capitalised(tk.raw) {
			return ""
		}
	case "recherche", "busqueda":
		if low(i-1) == "de" && strings.HasPrefix(low(i-2), "moteur") || strings.HasPrefix(low(i-2), "motor") {
			return ""
		}
	case "confiance":
		switch low(i - 1) {
		case "faire", "font", "fait", "fais", "accorder", "accordent", "accorde":
			return ""
		}
	}
	return sub
}

func capitalised(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// subjectFor is what token i is said of: the nearest subject before it in
// its sentence ("overall" right after it wins: "72.5 overall"), else the
// nearest after it, else the slot's own.
func (v *validation) subjectFor(s sentence, i int) subject { return v.subjectOf(s, i, true) }

// subjectBefore is what token i is said of when only what precedes it can
// say so ("Everything passes: search scores 88" is said of the site).
func (v *validation) subjectBefore(s sentence, i int) subject { return v.subjectOf(s, i, false) }

func (v *validation) subjectOf(s sentence, i int, forward bool) subject {
	for j := i + 1; j < len(s.toks) && j <= i+4; j++ {
		if s.toks[j].low == "overall" {
			return overall
		}
		if !s.toks[j].isNum && s.toks[j].low != "/" && s.toks[j].low != "out" && s.toks[j].low != "of" {
			break
		}
	}
	for j := i - 1; j >= 0; j-- {
		if sub := v.subjectAt(s, j); sub != "" {
			return sub
		}
	}
	for j := i + 1; forward && j < len(s.toks); j++ {
		if sub := v.subjectAt(s, j); sub != "" {
			return sub
		}
	}
	if v.slot == SlotExecutive {
		return overall
	}
	return subject(v.slot)
}

// ringOf is the ring a subject belongs to ("" for overall).
func (v *validation) ringOf(sub subject) string {
	if id, ok := strings.CutPrefix(string(sub), "pillar:"); ok {
		p, _ := scoring.Pillar(id)
		return string(p.Ring)
	}
	if sub == overall {
		return ""
	}
	return string(sub)
}

// label is a subject as a reason names it.
func (v *validation) label(sub subject) string {
	if id, ok := strings.CutPrefix(string(sub), "pillar:"); ok {
		if v.d.Audience == string(api.ReportAudienceEngineering) {
			return "pillar " + id
		}
		p, _ := scoring.Pillar(id)
		return "the " + p.Name + " pillar"
	}
	if sub == overall {
		return "the site"
	}
	return string(sub)
}

// ownRing refuses, in a ring's paragraph, a score or grade said of another
// ring or of a pillar of another ring.
func (v *validation) ownRing(sub subject, what string) string {
	if v.slot == SlotExecutive || sub == overall {
		return ""
	}
	if ring := v.ringOf(sub); ring != v.slot {
		return fmt.Sprintf("it states %s's %s in the %s summary", v.label(sub), what, v.slot)
	}
	return ""
}

// tally is how many checks have each status.
type tally struct{ pass, warn, fail, na, info, err int }

func (t tally) open() int { return t.fail + t.warn + t.err }

// tally counts the checks of a ring by status, or of the report for "".
func (v *validation) tally(ring string) tally {
	if ring == "" {
		c := v.d.Counts
		return tally{c.Pass, c.Warn, c.Fail, c.Na, c.Info, deref(c.Error)}
	}
	var t tally
	for _, c := range v.d.checks {
		if c.ring != ring {
			continue
		}
		switch c.status {
		case "pass":
			t.pass++
		case "warn":
			t.warn++
		case "fail":
			t.fail++
		case "na":
			t.na++
		case "info":
			t.info++
		case "error":
			t.err++
		}
	}
	return t
}

// tensRE is a number past twenty written in words, which only a score
// would need.
var tensRE = regexp.MustCompile(`^(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\S*$`)

var numberWords = map[string]int{
	"no": 0, "none": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}

// countNouns are what a count counts.
var countNouns = map[string]string{
	"check": "checks", "test": "checks", "issue": "issues", "problem": "issues", "finding": "issues", "warning": "warn",
	"failure": "fail", "error": "error", "ring": "rings", "area": "rings", "pillar": "pillars", "gate": "gates",
	"fix": "fixes", "step": "fixes", "action": "fixes", "priority": "fixes",
	"thing": "fixes", "change": "fixes",
}

// singular is an English plural's singular, as far as count nouns need.
func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "ies"):
		return strings.TrimSuffix(w, "ies") + "y"
	case strings.HasSuffix(w, "xes"):
		return strings.TrimSuffix(w, "es")
	}
	return strings.TrimSuffix(w, "s")
}

// statusWord is the status a word of a count claim states ("failing" is
// fail), or "".
func statusWord(w string) string {
	switch {
	case strings.HasPrefix(w, "fail"):
		return "fail"
	case strings.HasPrefix(w, "warn"):
		return "warn"
	case strings.HasPrefix(w, "pass"), strings.HasPrefix(w, "succeed"):
		return "pass"
	case w == "need" || w == "needs" || w == "open" || w == "attention" || w == "fix" || w == "fixing" || w == "work":
		return "open"
	}
	return ""
}

// counts checks every count the text states: "4 checks fail", "10 warn",
// "none of the 12 scored checks pass", "two gates fire".
func (v *validation) counts() string {
	for _, s := range v.sentences {
		for i := range s.toks {
			if why := v.most(s, i); why != "" {
				return why
			}
			tk := &s.toks[i]
			n, isWord := v.lx.numberWords[tk.low]
			if tk.isNum {
				if tk.num != math.Trunc(tk.num) {
					continue
				}
				n = int(tk.num)
			} else if !isWord {
				continue
			}
			j, of := i+1, -1
			at := func(k int) string {
				if k < len(s.toks) {
					return s.toks[k].low
				}
				return ""
			}
			if at(j) == "out" && at(j+1) == "of" {
				j++
			}
			if v.lx.of[at(j)] {
				k := j + 1
				if v.lx.the[at(k)] {
					k++
				}
				switch m, ok := v.lx.numberWords[at(k)]; {
				case k < len(s.toks) && s.toks[k].isNum:
					of, j = int(s.toks[k].num), k+1
				case ok:
					of, j = m, k+1
				default:
					j = k // "none of the checks"
				}
			}
			noun, status := "", ""
			for k := j; k < len(s.toks) && k <= j+2; k++ {
				w := s.toks[k].low
				if s.toks[k].ref >= 0 || s.toks[k].isNum {
					break
				}
				if c := v.lx.countNoun(w); c != "" {
					noun, j = c, k+1
					break
				}
				if st := v.lx.statusWord(w); st != "" && k == j && tk.isNum {
					noun, status, j = "checks", st, k+1
					break
				}
				if st := v.lx.statusWord(w); st != "" {
					status = st
				}
			}
			if noun == "" {
				continue
			}
			// The marketing edition calls a fired gate a critical issue.
			if noun == "issues" && (j >= 2 && v.lx.critical[s.toks[j-2].low] || j < len(s.toks) && v.lx.critical[s.toks[j].low]) {
				noun = "gates"
			}
			for k := j; k < len(s.toks) && k <= j+3 && status == ""; k++ {
				status = v.lx.statusWord(s.toks[k].low)
			}
			// Other languages may put the verb first ("fallan 4
			// comprobaciones").
			for k := i - 1; k >= max(0, i-2) && status == "" && v.lx.lang != i18n.English; k-- {
				status = v.lx.statusWord(s.toks[k].low)
			}
			tk.counted = true
			if of >= 0 && j > i+1 {
				for k := i + 1; k < j; k++ {
					if s.toks[k].isNum {
						s.toks[k].counted = true
					}
				}
			}
			if why := v.count(s, i, n, of, noun, status); why != "" {
				return why
			}
		}
	}
	return ""
}

// most checks "most checks pass" (or fail, warn): more than half of the
// scored checks of what it is said of.
func (v *validation) most(s sentence, i int) string {
	if s.toks[i].low != "most" {
		return ""
	}
	status := ""
	for k := i + 1; k < len(s.toks) && k <= i+6 && status == ""; k++ {
		if s.toks[k].ref >= 0 {
			return ""
		}
		if st := v.lx.statusWord(s.toks[k].low); st == "pass" || st == "fail" || st == "warn" {
			status = st
		}
	}
	if status == "" || !slices.ContainsFunc(s.toks[i+1:min(len(s.toks), i+5)], func(t token) bool { return t.low == "checks" || t.low == "tests" }) {
		return ""
	}
	ring := v.ringOf(v.subjectFor(s, i))
	t := v.tally(ring)
	n := map[string]int{"pass": t.pass, "fail": t.fail, "warn": t.warn}[status]
	if 2*n > t.pass+t.warn+t.fail {
		return ""
	}
	return fmt.Sprintf("it says most checks %s, but %d of %d do%s", status, n, t.pass+t.warn+t.fail, v.in(ring))
}

// count checks one count claim: n things of a kind (noun) with a status,
// out of "of" (-1 when not said).
func (v *validation) count(s sentence, i, n, of int, noun, status string) string {
	sub := v.subjectFor(s, i)
	ring := v.ringOf(sub)
	t := v.tally(ring)
	ok := func(want ...int) bool { return slices.Contains(want, n) }
	totals := []int{t.pass + t.warn + t.fail, t.pass + t.warn + t.fail + t.err, t.pass + t.warn + t.fail + t.na + t.info + t.err}
	if of >= 0 && !slices.Contains(totals, of) {
		return fmt.Sprintf("it counts %d checks%s, but the report has %d", of, v.in(ring), totals[0])
	}
	var good bool
	switch noun {
	case "rings":
		good = n <= 3
		if v.lx.capRE.MatchString(s.f) {
			good = ok(v.cappedRings(), v.gatedRings())
		}
	case "pillars":
		good = n <= len(scoring.Pillars)
	case "gates":
		good = ok(len(v.d.Gates), v.distinctGates(ring))
	case "fixes":
		good = n <= t.open()
	case "warn":
		good = ok(t.warn)
	case "fail":
		good = ok(t.fail)
	case "error":
		good = ok(t.err)
	case "issues":
		good = ok(t.open(), t.fail+t.warn, t.fail)
	default:
		switch status {
		case "pass":
			good = ok(t.pass)
		case "fail":
			good = ok(t.fail)
		case "warn":
			good = ok(t.warn)
		case "open":
			good = ok(t.open(), t.fail+t.warn, t.fail)
		default:
			good = ok(totals...)
		}
	}
	if good {
		return ""
	}
	return fmt.Sprintf("it counts %d %s%s, but the report has %d", n, countLabel(noun, status), v.in(ring), v.want(noun, status, ring, t))
}

// countLabel names what a count claim counts: "failing checks", "issues".
func countLabel(noun, status string) string {
	switch noun {
	case "checks":
		if l, ok := map[string]string{"pass": "passing checks", "fail": "failing checks", "warn": "warning checks", "open": "checks to fix"}[status]; ok {
			return l
		}
	case "fail":
		return "failing checks"
	case "warn":
		return "warning checks"
	case "error":
		return "unmeasured checks"
	}
	return noun
}

// want is the count the report has for what a count claim counts.
func (v *validation) want(noun, status, ring string, t tally) int {
	switch noun {
	case "rings":
		return v.cappedRings()
	case "gates":
		return v.distinctGates(ring)
	case "fail":
		return t.fail
	case "warn":
		return t.warn
	case "error":
		return t.err
	case "issues", "fixes":
		return t.open()
	}
	switch status {
	case "pass":
		return t.pass
	case "fail":
		return t.fail
	case "warn":
		return t.warn
	case "open":
		return t.open()
	}
	return t.pass + t.warn + t.fail
}

func (v *validation) cappedRings() int {
	n := 0
	for _, r := range v.d.Rings {
		if r.CappedBy != "" {
			n++
		}
	}
	return n
}

// gatedRings counts the rings a gate fired on, holding them down or not.
func (v *validation) gatedRings() int {
	rings := map[string]bool{}
	for _, g := range v.d.Gates {
		rings[g.Ring] = true
	}
	return len(rings)
}

// distinctGates counts the gates that fired (on ring, or on any for "").
func (v *validation) distinctGates(ring string) int {
	ids := map[string]bool{}
	for _, g := range v.d.Gates {
		if ring == "" || g.Ring == ring {
			ids[g.ID] = true
		}
	}
	return len(ids)
}

// numbers checks every number not a count: a score of what it is said of,
// or the cap of a gate that fired on it when the sentence speaks of a cap.
func (v *validation) numbers() string {
	all := v.d.numbers()
	for _, s := range v.sentences {
		capped := v.lx.capRE.MatchString(s.f)
		for i, tk := range s.toks {
			if !tk.counted && tensRE.MatchString(tk.low) {
				return fmt.Sprintf("it writes the number %q in words", tk.low)
			}
			if !tk.isNum || tk.counted || tk.denom && tk.num == 100 {
				continue
			}
			sub := v.subjectFor(s, i)
			if why := v.ownRing(sub, "score"); why != "" {
				return why
			}
			want, good := v.score(sub, tk.num, capped)
			if good {
				continue
			}
			if !all[key(tk.num)] {
				return fmt.Sprintf("the number %s is not in the report", tk.raw)
			}
			return fmt.Sprintf("it gives %s a score of %s, but the report says %s", v.label(sub), tk.raw, want)
		}
	}
	return ""
}

// score says whether n is the score of sub (or a cap on it, when the
// sentence speaks of caps), and what the report says.
func (v *validation) score(sub subject, n float64, capped bool) (string, bool) {
	d := v.d
	isCap := func(ring string) bool {
		for _, g := range d.Gates {
			if (ring == "" || g.Ring == ring) && float64(g.Cap) == n {
				return capped
			}
		}
		return false
	}
	if id, ok := strings.CutPrefix(string(sub), "pillar:"); ok {
		for _, r := range d.Rings {
			for _, p := range r.Pillars {
				if p.ID == id && p.Score != nil {
					return strconv.Itoa(*p.Score), float64(*p.Score) == n
				}
			}
		}
		return "no score", false
	}
	if sub == overall {
		return strconv.FormatFloat(d.Overall, 'f', -1, 64), key(n) == key(d.Overall) || key(n) == key(math.Round(d.Overall)) || isCap("")
	}
	r := d.ring(string(sub))
	return strconv.Itoa(r.Score), float64(r.Score) == n || isCap(r.Ring)
}

var (
	gradeLetters = map[string]bool{"A+": true, "A": true, "B": true, "C": true, "D": true, "E": true, "F": true}
	gradeWords   = map[string]bool{
		"grade": true, "grades": true, "graded": true, "rated": true, "rating": true, "note": true, "nota": true,
		"calificacion": true, "mark": true, "earns": true, "earned": true, "gets": true, "got": true, "receives": true,
		"received": true, "achieves": true, "score": true, "scores": true, "scored": true,
	}
)

// grades checks every letter grade: the grade of what it is said of.
func (v *validation) grades() string {
	d := v.d
	in := map[string]bool{d.OverallGrade: true}
	for _, r := range d.Rings {
		in[r.Grade] = true
	}
	for _, s := range v.sentences {
		for i, tk := range s.toks {
			if !gradeLetters[tk.raw] || !v.isGrade(s, i) {
				continue
			}
			g := tk.raw
			if !in[g] {
				return fmt.Sprintf("the grade %s is not in the report", g)
			}
			sub := v.subjectFor(s, i)
			if strings.HasPrefix(string(sub), "pillar:") {
				continue // "Crawl access (A)": pillars have no grade; read as the ring's
			}
			if why := v.ownRing(sub, "grade"); why != "" {
				return why
			}
			want := d.OverallGrade
			if sub != overall {
				want = d.ring(string(sub)).Grade
			}
			if g != want {
				return fmt.Sprintf("it gives %s the grade %s, but the report says %s", v.label(sub), g, want)
			}
		}
	}
	return ""
}

// isGrade says whether the letter at i is a grade: "A+", "(B)", "grade C",
// "rated D", "earns an A", "a B", "F grade".
func (v *validation) isGrade(s sentence, i int) bool {
	if s.toks[i].raw == "A+" {
		return true
	}
	low := func(j int) string {
		if j < 0 || j >= len(s.toks) {
			return ""
		}
		return s.toks[j].low
	}
	lx := v.lx
	switch {
	case low(i-1) == "(" && (low(i+1) == ")" || low(i+1) == ","),
		low(i+1) == "grade" || low(i+1) == "rating" || low(i+1) == "-",
		lx.gradeWords[low(i-1)],
		lx.articles[low(i-1)]:
		return true
	}
	if lx.gradeLinks[low(i-1)] {
		return lx.gradeWords[low(i-2)] || lx.articles[low(i-2)]
	}
	return false
}

var (
	// capRE is a sentence that says a gate caps or holds a score.
	capRE = regexp.MustCompile(`\bcap(?:s|ped|ping)?\b|\bheld\b|\bholds?\b|\blimited to\b|\bceiling\b`)
	// gateRE is a sentence that says a gate fired.
	gateRE = regexp.MustCompile(`\bgates?\b|\bgated\b|\bcritical (?:issue|problem)s?\b`)
	// looseRE says a fired gate does not hold the score down.
	looseRE = regexp.MustCompile(`\b(?:below|under) (?:its|their|the) caps?\b|\bdo(?:es)? not bind\b|\bnot binding\b`)
	// denyRE denies a cap or a fired gate.
	denyRE = regexp.MustCompile(`\b(?:not|never|no longer)\s+(?:\S+\s+)?(?:capped|held|limited|gated)\b|\b(?:no|without(?: a| any)?|zero)\s+(?:\S+\s+)?(?:gates?|caps?|critical (?:issues?|problems?)|ceiling)\b|\buncapped\b|\bnothing\s+(?:caps|holds|limits)\b|\bnone of the gates\b|\bnothing critical\b|\ball (?:the )?gates (?:pass|are clear)\b`)
)

// caps checks what the text says of caps and gates: a cap is claimed only
// of a ring a gate holds down, a fired gate only where one fired, and
// neither is denied where it holds.
func (v *validation) caps() string {
	d := v.d
	for _, s := range v.sentences {
		if m := v.lx.denyRE.FindStringIndex(s.f); m != nil {
			ring := v.ringOf(v.subjectFor(s, s.tokenAt(m[0])))
			for _, g := range d.Gates {
				if ring == "" || g.Ring == ring {
					return fmt.Sprintf("it says %q, but gate %s fired on %s", clip(s.f[m[0]:m[1]]), v.gateName(g), g.Ring)
				}
			}
			continue
		}
		if m := v.lx.capRE.FindStringIndex(s.f); m != nil && !v.lx.looseRE.MatchString(s.f) {
			ring := v.ringOf(v.subjectFor(s, s.tokenAt(m[0])))
			if !v.capped(ring, true) {
				return fmt.Sprintf("it says %q, but no gate holds %s down", clip(s.f[m[0]:m[1]]), v.scope(ring))
			}
		}
		if m := v.lx.gateRE.FindStringIndex(s.f); m != nil {
			ring := v.ringOf(v.subjectFor(s, s.tokenAt(m[0])))
			if !v.capped(ring, false) {
				return fmt.Sprintf("it says %q, but no gate fired on %s", clip(s.f[m[0]:m[1]]), v.scope(ring))
			}
		}
	}
	return ""
}

// capped says whether a gate fired on ring ("" for any), and with binding
// whether it holds the ring's score down.
func (v *validation) capped(ring string, binding bool) bool {
	for _, r := range v.d.Rings {
		if ring != "" && r.Ring != ring {
			continue
		}
		if binding && r.CappedBy != "" {
			return true
		}
		for _, g := range v.d.Gates {
			if !binding && g.Ring == r.Ring {
				return true
			}
		}
	}
	return false
}

func (v *validation) scope(ring string) string {
	if ring == "" {
		return "any ring"
	}
	return ring
}

// gateName is how the edition names a gate: its id for engineers, its
// check's title for marketing.
func (v *validation) gateName(g GateData) string {
	if v.d.Audience == string(api.ReportAudienceEngineering) {
		return g.ID
	}
	return "“" + v.d.checks[g.CheckID].title + "”"
}

var (
	// Praise, by how much of it a grade bears, and "nothing left to do", in
	// English, French, German and Spanish, folded (no diacritics).
	strongPraiseRE = phrases(
		`excellen\w*|outstanding|exceptional\w*|superb|world[- ]class|best[- ]in[- ]class|top[- ]notch|flawless\w*|perfect\w*|`+
			`impeccabl\w*|exemplary|stellar|fantastic|amazing|remarkabl\w*|great (?:shape|job|work|condition)|top (?:shape|form)`,
		`exceptionnel\w*|parfait\w*|remarquable\w*|(?:de )?classe mondiale|magnifique|formidable`,
		`hervorragend\w*|ausgezeichnet\w*|exzellent\w*|perfekt\w*|erstklassig\w*|weltklasse|tadellos\w*|makellos\w*|sehr gut\w*`,
		`excelent\w*|excepcional\w*|impecable\w*|sobresaliente\w*|de primera|(?:de )?clase mundial|estupend\w*`, //nolint:misspell // Spanish
	)
	mildPraiseRE = phrases(
		`great|strong|solid|healthy|impressive|brilliant|ideal(?:ly)?|optimal\w*|loves?|thriv\w*|shines?|excels?|`+
			`ranks? (?:\S+ )?(?:highly|high|well)|good to go|rock[- ]solid|bulletproof|future[- ]proof|`+
			`well (?:prepared|placed|positioned|optimi[sz]ed|set up)|in good (?:shape|condition|health)|(?:is|are|looks?|looking) good|`+
			`good (?:job|work|results?|scores?|position|state|condition|shape)|ready|on track|doing well|well done`,
		`bon(?:ne)? (?:travail|etat|score|resultat)|en bonne (?:sante|forme|voie)|bien (?:prepare|place)\w*|pret(?:e|s|es)?|solide|tres bien`,
		`gut (?:aufgestellt|vorbereitet)|gut|stark|bereit`,
		`bien preparad\w*|list[oa]s?|buen (?:trabajo|estado)|en buena (?:forma|posicion)|preparad[oa]s?|muy bien`,
	)
	completeRE = phrases(
		`fully (?:ready|prepared|optimi[sz]ed|compliant)|all set|nothing (?:urgent|to fix|to do|to improve|fails|failed|is missing|left)|`+
			`no (?:action|changes?|fixes?|work) (?:is |are )?(?:needed|required|necessary)|no (?:issues|problems|failures|failing checks|warnings|gaps|weaknesses)|`+
			`(?:everything|every check|all\b[^.!?;]{0,25}?\bchecks?)\b[^.!?;]{0,30}?\b(?:pass(?:es|ed)?|succeed(?:s|ed)?|(?:is|are|looks?) (?:fine|good|green|in order))`,
		`rien d'urgent|rien a (?:corriger|faire|ameliorer)|aucune? (?:action|probleme|correction)\w*|tout est (?:parfait|en ordre|bon)|(?:entierement|completement|totalement) pret\w*|`+
			`tout (?:est )?(?:reussi|valide|au vert)|`+
			`(?:tous|toutes)\b[^.!?;]{0,25}?\b(?:controles|verifications|tests)\b[^.!?;]{0,30}?\b(?:reussi\w*|passent|valide\w*|au vert|en ordre)`, //nolint:misspell // French
		`nichts dringend\w*|kein\w* handlungsbedarf|keine (?:probleme|mangel|fehler)|alles (?:in ordnung|bestens|perfekt)|(?:vollstandig|vollig|komplett) (?:bereit|optimiert)|`+
			`nichts (?:zu beheben|zu tun|zu verbessern)|alles (?:bestanden|grun|erledigt)|`+
			`(?:alle|samtliche)\b[^.!?;]{0,25}?\b(?:prufungen|checks|tests)\b[^.!?;]{0,30}?\b(?:bestanden|bestehen|erfullt|in ordnung|grun)`,
		`nada urgente|ninguna accion|nada que (?:corregir|hacer|arreglar|mejorar)|ningun problema|sin problemas|todo (?:esta )?(?:perfecto|bien|en orden)|(?:completamente|totalmente) list[oa]s?|`+ //nolint:misspell // Spanish
			`todo (?:esta )?(?:superado|aprobado|en verde)|`+
			`(?:todas|todos)\b[^.!?;]{0,25}?\b(?:comprobaciones|pruebas|verificaciones|controles)\b[^.!?;]{0,30}?\b(?:se superan|superad\w*|aprobad\w*|pasan|estan bien|en orden)`, //nolint:misspell // Spanish
	)
	// negatedRE ends a text whose next words are denied ("far from
	// ready", "not yet excellent").
	negatedRE = regexp.MustCompile(`(?:\bnot|\bnever|\bhardly|\bfar from|\bno longer|\bpas|\bnicht|\bkein\w*|\bnunca|\bjamais|\blejos de|\bloin d\S*|\bneither|\bnor)(?:\s+\S+){0,2}\s*$`)
	notOnlyRE = regexp.MustCompile(`\bnot (?:only|just|merely)\b`)
)

// phrases is a regexp that finds any of the alternatives, one list per
// language, as whole words.
func phrases(lists ...string) *regexp.Regexp {
	return regexp.MustCompile(`\b(?:` + strings.Join(lists, "|") + `)\b`)
}

// tone checks praise against the grade of what it is said of: strong
// praise needs an A, any praise at least a B, and "nothing to fix" a ring
// (or report) with nothing failing or warning.
func (v *validation) tone() string {
	d := v.d
	for _, s := range v.sentences {
		for _, c := range []struct {
			re     *regexp.Regexp
			grades string
		}{{strongPraiseRE, "A+ A"}, {completeRE, ""}, {mildPraiseRE, "A+ A B"}} {
			for _, m := range c.re.FindAllStringIndex(s.f, -1) {
				before := s.f[:m[0]]
				if v.lx.negatedRE.MatchString(before) && !notOnlyRE.MatchString(before[max(0, len(before)-20):]) {
					continue
				}
				ring := v.ringOf(v.subjectBefore(s, s.tokenAt(m[0])))
				if c.re == completeRE {
					// "all of trust's checks pass" is said of trust.
					for i := s.tokenAt(m[0]); i < len(s.toks) && s.at[i] < m[1]; i++ {
						if sub := v.subjectAt(s, i); sub != "" {
							ring = v.ringOf(sub)
						}
					}
				}
				said := clip(v.plain(s.f[m[0]:m[1]]))
				if c.re == completeRE {
					if t := v.tally(ring); t.open() > 0 {
						return fmt.Sprintf("it says %q, but %d checks fail and %d warn%s", said, t.fail, t.warn, v.in(ring))
					}
					continue
				}
				grade, whose := d.OverallGrade, "the overall grade is "
				if ring != "" {
					grade, whose = d.ring(ring).Grade, ring+" is graded "
				}
				if !strings.Contains(" "+c.grades+" ", " "+grade+" ") {
					return fmt.Sprintf("it says %q, but %s%s", said, whose, grade)
				}
			}
		}
	}
	return ""
}

func (v *validation) in(ring string) string {
	if ring == "" {
		return ""
	}
	return " in " + ring
}

var (
	bestRE  = regexp.MustCompile(`\bstrongest\b|\b(?:best|highest)\s+(?:ring|area|score|performer|of the (?:three|rings|areas))\b|\b(?:is|are|as|remains|stays)\s+(?:the\s+)?(?:best|highest)\b|\bleads\b`)
	worstRE = regexp.MustCompile(`\bweakest\b|\b(?:worst|lowest)\s+(?:ring|area|score|performer|of the (?:three|rings|areas))\b|\b(?:is|are|as|remains|stays)\s+(?:the\s+)?(?:worst|lowest)\b|\blags\b|\btrails\b|\bneeds the most work\b`)
)

// ranks checks "strongest" and "weakest": said of a ring, it must score
// highest (or lowest), ties included.
func (v *validation) ranks() string {
	d := v.d
	for _, s := range v.sentences {
		for _, c := range []struct {
			re   *regexp.Regexp
			best bool
		}{{v.lx.bestRE, true}, {v.lx.worstRE, false}} {
			for _, m := range c.re.FindAllStringIndex(s.f, -1) {
				ring := v.nearestRing(s, s.tokenAt(m[0]))
				if v.lx.lang != i18n.English {
					// "Die Suche ist mit 88 am stärksten und …": the ring
					// the clause opens with.
					ring = cmp.Or(v.ringBefore(s, s.tokenAt(m[0])), ring)
				}
				if ring == "" {
					continue
				}
				score := d.ring(ring).Score
				for _, r := range d.Rings {
					if c.best && r.Score > score {
						return fmt.Sprintf("it calls %s the strongest ring, but %s scores higher", ring, r.Ring)
					}
					if !c.best && r.Score < score {
						return fmt.Sprintf("it calls %s the weakest ring, but %s scores lower", ring, r.Ring)
					}
				}
			}
		}
	}
	return ""
}

// ringBefore is the ring named before token i in its clause, or "".
func (v *validation) ringBefore(s sentence, i int) string {
	for j := i - 1; j >= 0; j-- {
		if w := s.toks[j].low; v.lx.clauseBreaks[w] || v.lx.listWords[w] {
			return ""
		}
		if sub := v.subjectAt(s, j); sub != "" && sub != overall && !strings.HasPrefix(string(sub), "pillar:") {
			return string(sub)
		}
	}
	return ""
}

// nearestRing is the ring named nearest token i in its sentence, or "".
func (v *validation) nearestRing(s sentence, i int) string {
	for dist := 0; dist < len(s.toks); dist++ {
		for _, j := range []int{i - dist, i + dist} {
			if j < 0 || j >= len(s.toks) {
				continue
			}
			if sub := v.subjectAt(s, j); sub != "" && sub != overall && !strings.HasPrefix(string(sub), "pillar:") {
				return string(sub)
			}
		}
	}
	return ""
}

var (
	// directiveRE is a sentence that asks for work on what it names.
	directiveRE = regexp.MustCompile(`\b(?:fix|fixing|improve|improving|add|adding|address|addressing|repair|resolve|resolving|publish|enable|allow|remove|removing|start with|needs?|should|must|requires?|work on|priorit\w*|make sure|ensure)\b`)
	// noWorkRE is a sentence that says there is nothing to do about what
	// it names.
	noWorkRE = regexp.MustCompile(`\bno (?:need|reason) to\b|\b(?:does|do|need) not need\b|\bneed not\b|\bno longer (?:needs?|requires?)\b|\bnothing to (?:fix|do|improve)\b`)
	// goodNewsRE is a sentence that announces what works.
	goodNewsRE = regexp.MustCompile(`\b(?:good|great) news\b|\bon the plus side\b|\bthe good part\b`)
	negWords   = map[string]bool{
		"not": true, "no": true, "never": true, "none": true, "nothing": true, "without": true, "cannot": true, "missing": true,
		"miss": true, "misses": true, "lacks": true, "lack": true, "lacking": true, "absent": true, "blocked": true, "blocks": true,
		"block": true, "blocking": true, "broken": true, "wrong": true, "wrongly": true, "incorrect": true, "incorrectly": true,
		"free": true, "invalid": true, "incomplete": true, "inaccurate": true, "insecure": true, "outdated": true, "stale": true, "weak": true,
		"poor": true, "poorly": true, "slow": true, "unknown": true, "unable": true, "unclear": true, "unreadable": true,
		"unreachable": true, "unavailable": true, "problem": true, "problems": true, "issue": true, "issues": true, "gap": true,
		"gaps": true, "error": true, "errors": true, "critical": true,
		"fails": true, "fail": true, "failed": true, "failing": true, "warns": true, "warn": true, "warning": true,
	}
	posWords = map[string]bool{
		"works": true, "working": true, "fine": true, "ok": true, "okay": true, "good": true, "great": true, "healthy": true,
		"correct": true, "correctly": true, "valid": true, "known": true, "recognised": true, "recognized": true, "allowed": true,
		"present": true, "clean": true, "secure": true, "fast": true, "quick": true, "solid": true, "strong": true,
		"complete": true, "succeeds": true, "succeeded": true, "green": true, "passes": true, "passed": true, "pass": true,
		"place": true, "available": true, "configured": true, "enabled": true, "published": true, "listed": true,
		"declared": true, "provided": true, "visible": true, "reachable": true, "indexable": true,
	}
	clauseBreaks = map[string]bool{
		",": true, "(": true, ")": true, "—": true, "–": true, "but": true, "because": true, "while": true,
		"whereas": true, "although": true, "though": true, "however": true, "yet": true, "since": true, "so": true, "which": true,
	}
	// negators deny; the other negative words state a state ("missing").
	negators = map[string]bool{"not": true, "no": true, "never": true, "none": true, "nothing": true, "without": true, "cannot": true, "free": true}
	// presenceWords may surround a marketing title said as a fact.
	presenceWords = map[string]bool{
		"your": true, "the": true, "a": true, "an": true, "site": true, "has": true, "have": true, "with": true, "there": true,
		"is": true, "are": true, "its": true, "their": true, "it": true, "this": true, "homepage": true, "page": true,
		"pages": true, "includes": true, "provides": true, "offers": true, "shows": true, "now": true, "already": true,
		"and": true, "also": true, "website": true, "every": true, "all": true,
	}
	// listWords may join the names of a list that takes its sentence's
	// status word.
	listWords   = map[string]bool{"and": true, "or": true, "then": true, "also": true, "plus": true, "as": true, "well": true}
	quantifiers = map[string]bool{
		"all": true, "every": true, "everything": true, "none": true, "nothing": true, "no": true, "most": true, "many": true,
		"several": true, "some": true, "few": true, "other": true, "others": true, "remaining": true, "both": true, "each": true,
		"checks": true, "tests": true, "rest": true, "only": true,
	}
)

// claim is what a sentence says of a check: "pass", "fail", "warn", or
// "open" (needs work: fails, warns or could not be measured).
type claim string

// claims checks what the text says of each check it names — by id, by a
// title of either edition, or in other words — against its status, and
// refuses a claim of a check's state that names none of the report's.
func (v *validation) claims() string {
	for _, s := range v.sentences {
		// What the sentence as a whole asks for: work ("fix X first"), none
		// ("no need to fix X"), or it announces what works ("good news: X").
		var lead claim
		switch {
		case v.lx.noWorkRE.MatchString(s.f):
			lead = "pass"
		case v.lx.directiveRE.MatchString(s.f):
			lead = "open"
		}
		good := v.lx.goodNewsRE.MatchString(s.f)
		start := 0
		for end := 0; end <= len(s.toks); end++ {
			if end < len(s.toks) && !v.lx.clauseBreaks[s.toks[end].low] {
				continue
			}
			if why := v.clause(s, start, end, lead, good); why != "" {
				return why
			}
			start = end + 1
		}
	}
	return ""
}

// verbAt is the pass, fail or warn said of the name at token from, by the
// nearest status word in tokens [a, b) (one after it first), with what
// negates or qualifies it; "" when there is none. A language may deny or
// qualify a status word after it ("besteht nicht", "réussit
// partiellement").
func (v *validation) verbAt(s sentence, a, b, from int) claim {
	lx := v.lx
	best, at := claim(""), -1
	for i := a; i < b; i++ {
		st := lx.statusWord(s.toks[i].low)
		if st == "" || st == "open" || s.toks[i].counted {
			continue
		}
		if at >= 0 && abs(i-from) >= abs(at-from) && (i < from || at > from) {
			continue
		}
		c := claim(st)
		deny := func() { c = map[claim]claim{"pass": "open", "fail": "pass", "warn": "pass"}[c] }
		for k := max(a, i-2); k < i; k++ {
			switch w := s.toks[k].low; {
			case lx.preNeg[w] || lx.lang == "fr" && strings.HasPrefix(w, "n'"):
				deny()
			case lx.partly[w]:
				c = "warn" // "only partly passes"
			}
		}
		for k := i + 1; k < min(b, i+3); k++ {
			switch w := s.toks[k].low; {
			case lx.postNeg[w]:
				deny()
			case lx.partly[w] && lx.lang != i18n.English:
				c = "warn"
			}
		}
		best, at = c, i
	}
	return best
}

// clause checks the claims of the tokens [a, b) of a sentence.
func (v *validation) clause(s sentence, a, b int, lead claim, good bool) string {
	d := v.d
	type named struct {
		ids        []string
		at         int
		paraphrase bool
		statement  bool
		quoted     bool
	}
	var refs []named
	var words []string
	for i := a; i < b; i++ {
		tk := s.toks[i]
		if tk.ref >= 0 {
			if r := d.refs[tk.ref]; r.kind == refCheck {
				refs = append(refs, named{ids: []string{r.id}, at: i, statement: r.statement, quoted: tk.quoted})
			}
			continue
		}
		if wordRE.MatchString(tk.low) && !tk.isNum {
			words = append(words, tk.low)
		}
	}
	weak := false
	if len(refs) == 0 {
		if ids, n := v.paraphrase(words); len(ids) > 0 {
			refs = append(refs, named{ids: ids, at: a, paraphrase: true})
			weak = n == 1
		}
	}
	lx := v.lx
	neg, pos, state, other, list, present := 0, 0, 0, 0, true, true
	for _, w := range words {
		switch {
		case lx.negWords[w]:
			neg++
			if !lx.negators[w] {
				state++
			}
		case lx.posWords[w]:
			pos++
			state++
		case !nameStop[w] && !lx.quantifiers[w]:
			other++
		}
		list = list && lx.listWords[w]
		present = present && lx.presenceWords[w]
	}
	if len(refs) == 0 {
		for i := a; i < b; i++ {
			tk := s.toks[i]
			if st := lx.statusWord(tk.low); st != "" && st != "open" && !tk.counted && !slices.ContainsFunc(words, func(w string) bool { return lx.quantifiers[w] }) {
				if prev := i - 1; prev >= a && (s.toks[prev].counted || s.toks[prev].isNum) {
					continue
				}
				return fmt.Sprintf("it says something %s without naming a check of the report", tk.low)
			}
		}
		return ""
	}
	for _, r := range refs {
		c := v.verbAt(s, a, b, r.at)
		if c == "" && list {
			// A list of names ("Failing: hsts, mixed_content") takes the
			// sentence's status word.
			c = v.verbAt(s, 0, len(s.toks), r.at)
		}
		switch {
		case c != "":
		case lead != "":
			c = lead
		case r.paraphrase && (!weak || state > 0):
			c = "pass"
			if neg != v.titleNeg(r.ids) {
				c = "open"
			}
		case good:
			c = "pass"
		case neg > 0:
			c = "open"
		case pos > 0:
			c = "pass"
		case r.statement && !r.quoted && present:
			// A marketing title said as a fact: "Sitemap is published",
			// "your site has a privacy policy and terms".
			c = "pass"
		}
		if c == "" {
			continue
		}
		if why := v.verify(r.ids, c); why != "" {
			return why
		}
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// titleNeg is how many negative words the marketing titles of ids use
// ("No hidden instructions to AI tools" has one), so a paraphrase that
// uses as many states the passing state.
func (v *validation) titleNeg(ids []string) int {
	n := 0
	for _, w := range wordRE.FindAllString(fold(v.d.checks[ids[0]].marketing), -1) {
		if negWords[w] {
			n++
		}
	}
	return n
}

// paraphrase finds the checks a clause speaks of in other words: those
// whose titles share the most keywords with it, at least one of them in
// at most three checks' titles. n is how many they share: one (a word
// like "sitemap", in at most two checks' titles and no ring's name) is a
// weak match, read only with a word that states a state.
func (v *validation) paraphrase(words []string) (ids []string, n int) {
	d := v.d
	for _, id := range slices.Sorted(maps.Keys(d.keywords)) {
		k, topic, distinctive, rare := 0, 0, false, false
		for _, w := range slices.Compact(slices.Sorted(slices.Values(words))) {
			i := slices.IndexFunc(d.keywords[id], func(kw string) bool { return sameWord(w, kw) })
			if i < 0 {
				continue
			}
			k++
			// A word that states a state ("reachable", "missing") is a
			// claim; at least one other must say what it is a claim of.
			if kw := d.keywords[id][i]; !v.lx.posWords[kw] && !v.lx.negWords[kw] {
				topic++
				distinctive = distinctive || d.common[kw] <= 3
				rare = rare || d.common[kw] <= 2 && d.ring(kw).Ring == ""
			}
		}
		if topic == 0 || !distinctive || k < max(n, 1) || k == 1 && !rare {
			continue
		}
		if k > n {
			ids, n = nil, k
		}
		ids = append(ids, id)
	}
	return ids, n
}

// verify checks a claim about the checks ids (several when a paraphrase
// fits more than one equally): a pass must be true of all of them, a need
// for work of one.
func (v *validation) verify(ids []string, c claim) string {
	d := v.d
	fits := func(st string) bool {
		switch c {
		case "pass":
			return st == "pass"
		case "open":
			return st == "fail" || st == "warn" || st == "error"
		}
		return st == string(c)
	}
	var wrong string
	for _, id := range ids {
		ok := fits(d.checks[id].status)
		if c == "pass" && !ok {
			wrong = id
			break
		}
		if c != "pass" && ok {
			return ""
		}
		if c != "pass" && wrong == "" {
			wrong = id
		}
	}
	if c == "pass" && wrong == "" {
		return ""
	}
	verb := map[claim]string{"pass": "passes", "fail": "fails", "warn": "warns", "open": "needs work"}[c]
	return fmt.Sprintf("it says %s %s, but its status is %s", v.checkName(wrong), verb, d.checks[wrong].status)
}

func key(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', 1, 64) }

func (d SummaryData) ring(id string) RingData {
	for _, r := range d.Rings {
		if r.Ring == id {
			return r
		}
	}
	return RingData{}
}

// numbers are every number of the data: scores, caps and counts, and 100
// (out of 100); a number that is none of them is invented.
func (d SummaryData) numbers() map[string]bool {
	out := map[string]bool{}
	add := func(v float64) { out[key(v)] = true }
	add(d.Overall)
	add(math.Round(d.Overall))
	add(100)
	for _, r := range d.Rings {
		add(float64(r.Score))
		for _, p := range r.Pillars {
			if p.Score != nil {
				add(float64(*p.Score))
			}
		}
	}
	for _, g := range d.Gates {
		add(float64(g.Cap))
	}
	c := d.Counts
	for _, n := range []int{c.Pass, c.Warn, c.Fail, c.Na, c.Info, c.Pass + c.Warn + c.Fail, c.Pass + c.Warn + c.Fail + c.Na + c.Info, len(d.Findings)} {
		add(float64(n))
	}
	if c.Error != nil {
		add(float64(*c.Error))
	}
	return out
}
