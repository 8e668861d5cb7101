package crawlerlog_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/unicode"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

const browserLine = `198.51.100.23 - - [02/Aug/2026:16:00:00 +0000] "GET / HTTP/2.0" 200 10240 "-" "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/128.0.0.0 Safari/537.36"`

// gptbotLine is a GPTBot hit from OpenAI's published addresses.
const gptbotLine = `20.171.207.33 - - [02/Aug/2026:15:00:00 +0000] "GET /blog/ai-search HTTP/1.1" 200 5120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"`

// TestHostileInputs feeds what the real web writes into logs. Every case
// must end with exact counts and no error.
func TestHostileInputs(t *testing.T) {
	t.Parallel()
	tenMB := strings.Repeat("A", 10<<20)
	tests := []struct {
		name                  string
		log                   string
		lines, parsed, gptbot int64
		reasons               map[string]int64
	}{
		{
			name:  "10 MB line between good lines",
			log:   gptbotLine + "\n" + `198.51.100.1 - - [02/Aug/2026:16:00:00 +0000] "GET /` + tenMB + `" 200 1 "-" "x"` + "\n" + gptbotLine + "\n",
			lines: 3, parsed: 2, gptbot: 2,
			reasons: map[string]int64{crawlerlog.ReasonTooLong: 1},
		},
		{
			name:  "10 MB line at the end without newline",
			log:   gptbotLine + "\n" + tenMB,
			lines: 2, parsed: 1, gptbot: 1,
			reasons: map[string]int64{crawlerlog.ReasonTooLong: 1},
		},
		{
			name:  "CRLF endings",
			log:   gptbotLine + "\r\n" + browserLine + "\r\n" + gptbotLine + "\r\n",
			lines: 3, parsed: 3, gptbot: 2, reasons: map[string]int64{},
		},
		{
			name:  "bare CR endings, no trailing newline",
			log:   gptbotLine + "\r" + browserLine + "\r" + gptbotLine,
			lines: 3, parsed: 3, gptbot: 2, reasons: map[string]int64{},
		},
		{
			name:  "blank lines and mixed endings",
			log:   "\n\n" + gptbotLine + "\r\n\r\n\r" + browserLine + "\n   \n",
			lines: 2, parsed: 2, gptbot: 1, reasons: map[string]int64{},
		},
		{
			name:  "NUL run before a line (copytruncate)",
			log:   strings.Repeat("\x00", 5000) + gptbotLine + "\n" + strings.Repeat("\x00", 10) + "\n",
			lines: 1, parsed: 1, gptbot: 1, reasons: map[string]int64{},
		},
		{
			name:  "NUL inside a line",
			log:   "198.51.100.1 - - [02/Aug\x00/2026:16:00:00 +0000] junk\n" + gptbotLine + "\n",
			lines: 2, parsed: 1, gptbot: 1,
			reasons: map[string]int64{crawlerlog.ReasonBinary: 1},
		},
		{
			name:  "binary junk",
			log:   "\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe\x01\x02\n\x89PNG\r\n\x1a\n" + gptbotLine + "\n",
			lines: 4, parsed: 1, gptbot: 1,
			reasons: map[string]int64{crawlerlog.ReasonBinary: 2, crawlerlog.ReasonUnrecognized: 1},
		},
		{
			name: "invalid UTF-8 in user agent and path",
			log: `20.171.207.33 - - [02/Aug/2026:15:00:00 +0000] "GET /caf\xe9 HTTP/1.1" 200 5 "-" "Mozilla/5.0 (\xff\xfe; compatible; GPTBot/1.2)"` + "\n" +
				`198.51.100.2 - - [02/Aug/2026:15:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "\xc3\x28 browser"` + "\n",
			lines: 2, parsed: 2, gptbot: 1, reasons: map[string]int64{},
		},
		{
			name:  "forged user agents from unlisted addresses",
			log:   strings.Replace(gptbotLine, "20.171.207.33", "203.0.113.7", 1) + "\n" + strings.Replace(gptbotLine, "20.171.207.33", "2001:db8::1", 1) + "\n",
			lines: 2, parsed: 2, gptbot: 2, reasons: map[string]int64{},
		},
		{
			name: "mixed formats in one file",
			log: gptbotLine + "\n" +
				`{"ClientIP":"20.171.207.34","ClientRequestHost":"www.example.com","ClientRequestURI":"/","ClientRequestUserAgent":"GPTBot/1.2","EdgeResponseStatus":200,"EdgeStartTimestamp":"2026-08-09T10:00:00Z"}` + "\n" +
				"#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)\n" +
				"2026-08-07 10:00:00 20.171.207.35 GET /docs/ 200 GPTBot/1.2\n" +
				browserLine + "\n" +
				"2026-08-07 10:00:01 198.51.100.3 GET /docs/ 200 Mozilla/5.0\n",
			lines: 5, parsed: 5, gptbot: 3, reasons: map[string]int64{},
		},
		{
			name: "damaged fields",
			log: `999.1.1.1 - - [02/Aug/2026:15:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"` + "\n" +
				`198.51.100.1 - - [31/Feb/2026:15:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "x"` + "\n" +
				`198.51.100.1 - - [02/Aug/2026:15:00:00 +0000] "GET / HTTP/1.1" 2000 5 "-" "x"` + "\n" +
				`198.51.100.1 - - [02/Aug/2026:15:00:00 +0000] "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" 400 157 "-" "-"` + "\n" +
				`198.51.100.1 - - [02/Aug/2026:15:00:00 +0000] "-" 400 0 "-" "-"` + "\n" +
				`198.51.100.1 - - [02/Aug/2026:15:00:00 +0000] "GET / HTTP/1.1` + "\n" +
				`{"ClientIP":"198.51.100.1"` + "\n" +
				`{"message":"hello"}` + "\n",
			lines: 8, parsed: 0,
			reasons: map[string]int64{
				crawlerlog.ReasonBadClientIP: 1, crawlerlog.ReasonBadTimestamp: 1, crawlerlog.ReasonBadStatus: 1,
				crawlerlog.ReasonBadRequest: 2, crawlerlog.ReasonUnrecognized: 1, crawlerlog.ReasonBadJSON: 1,
				crawlerlog.ReasonUnknownJSON: 1,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res := analyzeString(t, tt.log, crawlerlog.Options{})
			require.Equal(t, tt.lines, res.Lines)
			require.Equal(t, tt.parsed, res.ParsedLines)
			require.Equal(t, tt.lines-tt.parsed, res.UnparsedLines)
			reasons := map[string]int64{}
			for _, u := range res.Unparsed {
				reasons[u.Reason] = u.Count
				require.Positive(t, u.FirstLine)
			}
			require.Equal(t, tt.reasons, reasons)
			var gptbot int64
			for _, b := range res.Bots {
				if b.Token == "GPTBot" {
					gptbot = b.Hits
				}
			}
			require.Equal(t, tt.gptbot, gptbot)
		})
	}
}

