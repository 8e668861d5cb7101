package jsonld_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

// labels names entities by Label, for comparing what a parse found.
func labels(es []*jsonld.Entity) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Label())
	}
	return out
}

func nested(g *jsonld.Graph) []*jsonld.Entity {
	out := []*jsonld.Entity{}
	for _, e := range g.Entities {
		if e.Nested {
			out = append(out, e)
		}
	}
	return out
}

// yoastGraph is the shape WordPress SEO plugins publish: one @graph whose
// nodes point at each other by @id.
const yoastGraph = `{"@context":"https://schema.org","@graph":[
{"@type":"WebPage","@id":"https://example.com/#webpage","url":"https://example.com/","name":"Home","isPartOf":{"@id":"https://example.com/#website"},"about":{"@id":"https://example.com/#organization"}},
{"@type":"WebSite","@id":"https://example.com/#website","url":"https://example.com/","name":"Example","publisher":{"@id":"https://example.com/#organization"}},
{"@type":"Organization","@id":"https://example.com/#organization","name":"Example","logo":{"@type":"ImageObject","@id":"https://example.com/#logo","url":"https://example.com/logo.png"},"sameAs":["https://x.com/example","https://github.com/example"]}
]}`

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		blocks []string
		valid  int
		errors []string // substrings, one per broken block, in order
		top    []string // labels of the top-level entities, in order
		nested []string // labels of the nested entities, in order
		empty  int
		quirks []string
	}{
		{
			name:   "one object",
			blocks: []string{`{"@context":"https://schema.org","@type":"Organization","name":"Example","url":"https://example.com/"}`},
			valid:  1, top: []string{"Organization Example"},
		},
		{
			name:   "top-level array",
			blocks: []string{`[{"@type":"WebSite","name":"Example"},{"@type":"Person","name":"Jane Doe"}]`},
			valid:  1, top: []string{"WebSite Example", "Person Jane Doe"},
		},
		{
			name:   "@graph with @id links and a nested logo",
			blocks: []string{yoastGraph},
			valid:  1,
			top:    []string{"WebPage https://example.com/#webpage", "WebSite https://example.com/#website", "Organization https://example.com/#organization"},
			nested: []string{"ImageObject https://example.com/#logo"},
		},
		{
			name:   "@graph as a single object",
			blocks: []string{`{"@context":"https://schema.org","@graph":{"@type":"Article","headline":"Hi","name":"Hi"}}`},
			valid:  1, top: []string{"Article Hi"},
		},
		{
			name:   "@graph beside the block's own node, which opens first",
			blocks: []string{`{"@type":"WebPage","name":"Page","@graph":[{"@type":"Thing","name":"Inner"}]}`},
			valid:  1, top: []string{"WebPage Page", "Thing Inner"},
		},
		{
			name:   "several blocks, one per plugin",
			blocks: []string{`{"@type":"Organization","name":"A"}`, `{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home"}]}`},
			valid:  2, top: []string{"Organization A", "BreadcrumbList"}, nested: []string{"ListItem Home"},
		},
		{
			name:   "type spellings: prefix, IRI, http IRI and arrays",
			blocks: []string{`[{"@type":"schema:Article","name":"A"},{"@type":"https://schema.org/Product","name":"B"},{"@type":"http://schema.org/Event","name":"C"},{"@type":["Organization","LocalBusiness"],"name":"D"}]`},
			valid:  1, top: []string{"Article A", "Product B", "Event C", "Organization/LocalBusiness D"},
		},
		{
			name:   "nested nodes inside untyped objects and arrays",
			blocks: []string{`{"@type":"Article","name":"A","author":[{"@type":"Person","name":"Jane"},{"@type":"Person","name":"Max"}],"x":{"y":{"@type":"Place","name":"Berlin"}}}`},
			valid:  1, top: []string{"Article A"}, nested: []string{"Person Jane", "Person Max", "Place Berlin"},
		},
		{
			name:   "a pure reference is not a node",
			blocks: []string{`[{"@id":"https://example.com/#org"},{"@type":"WebSite","name":"W","publisher":{"@id":"https://example.com/#org"}}]`},
			valid:  1, top: []string{"WebSite W"},
		},
		{
			name: "an @id declared twice is merged into one node",
			blocks: []string{
				`{"@type":"Organization","@id":"#org","name":"First"}`,
				`{"@type":["Organization","Corporation"],"@id":"#org","name":"Second","url":"https://example.com/"}`,
			},
			valid: 2, top: []string{"Organization/Corporation #org"},
		},
		{
			name:   "HTML comment and CDATA wrappers",
			blocks: []string{"<!--\n{\"@type\":\"Thing\",\"name\":\"C\"}\n-->", "<![CDATA[{\"@type\":\"Thing\",\"name\":\"D\"}]]>"},
			valid:  2, top: []string{"Thing C", "Thing D"},
			quirks: []string{"block 1: wrapped in an HTML comment", "block 2: wrapped in CDATA markers"},
		},
		{
			name: "XHTML-era CDATA behind script comments",
			blocks: []string{
				"//<![CDATA[\n{\"@type\":\"Thing\",\"name\":\"E\"}\n//]]>",
				"/*<![CDATA[*/{\"@type\":\"Thing\",\"name\":\"F\"}/*]]>*/",
				"<!--\n{\"@type\":\"Thing\",\"name\":\"G\"}\n//-->",
			},
			valid: 3, top: []string{"Thing E", "Thing F", "Thing G"},
			quirks: []string{"block 1: wrapped in CDATA markers", "block 2: wrapped in CDATA markers", "block 3: wrapped in an HTML comment"},
		},
		{
			name:   "a byte-order mark and a trailing semicolon",
			blocks: []string{"\uFEFF{\"@type\":\"Thing\",\"name\":\"H\"}", "{\"@type\":\"Thing\",\"name\":\"I\"};\n", "\uFEFF //<![CDATA[\n[{\"@type\":\"Thing\",\"name\":\"J\"}];\n//]]>"},
			valid:  3, top: []string{"Thing H", "Thing I", "Thing J"},
			quirks: []string{"block 1: starts with a byte-order mark", "block 2: ends with a semicolon", "block 3: starts with a byte-order mark", "block 3: wrapped in CDATA markers", "block 3: ends with a semicolon"},
		},
		{
			name:   "empty blocks are neither valid nor broken",
			blocks: []string{"", " \n\t", "<!-- -->", `{"@type":"Thing","name":"K"}`},
			valid:  1, empty: 3, top: []string{"Thing K"},
			quirks: []string{"block 1: empty", "block 2: empty", "block 3: wrapped in an HTML comment", "block 3: empty"},
		},
		{
			name:   "a value that is no node",
			blocks: []string{`"just a string"`, `42`, `null`, `{}`},
			valid:  4, top: []string{},
		},
		{
			name:   "trailing comma",
			blocks: []string{`{"@type":"Organization","name":"A",}`, `{"@type":"WebSite","name":"W"}`},
			valid:  1, errors: []string{"block 1: invalid character '}'"}, top: []string{"WebSite W"},
		},
		{
			name:   "truncated block",
			blocks: []string{`{"@type":"Organization","name":"A"`},
			errors: []string{"block 1: unexpected EOF"}, top: []string{},
		},
		{
			name:   "two values in one block",
			blocks: []string{`{"@type":"A"}{"@type":"B"}`},
			errors: []string{"block 1: trailing data after the JSON value"}, top: []string{},
		},
		{
			name:   "an HTML page where JSON was expected",
			blocks: []string{`<html><body>Not found</body></html>`},
			errors: []string{"block 1: invalid character '<'"}, top: []string{},
		},
		{
			name:   "absurd nesting is an error, not a crash",
			blocks: []string{strings.Repeat("[", 20000) + strings.Repeat("]", 20000)},
			errors: []string{"exceeded max depth"}, top: []string{},
		},
		{
			name:   "NUL bytes",
			blocks: []string{"{\"@type\":\"Thing\",\"name\":\"a\x00b\"}"},
			errors: []string{"block 1: invalid character"}, top: []string{},
		},
		{
			name:   "escaped NUL and non-UTF-8 leftovers inside strings",
			blocks: []string{"{\"@type\":\"Thing\",\"name\":\"a\\u0000b caf\xe9\"}"},
			valid:  1, top: []string{"Thing a\x00b caf\ufffd"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := jsonld.Parse(tc.blocks)
			require.Equal(t, len(tc.blocks), g.Blocks)
			require.Equal(t, tc.valid, g.Valid)
			require.Equal(t, tc.empty, g.Empty)
			require.Equal(t, tc.quirks, g.Quirks)
			require.Len(t, g.Errors, len(tc.errors), "errors: %v", g.Errors)
			for i, want := range tc.errors {
				require.Contains(t, g.Errors[i], want)
			}
			require.Equal(t, tc.top, labels(g.TopLevel()))
			require.Equal(t, append([]string{}, tc.nested...), labels(nested(g)))
		})
	}
}

