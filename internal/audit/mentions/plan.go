package mentions

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/geoscan/geoscan/internal/audit/llm"
)

// SummaryCalls are the engine calls kept for the report summaries: one per
// edition (marketing and engineering), which the report writes with the
// scan's session once the measurement is done. The plan leaves them out of
// the measurement's budget, so a measurement that spends all it may still
// leaves the summaries their calls.
const SummaryCalls = 2

// SummaryTokens are the tokens kept for those calls: a summary request
// (the report's scores, gates, at most eight findings and its caveats,
// fenced, with llm.Estimate's room for the answer) is estimated at about
// 2,000 tokens; 2,500 a call leaves a margin.
const SummaryTokens = SummaryCalls * 2500

// Plan is what the measurement of one scan may spend, decided before any
// call: the calls the full measurement needs, the budget left once the
// summaries' calls are set aside, and what was dropped to fit. It depends
// only on the configuration and the site, never on timing or the cache,
// so identical scans plan identically.
//
// When the budget cannot cover the full measurement, whole units are
// dropped in this order, each step only while the plan still does not
// fit: runs per prompt are lowered, for every probe and engine alike, down
// to one; then prompts per probe, the last of each list first, down to
// one; then whole probes: search citations, then the buyer questions
// (with the extraction that would build them), then the accuracy
// judging, then brand recognition. Every engine is asked the same prompts
// the same number of times.
type Plan struct {
	// MaxCalls is the scan's cap on calls; 0 means none.
	MaxCalls int `json:"max_calls"`
	// ReservedForSummaries are the calls kept for the report summaries.
	ReservedForSummaries int `json:"reserved_for_summaries"`
	// Budget is the calls the measurement may make: MaxCalls less the
	// calls kept for the summaries (0 when there is no cap).
	Budget int `json:"budget"`
	// Needed is the calls the full measurement would make, at most.
	Needed int `json:"needed"`
	// Planned is the calls the plan allows (at most Budget).
	Planned int `json:"planned"`

	// The same for tokens, counted with llm.Estimate; 0 means no cap.
	MaxTokens                  int `json:"max_tokens"`
	TokensReservedForSummaries int `json:"tokens_reserved_for_summaries"`
	TokenBudget                int `json:"token_budget"`
	TokensNeeded               int `json:"tokens_needed"`
	TokensPlanned              int `json:"tokens_planned"`

	// Runs is the runs per prompt planned (at most the configured runs).
	Runs int `json:"runs"`
	// PromptsPerProbe is the most prompts a probe asks.
	PromptsPerProbe int `json:"prompts_per_probe"`
	// Dropped says, one sentence per unit, what was left out to fit.
	Dropped []string `json:"dropped,omitempty"`
}

// descriptionChars is how much of each branded answer the judge reads.
const descriptionChars = 1200

// demand is what the full measurement of a subject asks, known before
// any call. What only the first round tells (the buyer questions' values,
// how many branded answers describe the brand) is counted at its most.
type demand struct {
	chat, search int
	recognition  []llm.Request
	// extraction is one request per reading, empty when the site's own
	// facts give the buyer questions' values or nothing can be read.
	extraction []llm.Request
	// buyer are the buyer questions at their longest; the search
	// citations ask the same texts.
	buyer  []llm.Request
	brand  string
	groups [][]Fact
}

// judging is the judging requests of one engine with n descriptions of
// the longest a description may be.
func (d *demand) judging(n int) []llm.Request {
	descs := slices.Repeat([]string{strings.Repeat("a", descriptionChars) + "…"}, n)
	out := make([]llm.Request, 0, len(d.groups))
	for _, g := range d.groups {
		out = append(out, judgeRequest(d.brand, g, descs))
	}
	return out
}

// shape is what a plan keeps: the runs per prompt, the most prompts per
// probe and the probes asked.
type shape struct {
	runs, prompts                            int
	recognition, category, citation, judging bool
}

// cost is the calls and estimated tokens of a shape.
func (d *demand) cost(s shape) (calls, tokens int) {
	add := func(n int, r llm.Request) { calls += n; tokens += n * llm.Estimate(r) }
	if s.recognition {
		for _, r := range d.recognition[:min(len(d.recognition), s.prompts)] {
			add(d.chat*s.runs, r)
		}
	}
	if s.category || s.citation {
		for _, r := range d.extraction {
			add(1, r)
		}
	}
	for _, r := range d.buyer[:min(len(d.buyer), s.prompts)] {
		if s.category {
			add(d.chat*s.runs, r)
		}
		if s.citation {
			add(d.search*s.runs, r)
		}
	}
	if s.judging && s.recognition {
		for _, r := range d.judging(min(len(d.recognition), s.prompts) * s.runs) {
			add(d.chat, r)
		}
	}
	return calls, tokens
}

// Probe names of the plan's sentences.
const (
	probeRecognition = "recognition"
	probeCategory    = "category"
	probeCitation    = "citation"
	probeAccuracy    = "accuracy"
)

