package checks

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/geoscan/geoscan/internal/audit/mentions"
)

// The rule the AI mention rates are graded by (docs/SCORING.md). A rate is
// decided only when its 95 % interval lies wholly on one side of the pass
// mark, so no width limit turns one more run into a different verdict; an
// engine whose own interval lies below the mark holds a pooled pass to a
// warning; and the runs of one prompt on one engine, which are repeats
// rather than independent answers, are listed, and named when a verdict
// rests on them.

// maxRunsPerPrompt is the most GEOSCAN_LLM_RUNS allows: how far the advice
// on settling an undecided rate looks.
const maxRunsPerPrompt = 20

// tally is k of n answered runs, and the runs that were not checked.
type tally struct {
	k, n, errored int
	firstError    string
}

func (t *tally) add(r mentions.Run, hit bool) {
	switch {
	case r.Outcome == mentions.Errored:
		t.errored++
		if t.firstError == "" {
			t.firstError = r.Error
		}
	case hit:
		t.k++
		t.n++
	default:
		t.n++
	}
}

func (t tally) without(o tally) tally { return tally{k: t.k - o.k, n: t.n - o.n} }

func (t tally) rate() float64 {
	if t.n == 0 {
		return 0
	}
	return float64(t.k) / float64(t.n)
}

// evidence records k, n, the rate and the interval in row.
func (t tally) evidence(row map[string]any) map[string]any {
	lo, hi := mentions.Wilson(t.k, t.n)
	row["k"], row["n"] = t.k, t.n
	if t.n > 0 {
		row["rate"] = round3(t.rate())
		row["interval_95"] = map[string]any{"low": lo, "high": hi}
	}
	return row
}

