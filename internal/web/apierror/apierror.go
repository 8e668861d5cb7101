// Package apierror owns the error envelope every failed API response uses and
// the catalogue of error codes: code → type → HTTP status. Handlers and
// middleware build errors here; the HTTP error handler renders them.
package apierror

import (
	"fmt"
	"net/http"
)

// Type is the class of an error, fixed by its HTTP status.
type Type string

// The error types of the API.
const (
	TypeInvalidRequest Type = "invalid_request"
	TypeAuthentication Type = "authentication_error"
	TypeBilling        Type = "billing_error"
	TypeNotFound       Type = "not_found"
	TypeRateLimit      Type = "rate_limit_error"
	TypeAPI            Type = "api_error"
)

// Code is a stable snake_case error code clients branch on.
type Code string

// The error codes of the API. The catalogue below gives each its status.
const (
	CodeInvalidJSON          Code = "invalid_json"
	CodeScanNotComplete      Code = "scan_not_complete"
	CodeAPIKeyRequired       Code = "api_key_required"
	CodeAPIKeyInvalid        Code = "api_key_invalid"
	CodeSubscriptionRequired Code = "subscription_required"
	CodeScanNotFound         Code = "scan_not_found"
	CodeCheckNotFound        Code = "check_not_found"
	CodePageNotFound         Code = "page_not_found"
	CodeTriageNotAvailable   Code = "triage_not_available"
	CodeScheduleNotFound     Code = "schedule_not_found"
	CodeShareNotFound        Code = "share_not_found"
	CodeRouteNotFound        Code = "route_not_found"
	CodeMethodNotAllowed     Code = "method_not_allowed"
	CodeScanNotFinished      Code = "scan_not_finished"
	CodeCallbackNotSet       Code = "callback_not_configured"
	CodeRequestTooLarge      Code = "request_too_large"
	CodeInvalidURL           Code = "invalid_url"
	CodeInvalidCallbackURL   Code = "invalid_callback_url"
	CodeInvalidFrequency     Code = "invalid_frequency"
	CodeNotHomepage          Code = "not_homepage"
	CodeScheduleLimitReached Code = "schedule_limit_reached"
	CodeMissingParameter     Code = "missing_parameter"
	CodeInvalidParameter     Code = "invalid_parameter"
	CodeUnknownParameter     Code = "unknown_parameter"
	CodeIdempotencyKeyReused Code = "idempotency_key_reused"
	CodeOrgRateLimit         Code = "org_rate_limit_exceeded"
	CodeIPRateLimit          Code = "ip_rate_limit_exceeded"
	CodeInternal             Code = "internal_error"
	CodeServiceUnavailable   Code = "service_unavailable"
	CodeHeaderTooLarge       Code = "request_header_too_large"
	CodeMalformedRequest     Code = "malformed_request"
	CodeOwnerRequired        Code = "owner_required"
	CodeCrawlerLogNotFound   Code = "crawler_log_not_found"
	CodeUnsupportedMedia     Code = "unsupported_media_type"
)

// Catalogue maps every code to its HTTP status. Docs and tests iterate it.
var Catalogue = map[Code]int{
	CodeInvalidJSON:          http.StatusBadRequest,
	CodeScanNotComplete:      http.StatusBadRequest,
	CodeAPIKeyRequired:       http.StatusUnauthorized,
	CodeAPIKeyInvalid:        http.StatusUnauthorized,
	CodeSubscriptionRequired: http.StatusPaymentRequired,
	CodeScanNotFound:         http.StatusNotFound,
	CodeCheckNotFound:        http.StatusNotFound,
	CodePageNotFound:         http.StatusNotFound,
	CodeTriageNotAvailable:   http.StatusNotFound,
	CodeScheduleNotFound:     http.StatusNotFound,
	CodeShareNotFound:        http.StatusNotFound,
	CodeRouteNotFound:        http.StatusNotFound,
	CodeMethodNotAllowed:     http.StatusMethodNotAllowed,
	CodeScanNotFinished:      http.StatusConflict,
	CodeCallbackNotSet:       http.StatusConflict,
	CodeRequestTooLarge:      http.StatusRequestEntityTooLarge,
	CodeInvalidURL:           http.StatusUnprocessableEntity,
	CodeInvalidCallbackURL:   http.StatusUnprocessableEntity,
	CodeInvalidFrequency:     http.StatusUnprocessableEntity,
	CodeNotHomepage:          http.StatusUnprocessableEntity,
	CodeScheduleLimitReached: http.StatusUnprocessableEntity,
	CodeMissingParameter:     http.StatusUnprocessableEntity,
	CodeInvalidParameter:     http.StatusUnprocessableEntity,
	CodeUnknownParameter:     http.StatusUnprocessableEntity,
	CodeIdempotencyKeyReused: http.StatusUnprocessableEntity,
	CodeOrgRateLimit:         http.StatusTooManyRequests,
	CodeIPRateLimit:          http.StatusTooManyRequests,
	CodeInternal:             http.StatusInternalServerError,
	CodeServiceUnavailable:   http.StatusServiceUnavailable,
	CodeHeaderTooLarge:       http.StatusRequestHeaderFieldsTooLarge,
	CodeMalformedRequest:     http.StatusBadRequest,
	CodeOwnerRequired:        http.StatusForbidden,
	CodeCrawlerLogNotFound:   http.StatusNotFound,
	CodeUnsupportedMedia:     http.StatusUnsupportedMediaType,
}

// TypeForStatus gives the error type of an HTTP status.
func TypeForStatus(status int) Type {
	switch {
	case status == http.StatusUnauthorized:
		return TypeAuthentication
	case status == http.StatusPaymentRequired:
		return TypeBilling
	case status == http.StatusNotFound:
		return TypeNotFound
	case status == http.StatusTooManyRequests:
		return TypeRateLimit
	case status >= 500:
		return TypeAPI
	default:
		return TypeInvalidRequest
	}
}

// Error is an API error: it is returned by handlers and middleware and
// rendered as the envelope by the HTTP error handler.
type Error struct {
	Status  int
	Code    Code
	Message string
	Param   string // empty renders as null
	// RetryAfter, when positive, is sent as the Retry-After header (seconds).
	RetryAfter int
}

func (e *Error) Error() string {
	if e.Param != "" {
		return fmt.Sprintf("%s (%s): %s", e.Code, e.Param, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// New builds an error whose status comes from the catalogue.
func New(code Code, param string, format string, args ...any) *Error {
	status, ok := Catalogue[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...), Param: param}
}

// Envelope is the JSON body of every error response.
type Envelope struct {
	Error Body `json:"error"`
}

// Body is the inside of the envelope; Param is null when no input is at fault.
type Body struct {
	Type    Type    `json:"type"`
	Code    Code    `json:"code"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
}

// Envelope renders e as its response body.
func (e *Error) Envelope() Envelope {
	var param *string
	if e.Param != "" {
		p := e.Param
		param = &p
	}
	return Envelope{Error: Body{Type: TypeForStatus(e.Status), Code: e.Code, Message: e.Message, Param: param}}
}
