package page

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The readers added beside the parse (citations, rendering evidence,
// microdata and RDFa) take what the real web sends: a body nested a
// million deep around a cited source and an itemscope, CR line endings, a
// NUL byte inside a sentence and a script, no charset declared. Each must
// finish and still find what the page says.
func TestReadersTakeHostileShapes(t *testing.T) {
	t.Parallel()
	const million = 1000000
	u, err := url.Parse("https://example.test/")
	require.NoError(t, err)
	// The Organization sits before the deep part: beyond the parser's
	// nesting cap start tags are dropped and only their text is kept (see
	// flatten.go), so markup nested that deep cannot carry properties.
	body := "<html><head><title>T\x00itel</title></head><body>\r" +
		"<div itemscope itemtype=\"https://schema.org/Organization\"><span itemprop=\"name\">Müller\x00 GmbH</span></div>\r" +
		strings.Repeat("<div>", million) +
		"<main><article>" +
		"<p>Laut der Studie des Bundesamts <a href=\"https://www.destatis.de/studie\">(Quelle)</a> stieg der Umsatz um 12 %.\r</p>" +
		"<script>var s = \"ab\x00cd\";</script></article></main>" +
		strings.Repeat("</div>", million) + "</body></html>"
	p, err := Parse([]byte(body), u)
	require.NoError(t, err)

	var hosts []string
	for _, c := range p.Citations() {
		hosts = append(hosts, c.Host)
	}
	require.Contains(t, hosts, "destatis.de")
	require.Zero(t, p.Rendering().ScriptOnlyWords)
	require.NotNil(t, p.Graph)
	var orgs int
	for _, e := range p.Graph.Entities {
		if e.Is("Organization") {
			orgs++
			require.NotContains(t, e.String("name"), "\x00")
			require.Contains(t, e.String("name"), "Müller")
		}
	}
	require.Equal(t, 1, orgs, "the microdata Organization is read once")
}
