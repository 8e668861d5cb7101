package testsite

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"time"
)

// The page content of the realistic fixtures lives in sites/<name>/ as
// text/template files: HTML layouts and bodies, Markdown prose, robots.txt
// and the like. text/template rather than html/template because the
// fixtures must emit exactly the markup real sites emit (JSON-LD included)
// and the data is our own.
//
//go:embed sites
var siteFiles embed.FS

// kit is what a realistic fixture shares across its pages: templates, public
// origin, site-wide headers and whether it compresses.
type kit struct {
	host     string
	origin   string
	port     int
	httpPort int
	tmpl     *template.Template
	gzip     bool
	// noValidators leaves out ETag and conditional GET, as a bare PHP
	// script does.
	noValidators bool
	// htmlType is the Content-Type of pages; empty means
	// "text/html; charset=UTF-8".
	htmlType string
	// header sets the headers every response of the site carries.
	header func(h http.Header)
}

func newKit(e *env, name string, gzipOK bool, header func(http.Header)) *kit {
	// Start has already checked that the templates parse.
	sets, _ := siteTemplates()
	return &kit{
		host:     hosts[name],
		origin:   e.origin(hosts[name]),
		port:     e.httpsPort,
		httpPort: e.httpPort,
		tmpl:     sets[name],
		gzip:     gzipOK,
		header:   header,
	}
}

// siteTemplates parses each realistic fixture's files once per process;
// template sets are safe for concurrent use, so every Server shares them.
var siteTemplates = sync.OnceValues(func() (map[string]*template.Template, error) {
	out := map[string]*template.Template{}
	for _, name := range Realistic {
		set := template.New(name).Option("missingkey=error")
		set.Funcs(template.FuncMap{
			"ago":    ago,
			"iso":    func(t time.Time) string { return t.Format("2006-01-02T15:04:05+00:00") },
			"ymd":    func(t time.Time) string { return t.Format("2006-01-02") },
			"long":   func(t time.Time) string { return t.Format("2 January 2006") },
			"longUS": func(t time.Time) string { return t.Format("January 2, 2006") },
			"rss":    func(t time.Time) string { return t.Format("Mon, 02 Jan 2006 15:04:05 +0000") },
			// include renders another template of the set to a string, so
			// that its output can be piped through markdown.
			"include": func(tmpl string, data any) (string, error) {
				var b strings.Builder
				err := set.ExecuteTemplate(&b, tmpl, data)
				return b.String(), err
			},
			"markdown":  func(s string) string { return markdownHTML(s, mdPlain) },
			"gutenberg": func(s string) string { return markdownHTML(s, mdGutenberg) },
		})
		if _, err := set.ParseFS(siteFiles, "sites/"+name+"/*"); err != nil {
			return nil, fmt.Errorf("testsite: templates of %s: %w", name, err)
		}
		out[name] = set
	}
	return out, nil
})

// today is the current UTC day at midnight. Dates are whole days before it
// so that freshness and the rendered bytes only change once a day.
func today() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }

// ago is a publishing time n days before today, at a plausible hour.
func ago(n int) time.Time {
	return today().AddDate(0, 0, -n).Add(9*time.Hour + 30*time.Minute)
}

// webPage is one HTML page of a realistic fixture. Its fields are exported
// because templates read them.
type webPage struct {
	Path        string
	Title       string
	Description string
	// Body names the template that renders what goes inside the layout.
	Body string
	// Layout names the page template; empty means "layout.html".
	Layout string
	// OGType is the og:type; empty means "website".
	OGType string
	// Image is the path of the page's share image.
	Image string
	// Published and Modified are days before today; 0 means undated.
	Published, Modified int
	// Status is the HTTP status; 0 means 200.
	Status int
	// Data carries per-page values for the templates.
	Data map[string]any
	// Schema builds the page's JSON-LD; nil means the page has none.
	Schema func(v *view) any
}

// view is what templates render: the page plus the running site's origin.
type view struct {
	Origin   string // "https://host:port"
	Host     string
	Port     int
	HTTPPort int
	Page     *webPage
	// Content is the rendered body, for the layout.
	Content string
	// JSONLD is the page's structured data as JSON text.
	JSONLD string
}

// URL is the absolute URL of the page.
func (v *view) URL() string { return v.Origin + v.Page.Path }

// Abs makes a site path absolute.
func (v *view) Abs(path string) string { return v.Origin + path }

// Pub is when the page was published.
func (v *view) Pub() time.Time { return ago(v.Page.Published) }

// Mod is when the page was last modified.
func (v *view) Mod() time.Time { return ago(v.Page.Modified) }

// D reads a per-page value, "" when missing.
func (v *view) D(key string) any {
	if x, ok := v.Page.Data[key]; ok {
		return x
	}
	return ""
}

func (k *kit) newView(p *webPage) *view {
	return &view{Origin: k.origin, Host: k.host, Port: k.port, HTTPPort: k.httpPort, Page: p}
}

