// Package mentions measures what answer engines say about a brand: whether
// they know it (branded prompts), whether their description matches the
// site's own facts (a structured judging call at temperature 0), how often
// they name it when buyers ask about its category (non-branded prompts, N
// runs each) and how often a web-searching engine cites its domain. Given
// competitors, it reads the same buyer answers for them too: the brand's
// share of voice beside theirs and the sites cited for each (share.go),
// at no extra call. It asks through package llm, matches the brands in the
// answers and counts; it does not grade — the ai_mentions checks turn its
// counts into verdicts with the thresholds in docs/SCORING.md.
//
// Every count keeps its runs: an errored run is "not checked" and leaves
// the denominator, never counted as "not mentioned". An engine that fails
// to read the site, or answers in a shape other than the one asked for,
// is named as the reason; the site is never blamed for it.
//
// What is asked is planned before the first call (see Plan), so a budget
// too small for everything drops whole units in a fixed order, the same
// for every engine, rather than whichever calls happen to come last.
//
// Site text is data, never instructions. It reaches a prompt only fenced
// (llm.Fence); the prompts that ask what a model knows of the brand carry
// none of it beyond the short category, offer and location phrases of the
// buyer questions; every value read from the site, by GeoScan or by a
// model, is checked before use (guard.go); and a judge's verdict counts
// only when it quotes the description it judged. A model that obeys what
// it reads can then change no verdict: text in one place of a site sways
// only the call that reads that place, and what that call returns is
// dropped, with the reason, when it is not what the site visibly says.
package mentions

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"sort"
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
	// Vocabulary marks a value in GeoScan's words rather than the site's
	// (a category named after a schema.org type): it need not be found
	// in the page's text.
	Vocabulary bool `json:"-"`
}

// The fact keys. Category, offer and location also build the category
// prompts; the description is the site's own summary of itself (its
// JSON-LD or meta description, lead paragraph or title).
const (
	FactName        = "name"
	FactCategory    = "category"
	FactOffer       = "offer"
	FactLocation    = "location"
	FactFounded     = "founded"
	FactContact     = "contact"
	FactDescription = "description"
)

// Subject is what is asked about: the brand, its aliases, the site's host,
// the facts read from the site without a model, the readings of the site
// the default engine extracts category, offers and location from, and the
// visible text what it extracts is checked against.
type Subject struct {
	Brand   string
	Aliases []string
	Host    string
	// Facts are read without a model (JSON-LD, the page's own
	// description): the judge compares the engines' descriptions with
	// them, and their category, offer and location build the buyer
	// questions. Measure checks each before use.
	Facts []Fact
	// Readings are asked one call each, so that text in one part of the
	// site cannot sway what is read from another.
	Readings []Reading
	// Visible is the text a visitor sees on each page read, hidden
	// elements removed.
	Visible []string
	// Language is the scan's language (an i18n tag): the branded and
	// buyer questions are asked in it when it is German, French or
	// Spanish, and in English otherwise. What is read from the answers
	// does not depend on it.
	Language string
	// Competitors are read for in the buyer questions' answers beside the
	// brand (share of voice, share.go); they change nothing that is asked.
	Competitors []Rival
}

// Reading is one part of the site as the extraction reads it: labelled
// texts (title, meta description; main heading, homepage text …).
type Reading struct {
	Name   string
	Fields map[string]string
}

