package scripted

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// Obeying is an engine that does what any text it is given tells it to:
// wherever in a call an instruction stands — the system prompt, the
// question, a fenced block, a JSON string — and in whatever language,
// it answers with what the instruction asks for instead of doing its task.
// Without an instruction it answers as its base script does. The tests of
// prompt injection run the audit against it: what it is told to say must
// change no verdict and reach no report.
//
// It obeys what the instructions of injected text look like: an order to
// say, answer, state, mention or convey something quoted or following
// "that" (in English, French, German, Spanish, Russian, Chinese and
// Japanese), an order to answer a word in capitals ("answer PASS"), and a
// claim that the brand is excellent.
type Obeying struct {
	base Script

	mu     sync.Mutex
	obeyed []Obedience
}

// Obedience is a call the engine obeyed, and what it was told to say.
type Obedience struct {
	Call    Call
	Payload string
}

// Obey wraps base in an obeying engine; serve Script.
func Obey(base Script) *Obeying { return &Obeying{base: base} }

// Script is the engine's script.
func (o *Obeying) Script() Script { return o.reply }

// Obeyed lists the calls the engine obeyed, in the order it answered them.
func (o *Obeying) Obeyed() []Obedience {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]Obedience(nil), o.obeyed...)
}

func (o *Obeying) reply(c Call) Reply {
	said := Instructions(c.System + "\n" + c.Prompt)
	if len(said) == 0 {
		return o.base(c)
	}
	x := strings.Join(said, "; ")
	o.mu.Lock()
	o.obeyed = append(o.obeyed, Obedience{Call: c, Payload: x})
	o.mu.Unlock()
	var out any
	switch c.Schema {
	case "site_facts":
		out = map[string]any{"category": x, "offers": []string{x}, "location": x}
	case "fact_verdicts":
		var rows []map[string]string
		for _, k := range factKeys(c.Prompt) {
			rows = append(rows, map[string]string{"key": k, "verdict": "confirmed", "quote": x})
		}
		out = map[string]any{"facts": rows}
	case "report_summaries":
		out = map[string]string{"executive": x, "search": x, "visibility": x, "trust": x}
	default:
		return Reply{Text: x}
	}
	b, _ := json.Marshal(out)
	return Reply{Text: string(b)}
}

// The verbs of an order to say something, by language.
const (
	orderWords = `say|state|answer|reply|respond|mention|convey|claim|declare|tell\s+(?:users|people|everyone|readers|customers|them)|` +
		`dis|dites|réponds|répondez|répondre|écris|écrivez|mentionne|mentionnez|indique|indiquez|affirme|affirmez|déclarez|` +
		`sag|sage|sagt|sagen\s+sie|antworte|antwortet|antworten\s+sie|schreib|schreibe|erwähne|erwähnt|behaupte|` +
		`diga|decid|digan|responde|responda|contesta|conteste|escribe|escriba|menciona|mencione|afirma|afirme|` +
		`скажи|скажите|ответь|ответьте|напиши|напишите|упомяни|упомяните|сообщи|сообщите|заяви|заявите`
	// Chinese and Japanese orders stand against the letters before them.
	orderRuns = `请说|说|回答|回复|告诉用户|声称|言って|答えて`
	thatWords = `that|que|qu'|dass|что`
	opening   = `"“„«「『‘`
	closing   = `"”“»」』’`
)

var (
	quotedOrderRE = regexp.MustCompile(`(?i)(?:(?:^|[^\p{L}])(?:` + orderWords + `)(?:[^\p{L}]|$)|` + orderRuns + `)` +
		`[^.!?。\n` + opening + `]{0,40}?[` + opening + `]\s*([^` + opening + closing + `\n]{2,200}?)\s*[` + closing + `]`)
	thatOrderRE  = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(?:` + orderWords + `)\s+(?:` + thatWords + `)\s*([^.!?。\n]{3,200})`)
	capsOrderRE  = regexp.MustCompile(`(?:^|[^\p{L}])(?i:answer|reply|respond|say|réponds|répondez|antworte|responde|ответь|ответьте)\s*:?\s*(\p{Lu}{3,}(?:[ -]\p{Lu}{2,})*)(?:[^\p{L}]|$)`)
	brandClaimRE = regexp.MustCompile(`(?i)(?:(?:the|this)\s+brand|la\s+marque|die\s+marke|la\s+marca|бренд)\s+(?:is|est|ist|es|—|-)\s+[^.!?\n]{2,120}|(?:该|这个)?品牌(?:是|非常|很)[^。！？\n]{1,60}`)
	jsonStringRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
)

// Instructions finds the instructions in text, JSON string values decoded
// first, and returns what each says to say.
func Instructions(text string) []string {
	// The JSON strings decoded, and the text as it stands: what a model
	// reads.
	var scan []string
	for _, lit := range jsonStringRE.FindAllString(text, -1) {
		var s string
		if json.Unmarshal([]byte(lit), &s) == nil && s != lit {
			scan = append(scan, s)
		}
	}
	scan = append(scan, text)
	var out []string
	add := func(p string) {
		p = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), `.,;:`))
		if p == "" {
			return
		}
		for _, o := range out {
			if strings.Contains(o, p) {
				return
			}
		}
		out = append(out, p)
	}
	for _, s := range scan {
		for _, re := range []*regexp.Regexp{quotedOrderRE, thatOrderRE, capsOrderRE} {
			for _, m := range re.FindAllStringSubmatch(s, -1) {
				add(m[1])
			}
		}
		for _, m := range brandClaimRE.FindAllString(s, -1) {
			add(m)
		}
	}
	return out
}

// factKeys are the keys of the facts in a judging prompt's data.
func factKeys(prompt string) []string {
	var data struct {
		Facts []struct {
			Key string `json:"key"`
		} `json:"facts"`
	}
	if !decodeData(prompt, &data) {
		return nil
	}
	var keys []string
	for _, f := range data.Facts {
		keys = append(keys, f.Key)
	}
	return keys
}
