package fetch

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Text bodies are decoded to UTF-8 the way browsers decode them (the
// WHATWG encoding sniffing algorithm), so that every finding quotes the
// text a visitor reads: a byte-order mark first, then the charset of the
// Content-Type header, then a <meta> declaration in the first 1024 bytes
// (the prescan), then one found later in <head> (browsers re-decode when
// they meet it), and for a page that declares nothing, UTF-8 when the
// bytes are valid UTF-8 and windows-1252 otherwise.

// CharsetSource says what decided the encoding of a body.
type CharsetSource string

// The sources, in the order browsers consult them.
const (
	FromBOM      CharsetSource = "bom"          // a byte-order mark
	FromHeader   CharsetSource = "header"       // the charset of Content-Type
	FromPrescan  CharsetSource = "meta_prescan" // <meta> in the first 1024 bytes
	FromHead     CharsetSource = "meta_head"    // <meta> later in <head>
	FromXMLDecl  CharsetSource = "xml_decl"     // encoding="…" of an XML declaration
	FromSniffing CharsetSource = "sniffed"      // nothing declared; the bytes are valid UTF-8
	FromDefault  CharsetSource = "default"      // nothing declared, not UTF-8: windows-1252
)

// Charset is how a text body was decoded and what it declared.
type Charset struct {
	// Encoding is the WHATWG name of the encoding the body was decoded
	// from ("utf-8", "windows-1252", "shift_jis", …); "" when the body was
	// kept as sent (not text, or robots.txt, which crawlers read as bytes).
	Encoding string        `json:"encoding,omitempty"`
	Source   CharsetSource `json:"source,omitempty"`
	// BOM is the encoding of the byte-order mark the body starts with.
	BOM string `json:"bom,omitempty"`
	// HeaderLabel is the charset parameter of Content-Type as sent, and
	// Header the encoding it names ("" when it names none browsers know).
	HeaderLabel string `json:"header_label,omitempty"`
	Header      string `json:"header,omitempty"`
	// Prescan is the encoding a <meta charset> or http-equiv Content-Type
	// in the first 1024 bytes names.
	Prescan string `json:"prescan,omitempty"`
	// InHead is the encoding a <meta> declaration later in <head> names:
	// browsers re-decode when they meet it, but only after guessing.
	InHead string `json:"in_head,omitempty"`
}

// Declared reports whether the encoding is declared where browsers and
// crawlers look before reading the document: a byte-order mark, the
// Content-Type header or the first 1024 bytes. Without one they guess.
func (c Charset) Declared() bool { return c.BOM != "" || c.Header != "" || c.Prescan != "" }

// prescanBytes is how much of a document the meta prescan reads.
const prescanBytes = 1024

// headScanBytes bounds the search for a <meta> later in <head>.
const headScanBytes = 1 << 20

// Decode converts a body fetched for a purpose with a Content-Type to
// UTF-8 as the fetcher does, and says how it did: tests and tools that
// build a Response by hand get the Charset a fetch would record.
func Decode(body []byte, contentType string, p Purpose) ([]byte, Charset) {
	return decodeBody(body, contentType, p)
}

// decodeBody converts a text body to UTF-8 and says how it did.
func decodeBody(body []byte, contentType string, p Purpose) ([]byte, Charset) {
	var cs Charset
	media, params := contentTypeOf(contentType)
	if len(body) == 0 || p == Robots {
		// RFC 9309 robots.txt is UTF-8 and Google reads it as bytes (a
		// partial byte-order mark included); it is left as sent.
		return body, cs
	}
	isHTML := media == "text/html" || media == "application/xhtml+xml" ||
		(media == "" && strings.HasPrefix(http.DetectContentType(body), "text/html"))
	if media != "" && !isHTML && !strings.HasPrefix(media, "text/") && !strings.Contains(media, "xml") && !strings.Contains(media, "json") {
		return body, cs
	}
	if label, ok := params["charset"]; ok {
		cs.HeaderLabel = label
		if _, name := charset.Lookup(label); name != "" {
			cs.Header = name
		}
	}
	if isHTML {
		cs.Prescan, cs.InHead = metaCharsets(body)
	}

	var enc encoding.Encoding
	switch bom, name := sniffBOM(body); {
	case bom > 0:
		cs.BOM, cs.Encoding, cs.Source = name, name, FromBOM
		body = body[bom:]
		enc, _ = charset.Lookup(name)
	case cs.Header != "":
		cs.Encoding, cs.Source = cs.Header, FromHeader
	case cs.Prescan != "":
		cs.Encoding, cs.Source = cs.Prescan, FromPrescan
	case cs.InHead != "":
		cs.Encoding, cs.Source = cs.InHead, FromHead
	case !isHTML && xmlEncoding(body) != "":
		cs.Encoding, cs.Source = xmlEncoding(body), FromXMLDecl
	case validUTF8(body):
		cs.Encoding, cs.Source = "utf-8", FromSniffing
	default:
		cs.Encoding, cs.Source = "windows-1252", FromDefault
	}
	if enc == nil {
		enc, _ = charset.Lookup(cs.Encoding)
	}
	if cs.Encoding == "utf-8" || enc == nil {
		if !utf8.Valid(body) {
			// Browsers show U+FFFD for bytes that are not UTF-8.
			body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
		}
		return body, cs
	}
	out, _, err := transform.Bytes(enc.NewDecoder(), body)
	if err != nil {
		return body, cs
	}
	return out, cs
}

// contentTypeOf reads a Content-Type header as browsers do (the Fetch
// standard's "extract a MIME type") where mime.ParseMediaType gives up: a
// malformed parameter is skipped, not the charset beside it, and of a
// list of types (two headers joined by a proxy: "text/html;
// charset=gbk, text/html") the last wins, keeping the charset an earlier
// one of the same type gave; "*/*" names no type.
func contentTypeOf(header string) (string, map[string]string) {
	media, params, err := mime.ParseMediaType(header)
	if err == nil || header == "" {
		return media, params
	}
	media, params = "", map[string]string{}
	for _, v := range strings.Split(header, ",") {
		typ, rest, _ := strings.Cut(v, ";")
		typ, _, err := mime.ParseMediaType(typ)
		if err != nil || typ == "*/*" {
			continue
		}
		p := map[string]string{}
		for _, part := range strings.Split(rest, ";") {
			if _, one, err := mime.ParseMediaType("a/b;" + part); err == nil {
				for k, v := range one {
					if _, seen := p[k]; !seen {
						p[k] = v
					}
				}
			}
		}
		if _, ok := p["charset"]; !ok && typ == media && params["charset"] != "" {
			p["charset"] = params["charset"]
		}
		media, params = typ, p
	}
	return media, params
}

// sniffBOM returns the length of a byte-order mark and its encoding.
func sniffBOM(b []byte) (int, string) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return 3, "utf-8"
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return 2, "utf-16be"
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return 2, "utf-16le"
	}
	return 0, ""
}

