package checks

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/mentions"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The ai_mentions pillar: what do AI assistants already say about the
// brand? Outcomes measured by asking the configured answer engines
// (package mentions): recognition, accuracy, category mentions and search
// citations, each a rate with its sample size and 95 % interval. This file
// grades what was measured and builds what the measurement asks about
// (AISubject); it never calls an engine. Without an engine every check here
// is na and left out of the scores.
const pillarAIMentions = "ai_mentions"

// aiMentionsChecks returns the pillar's checks in report order.
func aiMentionsChecks() []*Check {
	return []*Check{
		llmBrandRecognitionCheck(),
		llmBrandAccuracyCheck(),
		llmCategoryMentionRateCheck(),
		llmSearchCitationCheck(),
	}
}

// The pass marks of the rate checks and the accuracy shares (written in
// docs/SCORING.md). A rate is graded by the rule of ai_rates.go: decided
// only when its interval lies wholly on one side of the mark.
const (
	recognitionPassMark = 2.0 / 3
	mentionPassMark     = 0.5
	citationPassMark    = 1.0 / 3
	accuracyPassShare   = 0.8
	accuracyWarnShare   = 0.5
)

var (
	recognitionRate = rateSpec{mark: recognitionPassMark, hits: []string{mentions.Known}, answers: "branded", did: "knew it"}
	mentionRate     = rateSpec{mark: mentionPassMark, hits: []string{mentions.Mentioned}, answers: "buyer", did: "named it"}
	citationRate    = rateSpec{mark: citationPassMark, hits: []string{mentions.Cited}, answers: "web-search", did: "cited it"}
)

// NoAnswerEngine is the reason of the four checks when no answer engine is
// configured.
const NoAnswerEngine = "no answer engine configured"

const naNoEngine = "Not measured: " + NoAnswerEngine + " (GEOSCAN_LLM_BASE_URL), so what AI assistants say about the brand is unknown; not scored."

func noEngine() Result {
	return na(naNoEngine, ev("reason", NoAnswerEngine, "scored", false))
}

func llmBrandRecognitionCheck() *Check {
	return &Check{
		ID: "llm_brand_recognition", Ring: scoring.RingTrust, Pillar: pillarAIMentions, Weight: 3, Effort: High,
		Marketing: Text{
			Title: "AI assistants know your brand",
			Why:   "If an AI assistant cannot say what your brand is, it will not recommend you.",
			Fix:   "Build a consistent public footprint: a complete about page, organisation markup and profiles on the sites assistants learn from.",
		},
		Engineering: Text{
			Title: "LLM brand recognition",
			Why:   "Models asked \"What is {brand}?\" and \"What does {domain} offer?\" without browsing show whether the brand is in their parametric knowledge; an answer that says it has no information is not a mention.",
			Fix:   "Strengthen entity signals (Organization with sameAs, Wikidata entry, consistent naming) that feed training and knowledge-graph data.",
		},
		Eval: withPlan(evalBrandRecognition),
	}
}

func evalBrandRecognition(in *Input) Result {
	res := in.Mentions
	if res == nil {
		return noEngine()
	}
	p := res.Recognition
	e := probeEvidence(res, p)
	if r := skipped(res, p, e, brandedProbe); r != nil {
		return *r
	}
	n, k := p.Checked(), p.Count(mentions.Known)
	if n == 0 {
		return errored(fmt.Sprintf("Not checked: no branded prompt got an answer (%s).", p.FirstError()), e)
	}
	g := gradeRate(res, p, recognitionRate, e)
	e["known"], e["no_information"], e["not_mentioned"] = k, p.Count(mentions.NoInformation), p.Count(mentions.NotMentioned)
	s := fmt.Sprintf("The brand was known in %s (%s)%s.", ofAnswers(k, n, "branded"), interval(e), engineNote(res, p))
	rest := ""
	if u := p.Count(mentions.NoInformation); u > 0 {
		rest += fmt.Sprintf(" %s said the model had no information about it.", capFirst(plural(u, "answer", "answers")))
	}
	return Result{g.status, g.summary(s, rest+notChecked(p)), e}
}

