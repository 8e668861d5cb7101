package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// file is one response of a test site; {base} in a body is replaced by
// the site's origin.
type file struct {
	ctype string
	body  string
}

// siteFrom serves files by path (404 for the rest) and fetches the site.
func siteFrom(t *testing.T, files map[string]file) (*Site, string) {
	t.Helper()
	var base string
	mux := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if f.ctype != "" {
			w.Header().Set("Content-Type", f.ctype)
		}
		_, _ = w.Write([]byte(strings.ReplaceAll(f.body, "{base}", base)))
	})
	f, b := testFetcher(t, mux, Options{})
	base = b
	target, err := url.Parse(base + "/")
	require.NoError(t, err)
	site, err := f.Site(context.Background(), target)
	require.NoError(t, err)
	return site, base
}

const homeHTML = `<html><head><title>Home</title></head><body><p>Hello</p></body></html>`

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		b.WriteString("<url><loc>" + l + "</loc></url>")
	}
	b.WriteString("</urlset>")
	return b.String()
}

// sources lists "source url-path kind" for each sitemap fetched, with
// the entry count of a readable one.
func sources(site *Site, base string) []string {
	var out []string
	for _, f := range site.SitemapFetches {
		s := string(f.Source) + " " + strings.TrimPrefix(f.Response.URL, base) + " " + f.Kind
		if f.Kind != "" {
			s += fmt.Sprintf(" %d", f.Entries)
		}
		out = append(out, s)
	}
	return out
}

func TestSitemapOnlyAtTheDefaultPath(t *testing.T) {
	t.Parallel()
	site, base := siteFrom(t, map[string]file{
		"/":            {"text/html", homeHTML},
		"/robots.txt":  {"text/plain", "User-agent: *\nDisallow: /admin/\n"},
		"/sitemap.xml": {"application/xml", urlset("{base}/a/", "{base}/b/")},
	})
	require.Equal(t, []string{"default_location /sitemap.xml urlset 2"}, sources(site, base))
	require.Equal(t, []string{base + "/sitemap.xml"}, site.SitemapDefaultsTried, "the index location is not needed once /sitemap.xml reads")
	require.Len(t, site.Sitemaps, 1)
	require.Equal(t, 2, site.SitemapTotal)
	require.Equal(t, base+"/a/", site.SitemapURLs[0].Loc)
}

