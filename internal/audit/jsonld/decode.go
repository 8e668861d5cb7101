package jsonld

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Reading a block. Go maps forget the order of an object's keys, and
// walking them would list nested entities in a different order on every
// run; blocks are therefore decoded into objects that keep their keys in
// the order the site wrote them.

// object is a JSON object with its keys in order of appearance. A key
// written twice keeps its first position and its last value, as
// encoding/json keeps the last value.
type object struct {
	keys []string
	vals map[string]any
}

// maxDepth bounds the nesting of a block. Schema.org data nests a few
// levels; anything deeper is not structured data to read.
const maxDepth = 512

// decodeOrdered reads exactly one JSON value from s. Objects come back
// as *object and arrays as []any of such values; numbers are json.Number.
func decodeOrdered(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := readValue(dec, 0)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errTrailing
	}
	return v, nil
}

var errTrailing = errors.New("trailing data after the JSON value")

func readValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= maxDepth {
		return nil, fmt.Errorf("exceeded max depth of %d nested values", maxDepth)
	}
	switch d {
	case '{':
		o := &object{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := readValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			if _, dup := o.vals[k]; !dup {
				o.keys = append(o.keys, k)
			}
			o.vals[k] = v
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return o, nil
	case '[':
		list := []any{}
		for dec.More() {
			v, err := readValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return list, nil
	}
	return nil, fmt.Errorf("invalid character %q", rune(d))
}

// plain turns a decoded value into the map[string]any and []any values
// Props hold.
func plain(v any) any {
	switch t := v.(type) {
	case *object:
		m := make(map[string]any, len(t.keys))
		for _, k := range t.keys {
			m[k] = plain(t.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = plain(x)
		}
		return out
	}
	return v
}

// unwrap strips what sites put around the JSON of a block and browsers
// and Google read past: a byte-order mark, HTML comment and CDATA markers
// (also behind // or /* */, as XHTML-era templates write them) and a
// trailing semicolon. It returns the JSON text and what was stripped.
func unwrap(b string) (string, []string) {
	var quirks []string
	b = strings.TrimSpace(b)
	if t, ok := strings.CutPrefix(b, "\uFEFF"); ok {
		b = strings.TrimSpace(t)
		quirks = append(quirks, "starts with a byte-order mark")
	}
	for changed := true; changed; {
		changed = false
		for _, w := range wrappers {
			if t, ok := strings.CutPrefix(b, w.open); ok {
				b, changed = strings.TrimSpace(t), true
				quirks = appendNew(quirks, w.what)
			}
			if t, ok := strings.CutSuffix(b, w.close); ok {
				b, changed = strings.TrimSpace(t), true
				quirks = appendNew(quirks, w.what)
			}
		}
		if t, ok := strings.CutSuffix(b, ";"); ok {
			b, changed = strings.TrimSpace(t), true
			quirks = appendNew(quirks, "ends with a semicolon")
		}
	}
	return b, quirks
}

// wrappers are the markers around a block, longest spellings first.
var wrappers = []struct{ open, close, what string }{
	{"/*<![CDATA[*/", "/*]]>*/", "wrapped in CDATA markers"},
	{"//<![CDATA[", "//]]>", "wrapped in CDATA markers"},
	{"<![CDATA[", "]]>", "wrapped in CDATA markers"},
	{"<!--", "//-->", "wrapped in an HTML comment"},
	{"<!--", "-->", "wrapped in an HTML comment"},
}