func llmBrandAccuracyCheck() *Check {
	return &Check{
		ID: "llm_brand_accuracy", Ring: scoring.RingTrust, Pillar: pillarAIMentions, Weight: 3, Effort: High,
		Marketing: Text{
			Title: "AI assistants describe you correctly",
			Why:   "An assistant that gets your offer, category or location wrong sends customers elsewhere.",
			Fix:   "State your category, offer and location plainly on the homepage and about page so assistants can pick up the right facts.",
		},
		Engineering: Text{
			Title: "LLM brand accuracy",
			Why:   "A judging call at temperature 0 compares the models' descriptions with facts GeoScan reads from the site itself (JSON-LD name, type, address, founding, contact and offers, and the site's own description) and marks each confirmed, contradicted or missing; a verdict counts only when it quotes the description.",
			Fix:   "Publish the facts in unambiguous text and markup (Organization.description, address, foundingDate, makesOffer) on pages crawlers reach, and correct wrong third-party profiles.",
		},
		Eval: withPlan(evalBrandAccuracy),
	}
}

func evalBrandAccuracy(in *Input) Result {
	res := in.Mentions
	if res == nil {
		return noEngine()
	}
	facts := make([]map[string]any, 0, len(res.Facts))
	for _, f := range res.Facts {
		facts = append(facts, map[string]any{"key": f.Key, "value": f.Value, "source": f.Source})
	}
	e := baseEvidence(res)
	e["facts"] = facts
	addDropped(e, res)
	if len(res.Facts) == 0 {
		return na("No facts about the business could be read from the site (JSON-LD, title, description), so there is nothing to compare the descriptions with.", e)
	}
	// No engine answered a branded prompt: the descriptions to judge were
	// never given, which is not the same as engines that do not know the
	// brand.
	rec := res.Recognition
	if rec.Skipped != "" || len(rec.Runs) == 0 {
		why := cmp.Or(rec.Skipped, "no branded prompt was asked")
		return na("Not measured: "+why+", so there is no description to judge; not scored.", e)
	}
	if rec.Checked() == 0 {
		return errored(fmt.Sprintf("Not checked: no engine answered a branded prompt (%s), so there is no description to judge.", rec.FirstError()), e)
	}
	leftOut := unanswered(res, rec)
	if len(leftOut) > 0 {
		e["engines_left_out"] = leftOut
	}
	var judged []map[string]any
	var confirmed, contradicted, missing, unverified, described, failed int
	var reason string
	var wrong []string
	for _, j := range res.Accuracy {
		row := map[string]any{"engine": j.Engine, "judge_engine": j.JudgeEngine, "judge_model": j.JudgeModel, "descriptions_judged": j.Descriptions, "cached": j.Cached}
		if j.Descriptions > 0 {
			described++
		}
		switch {
		case j.Error != "":
			failed++
			reason = j.Error
			row["error"] = j.Error
		case j.Descriptions > 0:
			verdicts := make([]map[string]any, 0, len(j.Facts))
			for _, f := range j.Facts {
				v := map[string]any{"key": f.Key, "site_value": f.SiteValue, "verdict": f.Verdict, "model_says": f.ModelSays}
				switch f.Verdict {
				case mentions.VerdictConfirmed:
					confirmed++
				case mentions.VerdictContradicted:
					contradicted++
					wrong = append(wrong, f.Key)
				case mentions.VerdictUnverified:
					unverified++
					v["claimed"] = f.Claimed
				default:
					missing++
				}
				verdicts = append(verdicts, v)
			}
			row["facts"] = verdicts
		}
		judged = append(judged, row)
	}
	e["judgements"] = nonNilRows(judged)
	e["confirmed"], e["contradicted"], e["missing"], e["unverified"] = confirmed, contradicted, missing, unverified
	switch {
	case described == 0:
		return na("No engine described the brand in its branded answers (see the brand recognition check), so there is nothing to judge."+leftOutNote(res, leftOut), e)
	case failed == described:
		return errored(fmt.Sprintf("Not checked: the judging call failed (%s).", reason), e)
	}
	// A verdict the judge could not back with the description's own
	// words counts as not confirmed: were it left out, text that made the
	// judge claim something could remove a contradiction from the share.
	unbacked := ""
	if unverified > 0 {
		unbacked = fmt.Sprintf(" %s the judge gave without quoting the description %s as not confirmed.",
			capFirst(plural(unverified, "verdict", "verdicts")), map[bool]string{true: "counts", false: "count"}[unverified == 1])
	}
	stated := confirmed + contradicted + unverified
	if stated == 0 {
		return warn(fmt.Sprintf("The descriptions state none of the %s read from the site.", plural(len(res.Facts), "fact", "facts"))+leftOutNote(res, leftOut), e)
	}
	share := float64(confirmed) / float64(stated)
	e["accuracy"] = roundTenth(100*share) / 100
	s := fmt.Sprintf("Of the site's facts the descriptions state, %d of %d %s right", confirmed, stated, map[bool]string{true: "is", false: "are"}[stated == 1])
	if contradicted > 0 {
		sort.Strings(wrong)
		s += fmt.Sprintf("; contradicted: %s", andList(uniqueStrings(wrong)))
	}
	if missing > 0 {
		s += fmt.Sprintf(" (%d not mentioned; judged by %s).", missing, res.Accuracy[0].JudgeModel)
	} else {
		s += fmt.Sprintf(" (judged by %s).", res.Accuracy[0].JudgeModel)
	}
	s += unbacked
	if failed > 0 {
		s += fmt.Sprintf(" The judging of %s failed and is left out.", plural(failed, "engine", "engines"))
	}
	s += leftOutNote(res, leftOut)
	return byThreshold(share, accuracyPassShare, accuracyWarnShare, s, e)
}

