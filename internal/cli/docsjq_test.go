package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The walkthrough in the README pipes the API's JSON through jq. jqRun
// evaluates the small part of jq those commands use, so the test runs the
// very filter the page shows and prints its result as jq does:
//
//	filter := object | path
//	object := '{' entry (',' entry)* '}'
//	entry  := name | name ':' (path | '[' path ']')
//	path   := '.' | ('.' name | '[' N ']' | '[]')+
//
// Anything else is an error, so a filter edited beyond this subset fails
// the test rather than printing something jq would not.
func jqRun(filter string, body []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("response is not JSON: %w", err)
	}
	p := &jqParser{s: filter}
	e, err := p.filter()
	if err != nil {
		return "", fmt.Errorf("jq %q: %w", filter, err)
	}
	out, err := e.eval(v)
	if err != nil {
		return "", fmt.Errorf("jq %q: %w", filter, err)
	}
	var b strings.Builder
	for _, o := range out {
		if err := jqWrite(&b, o, ""); err != nil {
			return "", fmt.Errorf("jq %q: %w", filter, err)
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

type jqExpr interface {
	eval(v any) ([]any, error)
}

// jqObject keeps its keys in the order the filter names them, as jq does.
type jqObject struct {
	keys []string
	vals []jqExpr
}

type jqOrdered struct {
	keys []string
	vals []any
}

func (o jqObject) eval(v any) ([]any, error) {
	out := jqOrdered{keys: o.keys}
	for i, e := range o.vals {
		got, err := e.eval(v)
		if err != nil {
			return nil, err
		}
		if len(got) != 1 {
			return nil, fmt.Errorf("%s yields %d values, not one", o.keys[i], len(got))
		}
		out.vals = append(out.vals, got[0])
	}
	return []any{out}, nil
}

type jqCollect struct{ p jqPath }

func (c jqCollect) eval(v any) ([]any, error) {
	got, err := c.p.eval(v)
	if err != nil {
		return nil, err
	}
	return []any{append([]any{}, got...)}, nil
}

// jqStep is one step of a path: a field, an index, or iteration (index -1).
type jqStep struct {
	field string
	index int
}

type jqPath []jqStep

func (p jqPath) eval(v any) ([]any, error) {
	cur := []any{v}
	for _, st := range p {
		var next []any
		for _, c := range cur {
			switch {
			case c == nil && (st.field != "" || st.index >= 0):
				next = append(next, nil)
			case st.field != "":
				m, ok := c.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("cannot index %T with %q", c, st.field)
				}
				next = append(next, m[st.field])
			case st.index >= 0:
				a, ok := c.([]any)
				if !ok {
					return nil, fmt.Errorf("cannot index %T with %d", c, st.index)
				}
				if st.index < len(a) {
					next = append(next, a[st.index])
				} else {
					next = append(next, nil)
				}
			default:
				a, ok := c.([]any)
				if !ok {
					return nil, fmt.Errorf("cannot iterate over %T", c)
				}
				next = append(next, a...)
			}
		}
		cur = next
	}
	return cur, nil
}

type jqParser struct {
	s string
	i int
}

func (p *jqParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *jqParser) peek() byte {
	p.skip()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *jqParser) expect(c byte) error {
	if p.peek() != c {
		return fmt.Errorf("expected %q at %d", c, p.i)
	}
	p.i++
	return nil
}

func (p *jqParser) filter() (jqExpr, error) {
	var e jqExpr
	var err error
	if p.peek() == '{' {
		e, err = p.object()
	} else {
		e, err = p.path()
	}
	if err != nil {
		return nil, err
	}
	if p.peek() != 0 {
		return nil, fmt.Errorf("unsupported syntax at %d", p.i)
	}
	return e, nil
}

func (p *jqParser) object() (jqExpr, error) {
	if err := p.expect('{'); err != nil {
		return nil, err
	}
	var o jqObject
	for {
		p.skip()
		name := p.name()
		if name == "" {
			return nil, fmt.Errorf("expected a key at %d", p.i)
		}
		var val jqExpr = jqPath{{field: name, index: -1}}
		if p.peek() == ':' {
			p.i++
			var err error
			if p.peek() == '[' {
				p.i++
				var path jqPath
				if path, err = p.path(); err == nil {
					err = p.expect(']')
				}
				val = jqCollect{path}
			} else {
				val, err = p.path()
			}
			if err != nil {
				return nil, err
			}
		}
		o.keys, o.vals = append(o.keys, name), append(o.vals, val)
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return o, nil
		default:
			return nil, fmt.Errorf("expected ',' or '}' at %d", p.i)
		}
	}
}

