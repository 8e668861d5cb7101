package mentions

import (
	"fmt"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/llm"
)

// PromptSet versions every prompt below. Answers are comparable across
// scans only within one prompt set: changing a prompt's wording, adding
// or removing one changes it.
const PromptSet = "2026-11.3"

// Prompt kinds. Branded and non-branded prompts never share a denominator.
const (
	KindBranded  = "branded"
	KindCategory = "category"
	KindCitation = "category_web_search"
)

// Prompt is one probe as asked.
type Prompt struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	WebSearch bool   `json:"web_search"`
}

// The languages the brand and buyer questions are asked in besides
// English: those of the report catalogues (internal/i18n). A question is
// asked in the scan's language so the answer is the one a buyer asking in
// it gets; any other language asks in English.
const (
	langDE = "de"
	langFR = "fr"
	langES = "es"
)

// questionLanguage is the language the questions are asked in: lang when
// there are questions in it, else "" (English).
func questionLanguage(lang string) string {
	switch lang {
	case langDE, langFR, langES:
		return lang
	}
	return ""
}

// brandedPrompts ask about the brand by name and by domain, without
// browsing: what the model itself knows. They carry no site text: the
// brand is the scan's, the domain the site's host name.
func brandedPrompts(brand, domain, lang string) []Prompt {
	b1, b2 := "What is %s?", "What does %s offer?"
	switch questionLanguage(lang) {
	case langDE:
		b1, b2 = "Was ist %s?", "Was bietet %s an?"
	case langFR:
		b1, b2 = "Qu'est-ce que %s ?", "Que propose %s ?"
	case langES:
		b1, b2 = "¿Qué es %s?", "¿Qué ofrece %s?"
	}
	return []Prompt{
		{ID: "b1", Kind: KindBranded, Text: fmt.Sprintf(b1, brand)},
		{ID: "b2", Kind: KindBranded, Text: fmt.Sprintf(b2, domain)},
	}
}

// buyerQuestions are the wordings of the buyer questions in one language:
// c1 to c3 take the category and then the location phrase, c4 the offer
// and then the location phrase; in puts " in " (or its translation) before
// a location. Each wording puts the category after a preposition that
// needs no article ("im Bereich", "en matière de", "de"), so a phrase read
// from the site fits it as it is.
type buyerQuestions struct{ in, c1, c2, c3, c4 string }

var buyerWordings = map[string]buyerQuestions{
	"": {
		in: " in ",
		c1: "What are the best options for %s%s? Name specific companies or brands.",
		c2: "Which %s would you recommend%s, and why?",
		c3: "What are good alternatives when choosing a %s%s?",
		c4: "I'm looking for %s%s. Who should I buy from?",
	},
	langDE: {
		in: " in ",
		c1: "Was sind die besten Optionen im Bereich %s%s? Nenne konkrete Unternehmen oder Marken.",
		c2: "Welchen Anbieter im Bereich %s würdest du%s empfehlen, und warum?",
		c3: "Welche guten Alternativen gibt es bei der Wahl eines Anbieters im Bereich %s%s?",
		c4: "Ich suche %s%s. Bei wem sollte ich kaufen?",
	},
	langFR: {
		in: " à ",
		c1: "Quelles sont les meilleures options en matière de %s%s ? Cite des entreprises ou des marques précises.",
		c2: "Quelle entreprise recommanderais-tu en matière de %s%s, et pourquoi ?",
		c3: "Quelles sont de bonnes alternatives quand on choisit une entreprise en matière de %s%s ?",
		c4: "Je cherche %s%s. Auprès de qui devrais-je acheter ?",
	},
	langES: {
		in: " en ",
		c1: "¿Cuáles son las mejores opciones de %s%s? Nombra empresas o marcas concretas.",
		c2: "¿Qué empresa de %s recomendarías%s y por qué?",
		c3: "¿Qué buenas alternativas hay al elegir una empresa de %s%s?",
		c4: "Busco %s%s. ¿A quién debería comprarle?",
	},
}

// categoryPrompts are buyer questions built from the site's own facts
// (category, offer, location) that do not name the brand: three, or four
// when the site names an offer. The values are the site's, but only short
// phrases found in its visible text get here (forQuestions), so they are
// asked as a buyer would word them, not fenced.
func categoryPrompts(category, offer, location, lang string) []Prompt {
	w := buyerWordings[questionLanguage(lang)]
	in := ""
	if location != "" {
		in = w.in + location
	}
	ps := []Prompt{
		{ID: "c1", Text: fmt.Sprintf(w.c1, category, in)},
		{ID: "c2", Text: fmt.Sprintf(w.c2, category, in)},
		{ID: "c3", Text: fmt.Sprintf(w.c3, category, in)},
	}
	if offer != "" {
		ps = append(ps, Prompt{ID: "c4", Text: fmt.Sprintf(w.c4, offer, in)})
	}
	for i := range ps {
		ps[i].Kind = KindCategory
	}
	return ps
}

