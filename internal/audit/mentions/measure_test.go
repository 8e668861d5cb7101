package mentions

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

var testDay = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// The bakery as Measure gets it: facts from its markup without a
// category, so the extraction reads one from its two readings.
func bakery() Subject {
	return Subject{
		Brand: "Millbrook Bakery", Host: "www.millbrook-bakery.test",
		Facts: []Fact{
			{Key: FactName, Value: "Millbrook Bakery", Source: "JSON-LD name"},
			{Key: FactFounded, Value: "2016", Source: "JSON-LD foundingDate"},
			{Key: FactDescription, Value: "Sourdough, pastries and good coffee on Mill Lane.", Source: "JSON-LD description"},
		},
		Readings: []Reading{
			{Name: "metadata", Fields: map[string]string{"title": "Millbrook Bakery", "description": "Sourdough, pastries and good coffee on Mill Lane."}},
			{Name: "visible text", Fields: map[string]string{"homepage": visibleSites["en"][0], "about": visibleSites["en"][1]}},
		},
		Visible: visibleSites["en"],
	}
}

// bakeryWithCategory is the bakery whose markup gives the category,
// offer and location: nothing needs extracting.
func bakeryWithCategory() Subject {
	s := bakery()
	s.Facts = append(s.Facts,
		Fact{Key: FactCategory, Value: "bakery", Source: "JSON-LD @type"},
		Fact{Key: FactOffer, Value: "sourdough bread", Source: "JSON-LD makesOffer"},
		Fact{Key: FactLocation, Value: "Hebden Bridge", Source: "JSON-LD address"},
	)
	s.Readings = nil
	return s
}

const (
	knows     = "Millbrook Bakery is a bakery in Hebden Bridge, opened in 2016, known for sourdough."
	goodFacts = `{"category":"bakery","offers":["sourdough bread","pastries"],"location":"Hebden Bridge"}`
)

// world answers like a consistent assistant; a hook changes one kind of
// answer.
type world struct {
	extract func(scripted.Call) scripted.Reply
	judge   func(scripted.Call) scripted.Reply
	other   func(scripted.Call) scripted.Reply
}

func (w world) script(c scripted.Call) scripted.Reply {
	switch {
	case c.Schema == "site_facts" && w.extract != nil:
		return w.extract(c)
	case c.Schema == "site_facts":
		return scripted.Reply{Text: goodFacts}
	case c.Schema == "fact_verdicts" && w.judge != nil:
		return w.judge(c)
	case c.Schema == "fact_verdicts":
		return confirmAll(c)
	case w.other != nil:
		return w.other(c)
	case strings.HasPrefix(c.Prompt, "What is") || strings.HasPrefix(c.Prompt, "What does"):
		return scripted.Reply{Text: knows}
	case c.WebSearch:
		return scripted.Reply{Text: "Try Millbrook Bakery.", Cited: []string{"https://www.millbrook-bakery.test/"}}
	}
	return scripted.Reply{Text: "Top picks:\n1. **Greggs**\n2. **Millbrook Bakery**"}
}

// confirmAll confirms every fact of a judging prompt, quoting the brand's
// name from the first description.
func confirmAll(c scripted.Call) scripted.Reply {
	var rows []map[string]string
	for _, k := range judgedKeys(c.Prompt) {
		rows = append(rows, map[string]string{"key": k, "verdict": VerdictConfirmed, "quote": "Millbrook Bakery is a bakery in Hebden Bridge, opened in 2016, known for sourdough"})
	}
	b, _ := json.Marshal(map[string]any{"facts": rows})
	return scripted.Reply{Text: string(b)}
}

// judgedKeys are the keys of the facts in a judging prompt's data.
func judgedKeys(prompt string) []string {
	var d struct {
		Facts []struct {
			Key string `json:"key"`
		} `json:"facts"`
	}
	if i := strings.IndexByte(prompt, '{'); i >= 0 {
		_ = json.NewDecoder(strings.NewReader(prompt[i:])).Decode(&d)
	}
	var keys []string
	for _, f := range d.Facts {
		keys = append(keys, f.Key)
	}
	return keys
}

