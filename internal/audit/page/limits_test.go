package page

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// bigPage is a page shaped like a store's homepage: a mega menu of
// nested wrappers and links, then a feed of cards, with text in the
// given language, and a marker paragraph at its very end.
func bigPage(text string, cards int) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html lang=\"x\"><head><title>Store</title><script>var s=1;</script></head><body><header><nav>")
	for i := range 500 {
		n := strconv.Itoa(i)
		b.WriteString("<div class=\"menu-col js-hover\"><span class=\"t\">" + n + "</span><a class=\"menu-link\" data-analytics=\"{&quot;c&quot;:" + n + "}\" href=\"/c/" + n + "\">" + text + "</a></div>")
	}
	b.WriteString("</nav></header><main><h1>" + text + "</h1>")
	for i := range cards {
		n := strconv.Itoa(i)
		b.WriteString("<section><div class=\"card\"><a href=\"/p/" + n + "\"><img src=\"/i/" + n + ".webp\" alt=\"" + text + "\"></a><h3>" + text + "</h3><p>" + text + "</p></div></section>")
	}
	b.WriteString("<p id=\"end\">THE-END-MARKER</p></main><footer><a href=\"/about\">About</a></footer></body></html>")
	return b.String()
}

func countElements(n *html.Node) int {
	c := 0
	if n.Type == html.ElementNode {
		c++
	}
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		c += countElements(k)
	}
	return c
}

// TestParseCapsElements: a page past MaxElements is parsed up to the cap,
// says it was cut and how much of it was read, and keeps what it read
// whole; a page under the cap is read to its end.
func TestParseCapsElements(t *testing.T) {
	u, _ := url.Parse("https://shop.example/")
	for _, text := range []string{
		"Free delivery on orders over 25 euros",
		"Kostenloser Versand ab 25 Euro für Bücher",
		"Бесплатная доставка от 25 евро",
		"25ユーロ以上のご注文で送料無料",
		"التوصيل مجاني للطلبات فوق 25 يورو",
	} {
		body := bigPage(text, MaxElements/5)
		p, err := Parse([]byte(body), u)
		require.NoError(t, err)
		require.True(t, p.Truncated, text)
		require.Equal(t, len(body), p.HTMLBytes)
		require.Less(t, p.ReadBytes, len(body))
		require.Positive(t, p.ReadBytes)
		// The cut falls on a tag's start, and the parser's own elements
		// (html, head, body) are all it adds.
		require.Equal(t, byte('<'), body[p.ReadBytes], text)
		require.LessOrEqual(t, countElements(p.Doc.Nodes[0]), MaxElements+3, text)
		require.NotContains(t, p.Text, "THE-END-MARKER")
		require.Contains(t, p.Text, text)
		require.Equal(t, text, p.Headings[0].Text)
		require.Equal(t, "Store", p.Title)

		small := bigPage(text, 100)
		p, err = Parse([]byte(small), u)
		require.NoError(t, err)
		require.False(t, p.Truncated, text)
		require.Equal(t, len(small), p.ReadBytes)
		require.Contains(t, p.Text, "THE-END-MARKER")
	}
}

// TestElementCutCountsStartTags: the cut is after exactly max start tags,
// whatever the text, comments, scripts and end tags between them.
func TestElementCutCountsStartTags(t *testing.T) {
	body := "<p>a</p><!-- <b>not a tag</b> --><script>if (a<b) document.write('<i>x</i>')</script><br/><p>b</p>"
	require.Equal(t, strings.Index(body, "<script>"), elementCut([]byte(body), 1))
	require.Equal(t, strings.Index(body, "<br/>"), elementCut([]byte(body), 2))
	require.Equal(t, strings.LastIndex(body, "<p>"), elementCut([]byte(body), 3))
	require.Equal(t, len(body), elementCut([]byte(body), 4))
	require.Equal(t, 0, elementCut([]byte(body), 0))
}
