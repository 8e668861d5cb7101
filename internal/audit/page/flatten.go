package page

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Deep nesting. The HTML parser gives up on a document once its stack of
// open elements passes 512 (a guard against quadratic work), while
// browsers read such a page to the end: generated markup nested a
// thousand deep, or thousands of <b> and <i> that are never closed, still
// carry text a crawler indexes. When the parser gives up, the document is
// read again with the start tags beyond a nesting cap dropped (with their
// end tags) and their text kept, so the page is read as one text run at
// that depth instead of not at all.

// MaxElements bounds the elements of a parsed document. A DOM costs
// several times its HTML in memory (a node is about 200 bytes, and the
// checks keep it for the whole scan), so a page with more elements is
// read up to the start tag of the first element beyond the cap; the page
// says so (Page.Truncated) and the findings drawn from it say what part
// was read. Large real pages (a long encyclopedia article, a store's
// homepage with its mega menu) have 5 000 to 25 000.
const MaxElements = 30000

// elementCut returns how many bytes of body hold its first max start
// tags: len(body) when it has no more. One pass of the tokenizer, which
// allocates next to nothing when tokens are not materialised.
func elementCut(body []byte, max int) int {
	z := html.NewTokenizer(bytes.NewReader(body))
	off, n := 0, 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return len(body)
		case html.StartTagToken, html.SelfClosingTagToken:
			if n == max {
				return off
			}
			n++
		}
		off += len(z.Raw())
	}
}

// parseHTML parses a document up to MaxElements elements, flattening it
// first when it nests too deep for the parser, and returns how many of
// its bytes were read. Time and memory stay linear in the input.
func parseHTML(body []byte) (*html.Node, int, error) {
	read := elementCut(body, MaxElements)
	root, err := html.Parse(bytes.NewReader(body[:read]))
	if err == nil {
		return root, read, nil
	}
	// Each cap leaves room below the parser's limit for the elements it
	// adds itself (tbody and tr in tables, reopened formatting elements);
	// a lower cap is the fallback for input that adds many of them. The
	// elements flatten drops cost nothing, so the element cap applies to
	// what it keeps; a cut then falls in the flattened document, whose
	// bytes are fewer than the original's, so the original was read at
	// least that far.
	for _, c := range []flattenCap{{depth: 128, extra: 64, formatting: 64}, {depth: 16, extra: 8, formatting: 8}} {
		flat := flatten(body, c)
		cut := elementCut(flat, MaxElements)
		if root, err2 := html.Parse(bytes.NewReader(flat[:cut])); err2 == nil {
			if cut == len(flat) {
				return root, len(body), nil
			}
			return root, cut, nil
		}
	}
	return nil, 0, err
}

// flattenCap bounds the elements flatten keeps open: depth the open
// elements, and extra more for elements that carry meaning (links,
// headings, paragraphs, landmarks) so that those deep in a page still
// count; formatting bounds the formatting elements (b, i, font, …) opened
// and not yet closed by their own end tag, which the parser reopens
// inside every later block.
type flattenCap struct{ depth, extra, formatting int }

// flatten rewrites a document so that no more than c.depth elements are
// open at once and no more than c.formatting formatting elements are left
// unclosed: start tags beyond the caps are dropped, and so are their end
// tags; everything else (text, comments, the other tags) is copied as it
// was written. The nesting is tracked the simple way (void elements do
// not nest, an end tag closes everything opened after its start tag),
// which is close enough to the parser's to stay under its limit.
func flatten(body []byte, c flattenCap) []byte {
	z := html.NewTokenizer(bytes.NewReader(body))
	var out bytes.Buffer
	out.Grow(len(body))
	// stack holds every open element, kept or dropped; open counts the
	// open elements per name, so that an end tag that closes nothing
	// costs nothing and every element is pushed and popped once.
	type entry struct {
		name int
		a    atom.Atom
		kept bool
	}
	var stack []entry
	ids := map[string]int{}
	var open []int
	kept, formatting, foreign := 0, 0, 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			// The end of the input, or a tokenizer error the parser would
			// stop at too.
			return out.Bytes()
		case html.StartTagToken, html.SelfClosingTagToken:
			raw := z.Raw()
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if voidElements[a] || (tt == html.SelfClosingTagToken && foreign > 0) {
				out.Write(raw)
				continue
			}
			n, ok := ids[string(name)]
			if !ok {
				n = len(open)
				ids[string(name)] = n
				open = append(open, 0)
			}
			// Raw-text elements are always kept: their content is not
			// markup, and dropping <script> would turn its code into text.
			room := kept < c.depth || (meaningful[a] && kept < c.depth+c.extra)
			keep := rawTextElements[a] || (room && (!formattingElements[a] || formatting < c.formatting))
			stack = append(stack, entry{name: n, a: a, kept: keep})
			open[n]++
			if !keep {
				continue
			}
			kept++
			if formattingElements[a] {
				formatting++
			}
			if a == atom.Svg || a == atom.Math {
				foreign++
			}
			out.Write(raw)
		case html.EndTagToken:
			name, _ := z.TagName()
			n, ok := ids[string(name)]
			if !ok || open[n] == 0 {
				// It closes nothing open; the parser decides what it means
				// (</p> and </br> make elements).
				out.Write(z.Raw())
				continue
			}
			// Close everything opened after the matching start tag.
			var e entry
			for {
				e = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				open[e.name]--
				if e.kept {
					kept--
					if e.a == atom.Svg || e.a == atom.Math {
						foreign--
					}
				}
				if e.name == n {
					break
				}
			}
			if e.kept {
				// Formatting elements closed by another end tag stay
				// counted: the parser keeps reopening them.
				if formattingElements[e.a] {
					formatting--
				}
				out.Write(z.Raw())
			}
		default:
			out.Write(z.Raw())
		}
	}
}

// voidElements never have content or an end tag.
var voidElements = map[atom.Atom]bool{
	atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true, atom.Hr: true, atom.Img: true,
	atom.Input: true, atom.Link: true, atom.Meta: true, atom.Param: true, atom.Source: true, atom.Track: true,
	atom.Wbr: true, atom.Keygen: true, atom.Frame: true, atom.Basefont: true, atom.Bgsound: true,
}

// formattingElements are the elements the parser reopens after a block
// closes them (the list of active formatting elements).
var formattingElements = map[atom.Atom]bool{
	atom.A: true, atom.B: true, atom.Big: true, atom.Code: true, atom.Em: true, atom.Font: true, atom.I: true,
	atom.Nobr: true, atom.S: true, atom.Small: true, atom.Strike: true, atom.Strong: true, atom.Tt: true, atom.U: true,
}

// meaningful are the elements the checks read (links, headings,
// paragraphs, list items, landmarks), kept a little deeper than wrappers.
var meaningful = map[atom.Atom]bool{
	atom.A: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.P: true, atom.Li: true, atom.Dt: true, atom.Dd: true, atom.Blockquote: true, atom.Pre: true, atom.Time: true,
	atom.Main: true, atom.Article: true, atom.Section: true, atom.Header: true, atom.Footer: true, atom.Nav: true, atom.Aside: true,
}

// rawTextElements hold text the tokenizer does not read as markup.
var rawTextElements = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Textarea: true, atom.Title: true, atom.Xmp: true,
	atom.Iframe: true, atom.Noembed: true, atom.Noframes: true, atom.Noscript: true, atom.Plaintext: true,
}
