package testsite

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
)

// Nimbus is a SaaS marketing site shipped as a client-rendered Next.js
// app: every route is the same empty <div id="__next"> plus a couple of
// hundred kilobytes of JavaScript, so a crawler that runs no scripts sees a
// title and a <noscript> line and nothing else. It is deployed with modern
// headers (HSTS, CSP, X-Frame-Options), blocks both GPTBot and OAI-SearchBot
// in robots.txt, has a two-year-old sitemap, and answers 200 with the shell
// for any path (a soft 404).

const nimbusBuildID = "k3Pq9vXbN2rT7wYz1LmQa"

// nimbusChunk is one script of the app: its URL path and generated size.
// The fields are exported for the page template.
type nimbusChunk struct {
	Path   string
	Size   int
	Module bool // false for the nomodule polyfills
}

var nimbusChunks = []nimbusChunk{
	{"/_next/static/chunks/polyfills-c67a75d1b6f99dc8.js", 31 << 10, false},
	{"/_next/static/chunks/webpack-6ef43a8d4a395f49.js", 4 << 10, true},
	{"/_next/static/chunks/framework-2c79e2a64abdb08b.js", 46 << 10, true},
	{"/_next/static/chunks/main-0f3a1c7e5b2d9864.js", 38 << 10, true},
	{"/_next/static/chunks/pages/_app-8d5e2b41c07a93f6.js", 27 << 10, true},
}

// nimbusRoutes maps the app's routes to their page chunk.
var nimbusRoutes = map[string]nimbusChunk{
	"/":        {"/_next/static/chunks/pages/index-4b1e8f2c9a7d3065.js", 14 << 10, true},
	"/about":   {"/_next/static/chunks/pages/about-a91c3e57d2f08b46.js", 9 << 10, true},
	"/contact": {"/_next/static/chunks/pages/contact-5e0d7b2a84c1f936.js", 8 << 10, true},
	"/pricing": {"/_next/static/chunks/pages/pricing-c2f49a1e6b83d705.js", 11 << 10, true},
}

const nimbusCSS = "/_next/static/css/7f2b9c4e1a6d0835.css"

// nimbusAssets holds every generated static file by path, built once per
// process since it does not depend on the server.
var nimbusAssets = sync.OnceValue(func() map[string][]byte {
	out := map[string][]byte{}
	seed := uint64(1)
	add := func(c nimbusChunk) {
		seed++
		out[c.Path] = minifiedJS(c.Path, c.Size, seed)
	}
	for _, c := range nimbusChunks {
		add(c)
	}
	for _, route := range []string{"/", "/about", "/contact", "/pricing"} {
		add(nimbusRoutes[route])
	}
	out["/_next/static/"+nimbusBuildID+"/_buildManifest.js"] = []byte(`self.__BUILD_MANIFEST={__rewrites:{afterFiles:[],beforeFiles:[],fallback:[]},"/":["static/chunks/pages/index-4b1e8f2c9a7d3065.js"],"/about":["static/chunks/pages/about-a91c3e57d2f08b46.js"],"/contact":["static/chunks/pages/contact-5e0d7b2a84c1f936.js"],"/pricing":["static/chunks/pages/pricing-c2f49a1e6b83d705.js"],"/_error":["static/chunks/pages/_error-7a92967bea80186d.js"],sortedPages:["/","/_app","/_error","/about","/contact","/pricing"]},self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB();`)
	out["/_next/static/"+nimbusBuildID+"/_ssgManifest.js"] = []byte(`self.__SSG_MANIFEST=new Set,self.__SSG_MANIFEST_CB&&self.__SSG_MANIFEST_CB();`)
	var css strings.Builder
	for i := 0; css.Len() < 6<<10; i++ {
		fmt.Fprintf(&css, ".nb-%x{display:flex;align-items:center;gap:%dpx;padding:%dpx %dpx;border-radius:%dpx}", i*7919, 4+i%12, 8+i%9, 12+i%7, 2+i%6)
	}
	out[nimbusCSS] = []byte(css.String())
	return out
})

