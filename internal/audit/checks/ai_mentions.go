package checks

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/jsonld"
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
// docs/SCORING.md). A rate passes at or above its mark and fails only when
// no run mentions the brand; an interval wider than maxDecisiveWidth that
// straddles the mark decides nothing and is a warn that says so.
const (
	recognitionPassMark = 2.0 / 3
	mentionPassMark     = 0.5
	citationPassMark    = 1.0 / 3
	accuracyPassShare   = 0.8
	accuracyWarnShare   = 0.5
	maxDecisiveWidth    = 0.5
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
		Eval: evalBrandRecognition,
	}
}

func evalBrandRecognition(in *Input) Result {
	res := in.Mentions
	if res == nil {
		return noEngine()
	}
	p := res.Recognition
	e := probeEvidence(res, p)
	n, k := p.Checked(), p.Count(mentions.Known)
	if n == 0 {
		return errored(fmt.Sprintf("Not checked: no branded prompt got an answer (%s).", p.FirstError()), e)
	}
	st, why := rateVerdict(k, n, recognitionPassMark, e)
	e["known"], e["no_information"], e["not_mentioned"] = k, p.Count(mentions.NoInformation), p.Count(mentions.NotMentioned)
	s := fmt.Sprintf("The brand was known in %s (%s)%s.", ofAnswers(k, n, "branded"), interval(e), engineNote(res, p))
	if u := p.Count(mentions.NoInformation); u > 0 {
		s += fmt.Sprintf(" %s said the model had no information about it.", capFirst(plural(u, "answer", "answers")))
	}
	return Result{st, s + why + notChecked(p), e}
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
			Why:   "A judging call at temperature 0 compares the models' descriptions with facts read from the site (name, offer, category, location, founding, contact) and marks each confirmed, contradicted or missing.",
			Fix:   "Publish the facts in unambiguous text and markup (Organization.description, address, foundingDate, makesOffer) on pages crawlers reach, and correct wrong third-party profiles.",
		},
		Eval: evalBrandAccuracy,
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
	if res.FactsError != "" {
		e["facts_error"] = res.FactsError
	}
	if len(res.Facts) == 0 {
		return na("No facts about the business could be read from the site (JSON-LD, about page), so there is nothing to compare the descriptions with.", e)
	}
	var judged []map[string]any
	var confirmed, contradicted, missing, described, failed int
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
				verdicts = append(verdicts, map[string]any{"key": f.Key, "site_value": f.SiteValue, "verdict": f.Verdict, "model_says": f.ModelSays})
				switch f.Verdict {
				case mentions.VerdictConfirmed:
					confirmed++
				case mentions.VerdictContradicted:
					contradicted++
					wrong = append(wrong, f.Key)
				default:
					missing++
				}
			}
			row["facts"] = verdicts
		}
		judged = append(judged, row)
	}
	e["judgements"] = nonNilRows(judged)
	e["confirmed"], e["contradicted"], e["missing"] = confirmed, contradicted, missing
	switch {
	case described == 0:
		return na("No engine described the brand in its branded answers (see the brand recognition check), so there is nothing to judge.", e)
	case failed == described:
		return errored(fmt.Sprintf("Not checked: the judging call failed (%s).", reason), e)
	}
	stated := confirmed + contradicted
	if stated == 0 {
		return warn(fmt.Sprintf("The descriptions state none of the %s read from the site.", plural(len(res.Facts), "fact", "facts")), e)
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
	if failed > 0 {
		s += fmt.Sprintf(" The judging of %s failed and is left out.", plural(failed, "engine", "engines"))
	}
	return byThreshold(share, accuracyPassShare, accuracyWarnShare, s, e)
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
		Eval: evalCategoryMentionRate,
	}
}

func evalCategoryMentionRate(in *Input) Result {
	res := in.Mentions
	if res == nil {
		return noEngine()
	}
	p := res.Category
	e := probeEvidence(res, p)
	if r := skipped(res, p, e); r != nil {
		return *r
	}
	n, k := p.Checked(), p.Count(mentions.Mentioned)
	if n == 0 {
		return errored(fmt.Sprintf("Not checked: no buyer prompt got an answer (%s).", p.FirstError()), e)
	}
	st, why := rateVerdict(k, n, mentionPassMark, e)
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
	if len(positions) > 0 {
		s += fmt.Sprintf(" When listed it ranked %.1f on average.", mean(positions))
	}
	if top := topCounts(others, 3); len(top) > 0 {
		names := make([]string, 0, len(top))
		for _, t := range top {
			names = append(names, fmt.Sprint(t["name"]))
		}
		s += " Named instead most often: " + andList(names) + "."
	}
	return Result{st, s + why + notChecked(p), e}
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
		Eval: evalSearchCitation,
	}
}