// addDropped lists the values read from the site that were not used, and
// why (never the value: it may be what was refused).
func addDropped(e map[string]any, res *mentions.Result) {
	if res.FactsError != "" {
		e["facts_error"] = res.FactsError
	}
	if len(res.Dropped) == 0 {
		return
	}
	rows := make([]map[string]any, 0, len(res.Dropped))
	for _, d := range res.Dropped {
		rows = append(rows, map[string]any{"key": d.Key, "source": d.Source, "reason": d.Reason})
	}
	e["dropped"] = rows
}

func llmCategoryMentionRateCheck() *Check {
	return &Check{
		ID: "llm_category_mention_rate", Ring: scoring.RingTrust, Pillar: pillarAIMentions, Weight: 2, Effort: High,
		Marketing: Text{
			Title: "Mentioned when buyers ask",
			Why:   "Buyers ask assistants for the best options in a category; being named in those answers is the outcome GEO works towards.",
			Fix:   "Publish comparison and category content and earn mentions on the review sites and lists assistants cite.",
		},
		Engineering: Text{
			Title: "LLM category mention rate",
			Why:   "The share of answers to non-branded buyer prompts (built from the site's category, offer and location, each asked several times) that name the brand, with its 95 % Wilson interval, measures share of voice in generative answers.",
			Fix:   "Target the prompts with extractable category pages (comparisons, pricing, specs) and third-party citations.",
		},
		Eval: withPlan(evalCategoryMentionRate),
	}
}

func evalCategoryMentionRate(in *Input) Result {
	res := in.Mentions
	if res == nil {
		return noEngine()
	}
	p := res.Category
	e := probeEvidence(res, p)
	buyerEvidence(e, res)
	if r := skipped(res, p, e, buyerProbe); r != nil {
		return *r
	}
	n, k := p.Checked(), p.Count(mentions.Mentioned)
	if n == 0 {
		return errored(fmt.Sprintf("Not checked: no buyer prompt got an answer (%s).", p.FirstError()), e)
	}
	g := gradeRate(res, p, mentionRate, e)
	others := map[string]int{}
	var positions []int
	for _, r := range p.Runs {
		for _, o := range r.Others {
			others[o]++
		}
		if r.Outcome == mentions.Mentioned && r.Position > 0 {
			positions = append(positions, r.Position)
		}
	}
	e["mentioned"] = k
	e["other_brands"] = topCounts(others, 10)
	if len(positions) > 0 {
		e["mean_position"] = mean(positions)
	}
	s := fmt.Sprintf("The brand was named in %s (%s)%s.", ofAnswers(k, n, "buyer"), interval(e), engineNote(res, p))
	rest := ""
	if len(positions) > 0 {
		rest += fmt.Sprintf(" When listed it ranked %.1f on average.", mean(positions))
	}
	if top := topCounts(others, 3); len(top) > 0 {
		names := make([]string, 0, len(top))
		for _, t := range top {
			names = append(names, fmt.Sprint(t["name"]))
		}
		rest += " Named instead most often: " + andList(names) + "."
	}
	return Result{g.status, g.summary(s, rest+notChecked(p)), e}
}

