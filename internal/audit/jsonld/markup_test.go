package jsonld_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

func TestSyntaxNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    jsonld.Syntax
		want string
	}{
		{0, ""},
		{jsonld.JSONLD, "JSON-LD"},
		{jsonld.Microdata, "microdata"},
		{jsonld.RDFa | jsonld.JSONLD, "JSON-LD and RDFa"},
		{jsonld.RDFa | jsonld.Microdata | jsonld.JSONLD, "JSON-LD, microdata and RDFa"},
	} {
		require.Equal(t, tc.want, tc.s.String())
	}
	require.Equal(t, []string{"microdata", "RDFa"}, (jsonld.RDFa | jsonld.Microdata).Names())
}

// org is an Organization as a theme's microdata or RDFa gives it: IRIs
// for the type and the property names, a nested PostalAddress.
func org(typeIRI, name, url string) *jsonld.Node {
	return &jsonld.Node{Types: []string{typeIRI}, Props: []jsonld.Prop{
		{Name: "http://schema.org/name", Value: name},
		{Name: "url", Value: url},
		{Name: "address", Value: &jsonld.Node{Types: []string{"https://schema.org/PostalAddress"}, Props: []jsonld.Prop{{Name: "streetAddress", Value: "Тверская 1"}}}},
		{Name: "sameAs", Value: "https://vk.com/example"},
		{Name: "sameAs", Value: "https://t.me/example"},
	}}
}

func TestAddMarkup(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse(nil)
	g.AddMarkup(jsonld.Microdata, []*jsonld.Node{org("https://schema.org/Organization/", "ООО «Пример»", "https://example.ru/")})
	require.Equal(t, []string{"Organization ООО «Пример»", "PostalAddress"}, labels(g.Entities))
	o := g.Entities[0]
	require.Equal(t, jsonld.Microdata, o.Syntax)
	require.False(t, o.Nested)
	require.True(t, g.Entities[1].Nested)
	require.Equal(t, "ООО «Пример»", o.String("name"), "a property named by its schema.org IRI is read by its short name")
	require.Equal(t, []string{"https://vk.com/example", "https://t.me/example"}, o.Strings("sameAs"), "a repeated property is a list")
	require.Equal(t, "Тверская 1", jsonld.Field(o.Object("address"), "streetAddress"))
	require.Equal(t, jsonld.Microdata, g.DeclaredIn("Organization", "Person"))
	require.Zero(t, g.DeclaredIn("WebSite"))
	require.Empty(t, g.TypesIn(jsonld.JSONLD))
	require.Equal(t, []string{"Organization", "PostalAddress"}, g.TypesIn(jsonld.Microdata|jsonld.RDFa))
}

// TestSchemaTypeSpellings reads the spellings of a schema.org type pages
// publish: http or https, www or not, a trailing slash, the schema:
// prefix; other vocabularies are no schema.org types.
func TestSchemaTypeSpellings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		types []string
		want  []string
	}{
		{[]string{"http://schema.org/Organization"}, []string{"Organization"}},
		{[]string{"https://schema.org/Organization"}, []string{"Organization"}},
		{[]string{"https://schema.org/Organization/"}, []string{"Organization"}},
		{[]string{"HTTP://Schema.org/Organization"}, []string{"Organization"}},
		{[]string{"http://www.schema.org/LocalBusiness"}, []string{"LocalBusiness"}},
		{[]string{"schema:WebSite"}, []string{"WebSite"}},
		{[]string{"https://schema.org/Organization", "https://schema.org/LocalBusiness", "http://schema.org/Organization"}, []string{"Organization", "LocalBusiness"}},
		{[]string{"http://data-vocabulary.org/Organization", "https://schema.org/Store"}, []string{"Store"}},
	} {
		g := jsonld.Parse(nil)
		g.AddMarkup(jsonld.Microdata, []*jsonld.Node{{Types: tc.types, Props: []jsonld.Prop{{Name: "name", Value: "X"}}}})
		require.Len(t, g.Entities, 1, "%v", tc.types)
		require.Equal(t, tc.want, g.Entities[0].Types, "%v", tc.types)
	}
	// A node typed only in another vocabulary, or not typed at all, is
	// no entity; nested, it stays a plain value of its parent.
	g := jsonld.Parse(nil)
	g.AddMarkup(jsonld.RDFa, []*jsonld.Node{
		{Types: []string{"mw:File/Thumb"}},
		{Types: []string{"http://data-vocabulary.org/Breadcrumb"}, Props: []jsonld.Prop{{Name: "title", Value: "Home"}}},
		{Props: []jsonld.Prop{{Name: "name", Value: "untyped"}}},
		{Types: []string{"https://schema.org/"}},
		{Types: []string{"https://schema.org/Product"}, Props: []jsonld.Prop{{Name: "brand", Value: &jsonld.Node{Types: []string{"http://data-vocabulary.org/Brand"}, Props: []jsonld.Prop{{Name: "name", Value: "Acme"}}}}}},
	})
	require.Equal(t, []string{"Product"}, labels(g.Entities))
	require.Equal(t, "Acme", g.Entities[0].String("brand"))
	// JSON-LD types read the same way.
	require.Equal(t, []string{"Organization", "WebSite"}, jsonld.Parse([]string{`[{"@type":"http://schema.org/Organization/"},{"@type":"https://www.schema.org/WebSite"}]`}).Types())
}

