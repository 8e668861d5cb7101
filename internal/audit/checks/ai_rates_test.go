package checks

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// Measurements built as values, no engine asked: the rule and what the
// findings say about engines, prompts and repeats.

const http500 = "the engine answered HTTP 500"

// infos lists engines as a measurement does: each chats, and those named
// in search also search the web.
func infos(names []string, search ...string) []llm.Info {
	out := make([]llm.Info, 0, len(names))
	for _, n := range names {
		caps := []llm.Capability{llm.Chat}
		if slices.Contains(search, n) {
			caps = append(caps, llm.WebSearch)
		}
		out = append(out, llm.Info{Name: n, Host: n + ".test", Model: n + "-model", Capabilities: caps})
	}
	return out
}

// cell is the runs of one prompt on one engine: k hits of n answered
// runs, then the errored ones.
type cell struct {
	engine, prompt string
	k, n, errored  int
}

// grid is every engine on every prompt, k of n each.
func grid(engines, prompts []string, k, n int) []cell {
	var out []cell
	for _, e := range engines {
		for _, p := range prompts {
			out = append(out, cell{engine: e, prompt: p, k: k, n: n})
		}
	}
	return out
}

func probesOf(hit, miss string, cells ...cell) mentions.Probes {
	var p mentions.Probes
	for _, c := range cells {
		if !slices.ContainsFunc(p.Prompts, func(x mentions.Prompt) bool { return x.ID == c.prompt }) {
			p.Prompts = append(p.Prompts, mentions.Prompt{ID: c.prompt, Text: "Which bakery in Hebden Bridge, question " + c.prompt + "?"})
		}
		for i := range c.n + c.errored {
			r := mentions.Run{Engine: c.engine, Prompt: c.prompt, Run: i, Outcome: miss, Answer: "An answer."}
			switch {
			case i >= c.n:
				r.Outcome, r.Error, r.Answer = mentions.Errored, http500, ""
			case i < c.k:
				r.Outcome = hit
			}
			p.Runs = append(p.Runs, r)
		}
	}
	return p
}

func measurement(engines []llm.Info) *mentions.Result {
	return &mentions.Result{PromptSet: mentions.PromptSet, Date: "2026-11-23", Domain: "millbrook-bakery.test", Engines: engines}
}

func categoryOf(cells ...cell) *mentions.Result {
	var names []string
	for _, c := range cells {
		if !slices.Contains(names, c.engine) {
			names = append(names, c.engine)
		}
	}
	res := measurement(infos(names))
	res.Category = probesOf(mentions.Mentioned, mentions.NotMentioned, cells...)
	return res
}

// eval runs a check of the catalog on a measurement and holds its result
// to the evidence rule.
func eval(t *testing.T, id string, res *mentions.Result) Result {
	t.Helper()
	r := Lookup(id).Eval(&Input{Mentions: res, Now: testNow})
	requireResult(t, r)
	return r
}

func byEngineRow(t *testing.T, r Result, engine string) map[string]any {
	t.Helper()
	rows, ok := r.Evidence["by_engine"].([]map[string]any)
	require.True(t, ok, "by_engine rows")
	for _, row := range rows {
		if row["engine"] == engine {
			return row
		}
	}
	require.Failf(t, "no by_engine row", "engine %s", engine)
	return nil
}

