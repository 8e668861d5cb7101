package llm_test

import (
	"context"
	"net/http"
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

var verdictSchema = &llm.Schema{Name: "verdict", Schema: map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"ok"},
	"properties": map[string]any{"ok": map[string]any{"type": "boolean"}},
}}

// fromFile builds the engines of an engines file naming srv.
func fromFile(t *testing.T, srv *scripted.Server, fields string) llm.Engine {
	t.Helper()
	p := filepath.Join(t.TempDir(), "engines.json")
	body := `{"engines":[{"name":"fake","base_url":"` + srv.URL + `","model":"gpt-5-mini"` + fields + `}]}`
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	l, err := llm.Build(llm.Settings{EnginesFile: p}, func(string) string { return "" }, nil, nil)
	require.NoError(t, err)
	return l.Default
}

func TestTemperatureRejectedIsDroppedAndLearned(t *testing.T) {
	t.Parallel()
	srv := scripted.StartWith(func(scripted.Call) scripted.Reply { return scripted.Reply{Text: `{"ok":true}`} },
		scripted.ServerOpts{RejectTemperature: true})
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	require.NotContains(t, e.Info().Evidence(), "temperature", "a model takes a temperature until it says otherwise")
	s := (&llm.Layer{Default: e, Limits: llm.DefaultLimits}).Session(time.Now())

	r := s.Ask(context.Background(), "judge", e, llm.Request{Prompt: "judge one", Temperature: llm.Zero(), Schema: verdictSchema}, 0)
	require.NoError(t, r.Err)
	got := srv.Received()
	require.Len(t, got, 2, "one retry, at once")
	require.NotNil(t, got[0].Temperature)
	require.Equal(t, "temperature", got[0].Rejected)
	require.Nil(t, got[1].Temperature, "the retry leaves the temperature out")
	require.Empty(t, got[1].Rejected)
	require.Equal(t, "verdict", got[1].Schema, "the rest of the request is unchanged")
	require.Equal(t, 1, s.Usage().Calls, "the retry is part of one call")
	require.Zero(t, s.Usage().ByPurpose["judge"].Errors)

	info := e.Info()
	require.True(t, info.Params.DefaultTemperatureOnly)
	require.Equal(t, []string{"temperature"}, info.Params.Learned)
	ev := info.Evidence()
	require.Equal(t, "default_only", ev["temperature"])
	require.Equal(t, []string{"temperature"}, ev["learned_from_errors"])

	// Later calls send none from the start.
	require.NoError(t, s.Ask(context.Background(), "judge", e, llm.Request{Prompt: "judge two", Temperature: llm.Zero()}, 0).Err)
	got = srv.Received()
	require.Len(t, got, 3)
	require.Nil(t, got[2].Temperature)
	require.Empty(t, got[2].Rejected)
}

func TestTemperatureLearnedOnceUnderConcurrentCalls(t *testing.T) {
	t.Parallel()
	srv := scripted.StartWith(func(scripted.Call) scripted.Reply { return scripted.Reply{Text: "ok"} },
		scripted.ServerOpts{RejectTemperature: true})
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = e.Ask(context.Background(), llm.Request{Prompt: "q" + string(rune('a'+i)), Temperature: llm.Zero()})
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, []string{"temperature"}, e.Info().Params.Learned)
	require.LessOrEqual(t, srv.Calls(), 16, "no call is sent more than twice")
	for _, c := range srv.Received() {
		if c.Rejected == "" {
			require.Nil(t, c.Temperature)
		}
	}
}

func TestConfiguredDefaultTemperatureSendsNone(t *testing.T) {
	t.Parallel()
	srv := scripted.StartWith(func(scripted.Call) scripted.Reply { return scripted.Reply{Text: "ok"} },
		scripted.ServerOpts{RejectTemperature: true})
	t.Cleanup(srv.Close)
	e := fromFile(t, srv, `,"temperature":false`)
	_, err := e.Ask(context.Background(), llm.Request{Prompt: "q", Temperature: llm.Zero()})
	require.NoError(t, err)
	got := srv.Received()
	require.Len(t, got, 1, "no 400 to learn from")
	require.Nil(t, got[0].Temperature)
	ev := e.Info().Evidence()
	require.Equal(t, "default_only", ev["temperature"])
	require.NotContains(t, ev, "learned_from_errors", "configured, not learned")
}

