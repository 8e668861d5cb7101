package mentions

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

// The four engines of docs/AI.md at the default limits: the full
// measurement needs more than the 80 calls, so the plan lowers the runs
// per prompt, asks only what it planned, and leaves the summaries' calls
// and tokens.
func TestPlanOfTheDocumentedEnginesKeepsTheSummaries(t *testing.T) {
	t.Parallel()
	b := setup(t, world{}.script,
		engine{name: "default"},
		engine{name: "perplexity", search: true, searchAPI: llm.SearchChat},
		engine{name: "openai-search", search: true, searchAPI: llm.SearchResponses},
		engine{name: "local"},
	)
	lim := llm.DefaultLimits
	res, sess := b.measure(lim, bakery())
	p := res.Plan

	// Two branded prompts and four buyer questions (the offer is still
	// to be read) on four chat engines, the questions again on two search
	// engines, two readings, and two judging calls per chat engine.
	r := lim.Runs
	full := 2*r*4 + 2 + 4*r*4 + 4*r*2 + 2*4
	require.Equal(t, full, p.Needed)
	require.Equal(t, lim.MaxCalls-SummaryCalls, p.Budget)
	require.Equal(t, SummaryCalls, p.ReservedForSummaries)
	require.Equal(t, 2, p.Runs)
	require.Equal(t, 4, p.PromptsPerProbe)
	require.Equal(t, 2*2*4+2+4*2*4+4*2*2+2*4, p.Planned)
	require.LessOrEqual(t, p.Planned, p.Budget)
	require.LessOrEqual(t, p.TokensPlanned, p.TokenBudget)
	require.Equal(t, []string{fmt.Sprintf("runs per prompt were lowered from %d to 2 to fit the budget of 78 calls and 95000 tokens", r)}, p.Dropped)

	for _, r := range allRuns(res) {
		require.NotEqual(t, Errored, r.Outcome, "%s %s %d: %s", r.Engine, r.Prompt, r.Run, r.Error)
		require.Less(t, r.Run, 2)
	}
	require.Len(t, res.Recognition.Runs, 2*2*4)
	require.Len(t, res.Category.Runs, 4*2*4)
	require.Len(t, res.Citation.Runs, 4*2*2)
	for _, j := range res.Accuracy {
		require.Empty(t, j.Error, j.Engine)
		require.Len(t, j.Facts, 3)
	}
	u := sess.Usage()
	// Identical requests (two engines' identical descriptions judged) are
	// asked once and shared, so calls and shared answers make the plan.
	require.Equal(t, p.Planned, u.Calls+u.CacheHits, "the plan counted every call made")
	require.LessOrEqual(t, u.Tokens, p.TokensPlanned)

	// The summaries still have their calls.
	for i := range SummaryCalls {
		r := sess.Ask(context.Background(), "summaries", b.engines[0], llm.Request{Prompt: fmt.Sprintf("Summarise edition %d.", i)}, 0)
		require.NoError(t, r.Err)
		require.False(t, r.Cached)
	}
}

// Three measurements against the same answers, with a budget the full
// measurement does not fit and answers that arrive slowly for some
// prompts and at once for others, are identical: what is asked is
// decided before any call, never by which call reaches the budget first.
func TestMeasureUnderBudgetIsDeterministic(t *testing.T) {
	t.Parallel()
	script := world{other: func(c scripted.Call) scripted.Reply {
		var rep scripted.Reply
		switch {
		case strings.HasPrefix(c.Prompt, "What is"):
			rep = scripted.Reply{Text: knows, Delay: 60 * time.Millisecond}
		case strings.HasPrefix(c.Prompt, "What does"):
			rep = scripted.Reply{Text: "I don't have any specific information about that site."}
		case c.WebSearch:
			rep = scripted.Reply{Text: "Try Greggs.", Retrieved: []string{"https://www.millbrook-bakery.test/about/"}}
		case strings.Contains(c.Prompt, "alternatives"):
			rep = scripted.Reply{Text: "Consider **Greggs** or **Bettys**.", Delay: 40 * time.Millisecond}
		default:
			rep = scripted.Reply{Text: "Top picks:\n1. **Millbrook Bakery**\n2. **Greggs**"}
		}
		if c.Model == "other-model" {
			rep.Delay += 20 * time.Millisecond
		}
		return rep
	}}.script
	b := setup(t, script, engine{name: "default"}, engine{name: "other"}, engine{name: "searcher", search: true})
	lim := llm.Limits{Runs: 3, MaxCalls: 60, MaxTokens: 1_000_000, Concurrency: 4}

	first, sess := b.measure(lim, bakery())
	require.Greater(t, first.Plan.Needed, first.Plan.Budget, "the budget does not cover the full measurement")
	require.Equal(t, 2, first.Plan.Runs)
	require.NotEmpty(t, first.Plan.Dropped)
	require.LessOrEqual(t, sess.Usage().Calls, first.Plan.Budget)
	for _, r := range allRuns(first) {
		require.NotEqual(t, Errored, r.Outcome, "%s %s %d: %s", r.Engine, r.Prompt, r.Run, r.Error)
	}
	require.NotEmpty(t, first.Citation.Runs)
	for range 2 {
		again, _ := b.measure(lim, bakery())
		require.Equal(t, first, again)
	}
}

