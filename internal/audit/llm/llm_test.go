package llm_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

const testKey = "sk-test-0123456789abcdefSECRET"

func engine(t *testing.T, srv *scripted.Server, caps ...llm.Capability) llm.Engine {
	t.Helper()
	e, err := llm.NewOpenAI(llm.EngineConfig{Name: "fake", BaseURL: srv.URL, Model: "fake-model-1", APIKey: testKey, Capabilities: caps})
	require.NoError(t, err)
	return e
}

func TestChatThroughTheRealClient(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply { return scripted.Reply{Text: "Echo: " + c.Prompt} })
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	a, err := e.Ask(context.Background(), llm.Request{System: "Be brief.", Prompt: "What is Acme?", Temperature: llm.Zero()})
	require.NoError(t, err)
	require.Equal(t, "Echo: What is Acme?", a.Text)
	require.Equal(t, "fake-model-1", a.Model)
	require.Positive(t, a.InputTokens)
	require.Positive(t, a.OutputTokens)
	got := srv.Received()
	require.Len(t, got, 1)
	require.Equal(t, "chat", got[0].API)
	require.Equal(t, "Be brief.", got[0].System)
	require.Equal(t, "Bearer "+testKey, got[0].Authorization)
	require.NotNil(t, got[0].Temperature)
	require.InDelta(t, 0.0, *got[0].Temperature, 0)
}

func TestStructuredAnswerMustBeJSON(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply {
		if strings.Contains(c.Prompt, "good") {
			return scripted.Reply{Text: `{"ok":true}`}
		}
		return scripted.Reply{Text: "Sure! Here is the JSON: {ok"}
	})
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	schema := &llm.Schema{Name: "verdict", Schema: map[string]any{"type": "object"}}
	a, err := e.Ask(context.Background(), llm.Request{Prompt: "good", Schema: schema})
	require.NoError(t, err)
	require.JSONEq(t, `{"ok":true}`, a.Text)
	require.Equal(t, "verdict", srv.Received()[0].Schema)
	_, err = e.Ask(context.Background(), llm.Request{Prompt: "bad", Schema: schema})
	require.ErrorIs(t, err, llm.ErrMalformed)
}

func TestResponsesWebSearchCitationsAndSources(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(scripted.Call) scripted.Reply {
		return scripted.Reply{
			Text:      "Millbrook Bakery is well reviewed.",
			Cited:     []string{"https://www.millbrook-bakery.test/about/?utm_source=openai"},
			Retrieved: []string{"https://reviews.example/bakeries"},
			Queries:   []string{"best bakery hebden bridge"},
		}
	})
	t.Cleanup(srv.Close)
	e := engine(t, srv, llm.Chat, llm.WebSearch)
	a, err := e.Ask(context.Background(), llm.Request{Prompt: "Best bakery?", WebSearch: true})
	require.NoError(t, err)
	require.Equal(t, "responses", srv.Received()[0].API)
	require.True(t, srv.Received()[0].WebSearch)
	require.Equal(t, []string{"https://www.millbrook-bakery.test/about/?utm_source=openai"}, a.Cited)
	require.ElementsMatch(t, []string{"https://reviews.example/bakeries", "https://www.millbrook-bakery.test/about/?utm_source=openai"}, a.Retrieved)
	require.Equal(t, []string{"best bakery hebden bridge"}, a.Queries)
}

func TestPerplexityCitationsFromExtraFields(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(scripted.Call) scripted.Reply {
		return scripted.Reply{Text: "See [1].", Perplexity: true, Cited: []string{"https://a.example/x"}, Retrieved: []string{"https://b.example/y"}}
	})
	t.Cleanup(srv.Close)
	e, err := llm.NewOpenAI(llm.EngineConfig{Name: "pplx", BaseURL: srv.URL, Model: "sonar", Capabilities: []llm.Capability{llm.Chat, llm.WebSearch}, SearchAPI: llm.SearchChat})
	require.NoError(t, err)
	a, err := e.Ask(context.Background(), llm.Request{Prompt: "q", WebSearch: true})
	require.NoError(t, err)
	require.Equal(t, "chat", srv.Received()[0].API, "Sonar searches inside a chat completion")
	require.Empty(t, srv.Received()[0].Authorization, "no key configured, none sent")
	require.Equal(t, []string{"https://a.example/x"}, a.Cited)
	require.ElementsMatch(t, []string{"https://a.example/x", "https://b.example/y"}, a.Retrieved)
}

