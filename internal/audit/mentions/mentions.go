// Package mentions measures what answer engines say about a brand: whether
// they know it (branded prompts), whether their description matches the
// site's own facts (a structured judging call at temperature 0), how often
// they name it when buyers ask about its category (non-branded prompts, N
// runs each) and how often a web-searching engine cites its domain. It asks
// through package llm, matches the brand in the answers and counts; it does
// not grade — the ai_mentions checks turn its counts into verdicts with the
// thresholds in docs/SCORING.md.
//
// Every count keeps its runs: an errored run is "not checked" and leaves
// the denominator, never counted as "not mentioned".
package mentions

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/geoscan/geoscan/internal/audit/llm"
)

// Fact is one fact about the business, with where it was read.
type Fact struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// The fact keys. Category, offer and location also build the category
// prompts.
const (
	FactName     = "name"
	FactCategory = "category"
	FactOffer    = "offer"
	FactLocation = "location"
	FactFounded  = "founded"
	FactContact  = "contact"
)

// Subject is what is asked about: the brand, its aliases, the site's host,
// the facts read from the site without a model, and the site text (already
// cleaned of flagged and invisible text) from which the default engine
// extracts category, offers and location.
type Subject struct {
	Brand   string
	Aliases []string
	Host    string
	Facts   []Fact
	Data    string
}

// Run outcomes.
const (
	Known         = "known"          // branded: the answer knows the brand
	NoInformation = "no_information" // the answer says it does not know
	Mentioned     = "mentioned"
	NotMentioned  = "not_mentioned"
	Cited         = "cited"
	RetrievedOnly = "retrieved_not_cited"
	MentionedOnly = "mentioned_not_cited"
	Absent        = "absent"
	Errored       = "error" // not checked
)

// Run is one answer to one prompt.
type Run struct {
	Engine   string   `json:"engine"`
	Prompt   string   `json:"prompt"`
	Run      int      `json:"run"`
	Outcome  string   `json:"outcome"`
	Cached   bool     `json:"cached"`
	Model    string   `json:"model,omitempty"`
	Answer   string   `json:"answer,omitempty"`
	Error    string   `json:"error,omitempty"`
	Position int      `json:"position,omitempty"`
	Others   []string `json:"other_brands,omitempty"`
	Cited    []string `json:"cited,omitempty"`
	// Retrieved are URLs the search returned, cited or not.
	Retrieved []string `json:"retrieved,omitempty"`
	full      string
}

// Probes are the prompts of one kind and their runs.
type Probes struct {
	Prompts []Prompt `json:"prompts"`
	Runs    []Run    `json:"runs"`
	// Skipped says why nothing was asked ("" when asked).
	Skipped string `json:"skipped,omitempty"`
}

// Count is the number of runs with one of the outcomes.
func (p Probes) Count(outcomes ...string) int {
	n := 0
	for _, r := range p.Runs {
		if slices.Contains(outcomes, r.Outcome) {
			n++
		}
	}
	return n
}

// Checked is the number of runs that got an answer.
func (p Probes) Checked() int { return len(p.Runs) - p.Count(Errored) }

// FirstError is the reason of the first errored run.
func (p Probes) FirstError() string {
	for _, r := range p.Runs {
		if r.Outcome == Errored {
			return r.Error
		}
	}
	return ""
}

// Verdicts of the judge.
const (
	VerdictConfirmed    = "confirmed"
	VerdictContradicted = "contradicted"
	VerdictMissing      = "missing"
)

// FactVerdict is the judge's verdict on one fact.
type FactVerdict struct {
	Key       string `json:"key"`
	SiteValue string `json:"site_value"`
	Source    string `json:"source"`
	Verdict   string `json:"verdict"`
	ModelSays string `json:"model_says,omitempty"`
}

// Judgement is the judging of one engine's descriptions.
type Judgement struct {
	Engine       string        `json:"engine"`
	JudgeEngine  string        `json:"judge_engine"`
	JudgeModel   string        `json:"judge_model"`
	Descriptions int           `json:"descriptions_judged"`
	Facts        []FactVerdict `json:"facts"`
	Cached       bool          `json:"cached"`
	Error        string        `json:"error,omitempty"`
}

