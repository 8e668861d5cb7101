package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	geoscan "github.com/geoscan/geoscan"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

func specYAMLBytes() ([]byte, error) { return geoscan.OpenAPIYAML, nil }

// Limits of the JSON guard. No request body of this API nests more than
// three levels or holds more than a few dozen values; the limits leave
// ample room and keep a hostile body's cost at one pass over its bytes.
const (
	maxJSONDepth  = 32
	maxJSONTokens = 10000
)

// nulFieldKey is where the guard leaves the first body field whose string
// holds U+0000, for storableText to refuse after authentication.
const nulFieldKey = "geoscan.nulfield"

// strictJSON refuses request bodies that encoding/json would quietly accept
// but that no client means, and bodies built to exhaust the server, before
// authentication and before anything decodes them: invalid UTF-8 (silently
// replaced by U+FFFD), trailing data after the value, duplicate object keys
// (the last one would win — a classic parser-differential trick), nesting
// deeper than maxJSONDepth and more than maxJSONTokens values. The body
// limit runs before it, so reading the whole body is bounded; the check
// itself is iterative and allocates only for object keys.
func (g *bodyGuard) strictJSON(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if isUpload(c) {
			return next(c) // not JSON: a log the handler streams
		}
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			// The body limit wraps even an absent body, and the request
			// validator copies any body that is not http.NoBody into memory
			// for each security scheme it checks. A length of 0 is a body of
			// none (chunked bodies have -1).
			if r.ContentLength == 0 {
				r.Body = http.NoBody
			}
			return next(c)
		}
		var buf *[]byte
		if r.ContentLength < 0 || r.ContentLength > smallBodyBytes {
			release, err := g.large.acquire(r.Context())
			if err != nil {
				return err
			}
			defer release()
			// The buffer goes back when the request is done: nothing
			// downstream keeps the body's bytes (decoders copy).
			buf = g.buffers.Get().(*[]byte)
			defer g.buffers.Put(buf)
		}
		body, err := readBody(r, buf)
		if err != nil {
			var maxBytes *http.MaxBytesError
			var he *echo.HTTPError // the body limit middleware's
			if errors.As(err, &maxBytes) || (errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge) {
				return apierror.New(apierror.CodeRequestTooLarge, "", "The request body must not exceed %d bytes.", maxBodyBytes)
			}
			// A malformed chunked encoding or a connection that ended
			// early: the body was not what the client meant to send.
			return apierror.New(apierror.CodeInvalidJSON, "", "The request body could not be read: the transfer encoding is malformed or the body ended early.")
		}
		_ = r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if len(bytes.TrimSpace(body)) == 0 {
			return next(c)
		}
		if !utf8.Valid(body) {
			return apierror.New(apierror.CodeInvalidJSON, "", "The request body is not valid UTF-8.")
		}
		nulField, err := checkJSON(body)
		if err != nil {
			return apierror.New(apierror.CodeInvalidJSON, "", "The request body is not valid JSON: %s.", err.Error())
		}
		if nulField != nil {
			c.Set(nulFieldKey, *nulField)
		}
		return next(c)
	}
}

// Bodies above smallBodyBytes (or of unknown length) are read, checked,
// decoded and handled at most maxLargeBodies at a time: a body that passes
// the guard is decoded again by the validator and the handler, so each one
// in flight costs a few times its size, and without this bound a burst of
// large bodies would cost memory in proportion to the burst. Ordinary
// requests are a few hundred bytes and never wait; only /webhooks/verify
// with a large payload needs a large body.
const (
	smallBodyBytes   = 64 << 10
	maxLargeBodies   = 2
	largeBodyMaxWait = 10 * time.Second
)

// bodyGuard holds what strictJSON shares between the requests of one
// server: the gate of large bodies and their buffers.
type bodyGuard struct {
	large gate
	// buffers hold large bodies; one more byte than the limit lets a body
	// that fills the buffer be told from one that ends there.
	buffers sync.Pool
}

func newBodyGuard() *bodyGuard {
	return &bodyGuard{
		large:   newGate(maxLargeBodies),
		buffers: sync.Pool{New: func() any { b := make([]byte, 0, maxBodyBytes+1); return &b }},
	}
}

