package microdata

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

// initialPrefixes are the prefixes of RDFa 1.1's initial context that
// pages use without declaring them; schema: is the one that matters here.
var initialPrefixes = map[string]string{
	"schema":  "http://schema.org/",
	"og":      "http://ogp.me/ns#",
	"dc":      "http://purl.org/dc/terms/",
	"dcterms": "http://purl.org/dc/terms/",
	"foaf":    "http://xmlns.com/foaf/0.1/",
	"rdf":     "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
	"rdfs":    "http://www.w3.org/2000/01/rdf-schema#",
	"xsd":     "http://www.w3.org/2001/XMLSchema#",
	"owl":     "http://www.w3.org/2002/07/owl#",
	"sioc":    "http://rdfs.org/sioc/ns#",
	"skos":    "http://www.w3.org/2004/02/skos/core#",
	"gr":      "http://purl.org/goodrelations/v1#",
	"vcard":   "http://www.w3.org/2006/vcard/ns#",
	"cc":      "http://creativecommons.org/ns#",
	"xhv":     "http://www.w3.org/1999/xhtml/vocab#",
}

// rnode is an RDFa node: named by an IRI, or anonymous.
type rnode struct {
	id    string
	types []string
	props []rprop
	// used marks a node given inline as another node's value; the others
	// are top-level.
	used bool
}

// rprop is one property of a node; its value is a string, an iri or an
// *rnode.
type rprop struct {
	name  string
	value any
}

// iri is a resource value (resource, href, src), not text.
type iri string

// rctx is what an element passes on to the elements inside it.
type rctx struct {
	vocab    string
	prefixes map[string]string
	// subject is the node the properties describe; nil for the document
	// itself, whose properties (Open Graph's, say) are no schema.org node.
	subject *rnode
}

type rdfaReader struct {
	base  *url.URL
	b     *budget
	named map[string]*rnode
	nodes []*rnode // in order of creation
	built int
}

// readRDFa returns the document's top-level typed RDFa nodes, in
// document order, and what was left unread.
func readRDFa(root *html.Node, base *url.URL) ([]*jsonld.Node, string) {
	r := &rdfaReader{base: base, b: newBudget(), named: map[string]*rnode{}}
	r.walk(root, rctx{prefixes: initialPrefixes})
	var out []*jsonld.Node
	for _, n := range r.nodes {
		if n.used || len(n.types) == 0 {
			continue
		}
		if x := r.export(n, 0, map[*rnode]bool{}); x != nil {
			out = append(out, x)
		}
	}
	return out, r.b.cut
}

func (r *rdfaReader) walk(n *html.Node, ctx rctx) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if !r.b.visit() {
			return
		}
		if c.Data == "template" {
			continue
		}
		r.walk(c, r.element(c, ctx))
	}
}

// element reads one element's RDFa and returns the context of the
// elements inside it.
func (r *rdfaReader) element(el *html.Node, ctx rctx) rctx {
	local := ctx
	if v, ok := attr(el, "vocab"); ok {
		local.vocab = vocabIRI(v)
	}
	local.prefixes = declaredPrefixes(el, ctx.prefixes)
	propAttr, _ := attr(el, "property")
	relAttr, _ := attr(el, "rel")
	typeAttr, hasType := attr(el, "typeof")
	about, hasAbout := attr(el, "about")
	resource, hasResource := attr(el, "resource")
	props := expand(propAttr, local, true)
	// Bare rel values are HTML link types, not vocabulary terms.
	rels := expand(relAttr, local, false)
	types := expand(typeAttr, local, true)

	subject := ctx.subject
	var typed *rnode
	switch {
	case hasAbout:
		subject = r.node(resolve(r.base, about))
		if subject != nil {
			subject.types = appendNew(subject.types, types)
		}
	case hasType:
		typed = r.node(r.objectIRI(el))
		if typed != nil {
			typed.types = appendNew(typed.types, types)
		}
	case hasResource && len(props) == 0 && len(rels) == 0:
		subject = r.node(resolve(r.base, resource))
	}

	if len(props) > 0 && subject != nil {
		var v any
		if typed != nil {
			v, typed.used = typed, true
		} else {
			v = r.literal(el)
		}
		for _, p := range props {
			subject.props = append(subject.props, rprop{p, v})
		}
	}
	if len(rels) > 0 && subject != nil {
		var v any
		switch {
		case typed != nil && !typed.used:
			v, typed.used = typed, true
		case typed != nil && typed.id != "":
			v = iri(typed.id)
		case typed == nil:
			if o := r.objectIRI(el); o != "" {
				v = iri(o)
			}
		}
		if v != nil {
			for _, p := range rels {
				subject.props = append(subject.props, rprop{p, v})
			}
		}
	}
	local.subject = subject
	if typed != nil {
		local.subject = typed
	}
	return local
}

// literal is the value of a property without a typeof: its content
// attribute, its resource, href or src, a <time>'s datetime, or its text.
func (r *rdfaReader) literal(el *html.Node) any {
	if c, ok := attr(el, "content"); ok {
		return strings.TrimSpace(c)
	}
	if o := r.objectIRI(el); o != "" {
		return iri(o)
	}
	if el.Data == "time" {
		if v, ok := attr(el, "datetime"); ok {
			return strings.TrimSpace(v)
		}
	}
	return text(el, r.b)
}