func TestSitemapLocationsInOrder(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		files      map[string]file
		want       []string
		defaults   []string // paths
		links      []string // paths
		skippedWhy []string
		total      int
	}{
		{
			name: "relative and absolute robots lines, CR line endings",
			files: map[string]file{
				"/robots.txt":     {"text/plain", "User-agent: *\rSitemap: /maps/pages.xml\rsitemap {base}/maps/posts.xml\rSitemap: https://other-site.example/sitemap.xml\r"},
				"/maps/pages.xml": {"application/xml", urlset("{base}/p/")},
				"/maps/posts.xml": {"application/xml", urlset("{base}/blog/x/", "{base}/blog/y/")},
				"/sitemap.xml":    {"application/xml", urlset("{base}/never-read/")},
			},
			want:       []string{"robots_txt /maps/pages.xml urlset 1", "robots_txt /maps/posts.xml urlset 2"},
			skippedWhy: []string{"other_site"},
			total:      3,
		},
		{
			name: "robots lists a broken sitemap; the default path has one",
			files: map[string]file{
				"/robots.txt":  {"text/plain", "Sitemap: {base}/old-sitemap.xml\n"},
				"/sitemap.xml": {"text/xml", urlset("{base}/a/")},
			},
			want:     []string{"robots_txt /old-sitemap.xml ", "default_location /sitemap.xml urlset 1"},
			defaults: []string{"/sitemap.xml"},
			total:    1,
		},
		{
			name: "only the index location, with relative, gzip and text children",
			files: map[string]file{
				"/robots.txt":        {"text/plain", "User-agent: *\nAllow: /\n"},
				"/sitemap_index.xml": {"application/xml", `<sitemapindex><sitemap><loc>part-1.xml.gz</loc></sitemap><sitemap><loc>/part-2.txt</loc></sitemap></sitemapindex>`},
				"/part-1.xml.gz":     {"application/octet-stream", gz(urlset("{base}/one/"))},
				"/part-2.txt":        {"text/plain", "{base}/two/\n{base}/three/\n"},
			},
			want:     []string{"default_location /sitemap.xml ", "default_location /sitemap_index.xml sitemapindex 2", "sitemap_index /part-1.xml.gz urlset 1", "sitemap_index /part-2.txt text 2"},
			defaults: []string{"/sitemap.xml", "/sitemap_index.xml"},
			total:    3,
		},
		{
			name: "a link rel=sitemap on the homepage, and a latin-1 XML declaration",
			files: map[string]file{
				"/":              {"text/html", `<html><head><link rel="sitemap" type="application/xml" href="/feeds/map.xml"></head><body></body></html>`},
				"/feeds/map.xml": {"application/xml", `<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>{base}/caf` + "\xe9" + `/</loc></url></urlset>`},
			},
			want:     []string{"default_location /sitemap.xml ", "default_location /sitemap_index.xml ", "link_rel_sitemap /feeds/map.xml urlset 1"},
			defaults: []string{"/sitemap.xml", "/sitemap_index.xml"},
			links:    []string{"/feeds/map.xml"},
			total:    1,
		},
		{
			name:     "no sitemap anywhere",
			files:    map[string]file{"/robots.txt": {"text/plain", "User-agent: *\nDisallow:\n"}},
			want:     []string{"default_location /sitemap.xml ", "default_location /sitemap_index.xml "},
			defaults: []string{"/sitemap.xml", "/sitemap_index.xml"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if _, ok := c.files["/"]; !ok {
				c.files["/"] = file{"text/html", homeHTML}
			}
			site, base := siteFrom(t, c.files)
			require.Equal(t, c.want, sources(site, base))
			var defaults, links, why []string
			for _, d := range site.SitemapDefaultsTried {
				defaults = append(defaults, strings.TrimPrefix(d, base))
			}
			for _, l := range site.SitemapLinksTried {
				links = append(links, strings.TrimPrefix(l, base))
			}
			for _, s := range site.SitemapSkipped {
				why = append(why, s.Reason)
			}
			require.Equal(t, c.defaults, defaults, "default locations tried")
			require.Equal(t, c.links, links, "links tried")
			require.Equal(t, c.skippedWhy, why, "skipped")
			require.Equal(t, c.total, site.SitemapTotal)
			require.Len(t, site.Sitemaps, len(site.SitemapFetches))
			for i, f := range site.SitemapFetches {
				require.Same(t, site.Sitemaps[i], f.Response)
			}
		})
	}
}

func TestReadSitemapAsACrawlDoes(t *testing.T) {
	t.Parallel()
	r := &Response{Purpose: Sitemap, URL: "https://example.com/s.xml.gz", FinalURL: "https://example.com/s.xml.gz", Status: 200, Header: http.Header{}, Body: []byte(gz(urlset("https://example.com/a", "https://example.com/b")))}
	f := ReadSitemap(r, SitemapFromRobots, "/s.xml.gz", "")
	require.Equal(t, SitemapFetch{Response: r, Source: SitemapFromRobots, Listed: "/s.xml.gz", Kind: "urlset", Entries: 2, Gzip: true}, f)
	missing := &Response{Purpose: Sitemap, URL: "https://example.com/x.xml", Status: 404, Header: http.Header{}}
	require.Empty(t, ReadSitemap(missing, SitemapFromDefault, "/x.xml", "").Kind)
}

func gz(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write([]byte(s))
	_ = zw.Close()
	return b.String()
}