// gate is a counting semaphore with a bounded wait.
type gate chan struct{}

func newGate(n int) gate { return make(gate, n) }

func (g gate) acquire(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(largeBodyMaxWait)
	defer t.Stop()
	select {
	case g <- struct{}{}:
		return func() { <-g }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		e := apierror.New(apierror.CodeServiceUnavailable, "", "Too many large request bodies are being processed; retry in a few seconds.")
		e.RetryAfter = 1
		return nil, e
	}
}

// readBody reads the whole (size-limited) body into one buffer sized from
// Content-Length when the client sent one, so a large body is not copied
// through a series of growing buffers.
func readBody(r *http.Request, buf *[]byte) ([]byte, error) {
	if buf != nil {
		// Read into the pooled buffer; the body limit (maxBodyBytes) ends
		// the body before the buffer is full.
		b := (*buf)[:0]
		for {
			n, err := r.Body.Read(b[len(b):cap(b)])
			b = b[:len(b)+n]
			if errors.Is(err, io.EOF) {
				return b, nil
			}
			if err != nil {
				return nil, err
			}
			if len(b) == cap(b) {
				return nil, &http.MaxBytesError{Limit: maxBodyBytes}
			}
		}
	}
	if r.ContentLength > 0 && r.ContentLength <= maxBodyBytes {
		// net/http ends the body at Content-Length and reports a shorter
		// one as io.ErrUnexpectedEOF.
		b := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	return io.ReadAll(r.Body)
}

// jsonFrame is one open object or array.
type jsonFrame struct {
	object bool
	keys   map[string]struct{} // keys seen so far (objects)
	key    string              // the current key (objects)
	index  int                 // the current element (arrays)
}

type jsonState int

const (
	wantValue jsonState = iota
	wantKey
	afterValue
)

// checkJSON validates body as exactly one JSON value (RFC 8259) without
// recursion: duplicate keys, trailing data, nesting beyond maxJSONDepth and
// more than maxJSONTokens values are errors. It also returns the path of
// the first string that holds U+0000 (written \u0000), which PostgreSQL
// cannot store, as a dotted field name; body must be valid UTF-8.
func checkJSON(body []byte) (nulField *string, err error) {
	var stack [maxJSONDepth]jsonFrame
	depth, tokens := 0, 0
	state := wantValue
	i := 0
	for {
		i = skipSpace(body, i)
		switch state {
		case wantValue:
			if i >= len(body) {
				return nil, errors.New("unexpected end of input")
			}
			if tokens++; tokens > maxJSONTokens {
				return nil, fmt.Errorf("more than %d values", maxJSONTokens)
			}
			switch ch := body[i]; {
			case ch == '{' || ch == '[':
				if depth == maxJSONDepth {
					return nil, fmt.Errorf("nested deeper than %d levels", maxJSONDepth)
				}
				stack[depth] = jsonFrame{object: ch == '{'}
				depth++
				i = skipSpace(body, i+1)
				if i < len(body) && body[i] == closer(ch == '{') {
					depth--
					i++
					state = afterValue
				} else if ch == '{' {
					state = wantKey
				} else {
					state = wantValue
				}
			case ch == '"':
				end, nul, err := scanString(body, i)
				if err != nil {
					return nil, err
				}
				if nul && nulField == nil {
					p := fieldPath(stack[:depth])
					nulField = &p
				}
				i, state = end, afterValue
			case ch == '-' || (ch >= '0' && ch <= '9'):
				if i, err = scanNumber(body, i); err != nil {
					return nil, err
				}
				state = afterValue
			case ch == 't' || ch == 'f' || ch == 'n':
				if i, err = scanLiteral(body, i); err != nil {
					return nil, err
				}
				state = afterValue
			default:
				return nil, unexpected(body, i, "looking for the beginning of a value")
			}
		case wantKey:
			if i >= len(body) {
				return nil, errors.New("unexpected end of input")
			}
			if body[i] != '"' {
				return nil, unexpected(body, i, "looking for an object key")
			}
			end, nul, err := scanString(body, i)
			if err != nil {
				return nil, err
			}
			key, err := unquote(body[i:end])
			if err != nil {
				return nil, err
			}
			top := &stack[depth-1] //nolint:gosec // wantKey is only set inside an object, so depth >= 1
			if _, dup := top.keys[key]; dup {
				return nil, fmt.Errorf("duplicate key %s", strconv.Quote(key))
			}
			if top.keys == nil {
				top.keys = make(map[string]struct{}, 4)
			}
			top.keys[key] = struct{}{}
			top.key = key
			if nul && nulField == nil {
				p := fieldPath(stack[:depth])
				nulField = &p
			}
			i = skipSpace(body, end)
			if i >= len(body) || body[i] != ':' {
				return nil, unexpected(body, i, "after an object key")
			}
			i++
			state = wantValue
		case afterValue:
			if depth == 0 {
				if i < len(body) {
					return nil, errors.New("unexpected data after the JSON value")
				}
				return nulField, nil
			}
			if i >= len(body) {
				return nil, errors.New("unexpected end of input")
			}
			top := &stack[depth-1] //nolint:gosec // depth >= 1 here, checked above
			switch body[i] {
			case ',':
				i++
				if top.object {
					state = wantKey
				} else {
					top.index++
					state = wantValue
				}
			case closer(top.object):
				i++
				depth--
			default:
				return nil, unexpected(body, i, "after a value")
			}
		}
	}
}

func closer(object bool) byte {
	if object {
		return '}'
	}
	return ']'
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func unexpected(b []byte, i int, where string) error {
	if i >= len(b) {
		return errors.New("unexpected end of input")
	}
	r, _ := utf8.DecodeRune(b[i:])
	return fmt.Errorf("invalid character %s at offset %d %s", strconv.QuoteRune(r), i, where)
}

// scanString scans the string starting at the quote at b[i] and returns the
// offset after its closing quote, and whether it holds an escaped U+0000.
func scanString(b []byte, i int) (end int, nul bool, err error) {
	for j := i + 1; j < len(b); j++ {
		switch ch := b[j]; {
		case ch == '"':
			return j + 1, nul, nil
		case ch == '\\':
			j++
			if j >= len(b) {
				return 0, false, errors.New("unexpected end of input")
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					return 0, false, errors.New("unexpected end of input")
				}
				for _, h := range b[j+1 : j+5] {
					if !isHex(h) {
						return 0, false, fmt.Errorf("invalid \\u escape at offset %d", j-1)
					}
				}
				if string(b[j+1:j+5]) == "0000" {
					nul = true
				}
				j += 4
			default:
				return 0, false, fmt.Errorf("invalid escape at offset %d", j-1)
			}
		case ch < 0x20:
			return 0, false, fmt.Errorf("control character in a string at offset %d", j)
		}
	}
	return 0, false, errors.New("unexpected end of input")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// unquote returns the value of a scanned string; only strings with escapes
// go through the decoder.
func unquote(quoted []byte) (string, error) {
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1 : len(quoted)-1]), nil
	}
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return "", errors.New("invalid string")
	}
	return s, nil
}

// scanNumber scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func scanNumber(b []byte, i int) (int, error) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, unexpected(b, i, "in a number")
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, unexpected(b, j, "after a decimal point")
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, unexpected(b, j, "in an exponent")
		}
		i = j
	}
	return i, nil
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func scanLiteral(b []byte, i int) (int, error) {
	for _, lit := range []string{"true", "false", "null"} {
		if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
			return i + len(lit), nil
		}
	}
	return 0, unexpected(b, i, "looking for the beginning of a value")
}

// fieldPath names the value at the top of the stack the way errors name
// body fields: keys and array indexes joined by dots.
func fieldPath(stack []jsonFrame) string {
	parts := make([]string, 0, len(stack))
	for _, f := range stack {
		if f.object {
			parts = append(parts, f.key)
		} else {
			parts = append(parts, strconv.Itoa(f.index))
		}
	}
	return strings.Join(parts, ".")
}
