package report

// The report's executive and ring summaries written by the default answer
// engine, for each audience, from the report's structured
// results only: scores, grades, gates, the checks that fail or warn (ids,
// titles, statuses, impact) and the caveats — never page text or a check's
// finding, which quote the site. Each text must pass a validator that
// rejects any number, grade or check it states that the report does not,
// and any claim that a check passes or fails when it does not; a rejected
// or missing text keeps its template. The report says per text who wrote
// it.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit/llm"
)

// SummaryPurpose names the summaries in the session's usage.
const SummaryPurpose = "summaries"

// WriteSummaries replaces the template summaries of both audiences with the
// engine's texts that pass the validator. It never fails: an engine error
// leaves the templates, with the reason in the provenance.
func WriteSummaries(ctx context.Context, sess *llm.Session, doc *Stored) {
	if sess == nil || !sess.Layer().Enabled() {
		return
	}
	var wg sync.WaitGroup
	for _, r := range []*api.Report{&doc.Marketing, &doc.Engineering} {
		wg.Go(func() { writeSummary(ctx, sess, r) })
	}
	wg.Wait()
}

var summarySchema = &llm.Schema{Name: "report_summaries", Schema: map[string]any{
	"type": "object", "additionalProperties": false,
	"required": []string{"executive", "search", "visibility", "trust"},
	"properties": map[string]any{
		"executive": map[string]any{"type": "string"}, "search": map[string]any{"type": "string"},
		"visibility": map[string]any{"type": "string"}, "trust": map[string]any{"type": "string"},
	},
}}

const summarySystem = "You write short summaries of a website audit for AI answer engines. Use only the data you are given: " +
	"every number, grade and check you mention must appear in it, and never say a check passes or fails unless its status says so. " +
	"Answer only with the JSON asked for."

