package microdata_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/jsonld"
)

// FuzzRead reads any document: no panic, every limit kept, and the graph
// takes what was read.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		`<div itemscope itemtype="https://schema.org/Organization" itemref="a b"><span itemprop="name">Acme</span></div><p id="a" itemprop="url">x</p>`,
		`<section id="s" itemscope itemtype="https://schema.org/Organization"><div itemprop="member" itemscope itemref="s"></div></section>`,
		`<html vocab="https://schema.org/" prefix="s: http://schema.org/"><div typeof="s:Person" about="#p"><span property="name knows" resource="#p" typeof="Person"></span></div>`,
		`<div typeof="Organization" resource="#o"><div property="parentOrganization" typeof="Organization" resource="#o"></div></div>`,
		`<div itemscope itemtype="https://schema.org/Thing"><meta itemprop="name"><time itemprop="x"></time><a itemprop="y" href="%zz">`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if _, err := html.Parse(strings.NewReader(doc)); err != nil {
			// Nothing to read: the page package flattens such documents.
			return
		}
		found := read(t, doc)
		require.LessOrEqual(t, len(found.Microdata), 2000)
		require.LessOrEqual(t, len(found.RDFa), 2000)
		g := jsonld.Parse(nil)
		g.AddMarkup(jsonld.Microdata, found.Microdata)
		g.AddMarkup(jsonld.RDFa, found.RDFa)
		for _, e := range g.Entities {
			require.NotEmpty(t, e.Types)
			require.NotZero(t, e.Syntax)
		}
		require.NotPanics(t, func() { g.Islands() })
	})
}