func replyWith(s string) func(scripted.Call) scripted.Reply {
	return func(scripted.Call) scripted.Reply { return scripted.Reply{Text: s} }
}

func failing(scripted.Call) scripted.Reply {
	return scripted.Reply{Status: http.StatusInternalServerError}
}

// engine is one configured engine of a test layer.
type engine struct {
	name      string
	search    bool
	searchAPI string
}

// testBundle is a scripted engine server and the engines on it.
type testBundle struct {
	srv     *scripted.Server
	engines []llm.Engine
}

func setup(t *testing.T, script scripted.Script, engines ...engine) *testBundle {
	t.Helper()
	srv := scripted.Start(script)
	t.Cleanup(srv.Close)
	if len(engines) == 0 {
		engines = []engine{{name: "default"}}
	}
	b := &testBundle{srv: srv}
	for _, e := range engines {
		caps := []llm.Capability{llm.Chat}
		if e.search {
			caps = append(caps, llm.WebSearch)
		}
		en, err := llm.NewOpenAI(llm.EngineConfig{
			Name: e.name, BaseURL: srv.URL, Model: e.name + "-model", Capabilities: caps, SearchAPI: e.searchAPI,
		})
		require.NoError(t, err)
		b.engines = append(b.engines, en)
	}
	return b
}

// session starts a scan's session on the bundle's engines with a fresh
// cache.
func (b *testBundle) session(lim llm.Limits) *llm.Session {
	if lim.CallTimeout == 0 {
		lim.CallTimeout = 10 * time.Second
	}
	l := &llm.Layer{Default: b.engines[0], Engines: b.engines, Limits: lim, Cache: &llm.MemoryCache{}}
	return l.Session(testDay)
}

func (b *testBundle) measure(lim llm.Limits, subj Subject) (*Result, *llm.Session) {
	sess := b.session(lim)
	return Measure(context.Background(), sess, subj), sess
}

var roomy = llm.Limits{Runs: 2, MaxCalls: 500, MaxTokens: 1_000_000, Concurrency: 8}

// allRuns are the runs of every probe.
func allRuns(res *Result) []Run {
	var out []Run
	for _, p := range []Probes{res.Recognition, res.Category, res.Citation} {
		out = append(out, p.Runs...)
	}
	return out
}

// requireSiteNotBlamed holds for a measurement in which the engine failed
// to read the site: no sentence says the site does not state its category,
// and nothing was counted as an answer about it.
func requireSiteNotBlamed(t *testing.T, res *Result) {
	t.Helper()
	for _, s := range []string{res.Category.Skipped, res.Citation.Skipped} {
		require.NotContains(t, s, "does not state")
		require.NotContains(t, s, "could not be used (")
	}
}

// An extraction that fails on every reading is the engine's failure: the
// reason names the engine and each reading, the buyer questions say the
// extraction failed, and nothing is asked or counted.
func TestExtractionFailureIsTheEngines(t *testing.T) {
	t.Parallel()
	b := setup(t, world{extract: failing}.script, engine{name: "default"}, engine{name: "searcher", search: true})
	res, _ := b.measure(roomy, bakery())
	require.Contains(t, res.FactsError, "the extraction by default (default-model) failed on the site's metadata: ")
	require.Contains(t, res.FactsError, "; and on the site's visible text: ")
	require.Equal(t, "the site's category could not be extracted: "+res.FactsError, res.Category.Skipped)
	require.Equal(t, res.Category.Skipped, res.Citation.Skipped)
	require.Empty(t, res.Category.Runs)
	require.Empty(t, res.Citation.Runs)
	require.Empty(t, res.Buyer)
	requireSiteNotBlamed(t, res)
}