// Result is everything measured about one brand in one scan.
type Result struct {
	PromptSet string     `json:"prompt_set"`
	Date      string     `json:"date"`
	Engines   []llm.Info `json:"-"`
	Domain    string     `json:"domain"`
	Facts     []Fact     `json:"facts"`
	// FactsError is why the category, offers and location could not be
	// extracted ("" when they were, or when nothing needed extracting).
	FactsError  string      `json:"facts_error,omitempty"`
	Recognition Probes      `json:"recognition"`
	Accuracy    []Judgement `json:"accuracy"`
	Category    Probes      `json:"category"`
	Citation    Probes      `json:"citation"`
}

// Engine returns the info of the engine with a name.
func (r *Result) Engine(name string) (llm.Info, bool) {
	for _, e := range r.Engines {
		if e.Name == name {
			return e, true
		}
	}
	return llm.Info{}, false
}

// answerChars is how much of an answer evidence keeps.
const answerChars = 600

// Measure asks the engines of sess about subj. The calls run
// concurrently in two rounds: the branded prompts and the fact extraction,
// then the category and search prompts and the judging (which need the
// facts and the branded answers). Measure never fails: a call that fails
// leaves its run errored with the reason.
func Measure(ctx context.Context, sess *llm.Session, subj Subject) *Result {
	l := sess.Layer()
	m := NewMatcher(subj.Brand, subj.Aliases, subj.Host)
	res := &Result{PromptSet: PromptSet, Date: sess.Day().Format(time.DateOnly), Domain: m.Domain(), Facts: append([]Fact(nil), subj.Facts...)}
	var chat, search []llm.Engine
	for _, e := range l.Engines {
		res.Engines = append(res.Engines, e.Info())
		if e.Info().Can(llm.Chat) {
			chat = append(chat, e)
		}
		if e.Info().Can(llm.WebSearch) {
			search = append(search, e)
		}
	}
	runs := sess.Runs()

	// Round 1: what the models know of the brand; what the site says.
	domain := m.Domain()
	if domain == "" {
		domain = subj.Host
	}
	var wg sync.WaitGroup
	if (need(subj.Facts, FactCategory) || need(subj.Facts, FactOffer) || need(subj.Facts, FactLocation)) && strings.TrimSpace(subj.Data) != "" {
		wg.Go(func() { extract(ctx, sess, subj, res) })
	}
	res.Recognition.Prompts = brandedPrompts(subj.Brand, domain)
	res.Recognition.Runs = ask(ctx, sess, "llm_brand_recognition", chat, res.Recognition.Prompts, runs, func(r *Run) {
		switch {
		case SaysNoInformation(r.full):
			r.Outcome = NoInformation
		case mentions(m, r.full):
			r.Outcome = Known
		default:
			r.Outcome = NotMentioned
		}
	})
	wg.Wait()

	// Round 2: buyer questions, search citations, and the judging.
	category, offer, location := value(res.Facts, FactCategory), value(res.Facts, FactOffer), value(res.Facts, FactLocation)
	if category == "" {
		why := "the site does not state its category plainly enough to ask buyer questions about it"
		if res.FactsError != "" {
			why = "the site's category could not be extracted: " + res.FactsError
		}
		res.Category.Skipped, res.Citation.Skipped = why, why
	} else {
		res.Category.Prompts = categoryPrompts(category, offer, location)
		if len(search) == 0 {
			res.Citation.Skipped = "no configured engine can search the web"
		} else {
			res.Citation.Prompts = citationPrompts(res.Category.Prompts)
		}
	}
	wg.Go(func() {
		if len(res.Category.Prompts) > 0 {
			res.Category.Runs = ask(ctx, sess, "llm_category_mention_rate", chat, res.Category.Prompts, runs, func(r *Run) {
				r.Others = NamedBrands(r.full)
				if mentions(m, r.full) && !SaysNoInformation(r.full) {
					r.Outcome = Mentioned
					r.Position = position(m, r.Others)
					r.Others = withoutBrand(m, r.Others)
					return
				}
				r.Outcome = NotMentioned
			})
		}
	})
	wg.Go(func() {
		if len(res.Citation.Prompts) > 0 {
			res.Citation.Runs = ask(ctx, sess, "llm_search_citation", search, res.Citation.Prompts, runs, func(r *Run) {
				switch {
				case anyOnDomain(r.Cited, res.Domain):
					r.Outcome = Cited
				case anyOnDomain(r.Retrieved, res.Domain):
					r.Outcome = RetrievedOnly
				case mentions(m, r.full):
					r.Outcome = MentionedOnly
				default:
					r.Outcome = Absent
				}
			})
		}
	})
	wg.Go(func() { res.Accuracy = judgeAll(ctx, sess, subj.Brand, chat, res) })
	wg.Wait()
	return res
}

