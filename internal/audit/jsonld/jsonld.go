// Package jsonld reads the schema.org JSON-LD of a page into a flat set of
// entities. It understands what real sites publish rather than the whole
// JSON-LD algorithm: several script blocks (wrapped in comments or CDATA
// markers, with a byte-order mark or a trailing semicolon, or empty, as
// browsers and Google tolerate), top-level arrays, @graph containers
// (Yoast, Rank Math), nested entities, @id references between them, and
// types written as "Article", "schema:Article" or a full IRI. Entities
// come out in order of appearance, the same on every run.
package jsonld

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Entity is one schema.org node.
type Entity struct {
	ID    string
	Types []string // short names: "Organization", not "https://schema.org/Organization"
	Props map[string]any
	// Nested is true for a node found inside another node's property
	// rather than at the top level of a block or @graph.
	Nested bool
	// keys are the property names of Props in the order the site wrote
	// them.
	keys []string
}

// Graph is every entity of a page, in order of appearance: a node comes
// before the nodes nested in its properties, and those follow in the
// order the site wrote them, so every reading of a page is the same.
type Graph struct {
	Blocks int // script blocks seen
	// Valid counts the blocks that parsed; Empty those with no JSON at
	// all (nothing, whitespace or only a comment), which consumers skip
	// and which are neither valid nor broken.
	Valid  int
	Empty  int
	Errors []string // one per block that did not parse
	// Quirks say what was unusual about blocks that were read anyway
	// ("block 2: wrapped in CDATA markers", "block 3: empty"): browsers
	// and search engines read past these, strict validators may not.
	Quirks   []string
	Entities []*Entity
	byID     map[string]*Entity
}

// Parse reads the text of every application/ld+json script of a page.
// Blocks are read as Google reads them: a byte-order mark, HTML comment
// or CDATA markers around the JSON and a trailing semicolon are skipped.
func Parse(blocks []string) *Graph {
	g := &Graph{byID: map[string]*Entity{}}
	for i, b := range blocks {
		g.Blocks++
		b, quirks := unwrap(b)
		for _, q := range quirks {
			g.Quirks = append(g.Quirks, fmt.Sprintf("block %d: %s", i+1, q))
		}
		if b == "" {
			g.Empty++
			g.Quirks = append(g.Quirks, fmt.Sprintf("block %d: empty", i+1))
			continue
		}
		v, err := decodeOrdered(b)
		if err != nil {
			g.Errors = append(g.Errors, fmt.Sprintf("block %d: %v", i+1, err))
			continue
		}
		g.Valid++
		g.walkTop(v)
	}
	return g
}

func (g *Graph) walkTop(v any) {
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			g.walkTop(x)
		}
	case *object:
		if graph, ok := t.vals["@graph"]; ok {
			// A block may carry both @graph and its own node properties;
			// the node comes first, as it opens first.
			if _, typed := t.vals["@type"]; typed {
				g.add(t, false)
			}
			g.walkTop(graph)
			return
		}
		g.add(t, false)
	}
}

// add records a node, then the typed nodes nested in its properties.
func (g *Graph) add(o *object, nested bool) {
	e := &Entity{Props: map[string]any{}, Nested: nested}
	if id, ok := o.vals["@id"].(string); ok {
		e.ID = id
	}
	e.Types = typeNames(plain(o.vals["@type"]))
	var walk []any
	for _, k := range o.keys {
		if k == "@context" || k == "@type" || k == "@id" || k == "@graph" {
			continue
		}
		name := shortName(k)
		if _, dup := e.Props[name]; !dup {
			e.keys = append(e.keys, name)
		}
		e.Props[name] = plain(o.vals[k])
		walk = append(walk, o.vals[k])
	}
	g.record(e, nested)
	for _, v := range walk {
		g.walkNested(v)
	}
}

// record adds a node to the graph, or merges it into the node declared
// with the same @id. A node with only an @id is a reference, not a
// declaration.
func (g *Graph) record(e *Entity, nested bool) {
	if len(e.Types) == 0 && len(e.Props) == 0 {
		return
	}
	if e.ID != "" {
		if prev, ok := g.byID[e.ID]; ok {
			// The same @id declared twice: merge, as a JSON-LD processor would.
			for _, k := range e.keys {
				if _, has := prev.Props[k]; !has {
					prev.Props[k] = e.Props[k]
					prev.keys = append(prev.keys, k)
				}
			}
			prev.Types = appendNew(prev.Types, e.Types...)
			prev.Nested = prev.Nested && nested
			return
		}
		g.byID[e.ID] = e
	}
	g.Entities = append(g.Entities, e)
}