func TestAIRatesGradePerEngineAndPerPrompt(t *testing.T) {
	t.Parallel()
	c12 := []string{"c1", "c2"}
	c1234 := []string{"c1", "c2", "c3", "c4"}
	for _, tc := range []struct {
		name    string
		res     *mentions.Result
		status  Status
		summary []string
		ev      map[string]any
		engine  map[string]string // engine → its own verdict
	}{
		{
			name: "a pooled pass does not hide an engine at none",
			res:  categoryOf(append(grid([]string{"a", "b", "c"}, c12, 3, 3), grid([]string{"d"}, c12, 0, 3)...)...),
			// 18 of 24 passes the mark of 1/2; d alone lies wholly below it.
			status: Warn,
			summary: []string{
				"The brand was named in 18 of 24 buyer answers",
				"But d (d-model) named it in 0 of 6 buyer answers (95 % interval 0–39 %), wholly below the pass mark of 50 %, so the pooled pass counts as a warning.",
			},
			ev:     ev("k", 18, "n", 24, "engines_below_pass_mark", []string{"d"}),
			engine: map[string]string{"a": "pass", "d": "fail"},
		},
		{
			name: "engines that agree pass",
			res:  categoryOf(grid([]string{"a", "b", "c", "d"}, c12, 3, 3)...),
			// The same pool without the silent engine.
			status:  Pass,
			summary: []string{"named in 24 of 24 buyer answers"},
			ev:      ev("k", 24, "n", 24),
			engine:  map[string]string{"d": "pass"},
		},
		{
			name:    "6 of 9 holds the mark",
			res:     categoryOf(grid([]string{"a"}, []string{"c1", "c2", "c3"}, 2, 3)...),
			status:  Info,
			summary: []string{"Insufficient data: the brand was named in 6 of 9 buyer answers (67 %, 95 % interval 35–88 %)", "neither a pass nor a fail"},
			ev:      ev("insufficient_data", true),
		},
		{
			name:    "6 of 12 holds the mark, and more runs at this rate never settle it",
			res:     categoryOf(append(grid([]string{"a"}, []string{"c1", "c2"}, 3, 3), grid([]string{"a"}, []string{"c3", "c4"}, 0, 3)...)...),
			status:  Info,
			summary: []string{"Insufficient data: the brand was named in 6 of 12", "even 20 runs per prompt, the most GEOSCAN_LLM_RUNS allows, would typically not settle it"},
			ev:      ev("insufficient_data", true, "rate", 0.5),
		},
		{
			name: "engines decided on their own are named when the pool is not",
			res:  categoryOf(append(grid([]string{"a"}, c1234, 3, 3), grid([]string{"b"}, c1234, 0, 3)...)...),
			// 12 of 24 is undecided; a clears the mark and b misses it.
			status:  Info,
			summary: []string{"On its own, a (a-model) clears it with 12 of 12 and b (b-model) falls below it with 0 of 12."},
			engine:  map[string]string{"a": "pass", "b": "fail"},
		},
		{
			name: "a verdict that rests on the repeats of one prompt says so",
			res: categoryOf(cell{engine: "a", prompt: "c1", k: 3, n: 3}, cell{engine: "a", prompt: "c2", k: 3, n: 3},
				cell{engine: "a", prompt: "c3", k: 3, n: 3}, cell{engine: "a", prompt: "c4", k: 1, n: 3}),
			// 10 of 12 passes; 7 of 9 without c1 would not.
			status:  Pass,
			summary: []string{"The verdict rests on the repeats of one prompt: without the 3 answers of a (a-model) to prompt c1 it would be insufficient data"},
			ev:      ev("verdict_rests_on", map[string]any{"engine": "a", "prompt": "c1", "n": 3, "without_it": "insufficient_data"}),
		},
		{
			name:    "a verdict no single prompt decides says nothing of repeats",
			res:     categoryOf(grid([]string{"a"}, c1234, 3, 3)...),
			status:  Pass,
			summary: []string{"named in 12 of 12"},
		},
		{
			name:    "errored runs are left out of the engine's own figure",
			res:     categoryOf(append(grid([]string{"a"}, c1234, 3, 3), cell{engine: "b", prompt: "c1", errored: 3})...),
			status:  Pass,
			summary: []string{"3 runs were not checked (" + http500 + ") and are left out."},
			engine:  map[string]string{"a": "pass", "b": "not_checked"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := eval(t, "llm_category_mention_rate", tc.res)
			t.Log(r.Summary)
			require.Equal(t, tc.status, r.Status, r.Summary)
			for _, s := range tc.summary {
				require.Contains(t, r.Summary, s)
			}
			for k, want := range tc.ev {
				require.Equal(t, fmt.Sprint(want), fmt.Sprint(r.Evidence[k]), "evidence %s", k)
			}
			for engine, verdict := range tc.engine {
				require.Equal(t, verdict, byEngineRow(t, r, engine)["verdict"], engine)
			}
			if tc.status != Info {
				require.NotContains(t, r.Evidence, "insufficient_data")
				require.NotContains(t, r.Summary, "Insufficient data")
			}
			if _, ok := tc.ev["verdict_rests_on"]; !ok {
				require.NotContains(t, r.Evidence, "verdict_rests_on")
			}
			// The pooled keys other code reads stay.
			for _, k := range []string{"k", "n", "rate", "interval_95", "pass_mark", "by_engine", "by_prompt", "clusters"} {
				require.Contains(t, r.Evidence, k)
			}
		})
	}
}

