package mentions

import (
	"cmp"
	"math"
	"net/url"
	"slices"
	"strings"
)

// Share of voice: how often the answers to the buyer questions name the
// brand and each competitor the scan names, engine by engine, and which
// sites the answers cite for each. It costs no call: the buyer questions
// (and their web-search twins) are asked once, for the brand's own
// measurement, and every answer is then read for every brand with the
// brand's Matcher rules. A competitor is never asked about.

// Rival is a competitor scored beside the brand: its name, its other
// names and its site's host, matched in answers as the brand is.
type Rival struct {
	Brand   string
	Aliases []string
	Host    string
}

// The states of a share of voice.
const (
	ShareMeasured    = "measured"
	ShareNotMeasured = "not_measured"
)

// Why a share of voice may not be measured, besides the buyer questions'
// own reasons.
const (
	ShareNoCompetitors = "no competitor was named for the scan, so there is nothing to compare the brand with"
	ShareNoEngine      = "no answer engine is configured (GEOSCAN_LLM_BASE_URL), so no answer was read for any brand"
)

// MinDecisiveRuns is the fewest answers a rate needs before the rule the
// AI mention checks are graded by (docs/SCORING.md: a rate is decided
// only when its 95 % Wilson interval lies wholly on one side of the pass
// mark) can decide the buyer-question rate, whose mark is 1/2, at all:
// 4 of 4 is 51–100 %, while 3 of 3 is 44–100 % and 0 of 3 is 0–56 %.
// Below it a share is a small sample: reported, with words that say so.
const MinDecisiveRuns = 4

// maxSources bounds the cited domains a share of voice lists, the most
// cited first.
const maxSources = 50

// Interval is a 95 % Wilson interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Share is k of n answers that named a brand. n counts the answers that
// were read; a run whose call failed is not checked and is not in n.
type Share struct {
	K int `json:"k"`
	N int `json:"n"`
	// Rate and Interval are nil when no answer was read (n = 0).
	Rate     *float64  `json:"rate"`
	Interval *Interval `json:"interval"`
	// MeanPosition is the mean, over the answers naming the brand, of its
	// rank among the brands tracked that the answer names, by where each
	// is first named (1: named before the others); nil when none named it.
	MeanPosition *float64 `json:"mean_position"`
	// SmallSample is n below MinDecisiveRuns.
	SmallSample bool `json:"small_sample"`
}

// EngineShare is one engine's share for a brand.
type EngineShare struct {
	Engine string `json:"engine"`
	Share
}

// BrandShare is one brand's share of voice, over every engine and by
// engine.
type BrandShare struct {
	Brand string `json:"brand"`
	// Domain is the registrable domain of the brand's site.
	Domain string `json:"domain"`
	// You marks the scanned site's brand.
	You bool `json:"you"`
	Share
	Engines []EngineShare `json:"engines"`
}

// Source is a domain cited in answers that name a tracked brand.
type Source struct {
	Domain   string `json:"domain"`
	Category string `json:"category"`
	// Citations counts those answers that cited the domain.
	Citations int `json:"citations"`
	// Brands are the domains (BrandShare.Domain) of the tracked brands
	// named in those answers, the scanned site's first.
	Brands []string `json:"brands"`
}

// ShareOfVoice is the brand's share of the buyer questions' answers beside
// its competitors', and the sources cited.
type ShareOfVoice struct {
	Status string `json:"status"`
	// Reason says why it is not measured.
	Reason string `json:"reason,omitempty"`
	// SmallSample is fewer than MinDecisiveRuns answers read in all.
	SmallSample bool   `json:"small_sample"`
	PromptSet   string `json:"prompt_set"`
	// Brands are the scanned site's brand, then the competitors' in the
	// order given.
	Brands []BrandShare `json:"brands"`
	// Sources are the domains cited in answers naming a tracked brand,
	// the most cited first (at most maxSources).
	Sources []Source `json:"sources"`
	// CitingCompetitorsNotYou are the third-party domains (neither the
	// scanned site's nor a competitor's) cited in an answer naming a
	// competitor and never in one naming the brand, the most cited first.
	CitingCompetitorsNotYou []string `json:"citing_competitors_not_you"`
	// SourcesNotMeasured says why Sources and CitingCompetitorsNotYou are
	// not measured: no answer read cited anything (no engine searched the
	// web, or none cited a source). "" when they are.
	SourcesNotMeasured string `json:"sources_not_measured,omitempty"`
}

// ShareNotMeasuredFor is a share of voice not measured, and why.
func ShareNotMeasuredFor(reason string) *ShareOfVoice {
	return &ShareOfVoice{Status: ShareNotMeasured, Reason: reason, PromptSet: PromptSet}
}

// tracked is a brand share of voice reads the answers for.
type tracked struct {
	brand string
	m     *Matcher
	you   bool
}

// tally counts one brand's answers and ranks.
type tally struct{ k, n, rankSum int }

func (t *tally) share() Share {
	s := Share{K: t.k, N: t.n, SmallSample: t.n < MinDecisiveRuns}
	if t.n > 0 {
		lo, hi := Wilson(t.k, t.n)
		s.Rate = new(round(float64(t.k)/float64(t.n), 1000))
		s.Interval = &Interval{Low: lo, High: hi}
	}
	if t.k > 0 {
		s.MeanPosition = new(round(float64(t.rankSum)/float64(t.k), 100))
	}
	return s
}

func round(x, unit float64) float64 { return math.Round(x*unit) / unit }

// domainTally is what the answers citing one domain named.
type domainTally struct {
	citations          int
	brands             []bool // by tracked brand
	withYou, withRival bool
}

