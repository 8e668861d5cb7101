package pgcluster

import (
	"os"
	"path/filepath"
	"testing"
)

// EnterableTempDir is t.TempDir() opened for traversal (0711 up to the
// system temp directory), so that a cluster the postgres user runs can live
// inside it when tests run as root.
func EnterableTempDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Clean(os.TempDir())
	for d := dir; d != root && d != "/" && d != "."; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o711); err != nil { //nolint:gosec // traversal only, nothing is listable
			t.Fatalf("open %s for the postgres user: %v", d, err)
		}
	}
	return dir
}