func evalSearchCitation(in *Input) Result {
	res := in.Mentions
	if res == nil {
		return noEngine()
	}
	p := res.Citation
	e := probeEvidence(res, p)
	if r := skipped(res, p, e); r != nil {
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
	st, why := rateVerdict(k, n, citationPassMark, e)
	s := fmt.Sprintf("%s was cited in %s (%s)%s.", res.Domain, ofAnswers(k, n, "web-search"), interval(e), engineNote(res, p))
	if retrieved > 0 {
		s += fmt.Sprintf(" In %s the search retrieved a page of the site but the answer did not cite it.", plural(retrieved, "more run", "more runs"))
	}
	if named > 0 {
		s += fmt.Sprintf(" In %s the answer named the brand without citing the site.", plural(named, "run", "runs"))
	}
	// Retrieved or named but never cited is on the way, not absent.
	if st == Fail && retrieved+named > 0 {
		st = Warn
	}
	return Result{st, s + why + notChecked(p), e}
}

// rateVerdict grades k of n against a pass mark with the 95 % Wilson
// interval, and records the numbers in e. The reason is "" unless the
// interval is too wide to decide.
func rateVerdict(k, n int, passMark float64, e map[string]any) (Status, string) {
	lo, hi := mentions.Wilson(k, n)
	rate := float64(k) / float64(n)
	e["k"], e["n"], e["rate"] = k, n, math.Round(rate*1000)/1000
	e["interval_95"] = map[string]any{"low": lo, "high": hi}
	e["pass_mark"] = math.Round(passMark*1000) / 1000
	switch {
	case lo >= passMark:
		return Pass, ""
	case hi < passMark && k == 0:
		return Fail, ""
	case hi < passMark:
		return Warn, ""
	case hi-lo > maxDecisiveWidth:
		e["undecided"] = true
		return Warn, fmt.Sprintf(" The interval is too wide to decide against the pass mark of %.0f %%: more runs (GEOSCAN_LLM_RUNS) would settle it.", passMark*100)
	case rate >= passMark:
		return Pass, ""
	case k > 0:
		return Warn, ""
	}
	return Fail, ""
}

func baseEvidence(res *mentions.Result) map[string]any {
	engines := make([]map[string]any, 0, len(res.Engines))
	for _, en := range res.Engines {
		engines = append(engines, en.Evidence())
	}
	return ev("prompt_set", res.PromptSet, "date", res.Date, "engines", engines, "domain", res.Domain)
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

// skipped is the verdict of a probe that was not asked.
func skipped(res *mentions.Result, p mentions.Probes, e map[string]any) *Result {
	if p.Skipped == "" {
		return nil
	}
	e["skipped"] = p.Skipped
	if res.FactsError != "" && len(p.Prompts) == 0 && strings.Contains(p.Skipped, res.FactsError) {
		r := errored("Not checked: "+p.Skipped+".", e)
		return &r
	}
	r := na("Not measured: "+p.Skipped+"; not scored.", e)
	return &r
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

// maxSiteData bounds the site text sent for fact extraction.
const maxSiteData = 6000

// genericTypes say that a node is an organisation without saying what
// kind: they give no category.
var genericTypes = map[string]bool{
	"Organization": true, "Corporation": true, "LocalBusiness": true, "OnlineBusiness": true, "OnlineStore": true,
	"Person": true, "Thing": true, "NGO": true, "Consortium": true, "Store": true,
}

// AISubject is what the answer engines are asked about: the brand and its
// aliases, the site's host, the facts the site states in JSON-LD, and
// the text the default engine extracts category, offers and location from
// (title, description, headings, about page). Text the
// hidden_prompt_injection check would flag, invisible characters and
// key-shaped strings never reach a prompt.
func AISubject(in *Input) mentions.Subject {
	s := mentions.Subject{Brand: in.BrandName, Aliases: in.BrandAliases}
	site := siteOf(in)
	switch {
	case site.Home != nil && site.Home.FinalURL != "":
		s.Host = hostOf(site.Home.FinalURL)
	case site.Target != nil:
		s.Host = site.Target.Hostname()
	}
	s.Facts = jsonldFacts(in)
	s.Data = siteData(in)
	return s
}

func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Hostname()
	}
	return ""
}

func jsonldFacts(in *Input) []mentions.Fact {
	var facts []mentions.Fact
	add := func(key, value, source string) {
		value = strings.Join(strings.Fields(cleanForPrompt(value)), " ")
		if value == "" || len([]rune(value)) > 120 || injectionRE.MatchString(value) {
			return
		}
		for _, f := range facts {
			if f.Key == key {
				return
			}
		}
		facts = append(facts, mentions.Fact{Key: key, Value: value, Source: source})
	}
	for _, c := range siteIdentities(in) {
		en := c.entity
		typ := en.Types[0]
		src := "JSON-LD " + typ + " on " + addressOf(c.page)
		add(mentions.FactName, en.String("name"), src+" (name)")
		for _, t := range en.Types {
			if !genericTypes[t] {
				add(mentions.FactCategory, humanType(t), src+" (@type)")
				break
			}
		}
		if addr := en.Object("address"); addr != nil {
			loc := jsonld.Field(addr, "addressLocality")
			if r := jsonld.Field(addr, "addressRegion"); r != "" && loc != "" && r != loc {
				loc += ", " + r
			}
			add(mentions.FactLocation, loc, src+" (address)")
		}
		if fd := en.String("foundingDate"); len(fd) >= 4 {
			add(mentions.FactFounded, fd[:4], src+" (foundingDate)")
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
		add(mentions.FactContact, strings.TrimPrefix(contact, "mailto:"), src+" (contact)")
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
			add(mentions.FactOffer, strings.Join(firstN(offers, 3), ", "), src+" (makesOffer)")
		}
	}
	return facts
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

// siteData is the text the default engine extracts facts from.
func siteData(in *Input) string {
	var b strings.Builder
	line := func(label, text string) {
		text = strings.Join(strings.Fields(cleanForPrompt(text)), " ")
		if text == "" || b.Len() >= maxSiteData {
			return
		}
		b.WriteString(label + ": " + text + "\n")
	}
	flagged := flaggedTexts(in)
	visible := func(p *page.Page, text string) string {
		for _, f := range flagged[p] {
			text = strings.ReplaceAll(text, f, " ")
		}
		return dropInstructions(text)
	}
	if h := in.Home; h != nil {
		line("Title", h.Title)
		if d := h.Meta["description"]; len(d) > 0 {
			line("Meta description", dropInstructions(d[0]))
		}
		for _, hd := range h.Headings {
			if hd.Level == 1 {
				line("Main heading", dropInstructions(hd.Text))
				break
			}
		}
		for _, c := range siteIdentities(in) {
			if d := c.entity.String("description"); d != "" {
				line("Organization description (JSON-LD)", dropInstructions(d))
				break
			}
		}
	}
	for _, p := range sitePages(in, fetch.About) {
		line("About page", excerpt(visible(p, p.MainText), 3000))
	}
	if h := in.Home; h != nil {
		line("Homepage", excerpt(visible(h, h.MainText), 2000))
	}
	return excerpt(b.String(), maxSiteData)
}

// flaggedTexts are, per page, the hidden texts the hidden_prompt_injection
// check flags: they are cut out of the page text before it reaches a
// prompt.
func flaggedTexts(in *Input) map[*page.Page][]string {
	out := map[*page.Page][]string{}
	for _, p := range everyPage(in) {
		for _, h := range p.HiddenTexts() {
			if injectionRE.MatchString(h.Text) {
				out[p] = append(out[p], h.Text)
			}
		}
	}
	return out
}

// sentenceRE splits text into sentences for dropInstructions.
var sentenceRE = regexp.MustCompile(`[^.!?\n]+[.!?]*`)

// dropInstructions removes the sentences that address AI models.
func dropInstructions(s string) string {
	if !injectionRE.MatchString(s) {
		return s
	}
	var b strings.Builder
	for _, sent := range sentenceRE.FindAllString(s, -1) {
		if !injectionRE.MatchString(sent) {
			b.WriteString(sent)
		}
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