func TestNoJSONSchemaAsksInThePromptAndChecksTheAnswer(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply {
		switch {
		case strings.HasPrefix(c.Prompt, "fenced"):
			return scripted.Reply{Text: "```json\n{\"ok\": true}\n```"}
		case strings.HasPrefix(c.Prompt, "wrong shape"):
			return scripted.Reply{Text: `{"ok": "yes", "extra": 1}`}
		}
		return scripted.Reply{Text: "Sure, it is ok."}
	})
	t.Cleanup(srv.Close)
	e := fromFile(t, srv, `,"json_schema":false`)
	require.Equal(t, "json_object", e.Info().Evidence()["structured_output"])

	a, err := e.Ask(context.Background(), llm.Request{Prompt: "fenced", Schema: verdictSchema})
	require.NoError(t, err)
	require.JSONEq(t, `{"ok":true}`, a.Text, "the fence is taken off")
	c := srv.Received()[0]
	require.Equal(t, "json_object", c.ResponseFormat)
	require.Empty(t, c.Schema, "no json_schema is sent")
	require.Contains(t, c.Prompt, `"required":["ok"]`, "the schema is in the prompt")

	_, err = e.Ask(context.Background(), llm.Request{Prompt: "wrong shape", Schema: verdictSchema})
	require.ErrorIs(t, err, llm.ErrMalformed, "JSON that does not match the schema is checked here")
	require.Equal(t, "the engine's JSON did not match the schema that was asked for", llm.Reason(err))
	require.NotContains(t, llm.Reason(err), "extra")

	_, err = e.Ask(context.Background(), llm.Request{Prompt: "prose", Schema: verdictSchema})
	require.ErrorIs(t, err, llm.ErrMalformed)
}

func TestResponseFormatRejectedFallsBack(t *testing.T) {
	t.Parallel()
	answer := func(scripted.Call) scripted.Reply { return scripted.Reply{Text: `{"ok":false}`} }
	for _, tc := range []struct {
		name   string
		opts   scripted.ServerOpts
		format string // what the retry and later calls send
		mode   string
	}{
		{name: "json_schema unsupported", opts: scripted.ServerOpts{RejectJSONSchema: true}, format: "json_object", mode: "json_object"},
		{name: "response_format unknown", opts: scripted.ServerOpts{RejectResponseFormat: true}, format: "", mode: "prompt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := scripted.StartWith(answer, tc.opts)
			t.Cleanup(srv.Close)
			e := engine(t, srv)
			a, err := e.Ask(context.Background(), llm.Request{Prompt: "judge", Schema: verdictSchema})
			require.NoError(t, err)
			require.JSONEq(t, `{"ok":false}`, a.Text)
			got := srv.Received()
			require.Len(t, got, 2)
			require.Equal(t, "json_schema", got[0].ResponseFormat)
			require.Equal(t, "response_format", got[0].Rejected)
			require.Equal(t, tc.format, got[1].ResponseFormat)
			require.Contains(t, got[1].Prompt, "JSON Schema")
			ev := e.Info().Evidence()
			require.Equal(t, tc.mode, ev["structured_output"])
			require.Equal(t, []string{"response_format"}, ev["learned_from_errors"])

			_, err = e.Ask(context.Background(), llm.Request{Prompt: "judge again", Schema: verdictSchema})
			require.NoError(t, err)
			require.Len(t, srv.Received(), 3, "learned: no second 400")
		})
	}
}

