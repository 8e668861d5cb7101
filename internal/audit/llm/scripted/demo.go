package scripted

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// DemoName and DemoModel label the scripted demo engine in evidence and
// reports.
const (
	DemoName  = "scripted-demo"
	DemoModel = "scripted-demo-1"
)

// Demo is the script of `geoscan demo`: canned answers in the engines' real
// shapes so the AI checks and summaries can be seen offline. It knows a
// brand only from being asked about it, answers two runs in three as if it
// knew it and the third as if it did not, names made-up competitors in
// buyer answers (and the site only on the first run, when it has seen the
// site's text), and confirms a fact only when its answer repeats it word
// for word. None of it says anything about a real assistant.
func Demo() Script {
	d := &demo{categories: map[string]string{}}
	return d.reply
}

type demo struct {
	mu         sync.Mutex
	brands     []string          // brands asked about, in order
	categories map[string]string // category the extraction gave → the site text it came from
}

// demoWords are the demo's answers in the languages GeoScan asks in: the
// branded questions it recognises, by the question's language, and what
// it answers to them.
type demoWords struct {
	whatIs, whatOffers             *regexp.Regexp
	knows, noInfo, offers, unknown string
	list, site                     string
}

var demoLanguages = map[string]demoWords{
	"en": {
		whatIs: regexp.MustCompile(`^What is (.+)\?$`), whatOffers: regexp.MustCompile(`^What does (.+) offer\?$`),
		knows:   "%s is a business with its own website (a scripted demo answer, not a real assistant's).",
		noInfo:  "I don't have any specific information about %s.",
		offers:  "%s offers what its pages describe (a scripted demo answer).",
		unknown: "I'm not familiar with %s.",
		list:    "Here are options people often mention (scripted demo answer):",
		site:    "the site this demo scanned",
	},
	"de": {
		whatIs: regexp.MustCompile(`^Was ist (.+)\?$`), whatOffers: regexp.MustCompile(`^Was bietet (.+) an\?$`),
		knows:   "%s ist ein Unternehmen mit eigener Website (eine geskriptete Demo-Antwort, nicht die eines echten Assistenten).",
		noInfo:  "Ich habe keine spezifischen Informationen über %s.",
		offers:  "%s bietet an, was seine Seiten beschreiben (eine geskriptete Demo-Antwort).",
		unknown: "Ich bin mit %s nicht vertraut.",
		list:    "Diese Optionen werden oft genannt (geskriptete Demo-Antwort):",
		site:    "die Website, die diese Demo geprüft hat",
	},
	"fr": {
		whatIs: regexp.MustCompile(`^Qu'est-ce que (.+) \?$`), whatOffers: regexp.MustCompile(`^Que propose (.+) \?$`),
		knows:   "%s est une entreprise qui a son propre site web (réponse de démonstration scriptée, pas celle d'un vrai assistant).",
		noInfo:  "Je n'ai pas d'informations précises sur %s.",
		offers:  "%s propose ce que ses pages décrivent (réponse de démonstration scriptée).",
		unknown: "Je ne connais pas %s.",
		list:    "Voici des options souvent citées (réponse de démonstration scriptée) :",
		site:    "le site analysé par cette démonstration",
	},
	"es": {
		whatIs: regexp.MustCompile(`^¿Qué es (.+)\?$`), whatOffers: regexp.MustCompile(`^¿Qué ofrece (.+)\?$`),
		knows:   "%s es una empresa con su propio sitio web (respuesta de demostración predefinida, no la de un asistente real).",
		noInfo:  "No tengo información específica sobre %s.",
		offers:  "%s ofrece lo que describen sus páginas (respuesta de demostración predefinida).",
		unknown: "No conozco %s.",
		list:    "Estas son opciones que se suelen mencionar (respuesta de demostración predefinida):",
		site:    "el sitio que analizó esta demostración",
	},
}

// demoOrder is the order the languages' questions are tried in.
var demoOrder = []string{"en", "de", "fr", "es"}

// buyerWords mark a buyer question's language by a word of it.
var buyerWords = map[string]*regexp.Regexp{
	"de": regexp.MustCompile(`\b(?:Bereich|Anbieter|suche)\b`),
	"fr": regexp.MustCompile(`\b(?:matière|cherche)\b`),
	"es": regexp.MustCompile(`(?:¿Cuáles|¿Qué|Busco)\b`),
}