func TestParseNothing(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse(nil)
	require.Zero(t, g.Blocks)
	require.Empty(t, g.Entities)
	require.Empty(t, g.Types())
	require.False(t, g.Has("Thing"))
	require.Nil(t, g.ByID("#x"))
	require.Zero(t, g.Edges())
	require.Empty(t, g.Islands())
}

func TestMergedNode(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse([]string{
		`{"@type":"WebSite","name":"W","publisher":{"@type":"Organization","@id":"#org","name":"Nested"}}`,
		`{"@type":["Organization","Corporation"],"@id":"#org","name":"Top","url":"https://example.com/"}`,
	})
	org := g.ByID("#org")
	require.NotNil(t, org)
	// The first declaration's properties win; the second adds what was missing.
	require.Equal(t, "Nested", org.String("name"))
	require.Equal(t, "https://example.com/", org.String("url"))
	require.Equal(t, []string{"Organization", "Corporation"}, org.Types)
	// Declared at the top level once, the node is not nested.
	require.False(t, org.Nested)
	require.Len(t, g.OfType("Organization"), 1)
}

func TestTypesInOrderOfAppearance(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse([]string{`[{"@type":"WebSite"},{"@type":["Organization","WebSite"]},{"@type":"schema:Person"}]`, `{"@type":"Organization"}`})
	require.Equal(t, []string{"WebSite", "Organization", "Person"}, g.Types())
	require.True(t, g.Has("Person", "Nobody"))
	require.True(t, g.Has("organization"), "type names compare case-insensitively")
	require.False(t, g.Has("Article"))
	require.Equal(t, []string{"WebSite", "Organization/WebSite"}, labels(g.OfType("WebSite")))
}

