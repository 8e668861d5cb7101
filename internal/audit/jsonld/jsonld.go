// Package jsonld owns a page's schema.org graph: a flat set of entities,
// each carrying the syntax it was declared in. It reads the JSON-LD
// itself and takes the nodes other readers find in microdata and RDFa
// (AddMarkup), so every consumer sees all three in one shape.
//
// For JSON-LD it understands what real sites publish rather than the
// whole JSON-LD algorithm: several script blocks (wrapped in comments or
// CDATA markers, with a byte-order mark or a trailing semicolon, or
// empty, as browsers and Google tolerate), top-level arrays, @graph
// containers (Yoast, Rank Math), nested entities, @id references between
// them, and types written as "Article", "schema:Article" or a full IRI
// (http or https, with or without a trailing slash). Entities come out
// in order of appearance, the same on every run.
package jsonld

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
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
	// Syntax is the set of syntaxes that declared the node: one, or more
	// when a page says the same thing twice (see AddMarkup).
	Syntax Syntax
	// keys are the property names of Props in the order the site wrote
	// them.
	keys []string
	// merged indexes, by property, the values of a property another
	// declaration of the node added to (see union).
	merged map[string]map[string]bool
}

// Bounds that keep the reading of a page linear in its size, whatever the
// page repeats: schema.org nodes have a type or three, and a name shared
// by a few nodes.
const (
	// maxTypes is how many types a node keeps.
	maxTypes = 16
	// maxSameName is how many nodes of one name are compared with a node
	// of another syntax (see sameElsewhere).
	maxSameName = 32
)

// Graph is every entity of a page, in order of appearance: a node comes
// before the nodes nested in its properties, and those follow in the
// order the site wrote them, so every reading of a page is the same.
//
// Blocks, Valid, Empty, Errors and Quirks describe the JSON-LD script
// blocks only; Cut says what microdata or RDFa was left unread.
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
	Quirks []string
	// Cut names what a page's microdata or RDFa held beyond the reading
	// limits and was left unread ("microdata: items after the first
	// 1000"): what the graph says of such a page is a lower bound.
	Cut      []string
	Entities []*Entity
	byID     map[string]*Entity
	// byName indexes entities by lower-case name, to find a node a page
	// declares again in another syntax.
	byName map[string][]*Entity
}

// Parse reads the text of every application/ld+json script of a page.
// Blocks are read as Google reads them: a byte-order mark, HTML comment
// or CDATA markers around the JSON and a trailing semicolon are skipped.
func Parse(blocks []string) *Graph {
	g := &Graph{byID: map[string]*Entity{}, byName: map[string][]*Entity{}}
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
				g.add(t, false, JSONLD)
			}
			g.walkTop(graph)
			return
		}
		g.add(t, false, JSONLD)
	}
}

// add records a node, then the typed nodes nested in its properties.
func (g *Graph) add(o *object, nested bool, syntax Syntax) {
	e := &Entity{Props: map[string]any{}, Nested: nested, Syntax: syntax}
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
		g.walkNested(v, syntax)
	}
}

// record adds a node to the graph, or merges it into the node declared
// with the same @id, or into the same node declared in another syntax
// (see sameElsewhere). A node with only an @id is a reference, not a
// declaration.
func (g *Graph) record(e *Entity, nested bool) {
	if len(e.Types) == 0 && len(e.Props) == 0 {
		return
	}
	if e.ID != "" {
		if prev, ok := g.byID[e.ID]; ok {
			// The same @id declared twice: merge, as a JSON-LD processor would.
			merge(prev, e, nested)
			return
		}
	}
	if prev := g.sameElsewhere(e); prev != nil {
		merge(prev, e, nested)
		if prev.ID == "" && e.ID != "" {
			prev.ID = e.ID
			g.byID[e.ID] = prev
		}
		return
	}
	if e.ID != "" {
		g.byID[e.ID] = e
	}
	if n := nameKey(e); n != "" && len(g.byName[n]) < maxSameName {
		g.byName[n] = append(g.byName[n], e)
	}
	g.Entities = append(g.Entities, e)
}

