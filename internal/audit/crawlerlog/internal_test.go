package crawlerlog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

// drainLines drains a lineReader, marking too-long lines "<long>".
func drainLines(t *testing.T, r io.Reader, max int) []string {
	t.Helper()
	lr := newLineReader(r, max)
	var out []string
	for {
		line, long, err := lr.next()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		if long {
			out = append(out, "<long>")
			continue
		}
		out = append(out, string(line))
	}
}

func TestLineReader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		max  int
		want []string
	}{
		{"a\nb\n", 10, []string{"a", "b"}},
		{"a\r\nb\r\n", 10, []string{"a", "b"}},
		{"a\rb\rc", 10, []string{"a", "b", "c"}},
		{"a\n\nb", 10, []string{"a", "", "b"}},
		{"a\r\r\nb", 10, []string{"a", "", "b"}},
		{"short\n" + strings.Repeat("x", 50) + "\nafter\n", 10, []string{"short", "<long>", "after"}},
		{strings.Repeat("x", 50) + "\r\nafter", 10, []string{"<long>", "after"}},
		{strings.Repeat("x", 50), 10, []string{"<long>"}},
		{"", 10, nil},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, drainLines(t, strings.NewReader(tt.in), tt.max), "%q", tt.in)
		// One byte at a time: a CRLF split across reads is still one ending.
		require.Equal(t, tt.want, drainLines(t, iotest.OneByteReader(strings.NewReader(tt.in)), tt.max), "%q one byte at a time", tt.in)
	}
}

// TestLineReaderLongLinesUnbuffered: a line far longer than the buffer is
// skipped with the buffer it has, never grown.
func TestLineReaderLongLinesUnbuffered(t *testing.T) {
	t.Parallel()
	in := "a\n" + strings.Repeat("y", 3*minReadBuffer+17) + "\r\nb\r" + strings.Repeat("z", minReadBuffer) + "\rc"
	lr := newLineReader(strings.NewReader(in), 100)
	size := len(lr.buf)
	var got []string
	for {
		line, long, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if long {
			line = []byte("<long>")
		}
		got = append(got, string(line))
	}
	require.Equal(t, []string{"a", "<long>", "b", "<long>", "c"}, got)
	require.Len(t, lr.buf, size)
}

func TestParseRangeList(t *testing.T) {
	t.Parallel()
	good := `{"creationTime":"2026-08-20T14:46:45.000000","prefixes":[{"ipv4Prefix":"66.249.64.0/27"},{"ipv6Prefix":"2001:4860:4801:10::/64"},{"ipv4Prefix":"3.81.253.213"}]}`
	got, err := ParseRangeList([]byte(good))
	require.NoError(t, err)
	require.Equal(t, []netip.Prefix{
		netip.MustParsePrefix("66.249.64.0/27"), netip.MustParsePrefix("2001:4860:4801:10::/64"), netip.MustParsePrefix("3.81.253.213/32"),
	}, got)
	for _, bad := range []string{
		`<html>Access denied</html>`,
		`{"prefixes":[]}`,
		`{"prefixes":[{"ipv4Prefix":"0.0.0.0/0"}]}`,
		`{"prefixes":[{"ipv4Prefix":"10.0.0.0/8"}]}`,
		`{"prefixes":[{"ipv4Prefix":"66.249.64.0/33"}]}`,
		`{"prefixes":[{"ipv4Prefix":"2001:4860::/32"}]}`,
		`{"prefixes":[{"ipv6Prefix":"::/0"}]}`,
		`{"prefixes":[{"ipv6Prefix":"::ffff:1.2.3.0/120"}]}`,
		`{"prefixes":[{"ipv4Prefix":"127.0.0.1"}]}`,
	} {
		_, err := ParseRangeList([]byte(bad))
		require.ErrorIs(t, err, ErrBadRangeList, bad)
	}
}