// render produces the HTML of a page.
func (k *kit) render(p *webPage) ([]byte, error) {
	v := k.newView(p)
	if p.Schema != nil {
		js, err := jsonLD(p.Schema(v))
		if err != nil {
			return nil, err
		}
		v.JSONLD = js
	}
	var body bytes.Buffer
	if err := k.tmpl.ExecuteTemplate(&body, p.Body, v); err != nil {
		return nil, err
	}
	v.Content = body.String()
	layout := p.Layout
	if layout == "" {
		layout = "layout.html"
	}
	var out bytes.Buffer
	if err := k.tmpl.ExecuteTemplate(&out, layout, v); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// page answers a request with a rendered page.
func (k *kit) page(w http.ResponseWriter, r *http.Request, p *webPage) {
	html, err := k.render(p)
	if err != nil {
		k.fail(w, err)
		return
	}
	status := p.Status
	if status == 0 {
		status = http.StatusOK
	}
	var mod time.Time
	if p.Modified > 0 {
		mod = ago(p.Modified)
	}
	ctype := k.htmlType
	if ctype == "" {
		ctype = "text/html; charset=UTF-8"
	}
	k.send(w, r, doc{status: status, ctype: ctype, body: html, modified: mod})
}

// file answers a request with a rendered non-HTML template (robots.txt,
// feeds, llms.txt); data is what the template reads through .D.
func (k *kit) file(w http.ResponseWriter, r *http.Request, tmpl, ctype string, modified time.Time, data map[string]any) {
	var b bytes.Buffer
	if err := k.tmpl.ExecuteTemplate(&b, tmpl, k.newView(&webPage{Data: data})); err != nil {
		k.fail(w, err)
		return
	}
	k.send(w, r, doc{status: http.StatusOK, ctype: ctype, body: b.Bytes(), modified: modified})
}

// fail reports a template error. It can only be a bug in this package, and
// the message makes the failing test say so.
func (k *kit) fail(w http.ResponseWriter, err error) {
	k.header(w.Header())
	http.Error(w, "testsite: fixture "+k.host+" failed to render: "+err.Error(), http.StatusInternalServerError)
}

// jsonLD encodes structured data the way CMS plugins print it: indented,
// with URLs left readable.
func jsonLD(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "\t")
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("testsite: JSON-LD: %w", err)
	}
	// "</" would end the surrounding <script> element early.
	return strings.ReplaceAll(strings.TrimSpace(b.String()), "</", `<\/`), nil
}

// obj is a JSON-LD node. encoding/json sorts map keys, which conveniently
// puts "@context", "@id" and "@type" first.
type obj = map[string]any

// doc is one response body with its metadata.
type doc struct {
	status   int
	ctype    string
	body     []byte
	modified time.Time
	cache    string // Cache-Control; empty leaves it out
}

// send writes a document with the site's headers, gzip when the site and
// client both allow it, validators and conditional GET support, and no body
// for HEAD.
func (k *kit) send(w http.ResponseWriter, r *http.Request, d doc) {
	h := w.Header()
	if k.header != nil {
		k.header(h)
	}
	h.Set("Content-Type", d.ctype)
	if d.cache != "" {
		h.Set("Cache-Control", d.cache)
	}
	body := d.body
	etag := fmt.Sprintf("%x", fnv64(body))
	if d.status == http.StatusOK && !k.noValidators {
		if !d.modified.IsZero() {
			h.Set("Last-Modified", d.modified.UTC().Format(http.TimeFormat))
		}
		if notModified(r, etag, d.modified) {
			h.Set("ETag", `"`+etag+`"`)
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	// Small bodies are not worth compressing, as real servers agree.
	compressible := k.gzip && len(body) >= 256
	if compressible {
		h.Add("Vary", "Accept-Encoding")
	}
	if compressible && acceptsGzip(r) {
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		if _, err := zw.Write(body); err == nil && zw.Close() == nil {
			body = zb.Bytes()
			h.Set("Content-Encoding", "gzip")
			etag += "-gzip"
		}
	}
	if d.status == http.StatusOK && !k.noValidators {
		h.Set("ETag", `"`+etag+`"`)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(d.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// notModified evaluates If-None-Match, then If-Modified-Since (RFC 9110
// gives the entity tag precedence).
func notModified(r *http.Request, etag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
			t = strings.TrimSuffix(strings.Trim(t, `"`), "-gzip")
			if t == etag || t == "*" {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !modified.IsZero() {
		if t, err := http.ParseTime(ims); err == nil && !modified.Truncate(time.Second).After(t) {
			return true
		}
	}
	return false
}

// acceptsGzip reports whether Accept-Encoding allows gzip (q>0).
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.TrimSpace(name) != "*" {
			continue
		}
		q := strings.TrimSpace(params)
		if v, ok := strings.CutPrefix(q, "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil && f == 0 {
				return false
			}
		}
		return true
	}
	return false
}

func fnv64(b []byte) uint64 {
	h := fnv.New64a()
	_, _ = h.Write(b)
	return h.Sum64()
}

// methodOK answers 405 for methods a static site does not take.
func methodOK(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	return false
}

// static answers with a template rendered outside any layout, such as a
// server error page.
func (k *kit) static(w http.ResponseWriter, r *http.Request, status int, tmpl string) {
	var b bytes.Buffer
	if err := k.tmpl.ExecuteTemplate(&b, tmpl, k.newView(&webPage{Path: r.URL.Path})); err != nil {
		k.fail(w, err)
		return
	}
	k.send(w, r, doc{status: status, ctype: "text/html; charset=UTF-8", body: b.Bytes()})
}
