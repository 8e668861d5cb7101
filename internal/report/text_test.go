package report

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHumanize(t *testing.T) {
	t.Parallel()
	titles := map[string]string{"ssr_text_content": "Readable text without JavaScript", "jsonld_valid": "Structured data that machines can read."}
	for _, tc := range []struct{ in, marketing, engineering string }{
		{
			"No fetched page has readable text to structure; ssr_text_content reports why.",
			"No fetched page has readable text to structure; “Readable text without JavaScript” reports why.",
			"No fetched page has readable text to structure; ssr_text_content reports why.",
		},
		{
			"The judged pages have only 0 words of content, too little to measure.",
			"The judged pages have no words of content, too little to measure.",
			"The judged pages have no words of content, too little to measure.",
		},
		{
			"The homepage HTML links to 0 internal URLs and to none of the hubs.",
			"The homepage HTML links to no internal URLs and to none of the hubs.",
			"The homepage HTML links to no internal URLs and to none of the hubs.",
		},
		{
			// Counts, percentages, decimals and ids outside the catalog stay.
			"0 of 1 article pages, 0% marked, 0.5 s, 10 words, #__next and unknown_id (jsonld_valid).",
			"0 of 1 article pages, 0% marked, 0.5 s, 10 words, #__next and unknown_id (“Structured data that machines can read”).",
			"0 of 1 article pages, 0% marked, 0.5 s, 10 words, #__next and unknown_id (jsonld_valid).",
		},
		{"", "", ""},
	} {
		require.Equal(t, tc.marketing, Humanize(tc.in, "marketing", titles), tc.in)
		require.Equal(t, tc.engineering, Humanize(tc.in, "engineering", titles), tc.in)
	}
}

func TestPassCount(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		passed, scored int
		want           string
	}{
		{0, 0, "no check could be scored"},
		{0, 10, "none of the 10 scored checks pass"},
		{4, 10, "4 of 10 scored checks pass"},
		{12, 12, "all 12 scored checks pass"},
		{1, 1, "the only scored check passes"},
		{0, 1, "the only scored check does not pass"},
	} {
		require.Equal(t, tc.want, passCount(tc.passed, tc.scored))
	}
	require.Equal(t, "no pages", plural(0, "page", "pages"))
	require.Equal(t, "1 page", plural(1, "page", "pages"))
	require.Equal(t, "a, b and c", joinAnd([]string{"a", "b", "c"}))
}

func TestDrawable(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Καφέ Москва Ærø":       "Καφέ Москва Ærø",
		"Cafe\u0301":            "Café",
		"東京都 Sushi":             "\uFFFD Sushi",
		"a\x00b\u200bc\td\r\ne": "abc d \ne",
		"🚀🚀 x":                  "\uFFFD x",
	} {
		require.Equal(t, want, drawable(in), in)
	}
}
