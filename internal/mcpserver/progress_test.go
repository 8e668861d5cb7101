package mcpserver_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/mcpserver"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// A client that asks for progress while create_scan waits hears how the
// scan gets on, each change once, the progress growing, the last one the
// scan completed; a client that asks for none hears nothing.
func TestCreateScanReportsProgress(t *testing.T) {
	t.Parallel()
	h := engine(t)
	org := h.NewOrg(t, "pro", true)
	srv, err := mcpserver.New(mcpserver.Options{APIURL: h.APIURL, Key: org.Key, HTTPClient: h.HTTP, PollInterval: 50 * time.Millisecond})
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	var mu sync.Mutex
	var heard []*mcp.ProgressNotificationParams
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			heard = append(heard, req.Params)
			mu.Unlock()
		},
	}).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	site := fixtures(t).URL(testsite.Bakery)
	params := &mcp.CallToolParams{Name: "create_scan", Arguments: map[string]any{"url": site, "wait": true, "wait_seconds": 120}}
	params.SetProgressToken("scan-1")
	res, err := cs.CallTool(ctx, params)
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(t, res))

	// Notifications may still be in flight when the result arrives.
	poll.Until(t, 10*time.Second, "the completed scan's notification", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(heard) > 0 && strings.Contains(heard[len(heard)-1].Message, "is completed")
	})
	mu.Lock()
	defer mu.Unlock()
	require.Contains(t, heard[0].Message, "Scan ")
	for i, p := range heard {
		require.Equal(t, "scan-1", p.ProgressToken)
		require.InDelta(t, float64(i+1), p.Progress, 0, "the progress grows by one a change")
		if i > 0 {
			require.NotEqual(t, heard[i-1].Message, p.Message, "each change once")
		}
	}

	n := len(heard)
	mu.Unlock()
	_, _ = call[mcpserver.ScanSummary](t, cs, "create_scan", map[string]any{"url": site, "wait": true, "wait_seconds": 120})
	mu.Lock()
	require.Len(t, heard, n, "no token, no notifications")
}
