package llm

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/geoscan/geoscan/internal/netguard"
)

// Search APIs: how an engine is asked for a web-grounded answer.
const (
	// SearchResponses is OpenAI's Responses API with the web_search tool
	// (url_citation annotations; the search call's sources).
	SearchResponses = "responses"
	// SearchChat is a chat completion that searches by itself and lists
	// its sources beside the answer, as Perplexity's Sonar models do
	// (citations, search_results).
	SearchChat = "chat"
)

// EngineConfig is one configured engine.
type EngineConfig struct {
	Name    string
	BaseURL string
	Model   string
	// APIKey is sent as a bearer token; empty sends none (Ollama, vLLM).
	APIKey       string
	Capabilities []Capability
	// SearchAPI is SearchResponses or SearchChat; empty picks SearchChat
	// for Perplexity's host and SearchResponses otherwise.
	SearchAPI string
	// ExtraCAFile is trusted besides the system roots (test and private
	// endpoints).
	ExtraCAFile string
	// HTTPClient replaces the client built from ExtraCAFile (tests).
	HTTPClient *http.Client
	Scripted   bool
	// DefaultTemperatureOnly sends no temperature: the model takes only
	// its default (the engines file's "temperature": false).
	DefaultTemperatureOnly bool
	// NoJSONSchema asks for JSON with json_object and the schema in the
	// prompt instead of structured output ("json_schema": false).
	NoJSONSchema bool
}

// openAIEngine answers through openai-go against any OpenAI-compatible
// base URL. What it learns about the model's parameters is shared by all
// calls, concurrent ones included.
type openAIEngine struct {
	info      Info
	searchAPI string
	chat      openai.ChatCompletionService
	responses responses.ResponseService

	mu     sync.Mutex
	params Params
}

// NewOpenAI builds an engine for an OpenAI-compatible endpoint. The
// endpoint is operator configuration, so plain http:// and loopback
// addresses are allowed; ambient OPENAI_* environment variables are not
// read (only what the configuration says is sent).
func NewOpenAI(cfg EngineConfig) (Engine, error) {
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("engine %q: base URL must be an absolute http:// or https:// URL", cfg.Name)
	}
	if cfg.Model == "" {
		return nil, fmt.Errorf("engine %q: a model is required", cfg.Name)
	}
	if len(cfg.Capabilities) == 0 {
		cfg.Capabilities = []Capability{Chat}
	}
	for _, c := range cfg.Capabilities {
		if c != Chat && c != WebSearch {
			return nil, fmt.Errorf("engine %q: unknown capability %q (chat, web_search)", cfg.Name, c)
		}
	}
	search := cfg.SearchAPI
	if search == "" {
		search = SearchResponses
		if strings.HasSuffix(strings.ToLower(u.Hostname()), "perplexity.ai") {
			search = SearchChat
		}
	}
	if search != SearchResponses && search != SearchChat {
		return nil, fmt.Errorf("engine %q: web_search_api must be responses or chat, not %q", cfg.Name, search)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		roots, err := netguard.LoadCertPool(cfg.ExtraCAFile)
		if err != nil {
			return nil, fmt.Errorf("engine %q: %w", cfg.Name, err)
		}
		hc = &http.Client{
			Transport: &http.Transport{
				Proxy:               http.ProxyFromEnvironment,
				DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
				TLSClientConfig:     &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
				MaxIdleConnsPerHost: 32,
				IdleConnTimeout:     90 * time.Second,
			},
			// An engine that redirects is misconfigured; following it
			// would resend the key elsewhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	base := strings.TrimRight(cfg.BaseURL, "/") + "/"
	opts := []option.RequestOption{
		option.WithBaseURL(base),
		option.WithHTTPClient(hc),
		// One retry for a 429 (after its Retry-After) or 5xx; the per-call
		// timeout bounds both.
		option.WithMaxRetries(1),
		option.WithMiddleware(recordStatus),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	params := Params{DefaultTemperatureOnly: cfg.DefaultTemperatureOnly}
	if cfg.NoJSONSchema {
		params.JSON = JSONObject
	}
	return &openAIEngine{
		info:      Info{Name: cfg.Name, Host: u.Host, Model: cfg.Model, Capabilities: cfg.Capabilities, Scripted: cfg.Scripted},
		params:    params,
		searchAPI: search,
		// The services are built directly rather than through
		// openai.NewClient, which would add OPENAI_ORG_ID, custom headers
		// and the like from the process environment.
		chat:      openai.NewChatCompletionService(opts...),
		responses: responses.NewResponseService(opts...),
	}, nil
}

func (e *openAIEngine) Info() Info {
	i := e.info
	i.Params = e.currentParams()
	return i
}

func (e *openAIEngine) currentParams() Params {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.params
	p.Learned = slices.Clone(p.Learned)
	return p
}

// learn records that the model rejected a parameter, so no later call
// sends it.
func (e *openAIEngine) learn(param string, change func(*Params)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	change(&e.params)
	if !slices.Contains(e.params.Learned, param) {
		e.params.Learned = append(e.params.Learned, param)
	}
}

func (e *openAIEngine) Ask(ctx context.Context, req Request) (Answer, error) {
	ctx = context.WithValue(ctx, statusesKey{}, &statuses{})
	if req.WebSearch && e.searchAPI == SearchResponses {
		return e.askResponses(ctx, req)
	}
	return e.askChat(ctx, req)
}

// askChat sends a chat completion. A 400 that names a parameter the model
// does not take (temperature, response_format) is sent again at once
// without it, once per parameter, and the engine remembers; any other 400
// is an error.
func (e *openAIEngine) askChat(ctx context.Context, req Request) (Answer, error) {
	dropped := map[string]bool{}
	for {
		p := e.currentParams()
		resp, err := e.chat.New(ctx, e.chatParams(req, p))
		if err == nil {
			return e.readChat(req, p, resp)
		}
		param := rejectedParam(err, req, p)
		if param == "" {
			return Answer{}, classify(ctx, err)
		}
		retry := !dropped[param]
		dropped[param] = true
		switch param {
		case paramTemperature:
			e.learn(param, func(p *Params) { p.DefaultTemperatureOnly = true })
		case paramResponseFormat:
			next := JSONPrompt
			if p.JSON == JSONSchema && mentionsJSONSchema(err) {
				next = JSONObject
			}
			e.learn(param, func(p *Params) {
				if jsonRank(next) > jsonRank(p.JSON) {
					p.JSON = next
				}
			})
		}
		if !retry {
			// Learned all the same: the next call starts without it.
			return Answer{}, classify(ctx, err)
		}
	}
}

// chatParams is the chat request for req, given what the model takes.
func (e *openAIEngine) chatParams(req Request, p Params) openai.ChatCompletionNewParams {
	var msgs []openai.ChatCompletionMessageParamUnion
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
	}
	prompt := req.Prompt
	if req.Schema != nil && p.JSON != JSONSchema {
		prompt += jsonInstruction(req.Schema)
	}
	msgs = append(msgs, openai.UserMessage(prompt))
	params := openai.ChatCompletionNewParams{Model: e.info.Model, Messages: msgs}
	if req.Temperature != nil && !p.DefaultTemperatureOnly {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.Schema != nil {
		switch p.JSON {
		case JSONSchema:
			params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
				OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name: req.Schema.Name, Schema: req.Schema.Schema, Strict: openai.Bool(true),
				}},
			}
		case JSONObject:
			params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
		case JSONPrompt:
		}
	}
	return params
}