// TestNestedOrderIsStable reads a node with many nested nodes again and
// again: a node comes before the nodes in its properties, which follow in
// the order they were written, on every run (Go's map order changes from
// run to run, so a walk over map keys fails here).
func TestNestedOrderIsStable(t *testing.T) {
	t.Parallel()
	block := `{"@context":"https://schema.org","@type":"NewsArticle","headline":"H",
		"publisher":{"@type":"NewsMediaOrganization","name":"Daily","logo":{"@type":"ImageObject","url":"https://example.com/l.png"}},
		"author":[{"@type":"Person","name":"Ann"},{"@type":"Person","name":"Bo"}],
		"about":{"@type":"Thing","name":"Zinc"},"mainEntityOfPage":{"@type":"WebPage","@id":"https://example.com/a"},
		"image":{"@type":"ImageObject","url":"https://example.com/a.png"},"isPartOf":{"@type":["CreativeWork","Product"],"name":"Paper"},
		"mentions":{"wrapper":{"@type":"Place","name":"Oslo"},"another":{"@type":"Event","name":"Fair"}}}`
	wantLabels := []string{
		"NewsArticle", "NewsMediaOrganization Daily", "ImageObject", "Person Ann", "Person Bo", "Thing Zinc",
		"WebPage https://example.com/a", "ImageObject", "CreativeWork/Product Paper", "Place Oslo", "Event Fair",
	}
	wantTypes := []string{"NewsArticle", "NewsMediaOrganization", "ImageObject", "Person", "Thing", "WebPage", "CreativeWork", "Product", "Place", "Event"}
	for range 50 {
		g := jsonld.Parse([]string{block})
		require.Equal(t, wantLabels, labels(g.Entities))
		require.Equal(t, wantTypes, g.Types())
		require.Equal(t, "Person Ann", g.OfType("Person")[0].Label())
		require.Equal(t, "https://example.com/l.png", g.OfType("ImageObject")[0].String("url"))
		require.Equal(t, []string{"https://example.com/a"}, g.OfType("NewsArticle")[0].References())
	}
}

