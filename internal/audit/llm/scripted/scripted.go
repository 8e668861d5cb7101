// Package scripted is an OpenAI-compatible answer engine that answers from
// a script instead of a model. It speaks the engines' real wire shapes —
// chat completions (with Perplexity's citations and search_results when
// asked), and the Responses API with a web_search_call item and
// url_citation annotations — so the real openai-go client is what talks to
// it. The tests drive the AI layer through it (scripted variance across
// runs, timeouts, malformed answers, and the ways real engines misbehave:
// empty answers, refusals, answers cut off at the token limit, 429s with
// Retry-After, and models that reject a temperature or a response format
// with HTTP 400 as OpenAI does), and `geoscan demo` runs with it,
// labelled as the scripted demo engine, so the AI checks can be seen
// offline. Its answers say nothing about any real assistant.
package scripted

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Call is one request the engine received.
type Call struct {
	// API is "chat" or "responses".
	API         string
	Model       string
	System      string
	Prompt      string
	Temperature *float64
	// Schema is the name of the JSON schema asked for, "" for free text.
	Schema string
	// ResponseFormat is the response_format type sent ("json_schema",
	// "json_object"), "" for none.
	ResponseFormat string
	WebSearch      bool
	// Authorization is the header as received.
	Authorization string
	// Run counts earlier requests identical to this one (same API, model,
	// system, prompt, schema): 0 for the first, 1 for the second … so a
	// script can vary its answer across the runs of one probe. A request
	// the server rejected is not counted.
	Run int
	// Rejected names the parameter the server answered 400 for (see
	// ServerOpts); the script was not asked.
	Rejected string
}

// Reply is what the script answers.
type Reply struct {
	Text string
	// Cited URLs are url_citation annotations (Responses), or Perplexity's
	// citations when Perplexity is set.
	Cited []string
	// Retrieved URLs were returned by the search but not cited.
	Retrieved []string
	Queries   []string
	// Perplexity answers a chat completion the way Sonar does: sources in
	// top-level citations and search_results.
	Perplexity bool
	// Delay holds the answer back (until the client gives up, if sooner).
	Delay time.Duration
	// Status, when not 0 or 200, answers with an error body.
	Status int
	// Malformed answers 200 with a body that is not JSON.
	Malformed bool
	// RetryAfter is sent as the Retry-After header with an error Status
	// (429: "1" asks the client to wait a second).
	RetryAfter string
	// Empty answers with no text: content null in a chat completion, no
	// message item in a response.
	Empty bool
	// Refusal answers with the chat message's refusal field set and no
	// content (a refusal item in a response).
	Refusal string
	// RefuseInText answers with TextRefusal as the text, as models
	// without a refusal field decline.
	RefuseInText bool
	// Truncated answers Text as cut off at the output token limit:
	// finish_reason "length", or a response with status incomplete for
	// max_output_tokens.
	Truncated bool
}

// TextRefusal is the answer of a RefuseInText reply.
const TextRefusal = "I'm sorry, but I can't help with that."

// ServerOpts make the server reject parameters the way OpenAI rejects
// them for models that do not take them: HTTP 400 with OpenAI's error
// body, before the script is asked.
type ServerOpts struct {
	// RejectTemperature rejects any temperature but the default (1), as
	// GPT-5-family models do.
	RejectTemperature bool
	// RejectJSONSchema rejects a json_schema response_format, as models
	// without structured output do; json_object passes.
	RejectJSONSchema bool
	// RejectResponseFormat rejects any response_format, as a server that
	// does not know the parameter does (its error names it only in the
	// message).
	RejectResponseFormat bool
}

// Script decides each reply.
type Script func(Call) Reply

// Server is a running scripted engine.
type Server struct {
	srv    *httptest.Server
	script Script
	opts   ServerOpts
	// URL is the base URL to configure (…/v1).
	URL string

	mu       sync.Mutex
	received []Call
	seen     map[string]int
}

// Start serves script on a loopback port.
func Start(script Script) *Server { return StartWith(script, ServerOpts{}) }

// StartWith serves script on a loopback port with options.
func StartWith(script Script, opts ServerOpts) *Server {
	s := &Server{script: script, opts: opts, seen: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s
}

// Listen serves script on an existing listener (the demo picks its own).
func Listen(ln net.Listener, script Script) *Server {
	s := &Server{script: script, seen: map[string]int{}}
	s.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}}
	s.srv.Start()
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Calls is the number of requests received.
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.received)
}

