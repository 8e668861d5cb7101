package page

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"
)

// The one walk that finds mount points and framework markers finds, for
// every selector it serves, the element goquery's search finds first,
// and the same inline scripts.
func TestMarksFindWhatSelectorsFind(t *testing.T) {
	t.Parallel()
	docs := []string{
		`<!doctype html><html><head><script>self.__next_f.push(1)</script><script src="/a.js"></script></head>
		<body><div id="app"><p>one</p></div><div id="app" data-reactroot>two</div><app-root><b>x</b></app-root>
		<svg><g id="root"></g></svg><template><div id="__nuxt" ng-version="17"></div></template>
		<astro-island></astro-island><section data-svelte-h="s"><div data-server-rendered="true" id="__NEXT_DATA__"></div></section>
		<script type="application/json" id="__NUXT_DATA__">{}</script><div ng-server-context="ssr" data-sveltekit-hydrate="1"></div>
		<main id="q-app"><div id="___gatsby"></div><div id="svelte"></div><div id="react-root"></div><div id="react-app"></div>
		<div id="main-app"></div><div id="application"></div><div id="__next"></div><div id="root">later</div></main>
		<script>window.__NUXT__={}</script></body></html>`,
		`<!doctype html><html><body><p id="ROOT">no marks here</p><script>var x</script></body></html>`,
		`<p>fragment`,
	}
	u, _ := url.Parse("https://example.com/")
	for _, d := range docs {
		p, err := Parse([]byte(d), u)
		require.NoError(t, err)
		for sel := range markSelectors {
			want := p.Doc.Find(sel)
			got := p.marked(sel)
			if want.Length() == 0 {
				require.Nil(t, got, "%s in %.40q", sel, d)
				continue
			}
			require.Same(t, want.Nodes[0], got, "%s in %.40q", sel, d)
		}
		scripts, texts := p.inlineScripts()
		want := p.Doc.Find("script:not([src])")
		require.Equal(t, want.Nodes, scripts.Nodes)
		require.Len(t, texts, want.Length())
		for i := range texts {
			require.Equal(t, want.Eq(i).Text(), texts[i])
		}
	}
	p, err := Parse([]byte(docs[0]), u)
	require.NoError(t, err)
	require.Contains(t, p.Frameworks(), "Next.js")
}
