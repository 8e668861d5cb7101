package crawl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// SitemapFile is one sitemap file requested.
type SitemapFile struct {
	URL    string              `json:"url"`
	Source fetch.SitemapSource `json:"source"`
	// Parent is the sitemap index that listed it.
	Parent string `json:"parent,omitempty"`
	Status int    `json:"status"`
	// Kind is "urlset", "sitemapindex", "text", or "" when the file was no
	// readable sitemap.
	Kind string `json:"kind"`
	// Entries counts the <url> (or <sitemap>, or text) entries read.
	Entries int `json:"entries"`
	// Gzip marks gzip data served as such (a .xml.gz), decompressed here.
	Gzip bool `json:"gzip,omitempty"`
	// Truncated says the file was cut at the body size limit (after
	// decompression); the entries before the cut were read.
	Truncated bool `json:"truncated,omitempty"`
	// Error says why the file could not be read (whole), as a sentence.
	Error string `json:"error,omitempty"`
}

// maxSitemapLine bounds one line of a text sitemap.
const maxSitemapLine = 64 << 10

// sitemapReader reads one sitemap body, streaming: an XML urlset or
// sitemapindex, or the protocol's text form (one URL per line), gzip
// compressed or not. Every <loc> of a <url> (or a <sitemap>) directly
// under the root is handed to each as it is read, so a file's URLs are
// never all held at once, and a file cut short or malformed part-way
// still gives the entries before the fault.
type sitemapReader struct {
	// limit bounds the decompressed bytes read from a gzip body.
	limit int64
	each  func(loc string)
}

// read fills in the Kind, Entries, Gzip, Truncated and Error of file from
// body; truncated says fetch already cut the body at its size limit.
func (sr sitemapReader) read(file *SitemapFile, body []byte, truncated bool) {
	var r io.Reader = bytes.NewReader(body)
	var lr *io.LimitedReader
	if len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			file.Error = "the file looks like gzip data but cannot be decompressed: " + err.Error()
			return
		}
		defer func() { _ = zr.Close() }()
		file.Gzip = true
		// One byte past the limit tells a file of exactly the limit from
		// a longer one (a gzip bomb).
		lr = &io.LimitedReader{R: zr, N: sr.limit + 1}
		r = lr
	}
	br := bufio.NewReader(r)
	if file.Gzip {
		// The fetch decoded the compressed bytes, not the XML inside.
		br = bufio.NewReader(fetch.XMLReader(br))
	}
	first, err := firstByte(br)
	if err != nil {
		if !truncated {
			file.Error = "the file is empty"
		}
		file.Truncated = truncated
		return
	}
	if first == '<' {
		err = sr.readXML(file, br)
	} else {
		err = sr.readText(file, br)
	}
	cut := truncated || (lr != nil && lr.N <= 0)
	file.Truncated = cut
	switch {
	case cut && file.Kind != "":
		// The parse error is only the cut.
	case err != nil:
		file.Error = err.Error()
	}
}

// firstByte skips leading white space and a byte order mark.
func firstByte(br *bufio.Reader) (byte, error) {
	for {
		r, _, err := br.ReadRune()
		if err != nil {
			return 0, err
		}
		if r == '\ufeff' || r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			continue
		}
		if err := br.UnreadRune(); err != nil {
			return 0, err
		}
		b, err := br.Peek(1)
		if err != nil {
			return 0, err
		}
		return b[0], nil
	}
}

// maxSitemapDepth bounds how deep a sitemap's elements may nest: the
// protocol and its image, video and news extensions nest five deep, and a
// file nested a million deep would otherwise cost the decoder a stack
// entry per level.
const maxSitemapDepth = 32

// maxLocBytes bounds the text of one <loc>: no URL GeoScan follows is
// longer, and a longer one is counted but not followed.
const maxLocBytes = 8 << 10

func (sr sitemapReader) readXML(file *SitemapFile, r io.Reader) error {
	dec := xml.NewDecoder(r)
	// Bodies are UTF-8 already (fetch decodes them), whatever the
	// declaration says; the lenient mode reads the unescaped & that many
	// sitemap generators write. encoding/xml expands no external or
	// user-defined entities, so entity bombs do not apply. RawToken keeps
	// no stack of open elements: depth is counted here, and bounded.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	dec.Strict = false
	depth := 0
	entryName := ""
	inEntry, inLoc := false, false
	var loc strings.Builder
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			if file.Kind == "" {
				return errors.New("the file has no urlset or sitemapindex element")
			}
			return nil
		}
		if err != nil {
			if file.Kind == "" {
				return fmt.Errorf("the file is not readable XML: %w", err)
			}
			return fmt.Errorf("the XML is malformed after %d entries: %w", file.Entries, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxSitemapDepth {
				return fmt.Errorf("the XML nests deeper than %d elements after %d entries", maxSitemapDepth, file.Entries)
			}
			name := strings.ToLower(t.Name.Local)
			switch {
			case depth == 1:
				switch name {
				case "urlset":
					file.Kind, entryName = "urlset", "url"
				case "sitemapindex":
					file.Kind, entryName = "sitemapindex", "sitemap"
				default:
					return fmt.Errorf("the file is XML with a %q root element, not a sitemap", clip(name, 40))
				}
			case depth == 2:
				inEntry = name == entryName
			case depth == 3 && inEntry && name == "loc":
				inLoc = true
				loc.Reset()
			}
		case xml.CharData:
			if inLoc && depth == 3 && loc.Len() <= maxLocBytes {
				loc.Write(t[:min(len(t), maxLocBytes+1-loc.Len())])
			}
		case xml.EndElement:
			if inLoc && depth == 3 {
				inLoc = false
				file.Entries++
				if loc.Len() <= maxLocBytes {
					sr.each(strings.TrimSpace(loc.String()))
				}
			}
			depth--
			if depth == 1 {
				inEntry = false
			}
		}
	}
}

func (sr sitemapReader) readText(file *SitemapFile, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxSitemapLine)
	sc.Split(scanAnyLines)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "http://") && !strings.HasPrefix(line, "https://") {
			if file.Kind == "" {
				return errors.New("the file is neither XML nor a list of URLs")
			}
			continue
		}
		file.Kind = "text"
		file.Entries++
		sr.each(line)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("the text sitemap cannot be read after %d entries: %w", file.Entries, err)
	}
	if file.Kind == "" {
		return errors.New("the file lists no URLs")
	}
	return nil
}

// scanAnyLines splits at LF, CR or CRLF (bufio.ScanLines knows LF only);
// a CRLF gives an empty line, which readText skips.
func scanAnyLines(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// clip shortens site text kept in a message.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