// TestFieldPrefersTheBareKey reads an object that has a property both
// with and without the schema.org prefix.
func TestFieldPrefersTheBareKey(t *testing.T) {
	t.Parallel()
	m := map[string]any{"schema:name": "Prefixed", "name": "Bare", "https://schema.org/url": "https://a.example/", "schema:url": "https://b.example/"}
	for range 20 {
		require.Equal(t, "Bare", jsonld.Field(m, "name"))
		require.Equal(t, "https://a.example/", jsonld.Field(m, "url"), "prefixed spellings in lexical order")
	}
}

func TestEntityValues(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse([]string{`{"@type":"Product","@id":"#p",
		"name":"  Team Plan  ","description":"","brand":{"@type":"Brand","name":"Example"},"sku":12345,"price":49.5,
		"image":["","https://example.com/a.png","https://example.com/b.png"],"offers":[],"review":{},"aggregateRating":null,
		"logo":{"url":"https://example.com/l.png"},"contentUrl":{"contentUrl":"https://example.com/c.mp4"},"identifier":{"@id":"#ident"},
		"language":{"@value":"en"},"schema:gtin":"0001","sameAs":"https://x.com/example","isRelatedTo":[{"@type":"Product","name":"One"},"Two"],
		"flag":true}`})
	require.Len(t, g.TopLevel(), 1)
	e := g.TopLevel()[0]
	for _, tc := range []struct {
		prop string
		has  bool
		text string
	}{
		{"name", true, "Team Plan"},
		{"description", false, ""},
		{"brand", true, "Example"},
		{"sku", true, "12345"},
		{"price", true, "49.5"},
		{"image", true, "https://example.com/a.png"},
		{"offers", false, ""},
		{"review", false, ""},
		{"aggregateRating", false, ""},
		{"logo", true, "https://example.com/l.png"},
		{"contentUrl", true, "https://example.com/c.mp4"},
		{"identifier", true, "#ident"},
		{"language", true, "en"},
		{"gtin", true, "0001"},
		{"flag", true, ""},
		{"missing", false, ""},
	} {
		require.Equal(t, tc.has, e.Has(tc.prop), "Has(%s)", tc.prop)
		require.Equal(t, tc.text, e.String(tc.prop), "String(%s)", tc.prop)
	}
	require.Equal(t, []string{"https://example.com/a.png", "https://example.com/b.png"}, e.Strings("image"))
	require.Equal(t, []string{"https://x.com/example"}, e.Strings("sameAs"))
	require.Equal(t, []string{"One", "Two"}, e.Strings("isRelatedTo"))
	require.Empty(t, e.Strings("missing"))

	require.Equal(t, map[string]any{"url": "https://example.com/l.png"}, e.Object("logo"))
	require.Equal(t, "Product", e.Object("isRelatedTo")["@type"], "the first object of an array")
	require.Nil(t, e.Object("name"))
	require.Nil(t, e.Object("image"), "an array without objects")
	require.Nil(t, (*jsonld.Entity)(nil).Object("logo"))

	require.True(t, e.Is("product"))
	require.False(t, e.Is("Offer"))
	require.Equal(t, "Product #p", e.Label())
	require.Empty(t, (*jsonld.Entity)(nil).Label())
}

