// Package microdata reads the schema.org data a page declares in HTML
// attributes rather than in JSON-LD: microdata (itemscope, itemtype,
// itemid, itemprop, itemref) and RDFa (RDFa Lite's vocab, prefix,
// typeof, property and resource, with about and rel of RDFa 1.1). It
// returns jsonld.Node trees, which the page hands to its jsonld.Graph, so
// every check reads the three syntaxes as one graph.
//
// # Microdata
//
// Items are read by the WHATWG microdata algorithm: an item's properties
// are the itemprop elements under it and under the elements its itemref
// names, not looking into nested items, which are values in their turn;
// the itemid of a typed item is its @id; a property's value is a <meta>
// element's content, the URL of a link or an embedded resource (href,
// src, data) resolved against the document's base, the value of <data>
// and <meter>, the datetime of <time>, or else the element's text. Two
// readings follow what search engines do rather than the letter of the
// algorithm: a content attribute on any element gives the value (<span
// itemprop="price" content="49.00">$49</span>), and an item whose
// itemprop no other item claims is read as a top-level item rather than
// dropped. An element's text is the text a reader sees: scripts and
// styles left out, the words of separate blocks kept apart.
//
// # RDFa
//
// A typeof starts a node: named by about, or by resource, href or src,
// or else anonymous. Terms are read under the nearest vocab, CURIEs under
// the prefixes in scope (prefix, xmlns:…, and RDFa's initial context,
// where schema: is schema.org). A property on the element of a typeof
// takes that node as its value, and the elements inside describe it;
// otherwise a property's value is its content attribute, its resource,
// href or src, a <time>'s datetime, or its text. Only resource and about
// change the subject of the elements inside: an <a href> does not, as
// RDFa Lite markup expects. rel is read only with prefixed or absolute
// names, since bare ones are HTML link types (stylesheet, nofollow).
//
// # Limits
//
// The work is bounded on any page: elements visited, items and nodes
// read, the text kept of one value, and the nesting of values. What lies
// beyond a limit is left unread and named in Found.Cut.
package microdata

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

// The limits of one document's reading.
const (
	// maxVisits bounds the elements and text nodes visited by each
	// reader, itemref crawls and text values included.
	maxVisits = 400_000
	// maxItems bounds the microdata items and RDFa nodes read.
	maxItems = 1000
	// maxText bounds the bytes of one text value.
	maxText = 4096
	// maxNesting bounds how deep values nest in one another.
	maxNesting = 64
)

// Found is what a document declares in HTML attributes.
type Found struct {
	// Microdata and RDFa are the top-level nodes of each syntax, in
	// document order, with the nodes nested in them.
	Microdata []*jsonld.Node
	RDFa      []*jsonld.Node
	// Cut names what was left unread beyond the limits ("microdata: items
	// after the first 1000"); empty when everything was read.
	Cut []string
}

// Read reads the microdata and RDFa of a parsed document; base resolves
// relative URLs (the document's <base href>, else its URL; nil leaves
// them as written).
func Read(root *html.Node, base *url.URL) Found {
	var f Found
	if root == nil {
		return f
	}
	var cut string
	f.Microdata, cut = readMicrodata(root, base)
	if cut != "" {
		f.Cut = append(f.Cut, "microdata: "+cut)
	}
	f.RDFa, cut = readRDFa(root, base)
	if cut != "" {
		f.Cut = append(f.Cut, "RDFa: "+cut)
	}
	return f
}

// budget counts the visits left to a reader and remembers why it stopped.
type budget struct {
	visits int
	items  int
	cut    string
}

func newBudget() *budget { return &budget{visits: maxVisits, items: maxItems} }

// visit spends one visit; false once none is left.
func (b *budget) visit() bool {
	if b.visits <= 0 {
		b.stop(fmt.Sprintf("elements after the first %d visits", maxVisits))
		return false
	}
	b.visits--
	return true
}

// item spends one item; false once none is left.
func (b *budget) item() bool {
	if b.items <= 0 {
		b.stop(fmt.Sprintf("items after the first %d", maxItems))
		return false
	}
	b.items--
	return true
}

func (b *budget) stop(why string) {
	if b.cut == "" {
		b.cut = why
	}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// resolve makes a URL attribute absolute against base, as the DOM's URL
// reflection does; "" when it does not parse.
func resolve(base *url.URL, raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if base == nil {
		return u.String()
	}
	return base.ResolveReference(u).String()
}

// skipText are the elements whose content is no text a reader sees.
var skipText = map[string]bool{"script": true, "style": true, "template": true, "noscript": true}

// text is an element's text, whitespace collapsed, at most maxText
// bytes; every node visited is spent from b.
func text(n *html.Node, b *budget) string {
	var sb strings.Builder
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !b.visit() || sb.Len() >= maxText {
				return false
			}
			switch c.Type {
			case html.TextNode:
				sb.WriteString(c.Data)
			case html.ElementNode:
				if skipText[c.Data] {
					continue
				}
				if blockish[c.Data] {
					sb.WriteByte(' ')
				}
				if !walk(c) {
					return false
				}
				if blockish[c.Data] {
					sb.WriteByte(' ')
				}
			}
		}
		return true
	}
	walk(n)
	s := strings.Join(strings.Fields(sb.String()), " ")
	if len(s) > maxText {
		i := maxText
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i]
	}
	return s
}

// blockish elements separate the words on either side of them, as a
// rendered page shows them; textContent would run "Acme" and "Inc" of
// two lines together.
var blockish = map[string]bool{
	"br": true, "p": true, "div": true, "li": true, "td": true, "th": true, "tr": true, "dt": true, "dd": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
}
