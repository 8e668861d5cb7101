// Package scripted is an OpenAI-compatible answer engine that answers from
// a script instead of a model. It speaks the engines' real wire shapes —
// chat completions (with Perplexity's citations and search_results when
// asked), and the Responses API with a web_search_call item and
// url_citation annotations — so the real openai-go client is what talks to
// it. The tests drive the AI layer through it (scripted variance across
// runs, timeouts, malformed answers), and `geoscan demo` runs with it,
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
	Schema    string
	WebSearch bool
	// Authorization is the header as received.
	Authorization string
	// Run counts earlier requests identical to this one (same API, model,
	// system, prompt, schema): 0 for the first, 1 for the second … so a
	// script can vary its answer across the runs of one probe.
	Run int
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
}

// Script decides each reply.
type Script func(Call) Reply

// Server is a running scripted engine.
type Server struct {
	srv    *httptest.Server
	script Script
	// URL is the base URL to configure (…/v1).
	URL string

	mu       sync.Mutex
	received []Call
	seen     map[string]int
}

// Start serves script on a loopback port.
func Start(script Script) *Server {
	s := &Server{script: script, seen: map[string]int{}}
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
		if req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema" {
			c.Schema = req.ResponseFormat.JSONSchema.Name
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
	s.mu.Lock()
	k := strings.Join([]string{c.API, c.Model, c.System, c.Prompt, c.Schema, fmt.Sprint(c.WebSearch)}, "\x00")
	c.Run = s.seen[k]
	s.seen[k]++
	s.received = append(s.received, c)
	s.mu.Unlock()

	rep := s.script(c)
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
		w.WriteHeader(rep.Status)
		_, _ = fmt.Fprintf(w, `{"error":{"message":"scripted failure","type":"server_error","code":null}}`)
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
	out := map[string]any{
		"id": "chatcmpl-scripted", "object": "chat.completion", "created": 1764000000, "model": c.Model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": "stop"}},
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
	var output []any
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
	output = append(output, map[string]any{
		"type": "message", "id": "msg_scripted", "status": "completed", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": anns, "logprobs": []any{}}},
	})
	in, outT := tokens(c.System+c.Prompt), tokens(rep.Text)
	return map[string]any{
		"id": "resp_scripted", "object": "response", "created_at": 1764000000, "status": "completed", "model": c.Model,
		"output": output, "parallel_tool_calls": true, "tool_choice": "auto", "tools": []any{map[string]any{"type": "web_search"}},
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
