// Package jsonshape writes down the shape of the JSON a Go type encodes to:
// one line per path with its JSON type, as encoding/json produces it. Tests
// pin the shape of stored documents with it in golden files
// (RequirePinned), so a change of the types they are made of (the generated
// contract types) is seen and decided on, not discovered in documents
// already stored; RequireRoundTrip checks that what is stored decodes back
// to the same document.
package jsonshape

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// Of returns the shape of v's type, one line per path, sorted:
//
//	checks[].recommendation  string or null
//	checks[].evidence.*      any
//	rings.search.score       number
//
// "[]" is every element of an array, "*" every value of an object with
// free keys. A type that encodes itself is named instead of walked
// ("string (uuid.UUID)"); "omitted when empty" marks omitempty fields.
func Of(v any) string {
	var lines []string
	walk(reflect.TypeOf(v), "", "", map[reflect.Type]bool{}, &lines)
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

func walk(t reflect.Type, path, flags string, seen map[reflect.Type]bool, lines *[]string) {
	add := func(kind string) {
		if path != "" {
			*lines = append(*lines, path+"  "+kind+flags)
		}
	}
	if t.Kind() == reflect.Pointer {
		if flags == "" {
			flags = " or null"
		}
		t = t.Elem()
	}
	switch {
	case t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler):
		add("json (" + t.String() + ")")
		return
	case t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler):
		add("string (" + t.String() + ")")
		return
	}
	switch t.Kind() {
	case reflect.String:
		add("string")
	case reflect.Bool:
		add("boolean")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		add("number")
	case reflect.Interface:
		add("any")
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			add("string (base64)")
			return
		}
		add("array")
		walk(t.Elem(), path+"[]", "", seen, lines)
	case reflect.Map:
		add("object")
		walk(t.Elem(), path+".*", "", seen, lines)
	case reflect.Struct:
		if seen[t] {
			add("object (" + t.String() + ", as above)")
			return
		}
		add("object")
		seen[t] = true
		fields(t, path, seen, lines)
		delete(seen, t)
	default:
		add(fmt.Sprintf("unsupported (%s)", t))
	}
}

// fields walks a struct's fields as encoding/json sees them: exported,
// named by their tag, embedded structs flattened.
func fields(t reflect.Type, path string, seen map[reflect.Type]bool, lines *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && tag != "-" && f.Type.Kind() == reflect.Struct {
			fields(f.Type, path, seen, lines) // promoted, exported or not
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		flags := ""
		if strings.Contains(","+opts+",", ",omitempty,") {
			flags = " omitted when empty"
		}
		child := name
		if path != "" {
			child = path + "." + name
		}
		walk(f.Type, child, flags, seen, lines)
	}
}