func (d *demo) reply(c Call) Reply {
	switch c.Schema {
	case "site_facts":
		return d.extract(c)
	case "fact_verdicts":
		return Reply{Text: judgeLiterally(c.Prompt)}
	case "report_summaries":
		return Reply{Text: summaries(c.Prompt)}
	}
	for _, lang := range demoOrder {
		w := demoLanguages[lang]
		if m := w.whatIs.FindStringSubmatch(c.Prompt); m != nil {
			d.mu.Lock()
			d.brands = append(d.brands, m[1])
			d.mu.Unlock()
			if c.Run%3 == 2 {
				return Reply{Text: fmt.Sprintf(w.noInfo, m[1])}
			}
			return Reply{Text: fmt.Sprintf(w.knows, m[1])}
		}
		if m := w.whatOffers.FindStringSubmatch(c.Prompt); m != nil {
			if c.Run%3 == 2 {
				return Reply{Text: fmt.Sprintf(w.unknown, m[1])}
			}
			return Reply{Text: fmt.Sprintf(w.offers, m[1])}
		}
	}
	w := demoLanguages["en"]
	for _, lang := range demoOrder[1:] {
		if buyerWords[lang].MatchString(c.Prompt) {
			w = demoLanguages[lang]
		}
	}
	list := w.list + "\n1. **Northwind Traders** – a well-known name.\n2. **Contoso** – popular with reviewers.\n3. **Fabrikam** – a budget choice."
	if c.Run == 0 {
		if b := d.brandFor(c.Prompt); b != "" {
			list = w.list + "\n1. **Northwind Traders** – a well-known name.\n2. **" + b + "** – " + w.site + ".\n3. **Contoso** – popular with reviewers."
		}
	}
	rep := Reply{Text: list}
	if c.WebSearch {
		rep.Cited = []string{"https://northwind.example/guide?utm_source=openai", "https://contoso.example/"}
		rep.Retrieved = []string{"https://fabrikam.example/"}
	}
	return rep
}

// extract names the site's main heading as its category when it is short
// (it is kept only if its words recur in the site's visible text).
func (d *demo) extract(c Call) Reply {
	out := map[string]any{"category": "", "offers": []string{}, "location": ""}
	var data map[string]string
	if decodeData(c.Prompt, &data) {
		if h := strings.TrimSpace(data["main_heading"]); h != "" && len(strings.Fields(h)) <= 6 {
			out["category"] = h
			d.mu.Lock()
			d.categories[h] = c.Prompt
			d.mu.Unlock()
		}
	}
	b, _ := json.Marshal(out)
	return Reply{Text: string(b)}
}

