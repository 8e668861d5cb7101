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
// site's text), and judges only the name and category as confirmed. None
// of it says anything about a real assistant.
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
	whatIs      = regexp.MustCompile(`^What is (.+)\?$`)
	whatOffers  = regexp.MustCompile(`^What does (.+) offer\?$`)
	mainHeading = regexp.MustCompile(`(?m)^Main heading: (.+)$`)
	factLine    = regexp.MustCompile(`(?m)^- ([a-z_]+): `)
)

func (d *demo) reply(c Call) Reply {
	switch c.Schema {
	case "site_facts":
		return d.extract(c)
	case "fact_verdicts":
		var rows []string
		for _, m := range factLine.FindAllStringSubmatch(c.Prompt, -1) {
			v := "missing"
			if m[1] == "name" || m[1] == "category" {
				v = "confirmed"
			}
			rows = append(rows, fmt.Sprintf(`{"key":%q,"verdict":%q,"model_says":""}`, m[1], v))
		}
		return Reply{Text: `{"facts":[` + strings.Join(rows, ",") + `]}`}
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

// extract names the site's main heading as its category, quoting it, so
// the quote check passes on any site that has one.
func (d *demo) extract(c Call) Reply {
	out := map[string]any{"category": "", "category_quote": "", "offers": []string{}, "offers_quote": "", "location": "", "location_quote": ""}
	if m := mainHeading.FindStringSubmatch(c.Prompt); m != nil && len(strings.Fields(m[1])) <= 6 {
		h := strings.TrimSpace(m[1])
		out["category"], out["category_quote"] = h, h
		d.mu.Lock()
		d.categories[h] = c.Prompt
		d.mu.Unlock()
	}
	b, _ := json.Marshal(out)
	return Reply{Text: string(b)}
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
	start, end := strings.Index(prompt, "{"), strings.LastIndex(prompt, "}")
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
	if start < 0 || end <= start || json.Unmarshal([]byte(prompt[start:end+1]), &data) != nil {
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
