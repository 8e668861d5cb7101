package scripted

import (
	"encoding/json"
	"fmt"
	"regexp"
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

var (
	whatIs     = regexp.MustCompile(`^What is (.+)\?$`)
	whatOffers = regexp.MustCompile(`^What does (.+) offer\?$`)
)

func (d *demo) reply(c Call) Reply {
	switch c.Schema {
	case "site_facts":
		return d.extract(c)
	case "fact_verdicts":
		return Reply{Text: judgeLiterally(c.Prompt)}
	case "report_summaries":
		return Reply{Text: summaries(c.Prompt)}
	}
	if m := whatIs.FindStringSubmatch(c.Prompt); m != nil {
		d.mu.Lock()
		d.brands = append(d.brands, m[1])
		d.mu.Unlock()
		if c.Run%3 == 2 {
			return Reply{Text: fmt.Sprintf("I don't have any specific information about %s.", m[1])}
		}
		return Reply{Text: fmt.Sprintf("%s is a business with its own website (a scripted demo answer, not a real assistant's).", m[1])}
	}
	if m := whatOffers.FindStringSubmatch(c.Prompt); m != nil {
		if c.Run%3 == 2 {
			return Reply{Text: fmt.Sprintf("I'm not familiar with %s.", m[1])}
		}
		return Reply{Text: fmt.Sprintf("%s offers what its pages describe (a scripted demo answer).", m[1])}
	}
	list := "Here are options people often mention (scripted demo answer):\n1. **Northwind Traders** – a well-known name.\n2. **Contoso** – popular with reviewers.\n3. **Fabrikam** – a budget choice."
	if c.Run == 0 {
		if b := d.brandFor(c.Prompt); b != "" {
			list = "Here are options people often mention (scripted demo answer):\n1. **Northwind Traders** – a well-known name.\n2. **" + b + "** – the site this demo scanned.\n3. **Contoso** – popular with reviewers."
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

// summaries writes the four texts from the numbers of the prompt's JSON,
// so they pass the validator.
func summaries(prompt string) string {
	var data struct {
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
	out := map[string]string{}
	best, worst := 0, 0
	for i, r := range data.Rings {
		if r.Score > data.Rings[best].Score {
			best = i
		}
		if r.Score < data.Rings[worst].Score {
			worst = i
		}
		text := fmt.Sprintf("%s scores %d (grade %s) in this scripted demo summary.", titleCase(r.Ring), r.Score, r.Grade)
		for _, f := range data.Findings {
			if f.Ring == r.Ring {
				text += " Fix first: " + f.Title + "."
				break
			}
		}
		out[r.Ring] = text
	}
	if len(data.Rings) > 0 {
		out["executive"] = fmt.Sprintf("%s scores %.1f overall (grade %s) in this scripted demo summary; %s is strongest at %d and %s weakest at %d.",
			data.Brand, data.Overall, data.OverallGrade, data.Rings[best].Ring, data.Rings[best].Score, data.Rings[worst].Ring, data.Rings[worst].Score)
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