func (g *Graph) walkNested(v any) {
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			g.walkNested(x)
		}
	case *object:
		if _, typed := t.vals["@type"]; typed {
			g.add(t, true)
			return
		}
		for _, k := range t.keys {
			g.walkNested(t.vals[k])
		}
	}
}

func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		found := false
		for _, l := range list {
			if l == a {
				found = true
				break
			}
		}
		if !found {
			list = append(list, a)
		}
	}
	return list
}

func typeNames(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		out = append(out, shortName(t))
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, shortName(s))
			}
		}
	}
	return out
}

// shortName turns "https://schema.org/Article" or "schema:Article" into "Article".
func shortName(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"http://schema.org/", "https://schema.org/", "schema:"} {
		if strings.HasPrefix(s, p) {
			return s[len(p):]
		}
	}
	return s
}

// ByID returns the entity declared with an @id.
func (g *Graph) ByID(id string) *Entity { return g.byID[id] }

// Types lists every type seen, each once, in order of appearance.
func (g *Graph) Types() []string {
	var out []string
	for _, e := range g.Entities {
		out = appendNew(out, e.Types...)
	}
	return out
}

// OfType returns the entities having any of the types. Subtypes that
// matter for GEO are folded in by the caller passing them explicitly.
func (g *Graph) OfType(types ...string) []*Entity {
	var out []*Entity
	for _, e := range g.Entities {
		if e.Is(types...) {
			out = append(out, e)
		}
	}
	return out
}

// Has reports whether any entity has one of the types.
func (g *Graph) Has(types ...string) bool { return len(g.OfType(types...)) > 0 }

// Is reports whether the entity has any of the types.
func (e *Entity) Is(types ...string) bool {
	for _, t := range e.Types {
		for _, want := range types {
			if strings.EqualFold(t, want) {
				return true
			}
		}
	}
	return false
}

// Has reports whether a property is present and not empty.
func (e *Entity) Has(prop string) bool {
	v, ok := e.Props[prop]
	if !ok || v == nil {
		return false
	}
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t) != ""
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	return true
}

// String returns a text property: a string, the first string of an array,
// or the "name"/"url"/"@id" of an object (a logo ImageObject's url, say).
func (e *Entity) String(prop string) string {
	return text(e.Props[prop])
}

func text(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case json.Number:
		return t.String()
	case []any:
		for _, x := range t {
			if s := text(x); s != "" {
				return s
			}
		}
	case map[string]any:
		for _, k := range []string{"name", "url", "contentUrl", "@id", "@value"} {
			if s, ok := t[k].(string); ok && s != "" {
				return strings.TrimSpace(s)
			}
		}
	}
	return ""
}

// Strings returns every text value of a property (sameAs lists, say).
func (e *Entity) Strings(prop string) []string {
	var out []string
	switch t := e.Props[prop].(type) {
	case []any:
		for _, x := range t {
			if s := text(x); s != "" {
				out = append(out, s)
			}
		}
	default:
		if s := text(t); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Ref follows a property to the entity it names, inline or by @id.
func (g *Graph) Ref(e *Entity, prop string) *Entity {
	v := e.Props[prop]
	if list, ok := v.([]any); ok && len(list) > 0 {
		v = list[0]
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	if id, ok := m["@id"].(string); ok {
		if target := g.byID[id]; target != nil {
			return target
		}
	}
	for _, cand := range g.Entities {
		if cand.Nested && sameNode(cand, m) {
			return cand
		}
	}
	return nil
}

func sameNode(e *Entity, m map[string]any) bool {
	if len(e.Types) == 0 || len(typeNames(m["@type"])) == 0 || e.Types[0] != typeNames(m["@type"])[0] {
		return false
	}
	return text(m["name"]) == e.String("name") && text(m["url"]) == e.String("url")
}

// Edges counts @id references from one entity to another declared entity:
// a measure of how connected the graph is.
func (g *Graph) Edges() int {
	n := 0
	for _, e := range g.Entities {
		for _, v := range e.Props {
			n += countRefs(g, v)
		}
	}
	return n
}

func countRefs(g *Graph, v any) int {
	switch t := v.(type) {
	case []any:
		n := 0
		for _, x := range t {
			n += countRefs(g, x)
		}
		return n
	case map[string]any:
		if id, ok := t["@id"].(string); ok && g.byID[id] != nil && len(t) == 1 {
			return 1
		}
	}
	return 0
}
