package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// `geoscan mcp` speaks MCP on stdin and stdout with the configured URL and
// key: an assistant lists the tools, calls them as the key's organization,
// and ends the session by closing stdin, which ends the command with 0.
func TestMCPCommand(t *testing.T) {
	t.Parallel()
	h := apitest.Start(t, pgtest.URL(), apitest.Options{ManualScheduler: true})
	org := h.NewOrg(t, "free", true)
	vars := map[string]string{"GEOSCAN_API_URL": h.BaseURL, "GEOSCAN_API_KEY": org.Key}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	e := env{getenv: func(k string) string { return vars[k] }, stdin: inR, stdout: outW, stderr: &stderr, httpClient: h.HTTP}
	done := make(chan int, 1)
	go func() {
		code := mainWith(t.Context(), e, []string{"mcp"})
		_ = outW.Close()
		done <- code
	}()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, tools.Tools, 12)

	created, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_scan", Arguments: map[string]any{"url": "https://example.com/"}})
	require.NoError(t, err)
	require.False(t, created.IsError, "%v", created.Content)
	list, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_scans"})
	require.NoError(t, err)
	require.False(t, list.IsError)
	b, err := json.Marshal(list.StructuredContent)
	require.NoError(t, err)
	var scans struct {
		Scans []struct {
			URL string `json:"url"`
		} `json:"scans"`
	}
	require.NoError(t, json.Unmarshal(b, &scans))
	require.Len(t, scans.Scans, 1, "the key's organization's scans")
	require.Equal(t, "https://example.com/", scans.Scans[0].URL)

	bad, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_scan", Arguments: map[string]any{"scan_id": "nope"}})
	require.NoError(t, err)
	require.True(t, bad.IsError)

	require.NoError(t, cs.Close())
	require.Equal(t, 0, <-done, "stderr: %s", stderr.String())
	require.Empty(t, stderr.String())
}

// Without a key the command does not start.
func TestMCPCommandNeedsKey(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, map[string]string{"GEOSCAN_API_URL": "http://127.0.0.1:1"}, "mcp")
	require.Equal(t, 1, code)
	require.Empty(t, out, "stdout is the protocol's")
	require.Contains(t, errOut, "GEOSCAN_API_KEY")
}
