package crawl

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func readAll(t *testing.T, body []byte, truncated bool, limit int64) (SitemapFile, []string) {
	t.Helper()
	var locs []string
	var f SitemapFile
	sitemapReader{limit: limit, each: func(l string) { locs = append(locs, l) }}.read(&f, body, truncated)
	return f, locs
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func TestSitemapReaderReadsEveryForm(t *testing.T) {
	t.Parallel()
	set := `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
		`<url><loc> https://example.com/a?x=1&amp;y=2 </loc><image:image><image:loc>https://example.com/img.png</image:loc></image:image></url>` +
		`<url><loc>https://example.com/b</loc></url></urlset>`
	f, locs := readAll(t, []byte(set), false, 1<<20)
	require.Equal(t, "urlset", f.Kind)
	require.Equal(t, 2, f.Entries)
	require.Equal(t, []string{"https://example.com/a?x=1&y=2", "https://example.com/b"}, locs, "an image's <loc> is no page")
	require.Empty(t, f.Error)

	f, locs = readAll(t, []byte(sitemapIndex("https://example.com/s1.xml", "https://example.com/s2.xml.gz")), false, 1<<20)
	require.Equal(t, "sitemapindex", f.Kind)
	require.Equal(t, []string{"https://example.com/s1.xml", "https://example.com/s2.xml.gz"}, locs)

	f, locs = readAll(t, []byte("\ufeff https://example.com/1\n\nhttps://example.com/2\r\nnot a url\n"), false, 1<<20)
	require.Equal(t, "text", f.Kind)
	require.Equal(t, []string{"https://example.com/1", "https://example.com/2"}, locs)

	f, locs = readAll(t, gz(t, []byte(urlset("https://example.com/z"))), false, 1<<20)
	require.True(t, f.Gzip)
	require.Equal(t, "urlset", f.Kind)
	require.Equal(t, []string{"https://example.com/z"}, locs)
}

func TestSitemapReaderKeepsWhatPrecedesAFault(t *testing.T) {
	t.Parallel()
	// Malformed part-way: the entries before the fault count.
	bad := `<urlset><url><loc>https://example.com/1</loc></url><url><loc>https://example.com/2</loc></url><url><loc>x</lo`
	f, locs := readAll(t, []byte(bad), false, 1<<20)
	require.Equal(t, "urlset", f.Kind)
	require.Equal(t, []string{"https://example.com/1", "https://example.com/2"}, locs)
	require.Contains(t, f.Error, "malformed after 2 entries")
	require.False(t, f.Truncated)

	// The same bytes as the start of a body fetch cut at its limit: a
	// cut, not an error.
	f, _ = readAll(t, []byte(bad), true, 1<<20)
	require.True(t, f.Truncated)
	require.Empty(t, f.Error)

	// Not a sitemap at all.
	for _, body := range []string{"<html><body>Not found</body></html>", "<rss><channel/></rss>", "{\"json\":true}", "", "<<<<"} {
		f, locs := readAll(t, []byte(body), false, 1<<20)
		require.Empty(t, f.Kind, body)
		require.Empty(t, locs, body)
		require.NotEmpty(t, f.Error, body)
	}
}

func TestSitemapReaderStopsAGzipBomb(t *testing.T) {
	t.Parallel()
	// 8 MiB of URLs compressed to a few dozen KiB; the reader stops at
	// its limit with what it read.
	var plain bytes.Buffer
	plain.WriteString(`<urlset>`)
	line := `<url><loc>https://example.com/page</loc></url>`
	for plain.Len() < 8<<20 {
		plain.WriteString(line)
	}
	body := gz(t, plain.Bytes())
	require.Less(t, len(body), 1<<20)
	const limit = 1 << 20
	f, locs := readAll(t, body, false, limit)
	require.True(t, f.Truncated)
	require.True(t, f.Gzip)
	require.Empty(t, f.Error)
	require.LessOrEqual(t, len(locs)*len(line), limit+len(line))
	require.Greater(t, len(locs), limit/len(line)/2)

	// A bomb of one endless line is no text sitemap either.
	f, locs = readAll(t, gz(t, bytes.Repeat([]byte("A"), 8<<20)), false, 4<<20)
	require.Empty(t, f.Kind)
	require.Empty(t, locs)
	require.True(t, strings.Contains(f.Error, "neither") || strings.Contains(f.Error, "too long"), f.Error)
}

// A gzip sitemap is read in the encoding its declaration names, and bytes
// that are not UTF-8 in one that names none cost no entry.
func TestGzipSitemapInItsDeclaredEncoding(t *testing.T) {
	t.Parallel()
	latin1 := []byte("<?xml version='1.0' encoding='windows-1252'?>\r<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/caf%C3%A9</loc><lastmod>2026-01-01</lastmod></url><url><loc>https://example.com/\xe9t\xe9</loc></url></urlset>")
	f, locs := readAll(t, gz(t, latin1), false, 1<<20)
	require.Empty(t, f.Error)
	require.Equal(t, []string{"https://example.com/caf%C3%A9", "https://example.com/été"}, locs)

	stray := []byte("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/a</loc></url><!-- \xff\xfe --><url><loc>https://example.com/b</loc></url></urlset>")
	f, locs = readAll(t, gz(t, stray), false, 1<<20)
	require.Empty(t, f.Error)
	require.Equal(t, []string{"https://example.com/a", "https://example.com/b"}, locs)
}

// A sitemap nested a million deep is refused at a bounded depth, keeping
// the entries before it; a <loc> hiding elements gives only its own text,
// and one longer than any URL is counted, not followed.
func TestSitemapNestedDeepIsBounded(t *testing.T) {
	t.Parallel()
	deep := []byte(`<urlset><url><loc>https://example.com/a</loc></url><url>` + strings.Repeat("<a>", 1_000_000))
	f, locs := readAll(t, deep, false, 1<<20)
	require.Contains(t, f.Error, "nests deeper than 32 elements after 1 entries")
	require.Equal(t, []string{"https://example.com/a"}, locs)

	odd := []byte(`<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://example.com/<b>x</b>b</sm:loc></sm:url>` +
		`<url><loc>https://example.com/` + strings.Repeat("c", 20000) + `</loc></url></sm:urlset>`)
	f, locs = readAll(t, odd, false, 1<<20)
	require.Empty(t, f.Error)
	require.Equal(t, 2, f.Entries)
	require.Equal(t, []string{"https://example.com/b"}, locs, "only the text directly in <loc>; a 20 000-byte one is not followed")
}

// A text sitemap is read whatever its line endings: LF, CRLF or a bare CR.
func TestTextSitemapLineEndings(t *testing.T) {
	t.Parallel()
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		f, locs := readAll(t, []byte("https://example.com/a"+nl+"https://example.com/b"+nl), false, 1<<20)
		require.Equal(t, "text", f.Kind, "%q", nl)
		require.Equal(t, []string{"https://example.com/a", "https://example.com/b"}, locs, "%q", nl)
	}
}