// One reading failed, the other answered: what it gave builds the
// questions, and the failure is still named. When what it gave is not
// usable, the questions say a reading failed, not that the site lacks a
// category.
func TestPartialExtractionUsesWhatAnswered(t *testing.T) {
	t.Parallel()
	metadataFails := func(answer string) func(scripted.Call) scripted.Reply {
		return func(c scripted.Call) scripted.Reply {
			if strings.Contains(c.Prompt, "(metadata)") {
				return scripted.Reply{Status: http.StatusInternalServerError}
			}
			return scripted.Reply{Text: answer}
		}
	}
	b := setup(t, world{extract: metadataFails(goodFacts)}.script)
	res, _ := b.measure(roomy, bakery())
	require.Equal(t, "bakery", value(res.Buyer, FactCategory))
	require.Equal(t, "sourdough bread, pastries", value(res.Buyer, FactOffer))
	require.Contains(t, res.FactsError, "failed on the site's metadata: ")
	require.NotContains(t, res.FactsError, "visible text")
	require.Empty(t, res.Category.Skipped)
	require.Len(t, res.Category.Runs, 4*2)

	b = setup(t, world{extract: metadataFails(`{"category":"","offers":[],"location":""}`)}.script)
	res, _ = b.measure(roomy, bakery())
	require.Empty(t, res.Category.Runs)
	require.True(t, strings.HasPrefix(res.Category.Skipped, "no category could be read from the site: "+res.FactsError), res.Category.Skipped)
	requireSiteNotBlamed(t, res)
}

// An extraction answer that is JSON but not the object asked for read
// nothing: it is the engine's failure, never a site with nothing to say.
// (The AI layer may refuse such an answer first; either way the
// extraction failed.)
func TestExtractionInTheWrongShapeIsAFailure(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ answer, why string }{
		{`{}`, "the answer had no category"},
		{`null`, "not the JSON object asked for"},
		{`[]`, "not the JSON object asked for"},
		{`"bakery"`, "not the JSON object asked for"},
		{`{"facts": []}`, "the answer had no category"},
		{`{"category": "bakery", "location": "Hebden Bridge"}`, "the answer had no offers"},
		{`{"category": 5, "offers": [], "location": ""}`, "category was not of the type asked for"},
		{`{"category": "bakery", "offers": "bread", "location": ""}`, "offers was not of the type asked for"},
		{`not json`, "not the JSON object asked for"},
	} {
		a, why := decodeExtraction(c.answer)
		require.Nil(t, a, c.answer)
		require.Contains(t, why, c.why, c.answer)

		b := setup(t, world{extract: replyWith(c.answer)}.script)
		res, _ := b.measure(roomy, bakery())
		require.Contains(t, res.FactsError, "the extraction by default (default-model) failed on the site's metadata: ", c.answer)
		require.Contains(t, res.FactsError, "; and on the site's visible text: ", c.answer)
		require.Contains(t, res.Category.Skipped, res.FactsError, c.answer)
		require.Empty(t, res.Category.Runs, c.answer)
		require.Empty(t, res.Buyer, c.answer)
		requireSiteNotBlamed(t, res)
	}

	// Keys besides the three asked for are ignored; null is empty.
	a, why := decodeExtraction(`{"category": "bakery", "offers": null, "location": null, "note": 1}`)
	require.Empty(t, why)
	require.Equal(t, &extraction{Category: "bakery"}, a)
}