func TestFailuresAreClassifiedWithoutTheirBodies(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply {
		switch c.Prompt {
		case "slow":
			return scripted.Reply{Text: "late", Delay: time.Minute}
		case "500":
			return scripted.Reply{Status: http.StatusInternalServerError}
		case "401":
			return scripted.Reply{Status: http.StatusUnauthorized}
		}
		return scripted.Reply{Malformed: true}
	})
	t.Cleanup(srv.Close)
	e := engine(t, srv)

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := e.Ask(ctx, llm.Request{Prompt: "slow"})
	require.ErrorIs(t, err, llm.ErrTimeout)

	_, err = e.Ask(context.Background(), llm.Request{Prompt: "500"})
	require.ErrorIs(t, err, llm.ErrStatus)
	require.Equal(t, "the engine answered HTTP 500", llm.Reason(err))

	_, err = e.Ask(context.Background(), llm.Request{Prompt: "401"})
	require.ErrorIs(t, err, llm.ErrStatus)
	require.NotContains(t, err.Error(), testKey)

	_, err = e.Ask(context.Background(), llm.Request{Prompt: "broken"})
	require.ErrorIs(t, err, llm.ErrMalformed)
}

func TestNoEngineReachable(t *testing.T) {
	t.Parallel()
	e, err := llm.NewOpenAI(llm.EngineConfig{Name: "gone", BaseURL: "http://127.0.0.1:1/v1", Model: "m"})
	require.NoError(t, err)
	_, err = e.Ask(context.Background(), llm.Request{Prompt: "q"})
	require.ErrorIs(t, err, llm.ErrConnect)
}

func TestBaseURLKeepsItsPathPrefix(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	e, err := llm.NewOpenAI(llm.EngineConfig{Name: "gemini", BaseURL: srv.URL + "/v1beta/openai", Model: "m"})
	require.NoError(t, err)
	a, err := e.Ask(context.Background(), llm.Request{Prompt: "q"})
	require.NoError(t, err)
	require.Equal(t, "ok", a.Text)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"/v1beta/openai/chat/completions"}, paths)
}

func TestConfigRejectsWhatCannotWork(t *testing.T) {
	t.Parallel()
	getenv := func(k string) string {
		if k == "PPLX_KEY" {
			return "pplx-secret-key"
		}
		return ""
	}
	_, err := llm.Build(llm.Settings{BaseURL: "ftp://x"}, getenv, nil, nil)
	require.Error(t, err)
	_, err = llm.Build(llm.Settings{BaseURL: "http://127.0.0.1:11434/v1"}, getenv, nil, nil)
	require.ErrorContains(t, err, "GEOSCAN_LLM_MODEL")
	_, err = llm.Build(llm.Settings{Model: "m"}, getenv, nil, nil)
	require.ErrorContains(t, err, "GEOSCAN_LLM_BASE_URL")

	l, err := llm.Build(llm.Settings{}, getenv, nil, nil)
	require.NoError(t, err)
	require.False(t, l.Enabled(), "nothing configured is not an error")

	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	good := write("good.json", `{"engines":[
	  {"name":"local","base_url":"http://127.0.0.1:11434/v1","model":"llama3.2","capabilities":["chat"]},
	  {"name":"perplexity","base_url":"https://api.perplexity.ai","model":"sonar","api_key_env":"PPLX_KEY","capabilities":["chat","web_search"]}]}`)
	l, err = llm.Build(llm.Settings{BaseURL: "http://localhost:8000/v1", Model: "qwen", EnginesFile: good}, getenv, nil, nil)
	require.NoError(t, err)
	require.True(t, l.Enabled())
	require.Equal(t, "default", l.Default.Info().Name, "the GEOSCAN_LLM_* engine is the default")
	require.Len(t, l.Engines, 3)
	require.Equal(t, "api.perplexity.ai", l.Engines[2].Info().Host)
	require.True(t, l.Engines[2].Info().Can(llm.WebSearch))
	require.Equal(t, []string{"pplx-secret-key"}, l.Secrets)

	for name, body := range map[string]string{
		"unknown field":  `{"engines":[{"name":"a","base_url":"http://x/v1","model":"m","key":"inline"}]}`,
		"missing key":    `{"engines":[{"name":"a","base_url":"http://x/v1","model":"m","api_key_env":"NOPE"}]}`,
		"bad capability": `{"engines":[{"name":"a","base_url":"http://x/v1","model":"m","capabilities":["images"]}]}`,
		"duplicate name": `{"engines":[{"name":"a","base_url":"http://x/v1","model":"m"},{"name":"a","base_url":"http://y/v1","model":"m"}]}`,
		"bad name":       `{"engines":[{"name":"A B","base_url":"http://x/v1","model":"m"}]}`,
		"no engines":     `{"engines":[]}`,
		"not json":       `engines: []`,
		"search only":    `{"engines":[{"name":"a","base_url":"http://x/v1","model":"m","capabilities":["web_search"]}]}`,
		"temperature":    `{"engines":[{"name":"a","base_url":"http://x/v1","model":"m","temperature":"default"}]}`,
		"json_schema":    `{"engines":[{"name":"a","base_url":"http://x/v1","model":"m","json_schema":0}]}`,
	} {
		_, err := llm.Build(llm.Settings{EnginesFile: write(strings.ReplaceAll(name, " ", "_")+".json", body)}, getenv, nil, nil)
		require.Error(t, err, name)
		require.NotContains(t, err.Error(), "pplx-secret-key", name)
	}
}