func TestPrefixSet(t *testing.T) {
	t.Parallel()
	s := newPrefixSet([]netip.Prefix{
		netip.MustParsePrefix("192.0.2.0/25"), netip.MustParsePrefix("192.0.2.128/25"), // adjacent: merged
		netip.MustParsePrefix("198.51.100.8/29"), netip.MustParsePrefix("198.51.100.8/30"), // nested
		netip.MustParsePrefix("2001:db8::/48"),
	})
	require.Len(t, s.spans, 3)
	for ip, want := range map[string]bool{
		"192.0.2.0": true, "192.0.2.255": true, "192.0.3.0": false, "192.0.1.255": false,
		"198.51.100.8": true, "198.51.100.15": true, "198.51.100.16": false, "198.51.100.7": false,
		"2001:db8::1": true, "2001:db8:0:ffff:ffff:ffff:ffff:ffff": true, "2001:db8:1::": false,
		"::ffff:192.0.2.1": false, // callers unmap first
	} {
		require.Equal(t, want, s.contains(netip.MustParseAddr(ip)), ip)
	}
}

// TestEmbeddedRanges: every list the manifest calls present loads, has a
// date and a source; absent ones name no file.
func TestEmbeddedRanges(t *testing.T) {
	t.Parallel()
	r, err := DefaultRanges()
	require.NoError(t, err)
	present := 0
	for _, l := range r.Lists() {
		if !l.Present {
			continue
		}
		present++
		require.Positive(t, l.Prefixes, l.Name)
		require.Regexp(t, `^\d{4}-\d{2}-\d{2}$`, l.Fetched, l.Name)
	}
	require.GreaterOrEqual(t, present, 10)
	for token, ip := range map[string]string{
		"googlebot": "66.249.66.1", "bingbot": "157.55.39.10", "gptbot": "20.171.207.33",
		"oai-searchbot": "74.7.228.5", "chatgpt-user": "23.98.142.180", "claudebot": "216.73.216.10",
		"perplexitybot": "18.97.9.100", "perplexity-user": "18.97.43.81", "applebot": "17.22.237.10",
		"ccbot": "18.97.9.168",
	} {
		v := newBotVerifier(token, r)
		require.Equal(t, MethodIPRanges, v.method, token)
		require.True(t, r.Contains(v.lists[0], netip.MustParseAddr(ip)), token)
	}
	require.Equal(t, MethodNone, newBotVerifier("DuckAssistBot", r).method, "its list is absent")
}

// TestParallelMatchesSequential: cut into many small batches and parsed
// by several workers, a log gives the result one worker gives.
func TestParallelMatchesSequential(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.*")
	require.NoError(t, err)
	var log strings.Builder
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		log.Write(b)
		log.WriteString("junk\n")
	}
	opts := Options{Domain: "www.example.com", Workers: 1}
	want, err := analyze(context.Background(), strings.NewReader(log.String()), opts, batchBytes)
	require.NoError(t, err)
	require.Positive(t, want.ParsedLines)
	for _, workers := range []int{2, 3} {
		opts.Workers = workers
		got, err := analyze(context.Background(), strings.NewReader(log.String()), opts, 300)
		require.NoError(t, err)
		require.Equal(t, want, got, "%d workers", workers)
	}
}

// TestParallelBounds: when the path bound is reached in several workers,
// the merged result keeps the bound and loses no hit.
func TestParallelBounds(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	for i := range 400 {
		fmt.Fprintf(&log, `20.171.207.33 - - [02/Aug/2026:15:00:00 +0000] "GET /p%d HTTP/1.1" 403 5 "-" "GPTBot/1.2"`+"\n", i%40)
	}
	res, err := analyze(context.Background(), strings.NewReader(log.String()), Options{Workers: 3, MaxPaths: 10}, 500)
	require.NoError(t, err)
	b := res.Bots[0]
	require.Equal(t, int64(400), b.Hits)
	require.Equal(t, 10, b.DistinctPaths)
	require.True(t, b.PagesTruncated)
	var kept int64
	for _, p := range b.Pages {
		kept += p.Hits
	}
	require.Equal(t, b.Hits, kept+b.UntrackedHits)
	require.Len(t, b.Refused, 40)
}