// shareOfVoice reads the buyer questions' answers (res.Category and
// res.Citation) for the brand (own) and subj.Competitors; nil without
// competitors.
func shareOfVoice(subj Subject, own *Matcher, res *Result) *ShareOfVoice {
	if len(subj.Competitors) == 0 {
		return nil
	}
	brands := []tracked{{brand: subj.Brand, m: own, you: true}}
	rivalDomains := map[string]bool{}
	for _, r := range subj.Competitors {
		m := NewMatcher(r.Brand, r.Aliases, r.Host)
		brands = append(brands, tracked{brand: r.Brand, m: m})
		if m.Domain() != "" {
			rivalDomains[m.Domain()] = true
		}
	}
	runs := slices.Concat(res.Category.Runs, res.Citation.Runs)
	checked := slices.DeleteFunc(slices.Clone(runs), func(r Run) bool { return r.Outcome == Errored })
	switch {
	case len(runs) == 0:
		return ShareNotMeasuredFor("no buyer question was asked: " + cmp.Or(res.Category.Skipped, res.Citation.Skipped, "there was nothing to ask"))
	case len(checked) == 0:
		why := cmp.Or(res.Category.FirstError(), res.Citation.FirstError())
		return ShareNotMeasuredFor("no answer engine answered a buyer question (" + why + "), so no answer was read for any brand")
	}

	var engines []string
	for _, e := range res.Engines {
		if slices.ContainsFunc(runs, func(r Run) bool { return r.Engine == e.Name }) {
			engines = append(engines, e.Name)
		}
	}
	for _, r := range runs {
		if !slices.Contains(engines, r.Engine) {
			engines = append(engines, r.Engine)
		}
	}
	pooled := make([]tally, len(brands))
	byEngine := make([][]tally, len(brands))
	for b := range brands {
		byEngine[b] = make([]tally, len(engines))
	}
	domains := map[string]*domainTally{}
	cited := false
	for _, r := range checked {
		e := slices.Index(engines, r.Engine)
		named := namedIn(brands, r.full)
		for b := range brands {
			pooled[b].n++
			byEngine[b][e].n++
			if named[b] > 0 {
				pooled[b].k++
				pooled[b].rankSum += named[b]
				byEngine[b][e].k++
				byEngine[b][e].rankSum += named[b]
			}
		}
		cited = cited || len(r.Cited) > 0
		if !slices.ContainsFunc(named, func(rank int) bool { return rank > 0 }) {
			continue
		}
		for _, d := range citedDomains(r.Cited) {
			t := domains[d]
			if t == nil {
				t = &domainTally{brands: make([]bool, len(brands))}
				domains[d] = t
			}
			t.citations++
			for b := range brands {
				if named[b] > 0 {
					t.brands[b] = true
					t.withYou = t.withYou || brands[b].you
					t.withRival = t.withRival || !brands[b].you
				}
			}
		}
	}

	out := &ShareOfVoice{Status: ShareMeasured, PromptSet: res.PromptSet, SmallSample: len(checked) < MinDecisiveRuns}
	for b, br := range brands {
		bs := BrandShare{Brand: br.brand, Domain: br.m.Domain(), You: br.you, Share: pooled[b].share()}
		for e, name := range engines {
			bs.Engines = append(bs.Engines, EngineShare{Engine: name, Share: byEngine[b][e].share()})
		}
		out.Brands = append(out.Brands, bs)
	}
	if !cited {
		out.SourcesNotMeasured = noSources(res)
		return out
	}
	names := make([]string, 0, len(domains))
	for d := range domains {
		names = append(names, d)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(domains[b].citations, domains[a].citations), strings.Compare(a, b))
	})
	out.Sources = []Source{}
	out.CitingCompetitorsNotYou = []string{}
	for _, d := range names {
		t := domains[d]
		kind := classifySource(d, own.Domain(), rivalDomains)
		if len(out.Sources) < maxSources {
			src := Source{Domain: d, Category: kind, Citations: t.citations, Brands: []string{}}
			for b, ok := range t.brands {
				if ok {
					src.Brands = append(src.Brands, brands[b].m.Domain())
				}
			}
			out.Sources = append(out.Sources, src)
		}
		if t.withRival && !t.withYou && kind != SourceOwnSite && kind != SourceCompetitor {
			out.CitingCompetitorsNotYou = append(out.CitingCompetitorsNotYou, d)
		}
	}
	return out
}

// namedIn reads one answer for every brand: for each, its rank among the
// brands the answer names, by where each is first named (ties in the
// order of brands), or 0 when the answer does not name it. An answer
// that says it knows nothing of the subject names no one, as in the
// brand's own buyer-question count.
func namedIn(brands []tracked, text string) []int {
	ranks := make([]int, len(brands))
	if SaysNoInformation(text) {
		return ranks
	}
	type hit struct{ brand, at int }
	var hits []hit
	for b, br := range brands {
		if ok, at := br.m.Mentions(text); ok {
			hits = append(hits, hit{b, at})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.at, b.at) })
	for i, h := range hits {
		ranks[h.brand] = i + 1
	}
	return ranks
}

// citedDomains are the registrable domains of an answer's cited URLs,
// each once.
func citedDomains(urls []string) []string {
	var out []string
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || u.Hostname() == "" {
			continue
		}
		if d := RegistrableDomain(u.Hostname()); !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// noSources says why no source was measured.
func noSources(res *Result) string {
	if len(res.Citation.Runs) == 0 && res.Citation.Skipped != "" {
		return "no answer read cited a source, and the web-search questions were not asked: " + res.Citation.Skipped
	}
	return "no answer read cited a source"
}
