package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// The generated log must be one the analysis reads whole, with its
// crawlers verified, or the benchmark measures the handling of junk.
func TestGeneratedLogIsRead(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "access.log")
	require.NoError(t, generate(path, 4<<20))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer func() { _ = f.Close() }()
	res, err := crawlerlog.Analyze(context.Background(), f, crawlerlog.Options{Domain: "www.example.com"})
	require.NoError(t, err)
	require.Zero(t, res.UnparsedLines)
	require.GreaterOrEqual(t, res.ParsedLines, int64(10000))
	require.Len(t, res.Bots, len(crawlers))
	for _, b := range res.Bots {
		require.Positive(t, b.VerifiedHits, b.Token)
		require.Positive(t, b.Verification.FailedHits, b.Token)
	}
}
