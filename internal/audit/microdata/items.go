package microdata

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

// mdReader reads the microdata of one document.
type mdReader struct {
	base *url.URL
	b    *budget
	// ids holds the first element with each id, for itemref.
	ids map[string]*html.Node
	// order is the position in tree order of every itemprop element: an
	// item's properties are listed in tree order, whatever the order of
	// its itemref.
	order map[*html.Node]int
	// props memoises an item's property elements.
	props map[*html.Node][]*html.Node
	// built counts the nodes returned, each occurrence of an item as a
	// value included.
	built int
}

// maxBuilt bounds the nodes a document's microdata yields: an item named
// by the itemref of many others is a value of each.
const maxBuilt = 2 * maxItems

// readMicrodata returns the document's top-level items, in tree order,
// and what was left unread.
func readMicrodata(root *html.Node, base *url.URL) ([]*jsonld.Node, string) {
	r := &mdReader{base: base, b: newBudget(), ids: map[string]*html.Node{}, order: map[*html.Node]int{}, props: map[*html.Node][]*html.Node{}}
	var scopes []*html.Node
	var collect func(n *html.Node)
	collect = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if !r.b.visit() {
				return
			}
			// A template's content is not part of the document.
			if c.Data == "template" {
				continue
			}
			if id, ok := attr(c, "id"); ok && id != "" {
				if _, dup := r.ids[id]; !dup {
					r.ids[id] = c
				}
			}
			if _, ok := attr(c, "itemprop"); ok {
				r.order[c] = len(r.order)
			}
			if _, ok := attr(c, "itemscope"); ok {
				scopes = append(scopes, c)
			}
			collect(c)
		}
	}
	collect(root)
	// Every item's properties first: an itemprop element that no item
	// claims is read as a top-level item, as search engines read it.
	claimed := map[*html.Node]bool{}
	for _, s := range scopes {
		ps, ok := r.properties(s)
		if !ok {
			break
		}
		for _, p := range ps {
			claimed[p] = true
		}
	}
	var top []*jsonld.Node
	for _, s := range scopes {
		if _, read := r.props[s]; !read {
			break
		}
		if len(names(s)) > 0 && claimed[s] {
			continue
		}
		if n := r.build(s, 0, map[*html.Node]bool{}); n != nil {
			top = append(top, n)
		}
	}
	return top, r.b.cut
}

// names are the property names of an itemprop attribute, each once.
func names(el *html.Node) []string {
	v, ok := attr(el, "itemprop")
	if !ok {
		return nil
	}
	var out []string
	for _, f := range strings.Fields(v) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// properties returns an item's property elements, crawling them the
// first time; false when the item budget is spent.
func (r *mdReader) properties(item *html.Node) ([]*html.Node, bool) {
	if ps, ok := r.props[item]; ok {
		return ps, true
	}
	if !r.b.item() {
		return nil, false
	}
	ps := r.crawl(item)
	r.props[item] = ps
	return ps, true
}

// crawl is the WHATWG algorithm for the properties of an item: the
// elements under the item and under those its itemref names, not looking
// into nested items, each element once, the ones with a property name
// kept, in tree order.
func (r *mdReader) crawl(root *html.Node) []*html.Node {
	// Without itemref the walk is a tree walk that meets no element
	// twice; memory is only needed when itemref can lead back.
	var memory map[*html.Node]bool
	var pending []*html.Node
	pushChildren := func(n *html.Node) {
		for c := n.LastChild; c != nil; c = c.PrevSibling {
			if c.Type == html.ElementNode {
				pending = append(pending, c)
			}
		}
	}
	if refs, ok := attr(root, "itemref"); ok {
		memory = map[*html.Node]bool{root: true}
		ids := strings.Fields(refs)
		for i := len(ids) - 1; i >= 0; i-- {
			if el := r.ids[ids[i]]; el != nil {
				pending = append(pending, el)
			}
		}
	}
	pushChildren(root)
	var results []*html.Node
	for len(pending) > 0 {
		cur := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if !r.b.visit() {
			break
		}
		// Seen already: itemref naming an element inside the item, or
		// one of its ancestors.
		if memory[cur] || cur.Data == "template" {
			continue
		}
		if memory != nil {
			memory[cur] = true
		}
		if _, scope := attr(cur, "itemscope"); !scope {
			pushChildren(cur)
		}
		if len(names(cur)) > 0 {
			results = append(results, cur)
		}
	}
	slices.SortStableFunc(results, func(a, b *html.Node) int { return r.order[a] - r.order[b] })
	return results
}

// build returns the node of an item with its property values; an item
// that is among its own values (through itemref) is left out there, as
// the algorithm's error value is.
func (r *mdReader) build(item *html.Node, depth int, open map[*html.Node]bool) *jsonld.Node {
	if depth >= maxNesting {
		r.b.stop(fmt.Sprintf("items nested deeper than %d", maxNesting))
		return nil
	}
	if r.built >= maxBuilt {
		r.b.stop(fmt.Sprintf("values after the first %d items", maxBuilt))
		return nil
	}
	ps, ok := r.properties(item)
	if !ok {
		return nil
	}
	r.built++
	typ, typed := attr(item, "itemtype")
	n := &jsonld.Node{Types: strings.Fields(typ)}
	if id, ok := attr(item, "itemid"); ok && typed {
		n.ID = resolve(r.base, id)
	}
	open[item] = true
	defer delete(open, item)
	for _, p := range ps {
		var v any
		if _, scope := attr(p, "itemscope"); scope {
			if open[p] {
				continue
			}
			c := r.build(p, depth+1, open)
			if c == nil {
				continue
			}
			v = c
		} else {
			v = r.value(p)
		}
		for _, name := range names(p) {
			n.Props = append(n.Props, jsonld.Prop{Name: name, Value: v})
		}
	}
	return n
}

// value is a property element's value: a content attribute on any
// element, a URL from the attribute the element's kind says, the value
// of <data> and <meter>, a <time>'s datetime, or else its text.
func (r *mdReader) value(el *html.Node) string {
	if c, ok := attr(el, "content"); ok {
		return strings.TrimSpace(c)
	}
	urlAttr := func(key string) string {
		v, ok := attr(el, key)
		if !ok {
			return ""
		}
		return resolve(r.base, v)
	}
	switch el.Data {
	case "meta":
		return ""
	case "audio", "embed", "iframe", "img", "source", "track", "video":
		return urlAttr("src")
	case "a", "area", "link":
		return urlAttr("href")
	case "object":
		return urlAttr("data")
	case "data", "meter":
		v, _ := attr(el, "value")
		return strings.TrimSpace(v)
	case "time":
		if v, ok := attr(el, "datetime"); ok {
			return strings.TrimSpace(v)
		}
	}
	return text(el, r.b)
}
