package mentions

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
)

// Matcher finds a brand in answers: its name, its aliases and its domain,
// as whole words. Matching is case-aware: a distinctive name ("Millbrook
// Bakery") matches in any case; an all-capitals short name ("IBM") only in
// capitals; a name that is an ordinary word ("Monday", "Notion") only
// capitalised and in brand context (see brandContext), so "see you on
// monday" and "zoom in" are not mentions.
type Matcher struct {
	names    []name
	domain   string // registrable domain, lower case
	domainRE *regexp.Regexp
}

type name struct {
	text     string
	tokens   []string // lower case
	acronym  bool     // one all-capitals token of 2–5 letters
	ordinary bool     // one token that is a common English word
	allWords bool     // several tokens, each a common English word
}

// NewMatcher builds the matcher of a brand, its aliases and its site host.
func NewMatcher(brand string, aliases []string, host string) *Matcher {
	m := &Matcher{domain: RegistrableDomain(host)}
	if m.domain != "" {
		// A host name ending in the domain, not followed by more of a
		// host ("example.com.evil.test") and not glued to a longer label.
		m.domainRE = regexp.MustCompile(`(?i)(?:^|[^a-z0-9.-])((?:[a-z0-9-]+\.)*` + regexp.QuoteMeta(m.domain) + `)(?:$|[^a-z0-9.-]|\.(?:$|[^a-z0-9-]))`)
	}
	seen := map[string]bool{}
	for _, n := range append([]string{brand}, aliases...) {
		n = strings.TrimSpace(n)
		toks := words(n)
		if len(toks) == 0 {
			continue
		}
		low := make([]string, len(toks))
		for i, t := range toks {
			low[i] = strings.ToLower(t.text)
		}
		key := strings.Join(low, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		nm := name{text: n, tokens: low}
		if len(toks) == 1 {
			t := toks[0].text
			nm.acronym = utf8.RuneCountInString(t) >= 2 && utf8.RuneCountInString(t) <= 5 && strings.ToUpper(t) == t && strings.ToLower(t) != t
			nm.ordinary = !nm.acronym && commonWords[low[0]]
		} else {
			nm.allWords = true
			for _, t := range low {
				if !commonWords[t] {
					nm.allWords = false
				}
			}
		}
		m.names = append(m.names, nm)
	}
	return m
}

// Domain is the registrable domain the matcher looks for.
func (m *Matcher) Domain() string { return m.domain }

// token is a run of letters and digits with its byte offsets.
type token struct {
	text       string
	start, end int
}

func words(s string) []token {
	var out []token
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, token{s[start:i], start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, token{s[start:], start, len(s)})
	}
	return out
}

// Mentions reports whether text mentions the brand, and the byte offset
// of the first mention (-1 when none).
func (m *Matcher) Mentions(text string) (bool, int) {
	first := -1
	note := func(at int) {
		if first < 0 || at < first {
			first = at
		}
	}
	if at := m.domainAt(text); at >= 0 {
		note(at)
	}
	toks := words(text)
	for _, n := range m.names {
		for i := 0; i+len(n.tokens) <= len(toks); i++ {
			if !m.matchAt(text, toks, i, n) {
				continue
			}
			note(toks[i].start)
			break
		}
	}
	return first >= 0, first
}

// Names reports whether a name taken from an answer's list is the brand:
// it contains one of the brand's names or its domain. The list position
// already makes it a name, so no context is asked for.
func (m *Matcher) Names(listed string) bool {
	if m.domainAt(listed) >= 0 {
		return true
	}
	toks := words(listed)
	for _, n := range m.names {
		for i := 0; i+len(n.tokens) <= len(toks); i++ {
			ok := true
			for j, want := range n.tokens {
				if strings.ToLower(toks[i+j].text) != want {
					ok = false
					break
				}
			}
			if ok && (!n.acronym || toks[i].text == strings.ToUpper(toks[i].text)) {
				return true
			}
		}
	}
	return false
}

func (m *Matcher) matchAt(text string, toks []token, i int, n name) bool {
	for j, want := range n.tokens {
		tt := toks[i+j]
		if strings.ToLower(tt.text) != want {
			return false
		}
		// Tokens of a name are adjacent: at most a space, hyphen or
		// similar between them, not a sentence break.
		if j > 0 {
			gap := text[toks[i+j-1].end:tt.start]
			if len(gap) > 2 || strings.ContainsAny(gap, ".!?\n,;:") {
				return false
			}
		}
	}
	first := toks[i].text
	switch {
	case n.acronym:
		return first == strings.ToUpper(first)
	case n.allWords:
		for j := range n.tokens {
			if !capitalised(toks[i+j].text) {
				return false
			}
		}
		return true
	case n.ordinary:
		return capitalised(first) && m.brandContext(text, toks, i)
	}
	return true
}

