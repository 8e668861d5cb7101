package scripted_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

// post sends a raw request body and returns the status, headers and
// decoded body: the wire shapes are checked without the client that
// reads them.
func post(t *testing.T, srv *scripted.Server, path, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return res.StatusCode, res.Header, out
}

func TestRejectTemperatureAnswersAsOpenAI(t *testing.T) {
	t.Parallel()
	srv := scripted.StartWith(func(scripted.Call) scripted.Reply { return scripted.Reply{Text: "ok"} },
		scripted.ServerOpts{RejectTemperature: true})
	t.Cleanup(srv.Close)

	status, _, body := post(t, srv, "/chat/completions", `{"model":"gpt-5-mini","temperature":0,"messages":[{"role":"user","content":"q"}]}`)
	require.Equal(t, http.StatusBadRequest, status)
	want := map[string]any{"error": map[string]any{
		"message": "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
		"type":    "invalid_request_error", "param": "temperature", "code": "unsupported_value",
	}}
	require.Equal(t, want, body)

	// The default value and no value pass.
	for _, req := range []string{
		`{"model":"gpt-5-mini","temperature":1,"messages":[{"role":"user","content":"q"}]}`,
		`{"model":"gpt-5-mini","messages":[{"role":"user","content":"q"}]}`,
	} {
		status, _, _ = post(t, srv, "/chat/completions", req)
		require.Equal(t, http.StatusOK, status, req)
	}
	got := srv.Received()
	require.Len(t, got, 3)
	require.Equal(t, []string{"temperature", "", ""}, []string{got[0].Rejected, got[1].Rejected, got[2].Rejected})
	require.Zero(t, got[1].Run, "a rejected request is not a run")
}

func TestRejectResponseFormat(t *testing.T) {
	t.Parallel()
	schema := `{"model":"m","messages":[{"role":"user","content":"q"}],"response_format":{"type":"json_schema","json_schema":{"name":"v","schema":{"type":"object"}}}}`
	object := `{"model":"m","messages":[{"role":"user","content":"q"}],"response_format":{"type":"json_object"}}`
	ok := func(scripted.Call) scripted.Reply { return scripted.Reply{Text: "{}"} }

	js := scripted.StartWith(ok, scripted.ServerOpts{RejectJSONSchema: true})
	t.Cleanup(js.Close)
	status, _, body := post(t, js, "/chat/completions", schema)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "response_format", body["error"].(map[string]any)["param"])
	status, _, _ = post(t, js, "/chat/completions", object)
	require.Equal(t, http.StatusOK, status, "json_object passes")

	unknown := scripted.StartWith(ok, scripted.ServerOpts{RejectResponseFormat: true})
	t.Cleanup(unknown.Close)
	status, _, body = post(t, unknown, "/chat/completions", object)
	require.Equal(t, http.StatusBadRequest, status)
	require.Nil(t, body["error"].(map[string]any)["param"], "named only in the message")
	require.Contains(t, body["error"].(map[string]any)["message"], "response_format")
}

func TestMisbehavingAnswersOnTheWire(t *testing.T) {
	t.Parallel()
	var rep scripted.Reply
	srv := scripted.Start(func(scripted.Call) scripted.Reply { return rep })
	t.Cleanup(srv.Close)
	chat := `{"model":"m","messages":[{"role":"user","content":"q"}]}`
	search := `{"model":"m","input":"q","tools":[{"type":"web_search"}]}`
	choice := func(body map[string]any) map[string]any {
		return body["choices"].([]any)[0].(map[string]any)
	}
	message := func(body map[string]any) map[string]any {
		return choice(body)["message"].(map[string]any)
	}

	rep = scripted.Reply{Empty: true}
	_, _, body := post(t, srv, "/chat/completions", chat)
	require.Nil(t, message(body)["content"])
	_, _, body = post(t, srv, "/responses", search)
	require.Len(t, body["output"], 1, "only the search call, no message")

	rep = scripted.Reply{Refusal: "No."}
	_, _, body = post(t, srv, "/chat/completions", chat)
	require.Nil(t, message(body)["content"])
	require.Equal(t, "No.", message(body)["refusal"])

	rep = scripted.Reply{RefuseInText: true}
	_, _, body = post(t, srv, "/chat/completions", chat)
	require.Equal(t, scripted.TextRefusal, message(body)["content"])

	rep = scripted.Reply{Text: "cut", Truncated: true}
	_, _, body = post(t, srv, "/chat/completions", chat)
	require.Equal(t, "length", choice(body)["finish_reason"])
	_, _, body = post(t, srv, "/responses", search)
	require.Equal(t, "incomplete", body["status"])
	require.Equal(t, map[string]any{"reason": "max_output_tokens"}, body["incomplete_details"])

	rep = scripted.Reply{Status: http.StatusTooManyRequests, RetryAfter: "7"}
	status, header, body := post(t, srv, "/chat/completions", chat)
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Equal(t, "7", header.Get("Retry-After"))
	require.Equal(t, "rate_limit_exceeded", body["error"].(map[string]any)["code"])

	rep = scripted.Reply{Text: "fine"}
	_, _, body = post(t, srv, "/chat/completions", chat)
	require.Equal(t, "stop", choice(body)["finish_reason"])
	require.Equal(t, "fine", message(body)["content"])
	require.Nil(t, message(body)["refusal"])
}
