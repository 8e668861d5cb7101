package fixes_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/fixes"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

const homeHTML = `<!DOCTYPE html><html lang="fr"><head><title>Atelier Lune – Céramiques faites main à Lyon</title>
<meta name="description" content="Atelier Lune façonne des bols, tasses et assiettes en grès à Lyon, cuits au four à bois et vendus en ligne et à l'atelier.">
</head><body><main><h1>Céramiques faites main</h1><p>Des pièces uniques, tournées et émaillées à la main dans notre atelier lyonnais.</p></main></body></html>`

// siteWith is a site as read whose robots.txt answered status with body
// (content type ctype), with a sitemap at the default location that
// robots.txt could not name.
func siteWith(t *testing.T, status int, ctype, body string) (*fetch.Site, []fixes.Fix) {
	t.Helper()
	u, err := url.Parse("https://atelier-lune.test/")
	require.NoError(t, err)
	r := func(purpose fetch.Purpose, path string, status int, ctype, body string) *fetch.Response {
		return &fetch.Response{
			Purpose: purpose, URL: "https://atelier-lune.test" + path, FinalURL: "https://atelier-lune.test" + path, Status: status,
			Method: http.MethodGet, Header: http.Header{"Content-Type": {ctype}}, Body: []byte(body), Bytes: len(body),
		}
	}
	home := r(fetch.Homepage, "/", http.StatusOK, "text/html; charset=utf-8", homeHTML)
	p, err := page.Parse(home.Body, u)
	require.NoError(t, err)
	sm := r(fetch.Sitemap, "/sitemap.xml", http.StatusOK, "application/xml",
		`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://atelier-lune.test/</loc></url></urlset>`)
	site := &fetch.Site{
		Target: u, Home: home, HomePage: p, Parsed: map[*fetch.Response]*page.Page{home: p},
		Robots: r(fetch.Robots, "/robots.txt", status, ctype, body), Sitemaps: []*fetch.Response{sm},
		SitemapFetches: []fetch.SitemapFetch{fetch.ReadSitemap(sm, fetch.SitemapFromDefault, "/sitemap.xml", "")},
	}
	site.All = []*fetch.Response{home, site.Robots, sm}
	in := &checks.Input{Site: site, Home: p, BrandName: "Atelier Lune", Now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	return site, fixes.Generate(fixes.Input{Site: site, Outcomes: checks.Run(in), BrandName: in.BrandName, Platform: fixes.Platform{Known: true, CMS: "Squarespace"}})
}

func fixFor(list []fixes.Fix, id string) *fixes.Fix {
	for i := range list {
		if list[i].CheckID == id {
			return &list[i]
		}
	}
	return nil
}

// The advice follows what robots.txt answered: a 404 blocks nobody and
// needs no patch for access, only a policy file naming the sitemap; an
// HTML page in its place is a routing fault; 429 is a rate limit on the
// one file every crawler asks for first.
func TestRobotsAdviceFollowsTheAnswer(t *testing.T) {
	t.Parallel()
	t.Run("404 needs no patch", func(t *testing.T) {
		t.Parallel()
		_, list := siteWith(t, http.StatusNotFound, "text/html", "<html><body>Introuvable</body></html>")
		require.Nil(t, fixFor(list, "ai_search_bots_allowed"), "access is open: nothing to fix")
		f := fixFor(list, "robots_txt_fetchable")
		require.NotNil(t, f)
		require.Equal(t, fixes.RobotsMissing, f.Cause)
		require.Equal(t, fixes.File, f.Artifact.Kind)
		require.Equal(t, "User-agent: *\nAllow: /\n\nSitemap: https://atelier-lune.test/sitemap.xml\n", f.Artifact.Content)
		require.Contains(t, f.Summary.Engineering, "nothing is blocked")
		require.Contains(t, strings.Join(f.PlatformSteps, " "), "Squarespace", "the site's platform decides the steps")
		sm := fixFor(list, "sitemap_present")
		require.NotNil(t, sm)
		require.Equal(t, fixes.SitemapUnlisted, sm.Cause)
		require.Equal(t, f.Artifact.Content, sm.Artifact.Content, "a file, not a patch of a file that does not exist")
	})
	t.Run("an HTML page at robots.txt", func(t *testing.T) {
		t.Parallel()
		_, list := siteWith(t, http.StatusOK, "text/html", "<!DOCTYPE html><html><head><title>Atelier</title></head><body>Accueil</body></html>")
		f := fixFor(list, "robots_txt_syntax")
		require.NotNil(t, f)
		require.Equal(t, fixes.RobotsHTML, f.Cause)
		require.Equal(t, "robots.txt", f.Artifact.Filename)
		rf := robots.ParseBody(f.Artifact.Content)
		require.True(t, rf.Allowed("OAI-SearchBot", "/").Allowed)
		require.Contains(t, strings.Join(f.Edits, " "), "route that answers unknown paths", "the route is the fault")
	})
	t.Run("429", func(t *testing.T) {
		t.Parallel()
		_, list := siteWith(t, http.StatusTooManyRequests, "text/plain", "slow down")
		for _, id := range []string{"robots_txt_fetchable", "ai_search_bots_allowed"} {
			f := fixFor(list, id)
			require.NotNil(t, f, id)
			require.Equal(t, fixes.RobotsServerError, f.Cause)
			require.Nil(t, f.Artifact)
			require.Contains(t, strings.Join(f.Edits, " "), "rate limit")
		}
	})
}