// TestFirstLineNumbers: a reason's first line is its physical line number,
// blank lines included.
func TestFirstLineNumbers(t *testing.T) {
	t.Parallel()
	res := analyzeString(t, "\n"+gptbotLine+"\njunk line\n\n{bad\njunk again\n", crawlerlog.Options{})
	require.Equal(t, []crawlerlog.Unparsed{
		{Reason: crawlerlog.ReasonUnrecognized, Count: 2, FirstLine: 3},
		{Reason: crawlerlog.ReasonBadJSON, Count: 1, FirstLine: 5},
	}, res.Unparsed)
}

// TestCompressedInput: a gzip file given as it is fails with one clear
// error instead of a report of a million "binary" lines.
func TestCompressedInput(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := io.WriteString(zw, gptbotLine+"\n")
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	_, err = crawlerlog.Analyze(context.Background(), &buf, crawlerlog.Options{})
	require.ErrorIs(t, err, crawlerlog.ErrCompressed)
	require.ErrorContains(t, err, "gzip")

	_, err = crawlerlog.Analyze(context.Background(), strings.NewReader("\x28\xb5\x2f\xfdrest"), crawlerlog.Options{})
	require.ErrorIs(t, err, crawlerlog.ErrCompressed)
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		f.n--
		return copy(p, gptbotLine+"\n"), nil
	}
	return 0, errors.New("storage went away")
}

// TestReaderAndContextErrors: the reader's error and a cancelled context
// end the analysis with that error.
func TestReaderAndContextErrors(t *testing.T) {
	t.Parallel()
	_, err := crawlerlog.Analyze(context.Background(), &failingReader{n: 3}, crawlerlog.Options{})
	require.ErrorContains(t, err, "storage went away")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = crawlerlog.Analyze(ctx, strings.NewReader(gptbotLine), crawlerlog.Options{})
	require.ErrorIs(t, err, context.Canceled)
}