func (t tally) interval() string {
	lo, hi := mentions.Wilson(t.k, t.n)
	return fmt.Sprintf("95 %% interval %.0f–%.0f %%", 100*lo, 100*hi)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// decision is what the rule makes of a tally against a pass mark.
type decision string

const (
	decidedPass      decision = "pass"
	decidedWarn      decision = "warn"
	decidedFail      decision = "fail"
	insufficientData decision = "insufficient_data"
	notAnswered      decision = "not_checked"
)

// decide is the rule: pass when the interval's low end reaches the mark;
// below the mark when its high end is under it (fail when no run hit,
// warn when some did); insufficient data while the interval holds the
// mark, however wide or narrow it is.
func decide(t tally, mark float64) decision {
	if t.n == 0 {
		return notAnswered
	}
	lo, hi := mentions.Wilson(t.k, t.n)
	switch {
	case lo >= mark:
		return decidedPass
	case hi < mark && t.k == 0:
		return decidedFail
	case hi < mark:
		return decidedWarn
	}
	return insufficientData
}

func (d decision) status() Status {
	switch d {
	case decidedPass:
		return Pass
	case decidedWarn:
		return Warn
	case decidedFail:
		return Fail
	case notAnswered:
		return Error
	}
	return Info
}

func (d decision) words() string {
	switch d {
	case decidedPass:
		return "a pass"
	case decidedWarn:
		return "a warning"
	case decidedFail:
		return "a fail"
	case notAnswered:
		return "not checked"
	}
	return "insufficient data"
}

// rateSpec is what a rate check counts.
type rateSpec struct {
	mark float64
	// hits are the outcomes that count.
	hits []string
	// answers is the kind of answer counted ("buyer"), did what an engine
	// that hit did ("named it").
	answers, did string
}

// rateGrade is a graded rate: its status, and the sentences the finding
// adds to the pooled figure.
type rateGrade struct {
	status Status
	notes  string
}

// summary is the finding: the pooled figure (first, one sentence), the
// grade's notes, then the rest. An undecided rate starts "Insufficient
// data:".
func (g rateGrade) summary(first, rest string) string {
	if g.status == Info {
		r := []rune(first)
		if len(r) > 1 && !unicode.IsUpper(r[1]) {
			r[0] = unicode.ToLower(r[0])
		}
		first = "Insufficient data: " + string(r)
	}
	return first + g.notes + rest
}

// cluster is the runs of one prompt on one engine.
type cluster struct {
	engine, prompt string
	tally
}

// gradeRate grades the answered runs of p against spec.mark and records
// in e the pooled figure (k, n, rate, interval_95, pass_mark) and beside
// it the figures by engine (by_engine), by prompt (by_prompt) and by
// engine and prompt (clusters). The pooled decision is the status, held
// to a warning when it passes while an engine's own interval lies wholly
// below the mark; info when the interval holds the mark.
func gradeRate(res *mentions.Result, p mentions.Probes, spec rateSpec, e map[string]any) rateGrade {
	var pooled tally
	engines, prompts := probeEngines(res, p), make([]string, 0, len(p.Prompts))
	for _, pr := range p.Prompts {
		prompts = append(prompts, pr.ID)
	}
	byEngine := make([]tally, len(engines))
	byPrompt := make([]tally, len(prompts))
	clusters := make([]cluster, 0, len(engines)*len(prompts))
	for _, en := range engines {
		for _, pr := range prompts {
			clusters = append(clusters, cluster{engine: en, prompt: pr})
		}
	}
	for _, r := range p.Runs {
		hit := slices.Contains(spec.hits, r.Outcome)
		pooled.add(r, hit)
		ei, pi := slices.Index(engines, r.Engine), slices.Index(prompts, r.Prompt)
		if ei >= 0 {
			byEngine[ei].add(r, hit)
		}
		if pi >= 0 {
			byPrompt[pi].add(r, hit)
		}
		if ei >= 0 && pi >= 0 {
			clusters[ei*len(prompts)+pi].add(r, hit)
		}
	}
	pooled.evidence(e)
	e["pass_mark"] = round3(spec.mark)

	engineRows := make([]map[string]any, 0, len(engines))
	for i, name := range engines {
		t := byEngine[i]
		row := t.evidence(map[string]any{"engine": name, "model": modelOf(res, name), "verdict": string(decide(t, spec.mark))})
		if t.errored > 0 {
			row["not_checked"], row["error"] = t.errored, t.firstError
		}
		engineRows = append(engineRows, row)
	}
	e["by_engine"] = engineRows
	promptRows := make([]map[string]any, 0, len(prompts))
	for i, pr := range p.Prompts {
		promptRows = append(promptRows, byPrompt[i].evidence(map[string]any{"prompt": pr.ID, "text": pr.Text}))
	}
	e["by_prompt"] = promptRows
	clusterRows := make([]map[string]any, 0, len(clusters))
	groups, perPrompt := 0, 0
	for _, c := range clusters {
		if c.n+c.errored == 0 {
			continue
		}
		clusterRows = append(clusterRows, map[string]any{"engine": c.engine, "prompt": c.prompt, "k": c.k, "n": c.n})
		perPrompt = max(perPrompt, c.n+c.errored)
		if c.n > 0 {
			groups++
		}
	}
	e["clusters"] = clusterRows

	d := decide(pooled, spec.mark)
	g := rateGrade{status: d.status()}
	var notes strings.Builder
	switch d {
	case decidedPass:
		// A pooled rate must not hide an engine that misses the mark.
		var below, names []string
		for i, name := range engines {
			t := byEngine[i]
			if _, hi := mentions.Wilson(t.k, t.n); t.n > 0 && hi < spec.mark {
				below = append(below, fmt.Sprintf("%s (%s) %s in %s (%s)", name, modelOf(res, name), spec.did, ofAnswers(t.k, t.n, spec.answers), t.interval()))
				names = append(names, name)
			}
		}
		if len(below) > 0 {
			g.status = Warn
			e["engines_below_pass_mark"] = names
			fmt.Fprintf(&notes, " But %s, wholly below the pass mark of %.0f %%, so the pooled pass counts as a warning.", andList(below), 100*spec.mark)
		}
	case insufficientData:
		e["insufficient_data"] = true
		fmt.Fprintf(&notes, " The interval holds the pass mark of %.0f %%, so the rate is neither a pass nor a fail, and it is not scored.", 100*spec.mark)
		if r := runsToSettle(pooled, groups, perPrompt, spec.mark); r > 0 {
			more := r*groups - pooled.n
			e["runs_to_settle"] = map[string]any{"runs_per_prompt": r, "more_runs": more}
			if len(res.Plan.Dropped) > 0 {
				// The scan's budget, not the runs setting, held the
				// measurement back.
				fmt.Fprintf(&notes, " About %s, %d per prompt, would typically settle it, with a budget (GEOSCAN_LLM_MAX_CALLS, GEOSCAN_LLM_MAX_TOKENS) that allows them.", plural(more, "more run", "more runs"), r)
			} else {
				fmt.Fprintf(&notes, " About %s (GEOSCAN_LLM_RUNS=%d) would typically settle it.", plural(more, "more run", "more runs"), r)
			}
		} else {
			fmt.Fprintf(&notes, " The rate lies so close to the mark that even %d runs per prompt, the most GEOSCAN_LLM_RUNS allows, would typically not settle it.", maxRunsPerPrompt)
		}
		// What the engines say on their own when they disagree.
		var own []string
		for i, name := range engines {
			switch decide(byEngine[i], spec.mark) {
			case decidedPass:
				own = append(own, fmt.Sprintf("%s (%s) clears it with %d of %d", name, modelOf(res, name), byEngine[i].k, byEngine[i].n))
			case decidedWarn, decidedFail:
				own = append(own, fmt.Sprintf("%s (%s) falls below it with %d of %d", name, modelOf(res, name), byEngine[i].k, byEngine[i].n))
			}
		}
		if len(own) > 0 && len(engines) > 1 {
			notes.WriteString(" On its own, " + andList(own) + ".")
		}
	}
	if d == decidedPass || d == decidedWarn || d == decidedFail {
		notes.WriteString(restsOn(res, pooled, clusters, d, spec.mark, e))
	}
	g.notes = notes.String()
	return g
}

// restsOn names the prompt whose repeats on one engine a decided verdict
// rests on: without them the rate would be decided otherwise. Repeats of
// one prompt on one engine tend to agree, so they weigh less than their
// count says.
func restsOn(res *mentions.Result, pooled tally, clusters []cluster, d decision, mark float64, e map[string]any) string {
	for _, c := range clusters {
		if c.n == 0 {
			continue
		}
		if other := decide(pooled.without(c.tally), mark); other != d && other != notAnswered {
			e["verdict_rests_on"] = map[string]any{"engine": c.engine, "prompt": c.prompt, "n": c.n, "without_it": string(other)}
			return fmt.Sprintf(" The verdict rests on the repeats of one prompt: without the %s of %s (%s) to prompt %s it would be %s, and the runs of one prompt on one engine are not independent answers.",
				plural(c.n, "answer", "answers"), c.engine, modelOf(res, c.engine), c.prompt, other.words())
		}
	}
	return ""
}

// runsToSettle is the runs per prompt (GEOSCAN_LLM_RUNS) at which an
// undecided rate would typically be decided, were it to hold: the fewest
// above the runs asked per prompt whose interval, over the same groups,
// excludes the mark; 0 when not even maxRunsPerPrompt would.
func runsToSettle(t tally, groups, perPrompt int, mark float64) int {
	if t.n == 0 || groups == 0 {
		return 0
	}
	for r := perPrompt + 1; r <= maxRunsPerPrompt; r++ {
		n := r * groups
		k := int(math.Round(t.rate() * float64(n)))
		if decide(tally{k: k, n: n}, mark) != insufficientData {
			return r
		}
	}
	return 0
}

// probeEngines are the engines that ran p, in configuration order (and
// any the result does not list, in the order of their runs).
func probeEngines(res *mentions.Result, p mentions.Probes) []string {
	var names []string
	for _, en := range res.Engines {
		if slices.ContainsFunc(p.Runs, func(r mentions.Run) bool { return r.Engine == en.Name }) {
			names = append(names, en.Name)
		}
	}
	for _, r := range p.Runs {
		if !slices.Contains(names, r.Engine) {
			names = append(names, r.Engine)
		}
	}
	return names
}

func modelOf(res *mentions.Result, engine string) string {
	en, _ := res.Engine(engine)
	return en.Model
}