// A judging answer in the wrong shape judged nothing: the judgement is an
// error with the reason, never a set of missing facts.
func TestJudgingInTheWrongShapeIsAnError(t *testing.T) {
	t.Parallel()
	facts := bakery().Facts[:2]
	descs := []string{knows}
	for _, c := range []struct{ answer, why string }{
		{`{}`, "had no list of facts"},
		{`null`, "had no list of facts"},
		{`{"verdicts": [{"key": "name", "verdict": "confirmed", "quote": "Millbrook Bakery"}]}`, "had no list of facts"},
		{`{"facts": null}`, "had no list of facts"},
		{`{"facts": []}`, "on none of the facts asked about"},
		{`{"facts": [{"key": "price", "verdict": "confirmed", "quote": ""}]}`, "on none of the facts asked about"},
		{`{"facts": "confirmed"}`, "not the JSON asked for"},
		{`{"facts": [{"key": 1, "verdict": "confirmed", "quote": ""}]}`, "not the JSON asked for"},
		{`{"facts": [{"key": "name"}]}`, "without a key or a verdict"},
		{`{"facts": [null]}`, "without a key or a verdict"},
		{`{"facts": [{"key": "name", "verdict": "yes", "quote": ""}]}`, "outside confirmed, contradicted and missing"},
		{`[]`, "not the JSON asked for"},
		{`{"facts": [{"key": "name", "verdict": "missing", "quote": ""}, {"key": "name", "verdict": "contradicted", "quote": "in Hebden Bridge"}]}`, "two different verdicts"},
	} {
		got, why := decodeVerdicts(c.answer, facts, descs)
		require.Nil(t, got, c.answer)
		require.Contains(t, why, c.why, c.answer)

		b := setup(t, world{judge: replyWith(c.answer)}.script)
		res, _ := b.measure(roomy, bakery())
		require.Len(t, res.Accuracy, 1, c.answer)
		j := res.Accuracy[0]
		require.Positive(t, j.Descriptions, c.answer)
		require.NotEmpty(t, j.Error, c.answer)
		require.Empty(t, j.Facts, c.answer)
	}
}

// A well-formed judging answer that leaves some facts out found nothing
// on them: they are missing; what it answered stands.
func TestJudgingThatOmitsFactsCountsThemMissing(t *testing.T) {
	t.Parallel()
	judge := func(c scripted.Call) scripted.Reply {
		if slices.Contains(judgedKeys(c.Prompt), FactDescription) {
			return scripted.Reply{Text: `{"facts": [{"key": "description", "verdict": "confirmed", "quote": "known for sourdough"}]}`}
		}
		return scripted.Reply{Text: `{"facts": [{"key": "founded", "verdict": "confirmed", "quote": "opened in 2016"}, {"key": "price", "verdict": "missing", "quote": ""}]}`}
	}
	b := setup(t, world{judge: judge}.script)
	res, _ := b.measure(roomy, bakery())
	j := res.Accuracy[0]
	require.Empty(t, j.Error)
	got := map[string]string{}
	for _, f := range j.Facts {
		got[f.Key] = f.Verdict
	}
	require.Equal(t, map[string]string{FactName: VerdictMissing, FactFounded: VerdictConfirmed, FactDescription: VerdictConfirmed}, got)
}

// When every engine fails, every run is errored with the reason and
// nothing is counted as an answer: not "not mentioned", not "absent",
// no judgement.
func TestAllEnginesErroredCountsNothing(t *testing.T) {
	t.Parallel()
	for _, subj := range []Subject{bakery(), bakeryWithCategory()} {
		b := setup(t, failing, engine{name: "default"}, engine{name: "searcher", search: true})
		res, _ := b.measure(roomy, subj)
		runs := allRuns(res)
		require.NotEmpty(t, runs)
		for _, r := range runs {
			require.Equal(t, Errored, r.Outcome, "%s %s", r.Engine, r.Prompt)
			require.NotEmpty(t, r.Error)
			require.Empty(t, r.Answer)
		}
		for _, p := range []Probes{res.Recognition, res.Category, res.Citation} {
			require.Zero(t, p.Checked())
			require.Zero(t, p.Count(NotMentioned, Absent, Known, NoInformation, Mentioned, Cited, RetrievedOnly, MentionedOnly))
		}
		for _, j := range res.Accuracy {
			require.Zero(t, j.Descriptions)
			require.Empty(t, j.Facts)
		}
		requireSiteNotBlamed(t, res)
	}
	// Without a category from the markup, the failed extraction is why
	// no buyer question was asked.
	b := setup(t, failing)
	res, _ := b.measure(roomy, bakery())
	require.NotEmpty(t, res.FactsError)
	require.Contains(t, res.Category.Skipped, res.FactsError)
}