// TestBounds: paths beyond MaxPaths are counted, not kept, and the result
// says so; a long path is kept cut.
func TestBounds(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 30 {
		b.WriteString(strings.Replace(gptbotLine, "/blog/ai-search", "/p"+strings.Repeat("x", i), 1) + "\n")
	}
	b.WriteString(strings.Replace(gptbotLine, "/blog/ai-search", "/"+strings.Repeat("y", 5000), 1) + "\n")
	res := analyzeString(t, b.String(), crawlerlog.Options{MaxPaths: 10})
	g := botByToken(t, res, "GPTBot")
	require.Equal(t, int64(31), g.Hits)
	require.Equal(t, 10, g.DistinctPaths)
	require.Len(t, g.Pages, 10)
	require.True(t, g.PagesTruncated)
	require.Equal(t, int64(21), g.UntrackedHits)

	res = analyzeString(t, strings.Replace(gptbotLine, "/blog/ai-search", "/"+strings.Repeat("y", 5000), 1), crawlerlog.Options{})
	require.Len(t, botByToken(t, res, "GPTBot").Pages[0].Path, crawlerlog.MaxStoredPath)
}

// TestCloudFrontHostOrder: the site's host is x-host-header wherever it
// comes in the line, never the distribution's name in cs-host.
func TestCloudFrontHostOrder(t *testing.T) {
	t.Parallel()
	log := `{"cs-host":"d111111abcdef8.cloudfront.net","c-ip":"198.51.100.1","sc-status":"200","cs-uri-stem":"/","cs-user-agent":"Mozilla/5.0","timestamp":"1786356000.123","x-host-header":"shop.example.net"}` + "\n" +
		`{"x-host-header":"www.example.com","cs-host":"d111111abcdef8.cloudfront.net","c-ip":"198.51.100.1","sc-status":"200","cs-uri-stem":"/","cs-user-agent":"Mozilla/5.0","timestamp":"1786356000.123"}` + "\n"
	res := analyzeString(t, log, crawlerlog.Options{Domain: "www.example.com"})
	require.Equal(t, int64(2), res.ParsedLines)
	require.Equal(t, int64(1), res.OtherHostLines)
	require.Equal(t, int64(1), res.OtherHits)
}

// TestInvalidUTF8PathCounted: hits on a path that is not UTF-8 (raw
// Latin-1 bytes, or a long path cut inside a character) add up on the
// one page the result shows.
func TestInvalidUTF8PathCounted(t *testing.T) {
	t.Parallel()
	line := strings.Replace(gptbotLine, "/blog/ai-search", "/caf\xe9", 1)
	res := analyzeString(t, strings.Repeat(line+"\n", 3), crawlerlog.Options{})
	b := botByToken(t, res, "GPTBot")
	require.Len(t, b.Pages, 1)
	require.Equal(t, "/caf\uFFFD", b.Pages[0].Path)
	require.Equal(t, int64(3), b.Pages[0].Hits)
	require.Equal(t, int64(3), b.Pages[0].VerifiedHits)
	require.Equal(t, map[int]int64{200: 3}, b.Pages[0].Statuses)
}

// TestByteOrderMark: a log saved by a Windows editor starts with a UTF-8
// byte order mark, and files joined with cat hold one mid-log; the line
// it starts, a W3C #Fields directive here, is read as if it were not
// there.
func TestByteOrderMark(t *testing.T) {
	t.Parallel()
	for _, first := range []string{
		"#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(User-Agent)\n2026-08-07 10:00:00 20.171.207.35 GET /docs/ 200 GPTBot/1.2\n",
		gptbotLine + "\n",
		`{"ClientIP":"20.171.207.34","ClientRequestHost":"www.example.com","ClientRequestURI":"/","ClientRequestUserAgent":"GPTBot/1.2","EdgeResponseStatus":200,"EdgeStartTimestamp":"2026-08-09T10:00:00Z"}` + "\n",
	} {
		res := analyzeString(t, "\uFEFF"+first+gptbotLine+"\n", crawlerlog.Options{})
		require.Equal(t, int64(2), res.Lines, "%q", first)
		require.Equal(t, int64(2), res.ParsedLines, "%q", first)
		require.Equal(t, int64(2), botByToken(t, res, "GPTBot").Hits, "%q", first)
		// Two such files joined with cat.
		res = analyzeString(t, gptbotLine+"\n\uFEFF"+first, crawlerlog.Options{})
		require.Equal(t, int64(2), res.ParsedLines, "%q joined", first)
	}
}

// TestUTF16Log: a log saved as UTF-16, either byte order, is read as the
// text it holds.
func TestUTF16Log(t *testing.T) {
	t.Parallel()
	text := gptbotLine + "\r\n" + browserLine + "\r\n" + gptbotLine + "\r\n"
	for _, order := range []unicode.Endianness{unicode.LittleEndian, unicode.BigEndian} {
		b, err := unicode.UTF16(order, unicode.UseBOM).NewEncoder().String(text)
		require.NoError(t, err)
		res := analyzeString(t, b, crawlerlog.Options{})
		require.Equal(t, int64(3), res.Lines)
		require.Equal(t, int64(3), res.ParsedLines)
		require.Equal(t, int64(2), botByToken(t, res, "GPTBot").Hits)
	}
}