// validUTF8 reports UTF-8 bytes, forgiving a sequence cut by the size
// limit at the very end.
func validUTF8(b []byte) bool {
	if utf8.Valid(b) {
		return true
	}
	for cut := 1; cut <= 3 && cut < len(b); cut++ {
		if utf8.Valid(b[:len(b)-cut]) && !utf8.FullRune(b[len(b)-cut:]) {
			return true
		}
	}
	return false
}

var xmlDeclRE = regexp.MustCompile(`^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']`)

// XMLReader decodes XML read as a stream that no fetch decoded (the
// contents of a gzip sitemap) to UTF-8: by the encoding its declaration
// names in the first 256 bytes, else as UTF-8 with any invalid bytes
// replaced, as decodeBody does for a body.
func XMLReader(br *bufio.Reader) io.Reader {
	head, _ := br.Peek(256)
	if name := xmlEncoding(head); name != "" && name != "utf-8" {
		if enc, _ := charset.Lookup(name); enc != nil {
			return transform.NewReader(br, enc.NewDecoder())
		}
	}
	return transform.NewReader(br, unicode.UTF8.NewDecoder())
}

// xmlEncoding returns the encoding an XML declaration names, if known.
func xmlEncoding(b []byte) string {
	if len(b) > 256 {
		b = b[:256]
	}
	m := xmlDeclRE.FindSubmatch(b)
	if m == nil {
		return ""
	}
	_, name := charset.Lookup(string(m[1]))
	return name
}

