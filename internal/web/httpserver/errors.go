package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

// fieldCodes gives body fields the specific codes the specification names
// for them; other fields get the generic ones.
var fieldCodes = map[string]apierror.Code{
	"url":          apierror.CodeInvalidURL,
	"callback_url": apierror.CodeInvalidCallbackURL,
	"frequency":    apierror.CodeInvalidFrequency,
}

var quotedProperty = regexp.MustCompile(`property "([^"]+)"`)

// retryAfterUnavailable is the Retry-After of a 503: long enough for a
// database restart or failover to make progress, short enough that polling
// clients notice the recovery soon.
const retryAfterUnavailable = 5

// statusClientClosed is what the request log records for a request whose
// client went away before the answer (nginx's convention); nothing is sent.
const statusClientClosed = 499

// clientContextKey holds the request's context as the HTTP server made it,
// before any middleware derived one: it ends when the client goes away.
const clientContextKey = "geoscan.clientctx"

// errorHandler renders every error as the envelope; nothing else ever
// reaches a client, but for a share link's 429, which a browser shows: it
// is a page (writeLimitedPage). 500s are logged with the request id and never show the
// underlying error; a 503 is logged as a warning, and a client that went
// away is logged as such rather than as a failure.
func errorHandler(logger *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		ctx := c.Request().Context()
		requestID := responseRequestID(c)
		// A handler cancelled because its client went away has no one
		// left to answer: that is not a failure of the service.
		if clientCtx, ok := c.Get(clientContextKey).(context.Context); ok && errors.Is(err, context.Canceled) && clientCtx.Err() != nil {
			logger.InfoContext(ctx, "client disconnected before the response",
				slog.String("request_id", requestID), slog.String("method", c.Request().Method),
				slog.String("path", redact(c.Request().URL.Path)))
			c.Response().Status = statusClientClosed
			return
		}
		apiErr := toAPIError(err)
		switch apiErr.Code {
		case apierror.CodeInternal:
			logger.ErrorContext(ctx, "request failed",
				slog.String("request_id", requestID), slog.String("method", c.Request().Method),
				slog.String("path", redact(c.Request().URL.Path)), slog.String("error", redact(err.Error())))
			apiErr = apierror.New(apierror.CodeInternal, "", "An unexpected error occurred (request id %s). Please retry.", requestID)
		case apierror.CodeServiceUnavailable:
			logger.WarnContext(ctx, "service unavailable",
				slog.String("request_id", requestID), slog.String("method", c.Request().Method),
				slog.String("path", redact(c.Request().URL.Path)), slog.String("error", redact(err.Error())))
		}
		if apiErr.RetryAfter > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(apiErr.RetryAfter))
		}
		var werr error
		if apiErr.Status == http.StatusTooManyRequests && isSharePage(c.Request().URL.Path) {
			werr = writeLimitedPage(c)
		} else if c.Request().Method == http.MethodHead {
			werr = c.NoContent(apiErr.Status)
		} else {
			werr = c.JSON(apiErr.Status, apiErr.Envelope())
		}
		if werr != nil {
			logger.WarnContext(ctx, "write error response", slog.String("error", werr.Error()))
		}
	}
}

func unavailable(format string, args ...any) *apierror.Error {
	e := apierror.New(apierror.CodeServiceUnavailable, "", format, args...)
	e.RetryAfter = retryAfterUnavailable
	return e
}

// Messages of the generated parameter binders (oapi-codegen), which run
// after validation: a parameter given twice, or a value the binder cannot
// parse (a date-time, for one). Both are the parameter's fault.
var (
	binderRepeated = regexp.MustCompile(`^Expected one value for (\S+), got (\d+)`)
	binderFormat   = regexp.MustCompile(`^Invalid format for parameter (\S+): (.*)`)
)

func toAPIError(err error) *apierror.Error {
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	var reqErr *openapi3filter.RequestError
	if errors.As(err, &reqErr) {
		return fromRequestError(reqErr)
	}
	var maxBytes *http.MaxBytesError
	if errors.As(err, &maxBytes) {
		return apierror.New(apierror.CodeRequestTooLarge, "", "The request body must not exceed %d bytes.", maxBodyBytes)
	}
	if store.Unavailable(err) {
		return unavailable("The database is unavailable; retry in a few seconds.")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return unavailable("The request did not complete in time; retry in a few seconds.")
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := fmt.Sprint(he.Message)
		switch he.Code {
		case http.StatusNotFound:
			return apierror.New(apierror.CodeRouteNotFound, "", "No endpoint matches this path.")
		case http.StatusMethodNotAllowed:
			return apierror.New(apierror.CodeMethodNotAllowed, "", "This endpoint does not accept this method.")
		case http.StatusRequestEntityTooLarge:
			return apierror.New(apierror.CodeRequestTooLarge, "", "The request body must not exceed %d bytes.", maxBodyBytes)
		case http.StatusServiceUnavailable:
			return unavailable("The service is unavailable; retry in a few seconds.")
		case http.StatusBadRequest:
			if m := binderRepeated.FindStringSubmatch(msg); m != nil {
				return parameterError(m[1], "must be given once, not %s times", m[2])
			}
			if m := binderFormat.FindStringSubmatch(msg); m != nil {
				return parameterError(m[1], "%s", binderReason(m[2]))
			}
			return apierror.New(apierror.CodeInvalidJSON, "", "The request could not be read: %s.", strings.TrimSuffix(msg, "."))
		case http.StatusUnsupportedMediaType:
			return apierror.New(apierror.CodeInvalidJSON, "", "The request could not be read: %s.", strings.TrimSuffix(msg, "."))
		}
	}
	return &apierror.Error{Status: http.StatusInternalServerError, Code: apierror.CodeInternal, Message: err.Error()}
}

