package httpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"
)

func TestCheckJSON(t *testing.T) {
	t.Parallel()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		body string
		ok   bool
		nul  string // the field named for U+0000, "-" for none
	}{
		{`{"a":1}`, true, "-"},
		{`{"a":{"b":[1,{"c":2}]}}`, true, "-"},
		{" \t\r\n{\"a\":1} \r\n", true, "-"},
		{`[{"a":1},{"a":1}]`, true, "-"},
		{`"text"`, true, "-"},
		{`-0.5e+10`, true, "-"},
		{`[true,false,null,0,-1,1.25,1E3,"\"\\\/\b\f\n\r\t\u00e9"]`, true, "-"},
		{`{}`, true, "-"},
		{`[]`, true, "-"},
		{deep(maxJSONDepth), true, "-"},
		{`{"brand_name":"a\u0000b"}`, true, "brand_name"},
		{`{"a":{"b":[1,"x","\u0000"]}}`, true, "a.b.2"},
		{`{"a\u0000":1}`, true, "a\x00"},
		{`{"a":"\\u0000"}`, true, "-"}, // an escaped backslash, then text
		{`{"a":1,"a":2}`, false, ""},
		{`{"a":1,"\u0061":2}`, false, ""}, // the same key, escaped
		{`{"a":{"b":1,"b":2}}`, false, ""},
		{`{"a":1}{}`, false, ""},
		{`{"a":1} x`, false, ""},
		{`{"a":1`, false, ""},
		{`{"a":tru}`, false, ""},
		{`{"a":truex}`, false, ""},
		{`{"a":01}`, false, ""},
		{`{"a":1.}`, false, ""},
		{`{"a":1e}`, false, ""},
		{`{"a":-}`, false, ""},
		{`{"a":+1}`, false, ""},
		{`{"a":.5}`, false, ""},
		{`{"a":1,}`, false, ""},
		{`[1,]`, false, ""},
		{`[,1]`, false, ""},
		{`{,}`, false, ""},
		{`{"a" 1}`, false, ""},
		{`{a:1}`, false, ""},
		{`{'a':1}`, false, ""},
		{"{\"a\":\"x\ty\"}", false, ""}, // a raw control character
		{`{"a":"\x"}`, false, ""},
		{`{"a":"\u12"}`, false, ""},
		{`{"a":"\u12G4"}`, false, ""},
		{`{"a":"unterminated}`, false, ""},
		{`[`, false, ""},
		{`]`, false, ""},
		{`}`, false, ""},
		{``, false, ""},
		{deep(maxJSONDepth + 1), false, ""},
		{"[" + strings.Repeat("1,", maxJSONTokens) + "1]", false, ""},
	} {
		nul, err := checkJSON([]byte(tc.body))
		if !tc.ok {
			require.Error(t, err, "%.80q", tc.body)
			continue
		}
		require.NoError(t, err, "%.80q", tc.body)
		if tc.nul == "-" {
			require.Nil(t, nul, tc.body)
		} else {
			require.NotNil(t, nul, tc.body)
			require.Equal(t, tc.nul, *nul, tc.body)
		}
		// What the guard accepts, encoding/json accepts too.
		require.True(t, json.Valid([]byte(tc.body)), tc.body)
	}
}

// hostileBodies are just under the 1 MiB body limit, each built to cost a
// naive parser memory or time: deep nesting, huge arrays and objects,
// duplicate keys at the very end, long strings and escapes.
func hostileBodies() map[string][]byte {
	const size = 990_000
	fill := func(prefix, unit, suffix string) []byte {
		n := (size - len(prefix) - len(suffix)) / len(unit)
		return []byte(prefix + strings.Repeat(unit, n) + suffix)
	}
	var keys strings.Builder
	keys.WriteString("{")
	for i := 0; keys.Len() < size-40; i++ {
		fmt.Fprintf(&keys, `"k%d":0,`, i)
	}
	keys.WriteString(`"k0":1}`)
	var dup strings.Builder
	dup.WriteString(`{"pad":"` + strings.Repeat("a", size-60_000) + `",`)
	for i := range maxJSONTokens/2 - 10 {
		fmt.Fprintf(&dup, `"k%d":0,`, i)
	}
	dup.WriteString(`"k0":1}`)
	return map[string][]byte{
		"open brackets":      fill("", "[", ""),
		"open braces":        fill("", `{"a":`, ""),
		"balanced nesting":   append(fill("", "[", ""), bytes.Repeat([]byte("]"), size)...)[:size],
		"mixed nesting":      fill("", `[{"a":`, ""),
		"huge array":         fill("[", "1,", "1]"),
		"huge array of {}":   fill("[", "{},", "{}]"),
		"many keys, dup end": []byte(keys.String()),
		"dup after padding":  []byte(dup.String()),
		"long string":        fill(`{"url":"`, "a", `"}`),
		"long escapes":       fill(`{"url":"`, `\u00e9`, `"}`),
		"whitespace":         fill("", " ", "{}"),
	}
}