// ask runs every prompt runs times on every engine, concurrently, and
// classifies each answer.
func ask(ctx context.Context, sess *llm.Session, purpose string, engines []llm.Engine, prompts []Prompt, runs int, classify func(*Run)) []Run {
	out := make([]Run, 0, len(engines)*len(prompts)*runs)
	for _, e := range engines {
		for _, p := range prompts {
			for i := range runs {
				out = append(out, Run{Engine: e.Info().Name, Prompt: p.ID, Run: i})
			}
		}
	}
	var wg sync.WaitGroup
	k := 0
	for _, e := range engines {
		for _, p := range prompts {
			for i := range runs {
				r := &out[k]
				k++
				wg.Go(func() {
					res := sess.Ask(ctx, purpose, e, llm.Request{Prompt: p.Text, WebSearch: p.WebSearch}, i)
					r.Cached = res.Cached
					if res.Err != nil {
						r.Outcome, r.Error = Errored, llm.Reason(res.Err)
						return
					}
					r.Model = res.Answer.Model
					r.full = res.Answer.Text
					r.Answer = llm.Trim(res.Answer.Text, answerChars)
					for _, c := range res.Answer.Cited {
						r.Cited = appendNew(r.Cited, CleanURL(c))
					}
					for _, c := range res.Answer.Retrieved {
						r.Retrieved = appendNew(r.Retrieved, CleanURL(c))
					}
					classify(r)
				})
			}
		}
	}
	wg.Wait()
	return out
}

func mentions(m *Matcher, text string) bool { ok, _ := m.Mentions(text); return ok }

func anyOnDomain(urls []string, domain string) bool {
	for _, u := range urls {
		if OnDomain(u, domain) {
			return true
		}
	}
	return false
}

// position is the brand's rank among the names the answer lists (1 for
// the first); 0 when it is mentioned outside the list.
func position(m *Matcher, names []string) int {
	for i, n := range names {
		if m.Names(n) {
			return i + 1
		}
	}
	return 0
}

func withoutBrand(m *Matcher, names []string) []string {
	var out []string
	for _, n := range names {
		if !m.Names(n) {
			out = append(out, n)
		}
	}
	return out
}

func need(facts []Fact, key string) bool { return value(facts, key) == "" }

func value(facts []Fact, key string) string {
	for _, f := range facts {
		if f.Key == key {
			return f.Value
		}
	}
	return ""
}

