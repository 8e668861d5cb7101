package page

import (
	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/microdata"
)

// readMarkup adds to the page's graph the schema.org nodes the document
// declares in microdata and RDFa, beside its JSON-LD: checks read one
// graph whatever the syntax, and each node says which it came from.
func (p *Page) readMarkup() {
	if p.Graph == nil || p.Doc == nil || len(p.Doc.Nodes) == 0 {
		return
	}
	found := microdata.Read(p.Doc.Nodes[0], p.Base)
	p.Graph.AddMarkup(jsonld.Microdata, found.Microdata)
	p.Graph.AddMarkup(jsonld.RDFa, found.RDFa)
	p.Graph.Cut = append(p.Graph.Cut, found.Cut...)
}
