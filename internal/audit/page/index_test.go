package page

import (
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/require"
)

// The one walk Parse reads a document with finds what each of its
// selectors finds, in the same order.
func TestIndexFindsWhatSelectorsFind(t *testing.T) {
	t.Parallel()
	keys := []string{
		"title", "head title", "html", "meta", "link", "a", "p", "img", "script", "body", "base[href]",
		"time[datetime]", "[id], a[name]", "h1, h2, h3, h4, h5, h6", "main, article, [role=main]", "[data-nosnippet]",
	}
	docs := []string{
		`<!doctype html><html lang=en><head><title>T</title><base target=_blank><base href="/x/"><meta name=a content=b>
		<link rel=canonical href=/c><script>var a</script><script type="application/ld+json">{}</script></head>
		<body><h2 id=s>S</h2><a name=n>n</a><a id=i href=#s>i</a><svg><a href=/svg>s</a><title>svg title</title></svg>
		<main><article role=main><h1>H</h1><p>one <time datetime=2026-01-01>x</time><time>y</time></p></article></main>
		<div role=MAIN data-nosnippet><div data-nosnippet><p>two</p></div></div><template><p id=t>t</p><a href=/t>t</a></template>
		<img src=/i.png alt=i><h6>six</h6><noscript><img src=/n.png></noscript><section role="main navigation"></section>
		<object><a name=o href=/o>o</a></object></body></html>`,
		`<title>Only</title><p>fragment`,
		`<html><body><math><mi id=m>x</mi></math><table><tr><td><a href=/td>td</a></td></tr></table><a name="">e</a></body></html>`,
		``,
	}
	for _, d := range docs {
		root, _, err := parseHTML([]byte(d))
		require.NoError(t, err)
		doc := goquery.NewDocumentFromNode(root)
		idx := indexElements(root)
		for _, k := range keys {
			require.Equal(t, doc.Find(k).Nodes, doc.FindNodes(idx[k]...).Nodes, "%s in %.50q", k, d)
		}
		for k := range idx {
			require.Contains(t, keys, k)
		}
	}
}
