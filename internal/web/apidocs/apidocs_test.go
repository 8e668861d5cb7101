package apidocs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"
)

const (
	testYAML = "openapi: 3.0.3\ninfo:\n  title: Tiny\n  version: 1.0.0\npaths: {}\n"
	testJSON = `{"openapi":"3.0.3","info":{"title":"Tiny","version":"1.0.0"},"paths":{}}`
)

func newServer(t *testing.T, title string) *echo.Echo {
	t.Helper()
	e := echo.New()
	Register(e, Spec{YAML: []byte(testYAML), JSON: []byte(testJSON), Title: title})
	return e
}

// get requests path from e, with headers given as name, value pairs.
func get(t *testing.T, e *echo.Echo, path string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func TestRoutes(t *testing.T) {
	t.Parallel()
	e := newServer(t, "Tiny")
	for _, tc := range []struct {
		path, ctype string
		status      int
	}{
		{"/api/docs/", "text/html", http.StatusOK},
		{"/api/docs/swagger-ui-bundle.js", "text/javascript", http.StatusOK},
		{"/api/docs/swagger-ui.css", "text/css", http.StatusOK},
		{"/api/docs/swagger-init.js", "text/javascript", http.StatusOK},
		{"/api/docs/page.css", "text/css", http.StatusOK},
		{"/api/docs/favicon-32x32.png", "image/png", http.StatusOK},
		{"/api/redoc", "text/html", http.StatusOK},
		{"/api/redoc/redoc.standalone.js", "text/javascript", http.StatusOK},
		{"/api/redoc/page.css", "text/css", http.StatusOK},
		{"/api/v1/openapi.yaml", "application/yaml", http.StatusOK},
		{"/api/v1/openapi.json", "application/json", http.StatusOK},
		{"/api/docs/nope.js", "application/json", http.StatusNotFound},
		{"/api/redoc/nope.js", "application/json", http.StatusNotFound},
	} {
		rec := get(t, e, tc.path)
		require.Equal(t, tc.status, rec.Code, tc.path)
		require.True(t, strings.HasPrefix(rec.Header().Get("Content-Type"), tc.ctype), "%s: %s", tc.path, rec.Header().Get("Content-Type"))
		if tc.status == http.StatusOK {
			require.NotEmpty(t, rec.Body.Bytes(), tc.path)
			require.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"), tc.path)
			require.NotEmpty(t, rec.Header().Get("ETag"), tc.path)
		}
	}
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	e := newServer(t, "Tiny")
	for path, to := range map[string]string{
		"/api/docs":   "/api/docs/",
		"/api/redoc/": "/api/redoc",
	} {
		rec := get(t, e, path)
		require.Equal(t, http.StatusMovedPermanently, rec.Code, path)
		require.Equal(t, to, rec.Header().Get("Location"), path)
	}
}

func TestSpecIsServedAsGiven(t *testing.T) {
	t.Parallel()
	e := newServer(t, "Tiny")
	require.Equal(t, testYAML, get(t, e, "/api/v1/openapi.yaml").Body.String())
	require.Equal(t, testJSON, get(t, e, "/api/v1/openapi.json").Body.String())

	rec := get(t, e, "/api/v1/openapi.json")
	require.Equal(t, "no-cache", rec.Header().Get("Cache-Control"))
	again := get(t, e, "/api/v1/openapi.json", "If-None-Match", rec.Header().Get("ETag"))
	require.Equal(t, http.StatusNotModified, again.Code)
	require.Empty(t, again.Body.Bytes())
}

var (
	tagRe       = regexp.MustCompile(`(?is)<(script|link|img|iframe|style)\b([^>]*)>`)
	urlAttrRe   = regexp.MustCompile(`(?i)\b(?:src|href)\s*=\s*"([^"]*)"`)
	scriptRe    = regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
	styleAttrRe = regexp.MustCompile(`(?i)\sstyle\s*=`)
)

// TestPagesLoadOnlyLocalResources reads each page the way a browser with no
// network would: everything it loads must come from this server, be served,
// and be allowed by the page's Content-Security-Policy.
func TestPagesLoadOnlyLocalResources(t *testing.T) {
	t.Parallel()
	e := newServer(t, "Tiny")
	for _, page := range []string{"/api/docs/", "/api/redoc"} {
		rec := get(t, e, page)
		require.Equal(t, http.StatusOK, rec.Code, page)
		html := rec.Body.String()
		require.NotContains(t, html, "https://", page)
		require.NotContains(t, html, "http://", page)
		require.NotContains(t, html, "//cdn", page)

		csp := rec.Header().Get("Content-Security-Policy")
		require.True(t, strings.HasPrefix(csp, "default-src 'self';"), "%s: %s", page, csp)
		require.NotContains(t, csp, "http", page)
		require.NotContains(t, csp, "script-src", "%s: scripts must fall back to default-src 'self'", page)
		require.Equal(t, "no-cache", rec.Header().Get("Cache-Control"), page)

		// The CSP allows no inline script, so every script must be a file.
		scripts := scriptRe.FindAllStringSubmatch(html, -1)
		require.NotEmpty(t, scripts, page)
		for _, s := range scripts {
			require.Contains(t, s[1], "src=", "%s: inline script %q", page, s[0])
			require.Empty(t, strings.TrimSpace(s[2]), page)
		}
		require.False(t, styleAttrRe.MatchString(html), "%s: style attribute", page)

		var loaded int
		for _, tag := range tagRe.FindAllStringSubmatch(html, -1) {
			name := strings.ToLower(tag[1])
			require.NotEqual(t, "style", name, "%s: inline <style>", page)
			require.NotEqual(t, "iframe", name, page)
			for _, m := range urlAttrRe.FindAllStringSubmatch(tag[2], -1) {
				u := m[1]
				require.True(t, strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//"), "%s: %s is not a path on this server", page, u)
				res := get(t, e, u)
				require.Equal(t, http.StatusOK, res.Code, "%s loads %s", page, u)
				require.NotEmpty(t, res.Body.Bytes(), u)
				require.Contains(t, res.Header().Get("Cache-Control"), "max-age=", u)
				switch {
				case name == "script":
					require.True(t, strings.HasPrefix(res.Header().Get("Content-Type"), "text/javascript"), u)
				case strings.Contains(tag[2], `rel="stylesheet"`):
					require.True(t, strings.HasPrefix(res.Header().Get("Content-Type"), "text/css"), u)
				}
				loaded++
			}
		}
		require.GreaterOrEqual(t, loaded, 2, page)
	}
}

func TestPagesPointAtTheJSONSpec(t *testing.T) {
	t.Parallel()
	e := newServer(t, "Tiny")
	require.Contains(t, get(t, e, "/api/docs/").Body.String(), `data-spec-url="/api/v1/openapi.json"`)
	require.Contains(t, get(t, e, "/api/redoc").Body.String(), `<redoc spec-url="/api/v1/openapi.json">`)
}

func TestTitle(t *testing.T) {
	t.Parallel()
	e := newServer(t, `Scans <&> "API"`)
	require.Contains(t, get(t, e, "/api/docs/").Body.String(), "<title>Scans &lt;&amp;&gt; &#34;API&#34; · Swagger UI</title>")
	require.Contains(t, get(t, e, "/api/redoc").Body.String(), "<title>Scans &lt;&amp;&gt; &#34;API&#34; · ReDoc</title>")

	e = newServer(t, "")
	require.Contains(t, get(t, e, "/api/redoc").Body.String(), "<title>API · ReDoc</title>")
}

func TestRedocBundle(t *testing.T) {
	t.Parallel()
	e := newServer(t, "Tiny")
	want, err := fs.ReadFile(web, "web/redoc/redoc.standalone.js")
	require.NoError(t, err)
	require.Greater(t, len(want), 500_000, "the bundle looks truncated")

	plain := get(t, e, "/api/redoc/redoc.standalone.js")
	require.Equal(t, http.StatusOK, plain.Code)
	require.Empty(t, plain.Header().Get("Content-Encoding"))
	require.Equal(t, "public, max-age=86400", plain.Header().Get("Cache-Control"))
	require.Equal(t, want, plain.Body.Bytes())
	require.True(t, bytes.HasPrefix(plain.Body.Bytes(), []byte("/*! For license information please see redoc.standalone.js.LICENSE.txt */")))

	zipped := get(t, e, "/api/redoc/redoc.standalone.js", "Accept-Encoding", "gzip, deflate, br")
	require.Equal(t, http.StatusOK, zipped.Code)
	require.Equal(t, "gzip", zipped.Header().Get("Content-Encoding"))
	require.Contains(t, zipped.Header().Values("Vary"), "Accept-Encoding")
	require.Less(t, zipped.Body.Len(), len(want)/2)
	require.Equal(t, want, gunzip(t, zipped.Body.Bytes()))
	require.NotEqual(t, plain.Header().Get("ETag"), zipped.Header().Get("ETag"), "each encoding needs its own ETag")

	again := get(t, e, "/api/redoc/redoc.standalone.js", "Accept-Encoding", "gzip", "If-None-Match", zipped.Header().Get("ETag"))
	require.Equal(t, http.StatusNotModified, again.Code)
	require.Empty(t, again.Body.Bytes())
}

// TestVendoredRedocMatchesREADME keeps web/redoc/README.md, which says where
// the bundle came from, true: replacing the bundle means updating it.
func TestVendoredRedocMatchesREADME(t *testing.T) {
	t.Parallel()
	js, err := fs.ReadFile(web, "web/redoc/redoc.standalone.js")
	require.NoError(t, err)
	readme, err := fs.ReadFile(web, "web/redoc/README.md")
	require.NoError(t, err)
	sum := sha256.Sum256(js)
	require.Contains(t, string(readme), hex.EncodeToString(sum[:]))
	for _, name := range []string{"web/redoc/LICENSE", "web/redoc/redoc.standalone.js.LICENSE.txt"} {
		b, err := fs.ReadFile(web, name)
		require.NoError(t, err)
		require.NotEmpty(t, b, name)
	}
}

// TestSwaggerBundleInBothEncodings covers the assets swgui embeds gzipped,
// which clients that do not accept gzip get decompressed.
func TestSwaggerBundleInBothEncodings(t *testing.T) {
	t.Parallel()
	e := newServer(t, "Tiny")
	plain := get(t, e, "/api/docs/swagger-ui-bundle.js", "Accept-Encoding", "identity")
	require.Equal(t, http.StatusOK, plain.Code)
	require.Empty(t, plain.Header().Get("Content-Encoding"))
	require.Contains(t, plain.Body.String(), "SwaggerUIBundle")

	zipped := get(t, e, "/api/docs/swagger-ui-bundle.js", "Accept-Encoding", "gzip")
	require.Equal(t, "gzip", zipped.Header().Get("Content-Encoding"))
	require.Equal(t, plain.Body.Bytes(), gunzip(t, zipped.Body.Bytes()))

	// PNGs are already compressed and are never sent gzipped.
	png := get(t, e, "/api/docs/favicon-16x16.png", "Accept-Encoding", "gzip")
	require.Empty(t, png.Header().Get("Content-Encoding"))
	require.True(t, bytes.HasPrefix(png.Body.Bytes(), []byte("\x89PNG")))
}

func TestAcceptsGzip(t *testing.T) {
	t.Parallel()
	for header, want := range map[string]bool{
		"":                      false,
		"identity":              false,
		"gzip":                  true,
		"GZIP":                  true,
		"deflate, gzip;q=1.0":   true,
		"br;q=1, gzip;q=0.5":    true,
		"gzip;q=0":              false,
		"gzip; q=0, *":          false,
		"*":                     true,
		"*;q=0":                 false,
		"br, *;q=0.1":           true,
		"x-gzip":                true,
		"deflate, br, identity": false,
	} {
		require.Equal(t, want, acceptsGzip(header), "%q", header)
	}
}

func TestSpecBytesAreCopied(t *testing.T) {
	t.Parallel()
	js := []byte(testJSON)
	e := echo.New()
	Register(e, Spec{YAML: []byte(testYAML), JSON: js})
	js[0] = 'X'
	require.Equal(t, testJSON, get(t, e, "/api/v1/openapi.json").Body.String())
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return out
}
