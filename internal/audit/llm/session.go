package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"sync"
	"time"
)

// Limits bound the AI layer's calls.
type Limits struct {
	// Runs is how often each non-branded and branded probe is asked.
	Runs int
	// CallTimeout bounds one call, a retry included.
	CallTimeout time.Duration
	// MaxCalls and MaxTokens bound one scan; cached answers are free.
	MaxCalls  int
	MaxTokens int
	// Concurrency is how many calls of one scan are in flight at once.
	Concurrency int
}

// DefaultLimits are the defaults of the configuration table.
var DefaultLimits = Limits{Runs: 4, CallTimeout: 30 * time.Second, MaxCalls: 80, MaxTokens: 100_000, Concurrency: 16}

// Cache keeps answers for a day, as the JSON the session encodes them to:
// the cache stores bytes, so its implementation (the store) needs none of
// this package's types. Implementations must be safe for concurrent use;
// an error is treated as a miss.
type Cache interface {
	GetAnswer(ctx context.Context, key string, day time.Time) (answer []byte, ok bool, err error)
	PutAnswer(ctx context.Context, key string, day time.Time, engine, model string, answer []byte) error
}

// Layer is the configured AI layer of a process: the default engine (which
// judges, extracts and writes summaries), the engines asked about the
// brand, the limits and the cache.
type Layer struct {
	Default Engine
	// Engines are asked the mention probes; the default engine is one of
	// them.
	Engines []Engine
	Limits  Limits
	Cache   Cache
	Logger  *slog.Logger
	// Secrets are redacted from anything logged (the engines' keys).
	Secrets []string
}

// Enabled reports whether any engine is configured.
func (l *Layer) Enabled() bool { return l != nil && l.Default != nil }

// Session starts the calls of one scan made on day (UTC date).
func (l *Layer) Session(day time.Time) *Session {
	lim := l.Limits
	if lim.Concurrency <= 0 {
		lim.Concurrency = DefaultLimits.Concurrency
	}
	if lim.CallTimeout <= 0 {
		lim.CallTimeout = DefaultLimits.CallTimeout
	}
	if lim.Runs <= 0 {
		lim.Runs = DefaultLimits.Runs
	}
	y, m, d := day.UTC().Date()
	return &Session{
		layer: l, limits: lim, day: time.Date(y, m, d, 0, 0, 0, 0, time.UTC),
		slots: make(chan struct{}, lim.Concurrency), usage: map[string]*PurposeUsage{},
		flights: map[string]*flight{},
	}
}

// Session is the AI layer within one scan. Its methods are safe for
// concurrent use.
type Session struct {
	layer  *Layer
	limits Limits
	day    time.Time
	slots  chan struct{}

	mu       sync.Mutex
	calls    int // made or in flight
	reserved int // tokens used or reserved by calls in flight
	usage    map[string]*PurposeUsage
	flights  map[string]*flight
}

// Runs is the number of runs per probe.
func (s *Session) Runs() int { return s.limits.Runs }

// Limits are the session's limits, defaults filled in.
func (s *Session) Limits() Limits { return s.limits }

// Day is the date the session's cache entries belong to.
func (s *Session) Day() time.Time { return s.day }

// Layer is the session's layer.
func (s *Session) Layer() *Layer { return s.layer }

