package testsite

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"path"
	"strings"
	"sync"
)

// The fixtures reference stylesheets, scripts and images the way real
// pages do. Checks that look at a page's assets (a HEAD on the share image,
// a render-blocking stylesheet) get a small but well-formed file of the
// right type rather than a 404 that no real site would serve.

// tinyImages holds a small PNG and JPEG, encoded once.
var tinyImages = sync.OnceValues(func() ([]byte, []byte) {
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			img.Set(x, y, color.RGBA{R: 0xc8, G: 0x7f, B: 0x3a, A: 0xff})
		}
	}
	var p, j bytes.Buffer
	_ = png.Encode(&p, img)
	_ = jpeg.Encode(&j, img, &jpeg.Options{Quality: 80})
	return p.Bytes(), j.Bytes()
})

const tinySVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><circle cx="16" cy="16" r="14" fill="#c87f3a"/></svg>`

// asset serves a placeholder for a static file path under one of prefixes,
// reporting whether it did. Assets change with deploys, not content, so
// they carry a fixed Last-Modified a couple of months back.
func (k *kit) asset(w http.ResponseWriter, r *http.Request, prefixes ...string) bool {
	p := r.URL.Path
	under := false
	for _, pre := range prefixes {
		if strings.HasPrefix(p, pre) {
			under = true
			break
		}
	}
	if !under {
		return false
	}
	pngData, jpegData := tinyImages()
	d := doc{status: http.StatusOK, modified: ago(60), cache: "public, max-age=31536000, immutable"}
	switch strings.ToLower(path.Ext(p)) {
	case ".css":
		d.ctype, d.body = "text/css; charset=utf-8", []byte("/* "+path.Base(p)+" */\nbody{margin:0;font-family:system-ui,sans-serif;line-height:1.6}\n")
	case ".js":
		d.ctype, d.body = "application/javascript; charset=utf-8", []byte("/* "+path.Base(p)+" */\n(function(){\"use strict\";document.documentElement.className+=\" js\";})();\n")
	case ".png":
		d.ctype, d.body = "image/png", pngData
	case ".jpg", ".jpeg":
		d.ctype, d.body = "image/jpeg", jpegData
	case ".svg":
		d.ctype, d.body = "image/svg+xml", []byte(tinySVG)
	case ".ico":
		d.ctype, d.body = "image/x-icon", pngData
	default:
		return false
	}
	k.send(w, r, d)
	return true
}
