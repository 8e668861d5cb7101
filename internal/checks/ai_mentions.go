package checks

// The ai_mentions pillar: what do AI assistants already say about the
// brand? Language-model probes of brand recognition, accuracy, category
// mentions and search citations. Until a language-model engine is
// configured every check here is na and left out of the scores.
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

func llmBrandRecognitionCheck() *Check {
	return &Check{
		ID: "llm_brand_recognition", Ring: RingTrust, Pillar: pillarAIMentions, Weight: 3, Effort: High,
		Marketing: Text{
			Title: "AI assistants know your brand",
			Why:   "If an AI assistant cannot say what your brand is, it will not recommend you.",
			Fix:   "Build a consistent public footprint: a complete about page, organisation markup and profiles on the sites assistants learn from.",
		},
		Engineering: Text{
			Title: "LLM brand recognition",
			Why:   "A model asked \"What is {brand}?\" without browsing shows whether the brand is in its parametric knowledge, with the right domain and category.",
			Fix:   "Strengthen entity signals (Organization with sameAs, Wikidata entry, consistent naming) that feed training and knowledge-graph data.",
		},
		Eval: evalNeedsLanguageModel,
	}
}

func llmBrandAccuracyCheck() *Check {
	return &Check{
		ID: "llm_brand_accuracy", Ring: RingTrust, Pillar: pillarAIMentions, Weight: 3, Effort: High,
		Marketing: Text{
			Title: "AI assistants describe you correctly",
			Why:   "An assistant that gets your offer, category or location wrong sends customers elsewhere.",
			Fix:   "State your category, offer and location plainly on the homepage and about page so assistants can pick up the right facts.",
		},
		Engineering: Text{
			Title: "LLM brand accuracy",
			Why:   "A judge model compares the model's description with facts extracted from the site (category, offer, location) to measure factual drift.",
			Fix:   "Publish the facts in unambiguous text and markup (Organization.description, areaServed, makesOffer) on pages crawlers reach.",
		},
		Eval: evalNeedsLanguageModel,
	}
}

func llmCategoryMentionRateCheck() *Check {
	return &Check{
		ID: "llm_category_mention_rate", Ring: RingTrust, Pillar: pillarAIMentions, Weight: 2, Effort: High,
		Marketing: Text{
			Title: "Mentioned when buyers ask",
			Why:   "Buyers ask assistants for the best options in a category; being named in those answers is the outcome GEO works towards.",
			Fix:   "Publish comparison and category content and earn mentions on the review sites and lists assistants cite.",
		},
		Engineering: Text{
			Title: "LLM category mention rate",
			Why:   "The share of answers to category and buyer prompts that mention the brand, over repeated runs, measures share of voice in generative answers.",
			Fix:   "Target the prompts with extractable category pages (comparisons, pricing, specs) and third-party citations.",
		},
		Eval: evalNeedsLanguageModel,
	}
}

func llmSearchCitationCheck() *Check {
	return &Check{
		ID: "llm_search_citation", Ring: RingTrust, Pillar: pillarAIMentions, Weight: 2, Effort: High,
		Marketing: Text{
			Title: "Cited by AI search",
			Why:   "AI search engines link to their sources; a citation sends qualified visitors to your site.",
			Fix:   "Make the pages that answer your customers' questions easy to reach, read and quote.",
		},
		Engineering: Text{
			Title: "Search-grounded citation",
			Why:   "A search-grounded model (web search tools, Sonar) shows whether the domain appears in the cited sources for brand and category questions.",
			Fix:   "Fix crawl access, server-rendered content and answer structure first; they decide whether retrieval can pick the pages.",
		},
		Eval: evalNeedsLanguageModel,
	}
}

// needsLanguageModel is the verdict of the AI-mention checks until a
// language-model engine is configured: they ask a model about the brand,
// which the deterministic checks cannot do.
const needsLanguageModel = "Needs a language-model engine, which comes with the AI layer; not scored."

func evalNeedsLanguageModel(*Input) Result {
	return na(needsLanguageModel, ev("requires", "language_model_engine", "scored", false))
}