// parameterError is a query, header or path parameter the binder refused.
func parameterError(name, format string, args ...any) *apierror.Error {
	return apierror.New(apierror.CodeInvalidParameter, name, "The parameter %s is invalid: %s.", name, fmt.Sprintf(format, args...))
}

// binderReason turns a binder's error into a reason a client can act on,
// without echoing the value.
func binderReason(detail string) string {
	switch {
	case strings.Contains(detail, "multiple values"):
		return "it must be given once"
	case strings.Contains(detail, "parsing time"), strings.Contains(detail, "time"):
		return "it must be an RFC 3339 date-time such as 2026-01-02T15:04:05Z"
	case strings.Contains(detail, "invalid syntax"), strings.Contains(detail, "out of range"):
		return "it is not a number in range"
	}
	return "it does not have the expected format"
}

// fromRequestError maps what the validator refused. A parameter that breaks
// its schema is 422 invalid_parameter wherever it is, in the path too: an
// id that is not a UUID is the request's mistake, not a resource that
// does not exist, and the contract's 404s say "no such resource".
func fromRequestError(re *openapi3filter.RequestError) *apierror.Error {
	if re.Parameter != nil {
		name := re.Parameter.Name
		if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) {
			return apierror.New(apierror.CodeMissingParameter, name, "The %s parameter %s is required.", re.Parameter.In, name)
		}
		if isUUIDParameter(re.Parameter) {
			return apierror.New(apierror.CodeInvalidParameter, name, "The %s parameter %s must be a UUID such as %s.", re.Parameter.In, name, exampleUUID)
		}
		return apierror.New(apierror.CodeInvalidParameter, name, "The %s parameter %s is invalid: %s.", re.Parameter.In, name, reason(re.Err))
	}
	if re.RequestBody == nil {
		return apierror.New(apierror.CodeInvalidJSON, "", "The request could not be read: %s.", reason(re.Err))
	}
	if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) {
		return apierror.New(apierror.CodeInvalidJSON, "", "A JSON request body is required.")
	}
	var se *openapi3.SchemaError
	if !errors.As(re.Err, &se) {
		return apierror.New(apierror.CodeInvalidJSON, "", "The request body is not valid JSON of content type application/json.")
	}
	pointer := se.JSONPointer()
	switch {
	case strings.HasSuffix(se.Reason, "is unsupported"):
		// additionalProperties: false; kin-openapi reports it from the parent
		// object, naming the property only in the reason.
		name := propertyName(se.Reason)
		return apierror.New(apierror.CodeUnknownParameter, joinParam(pointer, name), "%s is not a field of this request.", joinParam(pointer, name))
	}
	switch se.SchemaField {
	case "required":
		name := propertyName(se.Reason)
		return apierror.New(apierror.CodeMissingParameter, joinParam(pointer, name), "%s is required.", joinParam(pointer, name))
	case "minProperties":
		if len(pointer) == 0 {
			return apierror.New(apierror.CodeInvalidParameter, "", "The request body must contain at least one field.")
		}
	}
	if len(pointer) == 0 {
		return apierror.New(apierror.CodeInvalidJSON, "", "The request body must be a JSON object.")
	}
	param := joinParam(pointer, "")
	code := apierror.CodeInvalidParameter
	if c, ok := fieldCodes[param]; ok {
		code = c
	}
	return apierror.New(code, param, "%s is invalid: %s.", param, strings.TrimSuffix(se.Reason, "."))
}

func propertyName(reason string) string {
	if m := quotedProperty.FindStringSubmatch(reason); m != nil {
		return m[1]
	}
	return ""
}

// joinParam names a body field by its dotted path; name is appended unless
// the pointer already ends with it (kin-openapi points at missing fields).
func joinParam(pointer []string, name string) string {
	parts := append([]string{}, pointer...)
	if name != "" && (len(parts) == 0 || parts[len(parts)-1] != name) {
		parts = append(parts, name)
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ".")
}

// exampleUUID shows the form a uuid parameter takes; the value sent is not
// echoed, as it may be anything.
const exampleUUID = "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"

// isUUIDParameter reports a parameter declared as a string of format uuid.
func isUUIDParameter(p *openapi3.Parameter) bool {
	return p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Format == "uuid"
}

func reason(err error) string {
	if err == nil {
		return "invalid value"
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return strings.TrimSuffix(se.Reason, ".")
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimSuffix(msg, ".")
}

var (
	keyPattern   = regexp.MustCompile(`geo_[0-9A-Za-z]{4,}`)
	tokenPattern = regexp.MustCompile(`gss_[0-9A-Za-z_-]+`)
)

// redact removes anything shaped like an API key or a share link's token
// from text bound for logs.
func redact(s string) string {
	// Every request's path comes here; most hold neither.
	if strings.Contains(s, "geo_") {
		s = keyPattern.ReplaceAllString(s, "geo_[redacted]")
	}
	if strings.Contains(s, "gss_") {
		s = tokenPattern.ReplaceAllString(s, "gss_[redacted]")
	}
	return s
}