// PurposeUsage counts the calls made for one purpose (a check, summaries).
type PurposeUsage struct {
	Calls        int `json:"calls"`
	CacheHits    int `json:"cache_hits"`
	Errors       int `json:"errors"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Usage is what a session spent, by purpose.
type Usage struct {
	ByPurpose map[string]PurposeUsage `json:"by_purpose"`
	Calls     int                     `json:"calls"`
	CacheHits int                     `json:"cache_hits"`
	Tokens    int                     `json:"tokens"`
	MaxCalls  int                     `json:"max_calls"`
	MaxTokens int                     `json:"max_tokens"`
}

// Usage reports the session's spending so far.
func (s *Session) Usage() Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := Usage{ByPurpose: map[string]PurposeUsage{}, MaxCalls: s.limits.MaxCalls, MaxTokens: s.limits.MaxTokens}
	keys := make([]string, 0, len(s.usage))
	for k := range s.usage {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := *s.usage[k]
		u.ByPurpose[k] = p
		u.Calls += p.Calls
		u.CacheHits += p.CacheHits
		u.Tokens += p.InputTokens + p.OutputTokens
	}
	return u
}

// Result is one answered (or failed) call.
type Result struct {
	Answer Answer
	Cached bool
	Err    error
}

// Estimate is the tokens a call of req is assumed to take until it
// reports its real usage: the prompt at about four characters a token,
// plus room for an answer. A plan made before any call counts with it.
func Estimate(req Request) int { return (len(req.System)+len(req.Prompt))/4 + 600 }

// Ask asks e, for a purpose (the check or output it serves), the run-th
// time. A cached answer of the same engine, model, request and run from
// the same day is returned without a call; otherwise the call waits for a
// slot, counts against the budget and is cached when it succeeds. An
// answer that is empty, a refusal, cut short or malformed is an error
// (see checkAnswer), from any engine: counted as one, never cached, and
// a cached one is asked again.
//
// Within one session a request is asked at most once: a second Ask of the
// same engine, request and run waits for the first and gets its result, so
// which of two identical requests comes first (two engines' identical
// descriptions judged, say) changes nothing the scan reports.
func (s *Session) Ask(ctx context.Context, purpose string, e Engine, req Request, run int) Result {
	key := CacheKey(e.Info(), req, run, s.day)
	s.mu.Lock()
	if f, ok := s.flights[key]; ok {
		s.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			s.count(purpose, func(p *PurposeUsage) { p.Errors++ })
			return Result{Err: &CallError{Kind: ErrTimeout, Reason: "the scan ran out of time before the call could start"}}
		}
		s.count(purpose, func(p *PurposeUsage) { p.CacheHits++ }) // no call was made for it
		return f.res
	}
	f := &flight{done: make(chan struct{})}
	s.flights[key] = f
	s.mu.Unlock()
	f.res = s.ask(ctx, purpose, e, req, key)
	close(f.done)
	return f.res
}

// flight is a request of the session, asked or being asked.
type flight struct {
	done chan struct{}
	res  Result
}

// ask answers a request from the cache or the engine.
func (s *Session) ask(ctx context.Context, purpose string, e Engine, req Request, key string) Result {
	if c := s.layer.Cache; c != nil {
		a, ok, err := getCached(ctx, c, key, s.day)
		switch {
		case err != nil:
			s.log(ctx, "answer cache read failed", e, slog.String("error", s.redact(err.Error())))
		case ok && checkAnswer(req, a) == nil:
			s.count(purpose, func(p *PurposeUsage) { p.CacheHits++ })
			return Result{Answer: a, Cached: true}
		}
	}
	est := Estimate(req)
	if err := s.reserve(est); err != nil {
		s.count(purpose, func(p *PurposeUsage) { p.Errors++ })
		return Result{Err: err}
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		s.release(est, 0, false)
		s.count(purpose, func(p *PurposeUsage) { p.Errors++ })
		return Result{Err: &CallError{Kind: ErrTimeout, Reason: "the scan ran out of time before the call could start"}}
	}
	cctx, cancel := context.WithTimeout(ctx, s.limits.CallTimeout)
	start := time.Now()
	a, err := e.Ask(cctx, req)
	cancel()
	<-s.slots
	if err == nil {
		err = checkAnswer(req, a)
	}
	if err != nil {
		// An answer that could not be used still spent its tokens.
		s.release(est, a.InputTokens+a.OutputTokens, true)
		s.count(purpose, func(p *PurposeUsage) {
			p.Calls++
			p.Errors++
			p.InputTokens += a.InputTokens
			p.OutputTokens += a.OutputTokens
		})
		s.log(ctx, "engine call failed", e, slog.String("purpose", purpose), slog.String("kind", Kind(err)),
			slog.String("reason", s.redact(Reason(err))), slog.Int64("ms", time.Since(start).Milliseconds()))
		return Result{Err: err}
	}
	s.release(est, a.InputTokens+a.OutputTokens, true)
	s.count(purpose, func(p *PurposeUsage) {
		p.Calls++
		p.InputTokens += a.InputTokens
		p.OutputTokens += a.OutputTokens
	})
	if c := s.layer.Cache; c != nil {
		// The cache outlives the scan's context only as long as a write.
		wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		if err := putCached(wctx, c, key, s.day, e.Info(), a); err != nil {
			s.log(ctx, "answer cache write failed", e, slog.String("error", s.redact(err.Error())))
		}
		wcancel()
	}
	return Result{Answer: a}
}

// getCached reads and decodes a cached answer.
func getCached(ctx context.Context, c Cache, key string, day time.Time) (Answer, bool, error) {
	raw, ok, err := c.GetAnswer(ctx, key, day)
	if err != nil || !ok {
		return Answer{}, false, err
	}
	var a Answer
	if err := json.Unmarshal(raw, &a); err != nil {
		return Answer{}, false, fmt.Errorf("decode cached answer: %w", err)
	}
	return a, true, nil
}

// putCached encodes and caches an answer.
func putCached(ctx context.Context, c Cache, key string, day time.Time, info Info, a Answer) error {
	raw, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("encode answer: %w", err)
	}
	return c.PutAnswer(ctx, key, day, info.Name, info.Model, raw)
}

// reserve takes one call and an estimate of tokens from the budget.
func (s *Session) reserve(tokens int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.MaxCalls > 0 && s.calls >= s.limits.MaxCalls {
		return &CallError{Kind: ErrBudget, Reason: "the scan's budget of " + strconv.Itoa(s.limits.MaxCalls) + " engine calls was spent"}
	}
	if s.limits.MaxTokens > 0 && s.reserved+tokens > s.limits.MaxTokens {
		return &CallError{Kind: ErrBudget, Reason: "the scan's budget of " + strconv.Itoa(s.limits.MaxTokens) + " tokens was spent"}
	}
	s.calls++
	s.reserved += tokens
	return nil
}

// release replaces a reservation by what the call really used; a call
// that was never made gives its call back.
func (s *Session) release(estimated, used int, made bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reserved += used - estimated
	if !made {
		s.calls--
	}
}

func (s *Session) count(purpose string, f func(*PurposeUsage)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.usage[purpose]
	if p == nil {
		p = &PurposeUsage{}
		s.usage[purpose] = p
	}
	f(p)
}

func (s *Session) log(ctx context.Context, msg string, e Engine, attrs ...slog.Attr) {
	if s.layer.Logger == nil {
		return
	}
	info := e.Info()
	attrs = append(attrs, slog.String("engine", info.Name), slog.String("engine_host", info.Host), slog.String("model", info.Model))
	s.layer.Logger.LogAttrs(ctx, slog.LevelWarn, msg, attrs...)
}

// redact removes the configured keys from a text.
func (s *Session) redact(text string) string { return Redact(text, s.layer.Secrets) }

// CacheKey identifies an answer: the engine (name, host, model), the whole
// request (its language included), the run index and the day. Keys are
// never part of it. An English request ("" or "en") adds no part for its
// language, so English keys are those of answers cached before requests
// had one.
func CacheKey(info Info, req Request, run int, day time.Time) string {
	var temp string
	if req.Temperature != nil {
		temp = strconv.FormatFloat(*req.Temperature, 'g', -1, 64)
	}
	var schema []byte
	if req.Schema != nil {
		schema, _ = json.Marshal(req.Schema.Schema)
	}
	parts := []string{
		info.Name, info.Host, info.Model, req.System, req.Prompt, temp, strconv.FormatBool(req.WebSearch),
		string(schema), strconv.Itoa(run), day.UTC().Format(time.DateOnly),
	}
	if req.Language != "" && req.Language != "en" {
		parts = append(parts, "language:"+req.Language)
	}
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p))))
		h.Write([]byte{':'})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// MemoryCache is a Cache in memory, for tests and one-off runs.
type MemoryCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

// GetAnswer implements Cache.
func (c *MemoryCache) GetAnswer(_ context.Context, key string, _ time.Time) ([]byte, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.m[key]
	return a, ok, nil
}

// PutAnswer implements Cache.
func (c *MemoryCache) PutAnswer(_ context.Context, key string, _ time.Time, _, _ string, a []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	c.m[key] = a
	return nil
}

// Len is the number of cached answers.
func (c *MemoryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