// readChat reads a chat completion: the wire says whether the model
// refused, was cut short or was filtered, which no text check could.
func (e *openAIEngine) readChat(req Request, p Params, resp *openai.ChatCompletion) (Answer, error) {
	if len(resp.Choices) == 0 {
		return Answer{}, &CallError{Kind: ErrMalformed, Reason: "the engine's answer had no choices"}
	}
	choice := resp.Choices[0]
	msg := choice.Message
	a := Answer{
		Text: msg.Content, Model: resp.Model,
		InputTokens: int(resp.Usage.PromptTokens), OutputTokens: int(resp.Usage.CompletionTokens),
	}
	spent := Answer{Model: a.Model, InputTokens: a.InputTokens, OutputTokens: a.OutputTokens}
	switch {
	case msg.Refusal != "":
		return spent, &CallError{Kind: ErrRefused, Reason: "the engine refused to answer (the answer's refusal field was set)"}
	case choice.FinishReason == "length":
		return spent, &CallError{Kind: ErrTruncated, Reason: "the engine's answer was cut off at its output token limit"}
	case choice.FinishReason == "content_filter":
		return spent, &CallError{Kind: ErrRefused, Reason: "the engine's content filter withheld the answer"}
	case strings.TrimSpace(a.Text) == "":
		return spent, errEmpty
	case IsRefusal(a.Text):
		return spent, errRefusal
	}
	for _, an := range msg.Annotations {
		if an.URLCitation.URL != "" {
			a.Cited = appendNew(a.Cited, an.URLCitation.URL)
		}
	}
	// Perplexity lists its sources beside the choices: citations are the
	// URLs the answer cites ([1], [2] …); search_results everything the
	// search returned. The older field alone, or the newer alone, is
	// taken as the cited set.
	var extra struct {
		Citations     []string `json:"citations"`
		SearchResults []struct {
			URL string `json:"url"`
		} `json:"search_results"`
	}
	if raw := resp.RawJSON(); strings.Contains(raw, `"citations"`) || strings.Contains(raw, `"search_results"`) {
		if err := json.Unmarshal([]byte(raw), &extra); err != nil {
			return spent, &CallError{Kind: ErrMalformed, Reason: "the engine's citations or search_results are not lists of URLs"}
		}
	}
	citations, results := extra.Citations, extra.SearchResults
	for _, c := range citations {
		a.Cited = appendNew(a.Cited, c)
		a.Retrieved = appendNew(a.Retrieved, c)
	}
	for _, r := range results {
		if r.URL == "" {
			continue
		}
		if len(citations) == 0 {
			a.Cited = appendNew(a.Cited, r.URL)
		}
		a.Retrieved = appendNew(a.Retrieved, r.URL)
	}
	if req.Schema != nil {
		if p.JSON == JSONSchema {
			if !json.Valid([]byte(a.Text)) {
				return spent, errNotJSON
			}
		} else {
			// The engine did not hold the model to the schema: check here.
			text, err := checkJSON(req.Schema, a.Text)
			if err != nil {
				return spent, err
			}
			a.Text = text
		}
	}
	return a, nil
}

