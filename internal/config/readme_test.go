package config

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the README configuration table")

const (
	tableStart = "<!-- config-table:start -->\n"
	tableEnd   = "<!-- config-table:end -->"
)

// TestReadmeConfigTable keeps the README's table equal to the one generated
// from the variables (go test ./internal/config -update rewrites it).
func TestReadmeConfigTable(t *testing.T) {
	t.Parallel()
	const path = "../../README.md"
	readme, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(readme)
	start := strings.Index(text, tableStart)
	end := strings.Index(text, tableEnd)
	require.True(t, start >= 0 && end > start, "README.md lacks the config-table markers")

	var table bytes.Buffer
	require.NoError(t, WriteMarkdown(&table))
	want := text[:start+len(tableStart)] + table.String() + text[end:]
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o600))
		return
	}
	require.Equal(t, want, text, "README configuration table is stale: go test ./internal/config -update")
}

// TestReadmeClientConfigTable does the same for the client commands' table.
// It is not parallel, so that with -update the two tests never write the
// README at the same time.
func TestReadmeClientConfigTable(t *testing.T) {
	const (
		path  = "../../README.md"
		start = "<!-- client-config-table:start -->\n"
		end   = "<!-- client-config-table:end -->"
	)
	readme, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(readme)
	i, j := strings.Index(text, start), strings.Index(text, end)
	require.True(t, i >= 0 && j > i, "README.md lacks the client-config-table markers")

	var table bytes.Buffer
	require.NoError(t, WriteClientMarkdown(&table))
	want := text[:i+len(start)] + table.String() + text[j:]
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o600))
		return
	}
	require.Equal(t, want, text, "README client configuration table is stale: go test ./internal/config -update")
}