// The breakdowns add up to the pooled figure: by engine, by prompt and by
// engine and prompt.
func TestAIRatesBreakdownsAddUp(t *testing.T) {
	t.Parallel()
	res := categoryOf(cell{engine: "a", prompt: "c1", k: 2, n: 3}, cell{engine: "a", prompt: "c2", k: 0, n: 2, errored: 1},
		cell{engine: "b", prompt: "c1", k: 3, n: 3}, cell{engine: "b", prompt: "c2", k: 1, n: 3})
	r := eval(t, "llm_category_mention_rate", res)
	k, n := r.Evidence["k"].(int), r.Evidence["n"].(int)
	require.Equal(t, 6, k)
	require.Equal(t, 11, n)
	for _, key := range []string{"by_engine", "by_prompt", "clusters"} {
		rows := r.Evidence[key].([]map[string]any)
		sumK, sumN := 0, 0
		for _, row := range rows {
			sumK += row["k"].(int)
			sumN += row["n"].(int)
		}
		require.Equal(t, k, sumK, key)
		require.Equal(t, n, sumN, key)
	}
	require.Len(t, r.Evidence["clusters"], 4)
	prompts := r.Evidence["by_prompt"].([]map[string]any)
	require.Equal(t, "c2", prompts[1]["prompt"])
	require.Equal(t, 1, prompts[1]["k"])
	require.Equal(t, 5, prompts[1]["n"])
	require.Contains(t, prompts[1]["text"], "question c2")
	a := byEngineRow(t, r, "a")
	require.Equal(t, 1, a["not_checked"])
	require.Equal(t, "a-model", a["model"])
	require.Contains(t, a, "interval_95")
}

// rank orders the decisions from worst to best.
var rank = map[decision]int{decidedFail: 0, decidedWarn: 1, insufficientData: 2, decidedPass: 3}

// No cliff: one more answer that misses never raises a verdict and one
// that hits never lowers it, for every k of n up to 60 at each mark, so
// 6 of 12 cannot pass where 6 of 9 does not.
func TestAIRateRuleIsMonotone(t *testing.T) {
	t.Parallel()
	for _, mark := range []float64{recognitionPassMark, mentionPassMark, citationPassMark} {
		for n := 1; n < 60; n++ {
			for k := 0; k <= n; k++ {
				d := decide(tally{k: k, n: n}, mark)
				miss, hit := decide(tally{k: k, n: n + 1}, mark), decide(tally{k: k + 1, n: n + 1}, mark)
				require.LessOrEqual(t, rank[miss], rank[d], "%d of %d then a miss, mark %.3f", k, n, mark)
				require.GreaterOrEqual(t, rank[hit], rank[d], "%d of %d then a hit, mark %.3f", k, n, mark)
			}
		}
	}
	require.Equal(t, decide(tally{k: 6, n: 9}, mentionPassMark), decide(tally{k: 6, n: 12}, mentionPassMark))
}

