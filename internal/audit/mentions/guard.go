package mentions

// What a site says and what a model claims about it are checked here
// before either is used. A site controls its own text, and a model may do
// what that text tells it to: so a value read from the site must have the
// shape of what it stands for (a category is a short noun phrase, a year
// is four digits) and, before it goes into a buyer question, be found in
// what a visitor sees; and a judge's verdict counts only when the words
// it quotes are in the description it judged.

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// fold is text as compared: compatibility forms unified (full-width
// letters, ligatures), accents removed, lower case.
func fold(s string) string {
	t := transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// unspaced reports a letter of a script written without spaces between
// words: a run of them is compared as a substring, not as a word.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// terms are the folded words of s; a run of an unspaced script is one
// term.
func terms(s string) []string {
	var out []string
	for _, t := range words(fold(s)) {
		out = append(out, t.text)
	}
	return out
}

func isUnspaced(term string) bool {
	for _, r := range term {
		if unspaced(r) {
			return true
		}
	}
	return false
}

// sentenceEndRE ends a sentence: a full stop, question or exclamation
// mark or semicolon before a space or the end, a CJK one anywhere, or a
// line break.
var sentenceEndRE = regexp.MustCompile(`[。！？；]+|[.!?;]+(?:\s+|$)|\n+`)

// corpus is the visible text of the pages read, as distinct sentences of
// folded terms.
type corpus struct {
	sentences []string // " term term … ", each once
}

func newCorpus(pages []string) *corpus {
	c := &corpus{}
	seen := map[string]bool{}
	for _, p := range pages {
		for _, s := range sentenceEndRE.Split(p, -1) {
			ts := terms(s)
			if len(ts) == 0 {
				continue
			}
			k := " " + strings.Join(ts, " ") + " "
			if !seen[k] {
				seen[k] = true
				c.sentences = append(c.sentences, k)
			}
		}
	}
	return c
}

// count is the number of distinct sentences a term occurs in, as a word
// or a form of it (as a substring in an unspaced script).
func (c *corpus) count(term string) int {
	n := 0
	for _, s := range c.sentences {
		if isUnspaced(term) && strings.Contains(s, term) || strings.Contains(s, " "+term+" ") {
			n++
			continue
		}
		for _, w := range strings.Fields(s) {
			if inflected(term, w) {
				n++
				break
			}
		}
	}
	return n
}

// inflected reports two words that differ only in an ending of at most
// two letters (bun and buns, pain and pains, Brot and Brote, хлеб and
// хлеба): the extraction may name in the plural what the page lists in
// the singular. The shorter must have at least three letters, so no
// short word stands for a longer one.
func inflected(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	return len(ra) >= 3 && len(rb)-len(ra) <= 2 && string(rb[:len(ra)]) == string(ra)
}

// minSentences is how many distinct sentences of the visible text each
// word of a value read from the site must occur in. A phrase planted once
// (an injected paragraph) does not reach it; the words a business uses
// for what it sells recur across its pages.
const minSentences = 2

// supported returns why value is not supported by the visible text, ""
// when every word of it occurs in at least minSentences sentences.
func (c *corpus) supported(value string) string {
	ts := terms(value)
	if len(ts) == 0 {
		return "it has no words"
	}
	for _, t := range ts {
		switch n := c.count(t); {
		case n == 0:
			return "a word of it is not in the visible text of the pages read"
		case n < minSentences:
			return "a word of it occurs in only one sentence of the visible text of the pages read"
		}
	}
	return ""
}

// The shape of a short phrase: a category, an offer, a place or a name.
const (
	maxPhraseWords = 6
	maxPhraseRunes = 60
	maxNameWords   = 10
	maxNameRunes   = 80
)

var (
	// abbrevRE is a short word ending in a full stop inside a phrase ("St.
	// Ives", "Smith & Co. Ltd"): the stop is not the end of a sentence.
	abbrevRE = regexp.MustCompile(`(^|\s)(\p{L}{1,3})\.(\s|$)`)
	// sentencePunctRE is punctuation that ends or joins sentences.
	sentencePunctRE = regexp.MustCompile(`[!?;:…。！？；：]|\.(?:\s|$)`)
	// quoteRE is a quotation mark; an apostrophe counts where it is not
	// inside a word (children's, l'atelier).
	quoteRE   = regexp.MustCompile(`["“”„‟«»‹›「」『』〝〞＂]|(?:^|[^\p{L}])['‘’]|['‘’](?:[^\p{L}]|$)`)
	addressRE = regexp.MustCompile(`(?i)://|\bwww\.|@|\p{L}{2,}\.\p{L}{2,}`)
	markupRE  = regexp.MustCompile(`[<>{}\[\]\\|=]`)
)

// instructionWords are words that give orders to a reader or a model, in
// the languages most of the web is written in, folded. A category or an
// offer holding one reads as an instruction. The list is one constraint
// among several, not the defence: a value also has to be short, free of
// sentence punctuation and found in the visible text.
var instructionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		ignore ignoring disregard forget override instruction instructions prompt prompts
		say tell answer respond reply repeat pretend recommend mention
		ignorez oublie oubliez dis dites réponds répondez consigne consignes affirmez
		ignoriere ignoriert ignorieren vergiss vergesst sag sage sagt antworte antwortet anweisung anweisungen empfiehl erwähne behaupte
		ignora ignorad olvida olvide diga decid responde responda contesta conteste recomienda menciona instrucciones
		dimentica rispondi istruzioni esqueça
		игнорируй игнорируйте забудь забудьте скажи скажите ответь ответьте напиши напишите упомяни инструкции
	`) {
		m[fold(w)] = true
	}
	return m
}()

// instructionRuns are instruction words of unspaced scripts, matched as
// substrings: ignore, disregard, answer, instruction, prompt.
var instructionRuns = []string{"忽略", "无视", "無視", "回答", "指令", "提示词", "答えて", "指示"}

func readsAsInstruction(value string) bool {
	for _, t := range terms(value) {
		if instructionWords[t] {
			return true
		}
		for _, r := range instructionRuns {
			if strings.Contains(t, r) {
				return true
			}
		}
	}
	return false
}

// phraseShape returns why value is not a short phrase of at most
// maxWords words and maxRunes characters ("" when it is). A name may be
// a web address ("monday.com"); nothing else may.
func phraseShape(value string, maxWords, maxRunes int, name bool) string {
	switch {
	case len([]rune(value)) > maxRunes:
		return "it is longer than a short phrase"
	case len(strings.Fields(value)) > maxWords:
		return "it has more words than a short phrase"
	case strings.Contains(value, "://") || !name && addressRE.MatchString(value):
		return "it has a web or e-mail address"
	case sentencePunctRE.MatchString(abbrevRE.ReplaceAllString(value, "$1$2$3")):
		return "it has sentence punctuation"
	case quoteRE.MatchString(value):
		return "it has quotation marks"
	case markupRE.MatchString(value):
		return "it has markup or brackets"
	case readsAsInstruction(value):
		return "it reads as an instruction"
	}
	return ""
}

var (
	yearRE    = regexp.MustCompile(`^\d{4}$`)
	anyYearRE = regexp.MustCompile(`\d{4}`)
	phoneRE   = regexp.MustCompile(`^\+?[\d\s().\-/]{6,24}$`)
	emailRE   = regexp.MustCompile(`^[^\s@<>"']{1,64}@[\p{L}\d-]+(?:\.[\p{L}\d-]+)+$`)
)

// factShape returns why a fact read from the site cannot be given to a
// judge or an engine ("" when it can). The description is free text and
// only bounded: it is judged in a call of its own, so whatever it holds
// can sway no other verdict.
func factShape(f Fact) string {
	switch f.Key {
	case FactFounded:
		if !yearRE.MatchString(f.Value) {
			return "it is not a year"
		}
	case FactContact:
		if !phoneRE.MatchString(f.Value) && !emailRE.MatchString(f.Value) {
			return "it is not a telephone number or an e-mail address"
		}
	case FactName:
		return phraseShape(f.Value, maxNameWords, maxNameRunes, true)
	case FactDescription:
		if len([]rune(f.Value)) > MaxDescription {
			return "it is longer than a description"
		}
	case FactOffer:
		items := strings.Split(f.Value, ", ")
		if len(items) > 3 {
			return "it lists more than three offers"
		}
		for _, it := range items {
			if why := phraseShape(it, maxPhraseWords, maxPhraseRunes, false); why != "" {
				return why
			}
		}
	default:
		return phraseShape(f.Value, maxPhraseWords, maxPhraseRunes, false)
	}
	return ""
}

// MaxDescription bounds the site's description of itself, in characters.
const MaxDescription = 300

// forQuestions returns why a category, offer or location cannot go into
// a buyer question ("" when it can): it must have the shape of one, not
// name the brand (the questions are asked without it) and, unless it is
// a schema.org type name, be found in the page's visible text.
func forQuestions(f Fact, m *Matcher, c *corpus) string {
	if why := factShape(f); why != "" {
		return why
	}
	if f.Key != FactLocation {
		if ok, _ := m.Mentions(f.Value); ok || m.domainAt(f.Value) >= 0 {
			return "it names the brand, and buyer questions are asked without it"
		}
	}
	if f.Vocabulary {
		return ""
	}
	for _, it := range strings.Split(f.Value, ", ") {
		if why := c.supported(it); why != "" {
			return why
		}
	}
	return ""
}

// minorTerms are words too common to show that a quote is about a fact.
var minorTerms = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for with from its his her their this that are was has
		les des une est pour avec dans der die das und ist mit von fur los las una con por para del
		его как это для`) {
		m[fold(w)] = true
	}
	return m
}()

// backed reports whether a judge's verdict on f is backed by the
// descriptions it judged: a confirmation or a contradiction must quote
// them word for word; a confirmation must also share a word (or, for a
// contact, the digits) with the fact; a contradicted year or contact
// must quote one. Missing needs no quote.
func backed(f Fact, verdict, quote string, descs []string) bool {
	if verdict == VerdictMissing {
		return true
	}
	q := strings.Join(strings.Fields(fold(strings.Trim(quote, " \"'“”«».,;:"))), " ")
	if len([]rune(q)) < 2 {
		return false
	}
	found := false
	for _, d := range descs {
		if strings.Contains(strings.Join(strings.Fields(fold(d)), " "), q) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	if verdict == VerdictContradicted {
		switch f.Key {
		case FactFounded:
			return anyYearRE.MatchString(q)
		case FactContact:
			return strings.Contains(q, "@") || len(digits(q)) >= 6
		}
		return true
	}
	if f.Key == FactContact {
		d := digits(f.Value)
		if len(d) >= 6 {
			return strings.Contains(digits(q), d[len(d)-6:])
		}
		return strings.Contains(q, fold(f.Value))
	}
	quoted := map[string]bool{}
	for _, t := range terms(q) {
		quoted[t] = true
	}
	for _, t := range terms(f.Value) {
		if minorTerms[t] || !isUnspaced(t) && len([]rune(t)) < 3 && !isDigits(t) {
			continue
		}
		if quoted[t] {
			return true
		}
		if isUnspaced(t) {
			for qt := range quoted {
				if sharedRun(t, qt) {
					return true
				}
			}
		}
	}
	return false
}

// sharedRun reports two unspaced terms sharing two consecutive letters.
func sharedRun(a, b string) bool {
	r := []rune(a)
	for i := 0; i+1 < len(r); i++ {
		if strings.Contains(b, string(r[i:i+2])) {
			return true
		}
	}
	return false
}

func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isDigits(s string) bool { return s != "" && digits(s) == s }
