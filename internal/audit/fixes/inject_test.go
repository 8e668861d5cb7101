package fixes_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/fixes"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// What a site writes lands in the artifacts as data. This site's name,
// heading and lead paragraph carry line ends, markup that would close a
// script or title element, Markdown headings and links, robots.txt
// records and shell syntax, in German, Japanese and Arabic, and its
// address a quote and a command substitution: none of it may leave the
// value it was put in.
func TestSiteTextCannotBreakOutOfArtifacts(t *testing.T) {
	t.Parallel()
	const home = "https://example.test/start/o'brien/$(touch pwned)/"
	siteName := "Müller &amp; Söhne\nUser-agent: * &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; 株式会社 شركة 🍞"
	body := `<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><title>Start</title>
<meta property="og:site_name" content="` + siteName + `">
</head><body><main>
<h1>Bäckerei &lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;
# Eingeschleuste Überschrift</h1>
<p>Wir backen seit 1920 Brot nach alten Rezepten &lt;/script&gt;&lt;!-- und "Zitate" &amp; mehr,
## Eingeschleuster Abschnitt
- [Link](javascript:alert(3)) und Sitemap: https://evil.test/x.xml für alle Gäste.</p>
<a href="/ueber-uns/">Über [uns](javascript:alert(4))
## Kopf</a> <a href="mailto:info@mueller.test">E-Mail</a>
</main></body></html>`
	u, err := url.Parse(home)
	require.NoError(t, err)
	homeResp := &fetch.Response{
		Purpose: fetch.Homepage, URL: home, FinalURL: home, Status: http.StatusOK, Method: http.MethodGet,
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(body),
	}
	p, err := page.Parse(homeResp.Body, u)
	require.NoError(t, err)
	text := func(purpose fetch.Purpose, path string, status int, b string) *fetch.Response {
		return &fetch.Response{
			Purpose: purpose, URL: "https://example.test" + path, FinalURL: "https://example.test" + path, Status: status,
			Method: http.MethodGet, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(b),
		}
	}
	target, _ := url.Parse("https://example.test/")
	site := &fetch.Site{
		Target: target, Home: homeResp, HomePage: p, Parsed: map[*fetch.Response]*page.Page{homeResp: p},
		Robots:  text(fetch.Robots, "/robots.txt", http.StatusOK, "User-agent: *\nDisallow: /\n"),
		LLMsTxt: text(fetch.LLMsTxt, "/llms.txt", http.StatusNotFound, "not found"),
	}
	site.All = []*fetch.Response{homeResp, site.Robots, site.LLMsTxt}
	in := &checks.Input{Site: site, Home: p, BrandName: "Müller & Söhne", Now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	list := fixes.Generate(fixes.Input{Site: site, Outcomes: checks.Run(in), BrandName: in.BrandName, Platform: fixes.Platform{Known: true, CMS: "WordPress"}})
	byName := map[string]*fixes.Artifact{}
	for _, f := range list {
		if f.Artifact != nil {
			byName[f.Artifact.Filename] = f.Artifact
		}
	}
	for _, want := range []string{"organization.jsonld.html", "homepage-title.html", "homepage-meta-description.html", "llms.txt", "robots.txt.patch"} {
		require.Contains(t, byName, want, "the site gets %s", want)
	}

	// JSON-LD: one script element, whose text is JSON holding the site's
	// name as one line.
	org := byName["organization.jsonld.html"].Content
	require.Equal(t, 1, strings.Count(strings.ToLower(org), "</script"), org)
	tokens := htmlTokens(t, org)
	require.Equal(t, []string{"<script>", "text", "</script>"}, kinds(tokens))
	var doc struct {
		Graph []map[string]any `json:"@graph"`
	}
	require.NoError(t, json.Unmarshal([]byte(tokens[1].Data), &doc))
	require.Equal(t, "Müller & Söhne User-agent: * </script><script>alert(1)</script> 株式会社 شركة 🍞", doc.Graph[0]["name"])
	require.Equal(t, "info@mueller.test", doc.Graph[0]["email"])

	// Head tags: one element each; the text stays in the element or the
	// attribute.
	title := htmlTokens(t, byName["homepage-title.html"].Content)
	require.Equal(t, []string{"<title>", "text", "</title>"}, kinds(title))
	require.NotContains(t, title[1].Data, "\n")
	meta := htmlTokens(t, byName["homepage-meta-description.html"].Content)
	require.Equal(t, []string{"<meta>"}, kinds(meta))
	require.Len(t, meta[0].Attr, 2)
	require.Equal(t, "description", meta[0].Attr[0].Val)
	require.Contains(t, meta[0].Attr[1].Val, "</script><!--")
	require.NotContains(t, meta[0].Attr[1].Val, "\n")

	// llms.txt: one title, the sections GeoScan wrote, no link the site's
	// text opened.
	llms := byName["llms.txt"].Content
	var h1, h2 []string
	for _, l := range strings.Split(llms, "\n") {
		switch {
		case strings.HasPrefix(l, "# "):
			h1 = append(h1, l)
		case strings.HasPrefix(l, "## "):
			h2 = append(h2, l)
		}
	}
	require.Len(t, h1, 1, llms)
	require.Equal(t, []string{"## Main pages"}, h2, llms)
	require.NotRegexp(t, `\]\(javascript:`, llms)
	require.Equal(t, 1, strings.Count(llms, "]("), "one link, to the page the site links:\n%s", llms)
	lt := &fetch.Response{
		Purpose: fetch.LLMsTxt, URL: "https://example.test/llms.txt", FinalURL: "https://example.test/llms.txt", Status: http.StatusOK,
		Header: http.Header{"Content-Type": {"text/markdown"}}, Body: []byte(llms),
	}
	requirePasses(t, &checks.Input{Site: &fetch.Site{Target: target, LLMsTxt: lt}}, "llms_txt_valid")

	// robots.txt: every added line is a record GeoScan wrote.
	added := regexp.MustCompile(`^\+(|# .*|User-agent: [A-Za-z-]+|Allow: /|Disallow: /\S*|Sitemap: https://\S+)$`)
	for _, l := range strings.Split(byName["robots.txt.patch"].Content, "\n") {
		if strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++") {
			require.Regexp(t, added, l)
		}
	}

	// Shell commands: the site's address is one word, and nothing in it
	// runs.
	dir := t.TempDir()
	for _, f := range list {
		for _, v := range f.Verify {
			if v.Command == "" {
				continue
			}
			// The fake curl prints its arguments; a grep after it finds
			// nothing, which the last line lets pass. A quoting mistake
			// is a syntax error, which fails the whole script.
			cmd := exec.Command("sh", "-c", `curl() { printf '%s\n' "$@" >> args.txt; }; `+v.Command+"\ntrue")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s: %s", v.Command, out)
		}
	}
	args, err := os.ReadFile(filepath.Join(dir, "args.txt"))
	require.NoError(t, err)
	require.Contains(t, strings.Split(string(args), "\n"), home, "the address reaches curl whole")
	_, err = os.Stat(filepath.Join(dir, "pwned"))
	require.ErrorIs(t, err, os.ErrNotExist, "nothing in the address ran")
}

func htmlTokens(t *testing.T, s string) []html.Token {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(s))
	var out []html.Token
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		tok := z.Token()
		if tt == html.TextToken && strings.TrimSpace(tok.Data) == "" {
			continue
		}
		out = append(out, tok)
	}
}

func kinds(tokens []html.Token) []string {
	out := make([]string, len(tokens))
	for i, tok := range tokens {
		switch tok.Type {
		case html.StartTagToken, html.SelfClosingTagToken:
			out[i] = "<" + tok.Data + ">"
		case html.EndTagToken:
			out[i] = "</" + tok.Data + ">"
		case html.TextToken:
			out[i] = "text"
		default:
			out[i] = tok.Type.String()
		}
	}
	return out
}