func capitalised(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// contextWords next to an ordinary-word brand mark it as a name, in the
// languages the questions are asked in: an answer in German, French or
// Spanish names a brand with its own words ("die Firma", "la marque").
//
//nolint:misspell // German, French and Spanish words
var contextWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		app apps platform software tool tools company brand inc ltd llc gmbh corp corporation
		service website startup store shop co plc saas product products offers provides founded
		firma unternehmen marke plattform anbieter dienst onlineshop produkt produkte bietet gegründet ag kg
		entreprise société societe marque plateforme logiciel outil boutique fournisseur propose fondée fondee sarl
		empresa marca plataforma herramienta tienda proveedor servicio producto productos ofrece fundada sl
	`) {
		m[w] = true
	}
	return m
}()

// brandContext reports whether the capitalised ordinary word at toks[i]
// is used as a name: it heads a list item, is bold or quoted, carries a
// trade-mark sign, stands next to a word like "app" or "Inc", or shares
// its sentence with the brand's domain. A capital at the start of a
// sentence alone proves nothing.
func (m *Matcher) brandContext(text string, toks []token, i int) bool {
	t := toks[i]
	lineStart := strings.LastIndexByte(text[:t.start], '\n') + 1
	before := strings.TrimSpace(text[lineStart:t.start])
	if listHead.MatchString(before) {
		return true
	}
	after := text[t.end:]
	if strings.HasPrefix(after, "**") || strings.HasPrefix(after, "\"") || strings.HasPrefix(after, "”") ||
		strings.HasPrefix(after, "™") || strings.HasPrefix(after, "®") || strings.HasPrefix(after, "'s ") {
		return true
	}
	if strings.HasSuffix(before, "**") || strings.HasSuffix(before, "\"") || strings.HasSuffix(before, "“") {
		return true
	}
	if i+1 < len(toks) && contextWords[strings.ToLower(toks[i+1].text)] && len(text[t.end:toks[i+1].start]) <= 2 {
		return true
	}
	if i > 0 && contextWords[strings.ToLower(toks[i-1].text)] && len(text[toks[i-1].end:t.start]) <= 2 {
		return true
	}
	s, e := sentenceAround(text, t.start)
	return m.domain != "" && m.domainAt(text[s:e]) >= 0
}

// listHead matches what precedes a name that opens a list item: a bullet
// or a number, optionally bold.
var listHead = regexp.MustCompile(`^(?:[-*•]|\d{1,2}[.)])\s*(?:\*\*)?$`)

func sentenceAround(text string, at int) (int, int) {
	s := strings.LastIndexAny(text[:at], ".!?\n") + 1
	e := strings.IndexAny(text[at:], ".!?\n")
	if e < 0 {
		return s, len(text)
	}
	return s, at + e
}

// domainAt finds the registrable domain (or a subdomain of it) as a whole
// host name in text; -1 when absent.
func (m *Matcher) domainAt(text string) int {
	if m.domainRE == nil {
		return -1
	}
	loc := m.domainRE.FindStringSubmatchIndex(text)
	if loc == nil {
		return -1
	}
	return loc[2]
}

// RegistrableDomain is host's registrable domain ("example.co.uk" for
// "www.shop.example.co.uk"), lower case; the host itself when it has none.
func RegistrableDomain(host string) string {
	host = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(host), "."))
	if h, _, ok := strings.Cut(host, ":"); ok && !strings.Contains(h, ":") {
		host = h
	}
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return strings.TrimPrefix(host, "www.")
}

// OnDomain reports whether a URL's host is the domain or a subdomain of it.
func OnDomain(rawURL, domain string) bool {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || domain == "" {
		return false
	}
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	return h == domain || strings.HasSuffix(h, "."+domain)
}

// CleanURL drops tracking parameters (utm_*, and the click ids engines and
// ad platforms add) and the fragment, for evidence and matching.
func CleanURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(raw)
	}
	q := u.Query()
	for k := range q {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "utm_") || lk == "gclid" || lk == "fbclid" || lk == "msclkid" || lk == "ref" || lk == "ref_src" {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	u.Fragment = ""
	return u.String()
}

// noInformation matches answers that say the model does not know the
// subject: such an answer is not a mention, whatever names it repeats. It
// reads English, German, French and Spanish, the languages the questions
// are asked in; a model may answer in any of them, whatever it was asked in.
//
//nolint:misspell // German, French and Spanish words
var noInformation = regexp.MustCompile(`(?i)` +
	`\bi\s+(?:do\s+not|don't|don’t|cannot|can't|can’t|could\s+not|couldn't|couldn’t)\s+(?:have|find|locate|provide|access|verify)\s+(?:any\s+|specific\s+|reliable\s+|much\s+|enough\s+|detailed\s+|verified\s+|concrete\s+|current\s+)*(?:information|details|data|knowledge|records?)` +
	`|\bi(?:'m|’m|\s+am)\s+not\s+(?:familiar|aware)\s+(?:with|of)` +
	`|\bi(?:'m|’m|\s+am)\s+not\s+sure\s+what\b` +
	`|\b(?:no|not\s+enough|insufficient)\s+(?:specific\s+|reliable\s+|public(?:ly\s+available)?\s+|verifiable\s+)?information\s+(?:about|on|regarding)\b` +
	`|\bi\s+(?:do\s+not|don't|don’t)\s+(?:know|recogni[sz]e)\b` +
	`|\bnot\s+(?:something|a\s+(?:company|brand|business|name))\s+(?:i\s+(?:know|recogni[sz]e)|i'm\s+familiar\s+with)` +
	`|\bdoes\s+not\s+appear\s+in\s+my\s+(?:training|knowledge)` +
	// German
	`|\b(?:ich\s+(?:habe|besitze|finde)|(?:habe|besitze|finde)\s+ich)\s+(?:leider\s+)?(?:keine|kaum)\s+(?:\S+\s+){0,2}?(?:informationen|angaben|daten|kenntnisse)` +
	`|\b(?:mir\s+)?(?:liegen|sind)\s+(?:mir\s+)?(?:leider\s+)?keine\s+(?:\S+\s+){0,2}?(?:informationen|angaben|daten)\s+(?:\S+\s+){0,3}?(?:vor|bekannt)\b` +
	`|\bich\s+(?:bin|kenne)\s+(?:\S+\s+){0,3}?nicht\s+(?:vertraut|bekannt)\b` +
	`|\bist\s+mir\s+(?:leider\s+)?(?:nicht\s+bekannt|unbekannt)\b` +
	`|\bich\s+kenne\s+(?:\S+\s+){1,3}?nicht(?:\s*[.,;!]|$)` +
	// French
	`|\bje\s+(?:n'|n’|ne\s+)(?:ai|dispose|possède|trouve)\s+(?:pas|aucune?)\s+(?:d'|d’|de\s+)?(?:\S+\s+){0,2}?(?:informations?|données|renseignements)` +
	`|\bje\s+ne\s+connais\s+pas\b|\bje\s+ne\s+suis\s+pas\s+(?:familier|familière|au\s+courant)\b` +
	`|\b(?:aucune|pas\s+d'|pas\s+d’|pas\s+assez\s+d'|pas\s+assez\s+d’)\s*(?:\S+\s+){0,2}?informations?\s+(?:\S+\s+){0,2}?(?:sur|concernant|à\s+propos)\b` +
	// Spanish
	`|\bno\s+(?:tengo|dispongo\s+de|encuentro|cuento\s+con)\s+(?:\S+\s+){0,2}?(?:información|informacion|datos|conocimiento)` +
	`|\bno\s+(?:conozco|estoy\s+familiarizad[oa])\b` +
	`|\b(?:no\s+hay|sin)\s+(?:suficiente\s+)?información\s+(?:\S+\s+){0,2}?(?:sobre|acerca\s+de)\b`)

