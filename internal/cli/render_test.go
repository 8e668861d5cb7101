package cli

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// TestServeRenderOnWithoutBrowser: a process that runs scans (here the
// default role, all; --role worker would also set the test binary's
// memory limit) asked to render with a browser that is not there exits at
// once, and the error says how to install one.
func TestServeRenderOnWithoutBrowser(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, map[string]string{
		"DATABASE_URL": pgtest.URL(), "GEOSCAN_RENDER": "on", "GEOSCAN_CHROMIUM": "/nonexistent",
		"GEOSCAN_HTTP_ADDR": "127.0.0.1:0",
	}, "serve")
	require.Equal(t, 1, code, errOut)
	require.Contains(t, errOut, "/nonexistent")
	require.Contains(t, errOut, "apt-get install chromium-headless-shell")
}