// merge folds a second declaration of a node into the first, as a
// JSON-LD processor merges nodes: a property both declare keeps the
// first's values and gains the second's other ones (String still reads
// the first), and types and syntaxes are added.
func merge(prev, e *Entity, nested bool) {
	for _, k := range e.keys {
		pv, has := prev.Props[k]
		if !has {
			prev.Props[k] = e.Props[k]
			prev.keys = append(prev.keys, k)
			continue
		}
		prev.Props[k] = prev.union(k, pv, e.Props[k])
	}
	prev.Types = appendNew(prev.Types, e.Types...)
	prev.Types = prev.Types[:min(len(prev.Types), maxTypes)]
	prev.Nested = prev.Nested && nested
	prev.Syntax |= e.Syntax
}

// union is a, the values the node holds for property k, then those of b
// that a lacks; a itself when b adds nothing. The node's values are
// indexed on the property's first merge and the index kept, so a node
// declared again and again costs each declaration its own values, not
// all the node holds.
func (e *Entity) union(k string, a, b any) any {
	list := func(v any) []any {
		if l, ok := v.([]any); ok {
			return l
		}
		return []any{v}
	}
	if e.merged == nil {
		e.merged = map[string]map[string]bool{}
	}
	seen := e.merged[k]
	if seen == nil {
		seen = map[string]bool{}
		for _, x := range list(a) {
			seen[valueKey(x)] = true
		}
		e.merged[k] = seen
	}
	first := list(a)
	out := first
	for _, x := range list(b) {
		if key := valueKey(x); !seen[key] {
			seen[key] = true
			// A list grown here is the node's own: it grows in place.
			out = append(out, x)
		}
	}
	if len(out) == len(first) {
		return a
	}
	return out
}

// valueKey is a property value as text that two values share exactly
// when they are deeply equal.
func valueKey(v any) string {
	if s, ok := v.(string); ok {
		return "s" + s
	}
	var b strings.Builder
	writeKey(&b, v)
	return b.String()
}

func writeKey(b *strings.Builder, v any) {
	switch t := v.(type) {
	case string:
		b.WriteString(strconv.Quote(t))
	case json.Number:
		b.WriteString("n" + string(t))
	case []any:
		b.WriteByte('[')
		for _, x := range t {
			writeKey(b, x)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for _, k := range slices.Sorted(maps.Keys(t)) {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			writeKey(b, t[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default: // bool, nil
		fmt.Fprintf(b, "%#v", t)
	}
}

func (g *Graph) walkNested(v any, syntax Syntax) {
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			g.walkNested(x, syntax)
		}
	case *object:
		if _, typed := t.vals["@type"]; typed {
			g.add(t, true, syntax)
			return
		}
		for _, k := range t.keys {
			g.walkNested(t.vals[k], syntax)
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
			if s, ok := x.(string); ok && len(out) < maxTypes {
				out = append(out, shortName(s))
			}
		}
	}
	return out
}

// shortName turns "https://schema.org/Article", "http://schema.org/Article/"
// or "schema:Article" into "Article"; other names come back trimmed.
func shortName(s string) string {
	s = strings.TrimSpace(s)
	if t, ok := schemaTerm(s); ok {
		return t
	}
	return s
}

// ByID returns the entity declared with an @id.
func (g *Graph) ByID(id string) *Entity { return g.byID[id] }

// Types lists every type seen, in any syntax, each once, in order of
// appearance.
func (g *Graph) Types() []string {
	return g.typesOf(func(*Entity) bool { return true })
}

// TypesIn lists the types of the entities declared in any of the
// syntaxes, each once, in order of appearance.
func (g *Graph) TypesIn(s Syntax) []string {
	return g.typesOf(func(e *Entity) bool { return e.Syntax&s != 0 })
}

func (g *Graph) typesOf(keep func(*Entity) bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range g.Entities {
		if !keep(e) {
			continue
		}
		for _, t := range e.Types {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
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
