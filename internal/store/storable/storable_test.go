package storable

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                "plain",
		"":                     "",
		"Nul\x00 Bakery":       "Nul\uFFFD Bakery",
		"caf\xe9":              "caf\uFFFD",
		"\xff\xfe\x00":         "\uFFFD\uFFFD",
		"Ünïcödé ✓":            "Ünïcödé ✓",
		"half \xe2\x82":        "half \uFFFD",
		"\x00\x00":             "\uFFFD\uFFFD",
		"ok\r\n\ttabs\x01bell": "ok\r\n\ttabs\x01bell",
	} {
		got := Text(in)
		require.Equal(t, want, got, "%q", in)
		require.True(t, utf8.ValidString(got))
	}
	s := strings.Repeat("unchanged text ", 10)
	require.Zero(t, testing.AllocsPerRun(10, func() { _ = Text(s) }), "valid text is returned as is")
}

func TestTruncate(t *testing.T) {
	require.Equal(t, "abc", Truncate("abcdef", 3))
	// "é" is two bytes: a cut inside it drops it rather than keeping half.
	require.Equal(t, "ab", Truncate("abé", 3))
	require.Equal(t, "ab\uFFFD", Truncate("ab\x00cd", 5))
	require.Equal(t, "ab", Truncate("ab\x00cd", 4), "the replacement is never cut in half")
	require.Equal(t, "short", Truncate("short", 300))
}

func TestJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":"b"}`:                     `{"a":"b"}`,
		`{"a":"x\u0000y"}`:              `{"a":"x\ufffdy"}`,
		`["\u0000\u0000"]`:              `["\ufffd\ufffd"]`,
		`{"k\u0000":1}`:                 `{"k\ufffd":1}`,
		`"\\u0000"`:                     `"\\u0000"`, // an escaped backslash, then text
		`"\\\u0000"`:                    `"\\\ufffd"`,
		`"\ud83d\ude00"`:                `"\ud83d\ude00"`, // a proper pair
		`"\ud800"`:                      `"\ufffd"`,
		`"\ud800x"`:                     `"\ufffdx"`,
		`"\udc00\ud800"`:                `"\ufffd\ufffd"`,
		`"\uD800\uDC00"`:                `"\uD800\uDC00"`,
		`"\u00e9\u0041"`:                `"\u00e9\u0041"`,
		"\"caf\xe9\"":                   "\"caf\uFFFD\"",
		`"tail \u000`:                   `"tail \u000`, // not JSON: left alone, no panic
		`{"a":"\n\t\"\/\b\f\r\u001f"}`:  `{"a":"\n\t\"\/\b\f\r\u001f"}`,
		`{"nested":[{"x":"\u0000"},1]}`: `{"nested":[{"x":"\ufffd"},1]}`,
	} {
		got := string(JSON([]byte(in)))
		require.Equal(t, want, got, "%s", in)
	}
	b := []byte(`{"clean":"json"}`)
	require.Same(t, &b[0], &JSON(b)[0], "clean JSON is returned as is")
}

func TestMarshalAndMap(t *testing.T) {
	type doc struct {
		Title string   `json:"title"`
		Tags  []string `json:"tags"`
	}
	raw, err := Marshal(doc{Title: "Nul\x00 \xff", Tags: []string{"a\x00"}})
	require.NoError(t, err)
	require.Equal(t, `{"title":"Nul\ufffd \ufffd","tags":["a\ufffd"]}`, string(raw))

	clean := map[string]any{"n": 1}
	got, err := Map(clean)
	require.NoError(t, err)
	require.Equal(t, clean, got)

	dirty := map[string]any{"title": "a\x00b", "big": int64(9007199254740993), "list": []any{"x\x00"}}
	got, err = Map(dirty)
	require.NoError(t, err)
	require.Equal(t, "a\uFFFDb", got["title"])
	require.Equal(t, json.Number("9007199254740993"), got["big"], "numbers keep their exact text")
	require.Equal(t, []any{"x\uFFFD"}, got["list"])
}

// FuzzJSON: for any JSON document, the result is valid JSON of the same
// shape, and no string in it holds a NUL or an invalid character.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":"b"}`, `{"a":"x\u0000y"}`, `"\ud800"`, `"\\\u0000"`, `["\ud83d\ude00",1.5e300,null,true]`,
		`{"@context":"https://schema.org","name":"Nul\u0000 Bakery","description":"\ud800 cakes"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var before any
		if json.Unmarshal(in, &before) != nil {
			_ = JSON(in) // anything else must not panic
			return
		}
		out := JSON(in)
		require.True(t, utf8.Valid(out))
		var after any
		require.NoError(t, json.Unmarshal(out, &after), "in %q out %q", in, out)
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				require.NotContains(t, v, "\x00")
				require.True(t, utf8.ValidString(v))
			case []any:
				for _, e := range v {
					walk(e)
				}
			case map[string]any:
				for k, e := range v {
					require.NotContains(t, k, "\x00")
					walk(e)
				}
			}
		}
		walk(after)
		require.True(t, jsonbSafe(out), "in %q out %q", in, out)
	})
}

// jsonbSafe walks the strings of a valid JSON document and reports whether
// every \u escape in them is one jsonb accepts: not NUL, and surrogates
// only in pairs.
func jsonbSafe(b []byte) bool {
	in := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case !in:
			in = c == '"'
		case c == '"':
			in = false
		case c == '\\' && b[i+1] != 'u':
			i++
		case c == '\\':
			v, _ := hex4(b[i+2 : i+6])
			switch {
			case v == 0, v >= 0xDC00 && v <= 0xDFFF:
				return false
			case v >= 0xD800 && v <= 0xDBFF:
				if i+11 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
					return false
				}
				lo, _ := hex4(b[i+8 : i+12])
				if lo < 0xDC00 || lo > 0xDFFF {
					return false
				}
				i += 6
			}
			i += 5
		}
	}
	return true
}

// TestPostgresAcceptsTheOutput stores each input as PostgreSQL sees it:
// the raw form is refused, the sanitized one accepted.
func TestPostgresAcceptsTheOutput(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.URL())
	require.NoError(t, err)
	defer conn.Close(ctx)
	for _, in := range []string{"Nul\x00 Bakery", "caf\xe9", "half \xe2\x82"} {
		var got string
		_, err := conn.Exec(ctx, "SELECT $1::text", in)
		require.Error(t, err, "%q should be refused raw", in)
		require.NoError(t, conn.QueryRow(ctx, "SELECT $1::text", Text(in)).Scan(&got))
		require.Equal(t, Text(in), got)
	}
	for _, in := range []string{`{"a":"x\u0000y"}`, `"\ud800"`, `["\udc00 low"]`, `{"k\u0000":"\ud83d"}`} {
		_, err := conn.Exec(ctx, "SELECT $1::text::jsonb", in)
		require.Error(t, err, "%s should be refused raw", in)
		var got string
		require.NoError(t, conn.QueryRow(ctx, "SELECT $1::text::jsonb::text", string(JSON([]byte(in)))).Scan(&got), in)
		require.Contains(t, got, "\uFFFD")
	}
	// A proper pair is kept.
	var got string
	require.NoError(t, conn.QueryRow(ctx, "SELECT $1::text::jsonb ->> 0", string(JSON([]byte(`["\ud83d\ude00"]`)))).Scan(&got))
	require.Equal(t, "\U0001F600", got)
}

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