// The plan drops whole units in its documented order, each only while
// the plan does not fit: runs, then prompts, then the citations, the
// buyer questions with their extraction, the judging and the branded
// prompts.
func TestPlanDropOrder(t *testing.T) {
	t.Parallel()
	// Three chat engines, one of which searches; the bakery needs its
	// category extracted (two readings) and has two judging groups.
	const chat, search, readings, groups = 3, 1, 2, 2
	calls := func(runs, prompts int, citation, category, judging, recognition bool) int {
		n := 0
		if recognition {
			n += min(2, prompts) * runs * chat
		}
		if category {
			n += readings + min(4, prompts)*runs*chat
		}
		if citation {
			n += min(4, prompts) * runs * search
		}
		if judging && recognition {
			n += groups * chat
		}
		return n
	}
	d := newDemand(bakery(), "millbrook-bakery.test", bakery().Facts, nil, chat, search)
	for _, c := range []struct {
		maxCalls, runs, prompts int
		citation, category      bool
		judging, recognition    bool
		dropped                 []string
	}{
		{0, 3, 4, true, true, true, true, nil},
		{2 + calls(3, 4, true, true, true, true), 3, 4, true, true, true, true, nil},
		{1 + calls(3, 4, true, true, true, true), 2, 4, true, true, true, true, []string{"runs per prompt"}},
		{30, 1, 3, true, true, true, true, []string{"runs per prompt", "prompts per probe"}},
		{2 + calls(1, 1, false, true, true, true), 1, 1, false, true, true, true, []string{"runs per prompt", "prompts per probe", "search citations"}},
		{2 + calls(1, 1, false, false, true, true), 1, 1, false, false, true, true, []string{"runs per prompt", "prompts per probe", "search citations", "buyer questions, and the reading"}},
		{2 + calls(1, 1, false, false, false, true), 1, 1, false, false, false, true, []string{"runs per prompt", "prompts per probe", "search citations", "buyer questions", "judging"}},
		{2 + calls(1, 1, false, false, false, true) - 1, 1, 1, false, false, false, false, []string{"runs per prompt", "prompts per probe", "search citations", "buyer questions", "judging", "branded prompts"}},
		{1, 1, 1, false, false, false, false, []string{"runs per prompt", "prompts per probe", "search citations", "buyer questions", "judging", "branded prompts"}},
	} {
		lim := llm.Limits{Runs: 3, MaxCalls: c.maxCalls}
		p, left := plan(lim, d)
		again, _ := plan(lim, d)
		require.Equal(t, p, again, "max %d", c.maxCalls)
		require.Equal(t, calls(3, 4, true, true, true, true), p.Needed)
		require.Equal(t, c.runs, p.Runs, "max %d", c.maxCalls)
		require.Equal(t, c.prompts, p.PromptsPerProbe, "max %d", c.maxCalls)
		require.Equal(t, calls(c.runs, c.prompts, c.citation, c.category, c.judging, c.recognition), p.Planned, "max %d", c.maxCalls)
		if c.maxCalls > 0 {
			require.Equal(t, max(0, c.maxCalls-SummaryCalls), p.Budget)
			require.LessOrEqual(t, p.Planned, p.Budget, "max %d", c.maxCalls)
		}
		require.Len(t, p.Dropped, len(c.dropped), "max %d: %q", c.maxCalls, p.Dropped)
		for i, want := range c.dropped {
			require.Contains(t, p.Dropped[i], want)
			require.Contains(t, p.Dropped[i], "to fit the budget of ")
		}
		require.Equal(t, !c.citation, left[probeCitation] != "")
		require.Equal(t, !c.category, left[probeCategory] != "")
		require.Equal(t, !c.judging, left[probeAccuracy] != "")
		require.Equal(t, !c.recognition, left[probeRecognition] != "")
	}

	// The token cap is planned for the same way, and named.
	free, _ := plan(llm.Limits{Runs: 3}, d)
	p, _ := plan(llm.Limits{Runs: 3, MaxTokens: SummaryTokens + free.TokensNeeded - 1}, d)
	require.Equal(t, 2, p.Runs)
	require.LessOrEqual(t, p.TokensPlanned, p.TokenBudget)
	require.Len(t, p.Dropped, 1)
	require.Contains(t, p.Dropped[0], " tokens")
	require.NotContains(t, p.Dropped[0], " calls")
}

