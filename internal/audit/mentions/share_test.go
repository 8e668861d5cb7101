package mentions

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

// The answers of the share-of-voice world. Buyer answers alternate by run:
// the first names Greggs, the bakery and Bettys in that order, the second
// Bettys and Greggs. Web-search answers alternate too: the first names
// the bakery then Greggs, citing the bakery, Wikipedia and Tripadvisor;
// the second names Greggs alone, citing Greggs, Trustpilot and Wikipedia.
const (
	buyerA  = "Top picks:\n1. **Greggs** – a high-street chain.\n2. **Millbrook Bakery** – sourdough on Mill Lane.\n3. **Bettys** – tea rooms."
	buyerB  = "Try Bettys in Harrogate, or Greggs for something quick."
	searchC = "Millbrook Bakery is the local favourite; Greggs is cheaper."
	searchD = "Greggs, by far."
)

var (
	citedC = []string{"https://www.millbrook-bakery.test/", "https://en.wikipedia.org/wiki/Hebden_Bridge", "https://www.tripadvisor.co.uk/Restaurant_Review-x"}
	citedD = []string{"https://www.greggs.co.uk/", "https://uk.trustpilot.com/review/greggs.co.uk?utm_source=chatgpt.com", "https://en.wikipedia.org/wiki/Greggs"}
)

func rivals() []Rival {
	return []Rival{{Brand: "Greggs", Host: "www.greggs.co.uk"}, {Brand: "Bettys", Host: "bettys.co.uk"}}
}

// shareWorld answers the buyer questions as above; the default engine's
// calls for the second buyer question fail.
func shareWorld(c scripted.Call) scripted.Reply {
	switch {
	case c.WebSearch && c.Run == 0:
		return scripted.Reply{Text: searchC, Cited: citedC}
	case c.WebSearch:
		return scripted.Reply{Text: searchD, Cited: citedD}
	case strings.HasPrefix(c.Model, "default") && strings.Contains(c.Prompt, "would you recommend"):
		return scripted.Reply{Status: http.StatusInternalServerError}
	case c.Run == 0:
		return scripted.Reply{Text: buyerA}
	}
	return scripted.Reply{Text: buyerB}
}

func share(k, n int, rate, lo, hi float64, pos *float64) Share {
	return Share{K: k, N: n, Rate: &rate, Interval: &Interval{Low: lo, High: hi}, MeanPosition: pos}
}

func sharesOf(s *ShareOfVoice) map[string]BrandShare {
	out := map[string]BrandShare{}
	for _, b := range s.Brands {
		out[b.Brand] = b
	}
	return out
}