func (p *jqParser) path() (jqPath, error) {
	if p.peek() != '.' {
		return nil, fmt.Errorf("expected a path at %d", p.i)
	}
	path := jqPath{}
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '.':
			p.i++
			if name := p.name(); name != "" {
				path = append(path, jqStep{field: name, index: -1})
			} else if len(path) > 0 || (p.i < len(p.s) && p.s[p.i] != ' ' && p.s[p.i] != ']' && p.s[p.i] != ',' && p.s[p.i] != '}') {
				return nil, fmt.Errorf("expected a name at %d", p.i)
			}
		case '[':
			j := strings.IndexByte(p.s[p.i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed '[' at %d", p.i)
			}
			inner := p.s[p.i+1 : p.i+j]
			if inner == "" {
				path = append(path, jqStep{index: -1})
			} else {
				n, err := strconv.Atoi(inner)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("unsupported index %q", inner)
				}
				path = append(path, jqStep{index: n})
			}
			p.i += j + 1
		default:
			return path, nil
		}
	}
	return path, nil
}

func (p *jqParser) name() string {
	j := p.i
	for j < len(p.s) && (p.s[j] == '_' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || j > p.i && p.s[j] >= '0' && p.s[j] <= '9') {
		j++
	}
	name := p.s[p.i:j]
	p.i = j
	return name
}

// jqWrite prints v as jq prints it: two-space indentation, the number
// as the API wrote it, non-ASCII text unescaped.
func jqWrite(b *strings.Builder, v any, indent string) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool, json.Number:
		fmt.Fprint(b, v)
	case string:
		var s bytes.Buffer
		enc := json.NewEncoder(&s)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Write(bytes.TrimSuffix(s.Bytes(), []byte("\n")))
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(indent + "  ")
			if err := jqWrite(b, e, indent+"  "); err != nil {
				return err
			}
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case jqOrdered:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{\n")
		for i, k := range v.keys {
			fmt.Fprintf(b, "%s  %q: ", indent, k)
			if err := jqWrite(b, v.vals[i], indent+"  "); err != nil {
				return err
			}
			if i < len(v.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	default:
		// jq keeps an object's keys in the order of the JSON it read,
		// which a decoded map has lost: construct the object instead.
		return errors.New("the filter outputs a whole JSON object; name its keys with {…}")
	}
	return nil
}

func TestJQSubset(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id": "x", "score": 34.10, "n": 7, "rings": {"search": {"capped_by": null}}, "gates": [{"id": "a"}, {"id": "b"}], "text": "“quoted” <b>", "none": []}`)
	for _, tc := range []struct{ filter, want string }{
		{`{id, score}`, "{\n  \"id\": \"x\",\n  \"score\": 34.10\n}\n"},
		{
			`{g: [.gates[].id], capped: .rings.search.capped_by, first: .gates[0].id, missing: .gates[5].id}`,
			"{\n  \"g\": [\n    \"a\",\n    \"b\"\n  ],\n  \"capped\": null,\n  \"first\": \"a\",\n  \"missing\": null\n}\n",
		},
		{`.text`, "\"“quoted” <b>\"\n"},
		{`{none}`, "{\n  \"none\": []\n}\n"},
		{`.gates[].id`, "\"a\"\n\"b\"\n"},
	} {
		got, err := jqRun(tc.filter, body)
		require.NoError(t, err, tc.filter)
		require.Equal(t, tc.want, got, tc.filter)
	}
	for _, filter := range []string{`.`, `{id | length}`, `.gates | length`, `{rings}`, `.gates[].id.x`, `{g: .gates[].id}`} {
		_, err := jqRun(filter, body)
		require.Error(t, err, filter)
	}
}
