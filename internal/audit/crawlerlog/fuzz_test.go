package crawlerlog_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// FuzzAnalyze: whatever the bytes, Analyze neither fails nor panics, and
// its counts add up.
func FuzzAnalyze(f *testing.F) {
	files, err := filepath.Glob("testdata/*.*")
	require.NoError(f, err)
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Add([]byte(gptbotLine + "\r" + browserLine + "\r\n\x00\x00{\"proxy\":{\"userAgent\":[1,\"GPTBot\"]}}"))
	f.Add([]byte("#Fields: date time c-ip cs-uri-stem sc-status cs(User-Agent)\n2026-08-07 10:00:00 ::ffff:1.2.3.4 /a 200 GPTBot%2F1.0\n"))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	f.Add([]byte("\uFEFF#Fields: date time c-ip cs-uri-stem sc-status cs(User-Agent)\n2026-08-07 10:00:00 20.171.207.35 /caf\xe9 200 GPTBot/1.2\n2026-08-07 10:00:00 20.171.207.35 /caf\xe9 200 GPTBot/1.2\r"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := crawlerlog.Analyze(context.Background(), strings.NewReader(string(data)), crawlerlog.Options{
			Domain: "www.example.com", MaxLineBytes: 4096, MaxPaths: 20,
		})
		if err != nil {
			require.ErrorIs(t, err, crawlerlog.ErrCompressed)
			return
		}
		require.Equal(t, res.Lines, res.ParsedLines+res.UnparsedLines)
		var unparsed, hits int64
		for _, u := range res.Unparsed {
			unparsed += u.Count
			require.Positive(t, u.FirstLine)
		}
		require.Equal(t, res.UnparsedLines, unparsed)
		var formats int64
		for _, n := range res.Formats {
			formats += n
		}
		require.Equal(t, res.ParsedLines, formats)
		for _, b := range res.Bots {
			hits += b.Hits
			require.Equal(t, b.Hits, b.VerifiedHits+b.Verification.FailedHits+b.Verification.NotCheckedHits)
			require.Equal(t, b.Hits-b.VerifiedHits, b.UnverifiedHits)
			var statuses int64
			for _, n := range b.Statuses {
				statuses += n
			}
			require.Equal(t, b.Hits, statuses)
			require.LessOrEqual(t, b.DistinctPaths, 20)
		}
		require.Equal(t, res.ParsedLines, res.OtherHostLines+res.OtherHits+hits)
		require.LessOrEqual(t, len(res.SearchPaths), 200)
	})
}
