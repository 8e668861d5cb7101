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
	"strings"
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
}

// openAIEngine answers through openai-go against any OpenAI-compatible
// base URL.
type openAIEngine struct {
	info      Info
	searchAPI string
	chat      openai.ChatCompletionService
	responses responses.ResponseService
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
		// One retry for a 429 or 5xx; the per-call timeout bounds both.
		option.WithMaxRetries(1),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &openAIEngine{
		info:      Info{Name: cfg.Name, Host: u.Host, Model: cfg.Model, Capabilities: cfg.Capabilities, Scripted: cfg.Scripted},
		searchAPI: search,
		// The services are built directly rather than through
		// openai.NewClient, which would add OPENAI_ORG_ID, custom headers
		// and the like from the process environment.
		chat:      openai.NewChatCompletionService(opts...),
		responses: responses.NewResponseService(opts...),
	}, nil
}

func (e *openAIEngine) Info() Info { return e.info }

func (e *openAIEngine) Ask(ctx context.Context, req Request) (Answer, error) {
	if req.WebSearch && e.searchAPI == SearchResponses {
		return e.askResponses(ctx, req)
	}
	return e.askChat(ctx, req)
}

func (e *openAIEngine) askChat(ctx context.Context, req Request) (Answer, error) {
	var msgs []openai.ChatCompletionMessageParamUnion
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
	}
	msgs = append(msgs, openai.UserMessage(req.Prompt))
	params := openai.ChatCompletionNewParams{Model: e.info.Model, Messages: msgs}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.Schema != nil {
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name: req.Schema.Name, Schema: req.Schema.Schema, Strict: openai.Bool(true),
			}},
		}
	}
	resp, err := e.chat.New(ctx, params)
	if err != nil {
		return Answer{}, classify(ctx, err)
	}
	if len(resp.Choices) == 0 {
		return Answer{}, &CallError{Kind: ErrMalformed, Reason: "the engine's answer had no choices"}
	}
	msg := resp.Choices[0].Message
	a := Answer{
		Text: msg.Content, Model: resp.Model,
		InputTokens: int(resp.Usage.PromptTokens), OutputTokens: int(resp.Usage.CompletionTokens),
	}
	if a.Text == "" && msg.Refusal != "" {
		a.Text = msg.Refusal
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
			return Answer{}, &CallError{Kind: ErrMalformed, Reason: "the engine's citations or search_results are not lists of URLs"}
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
	if req.Schema != nil && !json.Valid([]byte(a.Text)) {
		return Answer{}, &CallError{Kind: ErrMalformed, Reason: "the engine did not answer with the JSON that was asked for"}
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
	var text strings.Builder
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
	if a.Text == "" {
		return Answer{}, &CallError{Kind: ErrMalformed, Reason: "the engine's answer had no output text"}
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
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &CallError{Kind: ErrTimeout, Reason: "the engine did not answer within the per-call timeout"}
	}
	if errors.Is(err, context.Canceled) {
		return &CallError{Kind: ErrTimeout, Reason: "the call was cancelled before the engine answered"}
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return &CallError{Kind: ErrStatus, Reason: fmt.Sprintf("the engine answered HTTP %d", apiErr.StatusCode)}
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