// headContent are the elements that may stand in <head>; any other start
// tag (or text) begins the body, where the search for a declaration ends.
var headContent = map[string]bool{
	"html": true, "head": true, "meta": true, "title": true, "link": true, "script": true,
	"style": true, "base": true, "noscript": true, "template": true,
}

// rawText are the head elements whose content the tokenizer returns as
// one text token.
var rawText = map[string]bool{"title": true, "script": true, "style": true, "noscript": true}

// metaCharsets returns the encoding declared by the first <meta> of the
// first 1024 bytes (the prescan) and, when that finds none, by the first
// one later in <head>. Labels browsers do not know are skipped, and a
// declared UTF-16 means UTF-8, as the HTML standard prescribes for a
// document that could be read as ASCII to find its meta tag.
func metaCharsets(body []byte) (prescan, inHead string) {
	prescan, _ = firstMeta(body[:min(len(body), prescanBytes)], false)
	if prescan != "" {
		return prescan, ""
	}
	_, inHead = firstMeta(body[:min(len(body), headScanBytes)], true)
	return "", inHead
}

// firstMeta tokenizes b and returns the first meta declaration; with
// headOnly it stops where <head> ends. The second result is set only for
// a declaration whose tag ends after the first 1024 bytes.
func firstMeta(b []byte, headOnly bool) (early, late string) {
	z := html.NewTokenizer(bytes.NewReader(b))
	read := 0
	inRaw := false // the text of <title>, <script>, <style> … is not body text
	for {
		tt := z.Next()
		read += len(z.Raw())
		wasRaw := inRaw
		inRaw = false
		switch tt {
		case html.ErrorToken:
			return "", ""
		case html.TextToken:
			if headOnly && !wasRaw && len(bytes.TrimSpace(z.Text())) > 0 {
				return "", ""
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); headOnly && string(name) == "head" {
				return "", ""
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			if headOnly && !headContent[tag] {
				return "", ""
			}
			inRaw = tt == html.StartTagToken && rawText[tag]
			if tag != "meta" || !hasAttr {
				continue
			}
			if enc := metaEncoding(z); enc != "" {
				if read > prescanBytes {
					return "", enc
				}
				return enc, ""
			}
		}
	}
}

// metaEncoding reads the declaration of a <meta> tag: its charset
// attribute, or the charset in the content of http-equiv="Content-Type".
func metaEncoding(z *html.Tokenizer) string {
	var cs, equiv, content string
	for {
		k, v, more := z.TagAttr()
		switch strings.ToLower(string(k)) {
		case "charset":
			cs = string(v)
		case "http-equiv":
			equiv = string(v)
		case "content":
			content = string(v)
		}
		if !more {
			break
		}
	}
	label := strings.TrimSpace(cs)
	if label == "" && strings.EqualFold(strings.TrimSpace(equiv), "content-type") {
		label = charsetFromContent(content)
	}
	if label == "" {
		return ""
	}
	_, name := charset.Lookup(label)
	switch name {
	case "utf-16be", "utf-16le":
		return "utf-8"
	case "x-user-defined":
		return "windows-1252"
	}
	return name
}

// charsetFromContent extracts the label from "text/html; charset=…" as
// the HTML standard's algorithm does (quotes optional).
func charsetFromContent(s string) string {
	lower := strings.ToLower(s)
	for i := 0; ; {
		j := strings.Index(lower[i:], "charset")
		if j < 0 {
			return ""
		}
		rest := strings.TrimLeft(s[i+j+len("charset"):], " \t\n\f\r")
		if !strings.HasPrefix(rest, "=") {
			i += j + len("charset")
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t\n\f\r")
		if rest == "" {
			return ""
		}
		if q := rest[0]; q == '"' || q == '\'' {
			if end := strings.IndexByte(rest[1:], q); end >= 0 {
				return rest[1 : 1+end]
			}
			return ""
		}
		if end := strings.IndexAny(rest, " \t\n\f\r;"); end >= 0 {
			return rest[:end]
		}
		return rest
	}
}