func llmSearchCitationCheck() *Check {
	return &Check{
		ID: "llm_search_citation", Ring: scoring.RingTrust, Pillar: pillarAIMentions, Weight: 2, Effort: High,
		Marketing: Text{
			Title: "Cited by AI search",
			Why:   "AI search engines link to their sources; a citation sends qualified visitors to your site.",
			Fix:   "Make the pages that answer your customers' questions easy to reach, read and quote.",
		},
		Engineering: Text{
			Title: "Search-grounded citation",
			Why:   "Engines with web search (Responses API web_search, Sonar) are asked the buyer prompts; the share of runs whose final cited set includes the domain is the citation rate, and pages retrieved but not cited are counted apart.",
			Fix:   "Fix crawl access, server-rendered content and answer structure first; they decide whether retrieval can pick the pages.",
		},
		Eval: withPlan(evalSearchCitation),
	}
}

func evalSearchCitation(in *Input) Result {
	res := in.Mentions
	if res == nil {
		return noEngine()
	}
	p := res.Citation
	e := probeEvidence(res, p)
	buyerEvidence(e, res)
	if r := skipped(res, p, e, searchProbe); r != nil {
		return *r
	}
	n, k := p.Checked(), p.Count(mentions.Cited)
	if n == 0 {
		return errored(fmt.Sprintf("Not checked: no web-search prompt got an answer (%s).", p.FirstError()), e)
	}
	retrieved, named := p.Count(mentions.RetrievedOnly), p.Count(mentions.MentionedOnly)
	e["cited"], e["retrieved_not_cited"], e["mentioned_not_cited"], e["absent"] = k, retrieved, named, p.Count(mentions.Absent)
	var pages []string
	for _, r := range p.Runs {
		for _, u := range r.Cited {
			if mentions.OnDomain(u, res.Domain) && !containsString(pages, u) {
				pages = append(pages, u)
			}
		}
	}
	e["cited_pages"] = nonNil(firstN(pages, 10))
	g := gradeRate(res, p, citationRate, e)
	s := fmt.Sprintf("%s was cited in %s (%s)%s.", res.Domain, ofAnswers(k, n, "web-search"), interval(e), engineNote(res, p))
	rest := ""
	if retrieved > 0 {
		rest += fmt.Sprintf(" In %s the search retrieved a page of the site but the answer did not cite it.", plural(retrieved, "more run", "more runs"))
	}
	if named > 0 {
		rest += fmt.Sprintf(" In %s the answer named the brand without citing the site.", plural(named, "run", "runs"))
	}
	// Retrieved or named but never cited is on the way, not absent.
	if g.status == Fail && retrieved+named > 0 {
		g.status = Warn
	}
	return Result{g.status, g.summary(s, rest+notChecked(p)), e}
}

func baseEvidence(res *mentions.Result) map[string]any {
	engines := make([]map[string]any, 0, len(res.Engines))
	for _, en := range res.Engines {
		engines = append(engines, en.Evidence())
	}
	e := ev("prompt_set", res.PromptSet, "date", res.Date, "engines", engines, "domain", res.Domain)
	if pl := res.Plan; pl.Needed > 0 || pl.Budget > 0 || len(pl.Dropped) > 0 {
		e["plan"] = planEvidence(pl)
	}
	return e
}

// planEvidence is the plan under the names its JSON gives it, numbers
// as ints where they are whole, lists as strings.
func planEvidence(pl mentions.Plan) map[string]any {
	out := map[string]any{"dropped": nonNil(pl.Dropped)}
	var raw map[string]any
	if b, err := json.Marshal(pl); err != nil || json.Unmarshal(b, &raw) != nil {
		return out
	}
	for k, v := range raw {
		switch x := v.(type) {
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
				out[k] = int(x)
			} else {
				out[k] = x
			}
		case string, bool:
			out[k] = x
		}
	}
	return out
}