// objectIRI is the resource an element names: resource, else href, else
// src, resolved; "" for none.
func (r *rdfaReader) objectIRI(el *html.Node) string {
	for _, k := range []string{"resource", "href", "src"} {
		if v, ok := attr(el, k); ok {
			return resolve(r.base, v)
		}
	}
	return ""
}

// node returns the node named id, made on first use, or a new anonymous
// node for ""; nil when the item budget is spent.
func (r *rdfaReader) node(id string) *rnode {
	if n := r.named[id]; id != "" && n != nil {
		return n
	}
	if !r.b.item() {
		return nil
	}
	n := &rnode{id: id}
	if id != "" {
		r.named[id] = n
	}
	r.nodes = append(r.nodes, n)
	return n
}

// export turns a node into a jsonld.Node. A node met again inside itself
// becomes a reference by its IRI, and a resource value that names a typed
// node of the page a reference to it.
func (r *rdfaReader) export(n *rnode, depth int, open map[*rnode]bool) *jsonld.Node {
	if depth >= maxNesting {
		r.b.stop(fmt.Sprintf("nodes nested deeper than %d", maxNesting))
		return nil
	}
	if r.built >= maxBuilt {
		r.b.stop(fmt.Sprintf("values after the first %d nodes", maxBuilt))
		return nil
	}
	r.built++
	out := &jsonld.Node{ID: n.id, Types: n.types}
	open[n] = true
	defer delete(open, n)
	for _, p := range n.props {
		var v any
		switch x := p.value.(type) {
		case string:
			v = x
		case iri:
			if t := r.named[string(x)]; t != nil && len(t.types) > 0 {
				v = &jsonld.Node{ID: string(x)}
			} else {
				v = string(x)
			}
		case *rnode:
			switch {
			case open[x] && x.id != "":
				v = &jsonld.Node{ID: x.id}
			case !open[x]:
				if c := r.export(x, depth+1, open); c != nil {
					v = c
				}
			}
		}
		if v != nil {
			out.Props = append(out.Props, jsonld.Prop{Name: p.name, Value: v})
		}
	}
	return out
}

// declaredPrefixes adds the prefixes an element declares (prefix="p:
// IRI …" and xmlns:p="IRI") to those in scope; the map is copied only
// when the element declares one.
func declaredPrefixes(el *html.Node, in map[string]string) map[string]string {
	out, copied := in, false
	set := func(p, v string) {
		p = strings.ToLower(p)
		if p == "" || p == "_" || v == "" {
			return
		}
		if !copied {
			out, copied = make(map[string]string, len(in)+1), true
			for k, x := range in {
				out[k] = x
			}
		}
		out[p] = v
	}
	for _, a := range el.Attr {
		switch {
		case a.Namespace == "" && strings.HasPrefix(a.Key, "xmlns:"):
			set(a.Key[len("xmlns:"):], strings.TrimSpace(a.Val))
		case a.Namespace == "xmlns":
			set(a.Key, strings.TrimSpace(a.Val))
		}
	}
	if v, ok := attr(el, "prefix"); ok {
		f := strings.Fields(v)
		for i := 0; i+1 < len(f); i++ {
			if p, ok := strings.CutSuffix(f[i], ":"); ok && !strings.Contains(p, ":") {
				set(p, f[i+1])
				i++
			}
		}
	}
	return out
}

// expand reads the names of a typeof, property or rel attribute as IRIs:
// a CURIE under its prefix ("schema:Person"), an absolute IRI as written,
// and, when terms is set, a term under the vocab in scope ("Person").
// A name with an undeclared prefix is read as an IRI (typeof="mw:File"
// is one); a blank node ("_:b0") and a term outside any vocab are
// dropped.
func expand(v string, ctx rctx, terms bool) []string {
	var out []string
	for _, tok := range strings.Fields(v) {
		var full string
		if p, ref, ok := strings.Cut(tok, ":"); ok {
			switch m, known := ctx.prefixes[strings.ToLower(p)]; {
			case p == "_":
				continue
			case known && !strings.HasPrefix(ref, "//"):
				full = m + ref
			default:
				full = tok
			}
		} else {
			if !terms || ctx.vocab == "" {
				continue
			}
			full = ctx.vocab + tok
		}
		if !slices.Contains(out, full) {
			out = append(out, full)
		}
	}
	return out
}

// vocabIRI is a vocab attribute's IRI. vocab="https://schema.org", with
// no trailing slash, is common and meant as schema.org's namespace.
func vocabIRI(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasSuffix(v, "/") || strings.HasSuffix(v, "#") {
		return v
	}
	if u, err := url.Parse(v); err == nil && u.Path == "" && (strings.EqualFold(u.Host, "schema.org") || strings.EqualFold(u.Host, "www.schema.org")) {
		return v + "/"
	}
	return v
}

func appendNew(list, add []string) []string {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}