func TestSessionCachesPerRunAndDay(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply { return scripted.Reply{Text: "answer " + string(rune('A'+c.Run))} })
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	cache := &llm.MemoryCache{}
	layer := &llm.Layer{Default: e, Engines: []llm.Engine{e}, Limits: llm.DefaultLimits, Cache: cache}
	day := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	ctx := context.Background()

	s := layer.Session(day)
	req := llm.Request{Prompt: "What is Acme?"}
	var texts []string
	for run := range 3 {
		r := s.Ask(ctx, "probe", e, req, run)
		require.NoError(t, r.Err)
		require.False(t, r.Cached)
		texts = append(texts, r.Answer.Text)
	}
	require.ElementsMatch(t, []string{"answer A", "answer B", "answer C"}, texts)
	require.Equal(t, 3, srv.Calls())

	// The same scan again the same day: every answer from the cache.
	s2 := layer.Session(day.Add(5 * time.Hour))
	for run := range 3 {
		r := s2.Ask(ctx, "probe", e, req, run)
		require.NoError(t, r.Err)
		require.True(t, r.Cached)
		require.Equal(t, texts[run], r.Answer.Text)
	}
	require.Equal(t, 3, srv.Calls(), "no call on the second scan")
	require.Equal(t, 3, s2.Usage().CacheHits)
	require.Zero(t, s2.Usage().Calls)

	// The next day asks again.
	s3 := layer.Session(day.Add(24 * time.Hour))
	require.NoError(t, s3.Ask(ctx, "probe", e, req, 0).Err)
	require.Equal(t, 4, srv.Calls())
}

func TestSessionBudgetAndErrorsAreNotCached(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply {
		if c.Prompt == "fail" {
			return scripted.Reply{Status: http.StatusBadGateway}
		}
		return scripted.Reply{Text: "ok"}
	})
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	var logs bytes.Buffer
	cache := &llm.MemoryCache{}
	layer := &llm.Layer{
		Default: e, Engines: []llm.Engine{e}, Cache: cache, Secrets: []string{testKey},
		Limits: llm.Limits{Runs: 3, CallTimeout: 5 * time.Second, MaxCalls: 3, MaxTokens: 100_000, Concurrency: 2},
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
	}
	s := layer.Session(time.Now())
	ctx := context.Background()
	r := s.Ask(ctx, "a", e, llm.Request{Prompt: "fail"}, 0)
	require.ErrorIs(t, r.Err, llm.ErrStatus)
	require.Zero(t, cache.Len(), "a failed call is not cached")
	require.NoError(t, s.Ask(ctx, "a", e, llm.Request{Prompt: "one"}, 0).Err)
	require.NoError(t, s.Ask(ctx, "b", e, llm.Request{Prompt: "two"}, 0).Err)
	r = s.Ask(ctx, "b", e, llm.Request{Prompt: "three"}, 0)
	require.ErrorIs(t, r.Err, llm.ErrBudget)
	require.Equal(t, "the scan's budget of 3 engine calls was spent", llm.Reason(r.Err))
	// The 502 was retried once inside its call (4 requests for 3 calls);
	// the refused fourth call was never sent.
	require.Equal(t, 4, srv.Calls())
	u := s.Usage()
	require.Equal(t, 3, u.Calls)
	require.Equal(t, 1, u.ByPurpose["b"].Calls, "the refused call was not made")
	require.Equal(t, 1, u.ByPurpose["b"].Errors)
	// A cached answer is free even with the budget spent.
	require.NoError(t, s.Ask(ctx, "b", e, llm.Request{Prompt: "two"}, 0).Err)
	require.Contains(t, logs.String(), "HTTP 502")
	require.NotContains(t, logs.String(), testKey)

	tokens := &llm.Layer{Default: e, Limits: llm.Limits{Runs: 1, CallTimeout: time.Second, MaxCalls: 100, MaxTokens: 700, Concurrency: 1}}
	ts := tokens.Session(time.Now())
	require.NoError(t, ts.Ask(ctx, "x", e, llm.Request{Prompt: "short"}, 0).Err)
	require.ErrorIs(t, ts.Ask(ctx, "x", e, llm.Request{Prompt: strings.Repeat("long ", 200)}, 0).Err, llm.ErrBudget)
}

func TestSessionTimeoutDegradesTheCall(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(scripted.Call) scripted.Reply { return scripted.Reply{Text: "late", Delay: time.Minute} })
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	layer := &llm.Layer{Default: e, Limits: llm.Limits{Runs: 1, CallTimeout: 100 * time.Millisecond, MaxCalls: 10, MaxTokens: 10_000, Concurrency: 4}}
	r := layer.Session(time.Now()).Ask(context.Background(), "x", e, llm.Request{Prompt: "q"}, 0)
	require.ErrorIs(t, r.Err, llm.ErrTimeout)
}
