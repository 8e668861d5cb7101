package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/app"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/testing/browsertest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// worker builds, without starting it, a worker process's App with the
// given variables on top of a test configuration that reaches the fixture
// sites.
func worker(t *testing.T, sites *testsite.Server, vars map[string]string) (*app.App, error) {
	t.Helper()
	ca, err := sites.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	all := map[string]string{
		"DATABASE_URL": pgtest.URL(), "GEOSCAN_ENV": "test", "GEOSCAN_ROLE": "worker",
		"GEOSCAN_ALLOW_PRIVATE_TARGETS": "true", "GEOSCAN_EXTRA_CA_FILE": ca, "GEOSCAN_LOG_LEVEL": "error",
	}
	for k, v := range vars {
		all[k] = v
	}
	cfg, err := config.Load(func(k string) string { return all[k] })
	require.NoError(t, err)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.New(t.Context(), cfg, logger, app.Options{Resolver: sites.Resolver(), ManualScheduler: true})
	if err == nil {
		t.Cleanup(func() { _ = a.Shutdown(context.Background()) })
	}
	return a, err
}

func startSites(t *testing.T) *testsite.Server {
	t.Helper()
	s, err := testsite.Start()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s
}

// TestWorkerRendersWithTheBrowserFound starts a worker with the default
// GEOSCAN_RENDER=auto on a machine with a browser: its scans get one
// browser, whose requests reach the fixture sites through the scans'
// client (the test CA, the test resolver, private addresses allowed by the
// test configuration), and shutting down stops it.
func TestWorkerRendersWithTheBrowserFound(t *testing.T) {
	t.Parallel()
	browsertest.Path(t)
	sites := startSites(t)
	a, err := worker(t, sites, nil)
	require.NoError(t, err)
	require.Regexp(t, `^on \(chrom[^ ]+( [0-9.]+)?, 2 tabs\)$`, a.Rendering())

	b, ok := a.Runner().Renderer.(*render.Browser)
	require.True(t, ok, "the scans render with the process's browser, not %T", a.Runner().Renderer)
	p := b.Render(t.Context(), sites.URL(testsite.Docs))
	require.True(t, p.Rendered(), p.Err)
	require.Contains(t, string(p.HTML), "Lumen")

	pid := b.PID()
	require.NotZero(t, pid)
	require.NoError(t, a.Start(t.Context()))
	require.NoError(t, a.Shutdown(context.Background()))
	gone, _ := poll.For(t, 30*time.Second, func() (bool, bool) {
		err := syscall.Kill(pid, 0)
		return errors.Is(err, syscall.ESRCH), errors.Is(err, syscall.ESRCH)
	})
	require.True(t, gone, "the browser (pid %d) outlived the shutdown", pid)
}

// TestWorkerBrowserKeepsTheScansRules starts a worker in production mode:
// the browser's requests follow the scans' rules, so a page on a loopback
// address is not rendered.
func TestWorkerBrowserKeepsTheScansRules(t *testing.T) {
	t.Parallel()
	browsertest.Path(t)
	sites := startSites(t)
	a, err := worker(t, sites, map[string]string{"GEOSCAN_ENV": "production", "GEOSCAN_ALLOW_PRIVATE_TARGETS": "false"})
	require.NoError(t, err)
	p := a.Runner().Renderer.Render(t.Context(), sites.URL(testsite.Docs))
	require.NotContains(t, string(p.HTML), "Lumen", "a loopback page was rendered in production mode")
	require.Zero(t, sites.Hits(testsite.Docs)["/"], "the browser reached a loopback site in production mode")
}

// TestWorkerRenderOnNeedsABrowser: with GEOSCAN_RENDER=on, or a browser
// named in GEOSCAN_CHROMIUM, a worker without that browser does not start,
// and says how to install one.
func TestWorkerRenderOnNeedsABrowser(t *testing.T) {
	t.Parallel()
	sites := startSites(t)
	for _, vars := range []map[string]string{
		{"GEOSCAN_RENDER": "on", "GEOSCAN_CHROMIUM": "/nonexistent"},
		{"GEOSCAN_RENDER": "auto", "GEOSCAN_CHROMIUM": "/nonexistent"},
	} {
		_, err := worker(t, sites, vars)
		require.Error(t, err, "%v", vars)
		require.ErrorContains(t, err, "/nonexistent")
		require.ErrorContains(t, err, "apt-get install chromium-headless-shell")
	}
}

// TestWorkerRenderAutoWithoutBrowser: with GEOSCAN_RENDER=auto and no
// browser on the PATH the worker starts without rendering and says how to
// install one. It changes PATH, so it does not run in parallel.
func TestWorkerRenderAutoWithoutBrowser(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	sites := startSites(t)
	a, err := worker(t, sites, nil)
	require.NoError(t, err)
	require.Equal(t, "off — no browser found; install: apt-get install chromium-headless-shell", a.Rendering())
	require.Nil(t, a.Runner().Renderer)

	_, err = worker(t, sites, map[string]string{"GEOSCAN_RENDER": "on"})
	require.ErrorContains(t, err, "apt-get install chromium-headless-shell")
}

// TestWorkerRenderOff: GEOSCAN_RENDER=off starts no browser, whatever is
// installed, and an API process never does.
func TestWorkerRenderOff(t *testing.T) {
	t.Parallel()
	sites := startSites(t)
	a, err := worker(t, sites, map[string]string{"GEOSCAN_RENDER": "off", "GEOSCAN_CHROMIUM": "/nonexistent"})
	require.NoError(t, err)
	require.Equal(t, "off (GEOSCAN_RENDER=off)", a.Rendering())
	require.Nil(t, a.Runner().Renderer)

	a, err = worker(t, sites, map[string]string{"GEOSCAN_ROLE": "api", "GEOSCAN_RENDER": "on", "GEOSCAN_CHROMIUM": "/nonexistent"})
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(a.Rendering(), "off (GEOSCAN_ROLE=api"), a.Rendering())
	require.Nil(t, a.Runner())
}
