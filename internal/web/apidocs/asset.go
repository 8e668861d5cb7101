package apidocs

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

const (
	mimeJS   = "text/javascript; charset=utf-8"
	mimeCSS  = "text/css; charset=utf-8"
	mimePNG  = "image/png"
	mimeHTML = echo.MIMETextHTMLCharsetUTF8
)

// Caching. Asset URLs carry no version, so an asset is cached for a day and
// then revalidated by ETag: an upgrade reaches browsers within a day at the
// latest, and until then they fetch nothing. The pages and the spec may
// change with any deploy and are small, so browsers revalidate them every
// time.
const (
	assetCacheControl    = "public, max-age=86400"
	documentCacheControl = "no-cache"
)

// asset is one file the pages load. It is kept in whichever encoding it was
// embedded in; the other one is made on first request and kept, so servers
// that never serve the docs never pay for it.
type asset struct {
	contentType string
	etag        string        // of the embedded bytes; the gzip encoding's adds "-gzip"
	plain       func() []byte // identity encoding
	gzipped     func() []byte // gzip encoding; nil if not worth compressing
}

// plainAsset is a file embedded as is. Images are already compressed, so
// compress is false for them.
func plainAsset(b []byte, contentType string, compress bool) *asset {
	a := &asset{contentType: contentType, etag: etag(b), plain: func() []byte { return b }}
	if compress {
		a.gzipped = sync.OnceValue(func() []byte { return gzipBytes(b) })
	}
	return a
}

// gzipAsset is a file embedded gzip-compressed, as swgui ships Swagger UI.
// Nearly every browser accepts gzip, so the identity encoding is rarely made.
func gzipAsset(gz []byte, contentType string) *asset {
	return &asset{
		contentType: contentType,
		etag:        etag(gz),
		plain:       sync.OnceValue(func() []byte { return gunzipBytes(gz) }),
		gzipped:     func() []byte { return gz },
	}
}

func (a *asset) serve(c echo.Context) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, a.contentType)
	h.Set("Cache-Control", assetCacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	body, tag := a.plain, a.etag
	if a.gzipped != nil {
		h.Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		if acceptsGzip(c.Request().Header.Get(echo.HeaderAcceptEncoding)) {
			h.Set(echo.HeaderContentEncoding, "gzip")
			body, tag = a.gzipped, a.etag+"-gzip"
		}
	}
	h.Set("ETag", `"`+tag+`"`)
	return serveBytes(c, body())
}

// document is a response generated once at Register: a page or the spec.
type document struct {
	contentType string
	csp         string // only pages have one
	etag        string
	body        []byte
}

func newDocument(b []byte, contentType string) *document {
	return &document{contentType: contentType, etag: `"` + etag(b) + `"`, body: b}
}

func newPage(b []byte, csp string) *document {
	d := newDocument(b, mimeHTML)
	d.csp = csp
	return d
}

func (d *document) serve(c echo.Context) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, d.contentType)
	h.Set("Cache-Control", documentCacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", d.etag)
	if d.csp != "" {
		h.Set(echo.HeaderContentSecurityPolicy, d.csp)
	}
	return serveBytes(c, d.body)
}

// serveBytes writes b with the headers already set, leaving conditional
// (If-None-Match) and range requests to net/http. The Content-Type is set,
// so nothing is sniffed.
func serveBytes(c echo.Context, b []byte) error {
	http.ServeContent(c.Response(), c.Request(), "", time.Time{}, bytes.NewReader(b))
	return nil
}

// acceptsGzip reports whether an Accept-Encoding header value admits gzip:
// named with a non-zero weight, or not named and admitted by "*".
func acceptsGzip(header string) bool {
	gzipQ, anyQ := -1.0, -1.0
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			gzipQ = q
		case "*":
			anyQ = q
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return anyQ > 0
}

// etag is a strong validator for b: the first 128 bits of its SHA-256.
func etag(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// The embedded files are fixed at build time and the tests read every one
// of them, so a failure in mustRead, gzipBytes or gunzipBytes is a broken
// build, not a runtime condition, and panics.

func mustRead(fsys fs.FS, name string) []byte {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		panic("apidocs: embedded " + name + ": " + err.Error())
	}
	return b
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	if _, err := w.Write(b); err != nil {
		panic("apidocs: gzip: " + err.Error())
	}
	if err := w.Close(); err != nil {
		panic("apidocs: gzip: " + err.Error())
	}
	return buf.Bytes()
}

func gunzipBytes(gz []byte) []byte {
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		panic("apidocs: gunzip: " + err.Error())
	}
	b, err := io.ReadAll(r)
	if err != nil {
		panic("apidocs: gunzip: " + err.Error())
	}
	return b
}