func TestResolveSitemapValues(t *testing.T) {
	base, _ := url.Parse("https://www.example.com/robots.txt")
	origin, _ := url.Parse("https://www.example.com")
	cases := []struct {
		value, want string
		onSite      bool
	}{
		{"https://www.example.com/sitemap.xml", "https://www.example.com/sitemap.xml", true},
		{"http://example.com/sitemap.xml", "http://example.com/sitemap.xml", true},
		{"/sitemap.xml", "https://www.example.com/sitemap.xml", true},
		{"sitemap.xml", "https://www.example.com/sitemap.xml", true},
		{"sitemaps/posts.xml.gz", "https://www.example.com/sitemaps/posts.xml.gz", true},
		{"//www.example.com/s.xml", "https://www.example.com/s.xml", true},
		{"www.example.com/sitemap.xml", "https://www.example.com/sitemap.xml", true},
		{"example.co.uk/sitemap.xml", "https://example.co.uk/sitemap.xml", false},
		{"https://sitemaps.example.com/index.xml", "https://sitemaps.example.com/index.xml", true},
		{"https://cdn.other.net/example/sitemap.xml", "https://cdn.other.net/example/sitemap.xml", false},
		{"ftp://www.example.com/sitemap.xml", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		u := resolveSitemap(base, c.value)
		got := ""
		if u != nil {
			got = u.String()
		}
		require.Equal(t, c.want, got, c.value)
		require.Equal(t, c.onSite, sitemapOnSite(u, origin), c.value)
	}
}

func TestKeyPagesOfAWiki(t *testing.T) {
	t.Parallel()
	site, _ := siteFrom(t, map[string]file{
		"/": {"text/html", `<html><body><a href="/wiki/Harbour">Harbour</a>
			<a href="/wiki/Tidewater_Wiki:About">About Tidewater Wiki</a>
			<a href="/wiki/Tidewater_Wiki:Contact_us">Contact</a>
			<a href="/wiki/Tidewater_Wiki:Privacy_policy">Privacy policy</a></body></html>`},
	})
	require.Len(t, site.PagesFor(About), 1)
	require.True(t, strings.HasSuffix(site.PagesFor(About)[0].URL, "/wiki/Tidewater_Wiki:About"))
	require.Len(t, site.PagesFor(Contact), 1)
	require.True(t, strings.HasSuffix(site.PagesFor(Contact)[0].URL, "/wiki/Tidewater_Wiki:Contact_us"))
	require.Len(t, site.PagesFor(Privacy), 1)
}

// A gzip sitemap is decoded by its XML declaration once decompressed: the
// fetch decoded only the compressed bytes. Latin-1 text and a stray byte
// that is not UTF-8, as real generators write them, keep every entry.
func TestGzipSitemapInItsDeclaredEncoding(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"latin-1":       "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\"><url><loc>https://example.com/a</loc><image:image><image:title>Caf\xe9 cr\xe8me</image:title></image:image></url><url><loc>https://example.com/b</loc></url></urlset>",
		"invalid utf-8": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/a</loc><!-- \xff --></url><url><loc>https://example.com/b\xe9</loc></url></urlset>",
	} {
		r := &Response{Purpose: Sitemap, URL: "https://example.com/s.xml.gz", FinalURL: "https://example.com/s.xml.gz", Status: 200, Header: http.Header{}, Body: []byte(gz(body))}
		f := ReadSitemap(r, SitemapFromRobots, "/s.xml.gz", "")
		require.Equal(t, "urlset", f.Kind, name)
		require.Equal(t, 2, f.Entries, name)
	}
}

// A sitemap nested a million deep is not a sitemap, and reading it costs
// no stack of a million elements.
func TestSitemapNestedDeepIsNotASitemap(t *testing.T) {
	t.Parallel()
	deep := `<urlset><url><loc>https://example.com/a</loc></url><url>` + strings.Repeat("<a>", 1_000_000)
	r := &Response{Purpose: Sitemap, URL: "https://example.com/s.xml", FinalURL: "https://example.com/s.xml", Status: 200, Header: http.Header{}, Body: []byte(deep)}
	f := ReadSitemap(r, SitemapFromRobots, "/s.xml", "")
	require.Empty(t, f.Kind)
	require.Zero(t, f.Entries)
	require.True(t, tooDeep([]byte(deep), maxSitemapDepth))
	require.False(t, tooDeep([]byte(urlset("https://example.com/a")), maxSitemapDepth))
}

// A text sitemap is read whatever its line endings: LF, CRLF or a bare CR.
func TestTextSitemapLineEndings(t *testing.T) {
	t.Parallel()
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		body := "https://example.com/a" + nl + "https://example.com/b" + nl
		r := &Response{Purpose: Sitemap, URL: "https://example.com/s.txt", FinalURL: "https://example.com/s.txt", Status: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(body)}
		f := ReadSitemap(r, SitemapFromRobots, "/s.txt", "")
		require.Equal(t, "text", f.Kind, "%q", nl)
		require.Equal(t, 2, f.Entries, "%q", nl)
	}
}
