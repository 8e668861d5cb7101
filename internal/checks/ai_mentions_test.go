package checks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAIMentionChecksNeedAnEngine(t *testing.T) {
	for _, c := range aiMentionsChecks() {
		r := c.Eval(inputOf(t, fixtureYoastHome()))
		require.Equal(t, NA, r.Status, c.ID)
		require.Equal(t, "Needs a language-model engine, which comes with the AI layer; not scored.", r.Summary, c.ID)
	}
}

// TestAIMentions covers the ai_mentions pillar.
func TestAIMentions(t *testing.T) {
	t.Parallel()

	testPillar(t, pillarAIMentions, []pillarCheck{
		{id: "llm_brand_recognition", never: []Status{Pass, Warn, Fail}, cases: []checkCase{
			{"no language-model engine", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, needsLanguageModel, ev("requires", "language_model_engine", "scored", false)},
		}},
		{id: "llm_brand_accuracy", never: []Status{Pass, Warn, Fail}, cases: []checkCase{
			{"no language-model engine", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, needsLanguageModel, ev("requires", "language_model_engine", "scored", false)},
		}},
		{id: "llm_category_mention_rate", never: []Status{Pass, Warn, Fail}, cases: []checkCase{
			{"no language-model engine", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, needsLanguageModel, ev("requires", "language_model_engine", "scored", false)},
		}},
		{id: "llm_search_citation", never: []Status{Pass, Warn, Fail}, cases: []checkCase{
			{"no language-model engine", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, needsLanguageModel, ev("requires", "language_model_engine", "scored", false)},
		}},
	})
}
