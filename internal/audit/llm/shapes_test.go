package llm_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

// Answers that say nothing about what a model knows are errors of their
// own kind, through the real client on the wire: not cached, counted as
// errors with the tokens they spent, and asked again next time.
func TestUnusableAnswersAreErrors(t *testing.T) {
	t.Parallel()
	schema := &llm.Schema{Name: "verdict", Schema: map[string]any{"type": "object"}}
	for _, tc := range []struct {
		name   string
		reply  scripted.Reply
		search bool
		schema *llm.Schema
		kind   error
		tokens bool // the call reports the tokens it spent
	}{
		{name: "chat null content", reply: scripted.Reply{Empty: true}, kind: llm.ErrEmpty, tokens: true},
		{name: "chat whitespace", reply: scripted.Reply{Text: " \n\t "}, kind: llm.ErrEmpty, tokens: true},
		{name: "chat refusal field", reply: scripted.Reply{Refusal: "I can't help with that."}, kind: llm.ErrRefused, tokens: true},
		{name: "chat refusal in text", reply: scripted.Reply{RefuseInText: true}, kind: llm.ErrRefused, tokens: true},
		{name: "chat finish length", reply: scripted.Reply{Text: "Acme is a bak", Truncated: true}, kind: llm.ErrTruncated, tokens: true},
		{name: "chat malformed body", reply: scripted.Reply{Malformed: true}, kind: llm.ErrMalformed},
		{name: "chat prose for JSON", reply: scripted.Reply{Text: "Sure! {ok"}, schema: schema, kind: llm.ErrMalformed, tokens: true},
		{name: "chat refusal for JSON", reply: scripted.Reply{RefuseInText: true}, schema: schema, kind: llm.ErrRefused, tokens: true},
		{name: "responses no message", reply: scripted.Reply{Empty: true}, search: true, kind: llm.ErrEmpty, tokens: true},
		{name: "responses refusal item", reply: scripted.Reply{Refusal: "I can't help with that."}, search: true, kind: llm.ErrRefused, tokens: true},
		{name: "responses refusal in text", reply: scripted.Reply{RefuseInText: true}, search: true, kind: llm.ErrRefused, tokens: true},
		{name: "responses incomplete", reply: scripted.Reply{Text: "Acme is a bak", Truncated: true}, search: true, kind: llm.ErrTruncated, tokens: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := scripted.Start(func(scripted.Call) scripted.Reply { return tc.reply })
			t.Cleanup(srv.Close)
			e := engine(t, srv, llm.Chat, llm.WebSearch)
			cache := &llm.MemoryCache{}
			layer := &llm.Layer{Default: e, Engines: []llm.Engine{e}, Limits: llm.DefaultLimits, Cache: cache}
			s := layer.Session(time.Now())
			req := llm.Request{Prompt: "What is Acme?", WebSearch: tc.search, Schema: tc.schema}

			r := s.Ask(context.Background(), "probe", e, req, 0)
			require.ErrorIs(t, r.Err, tc.kind)
			require.Equal(t, tc.kind.Error(), llm.Kind(r.Err))
			require.NotEmpty(t, llm.Reason(r.Err))
			require.Empty(t, r.Answer.Text, "an unusable answer gives no text to read")
			require.Zero(t, cache.Len(), "an unusable answer is not cached")
			u := s.Usage().ByPurpose["probe"]
			require.Equal(t, 1, u.Calls)
			require.Equal(t, 1, u.Errors)
			if tc.tokens {
				require.Positive(t, u.InputTokens, "the call's tokens are spent all the same")
			}

			// Asked again by a later scan, the engine is asked again.
			before := srv.Calls()
			r = layer.Session(time.Now()).Ask(context.Background(), "probe", e, req, 0)
			require.ErrorIs(t, r.Err, tc.kind)
			require.False(t, r.Cached)
			require.Greater(t, srv.Calls(), before)
		})
	}
}

// The session checks every engine's answers, not only the OpenAI client's.
func TestSessionChecksAnyEngine(t *testing.T) {
	t.Parallel()
	for text, kind := range map[string]error{
		"   ":                                  llm.ErrEmpty,
		"Lo siento, no puedo ayudar con eso.":  llm.ErrRefused,
		"Ich kann dabei nicht helfen.":         llm.ErrRefused,
		"I don't have information about Acme.": nil,
	} {
		e := fixed{text: text}
		cache := &llm.MemoryCache{}
		layer := &llm.Layer{Default: e, Engines: []llm.Engine{e}, Limits: llm.DefaultLimits, Cache: cache}
		s := layer.Session(time.Now())
		r := s.Ask(context.Background(), "probe", e, llm.Request{Prompt: "What is Acme?"}, 0)
		if kind == nil {
			require.NoError(t, r.Err, text)
			require.Equal(t, text, r.Answer.Text)
			require.Equal(t, 1, cache.Len(), "a real \"not known\" is an answer and is cached")
			continue
		}
		require.ErrorIs(t, r.Err, kind, text)
		require.Zero(t, cache.Len(), text)
		require.Equal(t, 1, s.Usage().ByPurpose["probe"].Errors, text)
		require.Equal(t, 7, s.Usage().ByPurpose["probe"].OutputTokens, "%s: the tokens spent are counted", text)
	}
}

// An unusable answer cached before it was recognised as one is not served:
// the engine is asked again and the new answer replaces it.
func TestCachedUnusableAnswerIsAskedAgain(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(scripted.Call) scripted.Reply { return scripted.Reply{Text: "Acme is a bakery."} })
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	cache := &llm.MemoryCache{}
	day := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	req := llm.Request{Prompt: "What is Acme?"}
	key := llm.CacheKey(e.Info(), req, 0, day)
	old, err := json.Marshal(llm.Answer{Text: "I'm sorry, but I can't help with that.", Model: "fake-model-1"})
	require.NoError(t, err)
	require.NoError(t, cache.PutAnswer(context.Background(), key, day, "fake", "fake-model-1", old))

	layer := &llm.Layer{Default: e, Engines: []llm.Engine{e}, Limits: llm.DefaultLimits, Cache: cache}
	s := layer.Session(day)
	r := s.Ask(context.Background(), "probe", e, req, 0)
	require.NoError(t, r.Err)
	require.False(t, r.Cached)
	require.Equal(t, "Acme is a bakery.", r.Answer.Text)
	require.Equal(t, 1, srv.Calls())

	r = layer.Session(day).Ask(context.Background(), "probe", e, req, 0)
	require.True(t, r.Cached, "the real answer replaced the refusal")
	require.Equal(t, "Acme is a bakery.", r.Answer.Text)
}

// fixed is an engine that is not the OpenAI client: it answers one text.
type fixed struct{ text string }

func (f fixed) Info() llm.Info {
	return llm.Info{Name: "fixed", Host: "fixed.test", Model: "fixed-1", Capabilities: []llm.Capability{llm.Chat}}
}

func (f fixed) Ask(context.Context, llm.Request) (llm.Answer, error) {
	return llm.Answer{Text: f.text, Model: "fixed-1", InputTokens: 3, OutputTokens: 7}, nil
}