// Received lists the requests received, in arrival order.
func (s *Server) Received() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.received...)
}

type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	} `json:"messages"`
	Temperature    *float64 `json:"temperature"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name string `json:"name"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

type responsesRequest struct {
	Model        string   `json:"model"`
	Input        any      `json:"input"`
	Instructions string   `json:"instructions"`
	Temperature  *float64 `json:"temperature"`
	Tools        []struct {
		Type string `json:"type"`
	} `json:"tools"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err != nil || r.Method != http.MethodPost {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	var c Call
	c.Authorization = r.Header.Get("Authorization")
	switch {
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		var req chatRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"invalid JSON"}}`, http.StatusBadRequest)
			return
		}
		c.API, c.Model, c.Temperature = "chat", req.Model, req.Temperature
		for _, m := range req.Messages {
			switch m.Role {
			case "system", "developer":
				c.System = text(m.Content)
			case "user":
				c.Prompt = text(m.Content)
			}
		}
		if req.ResponseFormat != nil {
			c.ResponseFormat = req.ResponseFormat.Type
			if req.ResponseFormat.Type == "json_schema" {
				c.Schema = req.ResponseFormat.JSONSchema.Name
			}
		}
	case strings.HasSuffix(r.URL.Path, "/responses"):
		var req responsesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"error":{"message":"invalid JSON"}}`, http.StatusBadRequest)
			return
		}
		c.API, c.Model, c.System, c.Prompt, c.Temperature = "responses", req.Model, req.Instructions, text(req.Input), req.Temperature
		for _, t := range req.Tools {
			if strings.HasPrefix(t.Type, "web_search") {
				c.WebSearch = true
			}
		}
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"error":{"message":"unknown path","type":"invalid_request_error"}}`)
		return
	}
	rejection := s.reject(c)
	if rejection != nil {
		c.Rejected = rejection.param
	}
	s.mu.Lock()
	k := strings.Join([]string{c.API, c.Model, c.System, c.Prompt, c.Schema, fmt.Sprint(c.WebSearch)}, "\x00")
	c.Run = s.seen[k]
	if rejection == nil {
		s.seen[k]++
	}
	s.received = append(s.received, c)
	s.mu.Unlock()
	if rejection != nil {
		writeError(w, http.StatusBadRequest, rejection.body)
		return
	}

	rep := s.script(c)
	if rep.RefuseInText {
		rep.Text = TextRefusal
	}
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case rep.Status != 0 && rep.Status != http.StatusOK:
		if rep.RetryAfter != "" {
			w.Header().Set("Retry-After", rep.RetryAfter)
		}
		body := map[string]any{"message": "scripted failure", "type": "server_error", "param": nil, "code": nil}
		if rep.Status == http.StatusTooManyRequests {
			body = map[string]any{
				"message": "Rate limit reached for requests. Please try again later.",
				"type":    "requests", "param": nil, "code": "rate_limit_exceeded",
			}
		}
		writeError(w, rep.Status, body)
		return
	case rep.Malformed:
		_, _ = io.WriteString(w, `{"id":"chatcmpl-broken","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"trunc`)
		return
	}
	var out any
	if c.API == "responses" {
		out = responsesBody(c, rep)
	} else {
		out = chatBody(c, rep)
	}
	_ = json.NewEncoder(w).Encode(out)
}

// rejection is a 400 the server answers instead of asking the script.
type rejection struct {
	param string
	body  map[string]any
}

// reject is the 400 OpenAI would answer c with under the server's
// options, nil for none. The temperature comes first, as OpenAI checks it
// first.
func (s *Server) reject(c Call) *rejection {
	switch {
	case s.opts.RejectTemperature && c.Temperature != nil && *c.Temperature != 1:
		return &rejection{param: "temperature", body: map[string]any{
			"message": "Unsupported value: 'temperature' does not support " + strconv.FormatFloat(*c.Temperature, 'g', -1, 64) +
				" with this model. Only the default (1) value is supported.",
			"type": "invalid_request_error", "param": "temperature", "code": "unsupported_value",
		}}
	case s.opts.RejectResponseFormat && c.ResponseFormat != "":
		return &rejection{param: "response_format", body: map[string]any{
			"message": "Unrecognized request argument supplied: response_format",
			"type":    "invalid_request_error", "param": nil, "code": nil,
		}}
	case s.opts.RejectJSONSchema && c.ResponseFormat == "json_schema":
		return &rejection{param: "response_format", body: map[string]any{
			"message": "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
			"type":    "invalid_request_error", "param": "response_format", "code": nil,
		}}
	}
	return nil
}

