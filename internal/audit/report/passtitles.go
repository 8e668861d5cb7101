package report

import "github.com/geoscan/geoscan/gen/api"

// Some engineering titles name the problem a check looks for ("Hidden
// prompt injection"): right above a failure, wrong in a list of what
// already works, where it reads as a finding. passTitles are those titles
// as a passing check reads; the marketing titles are written as the goal
// already.
var passTitles = map[string]string{
	"hidden_prompt_injection": "No hidden prompt injection",
	"mixed_content":           "No mixed content",
	"js_rendering_dependence": "No dependence on client-side rendering",
	"negative_signals":        "No spam or low-quality signals",
	"stale_ai_tokens":         "No retired tokens without successors",
}

// passTitle is how a passed check of a report in the engineering edition
// (eng) or the marketing one is named in a list of what works.
func passTitle(c api.CheckResult, eng bool) string {
	if t, ok := passTitles[c.ID]; ok && eng {
		return t
	}
	return c.Title
}