// extract asks the default engine for the category, offers and location
// the site text states. A value is kept only when its quote is found in
// the text: the model may phrase the category, not invent it.
func extract(ctx context.Context, sess *llm.Session, subj Subject, res *Result) {
	e := sess.Layer().Default
	r := sess.Ask(ctx, "fact_extraction", e, llm.Request{
		System: extractSystem, Prompt: extractPrompt(subj.Data), Temperature: llm.Zero(), Schema: extractSchema,
	}, 0)
	if r.Err != nil {
		res.FactsError = llm.Reason(r.Err)
		return
	}
	var out struct {
		Category      string   `json:"category"`
		CategoryQuote string   `json:"category_quote"`
		Offers        []string `json:"offers"`
		OffersQuote   string   `json:"offers_quote"`
		Location      string   `json:"location"`
		LocationQuote string   `json:"location_quote"`
	}
	if err := json.Unmarshal([]byte(r.Answer.Text), &out); err != nil {
		res.FactsError = "the engine's extraction was not the JSON asked for"
		return
	}
	data := normalize(subj.Data)
	source := "site text, extracted by " + e.Info().Name + " (" + e.Info().Model + ")"
	keep := func(key, v, quote string) {
		v = cleanValue(v)
		q := normalize(quote)
		if v == "" || len(q) < 3 || !strings.Contains(data, q) || !need(res.Facts, key) {
			return
		}
		res.Facts = append(res.Facts, Fact{Key: key, Value: v, Source: source})
	}
	keep(FactCategory, out.Category, out.CategoryQuote)
	if len(out.Offers) > 0 {
		offers := out.Offers
		if len(offers) > 3 {
			offers = offers[:3]
		}
		keep(FactOffer, strings.Join(offers, ", "), out.OffersQuote)
	}
	keep(FactLocation, out.Location, out.LocationQuote)
}

func normalize(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// cleanValue keeps a short single-line value.
func cleanValue(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Trim(s, " .\"'")
	if len([]rune(s)) > 80 {
		return ""
	}
	return s
}

// judgeAll judges each engine's descriptions of the brand against the facts
// with the default engine at temperature 0.
func judgeAll(ctx context.Context, sess *llm.Session, brand string, engines []llm.Engine, res *Result) []Judgement {
	if len(res.Facts) == 0 {
		return nil
	}
	judge := sess.Layer().Default
	out := make([]Judgement, len(engines))
	var wg sync.WaitGroup
	for i, e := range engines {
		var descs []string
		for _, r := range res.Recognition.Runs {
			if r.Engine == e.Info().Name && r.Outcome == Known {
				descs = append(descs, llm.Trim(r.full, 1200))
			}
		}
		j := &out[i]
		*j = Judgement{Engine: e.Info().Name, JudgeEngine: judge.Info().Name, JudgeModel: judge.Info().Model, Descriptions: len(descs)}
		if len(descs) == 0 {
			continue
		}
		wg.Go(func() {
			keys := make([]string, 0, len(res.Facts))
			for _, f := range res.Facts {
				keys = append(keys, f.Key)
			}
			r := sess.Ask(ctx, "llm_brand_accuracy", judge, llm.Request{
				System: judgeSystem, Prompt: judgePrompt(brand, res.Facts, descs), Temperature: llm.Zero(), Schema: judgeSchema(keys),
			}, 0)
			j.Cached = r.Cached
			if r.Err != nil {
				j.Error = llm.Reason(r.Err)
				return
			}
			var out struct {
				Facts []struct {
					Key       string `json:"key"`
					Verdict   string `json:"verdict"`
					ModelSays string `json:"model_says"`
				} `json:"facts"`
			}
			if err := json.Unmarshal([]byte(r.Answer.Text), &out); err != nil {
				j.Error = "the judging answer was not the JSON asked for"
				return
			}
			got := map[string]FactVerdict{}
			for _, f := range out.Facts {
				if !slices.Contains(keys, f.Key) {
					continue
				}
				if f.Verdict != VerdictConfirmed && f.Verdict != VerdictContradicted && f.Verdict != VerdictMissing {
					j.Error = "the judging answer gave a verdict outside confirmed, contradicted and missing"
					return
				}
				got[f.Key] = FactVerdict{Key: f.Key, Verdict: f.Verdict, ModelSays: llm.Trim(f.ModelSays, 200)}
			}
			for _, f := range res.Facts {
				v, ok := got[f.Key]
				if !ok {
					// A fact the judge skipped is not confirmed.
					v = FactVerdict{Key: f.Key, Verdict: VerdictMissing}
				}
				v.SiteValue, v.Source = f.Value, f.Source
				j.Facts = append(j.Facts, v)
			}
		})
	}
	wg.Wait()
	return out
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Wilson is the 95 % Wilson score interval of k successes in n trials,
// rounded to three decimals; (0, 0) for no trials.
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 0
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	den := 1 + z*z/nf
	centre := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	r := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	return r(math.Max(0, centre-half)), r(math.Min(1, centre+half))
}
