// Package llm owns GeoScan's answer engines: the language-model endpoints an
// operator configures (any OpenAI-compatible API, reached through the
// official openai-go client with a base-URL override), what one call asks
// and what GeoScan reads from the answer (text, cited and retrieved URLs,
// tokens), and the calls of one scan: run concurrently under a per-scan
// budget of calls and tokens and a per-call timeout, and cached per engine,
// model, prompt, run index and day so a second scan the same day makes
// (almost) no calls. An answer that is empty, a refusal, cut short or
// malformed is an error of its own kind, never an answer: it says nothing
// about what a model knows. Each engine learns which optional parameters
// its model rejects (temperature, structured output) and stops sending
// them.
//
// It does not decide what to ask or how to grade an answer: package mentions
// measures brand mentions with it and package summary writes report
// summaries with it.
package llm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Capability is something an engine can be asked to do.
type Capability string

// The capabilities: plain chat (the model's own knowledge) and web search
// (answers grounded in a search, with the URLs they cite).
const (
	Chat      Capability = "chat"
	WebSearch Capability = "web_search"
)

// Info describes an engine as the evidence labels it: the operator's name,
// the host of its base URL and the model. GeoScan never claims more than
// that (an API model is not the consumer assistant or AI Overviews).
type Info struct {
	Name         string
	Host         string
	Model        string
	Capabilities []Capability
	// Params are the optional request parameters the model takes, as
	// configured and as learned from its answers so far.
	Params Params
	// Scripted marks the built-in scripted demo engine: its answers are
	// canned and say nothing about any real assistant.
	Scripted bool
}

// Params say which optional request parameters a model takes. The zero
// value is a model that takes them all.
type Params struct {
	// DefaultTemperatureOnly: the model accepts only its default
	// temperature (GPT-5-family models), so none is sent and a request's
	// temperature is the engine's default.
	DefaultTemperatureOnly bool
	// JSON is how a structured answer is asked for.
	JSON JSONMode
	// Learned names the parameters found unsupported at run time, from an
	// HTTP 400 that named them, rather than configured ("temperature",
	// "response_format").
	Learned []string
}

// JSONMode is how a structured answer is asked for.
type JSONMode string

// The ways to ask for JSON. Below JSONSchema the engine no longer holds
// the model to the schema, so the answer is checked against it here.
const (
	// JSONSchema is structured output: response_format json_schema, strict.
	JSONSchema JSONMode = ""
	// JSONObject is response_format json_object plus the schema in the prompt.
	JSONObject JSONMode = "json_object"
	// JSONPrompt is the schema in the prompt and no response_format.
	JSONPrompt JSONMode = "prompt"
)

// Can reports whether the engine has a capability.
func (i Info) Can(c Capability) bool { return slices.Contains(i.Capabilities, c) }

// Label names the engine in one phrase: "openai (api.openai.com, gpt-5-mini)".
func (i Info) Label() string {
	s := fmt.Sprintf("%s (%s, %s)", i.Name, i.Host, i.Model)
	if i.Scripted {
		s += " — scripted demo engine, canned answers"
	}
	return s
}

// Evidence is the engine as an evidence object.
func (i Info) Evidence() map[string]any {
	caps := make([]string, 0, len(i.Capabilities))
	for _, c := range i.Capabilities {
		caps = append(caps, string(c))
	}
	e := map[string]any{"name": i.Name, "host": i.Host, "model": i.Model, "capabilities": caps}
	// Only what differs from a model that takes every parameter is said.
	if i.Params.DefaultTemperatureOnly {
		e["temperature"] = "default_only"
	}
	if i.Params.JSON != JSONSchema {
		e["structured_output"] = string(i.Params.JSON)
	}
	if len(i.Params.Learned) > 0 {
		e["learned_from_errors"] = slices.Clone(i.Params.Learned)
	}
	if i.Scripted {
		e["scripted_demo_engine"] = true
	}
	return e
}

// Request is one question to an engine.
type Request struct {
	// System sets the assistant's role; empty for none.
	System string
	Prompt string
	// Temperature is nil to leave the engine's default: repeated runs of a
	// probe are meant to sample the answers users get. Judging, extraction
	// and summaries ask for 0.
	Temperature *float64
	// WebSearch asks for an answer grounded in a web search, with citations.
	WebSearch bool
	// Schema asks for JSON matching a JSON Schema (structured output).
	Schema *Schema
	// Language is the language the prompt is asked in and the answer
	// expected in (an i18n tag), "" for English. It is part of the cache
	// key, so an answer to a question in one language is never served
	// for the same question in another, however the prompt is worded.
	Language string
}

// Schema is a named JSON Schema for a structured answer.
type Schema struct {
	Name   string
	Schema map[string]any
}

// Zero is a temperature of 0, for requests that must be as repeatable as
// the engine allows.
func Zero() *float64 { z := 0.0; return &z }

// Answer is what GeoScan keeps of an engine's answer.
type Answer struct {
	Text string `json:"text"`
	// Cited are the URLs the final answer cites (url_citation annotations,
	// Perplexity's citations).
	Cited []string `json:"cited,omitempty"`
	// Retrieved are URLs the search returned, cited or not (the web search
	// call's sources, Perplexity's search_results).
	Retrieved []string `json:"retrieved,omitempty"`
	// Queries are the searches the engine ran, when it says.
	Queries []string `json:"queries,omitempty"`
	// Model is the model that answered, as the engine names it.
	Model        string `json:"model"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
}

// Engine is an answer engine: something that answers a request. When the
// engine answered but the answer cannot be used (refused, cut short …),
// Ask returns the error together with an Answer holding the tokens the
// call spent, so the budget counts them.
type Engine interface {
	Info() Info
	Ask(ctx context.Context, req Request) (Answer, error)
}

// Error kinds. A call that fails is reported with one of these and a
// sentence that never carries an engine's raw error text (which may echo
// a key or a prompt). An answer that is empty, refused, truncated or
// malformed is an error too: it says nothing about what the model knows,
// so it must never read as "not known".
var (
	ErrTimeout     = errors.New("timeout")
	ErrStatus      = errors.New("engine_error")
	ErrMalformed   = errors.New("malformed_answer")
	ErrBudget      = errors.New("budget_exhausted")
	ErrConnect     = errors.New("connection_failed")
	ErrEmpty       = errors.New("empty_answer")
	ErrRefused     = errors.New("refused")
	ErrTruncated   = errors.New("truncated")
	ErrRateLimited = errors.New("rate_limited")
)

// kinds lists every error kind, for Kind.
var kinds = []error{
	ErrTimeout, ErrStatus, ErrMalformed, ErrBudget, ErrConnect,
	ErrEmpty, ErrRefused, ErrTruncated, ErrRateLimited,
}

// CallError is a failed call with a reason fit for evidence and logs.
type CallError struct {
	Kind   error
	Reason string
}

func (e *CallError) Error() string { return e.Reason }
func (e *CallError) Unwrap() error { return e.Kind }

// Reason is err as a sentence fit for a report: the reason of a CallError,
// a generic sentence for anything else.
func Reason(err error) string {
	var ce *CallError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	if err == nil {
		return ""
	}
	return "the engine call failed"
}

// Kind is the machine-readable kind of a call error ("timeout", …).
func Kind(err error) string {
	for _, k := range kinds {
		if errors.Is(err, k) {
			return k.Error()
		}
	}
	if err == nil {
		return ""
	}
	return "engine_error"
}

// Trim shortens an answer for evidence: whitespace collapsed, at most n
// runes, the cut marked.
func Trim(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n])) + "…"
}
