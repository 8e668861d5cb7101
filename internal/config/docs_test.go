package config

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the configuration tables of docs/OPERATIONS.md and docs/CLI.md")

// regenerate is the command that rewrites the tables.
const regenerate = "go test ./internal/config -run TestDocs -update (or make docs)"

// docTable keeps the Markdown table between start and end in page equal to
// what write prints; with -update it rewrites it.
func docTable(t *testing.T, page, start, end string, write func(io.Writer) error) {
	t.Helper()
	path := "../../" + page
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(b)
	i, j := strings.Index(text, start), strings.Index(text, end)
	require.True(t, i >= 0 && j > i, "%s lacks the markers %s and %s", page, strings.TrimSpace(start), end)

	var table bytes.Buffer
	require.NoError(t, write(&table))
	want := text[:i+len(start)] + table.String() + text[j:]
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644)) //nolint:gosec // a page of the documentation
		return
	}
	require.Equal(t, table.String(), text[i+len(start):j], "the table of %s is stale: %s", page, regenerate)
}

// TestDocsConfigTable keeps the server's configuration table in
// docs/OPERATIONS.md equal to the one generated from the variables.
func TestDocsConfigTable(t *testing.T) {
	t.Parallel()
	docTable(t, "docs/OPERATIONS.md", "<!-- config-table:start -->\n", "<!-- config-table:end -->",
		WriteMarkdown)
}

// TestDocsClientConfigTable does the same for the client commands' table
// in docs/CLI.md.
func TestDocsClientConfigTable(t *testing.T) {
	t.Parallel()
	docTable(t, "docs/CLI.md", "<!-- client-config-table:start -->\n", "<!-- client-config-table:end -->",
		WriteClientMarkdown)
}
