package fetch

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// padding pushes what follows past the 1024 bytes of the meta prescan, as
// the inline styles and scripts of real pages do.
var padding = "<style>" + strings.Repeat(".nav-item{margin:0 4px;padding:2px}\n", 40) + "</style>"

func sjis(t *testing.T, s string) string {
	t.Helper()
	b, err := japanese.ShiftJIS.NewEncoder().String(s)
	require.NoError(t, err)
	return b
}

func utf16le(t *testing.T, s string) string {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(s)
	require.NoError(t, err)
	return b
}

func TestDecodingFollowsBrowsers(t *testing.T) {
	cases := []struct {
		name, contentType, body string
		purpose                 Purpose
		want                    string // a fragment of the decoded body
		encoding                string
		source                  CharsetSource
		declared                bool
		header, prescan, inHead string
	}{
		{
			name:        "no charset anywhere, UTF-8 after the first 1024 bytes",
			contentType: "text/html",
			body:        "<!doctype html><html><head>" + padding + "<title>Germany′s Frühburgunder</title></head><body><p>Spätburgunder</p></body></html>",
			want:        "Germany′s Frühburgunder", encoding: "utf-8", source: FromSniffing,
		},
		{
			name:        "no header, meta charset after 1024 bytes",
			contentType: "",
			body:        "<!doctype html><html><head>" + padding + `<meta charset="utf-8"><title>Crème brûlée</title></head><body>x</body></html>`,
			want:        "Crème brûlée", encoding: "utf-8", source: FromHead, inHead: "utf-8",
		},
		{
			name:        "late meta names latin-1 and the bytes are latin-1",
			contentType: "text/html",
			body:        "<html><head>" + padding + `<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">` + "<title>Caf\xe9 M\xfcller</title></head></html>",
			want:        "Café Müller", encoding: "windows-1252", source: FromHead, inHead: "windows-1252",
		},
		{
			name:        "header says latin1, the byte-order mark says UTF-8",
			contentType: "text/html; charset=latin1",
			body:        "\xEF\xBB\xBF<html><head><title>Zürich</title></head></html>",
			want:        "<html><head><title>Zürich", encoding: "utf-8", source: FromBOM, declared: true, header: "windows-1252",
		},
		{
			name:        "header charset wins over a contradicting meta",
			contentType: "text/html; charset=UTF-8",
			body:        `<html><head><meta charset="windows-1252"><title>Ærø</title></head></html>`,
			want:        "Ærø", encoding: "utf-8", source: FromHeader, declared: true, header: "utf-8", prescan: "windows-1252",
		},
		{
			name:        "http-equiv in the prescan names Shift_JIS",
			contentType: "text/html",
			body:        `<html><head><meta http-equiv="content-type" content="text/html;charset='Shift_JIS'"><title>` + sjis(t, "東京の天気") + `</title></head></html>`,
			want:        "東京の天気", encoding: "shift_jis", source: FromPrescan, declared: true, prescan: "shift_jis",
		},
		{
			name:        "undeclared windows-1252 bytes",
			contentType: "text/html",
			body:        "<html><head><title>Men\xfc \x96 Preise in \x80</title></head></html>",
			want:        "Menü – Preise in €", encoding: "windows-1252", source: FromDefault,
		},
		{
			name:        "UTF-16 with a byte-order mark",
			contentType: "text/html",
			body:        utf16le(t, "<html><head><title>Ελληνικά</title></head></html>"),
			want:        "<title>Ελληνικά</title>", encoding: "utf-16le", source: FromBOM, declared: true,
		},
		{
			name:        "a UTF-8 rune cut by the size limit",
			contentType: "text/html",
			body:        "<html><body><p>Fr\xc3\xbchling \xe2\x80",
			want:        "Frühling", encoding: "utf-8", source: FromSniffing,
		},
		{
			name:        "a meta in the body does not count",
			contentType: "text/html",
			body:        "<html><head><title>Stra\xc3\x9fe</title></head><body>" + padding + `<meta charset="windows-1252"></body></html>`,
			want:        "Straße", encoding: "utf-8", source: FromSniffing,
		},
		{
			name:        "a declared UTF-16 means UTF-8 for an ASCII-readable page",
			contentType: "text/html",
			body:        `<html><head><meta charset="utf-16"><title>Å</title></head></html>`,
			want:        "Å", encoding: "utf-8", source: FromPrescan, declared: true, prescan: "utf-8",
		},
		{
			name:        "an unknown header label is no declaration",
			contentType: "text/html; charset=utf-8lias",
			body:        "<html><head><title>Øl</title></head></html>",
			want:        "Øl", encoding: "utf-8", source: FromSniffing,
		},
		{
			name:        "a malformed parameter beside the charset",
			contentType: "text/html; charset=windows-1251;; x",
			body:        "<html><head><title>\xcc\xee\xf1\xea\xe2\xe0</title></head></html>",
			want:        "Москва", encoding: "windows-1251", source: FromHeader, declared: true, header: "windows-1251",
		},
		{
			name:        "two Content-Type headers joined by a proxy",
			contentType: "text/html; charset=windows-1251, text/html, */*",
			body:        "<html><head><title>\xcc\xee\xf1\xea\xe2\xe0</title></head></html>",
			want:        "Москва", encoding: "windows-1251", source: FromHeader, declared: true, header: "windows-1251",
		},
		{
			name:        "an XML sitemap declaring ISO-8859-1",
			contentType: "application/xml",
			body:        `<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://example.com/caf` + "\xe9" + `</loc></url></urlset>`,
			want:        "https://example.com/café", encoding: "windows-1252", source: FromXMLDecl,
		},
		{
			name:        "robots.txt stays as sent, partial byte-order mark included",
			contentType: "text/plain",
			body:        "\xEF\xBBUser-agent: *\nDisallow: /caf\xe9\n",
			purpose:     Robots,
			want:        "\xEF\xBBUser-agent: *\nDisallow: /caf\xe9\n",
		},
		{
			name:        "images are not text",
			contentType: "image/png",
			body:        "\x89PNG\r\n\x1a\n\xff\xfe",
			want:        "\x89PNG\r\n\x1a\n\xff\xfe",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.purpose
			if p == "" {
				p = Homepage
			}
			got, cs := decodeBody([]byte(c.body), c.contentType, p)
			require.Contains(t, string(got), c.want)
			require.Equal(t, c.encoding, cs.Encoding, "encoding")
			require.Equal(t, c.source, cs.Source, "source")
			require.Equal(t, c.declared, cs.Declared(), "declared")
			require.Equal(t, c.header, cs.Header, "header")
			require.Equal(t, c.prescan, cs.Prescan, "prescan")
			require.Equal(t, c.inHead, cs.InHead, "in head")
			require.NotContains(t, string(got), "\uFEFF", "the byte-order mark is not text")
		})
	}
}

