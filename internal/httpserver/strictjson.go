package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	geoscan "github.com/geoscan/geoscan"
	"github.com/geoscan/geoscan/internal/apierror"
)

func specYAMLBytes() ([]byte, error) { return geoscan.OpenAPIYAML, nil }

// strictJSON refuses request bodies that encoding/json would quietly accept
// but that no client means: invalid UTF-8 (silently replaced by U+FFFD),
// trailing data after the value, and duplicate object keys (the last one
// would win — a classic parser-differential trick). The body limit runs
// before it, so reading the whole body is bounded.
func strictJSON(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			return next(c)
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var maxBytes *http.MaxBytesError
			if errors.As(err, &maxBytes) {
				return apierror.New(apierror.CodeRequestTooLarge, "", "The request body must not exceed %d bytes.", maxBodyBytes)
			}
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge)
		}
		_ = r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if len(bytes.TrimSpace(body)) == 0 {
			return next(c)
		}
		if !utf8.Valid(body) {
			return apierror.New(apierror.CodeInvalidJSON, "", "The request body is not valid UTF-8.")
		}
		if err := checkJSON(body); err != nil {
			return apierror.New(apierror.CodeInvalidJSON, "", "The request body is not valid JSON: %s.", err.Error())
		}
		return next(c)
	}
}

// checkJSON walks the tokens of one JSON value, rejecting duplicate keys and
// anything after the value.
func checkJSON(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := walkValue(dec); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

func walkValue(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return syntaxError(err)
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch delim {
	case '{':
		seen := map[string]bool{}
		for dec.More() {
			keyTok, err := dec.Token()
			if err != nil {
				return syntaxError(err)
			}
			key, _ := keyTok.(string)
			if seen[key] {
				return errors.New("duplicate key " + strconvQuote(key))
			}
			seen[key] = true
			if err := walkValue(dec); err != nil {
				return err
			}
		}
	case '[':
		for dec.More() {
			if err := walkValue(dec); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return syntaxError(err)
	}
	return nil
}

func syntaxError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("unexpected end of input")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return errors.New(se.Error())
	}
	return err
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