// judgeLiterally confirms a fact whose value a description contains, word
// for word and quoted, and calls every other fact missing.
func judgeLiterally(prompt string) string {
	var data struct {
		Facts []struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"facts"`
		Descriptions []string `json:"descriptions"`
	}
	decodeData(prompt, &data)
	rows := []map[string]string{}
	for _, f := range data.Facts {
		row := map[string]string{"key": f.Key, "verdict": "missing", "quote": ""}
		for _, desc := range data.Descriptions {
			if f.Value != "" && strings.Contains(strings.ToLower(desc), strings.ToLower(f.Value)) {
				row["verdict"], row["quote"] = "confirmed", f.Value
				break
			}
		}
		rows = append(rows, row)
	}
	b, _ := json.Marshal(map[string]any{"facts": rows})
	return string(b)
}

// brandFor finds the brand whose site text gave the category named in a
// buyer prompt.
func (d *demo) brandFor(prompt string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	for cat, data := range d.categories {
		if !strings.Contains(prompt, cat) {
			continue
		}
		for i := len(d.brands) - 1; i >= 0; i-- {
			if strings.Contains(strings.ToLower(data), strings.ToLower(d.brands[i])) {
				return d.brands[i]
			}
		}
	}
	return ""
}

// summaryWords are the demo summaries' sentences in each language: a
// ring's score and grade, the check to fix first, and the executive
// summary's overall score with the strongest and weakest ring.
type summaryWords struct {
	ring, fixFirst, executive string
	rings                     map[string]string
	decimal                   string
}

var demoSummaries = map[string]summaryWords{
	"": {
		ring: "%s scores %d (grade %s) in this scripted demo summary.", fixFirst: " Fix first: %s.",
		executive: "%s scores %s overall (grade %s) in this scripted demo summary; %s is strongest at %d and %s weakest at %d.",
		decimal:   ".",
	},
	"de": {
		ring: "%s erreicht %d (Note %s) in dieser geskripteten Demo-Zusammenfassung.", fixFirst: " Zuerst beheben: %s.",
		executive: "%s erreicht insgesamt %s (Note %s) in dieser geskripteten Demo-Zusammenfassung; %s ist mit %d am stärksten und %s mit %d am schwächsten.",
		rings:     map[string]string{"search": "Suche", "visibility": "Sichtbarkeit", "trust": "Vertrauen"}, decimal: ",",
	},
	"fr": {
		ring: "%s obtient %d (note %s) dans ce résumé de démonstration scripté.", fixFirst: " À corriger d'abord : %s.",
		executive: "%s obtient %s au global (note %s) dans ce résumé de démonstration scripté ; %s est la plus solide avec %d et %s la plus faible avec %d.",
		rings:     map[string]string{"search": "Recherche", "visibility": "Visibilité", "trust": "Confiance"}, decimal: ",",
	},
	"es": {
		ring: "%s obtiene %d (calificación %s) en este resumen de demostración predefinido.", fixFirst: " Corregir primero: %s.",
		executive: "%s obtiene %s en global (calificación %s) en este resumen de demostración predefinido; %s es la más fuerte con %d y %s la más débil con %d.",
		rings:     map[string]string{"search": "Búsqueda", "visibility": "Visibilidad", "trust": "Confianza"}, decimal: ",",
	},
}

// summaries writes the four texts from the numbers of the prompt's JSON,
// in the language the data names, so they pass the validator.
func summaries(prompt string) string {
	var data struct {
		Language     string  `json:"language"`
		Brand        string  `json:"brand"`
		Overall      float64 `json:"overall_score"`
		OverallGrade string  `json:"overall_grade"`
		Rings        []struct {
			Ring  string `json:"ring"`
			Score int    `json:"score"`
			Grade string `json:"grade"`
		} `json:"rings"`
		Findings []struct {
			Title string `json:"title"`
			Ring  string `json:"ring"`
		} `json:"checks_to_fix"`
	}
	if !decodeData(prompt, &data) {
		return `{"executive":"","search":"","visibility":"","trust":""}`
	}
	w, ok := demoSummaries[data.Language]
	if !ok {
		w = demoSummaries[""]
	}
	name := func(ring string) string {
		if n, ok := w.rings[ring]; ok {
			return n
		}
		return ring
	}
	out := map[string]string{}
	best, worst := 0, 0
	for i, r := range data.Rings {
		if r.Score > data.Rings[best].Score {
			best = i
		}
		if r.Score < data.Rings[worst].Score {
			worst = i
		}
		text := fmt.Sprintf(w.ring, titleCase(name(r.Ring)), r.Score, r.Grade)
		for _, f := range data.Findings {
			if f.Ring == r.Ring {
				text += fmt.Sprintf(w.fixFirst, f.Title)
				break
			}
		}
		out[r.Ring] = text
	}
	if len(data.Rings) > 0 {
		overall := strings.Replace(strconv.FormatFloat(data.Overall, 'f', 1, 64), ".", w.decimal, 1)
		out["executive"] = fmt.Sprintf(w.executive, data.Brand, overall, data.OverallGrade,
			name(data.Rings[best].Ring), data.Rings[best].Score, name(data.Rings[worst].Ring), data.Rings[worst].Score)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// decodeData decodes the first JSON object of a prompt (the fenced data)
// into v.
func decodeData(prompt string, v any) bool {
	i := strings.IndexByte(prompt, '{')
	if i < 0 {
		return false
	}
	return json.NewDecoder(strings.NewReader(prompt[i:])).Decode(v) == nil
}
