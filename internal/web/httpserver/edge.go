package httpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/geoscan/geoscan/internal/web/apierror"
)

// MaxHeaderBytes is the limit on a request's line and headers that the
// application enforces itself, so the refusal is an ordinary response with
// the envelope and a request id. The HTTP server's own limit
// (ServerMaxHeaderBytes) is set well above it: what exceeds that is refused
// by net/http before any handler runs, and EnvelopeListener rewrites that
// answer.
const (
	MaxHeaderBytes       = 64 << 10
	ServerMaxHeaderBytes = 1 << 20
)

// headerLimit refuses requests whose request line and headers exceed
// MaxHeaderBytes with 431 request_header_too_large.
func headerLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		// The request line and the Host header, as sent.
		n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4 + len("Host: ") + len(r.Host) + 2
		for name, values := range r.Header {
			for _, v := range values {
				n += len(name) + len(": ") + len(v) + 2
			}
		}
		if n > MaxHeaderBytes {
			return apierror.New(apierror.CodeHeaderTooLarge, "", "The request line and headers must not exceed %d bytes.", MaxHeaderBytes)
		}
		return next(c)
	}
}

// rawQueryKey holds the query string as the client sent it: the validator
// rewrites it when it fills in defaults, dropping pairs it cannot read.
const rawQueryKey = "geoscan.rawquery"

// keepRawQuery runs before the validator and keeps the query as sent.
func keepRawQuery(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(rawQueryKey, c.Request().URL.RawQuery)
		return next(c)
	}
}

// storableText refuses, after authentication and validation, text that
// PostgreSQL cannot store or compare: U+0000 in any string of the JSON
// body (found by strictJSON) and U+0000 or invalid UTF-8 in any query or
// path parameter. Every string the API stores or filters with arrives
// through one of these, so no handler has to check.
func storableText(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if field, ok := c.Get(nulFieldKey).(string); ok {
			return apierror.New(apierror.CodeInvalidParameter, field, "%s must not contain the NUL character (U+0000).", nameOr(field, "The body"))
		}
		raw, _ := c.Get(rawQueryKey).(string)
		if name, ok := malformedQuery(raw); ok {
			return apierror.New(apierror.CodeInvalidParameter, name, "The query parameter %s is invalid: the query string has a malformed %%-escape or a semicolon.", name)
		}
		query := c.QueryParams()
		names := make([]string, 0, len(query))
		for name := range query {
			names = append(names, name)
		}
		slices.Sort(names) // the same parameter is named every time
		for _, name := range names {
			for _, v := range query[name] {
				if reason := unstorable(v); reason != "" {
					name = strings.ToValidUTF8(name, "\uFFFD")
					return apierror.New(apierror.CodeInvalidParameter, name, "The query parameter %s is invalid: it %s.", name, reason)
				}
			}
		}
		for i, name := range c.ParamNames() {
			if reason := unstorable(c.ParamValues()[i]); reason != "" {
				return apierror.New(apierror.CodeInvalidParameter, name, "The path parameter %s is invalid: it %s.", name, reason)
			}
		}
		return next(c)
	}
}

// malformedQuery finds the parameter of a query string that
// url.ParseQuery cannot read (a malformed %-escape, a semicolon): Echo and
// the validator drop such a pair silently, so a filter would quietly not
// apply. The name is the one written before the fault, unescaped if it can
// be.
func malformedQuery(raw string) (name string, bad bool) {
	if _, err := url.ParseQuery(raw); err == nil {
		return "", false
	}
	for pair := range strings.SplitSeq(raw, "&") {
		key, value, _ := strings.Cut(pair, "=")
		_, kerr := url.QueryUnescape(key)
		_, verr := url.QueryUnescape(value)
		if kerr == nil && verr == nil && !strings.Contains(pair, ";") {
			continue
		}
		key, _, _ = strings.Cut(key, ";")
		if k, err := url.QueryUnescape(key); err == nil {
			key = k
		}
		return strings.ToValidUTF8(key, "\uFFFD"), true
	}
	return "", true
}

func nameOr(name, fallback string) string {
	if name == "" {
		return fallback
	}
	return name
}

// unstorable says why PostgreSQL's text type cannot hold s, or "".
func unstorable(s string) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return "must not contain the NUL character (U+0000)"
	case !utf8.ValidString(s):
		return "must be valid UTF-8"
	}
	return ""
}

// EnvelopeListener wraps the HTTP listener so that the few answers net/http
// writes itself, before any handler runs, also carry the error envelope: a
// request with no Host header or a malformed request line or header (400),
// headers beyond ServerMaxHeaderBytes (431), a transfer coding other than
// chunked (501) and an HTTP version other than 1.x (505). net/http writes
// each as one plain-text write on the raw connection, with its
// Content-Type before Connection — an order its ordinary responses, whose
// headers are sorted, never have — and then closes the connection.
func EnvelopeListener(ln net.Listener) net.Listener { return envelopeListener{ln} }

type envelopeListener struct{ net.Listener }

func (l envelopeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &envelopeConn{Conn: c}, nil
}

type envelopeConn struct{ net.Conn }

// CloseWrite keeps the half-close net/http uses after refusing oversized
// headers, so the client can read the answer before the connection closes.
func (c *envelopeConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// netHTTPErrorHeaders is the header block of net/http's own error answers.
var netHTTPErrorHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

func (c *envelopeConn) Write(p []byte) (int, error) {
	if len(p) > 512 || !bytes.HasPrefix(p, []byte("HTTP/1.1 ")) || !bytes.Contains(p, netHTTPErrorHeaders) {
		return c.Conn.Write(p)
	}
	status, err := strconv.Atoi(string(p[9:12]))
	if err != nil || status < 400 {
		return c.Conn.Write(p)
	}
	_, text, _ := bytes.Cut(p, netHTTPErrorHeaders)
	if _, err := c.Conn.Write(envelopeResponse(status, string(text))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// envelopeResponse is a whole HTTP/1.1 response carrying the envelope for
// one of net/http's own refusals; text is its plain-text body, a fixed
// phrase that never echoes the request.
func envelopeResponse(status int, text string) []byte {
	var e *apierror.Error
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		e = apierror.New(apierror.CodeHeaderTooLarge, "", "The request line and headers must not exceed %d bytes.", MaxHeaderBytes)
	default:
		detail := strings.TrimSpace(text)
		if _, after, ok := strings.Cut(detail, ": "); ok {
			detail = after
		} else {
			detail = strings.TrimPrefix(detail, strconv.Itoa(status)+" "+http.StatusText(status))
		}
		msg := "The request is not valid HTTP/1.1"
		if detail != "" {
			msg += ": " + strings.ToLower(detail[:1]) + detail[1:]
		}
		e = &apierror.Error{Status: status, Code: apierror.CodeMalformedRequest, Message: msg + "."}
	}
	body, _ := json.Marshal(e.Envelope())
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nX-Request-Id: %s\r\nConnection: close\r\n\r\n",
		status, http.StatusText(status), len(body), uuid.NewString())
	b.Write(body)
	return b.Bytes()
}
