// Package jsonld reads the schema.org JSON-LD of a page into a flat set of
// entities. It understands what real sites publish rather than the whole
// JSON-LD algorithm: several script blocks, top-level arrays, @graph
// containers (Yoast, Rank Math), nested entities, @id references between
// them, and types written as "Article", "schema:Article" or a full IRI.
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
}

// Graph is every entity of a page.
type Graph struct {
	Blocks   int      // script blocks seen
	Valid    int      // blocks that parsed
	Errors   []string // one per block that did not parse
	Entities []*Entity
	byID     map[string]*Entity
}

// Parse reads the text of every application/ld+json script of a page.
func Parse(blocks []string) *Graph {
	g := &Graph{byID: map[string]*Entity{}}
	for i, b := range blocks {
		g.Blocks++
		b = strings.TrimSpace(b)
		// CMSs sometimes wrap JSON-LD in HTML comments or CDATA markers.
		b = strings.TrimPrefix(strings.TrimSuffix(b, "-->"), "<!--")
		b = strings.TrimPrefix(strings.TrimSuffix(strings.TrimSpace(b), "]]>"), "<![CDATA[")
		var v any
		dec := json.NewDecoder(strings.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			g.Errors = append(g.Errors, fmt.Sprintf("block %d: %v", i+1, err))
			continue
		}
		if dec.More() {
			g.Errors = append(g.Errors, fmt.Sprintf("block %d: trailing data after the JSON value", i+1))
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
	case map[string]any:
		if graph, ok := t["@graph"]; ok {
			g.walkTop(graph)
			// A block may carry both @graph and its own node properties.
			if _, typed := t["@type"]; !typed {
				return
			}
		}
		g.add(t, false)
	}
}

// add records a node and the typed nodes nested in its properties.
func (g *Graph) add(m map[string]any, nested bool) {
	e := &Entity{Props: map[string]any{}, Nested: nested}
	if id, ok := m["@id"].(string); ok {
		e.ID = id
	}
	e.Types = typeNames(m["@type"])
	for k, v := range m {
		if k == "@context" || k == "@type" || k == "@id" || k == "@graph" {
			continue
		}
		e.Props[shortName(k)] = v
		g.walkNested(v)
	}
	// A node with only an @id is a reference, not a declaration.
	if len(e.Types) == 0 && len(e.Props) == 0 {
		return
	}
	if e.ID != "" {
		if prev, ok := g.byID[e.ID]; ok {
			// The same @id declared twice: merge, as a JSON-LD processor would.
			for k, v := range e.Props {
				if _, has := prev.Props[k]; !has {
					prev.Props[k] = v
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
	case map[string]any:
		if _, typed := t["@type"]; typed {
			g.add(t, true)
			return
		}
		for _, x := range t {
			g.walkNested(x)
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