// plan fits the demand to the limits (see Plan for the order in which
// units are dropped). left says, for each probe dropped, why it was not
// asked.
func plan(lim llm.Limits, d *demand) (p Plan, left map[string]string) {
	p = Plan{MaxCalls: lim.MaxCalls, MaxTokens: lim.MaxTokens}
	if lim.MaxCalls > 0 {
		p.ReservedForSummaries = SummaryCalls
		p.Budget = max(0, lim.MaxCalls-SummaryCalls)
	}
	if lim.MaxTokens > 0 {
		p.TokensReservedForSummaries = SummaryTokens
		p.TokenBudget = max(0, lim.MaxTokens-SummaryTokens)
	}
	// A probe with nothing to ask is not part of the plan (no engine
	// searches, no category can be had, no fact to judge): it is not
	// dropped to fit, so no sentence blames the budget for it.
	s := shape{
		runs: max(1, lim.Runs), prompts: max(len(d.recognition), len(d.buyer)),
		recognition: d.chat > 0 && len(d.recognition) > 0,
		category:    d.chat > 0 && len(d.buyer) > 0,
		citation:    d.search > 0 && len(d.buyer) > 0,
		judging:     d.chat > 0 && len(d.groups) > 0,
	}
	p.Needed, p.TokensNeeded = d.cost(s)
	// over names the budget a shape exceeds, "" when it fits.
	over := func(s shape) string {
		c, t := d.cost(s)
		var parts []string
		if p.MaxCalls > 0 && c > p.Budget {
			parts = append(parts, fmt.Sprintf("%d calls", p.Budget))
		}
		if p.MaxTokens > 0 && t > p.TokenBudget {
			parts = append(parts, fmt.Sprintf("%d tokens", p.TokenBudget))
		}
		if len(parts) == 0 {
			return ""
		}
		return "to fit the budget of " + strings.Join(parts, " and ")
	}

	if why := over(s); why != "" && s.runs > 1 {
		from := s.runs
		for over(s) != "" && s.runs > 1 {
			s.runs--
		}
		p.Dropped = append(p.Dropped, fmt.Sprintf("runs per prompt were lowered from %d to %d %s", from, s.runs, why))
	}
	if why := over(s); why != "" && s.prompts > 1 {
		from := s.prompts
		for over(s) != "" && s.prompts > 1 {
			s.prompts--
		}
		p.Dropped = append(p.Dropped, fmt.Sprintf("prompts per probe were lowered from %d to %d, the last of each list left out, %s", from, s.prompts, why))
	}
	left = map[string]string{}
	buyer := "the buyer questions were"
	if len(d.extraction) > 0 {
		buyer = "the buyer questions, and the reading of the site that would build them, were"
	}
	for _, probe := range []struct {
		name, what string
		keep       *bool
	}{
		{probeCitation, "the search citations were", &s.citation},
		{probeCategory, buyer, &s.category},
		{probeAccuracy, "the judging of the descriptions' accuracy was", &s.judging},
		{probeRecognition, "the branded prompts were", &s.recognition},
	} {
		why := over(s)
		if why == "" {
			break
		}
		if !*probe.keep {
			continue
		}
		*probe.keep = false
		sentence := probe.what + " left out " + why
		p.Dropped = append(p.Dropped, sentence)
		left[probe.name] = sentence
	}
	p.Planned, p.TokensPlanned = d.cost(s)
	p.Runs, p.PromptsPerProbe = s.runs, s.prompts
	return p, left
}

// newDemand is what measuring subj asks of chat and search engines.
// Values the extraction is still to give stand at the longest they may
// be (a phrase of maxPhraseRunes characters of the widest encoding), so
// the plan bounds what the questions built from them cost.
func newDemand(subj Subject, domain string, facts, buyer []Fact, chat, search int) *demand {
	d := &demand{chat: chat, search: search, brand: subj.Brand, groups: judgeGroups(facts)}
	for _, p := range brandedPrompts(subj.Brand, domain, subj.Language) {
		d.recognition = append(d.recognition, promptRequest(p, subj.Language))
	}
	if needsExtraction(buyer) {
		for _, rd := range subj.Readings {
			d.extraction = append(d.extraction, extractRequest(rd))
		}
	}
	long := strings.Repeat("x", maxPhraseRunes*utf8.UTFMax)
	pick := func(key, longest string) string {
		if v := value(buyer, key); v != "" {
			return v
		}
		if len(d.extraction) > 0 {
			return longest
		}
		return ""
	}
	if category := pick(FactCategory, long); category != "" {
		offers := strings.Join([]string{long, long, long}, ", ")
		for _, p := range categoryPrompts(category, pick(FactOffer, offers), pick(FactLocation, long), subj.Language) {
			d.buyer = append(d.buyer, promptRequest(p, subj.Language))
		}
	}
	return d
}

func needsExtraction(buyer []Fact) bool {
	return need(buyer, FactCategory) || need(buyer, FactOffer) || need(buyer, FactLocation)
}