func TestLabel(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse([]string{`[{"@type":"Organization","@id":"#org","name":"Example"},{"@type":"Person","name":"Jane"},{"@type":"Thing"},{"name":"No type"}]`})
	require.Equal(t, []string{"Organization #org", "Person Jane", "Thing", "(untyped) No type"}, labels(g.TopLevel()))
}

func TestRef(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse([]string{yoastGraph, `{"@type":"Article","name":"A","publisher":{"@type":"Organization","name":"Inline","url":"https://inline.example/"},"author":[{"@id":"#nobody"}],"about":"text"}`})
	site := g.ByID("https://example.com/#website")
	require.NotNil(t, site)
	require.Equal(t, "Organization https://example.com/#organization", g.Ref(site, "publisher").Label())

	art := g.OfType("Article")[0]
	require.Equal(t, "Organization Inline", g.Ref(art, "publisher").Label(), "an inline node is found among the nested ones")
	require.Nil(t, g.Ref(art, "author"), "an @id that is declared nowhere")
	require.Nil(t, g.Ref(art, "about"), "a property that is no object")
	require.Nil(t, g.Ref(art, "missing"))
}

func TestReferencesAndEdges(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse([]string{yoastGraph})
	page := g.ByID("https://example.com/#webpage")
	require.ElementsMatch(t, []string{"https://example.com/#website", "https://example.com/#organization"}, page.References())
	org := g.ByID("https://example.com/#organization")
	require.Equal(t, []string{"https://example.com/#logo"}, org.References(), "an inline node with an @id counts; the node's own @id does not")
	// Edges counts pure {"@id"} references to declared nodes: isPartOf,
	// about and publisher.
	require.Equal(t, 3, g.Edges())
	require.Nil(t, (*jsonld.Entity)(nil).References())

	dangling := jsonld.Parse([]string{`{"@type":"WebSite","@id":"#w","publisher":{"@id":"#missing"},"about":[{"@id":"#w"},{"@id":"#w","name":"not a pure reference"}]}`})
	require.Equal(t, 1, dangling.Edges())
}

func TestIslands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		blocks []string
		want   [][]string
	}{
		{"one linked graph", []string{yoastGraph}, [][]string{{"WebPage https://example.com/#webpage", "WebSite https://example.com/#website", "Organization https://example.com/#organization"}}},
		{
			"separate blocks without @id",
			[]string{`{"@type":"Organization","name":"A"}`, `{"@type":"WebSite","name":"W"}`},
			[][]string{{"Organization A"}, {"WebSite W"}},
		},
		{
			"joined through a node both mention",
			[]string{`[{"@type":"Article","name":"One","publisher":{"@id":"#org"}},{"@type":"Article","name":"Two","publisher":{"@id":"#org"}},{"@type":"Thing","name":"Alone"}]`},
			[][]string{{"Article One", "Article Two"}, {"Thing Alone"}},
		},
		{"nothing", nil, [][]string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := [][]string{}
			for _, isl := range jsonld.Parse(tc.blocks).Islands() {
				got = append(got, labels(isl))
			}
			require.Equal(t, tc.want, got)
		})
	}
	var none *jsonld.Graph
	require.Nil(t, none.TopLevel())
	require.Empty(t, none.Islands())
}

func TestRawObjects(t *testing.T) {
	t.Parallel()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(`{"@type":["schema:Person","Patient"],"schema:name":" Jane ","url":["https://example.com/jane"]}`), &m))
	require.Equal(t, "Jane", jsonld.Field(m, "name"), "a schema.org prefix on the key")
	require.Equal(t, "https://example.com/jane", jsonld.Field(m, "url"))
	require.Empty(t, jsonld.Field(m, "email"))
	require.Equal(t, []string{"Person", "Patient"}, jsonld.TypeOf(m))
	require.Empty(t, jsonld.TypeOf(map[string]any{"@type": 7}))
	require.Empty(t, jsonld.Field(nil, "name"))
}