// TestLargeLogParallel: a log larger than the first read is parsed by
// the workers, with the result one worker gives.
func TestLargeLogParallel(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	for log.Len() < 3*minReadBuffer {
		log.WriteString(`20.171.207.33 - - [02/Aug/2026:15:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "GPTBot/1.2"` + "\n")
	}
	large, err := analyze(context.Background(), strings.NewReader(log.String()), Options{Workers: 4}, minReadBuffer/2)
	require.NoError(t, err)
	one, err := analyze(context.Background(), strings.NewReader(log.String()), Options{Workers: 1}, batchBytes)
	require.NoError(t, err)
	require.Equal(t, one, large)
	require.Greater(t, large.Lines, int64(8000))
}

// FuzzParallel: cut into tiny batches for three workers, any log gives
// the result one worker gives.
func FuzzParallel(f *testing.F) {
	files, err := filepath.Glob("testdata/*.*")
	require.NoError(f, err)
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte("\xff\xfe2\x000\x00.\x001\x00\r\x00\n\x00{\x00\r\x00"))
	f.Add([]byte("\uFEFF" + strings.Repeat("20.171.207.33 - - [02/Aug/2026:15:00:00 +0000] \"GET /caf\xe9 HTTP/1.1\" 200 5 \"-\" \"GPTBot/1.2\"\n", 3)))
	f.Add([]byte("a\r\n\r\nb\rc\x00\x00#Fields: date time c-ip cs-uri-stem sc-status cs(User-Agent)\n2026-08-07 10:00:00 1.2.3.4 /a 200 GPTBot%2F1.0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := Options{Domain: "www.example.com", MaxLineBytes: 200, Workers: 1}
		want, err := analyze(context.Background(), strings.NewReader(string(data)), opts, batchBytes)
		if err != nil {
			require.ErrorIs(t, err, ErrCompressed)
			return
		}
		opts.Workers = 3
		got, err := analyze(context.Background(), strings.NewReader(string(data)), opts, 64)
		require.NoError(t, err)
		require.Equal(t, want, got)
	})
}

// TestLineReaderMaxLineBeforeCRLF: a line of exactly max bytes ended by
// CRLF is a line, even when max fills the whole buffer.
func TestLineReaderMaxLineBeforeCRLF(t *testing.T) {
	t.Parallel()
	for _, max := range []int{10, minReadBuffer, minReadBuffer + 5} {
		long := strings.Repeat("x", max)
		for _, end := range []string{"\r\n", "\r", "\n"} {
			got := drainLines(t, strings.NewReader(long+end+"b"), max)
			require.Equal(t, []string{long, "b"}, got, "max %d, ending %q", max, end)
		}
	}
}

// Apache's msec_frac and usec_frac add fractions of a second to the CLF
// time; they are read, and the time is the same second.
func TestParseCLFTimeFractions(t *testing.T) {
	t.Parallel()
	want, ok := parseCLFTime([]byte("10/Oct/2000:13:55:36 -0700"))
	require.True(t, ok)
	for _, s := range []string{"10/Oct/2000:13:55:36.123 -0700", "10/Oct/2000:13:55:36.123456 -0700"} {
		got, ok := parseCLFTime([]byte(s))
		require.True(t, ok, s)
		require.Equal(t, want, got, s)
	}
	for _, bad := range []string{"10/Oct/2000:13:55:36. -0700", "10/Oct/2000:13:55:36.12x -0700", "10/Oct/2000:13:55:36.12345678901 -0700"} {
		_, ok := parseCLFTime([]byte(bad))
		require.False(t, ok, bad)
	}
	noZone, ok := parseCLFTime([]byte("10/Oct/2000:20:55:36.5"))
	require.True(t, ok)
	require.Equal(t, want, noZone, "UTC without a zone")
}

func TestAnalyzeCLFWithFractions(t *testing.T) {
	t.Parallel()
	line := `203.0.113.7 - - [10/Oct/2026:13:55:36.123 -0700] "GET /a HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"` + "\n"
	res, err := Analyze(context.Background(), strings.NewReader(line), Options{})
	require.NoError(t, err)
	require.EqualValues(t, 1, res.ParsedLines, "unparsed: %+v", res.Unparsed)
	require.Equal(t, "2026-10-10T20:55:36Z", res.FirstSeen)
}