// Every answer to the buyer questions is read for every brand: k of the
// answers read (the failed calls left out of n), the interval, and the
// mean rank among the brands tracked, by engine and over them; the cited
// domains by kind, with the brands they were cited for; and the
// third-party domains cited for a competitor and never for the brand.
func TestShareOfVoiceCountsEveryBrandInEveryAnswer(t *testing.T) {
	t.Parallel()
	subj := bakeryWithCategory()
	subj.Competitors = rivals()
	b := setup(t, world{other: shareWorld}.script, engine{name: "default"}, engine{name: "searcher", search: true})
	res, _ := b.measure(roomy, subj)
	require.Len(t, res.Category.Prompts, 4)
	require.Equal(t, 2, res.Category.Count(Errored), "the default engine's two runs of c2 failed")

	s := res.ShareOfVoice
	require.NotNil(t, s)
	require.Equal(t, ShareMeasured, s.Status)
	require.Empty(t, s.Reason)
	require.Equal(t, PromptSet, s.PromptSet)
	require.False(t, s.SmallSample)
	require.Equal(t, []string{"Millbrook Bakery", "Greggs", "Bettys"}, []string{s.Brands[0].Brand, s.Brands[1].Brand, s.Brands[2].Brand})
	require.True(t, s.Brands[0].You)
	require.False(t, s.Brands[1].You)
	require.Equal(t, "millbrook-bakery.test", s.Brands[0].Domain)
	require.Equal(t, "greggs.co.uk", s.Brands[1].Domain)

	// default: c1, c3 and c4 read twice each (A, B) = 6.
	// searcher: 4 buyer questions × (A, B) + 4 web-search × (C, D) = 16.
	got := sharesOf(s)
	bakery, greggs, bettys := got["Millbrook Bakery"], got["Greggs"], got["Bettys"]
	require.Equal(t, share(11, 22, 0.5, 0.307, 0.693, new(1.64)), bakery.Share)  // ranks 2 (A ×7), 1 (C ×4)
	require.Equal(t, share(22, 22, 1, 0.851, 1, new(1.5)), greggs.Share)         // ranks 1 (A, D), 2 (B, C)
	require.Equal(t, share(14, 22, 0.636, 0.430, 0.803, new(2.0)), bettys.Share) // ranks 3 (A), 1 (B)
	require.Equal(t, []EngineShare{
		{Engine: "default", Share: share(3, 6, 0.5, 0.188, 0.812, new(2.0))},
		{Engine: "searcher", Share: share(8, 16, 0.5, 0.28, 0.72, new(1.5))},
	}, bakery.Engines)
	require.Equal(t, []EngineShare{
		{Engine: "default", Share: share(6, 6, 1, 0.61, 1, new(1.5))},
		{Engine: "searcher", Share: share(16, 16, 1, 0.806, 1, new(1.5))},
	}, greggs.Engines)
	require.Equal(t, []EngineShare{
		{Engine: "default", Share: share(6, 6, 1, 0.61, 1, new(2.0))},
		{Engine: "searcher", Share: share(8, 16, 0.5, 0.28, 0.72, new(2.0))},
	}, bettys.Engines)

	require.Empty(t, s.SourcesNotMeasured)
	require.Equal(t, []Source{
		{Domain: "wikipedia.org", Category: SourceEditorial, Citations: 8, Brands: []string{"millbrook-bakery.test", "greggs.co.uk"}},
		{Domain: "greggs.co.uk", Category: SourceCompetitor, Citations: 4, Brands: []string{"greggs.co.uk"}},
		{Domain: "millbrook-bakery.test", Category: SourceOwnSite, Citations: 4, Brands: []string{"millbrook-bakery.test", "greggs.co.uk"}},
		{Domain: "tripadvisor.co.uk", Category: SourceReview, Citations: 4, Brands: []string{"millbrook-bakery.test", "greggs.co.uk"}},
		{Domain: "trustpilot.com", Category: SourceReview, Citations: 4, Brands: []string{"greggs.co.uk"}},
	}, s.Sources)
	require.Equal(t, []string{"trustpilot.com"}, s.CitingCompetitorsNotYou)

	// The brand's own buyer-question count is the category check's.
	require.Equal(t, 7, res.Category.Count(Mentioned))
	require.Equal(t, 14, res.Category.Checked())
}

// Share of voice asks nothing: the calls made with competitors are the
// calls made without them, and without competitors there is none.
func TestShareOfVoiceAsksNothingMore(t *testing.T) {
	t.Parallel()
	calls := func(subj Subject) (int, *ShareOfVoice) {
		b := setup(t, world{other: shareWorld}.script, engine{name: "default"}, engine{name: "searcher", search: true})
		res, _ := b.measure(roomy, subj)
		return b.srv.Calls(), res.ShareOfVoice
	}
	without, none := calls(bakeryWithCategory())
	require.Nil(t, none)
	subj := bakeryWithCategory()
	subj.Competitors = rivals()
	with, s := calls(subj)
	require.NotNil(t, s)
	require.Equal(t, without, with)
}