// The runs said to settle an undecided rate do, at its rate, and one
// fewer would not.
func TestAIRunsToSettle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		k, n, groups, perPrompt int
		mark                    float64
	}{
		{6, 6, 2, 3, recognitionPassMark},
		{2, 2, 2, 1, recognitionPassMark},
		{4, 12, 4, 3, mentionPassMark},
		{7, 9, 3, 3, mentionPassMark},
		{1, 9, 3, 3, citationPassMark},
	} {
		t0 := tally{k: tc.k, n: tc.n}
		require.Equal(t, insufficientData, decide(t0, tc.mark), "%d of %d is undecided", tc.k, tc.n)
		r := runsToSettle(t0, tc.groups, tc.perPrompt, tc.mark)
		require.Greater(t, r, tc.perPrompt, "%d of %d", tc.k, tc.n)
		at := func(r int) decision {
			n := r * tc.groups
			return decide(tally{k: int(float64(n)*float64(tc.k)/float64(tc.n) + 0.5), n: n}, tc.mark)
		}
		require.NotEqual(t, insufficientData, at(r), "%d of %d at %d runs per prompt", tc.k, tc.n, r)
		if r-1 > tc.perPrompt {
			require.Equal(t, insufficientData, at(r-1), "%d of %d at %d runs per prompt", tc.k, tc.n, r-1)
		}
	}
	require.Zero(t, runsToSettle(tally{k: 6, n: 12}, 4, 3, mentionPassMark), "a rate on the mark never settles")
}

// Insufficient data is reported and never scored: the pillar is scored
// on the other checks, and its coverage drops by the check's weight.
func TestAIInsufficientDataIsNotScored(t *testing.T) {
	t.Parallel()
	res := categoryOf(grid([]string{"a"}, []string{"c1", "c2", "c3", "c4"}, 3, 3)...)
	res.Recognition = probesOf(mentions.Known, mentions.NotMentioned, grid([]string{"a"}, []string{"b1", "b2"}, 3, 3)...)
	in := &Input{Mentions: res, Now: testNow}
	var scores []scoring.CheckScore
	statuses := map[string]Status{}
	var weight, scored float64
	for _, c := range aiMentionsChecks() {
		r := c.Eval(in)
		statuses[c.ID] = r.Status
		scores = append(scores, scoring.CheckScore{ID: c.ID, Ring: c.Ring, Pillar: c.Pillar, Weight: c.Weight, Status: string(r.Status)})
		weight += c.Weight
		if _, ok := r.Status.Score(); ok {
			scored += c.Weight
		}
	}
	require.Equal(t, Info, statuses["llm_brand_recognition"], "6 of 6 cannot clear the mark of 2/3")
	require.Equal(t, Pass, statuses["llm_category_mention_rate"])
	var pillar *scoring.PillarResult
	for _, p := range scoring.Score(scores).Ring(scoring.RingTrust).Pillars {
		if p.Def.ID == pillarAIMentions {
			pillar = &p
		}
	}
	require.NotNil(t, pillar)
	require.NotNil(t, pillar.Score)
	require.Equal(t, 100, *pillar.Score, "the undecided check costs nothing")
	require.InDelta(t, scored/weight, pillar.Coverage, 0.001, "and is not covered")
	require.Less(t, pillar.Coverage, 1.0)
}