// A probe dropped to fit is not asked, and says so; it never reads as
// something the site lacks.
func TestMeasureAsksOnlyThePlan(t *testing.T) {
	t.Parallel()
	b := setup(t, world{}.script, engine{name: "default"}, engine{name: "searcher", search: true})
	// Runs and prompts at one, the citations and buyer questions out:
	// the branded prompts (2 engines) and the judging (2 × 2) fit.
	res, sess := b.measure(llm.Limits{Runs: 3, MaxCalls: 2 + 2 + 4, MaxTokens: 1_000_000, Concurrency: 4}, bakery())
	require.Equal(t, sess.Usage().Calls+sess.Usage().CacheHits, res.Plan.Planned)
	require.Len(t, res.Recognition.Runs, 2)
	require.Empty(t, res.Category.Runs)
	require.Empty(t, res.Citation.Runs)
	require.Contains(t, res.Category.Skipped, "the buyer questions, and the reading of the site that would build them, were left out to fit the budget of 6 calls")
	require.Contains(t, res.Citation.Skipped, "the search citations were left out")
	require.Empty(t, res.FactsError)
	for _, c := range b.srv.Received() {
		require.NotEqual(t, "site_facts", c.Schema, "the extraction is not asked for questions that are not")
	}
	for _, j := range res.Accuracy {
		require.Empty(t, j.Error)
	}

	// With the judging left out too, each engine's judgement says why.
	res, _ = b.measure(llm.Limits{Runs: 3, MaxCalls: 2 + 2 + 3, MaxTokens: 1_000_000, Concurrency: 4}, bakery())
	require.Len(t, res.Accuracy, 2)
	for _, j := range res.Accuracy {
		require.Equal(t, 1, j.Descriptions)
		require.Contains(t, j.Error, "not judged: the judging of the descriptions' accuracy was left out")
		require.Empty(t, j.Facts)
	}
}

// Descriptions longer than the plan counted them (text in a wider
// script) are cut, the last first, so the judging request is no larger
// than planned.
func TestFitDescriptions(t *testing.T) {
	t.Parallel()
	size := func(ds []string) int {
		n := 0
		for _, d := range ds {
			n += len(d)
		}
		return n
	}
	fits := func(limit int) func([]string) bool {
		return func(ds []string) bool { return size(ds) <= limit }
	}
	descs := []string{strings.Repeat("a", 100), strings.Repeat("面", 100)}
	require.Equal(t, descs, fitDescriptions(descs, fits(400)))

	got := fitDescriptions(descs, fits(250))
	require.Len(t, got, 2)
	require.Equal(t, descs[0], got[0])
	require.LessOrEqual(t, size(got), 250)
	require.Greater(t, size(got)+len("面"), 250, "the longest cut that fits")
	require.True(t, strings.HasSuffix(got[1], "…"))

	require.Equal(t, descs[:1], fitDescriptions(descs, fits(102)), "no room for even a cut: left out")
	require.Empty(t, fitDescriptions(descs, fits(1)))

	// Through Measure: answers in a wider script are judged within the
	// plan's size.
	long := "Millbrook Bakery " + strings.Repeat("是一家面包店", 300)
	b := setup(t, world{other: func(c scripted.Call) scripted.Reply {
		if strings.HasPrefix(c.Prompt, "What is") || strings.HasPrefix(c.Prompt, "What does") {
			return scripted.Reply{Text: long}
		}
		return scripted.Reply{Text: "Greggs."}
	}}.script)
	res, _ := b.measure(roomy, bakery())
	d := newDemand(bakery(), "millbrook-bakery.test", res.Facts, res.Buyer, 1, 0)
	planned := d.judging(len(res.Recognition.Runs))
	judged := 0
	for _, c := range b.srv.Received() {
		if c.Schema != "fact_verdicts" {
			continue
		}
		judged++
		limit := 0
		for _, r := range planned {
			limit = max(limit, llm.Estimate(r))
		}
		require.LessOrEqual(t, llm.Estimate(llm.Request{System: c.System, Prompt: c.Prompt}), limit)
	}
	require.Equal(t, 2, judged)
	require.Positive(t, res.Accuracy[0].Descriptions)
}