func (e *openAIEngine) askResponses(ctx context.Context, req Request) (Answer, error) {
	params := responses.ResponseNewParams{
		Model: e.info.Model,
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(req.Prompt)},
		Tools: []responses.ToolUnionParam{{OfWebSearch: &responses.WebSearchToolParam{Type: responses.WebSearchToolTypeWebSearch}}},
		// The sources the search returned, cited or not.
		Include: []responses.ResponseIncludable{responses.ResponseIncludableWebSearchCallActionSources},
	}
	if req.System != "" {
		params.Instructions = openai.String(req.System)
	}
	resp, err := e.responses.New(ctx, params)
	if err != nil {
		return Answer{}, classify(ctx, err)
	}
	a := Answer{Model: resp.Model, InputTokens: int(resp.Usage.InputTokens), OutputTokens: int(resp.Usage.OutputTokens)}
	spent := a
	switch {
	case resp.Status == responses.ResponseStatusIncomplete && resp.IncompleteDetails.Reason == "content_filter":
		return spent, &CallError{Kind: ErrRefused, Reason: "the engine's content filter withheld the answer"}
	case resp.Status == responses.ResponseStatusIncomplete:
		// max_output_tokens, or a limit the API adds later: either way the
		// text is not the whole answer.
		return spent, &CallError{Kind: ErrTruncated, Reason: "the engine's answer was cut off at its output token limit"}
	case resp.Status == responses.ResponseStatusFailed || resp.Status == responses.ResponseStatusCancelled:
		return spent, &CallError{Kind: ErrStatus, Reason: "the engine reported the response as " + string(resp.Status)}
	}
	var text strings.Builder
	refused := false
	for _, item := range resp.Output {
		switch item.Type {
		case "web_search_call":
			act := item.AsWebSearchCall().Action
			if act.Query != "" {
				a.Queries = appendNew(a.Queries, act.Query)
			}
			for _, q := range act.Queries {
				a.Queries = appendNew(a.Queries, q)
			}
			for _, s := range act.Sources {
				if s.URL != "" {
					a.Retrieved = appendNew(a.Retrieved, s.URL)
				}
			}
		case "message":
			for _, c := range item.Content {
				if c.Type == "refusal" {
					refused = true
				}
				if c.Type != "output_text" {
					continue
				}
				text.WriteString(c.Text)
				for _, an := range c.Annotations {
					if an.Type == "url_citation" && an.URL != "" {
						a.Cited = appendNew(a.Cited, an.URL)
					}
				}
			}
		}
	}
	a.Text = text.String()
	switch {
	case refused && strings.TrimSpace(a.Text) == "":
		return spent, &CallError{Kind: ErrRefused, Reason: "the engine refused to answer (the answer was a refusal item)"}
	case strings.TrimSpace(a.Text) == "":
		return spent, errEmpty
	case IsRefusal(a.Text):
		return spent, errRefusal
	}
	// A cited page was retrieved, whatever the sources list says.
	for _, c := range a.Cited {
		a.Retrieved = appendNew(a.Retrieved, c)
	}
	return a, nil
}

// classify turns a client error into a CallError whose reason names the
// kind and the HTTP status, never the body (which can echo a key).
func classify(ctx context.Context, err error) error {
	timedOut := errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded)
	if (timedOut || errors.Is(err, context.Canceled)) && lastStatus(ctx) == http.StatusTooManyRequests {
		// The client was waiting out a 429's Retry-After when time ran out.
		return &CallError{Kind: ErrRateLimited, Reason: "the engine answered HTTP 429 (rate limited) and the per-call timeout ran out before it took the call"}
	}
	if timedOut {
		return &CallError{Kind: ErrTimeout, Reason: "the engine did not answer within the per-call timeout"}
	}
	if errors.Is(err, context.Canceled) {
		return &CallError{Kind: ErrTimeout, Reason: "the call was cancelled before the engine answered"}
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return statusError(ctx, apiErr.StatusCode)
	}
	if code := lastStatus(ctx); code >= http.StatusBadRequest {
		// An error status whose body is not OpenAI's error object.
		return statusError(ctx, code)
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.Contains(err.Error(), "response json") || strings.Contains(err.Error(), "unmarshal") {
		return &CallError{Kind: ErrMalformed, Reason: "the engine's answer was not valid JSON"}
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return &CallError{Kind: ErrTimeout, Reason: "the engine did not answer within the per-call timeout"}
	}
	return &CallError{Kind: ErrConnect, Reason: "the engine could not be reached"}
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
