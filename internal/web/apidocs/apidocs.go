// Package apidocs owns the interactive API documentation and the published
// contract: the Swagger UI page at /api/docs/, the ReDoc page at /api/redoc,
// the JavaScript and CSS those pages load, and the raw spec at
// /api/v1/openapi.yaml and /api/v1/openapi.json.
//
// Every byte the pages need is embedded in the binary, so the documentation
// renders with no internet access, and the pages' Content-Security-Policy
// holds them to this origin.
package apidocs

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"
	swaggerui "github.com/swaggest/swgui/v5/static"
)

// Spec is the contract the documentation shows and the spec routes serve.
type Spec struct {
	// YAML is served as is at /api/v1/openapi.yaml.
	YAML []byte
	// JSON is served as is at /api/v1/openapi.json, and both UIs load it.
	JSON []byte
	// Title names the pages in the browser's tab; "API" when empty.
	Title string
}

// Where the pages and the spec live. The spec URLs sit under /api/v1 beside
// the API they describe, but are registered on the root Echo so neither the
// request validator nor authentication applies to them.
const (
	docsPath  = "/api/docs"
	redocPath = "/api/redoc"
	yamlPath  = "/api/v1/openapi.yaml"
	jsonPath  = "/api/v1/openapi.json"
)

// Content-Security-Policies of the two pages. Both start from default-src
// 'self' and add only what the UI stops working without (each was checked by
// taking it away in headless Chromium):
//   - img-src data: both UIs draw icons from data: URIs.
//   - style-src 'unsafe-inline', ReDoc only: ReDoc styles itself with
//     styled-components, which writes <style> elements at run time; without
//     it ReDoc throws before rendering. A nonce is no way out: ReDoc takes one
//     only from an inline script, and even then the styles it adds while
//     loading go in without it.
//   - worker-src blob:, ReDoc only: its search runs in a web worker built
//     from a blob: URL.
//
// No inline script runs on either page. ReDoc also tries to show its vendor
// logo from a CDN; img-src blocks that, and ReDoc then hides the image.
const (
	cspCommon  = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
	swaggerCSP = cspCommon + "img-src 'self' data:"
	redocCSP   = cspCommon + "img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:"
)

// web holds the page templates, the small files written for these pages
// and the vendored ReDoc bundle; see web/redoc/README.md for its origin.
//
//go:embed web
var web embed.FS

// Register adds the documentation and spec routes to e. They are public:
// e is the root Echo, outside the /api/v1 group with its validator and
// authentication.
func Register(e *echo.Echo, spec Spec) {
	title := spec.Title
	if title == "" {
		title = "API"
	}
	page := pageData{Title: title, SpecURL: jsonPath}

	swaggerPage := newPage(render("web/swagger.html", page), swaggerCSP)
	swaggerAssets := map[string]*asset{
		"swagger-ui-bundle.js": gzipAsset(mustRead(swaggerui.FS, "swagger-ui-bundle.js.gz"), mimeJS),
		"swagger-ui.css":       gzipAsset(mustRead(swaggerui.FS, "swagger-ui.css.gz"), mimeCSS),
		"favicon-16x16.png":    plainAsset(mustRead(swaggerui.FS, "favicon-16x16.png"), mimePNG, false),
		"favicon-32x32.png":    plainAsset(mustRead(swaggerui.FS, "favicon-32x32.png"), mimePNG, false),
		"swagger-init.js":      plainAsset(mustRead(web, "web/swagger-init.js"), mimeJS, true),
		"page.css":             plainAsset(mustRead(web, "web/page.css"), mimeCSS, true),
	}

	redocPage := newPage(render("web/redoc.html", page), redocCSP)
	redocAssets := map[string]*asset{
		"redoc.standalone.js": plainAsset(mustRead(web, "web/redoc/redoc.standalone.js"), mimeJS, true),
		"page.css":            swaggerAssets["page.css"],
	}

	yaml := newDocument(bytes.Clone(spec.YAML), "application/yaml")
	json := newDocument(bytes.Clone(spec.JSON), echo.MIMEApplicationJSON)

	e.GET(docsPath, func(c echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, docsPath+"/")
	})
	e.GET(docsPath+"/*", func(c echo.Context) error {
		name := c.Param("*")
		if name == "" {
			return swaggerPage.serve(c)
		}
		return serveAsset(c, swaggerAssets, name)
	})

	e.GET(redocPath, redocPage.serve)
	e.GET(redocPath+"/*", func(c echo.Context) error {
		name := c.Param("*")
		if name == "" {
			// The page is at /api/redoc; its assets, not the page, are under the slash.
			return c.Redirect(http.StatusMovedPermanently, redocPath)
		}
		return serveAsset(c, redocAssets, name)
	})

	e.GET(yamlPath, yaml.serve)
	e.GET(jsonPath, json.serve)
}

type pageData struct {
	Title   string
	SpecURL string
}

// render executes one of the embedded page templates. Both the templates
// and the data are fixed when the binary is built or the server starts, so
// a failure is a programming error and panics like any bad route would.
func render(name string, data pageData) []byte {
	t := template.Must(template.ParseFS(web, name))
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic("apidocs: render " + name + ": " + err.Error())
	}
	return b.Bytes()
}

func serveAsset(c echo.Context, assets map[string]*asset, name string) error {
	a, ok := assets[name]
	if !ok {
		// Left to the server's error handler, so a wrong asset URL gets the
		// same error envelope as any other unknown path under /api.
		return echo.ErrNotFound
	}
	return a.serve(c)
}
