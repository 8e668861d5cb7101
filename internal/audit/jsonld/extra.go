package jsonld

import (
	"sort"
	"strings"
)

// TopLevel returns the entities declared at the top level of a block or
// an @graph, in order of appearance.
func (g *Graph) TopLevel() []*Entity {
	if g == nil {
		return nil
	}
	var out []*Entity
	for _, e := range g.Entities {
		if !e.Nested {
			out = append(out, e)
		}
	}
	return out
}

// References returns every @id an entity's properties mention, however
// deeply nested: pure references ({"@id": …}) and inline nodes that carry
// an @id alike, each once, in the order the properties were written
// (keys of nested objects in lexical order).
func (e *Entity) References() []string {
	if e == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case []any:
			for _, x := range t {
				walk(x)
			}
		case map[string]any:
			if id, ok := t["@id"].(string); ok && id != "" && id != e.ID && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
			for _, k := range sortedKeys(t) {
				walk(t[k])
			}
		}
	}
	for _, k := range e.propKeys() {
		walk(e.Props[k])
	}
	return out
}

// propKeys are the keys of Props in the order the site wrote them; an
// entity built by hand has them in lexical order.
func (e *Entity) propKeys() []string {
	if len(e.keys) == len(e.Props) {
		return e.keys
	}
	return sortedKeys(e.Props)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Islands groups the top-level entities into sets joined by @id: two
// entities are joined when one mentions the other's @id or both mention a
// common one. A well-linked page is one island; separate islands are
// statements an engine cannot tie together.
func (g *Graph) Islands() [][]*Entity {
	top := g.TopLevel()
	parent := make([]int, len(top))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	join := func(id string, i int) {
		if j, ok := owner[id]; ok {
			parent[find(i)] = find(j)
			return
		}
		owner[id] = i
	}
	for i, e := range top {
		if e.ID != "" {
			join(e.ID, i)
		}
		for _, id := range e.References() {
			join(id, i)
		}
	}
	groups := map[int][]*Entity{}
	var order []int
	for i, e := range top {
		r := find(i)
		if _, ok := groups[r]; !ok {
			order = append(order, r)
		}
		groups[r] = append(groups[r], e)
	}
	out := make([][]*Entity, 0, len(order))
	for _, r := range order {
		out = append(out, groups[r])
	}
	return out
}

// Object returns a property as a JSON object: the value itself, or the
// first object of an array. Nil when the property holds no object.
func (e *Entity) Object(prop string) map[string]any {
	if e == nil {
		return nil
	}
	v := e.Props[prop]
	if list, ok := v.([]any); ok {
		for _, x := range list {
			if m, ok := x.(map[string]any); ok {
				return m
			}
		}
		return nil
	}
	m, _ := v.(map[string]any)
	return m
}

// Field reads a text field of a raw JSON-LD object, with or without a
// schema.org prefix on the key; the bare key wins over prefixed ones.
func Field(m map[string]any, key string) string {
	if v, ok := m[key]; ok {
		return text(v)
	}
	for _, k := range sortedKeys(m) {
		if shortName(k) == key {
			return text(m[k])
		}
	}
	return ""
}

// TypeOf returns the short type names of a raw JSON-LD object.
func TypeOf(m map[string]any) []string { return typeNames(m["@type"]) }

// Label is the entity's first type and its @id or name, for evidence.
func (e *Entity) Label() string {
	if e == nil {
		return ""
	}
	t := strings.Join(e.Types, "/")
	if t == "" {
		t = "(untyped)"
	}
	switch {
	case e.ID != "":
		return t + " " + e.ID
	case e.String("name") != "":
		return t + " " + e.String("name")
	}
	return t
}
