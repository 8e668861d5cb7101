package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLoadRender(t *testing.T) {
	t.Parallel()

	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, RenderConfig{Mode: RenderAuto, Tabs: 2, PageTimeout: 15 * time.Second}, c.Render,
		"by default a worker renders when it finds a browser")

	c, err = Load(env(map[string]string{
		"GEOSCAN_RENDER": "on", "GEOSCAN_CHROMIUM": " /opt/chromium/headless_shell ", "GEOSCAN_RENDER_TABS": "32", "GEOSCAN_RENDER_TIMEOUT": "5m",
	}))
	require.NoError(t, err)
	require.Equal(t, RenderConfig{Mode: RenderOn, Chromium: "/opt/chromium/headless_shell", Tabs: 32, PageTimeout: 5 * time.Minute}, c.Render)
	r := c.Redacted()
	require.Equal(t, "on", r["GEOSCAN_RENDER"])
	require.Equal(t, "/opt/chromium/headless_shell", r["GEOSCAN_CHROMIUM"])
	require.Equal(t, "32", r["GEOSCAN_RENDER_TABS"])
	require.Equal(t, "5m0s", r["GEOSCAN_RENDER_TIMEOUT"])

	c, err = Load(env(map[string]string{"GEOSCAN_RENDER": "off"}))
	require.NoError(t, err)
	require.Equal(t, RenderOff, c.Render.Mode)

	for name, bad := range map[string][]string{
		"GEOSCAN_RENDER":         {"yes", "true", "ON", "1"},
		"GEOSCAN_RENDER_TABS":    {"0", "-1", "33", "two", "1.5"},
		"GEOSCAN_RENDER_TIMEOUT": {"0s", "-1s", "15", "soon", "5m1s"},
	} {
		for _, v := range bad {
			_, err := Load(env(map[string]string{name: v}))
			require.ErrorContains(t, err, name, "%s=%s", name, v)
		}
	}
}