// writeError answers an error status with OpenAI's error envelope.
func writeError(w http.ResponseWriter, status int, body map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": body})
}

// text reads a message content given as a string or as a list of parts.
func text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var b strings.Builder
		for _, p := range t {
			if m, ok := p.(map[string]any); ok {
				if s, ok := m["text"].(string); ok {
					b.WriteString(s)
				}
				if s, ok := m["content"].(string); ok {
					b.WriteString(s)
				}
			}
		}
		return b.String()
	}
	return ""
}

// tokens approximates token counts at four characters a token.
func tokens(s string) int { return len(s)/4 + 1 }

func chatBody(c Call, rep Reply) map[string]any {
	msg := map[string]any{"role": "assistant", "content": rep.Text, "refusal": nil}
	switch {
	case rep.Refusal != "":
		msg["content"], msg["refusal"] = nil, rep.Refusal
	case rep.Empty:
		msg["content"] = nil
	}
	finish := "stop"
	if rep.Truncated {
		finish = "length"
	}
	out := map[string]any{
		"id": "chatcmpl-scripted", "object": "chat.completion", "created": 1764000000, "model": c.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}},
		"usage": map[string]any{
			"prompt_tokens": tokens(c.System + c.Prompt), "completion_tokens": tokens(rep.Text),
			"total_tokens": tokens(c.System+c.Prompt) + tokens(rep.Text),
		},
	}
	if rep.Perplexity {
		results := []any{}
		for _, u := range append(append([]string{}, rep.Cited...), rep.Retrieved...) {
			results = append(results, map[string]any{"title": "Result", "url": u, "date": "2026-11-01"})
		}
		out["citations"] = nonNil(rep.Cited)
		out["search_results"] = results
		return out
	}
	if len(rep.Cited) > 0 {
		anns := []any{}
		for _, u := range rep.Cited {
			anns = append(anns, map[string]any{"type": "url_citation", "url_citation": map[string]any{"url": u, "title": "Source", "start_index": 0, "end_index": len(rep.Text)}})
		}
		msg["annotations"] = anns
	}
	return out
}

func responsesBody(c Call, rep Reply) map[string]any {
	output := []any{}
	if c.WebSearch {
		sources := []any{}
		for _, u := range append(append([]string{}, rep.Retrieved...), rep.Cited...) {
			sources = append(sources, map[string]any{"type": "url", "url": u})
		}
		queries := rep.Queries
		if len(queries) == 0 {
			queries = []string{c.Prompt}
		}
		output = append(output, map[string]any{
			"type": "web_search_call", "id": "ws_scripted", "status": "completed",
			"action": map[string]any{"type": "search", "query": queries[0], "queries": queries, "sources": sources},
		})
	}
	anns := []any{}
	for _, u := range rep.Cited {
		anns = append(anns, map[string]any{"type": "url_citation", "url": u, "title": "Source", "start_index": 0, "end_index": len(rep.Text)})
	}
	status, incomplete := "completed", any(nil)
	if rep.Truncated {
		status, incomplete = "incomplete", map[string]any{"reason": "max_output_tokens"}
	}
	content := []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": anns, "logprobs": []any{}}}
	if rep.Refusal != "" {
		content = []any{map[string]any{"type": "refusal", "refusal": rep.Refusal}}
	}
	if !rep.Empty {
		output = append(output, map[string]any{
			"type": "message", "id": "msg_scripted", "status": status, "role": "assistant", "content": content,
		})
	}
	in, outT := tokens(c.System+c.Prompt), tokens(rep.Text)
	return map[string]any{
		"id": "resp_scripted", "object": "response", "created_at": 1764000000, "status": status, "model": c.Model,
		"incomplete_details": incomplete,
		"output":             output, "parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{map[string]any{"type": "web_search"}},
		"usage": map[string]any{
			"input_tokens": in, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": outT, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": in + outT,
		},
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