// withPlan adds to a measured result the sentence that says the
// measurement was cut to fit the scan's budget of calls and tokens.
func withPlan(eval func(*Input) Result) func(*Input) Result {
	return func(in *Input) Result {
		r := eval(in)
		if in.Mentions != nil && len(in.Mentions.Plan.Dropped) > 0 {
			r.Summary += fmt.Sprintf(" To fit the scan's budget, %s cut (see the plan in the evidence).",
				plural(len(in.Mentions.Plan.Dropped), "part of the measurement was", "parts of the measurement were"))
		}
		return r
	}
}

// unanswered are the engines that were asked p and answered none of it.
func unanswered(res *mentions.Result, p mentions.Probes) []string {
	var names []string
	for _, name := range probeEngines(res, p) {
		if !slices.ContainsFunc(p.Runs, func(r mentions.Run) bool { return r.Engine == name && r.Outcome != mentions.Errored }) {
			names = append(names, name)
		}
	}
	return names
}

// leftOutNote names the engines whose descriptions are missing from the
// judging because none of their branded runs got an answer.
func leftOutNote(res *mentions.Result, names []string) string {
	if len(names) == 0 {
		return ""
	}
	labels := make([]string, 0, len(names))
	for _, n := range names {
		labels = append(labels, n+" ("+modelOf(res, n)+")")
	}
	var why string
	for _, r := range res.Recognition.Runs {
		if r.Engine == names[0] && r.Outcome == mentions.Errored {
			why = r.Error
			break
		}
	}
	return fmt.Sprintf(" Left out of the judging: %s, which answered no branded prompt (%s).", andList(labels), why)
}

// probeEvidence lists a probe's prompts and runs (the trimmed answers
// included) beside the base evidence.
func probeEvidence(res *mentions.Result, p mentions.Probes) map[string]any {
	e := baseEvidence(res)
	prompts := make([]map[string]any, 0, len(p.Prompts))
	for _, pr := range p.Prompts {
		prompts = append(prompts, map[string]any{"id": pr.ID, "kind": pr.Kind, "text": pr.Text, "web_search": pr.WebSearch})
	}
	runs := make([]map[string]any, 0, len(p.Runs))
	for _, r := range p.Runs {
		row := map[string]any{"engine": r.Engine, "prompt": r.Prompt, "run": r.Run, "outcome": r.Outcome, "cached": r.Cached}
		if en, ok := res.Engine(r.Engine); ok {
			row["engine_host"] = en.Host
			row["model"] = en.Model
		}
		if r.Model != "" {
			row["answered_by"] = r.Model
		}
		if r.Error != "" {
			row["error"] = r.Error
		} else {
			row["answer"] = r.Answer
		}
		if r.Position > 0 {
			row["position"] = r.Position
		}
		if len(r.Others) > 0 {
			row["other_brands"] = r.Others
		}
		if len(r.Cited) > 0 {
			row["cited"] = r.Cited
		}
		if len(r.Retrieved) > 0 {
			row["retrieved"] = firstN(r.Retrieved, 10)
		}
		runs = append(runs, row)
	}
	e["prompts"], e["runs"] = prompts, runs
	e["not_checked"] = p.Count(mentions.Errored)
	perEngine := map[string]any{}
	for _, en := range res.Engines {
		checked, total := 0, 0
		for _, r := range p.Runs {
			if r.Engine == en.Name {
				total++
				if r.Outcome != mentions.Errored {
					checked++
				}
			}
		}
		if total > 0 {
			perEngine[en.Name] = map[string]any{"runs": total, "checked": checked}
		}
	}
	e["per_engine"] = perEngine
	return e
}

// buyerEvidence is what the buyer questions were built from, and what
// read from the site was left out of them.
func buyerEvidence(e map[string]any, res *mentions.Result) {
	built := make([]map[string]any, 0, len(res.Buyer))
	for _, f := range res.Buyer {
		built = append(built, map[string]any{"key": f.Key, "value": f.Value, "source": f.Source})
	}
	e["built_from"] = built
	addDropped(e, res)
}

// The probes, for what may leave each unasked.
const (
	brandedProbe = iota
	buyerProbe
	searchProbe
)