// Every recognition run errored: accuracy was not checked, which is not
// the same as engines that answered without describing the brand.
func TestAIAccuracyWhenEnginesFail(t *testing.T) {
	t.Parallel()
	facts := []mentions.Fact{{Key: mentions.FactName, Value: "Millbrook Bakery", Source: "JSON-LD Bakery (name)"}}
	judged := func(engine string, descriptions int, verdict string) mentions.Judgement {
		j := mentions.Judgement{Engine: engine, JudgeEngine: "a", JudgeModel: "a-model", Descriptions: descriptions}
		if descriptions > 0 {
			j.Facts = []mentions.FactVerdict{{Key: mentions.FactName, SiteValue: "Millbrook Bakery", Verdict: verdict, ModelSays: "Millbrook Bakery"}}
		}
		return j
	}
	b12 := []string{"b1", "b2"}
	for _, tc := range []struct {
		name    string
		rec     []cell
		judged  []mentions.Judgement
		status  Status
		summary string
		leftOut []string
	}{
		{
			name: "no engine answered", rec: []cell{{engine: "a", prompt: "b1", errored: 3}, {engine: "a", prompt: "b2", errored: 3}, {engine: "b", prompt: "b1", errored: 3}},
			judged: []mentions.Judgement{judged("a", 0, ""), judged("b", 0, "")},
			status: Error, summary: "Not checked: no engine answered a branded prompt (" + http500 + "), so there is no description to judge.",
		},
		{
			name: "engines answered, none described the brand", rec: grid([]string{"a", "b"}, b12, 0, 3),
			judged: []mentions.Judgement{judged("a", 0, ""), judged("b", 0, "")},
			status: NA, summary: "No engine described the brand",
		},
		{
			name: "one engine answered nothing and is named", rec: append(grid([]string{"a"}, b12, 3, 3), cell{engine: "b", prompt: "b1", errored: 3}),
			judged: []mentions.Judgement{judged("a", 6, mentions.VerdictConfirmed), judged("b", 0, "")},
			status: Pass, summary: "Left out of the judging: b (b-model), which answered no branded prompt (" + http500 + ").", leftOut: []string{"b"},
		},
		{
			name: "the engine that answered did not describe the brand", rec: append(grid([]string{"a"}, b12, 0, 3), cell{engine: "b", prompt: "b1", errored: 3}),
			judged: []mentions.Judgement{judged("a", 0, ""), judged("b", 0, "")},
			status: NA, summary: "nothing to judge. Left out of the judging: b (b-model)", leftOut: []string{"b"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := measurement(infos([]string{"a", "b"}))
			res.Facts = facts
			res.Recognition = probesOf(mentions.Known, mentions.NotMentioned, tc.rec...)
			res.Accuracy = tc.judged
			r := eval(t, "llm_brand_accuracy", res)
			require.Equal(t, tc.status, r.Status, r.Summary)
			require.Contains(t, r.Summary, tc.summary)
			if tc.leftOut != nil {
				require.Equal(t, tc.leftOut, r.Evidence["engines_left_out"])
			} else {
				require.NotContains(t, r.Evidence, "engines_left_out")
			}
		})
	}
}

// Branded prompts the budget left out: recognition is not measured, and
// neither is accuracy, which has no description to judge; neither is an
// error, nothing failed.
func TestAIRecognitionLeftOutByThePlan(t *testing.T) {
	t.Parallel()
	res := measurement(infos([]string{"a"}))
	res.Facts = []mentions.Fact{{Key: mentions.FactName, Value: "Millbrook Bakery", Source: "JSON-LD Bakery (name)"}}
	res.Recognition.Skipped = "the branded prompts were left out to fit the budget of 3 calls"
	rec := eval(t, "llm_brand_recognition", res)
	require.Equal(t, NA, rec.Status, rec.Summary)
	require.Equal(t, "Not measured: the branded prompts were left out to fit the budget of 3 calls; not scored.", rec.Summary)
	acc := eval(t, "llm_brand_accuracy", res)
	require.Equal(t, NA, acc.Status, acc.Summary)
	require.Equal(t, "Not measured: the branded prompts were left out to fit the budget of 3 calls, so there is no description to judge; not scored.", acc.Summary)
}