func writeSummary(ctx context.Context, sess *llm.Session, r *api.Report) {
	e := sess.Layer().Default
	data := SummaryFacts(r)
	b, err := json.Marshal(data)
	if err != nil {
		return
	}
	reader := "a marketing lead without technical background: plain words, name checks by their titles"
	if r.Audience == api.ReportAudienceEngineering {
		reader = "an engineer: precise, name checks by their ids"
	}
	prompt := fmt.Sprintf("Audit results as JSON:\n%s\n\nWrite for %s. executive: at most 80 words on the overall score, "+
		"the strongest and weakest ring, any gate that caps a score, and the first fix. search, visibility, trust: at most 60 words "+
		"each on that ring's score, grade, cap if any, and the checks to fix first.", b, reader)
	res := sess.Ask(ctx, SummaryPurpose, e, llm.Request{System: summarySystem, Prompt: prompt, Temperature: llm.Zero(), Schema: summarySchema}, 0)
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
		{"executive", &r.Summaries.Executive, &prov.Executive},
		{"search", &r.Summaries.Search, &prov.Search},
		{"visibility", &r.Summaries.Visibility, &prov.Visibility},
		{"trust", &r.Summaries.Trust, &prov.Trust},
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
		if why := ValidateSummary(text, data); why != "" {
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

	statuses map[string]string
	// hosts are the domains the audit data names: the site's, and those
	// its checks' titles, summaries and caveats mention.
	hosts map[string]bool
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

// SummaryFacts reads the structured results of a report.
func SummaryFacts(r *api.Report) SummaryData {
	d := SummaryData{
		Audience: string(r.Audience), Brand: r.BrandName, Overall: r.OverallScore, OverallGrade: string(r.OverallGrade),
		Counts: r.Counts, statuses: map[string]string{}, hosts: map[string]bool{},
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
		d.statuses[c.ID] = string(c.Status)
		named(c.Title)
		named(c.Summary)
		if c.Status == api.CheckStatusFail || c.Status == api.CheckStatusWarn {
			fix = append(fix, c)
		}
	}
	sort.SliceStable(fix, func(i, j int) bool { return rank[fix[i].Impact] < rank[fix[j].Impact] })
	for _, c := range fix[:min(len(fix), 8)] {
		d.Findings = append(d.Findings, FindingData{ID: c.ID, Title: c.Title, Ring: string(c.Ring), Status: string(c.Status), Impact: string(c.Impact)})
	}
	if r.Caveats != nil {
		d.Caveats = *r.Caveats
	}
	for _, c := range d.Caveats {
		named(c)
	}
	return d
}

var (
	sumNumberRE = regexp.MustCompile(`\d+(?:[.,]\d+)?`)
	gradeRE     = regexp.MustCompile(`\b(?:[Gg]rades?|[Gg]raded|rated)\s+(?:of\s+|is\s+|an?\s+)?(A\+|[A-F])(?:[^A-Za-z0-9+]|$)|\((A\+|[A-F])\)|\b(A\+|[A-F])\s+grade\b`)
	idRE        = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
	ringNumRE   = regexp.MustCompile(`(?i)\b(search|visibility|trust|overall)\b(?:\s+ring)?(?:\s+(?:score[sd]?|is|at|of|stands\s+at|reaches))+\s+(\d+(?:\.\d+)?)`)
	claimRE     = regexp.MustCompile(`(?i)\b(pass(?:es|ed)?|fail(?:s|ed)?|warn(?:s|ed)?)\b`)
	// domainRE is a host name as a text would write one; the endings of
	// files a report names (robots.txt, llms.txt, Node.js) are not hosts.
	domainRE  = regexp.MustCompile(`(?i)\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}\b`)
	fileEndRE = regexp.MustCompile(`(?i)\.(txt|xml|json|html?|js|mjs|css|php|pdf|md|png|jpe?g|gif|svg|webp|ico|gz|zip)$`)
	allFineRE = regexp.MustCompile(`(?i)\b(?:everything|every check|all (?:the |\d+ )?checks?)\b[^.!?]{0,30}?\b(?:pass(?:es|ed)?|succeed(?:s|ed)?|(?:is|are|looks?) (?:fine|good|green|in order))\b|\bno (?:issues|problems|failures|failing checks|warnings)\b|\bnothing (?:to fix|fails|failed)\b|\bflawless\b|\bperfect (?:score|results?)\b`)
)

// ValidateSummary returns why a summary text cannot be used ("" when it can): it
// is empty or too long, or it states a number, grade or check the data
// does not hold, names a check, pillar or gate by its id in the marketing
// edition, gives a ring a score that is not its own, or says a check
// passes or fails when its status says otherwise.
func ValidateSummary(text string, d SummaryData) string {
	if text == "" {
		return "the text is empty"
	}
	limit := 900
	if len([]rune(text)) > limit {
		return "the text is longer than " + strconv.Itoa(limit) + " characters"
	}
	if strings.Contains(text, "://") || strings.Contains(text, "<") {
		return "the text contains a link or markup"
	}
	for _, h := range domainRE.FindAllString(text, -1) {
		if !fileEndRE.MatchString(h) && !d.hosts[strings.TrimPrefix(strings.ToLower(h), "www.")] {
			return fmt.Sprintf("it names %s, which the audit data does not", h)
		}
	}
	if m := allFineRE.FindString(text); m != "" && d.Counts.Fail+d.Counts.Warn+deref(d.Counts.Error) > 0 {
		return fmt.Sprintf("it says %q, but %d checks fail and %d warn", m, d.Counts.Fail, d.Counts.Warn)
	}
	nums := d.numbers()
	for _, m := range sumNumberRE.FindAllString(text, -1) {
		v, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", "."), 64)
		if err != nil {
			return fmt.Sprintf("the number %s is not in the report", m)
		}
		if !nums[key(v)] {
			return fmt.Sprintf("the number %s is not in the report", m)
		}
	}
	grades := map[string]bool{d.OverallGrade: true}
	for _, r := range d.Rings {
		grades[r.Grade] = true
	}
	for _, m := range gradeRE.FindAllStringSubmatch(text, -1) {
		g := m[1] + m[2] + m[3]
		if !grades[g] {
			return fmt.Sprintf("the grade %s is not in the report", g)
		}
	}
	ids := d.ids()
	for _, id := range idRE.FindAllString(text, -1) {
		if !ids[id] {
			return fmt.Sprintf("%s is not a check, pillar or gate of the report", id)
		}
		if d.Audience == string(api.ReportAudienceMarketing) {
			return fmt.Sprintf("it names %s by its id, which the marketing edition never shows", id)
		}
	}
	for _, m := range ringNumRE.FindAllStringSubmatch(text, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		want := d.Overall
		if r := strings.ToLower(m[1]); r != "overall" {
			want = float64(d.ring(r).Score)
		}
		if key(v) != key(want) && key(v) != key(math.Round(want)) {
			return fmt.Sprintf("it gives %s a score of %s, but the report says %v", strings.ToLower(m[1]), m[2], want)
		}
	}
	for _, sentence := range regexp.MustCompile(`[^.!?]+`).FindAllString(text, -1) {
		claims := claimRE.FindAllString(sentence, -1)
		if len(claims) == 0 {
			continue
		}
		for _, id := range idRE.FindAllString(sentence, -1) {
			st, ok := d.statuses[id]
			if !ok {
				continue
			}
			for _, c := range claims {
				c = strings.ToLower(c)
				claimed := map[byte]string{'p': "pass", 'f': "fail", 'w': "warn"}[c[0]]
				if len(claims) == 1 && st != claimed {
					return fmt.Sprintf("it says %s %s, but its status is %s", id, c, st)
				}
			}
		}
	}
	return ""
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

// numbers are the numbers a text may state: every score, cap and count of
// the data, "100" (out of 100) and the small counts 1–3 that phrasing
// needs ("two rings", "3 checks").
func (d SummaryData) numbers() map[string]bool {
	out := map[string]bool{}
	add := func(v float64) { out[key(v)] = true }
	add(d.Overall)
	add(math.Round(d.Overall))
	add(100)
	for i := 1; i <= 3; i++ {
		add(float64(i))
	}
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

func (d SummaryData) ids() map[string]bool {
	out := map[string]bool{}
	for id := range d.statuses {
		out[id] = true
	}
	for _, r := range d.Rings {
		for _, p := range r.Pillars {
			out[p.ID] = true
		}
		if r.CappedBy != "" {
			out[r.CappedBy] = true
		}
	}
	for _, g := range d.Gates {
		out[g.ID] = true
		out[g.CheckID] = true
	}
	return out
}