func TestFetchedPagesCarryTheirCharset(t *testing.T) {
	t.Parallel()
	body := "<!doctype html><html><head>" + padding + "<title>Germany′s Frühburgunder</title></head><body></body></html>"
	f, base := testFetcher(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(body))
	}), Options{})
	r := f.Do(context.Background(), Request{Purpose: Homepage, URL: base + "/"})
	require.NoError(t, r.Err)
	require.Contains(t, string(r.Body), "Germany′s Frühburgunder")
	require.Equal(t, Charset{Encoding: "utf-8", Source: FromSniffing}, r.Charset)
	require.False(t, r.Charset.Declared())
}

// TestContentTypeAsBrowsersRead: the type of a response is read as the
// body's decoding reads it, so a page whose Content-Type a proxy joined
// from two headers is still HTML.
func TestContentTypeAsBrowsersRead(t *testing.T) {
	for ct, want := range map[string]string{
		"text/html":                         "text/html",
		"Text/HTML; charset=UTF-8":          "text/html",
		"text/html,text/html":               "text/html",
		"text/html; charset=gbk, text/html": "text/html",
		"text/html; charset":                "text/html",
		"application/json, */*":             "application/json",
		"":                                  "",
	} {
		r := &Response{Header: http.Header{"Content-Type": {ct}}}
		require.Equal(t, want, r.ContentType(), "%q", ct)
	}
	r := &Response{Header: http.Header{"Content-Type": {"text/html,text/html"}}, Body: []byte("<p>x")}
	require.True(t, r.IsHTML())
}