// promptRequest is a probe's prompt as asked in lang: the language is
// part of the request, and so of its cache key.
func promptRequest(p Prompt, lang string) llm.Request {
	return llm.Request{Prompt: p.Text, WebSearch: p.WebSearch, Language: questionLanguage(lang)}
}

// citationPrompts are the category prompts asked with web search.
func citationPrompts(cat []Prompt) []Prompt {
	out := make([]Prompt, len(cat))
	for i, p := range cat {
		out[i] = Prompt{ID: "s" + strings.TrimPrefix(p.ID, "c"), Kind: KindCitation, Text: p.Text, WebSearch: true}
	}
	return out
}

const extractSystem = "You read facts about a business from text copied from its website, for an audit. Answer only with the JSON asked for. " +
	"Use only what the data gives, in its own words, and leave a field empty when the data does not give it."

// extractPrompt asks for the category, offers and location one reading of
// the site gives. What comes back is checked before use (forQuestions):
// the model may word a value, but it must be a short phrase found in the
// site's visible text.
func extractPrompt(r Reading) string {
	return llm.Fence("text copied from a business's website ("+r.Name+")", r.Fields) + "\n\nFrom the data above, give: the business " +
		"category as a short noun phrase a buyer would search for (for example \"bakery\" or \"project management software\"); up to three " +
		"things it offers, each a short noun phrase; the town or region it serves, if the data gives one. Use the data's own words."
}

// extractRequest asks for the facts of one reading, at temperature 0.
func extractRequest(r Reading) llm.Request {
	return llm.Request{System: extractSystem, Prompt: extractPrompt(r), Temperature: llm.Zero(), Schema: extractSchema}
}

var extractSchema = &llm.Schema{Name: "site_facts", Schema: map[string]any{
	"type": "object", "additionalProperties": false,
	"required": []string{"category", "offers", "location"},
	"properties": map[string]any{
		"category": map[string]any{"type": "string"},
		"offers":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		"location": map[string]any{"type": "string"},
	},
}}

const judgeSystem = "You compare what an AI assistant wrote about a business with facts read from the business's own website, for an " +
	"audit. Answer only with the JSON asked for. A fact is confirmed when the descriptions give it (in any wording), contradicted when " +
	"they give something incompatible with it, and missing when they do not address it. For a confirmed or contradicted fact, copy into " +
	"quote the exact words of the description that give it: a verdict without them is not counted."

// judgePrompt fences the business's name, the facts and the descriptions
// as data: the descriptions may repeat what the site says, and the facts
// are the site's own words.
func judgePrompt(brand string, facts []Fact, descriptions []string) string {
	type fact struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	data := struct {
		Business     string   `json:"business"`
		Facts        []fact   `json:"facts"`
		Descriptions []string `json:"descriptions"`
	}{Business: brand, Descriptions: descriptions}
	for _, f := range facts {
		data.Facts = append(data.Facts, fact{f.Key, f.Value})
	}
	return llm.Fence("a business's name, facts read from its website and an AI assistant's descriptions of the business", data) +
		"\n\nFor every fact in the data, give its key, the verdict (confirmed, contradicted or missing) and the quote (empty when missing)."
}

// judgeRequest asks the judge about facts, at temperature 0.
func judgeRequest(brand string, facts []Fact, descriptions []string) llm.Request {
	keys := make([]string, 0, len(facts))
	for _, f := range facts {
		keys = append(keys, f.Key)
	}
	return llm.Request{
		System: judgeSystem, Prompt: judgePrompt(brand, facts, descriptions), Temperature: llm.Zero(), Schema: judgeSchema(keys),
	}
}

func judgeSchema(keys []string) *llm.Schema {
	return &llm.Schema{Name: "fact_verdicts", Schema: map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"facts"},
		"properties": map[string]any{"facts": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type": "object", "additionalProperties": false, "required": []string{"key", "verdict", "quote"},
				"properties": map[string]any{
					"key":     map[string]any{"type": "string", "enum": keys},
					"verdict": map[string]any{"type": "string", "enum": []string{VerdictConfirmed, VerdictContradicted, VerdictMissing}},
					"quote":   map[string]any{"type": "string"},
				},
			},
		}},
	}}
}
