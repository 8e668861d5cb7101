package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// `geoscan scan fixes` saves what a real scan of a fixture site wrote for
// it (the server's responses validated against the contract on the way):
// each file once, and FIXES.md describing every fix. It keeps files that
// exist unless told to replace them.
func TestScanFixesWritesTheFiles(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)
	code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.NextShell), "--wait")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	id := scanID(t, out)

	dir := filepath.Join(t.TempDir(), "fixes")
	code, out, errOut = c.geoscan(t, "scan", "fixes", id, "--dir", dir)
	require.Equal(t, 0, code, "stderr: %s", errOut)
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "%s was written", name)
		return string(b)
	}
	patch := read("robots.txt.patch")
	require.Contains(t, patch, "--- a/robots.txt\n+++ b/robots.txt\n")
	require.Contains(t, patch, "\n User-agent: OAI-SearchBot\n-Disallow: /\n")
	require.True(t, strings.HasPrefix(read("llms.txt"), "# "))
	require.Contains(t, read("organization.jsonld.html"), `"@type": "Organization"`)
	index := read("FIXES.md")
	require.Contains(t, index, "# Fixes of scan "+id)
	require.Contains(t, index, "`ai_search_bots_allowed`")
	require.Contains(t, index, "File: `robots.txt.patch`")
	require.Contains(t, index, "steps for Next.js")
	require.Contains(t, index, "curl -sS ")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Contains(t, names, "homepage-meta-description.html")
	require.Equal(t, 1, strings.Count(out, "organization.jsonld.html"), "a file several checks share is written once:\n%s", out)
	require.Contains(t, out, " files in "+dir+":\n")
	require.Regexp(t, `(?m)^FIXES\.md +index`, out)

	code, _, errOut = c.geoscan(t, "scan", "fixes", id, "--dir", dir)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "exists; use --force")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "llms.txt"), []byte("edited"), 0o600))
	code, _, errOut = c.geoscan(t, "scan", "fixes", id, "--dir", dir, "--force")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	require.True(t, strings.HasPrefix(read("llms.txt"), "# "), "--force replaces the files")

	code, _, _ = c.geoscan(t, "scan", "fixes")
	require.Equal(t, 2, code, "an id is needed")
	code, _, _ = c.geoscan(t, "scan", "fixes", "not-a-uuid")
	require.Equal(t, 2, code)
}