// Not checked is never not named: when every buyer question failed, or
// none was asked, share of voice is not measured, with the reason; and a
// handful of answers is a small sample, at every level it is one.
func TestShareOfVoiceNotMeasuredAndSmallSamples(t *testing.T) {
	t.Parallel()
	subj := bakeryWithCategory()
	subj.Competitors = rivals()
	b := setup(t, world{other: failing}.script)
	res, _ := b.measure(roomy, subj)
	s := res.ShareOfVoice
	require.Equal(t, ShareNotMeasured, s.Status)
	require.Contains(t, s.Reason, "no answer engine answered a buyer question (")
	require.Empty(t, s.Brands)

	noCategory := bakery()
	noCategory.Competitors = rivals()
	b = setup(t, world{extract: replyWith(`{"category":"","offers":[],"location":""}`)}.script)
	res, _ = b.measure(roomy, noCategory)
	s = res.ShareOfVoice
	require.Equal(t, ShareNotMeasured, s.Status)
	require.Equal(t, "no buyer question was asked: "+res.Category.Skipped, s.Reason)

	// One buyer question answered, once, by a chat engine: one answer in
	// all, and no engine searched, so no source is measured.
	onlyFirst := func(c scripted.Call) scripted.Reply {
		if strings.HasPrefix(c.Prompt, "What are the best options") && c.Run == 0 {
			return scripted.Reply{Text: buyerA}
		}
		return scripted.Reply{Status: http.StatusInternalServerError}
	}
	b = setup(t, world{other: onlyFirst}.script)
	res, _ = b.measure(roomy, subj)
	s = res.ShareOfVoice
	require.Equal(t, ShareMeasured, s.Status)
	require.True(t, s.SmallSample)
	bakeryShare := sharesOf(s)["Millbrook Bakery"]
	require.Equal(t, 1, bakeryShare.K)
	require.Equal(t, 1, bakeryShare.N)
	require.True(t, bakeryShare.SmallSample)
	require.True(t, bakeryShare.Engines[0].SmallSample)
	require.Equal(t, "no answer read cited a source, and the web-search questions were not asked: no configured engine can search the web", s.SourcesNotMeasured)
	require.Nil(t, s.Sources)
	require.Nil(t, s.CitingCompetitorsNotYou)
}

// An engine none of whose runs was answered is listed with n = 0 and no
// rate: not checked, not "never named".
func TestShareOfVoiceEngineNotChecked(t *testing.T) {
	t.Parallel()
	subj := bakeryWithCategory()
	subj.Competitors = rivals()
	script := func(c scripted.Call) scripted.Reply {
		if strings.HasPrefix(c.Model, "second") {
			return scripted.Reply{Status: http.StatusInternalServerError}
		}
		return shareWorld(c)
	}
	b := setup(t, world{other: script}.script, engine{name: "default"}, engine{name: "second"})
	res, _ := b.measure(roomy, subj)
	greggs := sharesOf(res.ShareOfVoice)["Greggs"]
	require.Equal(t, "second", greggs.Engines[1].Engine)
	require.Equal(t, Share{SmallSample: true}, greggs.Engines[1].Share)
	require.Equal(t, 6, greggs.N, "the second engine's runs are not in n")
}

// The fewest answers that can decide a rate against the buyer-question
// mark of 1/2 by the interval rule: none fewer can.
func TestMinDecisiveRuns(t *testing.T) {
	t.Parallel()
	decides := func(n int) bool {
		lo, _ := Wilson(n, n)
		_, hi := Wilson(0, n)
		return lo >= 0.5 && hi < 0.5
	}
	require.True(t, decides(MinDecisiveRuns))
	require.False(t, decides(MinDecisiveRuns-1))
}

// An answer that names none of the brands tracked is no one's source:
// its citations are measured, and count for no domain.
func TestShareOfVoiceSourcesOnlyFromAnswersNamingABrand(t *testing.T) {
	t.Parallel()
	subj := bakeryWithCategory()
	subj.Competitors = rivals()
	script := func(c scripted.Call) scripted.Reply {
		if c.WebSearch {
			return scripted.Reply{Text: "Bakeries vary a lot by town.", Cited: []string{"https://www.theguardian.com/food"}}
		}
		return scripted.Reply{Text: buyerB}
	}
	b := setup(t, world{other: script}.script, engine{name: "searcher", search: true})
	res, _ := b.measure(roomy, subj)
	s := res.ShareOfVoice
	require.Equal(t, ShareMeasured, s.Status)
	require.Empty(t, s.SourcesNotMeasured)
	require.Equal(t, []Source{}, s.Sources)
	require.Equal(t, []string{}, s.CitingCompetitorsNotYou)
}