// minifiedJS generates a plausible webpack chunk of about size bytes: a
// push onto the chunk array of many small modules. The code is never run;
// it only has to look and weigh like a production bundle.
func minifiedJS(name string, size int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) //nolint:gosec // deterministic filler, not security
	ident := func() string {
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$"
		n := 1 + rng.IntN(2)
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		return string(b)
	}
	stmts := []func() string{
		func() string {
			return fmt.Sprintf("var %s=n(%d),%s=n.n(%s)", ident(), rng.IntN(99999), ident(), ident())
		},
		func() string {
			return fmt.Sprintf("function %s(e,t){if(!(e instanceof t))throw new TypeError(\"Cannot call a class as a function\")}", ident())
		},
		func() string {
			return fmt.Sprintf("%s=function(e){return e&&e.__esModule?e:{default:e}}", ident())
		},
		func() string {
			return fmt.Sprintf("Object.defineProperty(t,\"%s\",{enumerable:!0,get:function(){return %s}})", ident(), ident())
		},
		func() string {
			return fmt.Sprintf("let %s=(0,%s.useState)(%d),[%s,%s]=%s", ident(), ident(), rng.IntN(10), ident(), ident(), ident())
		},
		func() string {
			return fmt.Sprintf("return(0,o.jsx)(\"div\",{className:\"nb-%x\",children:(0,o.jsx)(%s,{...%s})})", rng.IntN(1<<20), ident(), ident())
		},
		func() string {
			return fmt.Sprintf("for(var %s=0;%s<%s.length;%s++)%s[%s]=%s.charCodeAt(%s)^%d", "i", "i", ident(), "i", ident(), "i", ident(), "i", rng.IntN(255))
		},
		func() string {
			return fmt.Sprintf("if(\"function\"==typeof %s)%s.apply(void 0,arguments);else throw Error(\"Minified React error #%d; visit https://react.dev/errors/%d\")", ident(), ident(), rng.IntN(500), rng.IntN(500))
		},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "(self.webpackChunk_N_E=self.webpackChunk_N_E||[]).push([[%d],{", rng.IntN(9999))
	first := true
	for b.Len() < size-64 {
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, "%d:function(e,t,n){\"use strict\";", rng.IntN(99999))
		for i, n := 0, 3+rng.IntN(8); i < n; i++ {
			b.WriteString(stmts[rng.IntN(len(stmts))]())
			b.WriteByte(';')
		}
		b.WriteByte('}')
	}
	b.WriteString("}]);\n//# sourceMappingURL=" + name[strings.LastIndex(name, "/")+1:] + ".map\n")
	return []byte(b.String())
}

func newNextShell(e *env) *fixture {
	k := newKit(e, NextShell, true, func(h http.Header) {
		h.Set("Server", "Vercel")
		h.Set("X-Powered-By", "Next.js")
		h.Set("Strict-Transport-Security", "max-age=63072000")
		h.Set("Content-Security-Policy", "default-src 'self'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Vercel-Cache", "HIT")
	})
	assets := nimbusAssets()
	serve := func(w http.ResponseWriter, r *http.Request) {
		if !methodOK(w, r) {
			return
		}
		w.Header().Set("X-Vercel-Id", fmt.Sprintf("lhr1::%x", fnv64([]byte(r.URL.RequestURI()))))
		path := r.URL.Path
		if body, ok := assets[path]; ok {
			ctype := "application/javascript; charset=utf-8"
			if strings.HasSuffix(path, ".css") {
				ctype = "text/css; charset=utf-8"
			}
			k.send(w, r, doc{status: http.StatusOK, ctype: ctype, body: body, cache: "public, max-age=31536000, immutable"})
			return
		}
		switch {
		case path == "/robots.txt":
			k.file(w, r, "robots.txt", "text/plain; charset=utf-8", ago(700), nil)
			return
		case path == "/sitemap.xml":
			var urls []smURL
			for i, p := range []string{"/", "/about", "/contact", "/pricing"} {
				urls = append(urls, smURL{loc: k.origin + p, lastmod: ago(730 - 3*i)})
			}
			k.sendXML(w, r, "application/xml", urlset(urls, ""), newest(urls))
			return
		case path == "/favicon.ico":
			k.asset(w, r, "/")
			return
		case strings.HasPrefix(path, "/_next/"):
			// Static files are served as files; only page routes fall back.
			http.NotFound(w, r)
			return
		}
		route := path
		if _, ok := nimbusRoutes[route]; !ok {
			// The host rewrites every unknown path to the app's index, so
			// a missing page is a 200 that renders nothing.
			route = "/"
		}
		p := &webPage{Path: path, Body: "shell.html", Layout: "shell.html", Data: map[string]any{
			"route": route, "pageChunk": nimbusRoutes[route].Path, "chunks": nimbusChunks, "css": nimbusCSS, "buildId": nimbusBuildID,
		}}
		html, err := k.render(p)
		if err != nil {
			k.fail(w, err)
			return
		}
		k.send(w, r, doc{status: http.StatusOK, ctype: "text/html; charset=utf-8", body: html, cache: "public, max-age=0, must-revalidate"})
	}
	return &fixture{
		name: NextShell, host: k.host, serve: serve,
		plain: func(w http.ResponseWriter, r *http.Request) {
			// The platform's edge upgrades with a temporary redirect.
			redirect(w, k.origin+r.URL.RequestURI(), http.StatusFound)
		},
	}
}