// Dropped is a value read from the site that was not used, and why. The
// value itself is not kept: it may be the very text that was refused.
type Dropped struct {
	Key    string `json:"key"`
	Source string `json:"source"`
	Reason string `json:"reason"`
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

// Verdicts of the judge. Unverified is GeoScan's: the judge confirmed or
// contradicted a fact without quoting the description word for word (or
// with a quote that has nothing of the fact), so the fact counts as not
// confirmed.
const (
	VerdictConfirmed    = "confirmed"
	VerdictContradicted = "contradicted"
	VerdictMissing      = "missing"
	VerdictUnverified   = "unverified"
)

// FactVerdict is the judge's verdict on one fact.
type FactVerdict struct {
	Key       string `json:"key"`
	SiteValue string `json:"site_value"`
	Source    string `json:"source"`
	Verdict   string `json:"verdict"`
	// ModelSays is the judge's quote of the description, kept only when
	// it was found there.
	ModelSays string `json:"model_says,omitempty"`
	// Claimed is the verdict the judge gave an unverified fact.
	Claimed string `json:"claimed,omitempty"`
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
	PromptSet string `json:"prompt_set"`
	// Language is the language the branded and buyer questions were
	// asked in; empty for English.
	Language string     `json:"language,omitempty"`
	Date     string     `json:"date"`
	Engines  []llm.Info `json:"-"`
	Domain   string     `json:"domain"`
	// Facts are the facts read from the site without a model that passed
	// their checks: what the judge compares the descriptions with.
	Facts []Fact `json:"facts"`
	// Buyer are the category, offer and location the buyer questions were
	// built from: the site's facts, or what the extraction read, each
	// found in the site's visible text.
	Buyer []Fact `json:"buyer_facts"`
	// Dropped are the values read from the site that were not used.
	Dropped []Dropped `json:"dropped,omitempty"`
	// FactsError names the engine whose extraction of the category,
	// offers and location failed, the readings it failed on and why (""
	// when every reading asked was answered, or none was asked). It is
	// set when only some readings failed too: what the others gave is
	// used.
	FactsError string `json:"facts_error,omitempty"`
	// factsAnswered is whether any reading was answered.
	factsAnswered bool
	// Plan is what the measurement was allowed to spend and what it
	// left out to fit.
	Plan        Plan        `json:"plan"`
	Recognition Probes      `json:"recognition"`
	Accuracy    []Judgement `json:"accuracy"`
	Category    Probes      `json:"category"`
	Citation    Probes      `json:"citation"`
	// ShareOfVoice is the brand's share of the buyer questions' answers
	// beside its competitors' (Subject.Competitors); nil without them.
	ShareOfVoice *ShareOfVoice `json:"share_of_voice,omitempty"`
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

// Measure asks the engines of sess about subj. It first plans what it
// may ask (see Plan): the calls the full measurement needs against the
// session's caps, less what the report summaries keep; then it asks only
// what the plan holds, so the session's budget is not what stops a run.
// The calls run concurrently in two rounds: the branded prompts and the
// fact extraction, then the category and search prompts and the judging
// (which need the facts and the branded answers). Measure never fails: a
// call that fails leaves its run errored with the reason.
func Measure(ctx context.Context, sess *llm.Session, subj Subject) *Result {
	l := sess.Layer()
	m := NewMatcher(subj.Brand, subj.Aliases, subj.Host)
	lang := questionLanguage(subj.Language)
	res := &Result{PromptSet: PromptSet, Language: lang, Date: sess.Day().Format(time.DateOnly), Domain: m.Domain()}
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
	visible := newCorpus(subj.Visible)
	res.Facts, res.Buyer = siteFacts(subj.Facts, m, visible, res)
	domain := m.Domain()
	if domain == "" {
		domain = subj.Host
	}
	d := newDemand(subj, domain, res.Facts, res.Buyer, len(chat), len(search))
	var left map[string]string
	res.Plan, left = plan(sess.Limits(), d)
	runs := res.Plan.Runs
	upTo := func(ps []Prompt) []Prompt { return ps[:min(len(ps), res.Plan.PromptsPerProbe)] }

	// Round 1: what the models know of the brand; what the site says.
	// The extraction only builds the buyer questions, which the citations
	// ask too; those are dropped first, so it is needed while the
	// category questions are planned.
	var wg sync.WaitGroup
	if len(d.extraction) > 0 && left[probeCategory] == "" {
		wg.Go(func() { extract(ctx, sess, subj, m, visible, res) })
	}
	if left[probeRecognition] == "" {
		res.Recognition.Prompts = upTo(brandedPrompts(subj.Brand, domain, lang))
		res.Recognition.Runs = ask(ctx, sess, "llm_brand_recognition", lang, chat, res.Recognition.Prompts, runs, func(r *Run) {
			switch {
			case SaysNoInformation(r.full):
				r.Outcome = NoInformation
			case mentions(m, r.full):
				r.Outcome = Known
			default:
				r.Outcome = NotMentioned
			}
		})
	} else {
		res.Recognition.Skipped = left[probeRecognition]
	}
	wg.Wait()

	// Round 2: buyer questions, search citations, and the judging.
	category, offer, location := value(res.Buyer, FactCategory), value(res.Buyer, FactOffer), value(res.Buyer, FactLocation)
	noSearch := "no configured engine can search the web"
	switch {
	case left[probeCategory] != "":
		res.Category.Skipped = left[probeCategory]
		res.Citation.Skipped = cmp.Or(left[probeCitation], left[probeCategory])
		if len(search) == 0 {
			res.Citation.Skipped = noSearch
		}
	case category == "":
		why := unbuilt(res)
		res.Category.Skipped, res.Citation.Skipped = why, why
	default:
		res.Category.Prompts = upTo(categoryPrompts(category, offer, location, lang))
		switch {
		case len(search) == 0:
			res.Citation.Skipped = noSearch
		case left[probeCitation] != "":
			res.Citation.Skipped = left[probeCitation]
		default:
			res.Citation.Prompts = citationPrompts(res.Category.Prompts)
		}
	}
	wg.Go(func() {
		if len(res.Category.Prompts) > 0 {
			res.Category.Runs = ask(ctx, sess, "llm_category_mention_rate", lang, chat, res.Category.Prompts, runs, func(r *Run) {
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
			res.Citation.Runs = ask(ctx, sess, "llm_search_citation", lang, search, res.Citation.Prompts, runs, func(r *Run) {
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
	wg.Go(func() {
		res.Accuracy = judgeAll(ctx, sess, d, chat, res, left[probeAccuracy], len(res.Recognition.Prompts)*runs)
	})
	wg.Wait()
	res.ShareOfVoice = shareOfVoice(subj, m, res)
	return res
}

// unbuilt says why no buyer question could be built: the extraction
// failed (the engine's failure, never the site's), what was read could
// not be used, or the site does not state a category.
func unbuilt(res *Result) string {
	switch {
	case res.FactsError != "" && res.factsAnswered:
		return "no category could be read from the site: " + res.FactsError + "; the readings that were answered gave no category that could be used"
	case res.FactsError != "":
		return "the site's category could not be extracted: " + res.FactsError
	}
	if d, ok := droppedFor(res.Dropped, FactCategory); ok {
		return "the category read from the site could not be used (" + d.Reason + "), so no buyer question was built from it"
	}
	return "the site does not state its category plainly enough to ask buyer questions about it"
}

// siteFacts checks the facts read without a model, in order: the first
// of each key with the right shape is judged, and the category, offer and
// location among them that may go into a buyer question build the
// questions. The rest are dropped with the reason.
func siteFacts(facts []Fact, m *Matcher, visible *corpus, res *Result) (judged, buyer []Fact) {
	for _, f := range facts {
		if f.Value == "" || !need(judged, f.Key) {
			continue
		}
		if why := factShape(f); why != "" {
			res.Dropped = append(res.Dropped, Dropped{Key: f.Key, Source: f.Source, Reason: why})
			continue
		}
		judged = append(judged, f)
		if f.Key != FactCategory && f.Key != FactOffer && f.Key != FactLocation {
			continue
		}
		if why := forQuestions(f, m, visible); why != "" {
			res.Dropped = append(res.Dropped, Dropped{Key: f.Key, Source: f.Source, Reason: "not used in buyer questions: " + why})
			continue
		}
		buyer = append(buyer, f)
	}
	return judged, buyer
}

func droppedFor(list []Dropped, key string) (Dropped, bool) {
	for _, d := range list {
		if d.Key == key {
			return d, true
		}
	}
	return Dropped{}, false
}

// ask runs every prompt runs times on every engine, concurrently, asked in
// lang, and classifies each answer.
func ask(ctx context.Context, sess *llm.Session, purpose, lang string, engines []llm.Engine, prompts []Prompt, runs int, classify func(*Run)) []Run {
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
					res := sess.Ask(ctx, purpose, e, promptRequest(p, lang), i)
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

// extract asks the default engine for the category, offers and location,
// one call per reading of the site, and keeps what passes forQuestions:
// each value is a short phrase found in the visible text, whichever
// reading it came from; of several categories or locations the one whose
// words recur most in the visible text wins. A reading whose call failed
// or whose answer is not the JSON asked for is the engine's failure,
// named in FactsError; the readings that were answered are used all the
// same.
func extract(ctx context.Context, sess *llm.Session, subj Subject, m *Matcher, visible *corpus, res *Result) {
	e := sess.Layer().Default
	answers := make([]*extraction, len(subj.Readings))
	errs := make([]string, len(subj.Readings))
	var wg sync.WaitGroup
	for i, rd := range subj.Readings {
		wg.Go(func() {
			r := sess.Ask(ctx, "fact_extraction", e, extractRequest(rd), 0)
			if r.Err != nil {
				errs[i] = llm.Reason(r.Err)
				return
			}
			answers[i], errs[i] = decodeExtraction(r.Answer.Text)
		})
	}
	wg.Wait()
	var failed []string
	for i, why := range errs {
		if why != "" {
			failed = append(failed, "the site's "+subj.Readings[i].Name+": "+why)
		}
		res.factsAnswered = res.factsAnswered || answers[i] != nil
	}
	if len(failed) > 0 {
		res.FactsError = "the extraction by " + e.Info().Name + " (" + e.Info().Model + ") failed on " + strings.Join(failed, "; and on ")
	}

	type candidate struct {
		fact  Fact
		score int
	}
	var cands []candidate
	for i, a := range answers {
		if a == nil {
			continue
		}
		source := "the site's " + subj.Readings[i].Name + ", read by " + e.Info().Name + " (" + e.Info().Model + ")"
		try := func(key, v string) {
			v = cleanValue(v)
			if v == "" || !need(res.Buyer, key) {
				return
			}
			f := Fact{Key: key, Value: v, Source: source}
			if why := forQuestions(f, m, visible); why != "" {
				res.Dropped = appendDropped(res.Dropped, Dropped{Key: key, Source: source, Reason: why})
				return
			}
			cands = append(cands, candidate{f, recurrence(visible, v)})
		}
		try(FactCategory, a.Category)
		for _, o := range a.Offers[:min(len(a.Offers), 3)] {
			try(FactOffer, o)
		}
		try(FactLocation, a.Location)
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	var offers []string
	offerSource := ""
	for _, c := range cands {
		switch c.fact.Key {
		case FactOffer:
			if need(res.Buyer, FactOffer) && len(offers) < 3 && !containsFold(offers, c.fact.Value) {
				offers = append(offers, c.fact.Value)
				if offerSource == "" {
					offerSource = c.fact.Source
				} else if offerSource != c.fact.Source {
					offerSource = "the site, read by " + e.Info().Name + " (" + e.Info().Model + ")"
				}
			}
		default:
			if need(res.Buyer, c.fact.Key) {
				res.Buyer = append(res.Buyer, c.fact)
			}
		}
	}
	if len(offers) > 0 {
		res.Buyer = append(res.Buyer, Fact{Key: FactOffer, Value: strings.Join(offers, ", "), Source: offerSource})
	}
}

// extraction is an extraction answer.
type extraction struct {
	Category string
	Offers   []string
	Location string
}

// decodeExtraction reads an extraction answer, or says why it is not the
// JSON asked for. The three keys asked for must be there with their
// types (null counts as empty); keys besides them are ignored. An answer
// without them has read nothing, and must not pass for a site that
// states nothing.
func decodeExtraction(text string) (*extraction, string) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil || raw == nil {
		return nil, "the answer was not the JSON object asked for"
	}
	var a extraction
	for _, f := range []struct {
		key string
		dst any
	}{{"category", &a.Category}, {"offers", &a.Offers}, {"location", &a.Location}} {
		v, ok := raw[f.key]
		if !ok {
			return nil, "the answer had no " + f.key
		}
		if err := json.Unmarshal(v, f.dst); err != nil {
			return nil, "the answer's " + f.key + " was not of the type asked for"
		}
	}
	return &a, ""
}

// recurrence is how often the rarest word of a value occurs in the
// visible text: the better-attested of two readings wins.
func recurrence(c *corpus, v string) int {
	low := -1
	for _, t := range terms(v) {
		if n := c.count(t); low < 0 || n < low {
			low = n
		}
	}
	return low
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if fold(x) == fold(s) {
			return true
		}
	}
	return false
}

func appendDropped(list []Dropped, d Dropped) []Dropped {
	if slices.Contains(list, d) {
		return list
	}
	return append(list, d)
}

// cleanValue collapses a value to one line without surrounding spaces or
// a trailing full stop.
func cleanValue(s string) string {
	return strings.TrimRight(strings.Join(strings.Fields(s), " "), ".")
}

// judgeGroups splits the facts into the judging calls: the short facts in
// one and the site's description of itself, free text, in another, so that
// whatever it holds can sway no verdict but its own.
func judgeGroups(facts []Fact) [][]Fact {
	var short, free []Fact
	for _, f := range facts {
		if f.Key == FactDescription {
			free = append(free, f)
		} else {
			short = append(short, f)
		}
	}
	var groups [][]Fact
	for _, g := range [][]Fact{short, free} {
		if len(g) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

// judgeAll judges each engine's descriptions of the brand against the facts
// with the default engine at temperature 0, one call per group of facts
// (judgeGroups). A verdict the descriptions do not back (see backed) is
// not counted. skipped, when not "", is why the plan left the judging out:
// each engine with descriptions to judge carries it as its error. planned
// is the most descriptions an engine may have, as the plan counted them.
func judgeAll(ctx context.Context, sess *llm.Session, d *demand, engines []llm.Engine, res *Result, skipped string, planned int) []Judgement {
	if len(d.groups) == 0 {
		return nil
	}
	// The plan counted each description as descriptionChars characters
	// of plain text; a judging request is fitted to that size.
	limits := make([]int, len(d.groups))
	for g, r := range d.judging(planned) {
		limits[g] = llm.Estimate(r)
	}
	fits := func(descs []string) bool {
		for g, group := range d.groups {
			if llm.Estimate(judgeRequest(d.brand, group, descs)) > limits[g] {
				return false
			}
		}
		return true
	}
	judge := sess.Layer().Default
	out := make([]Judgement, len(engines))
	var wg sync.WaitGroup
	for i, e := range engines {
		var descs []string
		for _, r := range res.Recognition.Runs {
			if r.Engine == e.Info().Name && r.Outcome == Known {
				descs = append(descs, llm.Trim(r.full, descriptionChars))
			}
		}
		descs = fitDescriptions(descs, fits)
		j := &out[i]
		*j = Judgement{Engine: e.Info().Name, JudgeEngine: judge.Info().Name, JudgeModel: judge.Info().Model, Descriptions: len(descs)}
		if len(descs) == 0 {
			continue
		}
		if skipped != "" {
			j.Error = "not judged: " + skipped
			continue
		}
		wg.Go(func() {
			verdicts := make([]map[string]FactVerdict, len(d.groups))
			cached := make([]bool, len(d.groups))
			errs := make([]string, len(d.groups))
			var calls sync.WaitGroup
			for g, group := range d.groups {
				calls.Go(func() { verdicts[g], cached[g], errs[g] = judgeGroup(ctx, sess, judge, d.brand, group, descs) })
			}
			calls.Wait()
			got := map[string]FactVerdict{}
			for g := range d.groups {
				j.Cached = j.Cached || cached[g]
				if errs[g] != "" && j.Error == "" {
					j.Error = errs[g]
				}
				maps.Copy(got, verdicts[g])
			}
			if j.Error != "" {
				return
			}
			for _, f := range res.Facts {
				v, ok := got[f.Key]
				if !ok {
					// A well-formed answer that leaves a fact out has
					// found nothing on it (see decodeVerdicts).
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

// fitDescriptions shortens descriptions, the last first, until fits
// holds: the last is cut to the longest start that fits, or left out
// when none does.
func fitDescriptions(descs []string, fits func([]string) bool) []string {
	out := slices.Clone(descs)
	for len(out) > 0 && !fits(out) {
		last := len(out) - 1
		r := []rune(out[last])
		cut := func(k int) string { return string(r[:k]) + "…" }
		// The smallest cut that no longer fits; the one before fits.
		k := sort.Search(len(r), func(k int) bool {
			out[last] = cut(k)
			return !fits(out)
		}) - 1
		if k < 1 {
			out = out[:last]
			continue
		}
		out[last] = cut(k)
	}
	return out
}

// judgeGroup asks the judge about some facts and keeps its verdicts,
// each checked against the descriptions; why is the reason when the call
// failed or its answer is unusable.
func judgeGroup(ctx context.Context, sess *llm.Session, judge llm.Engine, brand string, facts []Fact, descs []string) (got map[string]FactVerdict, cached bool, why string) {
	r := sess.Ask(ctx, "llm_brand_accuracy", judge, judgeRequest(brand, facts, descs), 0)
	if r.Err != nil {
		return nil, r.Cached, llm.Reason(r.Err)
	}
	got, why = decodeVerdicts(r.Answer.Text, facts, descs)
	return got, r.Cached, why
}

// decodeVerdicts reads a judging answer about facts. The answer must be
// an object with a list of facts, each with a key and a verdict of the
// three asked for, no fact given two different verdicts, and at least one
// of the facts asked about answered; otherwise the judging failed, and
// why says how: a judge that did not answer in the shape asked for has
// judged nothing. An answer in that shape that leaves some facts out has
// found nothing on them: they count as missing, which is outside the
// accuracy share. Keys not asked about are ignored.
func decodeVerdicts(text string, facts []Fact, descs []string) (got map[string]FactVerdict, why string) {
	byKey := map[string]Fact{}
	for _, f := range facts {
		byKey[f.Key] = f
	}
	var out struct {
		Facts *[]*struct {
			Key     *string `json:"key"`
			Verdict *string `json:"verdict"`
			Quote   string  `json:"quote"`
		} `json:"facts"`
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, "the judging answer was not the JSON asked for"
	}
	if out.Facts == nil {
		return nil, "the judging answer had no list of facts"
	}
	got = map[string]FactVerdict{}
	for _, v := range *out.Facts {
		if v == nil || v.Key == nil || v.Verdict == nil {
			return nil, "the judging answer gave a fact without a key or a verdict"
		}
		if *v.Verdict != VerdictConfirmed && *v.Verdict != VerdictContradicted && *v.Verdict != VerdictMissing {
			return nil, "the judging answer gave a verdict outside confirmed, contradicted and missing"
		}
		f, ok := byKey[*v.Key]
		if !ok {
			continue
		}
		fv := FactVerdict{Key: f.Key, Verdict: *v.Verdict}
		switch {
		case !backed(f, *v.Verdict, v.Quote, descs):
			fv.Verdict, fv.Claimed = VerdictUnverified, *v.Verdict
		case *v.Verdict != VerdictMissing:
			fv.ModelSays = llm.Trim(v.Quote, 200)
		}
		if prev, ok := got[f.Key]; ok && prev != fv {
			return nil, "the judging answer gave two different verdicts on one fact"
		}
		got[f.Key] = fv
	}
	if len(got) == 0 {
		return nil, "the judging answer gave a verdict on none of the facts asked about"
	}
	return got, ""
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