// skipped is the verdict of a probe that was not asked: not measured
// (na) when no engine can search the web for the search probe; not
// checked (error) for a buyer or search probe when reading the site's
// category failed and no buyer question was built — whatever words the
// probe gives for it — attributed to the engine that read; not measured,
// with the probe's reason, otherwise (a reading that failed in part
// while the buyer questions were asked leaves the search probe, cut to
// fit the budget, not measured).
func skipped(res *mentions.Result, p mentions.Probes, e map[string]any, probe int) *Result {
	if p.Skipped == "" && (len(p.Prompts) > 0 || len(p.Runs) > 0) {
		return nil
	}
	why := cmp.Or(p.Skipped, "no prompt was asked")
	e["skipped"] = why
	if probe == searchProbe && !slices.ContainsFunc(res.Engines, func(en llm.Info) bool { return en.Can(llm.WebSearch) }) {
		r := na("Not measured: no configured engine can search the web; not scored.", e)
		return &r
	}
	if probe != brandedProbe && res.FactsError != "" && len(res.Category.Prompts) == 0 {
		en := extractor(res)
		e["extraction_engine"] = en.Name
		// The reason names the engine when package mentions wrote it so.
		label := en.Name + " (" + en.Model + ")"
		s := fmt.Sprintf("Not checked: reading the site's category with %s failed (%s), so no buyer question was asked.", label, res.FactsError)
		if strings.Contains(res.FactsError, label) {
			s = fmt.Sprintf("Not checked: %s, so no buyer question was asked.", strings.TrimSuffix(res.FactsError, "."))
		}
		r := errored(s, e)
		return &r
	}
	r := na("Not measured: "+why+"; not scored.", e)
	return &r
}

// extractor is the engine that read the site's category: the default
// engine, which also judges (docs/AI.md), and is configured first.
func extractor(res *mentions.Result) llm.Info {
	for _, j := range res.Accuracy {
		if en, ok := res.Engine(j.JudgeEngine); ok {
			return en
		}
	}
	if len(res.Engines) > 0 {
		return res.Engines[0]
	}
	return llm.Info{Name: "the default engine"}
}

func ofAnswers(k, n int, kind string) string {
	return ofTotal(k, n, kind+" answer", kind+" answers")
}

func interval(e map[string]any) string {
	iv, _ := e["interval_95"].(map[string]any)
	lo, _ := iv["low"].(float64)
	hi, _ := iv["high"].(float64)
	rate, _ := e["rate"].(float64)
	return fmt.Sprintf("%.0f %%, 95 %% interval %.0f–%.0f %%", 100*rate, 100*lo, 100*hi)
}