// TestHostileBodiesCostLittle bounds what the guard allocates for each
// hostile body: it must not grow with the nesting or the number of values.
// Not parallel: it reads process-wide allocation counters.
func TestHostileBodiesCostLittle(t *testing.T) {
	for name, body := range hostileBodies() {
		var err error
		allocs := testing.AllocsPerRun(3, func() { _, err = checkJSON(body) })
		bytesPerRun := allocatedBy(func() { _, _ = checkJSON(body) })
		switch name {
		case "long string", "long escapes", "whitespace":
			require.NoError(t, err, name)
		default:
			require.Error(t, err, name)
		}
		t.Logf("%-20s %4.0f allocations, %7d bytes: %v", name, allocs, bytesPerRun, err)
		limit := uint64(64 << 10)
		if strings.HasPrefix(name, "many keys") || strings.HasPrefix(name, "dup") {
			// One map entry per key up to the token budget.
			limit = 2 << 20
		}
		require.LessOrEqual(t, bytesPerRun, limit, "%s: the guard allocated %d bytes", name, bytesPerRun)
	}
}

// allocatedBy is how many bytes of heap fn allocates.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileBodiesThroughTheGuard sends sixteen hostile bodies at once
// through the middleware as the server runs it and checks the envelope of
// each answer and that the requests together allocate about their bodies'
// size (the body is read once), not a multiple of it.
// Not parallel: it reads process-wide allocation counters.
func TestHostileBodiesThroughTheGuard(t *testing.T) {
	e := echo.New()
	e.HTTPErrorHandler = errorHandler(slog.New(slog.NewTextHandler(io.Discard, nil)))
	reached := false
	e.POST("/x", func(c echo.Context) error { reached = true; return c.NoContent(http.StatusNoContent) }, newBodyGuard().strictJSON)

	bodies := hostileBodies()
	body := bodies["open brackets"]
	var wg sync.WaitGroup
	results := make([]*httptest.ResponseRecorder, 16)
	total := allocatedBy(func() {
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := httptest.NewRecorder()
				req := httptest.NewRequest(http.MethodPost, "/x", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				e.ServeHTTP(rec, req)
				results[i] = rec
			}()
		}
		wg.Wait()
	})
	for _, rec := range results {
		require.Equal(t, http.StatusBadRequest, rec.Code, rec.Body.String())
		requireEnvelope(t, rec.Body.Bytes(), "invalid_json")
		require.Contains(t, rec.Body.String(), "nested deeper than 32 levels")
	}
	require.False(t, reached)
	perRequest := total / uint64(len(results))
	t.Logf("16 requests of %d bytes allocated %d bytes in all, %d each", len(body), total, perRequest)
	require.LessOrEqual(t, perRequest, uint64(len(body))+256<<10, "a hostile body costs about its own size")

	for name, body := range bodies {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/x", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		e.ServeHTTP(rec, req)
		switch name {
		case "long string", "long escapes", "whitespace":
			require.Equal(t, http.StatusNoContent, rec.Code, name)
		default:
			require.Equal(t, http.StatusBadRequest, rec.Code, name)
			requireEnvelope(t, rec.Body.Bytes(), "invalid_json")
		}
	}
}

func requireEnvelope(t *testing.T, body []byte, code string) {
	t.Helper()
	var env struct {
		Error struct {
			Type, Code, Message string
			Param               *string
		}
	}
	require.NoError(t, json.Unmarshal(body, &env), string(body))
	require.Equal(t, code, env.Error.Code, string(body))
	require.NotEmpty(t, env.Error.Type)
	require.NotEmpty(t, env.Error.Message)
}

func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":[1,{"b":"\u0000"}]}`, `[[[[`, `{"a":1,"a":2}`, `"x\ud800"`, `1e5`, `{"a":"é"}`, "{\"a\":\"\xff\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		nul, err := checkJSON(body)
		if err != nil {
			return
		}
		// Whatever the guard accepts is one valid JSON value that
		// encoding/json decodes, with no key twice in an object.
		if !json.Valid(body) {
			t.Fatalf("accepted invalid JSON %q", body)
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("accepted %q, which does not decode: %v", body, err)
		}
		if nul != nil && !bytes.Contains(body, []byte(`\u0000`)) {
			t.Fatalf("named %q for U+0000 in %q, which has none", *nul, body)
		}
	})
}

// An empty body reaches the validator as http.NoBody, which it does not copy
// for each security scheme; a body of unknown length is still read.
func TestStrictJSONEmptyBodyIsNoBody(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		length int64
		body   string
		noBody bool
	}{
		{"no body, wrapped by the body limit", 0, "", true},
		{"chunked, empty", -1, "", false},
		{"chunked, JSON", -1, `{"a":1}`, false},
		{"sized JSON", 7, `{"a":1}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := echo.New()
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			req.ContentLength = tc.length
			// What echo's BodyLimit leaves: a reader that is not http.NoBody.
			req.Body = io.NopCloser(req.Body)
			c := e.NewContext(req, httptest.NewRecorder())
			var got []byte
			var isNoBody bool
			err := newBodyGuard().strictJSON(func(c echo.Context) error {
				isNoBody = c.Request().Body == http.NoBody
				var err error
				got, err = io.ReadAll(c.Request().Body)
				return err
			})(c)
			require.NoError(t, err)
			require.Equal(t, tc.noBody, isNoBody)
			require.Equal(t, tc.body, string(got))
		})
	}
}
