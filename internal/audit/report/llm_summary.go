package report

// The report's executive and ring summaries written by the default answer
// engine, for each audience, from the report's structured
// results only: scores, grades, gates, the checks that fail or warn (ids,
// titles, statuses, impact) and the caveats — never page text or a check's
// finding, which quote the site. The data is fenced (llm.Fence) all the
// same, so a brand name is read as a name. Each text must pass
// ValidateSummary, which reads it as claims about the report and rejects
// any it cannot confirm; a rejected or missing text keeps its template. The
// report says per text who wrote it.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/llm"
)

// SummaryPurpose names the summaries in the session's usage.
const SummaryPurpose = "summaries"

// The summary slots: the executive summary and one per ring, named as in
// the engine's answer.
const (
	SlotExecutive  = "executive"
	SlotSearch     = string(api.Search)
	SlotVisibility = string(api.Visibility)
	SlotTrust      = string(api.Trust)
)

// WriteSummaries replaces the template summaries of both audiences with the
// engine's texts, written in lang (an i18n tag; English when empty or
// unsupported), that pass the validator. It never fails: an engine error
// leaves the templates, with the reason in the provenance.
func WriteSummaries(ctx context.Context, sess *llm.Session, doc *Stored, lang string) {
	if sess == nil || !sess.Layer().Enabled() {
		return
	}
	var wg sync.WaitGroup
	for _, r := range []*api.Report{&doc.Marketing, &doc.Engineering} {
		wg.Go(func() { writeSummary(ctx, sess, r, lang) })
	}
	wg.Wait()
}

// languageNames name the summaries' languages in the prompt.
var languageNames = map[string]string{"de": "German", "fr": "French", "es": "Spanish"}

var summarySchema = &llm.Schema{Name: "report_summaries", Schema: map[string]any{
	"type": "object", "additionalProperties": false,
	"required": []string{SlotExecutive, SlotSearch, SlotVisibility, SlotTrust},
	"properties": map[string]any{
		SlotExecutive: map[string]any{"type": "string"}, SlotSearch: map[string]any{"type": "string"},
		SlotVisibility: map[string]any{"type": "string"}, SlotTrust: map[string]any{"type": "string"},
	},
}}

const summarySystem = "You write short summaries of a website audit for AI answer engines. Use only the data you are given: " +
	"every number, grade and check you mention must appear in it, and never say a check passes or fails unless its status says so. " +
	"Write plain sentences: no links, markdown or instructions. Answer only with the JSON asked for."

func writeSummary(ctx context.Context, sess *llm.Session, r *api.Report, lang string) {
	e := sess.Layer().Default
	data := SummaryFacts(r, lang)
	reader := "a marketing lead without technical background: plain words, name checks by their titles"
	if r.Audience == api.ReportAudienceEngineering {
		reader = "an engineer: precise, name checks by their ids"
	}
	prompt := llm.Fence("the results of a website audit, all GeoScan's but for the name of the brand scanned", data) +
		fmt.Sprintf("\n\nWrite for %s. executive: at most 80 words on the overall score, "+
			"the strongest and weakest ring, any gate that caps a score, and the first fix. search, visibility, trust: at most 60 words "+
			"each on that ring's score, grade, cap if any, and the checks to fix first.", reader)
	if name := languageNames[data.Language]; name != "" {
		// The keys stay the schema's; only the texts are in the language.
		prompt += " Write every text in " + name + ", naming checks as the data names them; keep the JSON keys as they are."
	}
	req := llm.Request{System: summarySystem, Prompt: prompt, Temperature: llm.Zero(), Schema: summarySchema, Language: data.Language}
	res := sess.Ask(ctx, SummaryPurpose, e, req, 0)
	prov := r.Summaries.Provenance
	if prov == nil {
		prov = TemplateProvenance()
		r.Summaries.Provenance = prov
	}
	slots := []struct {
		name string
		text *string
		p    *api.SummaryProvenance
	}{
		{SlotExecutive, &r.Summaries.Executive, &prov.Executive},
		{SlotSearch, &r.Summaries.Search, &prov.Search},
		{SlotVisibility, &r.Summaries.Visibility, &prov.Visibility},
		{SlotTrust, &r.Summaries.Trust, &prov.Trust},
	}
	reject := func(i int, why string) {
		slots[i].p.Source = api.ProvenanceTemplate
		slots[i].p.RejectedReason = &why
	}
	if res.Err != nil {
		for i := range slots {
			reject(i, "the engine call failed: "+llm.Reason(res.Err))
		}
		return
	}
	var out map[string]string
	if err := json.Unmarshal([]byte(res.Answer.Text), &out); err != nil {
		for i := range slots {
			reject(i, "the engine's answer was not the JSON asked for")
		}
		return
	}
	engine := e.Info().Name + " (" + e.Info().Host + ")"
	model := res.Answer.Model
	if model == "" {
		model = e.Info().Model
	}
	all := true
	for i, s := range slots {
		text := strings.TrimSpace(out[s.name])
		if why := ValidateSummary(s.name, text, data); why != "" {
			reject(i, why)
			all = false
			continue
		}
		*s.text = text
		*s.p = api.SummaryProvenance{Source: api.ProvenanceLlm, Engine: &engine, Model: &model}
	}
	if all {
		r.Summaries.Source = api.Llm
	}
}
