package page

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

// TestGraphReadsEverySyntax parses a page that declares its WebSite in
// JSON-LD, its organisation in microdata (again in JSON-LD, by the same
// name) and a person in RDFa: one graph holds them, each node with its
// syntax, microdata URLs resolved against <base href>.
func TestGraphReadsEverySyntax(t *testing.T) {
	p := parse(t, "https://www.example.es/tienda/producto.html", `<!doctype html><html lang="es" vocab="https://schema.org/"><head>
<base href="https://www.example.es/">
<script type="application/ld+json">[{"@context":"https://schema.org","@type":"WebSite","name":"Ejemplo","url":"https://www.example.es/"},
{"@context":"https://schema.org","@type":"Organization","name":"Ejemplo S.L."}]</script></head>
<body><header itemscope itemtype="http://schema.org/Organization"><a itemprop="url" href="./"><img itemprop="logo" src="img/logo.png" alt="Ejemplo"></a>
<span itemprop="name">Ejemplo S.L.</span></header>
<main><p typeof="Person"><span property="name">María García</span></p></main></body></html>`)
	g := p.Graph
	require.Equal(t, []string{"WebSite", "Organization", "Person"}, g.Types())
	org := g.OfType("Organization")
	require.Len(t, org, 1, "the organisation declared twice is one node")
	require.Equal(t, jsonld.JSONLD|jsonld.Microdata, org[0].Syntax)
	require.Equal(t, "https://www.example.es/img/logo.png", org[0].String("logo"))
	require.Equal(t, "https://www.example.es/", org[0].String("url"))
	require.Equal(t, jsonld.RDFa, g.DeclaredIn("Person"))
	require.Equal(t, jsonld.JSONLD, g.DeclaredIn("WebSite"))
	require.Equal(t, 1, g.Valid, "the JSON-LD counts are the blocks'")
}
