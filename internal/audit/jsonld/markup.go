package jsonld

import "strings"

// Syntax is a set of the syntaxes that declare schema.org data in HTML.
// A node carries the syntaxes it was declared in, so a finding can say
// where the site said it.
type Syntax uint8

const (
	// JSONLD is a <script type="application/ld+json"> block.
	JSONLD Syntax = 1 << iota
	// Microdata is itemscope, itemtype, itemid, itemprop and itemref.
	Microdata
	// RDFa is vocab, prefix, typeof, property and resource (RDFa Lite),
	// and about and rel of RDFa 1.1.
	RDFa
)

var syntaxNames = []struct {
	s    Syntax
	name string
}{{JSONLD, "JSON-LD"}, {Microdata, "microdata"}, {RDFa, "RDFa"}}

// Names lists the syntaxes of the set: JSON-LD, microdata, RDFa, in that
// order.
func (s Syntax) Names() []string {
	var out []string
	for _, n := range syntaxNames {
		if s&n.s != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// String names the set for a sentence: "microdata", "JSON-LD and RDFa",
// "JSON-LD, microdata and RDFa"; "" for the empty set.
func (s Syntax) String() string {
	names := s.Names()
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// DeclaredIn returns the syntaxes that declare an entity of any of the
// types.
func (g *Graph) DeclaredIn(types ...string) Syntax {
	var s Syntax
	if g == nil {
		return s
	}
	for _, e := range g.Entities {
		if e.Is(types...) {
			s |= e.Syntax
		}
	}
	return s
}

// Node is a schema.org node read from HTML attributes, in the shape a
// JSON-LD node has, for AddMarkup. Types and property names may be IRIs
// ("https://schema.org/Organization", "http://schema.org/name") or short
// names.
type Node struct {
	ID    string
	Types []string
	// Props are the property values in document order; a name may
	// repeat, and its values then become a list.
	Props []Prop
}

// Prop is one property value: a string, or a *Node (an item given as the
// value; a Node with only an ID refers to a node declared elsewhere).
type Prop struct {
	Name  string
	Value any
}

// AddMarkup adds the top-level nodes a page declares in microdata or
// RDFa, with the nodes nested in them, as JSON-LD's are added. Only
// schema.org types are kept: a node typed in another vocabulary alone
// (MediaWiki's mw:File, data-vocabulary.org, Open Graph) says nothing in
// schema.org terms, so it is no entity, and nested it stays a plain value
// of its parent. A node the page already declared in another syntax (the
// same type and name, no different url or @id) is merged into it rather
// than counted twice.
func (g *Graph) AddMarkup(s Syntax, nodes []*Node) {
	if g.byID == nil {
		g.byID = map[string]*Entity{}
	}
	if g.byName == nil {
		g.byName = map[string][]*Entity{}
	}
	for _, n := range nodes {
		o := markupObject(n, 0)
		if o == nil {
			continue
		}
		if _, typed := o.vals["@type"]; !typed {
			continue
		}
		g.add(o, false, s)
	}
}

// markupObject turns a Node into the ordered object JSON-LD is decoded
// into: @id, @type (schema.org types only, short names) and the
// properties by short name, a repeated one as a list.
func markupObject(n *Node, depth int) *object {
	if n == nil || depth >= maxDepth {
		return nil
	}
	o := &object{vals: map[string]any{}}
	if n.ID != "" {
		o.keys = append(o.keys, "@id")
		o.vals["@id"] = n.ID
	}
	var types []any
	for _, t := range n.Types {
		if short, ok := schemaTerm(strings.TrimSpace(t)); ok && !containsAny(types, short) {
			types = append(types, short)
		}
	}
	if len(types) > 0 {
		o.keys = append(o.keys, "@type")
		o.vals["@type"] = types
	}
	lists := map[string]bool{}
	for _, p := range n.Props {
		name := shortName(p.Name)
		if name == "" || strings.HasPrefix(name, "@") {
			continue
		}
		var v any
		switch x := p.Value.(type) {
		case string:
			v = x
		case *Node:
			if c := markupObject(x, depth+1); c != nil {
				v = c
			}
		}
		if v == nil {
			continue
		}
		prev, seen := o.vals[name]
		switch {
		case !seen:
			o.keys = append(o.keys, name)
			o.vals[name] = v
		case lists[name]:
			o.vals[name] = append(prev.([]any), v)
		default:
			o.vals[name] = []any{prev, v}
			lists[name] = true
		}
	}
	return o
}

func containsAny(list []any, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// schemaBases are the IRIs schema.org terms are written under.
var schemaBases = []string{"https://schema.org/", "http://schema.org/", "https://www.schema.org/", "http://www.schema.org/"}

// schemaTerm reads a schema.org term written as an IRI, over http or
// https, with or without www and a trailing slash, or as "schema:Term".
func schemaTerm(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "schema:")
	for _, b := range schemaBases {
		if ok {
			break
		}
		if len(s) > len(b) && strings.EqualFold(s[:len(b)], b) {
			rest, ok = s[len(b):], true
		}
	}
	rest = strings.TrimSuffix(rest, "/")
	if !ok || rest == "" || strings.ContainsAny(rest, "/#?: ") {
		return s, false
	}
	return rest, true
}

// sameElsewhere finds the node that e declares again in another syntax:
// one that shares a type and the name, and whose url and @id do not
// differ from e's. A site whose SEO plugin writes JSON-LD and whose theme
// writes microdata says who it is twice; the graph counts it once. Within
// one syntax nodes are merged only by @id.
func (g *Graph) sameElsewhere(e *Entity) *Entity {
	key := nameKey(e)
	if key == "" || len(e.Types) == 0 {
		return nil
	}
	for _, prev := range g.byName[key] {
		if prev.Syntax&e.Syntax != 0 || !prev.Is(e.Types...) {
			continue
		}
		if prev.ID != "" && e.ID != "" && prev.ID != e.ID {
			continue
		}
		if u, v := sameURLKey(prev.String("url")), sameURLKey(e.String("url")); u != "" && v != "" && u != v {
			continue
		}
		return prev
	}
	return nil
}

// nameKey is an entity's name as sameElsewhere compares it.
func nameKey(e *Entity) string {
	return strings.ToLower(strings.Join(strings.Fields(e.String("name")), " "))
}

func sameURLKey(u string) string { return strings.TrimSuffix(strings.ToLower(u), "/") }
