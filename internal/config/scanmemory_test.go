package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLoadScanMemory(t *testing.T) {
	t.Parallel()

	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, 320, c.ScanMemoryMiB)

	c, err = Load(env(map[string]string{"GEOSCAN_SCAN_MEMORY": "1024"}))
	require.NoError(t, err)
	require.Equal(t, 1024, c.ScanMemoryMiB)
	require.Equal(t, "1024", c.Redacted()["GEOSCAN_SCAN_MEMORY"])

	for _, bad := range []string{"0", "-1", "384MiB", "0.5"} {
		_, err := Load(env(map[string]string{"GEOSCAN_SCAN_MEMORY": bad}))
		require.ErrorContains(t, err, "GEOSCAN_SCAN_MEMORY", bad)
	}
}