// engineNote names the engines and the run count when more than one
// engine answered.
func engineNote(res *mentions.Result, p mentions.Probes) string {
	var names []string
	for _, en := range res.Engines {
		for _, r := range p.Runs {
			if r.Engine == en.Name {
				names = append(names, en.Name+" ("+en.Model+")")
				break
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " from " + andList(names)
}

func notChecked(p mentions.Probes) string {
	if c := p.Count(mentions.Errored); c > 0 {
		return fmt.Sprintf(" %s not checked (%s) and %s left out.", capFirst(plural(c, "run was", "runs were")), p.FirstError(), map[bool]string{true: "is", false: "are"}[c == 1])
	}
	return ""
}

func topCounts(m map[string]int, n int) []map[string]any {
	names := sortedKeys(m)
	sort.SliceStable(names, func(i, j int) bool { return m[names[i]] > m[names[j]] })
	out := []map[string]any{}
	for _, name := range firstN(names, n) {
		out = append(out, map[string]any{"name": name, "answers": m[name]})
	}
	return out
}

func mean(xs []int) float64 {
	s := 0
	for _, x := range xs {
		s += x
	}
	return roundTenth(float64(s) / float64(len(xs)))
}

func uniqueStrings(s []string) []string {
	var out []string
	for _, x := range s {
		if !containsString(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// What the measurement asks about.

// Bounds of the site text a reading sends to the extraction.
const (
	maxMetaField = 500
	maxHomeText  = 2000
	maxAboutText = 3000
)

// genericTypes say that a node is an organisation without saying what
// kind: they give no category.
var genericTypes = map[string]bool{
	"Organization": true, "Corporation": true, "LocalBusiness": true, "OnlineBusiness": true, "OnlineStore": true,
	"Person": true, "Thing": true, "NGO": true, "Consortium": true, "Store": true,
}

// AISubject is what the answer engines are asked about: the brand and its
// aliases, the site's host, the facts the site states without a model
// reading it (JSON-LD, its own description of itself), two readings of
// the site for the default engine to extract category, offers and location
// from (its metadata; its visible text), and the visible text of every
// page read, which what is extracted must be found in. No hidden text
// (display:none, aria-hidden, the hidden attribute …) is in any of them,
// whether or not the hidden_prompt_injection check flags it; invisible
// characters and key-shaped strings are removed. Everything else is the
// site's text, which mentions.Measure fences as data and checks before
// use.
func AISubject(in *Input) mentions.Subject {
	s := mentions.Subject{Brand: in.BrandName, Aliases: in.BrandAliases}
	site := siteOf(in)
	switch {
	case site.Home != nil && site.Home.FinalURL != "":
		s.Host = hostOf(site.Home.FinalURL)
	case site.Target != nil:
		s.Host = site.Target.Hostname()
	}
	s.Facts = siteFacts(in)
	s.Readings = siteReadings(in)
	for _, p := range everyPage(in) {
		if t := visibleOf(p, p.Text); t != "" {
			s.Visible = append(s.Visible, t)
		}
	}
	return s
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Hostname()
	}
	return ""
}

// siteFacts are the facts read without a model: the identity nodes'
// names, specific types, addresses, founding years, contacts and offers,
// the site name the homepage declares, and the site's description of
// itself. A key may come from several places, in order of preference:
// mentions.Measure keeps the first that has the shape of its fact, so a
// name that is a sentence gives way to the next.
func siteFacts(in *Input) []mentions.Fact {
	var facts []mentions.Fact
	add := func(key, value, source string, vocabulary bool) {
		value = strings.Join(strings.Fields(cleanForPrompt(value)), " ")
		if value == "" {
			return
		}
		facts = append(facts, mentions.Fact{Key: key, Value: value, Source: source, Vocabulary: vocabulary})
	}
	known := slices.Concat(organizationTypes, localBusinessTypes)
	for _, c := range siteIdentities(in) {
		en := c.entity
		typ := en.Types[0]
		src := markupOf(en) + " " + typ + " on " + addressOf(c.page)
		add(mentions.FactName, en.String("name"), src+" (name)", false)
		for _, t := range en.Types {
			// Only a schema.org type GeoScan knows names a category: a
			// type is the site's own string otherwise.
			if !genericTypes[t] && slices.Contains(known, t) {
				add(mentions.FactCategory, humanType(t), src+" (@type)", true)
				break
			}
		}
		if addr := en.Object("address"); addr != nil {
			loc := jsonld.Field(addr, "addressLocality")
			if r := jsonld.Field(addr, "addressRegion"); r != "" && loc != "" && r != loc {
				loc += ", " + r
			}
			add(mentions.FactLocation, loc, src+" (address)", false)
		}
		if fd := en.String("foundingDate"); len(fd) >= 4 {
			add(mentions.FactFounded, fd[:4], src+" (foundingDate)", false)
		}
		contact := en.String("telephone")
		if contact == "" {
			contact = en.String("email")
		}
		if cp := en.Object("contactPoint"); contact == "" && cp != nil {
			contact = jsonld.Field(cp, "telephone")
			if contact == "" {
				contact = jsonld.Field(cp, "email")
			}
		}
		add(mentions.FactContact, strings.TrimPrefix(contact, "mailto:"), src+" (contact)", false)
		var offers []string
		if list, ok := en.Props["makesOffer"].([]any); ok {
			for _, o := range list {
				if m, ok := o.(map[string]any); ok {
					if item, ok := m["itemOffered"].(map[string]any); ok {
						if n := jsonld.Field(item, "name"); n != "" {
							offers = append(offers, n)
						}
					}
				}
			}
		}
		if len(offers) > 0 {
			add(mentions.FactOffer, strings.Join(firstN(offers, 3), ", "), src+" (makesOffer)", false)
		}
	}
	if h := in.Home; h != nil {
		add(mentions.FactName, h.MetaContent("og:site_name"), "og:site_name of "+addressOf(h), false)
		desc, src := selfDescription(in)
		add(mentions.FactDescription, excerpt(strings.Join(strings.Fields(desc), " "), mentions.MaxDescription-1), src, false)
	}
	return facts
}

// markupOf names the markup that declared an entity ("JSON-LD",
// "microdata", "JSON-LD and RDFa"), so a fact's source says where a reader
// of the page finds it.
func markupOf(en *jsonld.Entity) string {
	if s := en.Syntax.String(); s != "" {
		return s
	}
	return "JSON-LD"
}

// selfDescription is what the site says it is, in the first place it
// says so: the identity node's description, the meta description, the
// homepage's lead paragraph, its title.
func selfDescription(in *Input) (text, source string) {
	h := in.Home
	for _, c := range siteIdentities(in) {
		if d := c.entity.String("description"); d != "" {
			return d, markupOf(c.entity) + " " + c.entity.Types[0] + " on " + addressOf(c.page) + " (description)"
		}
	}
	if d := h.MetaContent("description"); strings.TrimSpace(d) != "" {
		return d, "meta description of " + addressOf(h)
	}
	if lead := h.IntroParagraph(); lead != "" && !isHidden(h, lead) {
		return lead, "lead paragraph of " + addressOf(h)
	}
	return h.Title, "title of " + addressOf(h)
}

// siteReadings are the two parts of the site the extraction reads, each
// in its own call: what the site says of itself to machines (title, meta
// description, JSON-LD description) and what it shows a visitor (main
// heading, homepage and about page text, hidden elements removed).
func siteReadings(in *Input) []mentions.Reading {
	meta := map[string]string{}
	text := map[string]string{}
	set := func(fields map[string]string, key, value string, limit int) {
		if v := strings.Join(strings.Fields(cleanForPrompt(value)), " "); v != "" {
			fields[key] = excerpt(v, limit)
		}
	}
	if h := in.Home; h != nil {
		set(meta, "title", h.Title, maxMetaField)
		set(meta, "meta_description", h.MetaContent("description"), maxMetaField)
		for _, c := range siteIdentities(in) {
			if d := c.entity.String("description"); d != "" {
				set(meta, "organization_description", d, maxMetaField)
				break
			}
		}
		for _, hd := range h.Headings {
			if hd.Level == 1 && !isHidden(h, hd.Text) {
				set(text, "main_heading", hd.Text, maxMetaField)
				break
			}
		}
		set(text, "homepage_text", visibleOf(h, h.MainText), maxHomeText)
	}
	for _, p := range sitePages(in, fetch.About) {
		set(text, "about_page_text", visibleOf(p, p.MainText), maxAboutText)
		break
	}
	var out []mentions.Reading
	if len(meta) > 0 {
		out = append(out, mentions.Reading{Name: "metadata (title, meta description, JSON-LD description)", Fields: meta})
	}
	if len(text) > 0 {
		out = append(out, mentions.Reading{Name: "visible text (main heading, homepage, about page)", Fields: text})
	}
	return out
}

// visibleOf is a page's text without the text of its hidden elements.
func visibleOf(p *page.Page, text string) string {
	for _, h := range p.HiddenTexts() {
		text = strings.ReplaceAll(text, h.Text, " ")
	}
	return strings.Join(strings.Fields(cleanForPrompt(text)), " ")
}

// isHidden reports text that a visitor of p does not see: it is gone
// from the page's text once the hidden elements' text is taken out.
func isHidden(p *page.Page, text string) bool {
	return !strings.Contains(visibleOf(p, p.Text), strings.Join(strings.Fields(cleanForPrompt(text)), " "))
}

// humanType turns a schema.org type into words: "CafeOrCoffeeShop" →
// "cafe or coffee shop".
func humanType(t string) string {
	var b strings.Builder
	for i, r := range t {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// secretRE matches strings shaped like credentials (API keys, tokens):
// a site that leaks one must not have it forwarded to an engine.
var secretRE = regexp.MustCompile(`\b(?:sk|pk|rk|geo|ghp|gho|xox[abpr]|AKIA|AIza)[-_A-Za-z0-9]{16,}|\b[A-Za-z0-9+/_-]{40,}\b`)

// cleanForPrompt strips invisible characters (tag characters, zero-width
// runs) and credential-shaped strings.
func cleanForPrompt(s string) string {
	s = strings.Map(func(r rune) rune {
		if (r >= 0xE0000 && r <= 0xE007F) || isZeroWidth(r) || r == 0 {
			return -1
		}
		return r
	}, s)
	return secretRE.ReplaceAllString(s, "[redacted]")
}
