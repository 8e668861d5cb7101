// Package storable makes text that came from outside storable in PostgreSQL.
// A text or jsonb column refuses the NUL character (as a byte in text, as
// the escape \u0000 or a lone surrogate escape in jsonb) and any byte
// sequence that is not valid UTF-8, and a refused write fails the whole
// transaction. Fetched pages carry all of these, so whatever a scan
// derives from a site goes through here before it is stored: each
// offending character becomes U+FFFD, the replacement character, so the
// stored text still shows where something was.
package storable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Replacement is what stands in for a character that cannot be stored.
const Replacement = "\uFFFD"

// Text returns s as valid UTF-8 without NUL characters; s itself when it
// already is.
func Text(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, Replacement), "\x00", Replacement)
}

// Truncate makes s storable, then cuts it to at most n bytes without
// splitting a character.
func Truncate(s string, n int) string {
	s = Text(s)
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// JSON returns encoded JSON that jsonb accepts: the escapes \u0000 and
// unpaired surrogates become \ufffd and invalid UTF-8 becomes U+FFFD. It
// returns b itself when nothing had to change. b must be valid JSON apart
// from its encoding (the output of json.Marshal, for instance).
func JSON(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u`)) && utf8.Valid(b) {
		return b
	}
	b = bytes.ToValidUTF8(b, []byte(Replacement))
	var out []byte
	last := 0 // b[last:i] is still to be copied to out
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		// In valid JSON a backslash only occurs inside a string, where it
		// starts an escape; other escapes are two bytes long.
		if i+5 >= len(b) || b[i+1] != 'u' {
			i++
			continue
		}
		v, ok := hex4(b[i+2 : i+6])
		switch {
		case !ok:
			i += 5
			continue
		case v == 0, v >= 0xDC00 && v <= 0xDFFF:
			// NUL, or a low surrogate without a high one before it.
		case v >= 0xD800 && v <= 0xDBFF:
			if i+11 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
				if lo, ok := hex4(b[i+8 : i+12]); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 11 // a proper pair
					continue
				}
			}
		default:
			i += 5
			continue
		}
		out = append(out, b[last:i]...)
		out = append(out, `\ufffd`...)
		last = i + 6
		i += 5
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func hex4(h []byte) (rune, bool) {
	var v rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// Marshal encodes v for a jsonb column.
func Marshal(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return JSON(b), nil
}

// Map returns m, or a copy with its strings made storable when any had to
// change. Numbers keep their exact text.
func Map(m map[string]any) (map[string]any, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	safe := JSON(b)
	if bytes.Equal(safe, b) {
		return m, nil
	}
	dec := json.NewDecoder(bytes.NewReader(safe))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("re-read sanitized JSON: %w", err)
	}
	return out, nil
}