// SaysNoInformation reports an answer that declines for lack of knowledge.
func SaysNoInformation(text string) bool { return noInformation.MatchString(text) }

// namedBrand finds a name that opens a list item or is set in bold.
var (
	boldName   = regexp.MustCompile(`\*\*([^*\n]{2,60})\*\*`)
	listItemRE = regexp.MustCompile(`(?m)^\s*(?:[-*•]|\d{1,2}[.)])\s+(?:\*\*)?([^\n]{2,200})`)
)

// NamedBrands lists the names an answer recommends, in order: the bold
// names and the leading name of each list item (up to a dash, colon,
// comma or parenthesis), at most five words each and capitalised. It is a
// reading of common answer layouts, not entity recognition: it is used to
// show who else is named and where the brand ranks, never to score.
func NamedBrands(text string) []string {
	type hit struct {
		at   int
		name string
	}
	var hits []hit
	add := func(at int, s string) {
		s = strings.TrimSpace(strings.Trim(s, "*_`\"“”' "))
		if s == "" || !capitalised(s) || len(strings.Fields(s)) > 5 || len(s) > 60 {
			return
		}
		hits = append(hits, hit{at, s})
	}
	for _, m := range listItemRE.FindAllStringSubmatchIndex(text, -1) {
		item := text[m[2]:m[3]]
		cut := len(item)
		for _, sep := range []string{"**", " – ", " — ", " - ", ":", ",", " (", ". "} {
			if i := strings.Index(item, sep); i > 0 && i < cut {
				cut = i
			}
		}
		add(m[2], item[:cut])
	}
	for _, m := range boldName.FindAllStringSubmatchIndex(text, -1) {
		add(m[2], text[m[2]:m[3]])
	}
	// In order of appearance, each name once.
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].at < hits[j-1].at; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, h := range hits {
		k := strings.ToLower(h.name)
		if !seen[k] {
			seen[k] = true
			out = append(out, h.name)
		}
	}
	return out
}