func TestBothParametersRejectedInOneCall(t *testing.T) {
	t.Parallel()
	srv := scripted.StartWith(func(scripted.Call) scripted.Reply { return scripted.Reply{Text: `{"ok":true}`} },
		scripted.ServerOpts{RejectTemperature: true, RejectJSONSchema: true})
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	_, err := e.Ask(context.Background(), llm.Request{Prompt: "judge", Temperature: llm.Zero(), Schema: verdictSchema})
	require.NoError(t, err)
	var rejected []string
	for _, c := range srv.Received() {
		rejected = append(rejected, c.Rejected)
	}
	require.Equal(t, []string{"temperature", "response_format", ""}, rejected, "one retry per parameter")
	require.ElementsMatch(t, []string{"temperature", "response_format"}, e.Info().Params.Learned)
}

func TestUnknown400IsNotRetried(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(scripted.Call) scripted.Reply { return scripted.Reply{Status: http.StatusBadRequest} })
	t.Cleanup(srv.Close)
	e := engine(t, srv)
	_, err := e.Ask(context.Background(), llm.Request{Prompt: "q", Temperature: llm.Zero(), Schema: verdictSchema})
	require.ErrorIs(t, err, llm.ErrStatus)
	require.Equal(t, "the engine answered HTTP 400", llm.Reason(err), "the body never reaches the reason")
	require.Equal(t, 1, srv.Calls())
	require.Empty(t, e.Info().Params.Learned)
}

func TestRateLimited(t *testing.T) {
	t.Parallel()
	t.Run("again on the retry", func(t *testing.T) {
		t.Parallel()
		srv := scripted.Start(func(scripted.Call) scripted.Reply {
			return scripted.Reply{Status: http.StatusTooManyRequests, RetryAfter: "0"}
		})
		t.Cleanup(srv.Close)
		e := engine(t, srv)
		s := (&llm.Layer{Default: e, Limits: llm.DefaultLimits}).Session(time.Now())
		r := s.Ask(context.Background(), "probe", e, llm.Request{Prompt: "q"}, 0)
		require.ErrorIs(t, r.Err, llm.ErrRateLimited)
		require.Equal(t, "rate_limited", llm.Kind(r.Err))
		require.Contains(t, llm.Reason(r.Err), "429")
		require.NotContains(t, llm.Reason(r.Err), "Rate limit reached", "the body never reaches the reason")
		require.Equal(t, 2, srv.Calls(), "the client retries once")
		require.Equal(t, 1, s.Usage().ByPurpose["probe"].Errors)
	})
	t.Run("retry after the wait succeeds", func(t *testing.T) {
		t.Parallel()
		srv := scripted.Start(func(c scripted.Call) scripted.Reply {
			if c.Run == 0 {
				return scripted.Reply{Status: http.StatusTooManyRequests, RetryAfter: "0"}
			}
			return scripted.Reply{Text: "Acme is a bakery."}
		})
		t.Cleanup(srv.Close)
		a, err := engine(t, srv).Ask(context.Background(), llm.Request{Prompt: "q"})
		require.NoError(t, err)
		require.Equal(t, "Acme is a bakery.", a.Text)
		require.Equal(t, 2, srv.Calls())
	})
	t.Run("wait longer than the call timeout", func(t *testing.T) {
		t.Parallel()
		srv := scripted.Start(func(scripted.Call) scripted.Reply {
			return scripted.Reply{Status: http.StatusTooManyRequests, RetryAfter: "30"}
		})
		t.Cleanup(srv.Close)
		e := engine(t, srv)
		layer := &llm.Layer{Default: e, Limits: llm.Limits{Runs: 1, CallTimeout: 200 * time.Millisecond, MaxCalls: 10, MaxTokens: 10_000, Concurrency: 1}}
		r := layer.Session(time.Now()).Ask(context.Background(), "probe", e, llm.Request{Prompt: "q"}, 0)
		require.ErrorIs(t, r.Err, llm.ErrRateLimited, "cut short while waiting out a 429 is rate limited, not slow")
		require.Equal(t, 1, srv.Calls(), "the per-call timeout bounds the wait")
	})
}
