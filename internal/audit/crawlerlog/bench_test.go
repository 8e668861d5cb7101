package crawlerlog_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// BenchmarkAnalyze reads the fixtures of every format, repeated to about
// 16 MB, as one mixed log; bench/crawlerlog.sh measures a 1 GB one against
// a bare line scanner.
func BenchmarkAnalyze(b *testing.B) {
	files, err := filepath.Glob("testdata/*.*")
	require.NoError(b, err)
	var one bytes.Buffer
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(b, err)
		one.Write(data)
	}
	log := bytes.Repeat(one.Bytes(), 16<<20/one.Len())
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := crawlerlog.Analyze(context.Background(), bytes.NewReader(log), crawlerlog.Options{Domain: "www.example.com"})
		if err != nil || res.ParsedLines == 0 {
			b.Fatal(err, res.ParsedLines)
		}
	}
}
