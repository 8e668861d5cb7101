package audit_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// The engines below misbehave the way real ones do, on the wire, through
// the real client. Whatever they do, an answer that is not an answer is
// "not checked": no AI check passes, warns or fails on it, the trust ring
// is scored as if the check had not been asked, and nothing is cached.

// fakeLayer is an AI layer over one scripted engine (chat and web search).
func fakeLayer(t *testing.T, srv *scripted.Server, lim llm.Limits, cache llm.Cache) *llm.Layer {
	t.Helper()
	e, err := llm.NewOpenAI(llm.EngineConfig{
		Name: "fake", BaseURL: srv.URL, Model: "fake-1",
		Capabilities: []llm.Capability{llm.Chat, llm.WebSearch},
	})
	require.NoError(t, err)
	return &llm.Layer{Default: e, Engines: []llm.Engine{e}, Limits: lim, Cache: cache}
}

// aiOutcomes are the four AI mention checks' outcomes by id.
func aiOutcomes(res audit.Result) map[string]checks.Outcome {
	out := map[string]checks.Outcome{}
	for _, o := range res.Outcomes {
		if o.Check.Pillar == "ai_mentions" {
			out[o.Check.ID] = o
		}
	}
	return out
}

func TestMisbehavingEnginesAreNeverAnAnswer(t *testing.T) {
	t.Parallel()
	quiet := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{})
	trustWithout := quiet.Scores.Ring(scoring.RingTrust).Score

	lim := llm.DefaultLimits
	lim.CallTimeout = 300 * time.Millisecond
	for _, tc := range []struct {
		name  string
		reply scripted.Reply
	}{
		{"empty", scripted.Reply{Empty: true}},
		{"refusal field", scripted.Reply{Refusal: "I can't help with that."}},
		{"refusal in text", scripted.Reply{RefuseInText: true}},
		{"malformed", scripted.Reply{Malformed: true}},
		{"slow", scripted.Reply{Text: "Millbrook Bakery is a bakery.", Delay: 2 * time.Second}},
		{"rate limited", scripted.Reply{Status: 429, RetryAfter: "0"}},
		{"server error", scripted.Reply{Status: 500}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := scripted.Start(func(scripted.Call) scripted.Reply { return tc.reply })
			t.Cleanup(srv.Close)
			cache := &llm.MemoryCache{}
			res := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{AI: fakeLayer(t, srv, lim, cache)})

			ai := aiOutcomes(res)
			require.Len(t, ai, 4)
			for id, o := range ai {
				require.Equal(t, checks.Error, o.Result.Status, "%s: %s", id, o.Result.Summary)
				require.True(t, strings.HasPrefix(o.Result.Summary, "Not checked"), "%s: %s", id, o.Result.Summary)
			}
			require.Equal(t, trustWithout, res.Scores.Ring(scoring.RingTrust).Score,
				"a check nobody answered is scored as if it had not been asked")
			require.Zero(t, cache.Len(), "nothing that is not an answer is cached")
			require.Positive(t, srv.Calls())
			require.Contains(t, strings.Join(*res.Report.Engineering.Caveats, " "), "4 of the 4 AI mention checks could not be measured")
			require.Equal(t, "template", string(res.Report.Marketing.Summaries.Source))
		})
	}
}

// A model that takes only its default temperature answers 400 to the
// first call that sets one; the engine learns it and the audit measures
// exactly what it measures against an engine that takes any temperature.
func TestAnEngineThatRejectsTemperatureIsMeasured(t *testing.T) {
	t.Parallel()
	run := func(opts scripted.ServerOpts) (audit.Result, *scripted.Server) {
		srv := scripted.StartWith(scripted.Demo(), opts)
		t.Cleanup(srv.Close)
		return audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{AI: fakeLayer(t, srv, llm.DefaultLimits, &llm.MemoryCache{})}), srv
	}
	plain, _ := run(scripted.ServerOpts{})
	strict, srv := run(scripted.ServerOpts{RejectTemperature: true})

	rejected := 0
	for _, c := range srv.Received() {
		if c.Rejected != "" {
			rejected++
		}
	}
	require.Positive(t, rejected, "the engine did reject a temperature")
	want, got := aiOutcomes(plain), aiOutcomes(strict)
	for id, o := range want {
		require.NotEqual(t, checks.Error, got[id].Result.Status, "%s: %s", id, got[id].Result.Summary)
		require.Equal(t, o.Result.Status, got[id].Result.Status, id)
	}
	require.Equal(t, plain.Report.Marketing.Summaries.Source, strict.Report.Marketing.Summaries.Source)
}

// A call budget too small for the whole measurement gives the same
// outcomes on every scan, whatever order the answers arrive in, keeps the
// summaries' calls and says what it left out.
func TestAPartialBudgetIsDeterministic(t *testing.T) {
	t.Parallel()
	lim := llm.DefaultLimits
	lim.MaxCalls = 14
	// Answers arrive in a different order each time: the buyer prompts
	// are slow on the first scan only.
	var results []audit.Result
	for i := range 3 {
		base := scripted.Demo()
		srv := scripted.Start(func(c scripted.Call) scripted.Reply {
			r := base(c)
			if i == 0 && c.Schema == "" && !strings.HasPrefix(c.Prompt, "What ") {
				r.Delay = 50 * time.Millisecond
			}
			return r
		})
		t.Cleanup(srv.Close)
		res := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{AI: fakeLayer(t, srv, lim, &llm.MemoryCache{})})
		require.LessOrEqual(t, res.AIUsage.Calls, lim.MaxCalls)
		require.Equal(t, "llm", string(res.Report.Engineering.Summaries.Source), "the summaries' calls were kept")
		results = append(results, res)
	}
	first := aiOutcomes(results[0])
	var plan map[string]any
	for _, o := range first {
		if p, ok := o.Result.Evidence["plan"]; ok {
			raw, err := json.Marshal(p)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &plan))
		}
	}
	require.NotNil(t, plan, "the AI checks' evidence shows the plan")
	require.NotEmpty(t, plan["dropped"], "the plan says what it left out")
	require.Contains(t, strings.Join(*results[0].Report.Marketing.Caveats, " "), "could not cover the whole AI measurement",
		"the report says the measurement was cut")
	for _, res := range results[1:] {
		for id, o := range aiOutcomes(res) {
			require.Equal(t, first[id].Result.Status, o.Result.Status, id)
			require.Equal(t, first[id].Result.Summary, o.Result.Summary, id)
		}
	}
}