// TestTheSameNodeInTwoSyntaxes is a site whose SEO plugin writes JSON-LD
// and whose theme writes microdata or RDFa of the same organisation: one
// entity, declared in both syntaxes, not two.
func TestTheSameNodeInTwoSyntaxes(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse([]string{`{"@context":"https://schema.org","@type":"Organization","@id":"https://example.com/#organization","name":"Example","url":"https://example.com/","sameAs":["https://x.com/example","https://github.com/example"]}`})
	g.AddMarkup(jsonld.Microdata, []*jsonld.Node{
		// Same type and name, the url without its trailing slash: the same node.
		{Types: []string{"https://schema.org/Organization"}, Props: []jsonld.Prop{
			{Name: "name", Value: " Example "},
			{Name: "url", Value: "https://EXAMPLE.com"},
			{Name: "logo", Value: "https://example.com/logo.png"},
			{Name: "sameAs", Value: "https://github.com/example"},
			{Name: "sameAs", Value: "https://www.youtube.com/@example"},
		}},
		// Same name, another url: another organisation.
		{Types: []string{"https://schema.org/Organization"}, Props: []jsonld.Prop{{Name: "name", Value: "Example"}, {Name: "url", Value: "https://example.org/"}}},
		// Same name, another type: a person, not the organisation.
		{Types: []string{"https://schema.org/Person"}, Props: []jsonld.Prop{{Name: "name", Value: "Example"}}},
	})
	g.AddMarkup(jsonld.RDFa, []*jsonld.Node{
		// Merged by @id, whatever its name.
		{ID: "https://example.com/#organization", Types: []string{"https://schema.org/Corporation"}, Props: []jsonld.Prop{{Name: "name", Value: "Example Inc."}, {Name: "telephone", Value: "+1 555 0100"}}},
	})
	orgs := g.OfType("Organization")
	require.Len(t, orgs, 2)
	first := orgs[0]
	require.Equal(t, jsonld.JSONLD|jsonld.Microdata|jsonld.RDFa, first.Syntax)
	require.Equal(t, []string{"Organization", "Corporation"}, first.Types)
	require.Equal(t, "Example", first.String("name"), "the first declaration's values win")
	require.Equal(t, "https://example.com/logo.png", first.String("logo"), "later declarations add what it lacked")
	require.Equal(t, "+1 555 0100", first.String("telephone"))
	require.Equal(t, []string{"https://x.com/example", "https://github.com/example", "https://www.youtube.com/@example"}, first.Strings("sameAs"),
		"a property both declare has the values of both, each once")
	require.Equal(t, jsonld.Microdata, orgs[1].Syntax)
	require.Len(t, g.OfType("Person"), 1)
	require.Equal(t, []string{"Organization", "Corporation", "Person"}, g.Types())
	require.Equal(t, []string{"Organization", "Corporation"}, g.TypesIn(jsonld.JSONLD))
	require.Equal(t, jsonld.JSONLD|jsonld.Microdata|jsonld.RDFa, g.DeclaredIn("Organization"))
	require.Equal(t, jsonld.Microdata, g.DeclaredIn("Person"))

	// Within one syntax, two nodes without @id stay two.
	g = jsonld.Parse(nil)
	twice := &jsonld.Node{Types: []string{"https://schema.org/Person"}, Props: []jsonld.Prop{{Name: "name", Value: "Jane Doe"}}}
	g.AddMarkup(jsonld.Microdata, []*jsonld.Node{twice, twice})
	require.Len(t, g.Entities, 2)
}

// TestMarkupReferences links microdata and RDFa nodes by @id, as
// itemid and RDFa's resource do: a reference is an edge of the graph.
func TestMarkupReferences(t *testing.T) {
	t.Parallel()
	g := jsonld.Parse(nil)
	g.AddMarkup(jsonld.RDFa, []*jsonld.Node{
		{ID: "https://example.com/#org", Types: []string{"http://schema.org/Organization"}, Props: []jsonld.Prop{{Name: "name", Value: "Example"}}},
		{ID: "https://example.com/#site", Types: []string{"http://schema.org/WebSite"}, Props: []jsonld.Prop{{Name: "publisher", Value: &jsonld.Node{ID: "https://example.com/#org"}}}},
	})
	require.Equal(t, 1, g.Edges())
	require.Len(t, g.Islands(), 1)
	site := g.ByID("https://example.com/#site")
	require.Equal(t, g.ByID("https://example.com/#org"), g.Ref(site, "publisher"))
}
