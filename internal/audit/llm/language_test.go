package llm_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

// The language of a request is part of its cache key: the same words asked
// for a German report are a different question from the English one, and
// English keys ("" and "en") are one and the same.
func TestCacheKeySeparatesLanguages(t *testing.T) {
	t.Parallel()
	info := llm.Info{Name: "fake", Host: "fake.test", Model: "fake-1"}
	day := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	key := func(lang string) string {
		return llm.CacheKey(info, llm.Request{Prompt: "Acme?", Language: lang}, 0, day)
	}
	require.Equal(t, key(""), key("en"))
	require.NotEqual(t, key(""), key("de"))
	require.NotEqual(t, key("de"), key("fr"))
	require.NotEqual(t, key("fr"), key("es"))
}

func TestCachedAnswerIsNotServedInAnotherLanguage(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply { return scripted.Reply{Text: "Answer " + c.Prompt} })
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	cache := &llm.MemoryCache{}
	day := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	layer := &llm.Layer{Default: e, Engines: []llm.Engine{e}, Limits: llm.DefaultLimits, Cache: cache}
	ask := func(lang string) llm.Result {
		return layer.Session(day).Ask(context.Background(), "probe", e, llm.Request{Prompt: "Acme?", Language: lang}, 0)
	}
	require.False(t, ask("de").Cached)
	require.False(t, ask("").Cached, "the German answer is not the English one")
	require.True(t, ask("de").Cached)
	require.True(t, ask("en").Cached)
	require.Equal(t, 2, srv.Calls())
	require.Equal(t, 2, cache.Len())
}