// A failed reading of the site's category leaves the buyer questions
// unasked: not checked, naming the engine that read, whatever words the
// probe gives for it; with no engine that searches, citations are not
// measured at all.
func TestAIFactsErrorIsNotChecked(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		search   []string
		skipped  string
		judge    bool
		citation Status
	}{
		{name: "the probe quotes the error", search: []string{"s"}, skipped: "the site's category could not be extracted: " + http500, judge: true, citation: Error},
		{name: "the probe words it otherwise", search: []string{"s"}, skipped: "the category reading failed", judge: true, citation: Error},
		{name: "the probe gives no reason", search: []string{"s"}, citation: Error},
		{name: "no engine searches", skipped: "the category reading failed", judge: true, citation: NA},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := measurement(infos([]string{"a", "s"}, tc.search...))
			res.FactsError = http500
			res.Category.Skipped, res.Citation.Skipped = tc.skipped, tc.skipped
			if tc.judge {
				res.Accuracy = []mentions.Judgement{{Engine: "s", JudgeEngine: "a", JudgeModel: "a-model"}}
			}
			cat := eval(t, "llm_category_mention_rate", res)
			require.Equal(t, Error, cat.Status, cat.Summary)
			require.Equal(t, "Not checked: reading the site's category with a (a-model) failed ("+http500+"), so no buyer question was asked.", cat.Summary)
			require.Equal(t, "a", cat.Evidence["extraction_engine"])
			require.Equal(t, http500, cat.Evidence["facts_error"])
			cit := eval(t, "llm_search_citation", res)
			require.Equal(t, tc.citation, cit.Status, cit.Summary)
			if tc.citation == NA {
				require.Contains(t, cit.Summary, "no configured engine can search the web")
			} else {
				require.Contains(t, cit.Summary, "with a (a-model) failed ("+http500+")")
			}
		})
	}
}

// A reading of the site that failed only in part, while the buyer
// questions were asked, is no reason to leave a check unchecked: the
// search probe the budget cut is not measured, with the plan's reason.
func TestAIPartialFactsErrorWithQuestionsAsked(t *testing.T) {
	t.Parallel()
	res := categoryOf(grid([]string{"a"}, []string{"c1", "c2", "c3", "c4"}, 3, 3)...)
	res.Engines = infos([]string{"a"}, "a")
	res.FactsError = "the extraction by a (a-model) failed on the site's metadata: " + http500
	res.Citation.Skipped = "the search citations were left out to fit the budget of 20 calls"
	cat := eval(t, "llm_category_mention_rate", res)
	require.Equal(t, Pass, cat.Status, cat.Summary)
	require.Equal(t, res.FactsError, cat.Evidence["facts_error"])
	cit := eval(t, "llm_search_citation", res)
	require.Equal(t, NA, cit.Status, cit.Summary)
	require.Equal(t, "Not measured: the search citations were left out to fit the budget of 20 calls; not scored.", cit.Summary)
}

// The plan of a budgeted measurement is in the evidence, and a measurement
// cut to fit says so.
func TestAIPlanIsShown(t *testing.T) {
	t.Parallel()
	res := categoryOf(grid([]string{"a"}, []string{"c1", "c2", "c3", "c4"}, 3, 3)...)
	full := eval(t, "llm_category_mention_rate", res)
	require.NotContains(t, full.Evidence, "plan", "no plan, no plan evidence")
	require.NotContains(t, full.Summary, "budget")

	res.Plan = mentions.Plan{Budget: 40, ReservedForSummaries: 2, Needed: 60, Planned: 38, Runs: 2, Dropped: []string{"The web-search prompts were not asked."}}
	r := eval(t, "llm_category_mention_rate", res)
	require.Contains(t, r.Summary, "To fit the scan's budget, 1 part of the measurement was cut (see the plan in the evidence).")
	plan := r.Evidence["plan"].(map[string]any)
	require.Equal(t, 40, plan["budget"])
	require.Equal(t, []string{"The web-search prompts were not asked."}, plan["dropped"])
}
