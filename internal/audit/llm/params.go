package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/openai/openai-go/v3"
)

// The request parameters a model may reject, by their wire names.
const (
	paramTemperature    = "temperature"
	paramResponseFormat = "response_format"
)

// rejectedParam names the parameter a 400 says the model does not take,
// when it is one the request carried and the engine can leave out: the
// error's param field, or its message naming it (servers that leave param
// empty). Anything else is "".
func rejectedParam(err error, req Request, p Params) string {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		return ""
	}
	param := strings.ToLower(apiErr.Param)
	msg := strings.ToLower(apiErr.Message)
	names := func(words ...string) bool {
		for _, w := range words {
			if strings.HasPrefix(param, w) || strings.Contains(msg, w) {
				return true
			}
		}
		return false
	}
	switch {
	case req.Temperature != nil && !p.DefaultTemperatureOnly && names(paramTemperature):
		return paramTemperature
	case req.Schema != nil && p.JSON != JSONPrompt && names(paramResponseFormat, "json_schema", "json_object"):
		return paramResponseFormat
	}
	return ""
}

// mentionsJSONSchema reports whether a rejected response_format was
// rejected for being a JSON schema, so json_object may still work.
func mentionsJSONSchema(err error) bool {
	var apiErr *openai.Error
	return errors.As(err, &apiErr) &&
		(strings.Contains(strings.ToLower(apiErr.Message), "json_schema") || strings.Contains(strings.ToLower(apiErr.Param), "json_schema"))
}

// jsonRank orders the JSON modes from most to least the engine enforces,
// so concurrent calls that learn different things keep the weakest.
func jsonRank(m JSONMode) int {
	switch m {
	case JSONObject:
		return 1
	case JSONPrompt:
		return 2
	}
	return 0
}

// statuses records the HTTP status of every attempt of one call, the
// client's own retry included: a call cut short while the client waits out
// a 429 is then reported as rate limited, and an error status whose body
// the client could not read still names its status.
type statuses struct {
	mu    sync.Mutex
	codes []int
}

type statusesKey struct{}

// recordStatus is client middleware that records each attempt's status in
// the call's statuses.
func recordStatus(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	if st, ok := req.Context().Value(statusesKey{}).(*statuses); ok && res != nil {
		st.mu.Lock()
		st.codes = append(st.codes, res.StatusCode)
		st.mu.Unlock()
	}
	return res, err
}

// lastStatus is the status of the call's last attempt, 0 for none.
func lastStatus(ctx context.Context) int {
	st, ok := ctx.Value(statusesKey{}).(*statuses)
	if !ok {
		return 0
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.codes) == 0 {
		return 0
	}
	return st.codes[len(st.codes)-1]
}

// statusError is the CallError for an HTTP error status.
func statusError(ctx context.Context, code int) error {
	if code != http.StatusTooManyRequests {
		return &CallError{Kind: ErrStatus, Reason: fmt.Sprintf("the engine answered HTTP %d", code)}
	}
	n := 0
	if st, ok := ctx.Value(statusesKey{}).(*statuses); ok {
		st.mu.Lock()
		for _, c := range st.codes {
			if c == http.StatusTooManyRequests {
				n++
			}
		}
		st.mu.Unlock()
	}
	if n > 1 {
		return &CallError{Kind: ErrRateLimited, Reason: "the engine answered HTTP 429 (rate limited), and again when asked once more after the wait it gave"}
	}
	return &CallError{Kind: ErrRateLimited, Reason: "the engine answered HTTP 429 (rate limited)"}
}
