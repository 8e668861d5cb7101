package fixes_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/fixes"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// A share button the site declared as sameAs is not a profile, for the
// fix as for the check: the generated Organization keeps the company page
// and drops the sharer URL.
func TestGeneratedSameAsKeepsProfilesNotShareButtons(t *testing.T) {
	t.Parallel()
	const home = `<!doctype html><html lang="de"><head><title>Kaffeerösterei Nord</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Kaffeerösterei Nord",
"url":"https://roesterei-nord.test/","sameAs":["https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Froesterei-nord.test%2F",
"https://twitter.com/intent/tweet?url=https%3A%2F%2Froesterei-nord.test%2F"]}</script></head>
<body><main><h1>Kaffee aus Hamburg</h1><p>Wir rösten jede Woche frisch.</p>
<a href="https://www.linkedin.com/company/roesterei-nord">LinkedIn</a>
<a href="https://www.facebook.com/sharer.php?u=https://roesterei-nord.test/">Teilen</a></main></body></html>`
	u, err := url.Parse("https://roesterei-nord.test/")
	require.NoError(t, err)
	resp := &fetch.Response{
		Purpose: fetch.Homepage, URL: u.String(), FinalURL: u.String(), Status: http.StatusOK, Method: http.MethodGet,
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(home), Bytes: len(home),
	}
	p, err := page.Parse(resp.Body, u)
	require.NoError(t, err)
	site := &fetch.Site{Target: u, Home: resp, HomePage: p, Parsed: map[*fetch.Response]*page.Page{resp: p}, All: []*fetch.Response{resp}}
	in := &checks.Input{Site: site, Home: p, BrandName: "Kaffeerösterei Nord", Now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	list := fixes.Generate(fixes.Input{Site: site, Outcomes: checks.Run(in), BrandName: in.BrandName})
	f := fixFor(list, "sameas_profiles")
	require.NotNil(t, f, "sameas_profiles fails: the declared sameAs are share buttons")
	require.NotNil(t, f.Artifact)
	require.Contains(t, f.Artifact.Content, "https://www.linkedin.com/company/roesterei-nord")
	require.NotContains(t, f.Artifact.Content, "sharer")
	require.NotContains(t, f.Artifact.Content, "intent/tweet")
}
