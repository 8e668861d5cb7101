package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/netguard"
)

// browserStart bounds the start of the browser (and the read of its
// version): a cold start of Chromium on a busy 2-core machine takes a few
// seconds.
const browserStart = 30 * time.Second

// startRenderer starts the headless browser a worker process renders pages
// with, as GEOSCAN_RENDER asks, and returns with it the line the start-up
// banner shows about it (App.Rendering). The browser is nil when rendering
// is off.
//
// With auto and no GEOSCAN_CHROMIUM, a missing browser, or one that does
// not start, leaves rendering off and says why; with on, or with a browser
// named in GEOSCAN_CHROMIUM, either stops the start, since the operator
// asked for that browser.
func startRenderer(ctx context.Context, cfg config.Config, resolver netguard.Resolver, logger *slog.Logger) (*render.Browser, string, error) {
	log := logger.With(slog.String("component", "render"))
	if cfg.Render.Mode == config.RenderOff {
		log.Info("rendering is off (GEOSCAN_RENDER=off): pages are judged as fetched, without a browser")
		return nil, "off (GEOSCAN_RENDER=off)", nil
	}
	strict := cfg.Render.Mode == config.RenderOn || cfg.Render.Chromium != ""
	path, err := render.Find(cfg.Render.Chromium)
	if err != nil {
		if strict {
			return nil, "", fmt.Errorf("rendering (GEOSCAN_RENDER=%s): %w", cfg.Render.Mode, err)
		}
		status := "off — no browser found; install: " + render.InstallCommand
		log.Info("rendering is off: no browser found; pages are judged as fetched", slog.String("install", render.InstallCommand))
		return nil, status, nil
	}
	// The browser's every request goes through a client with the rules of
	// the scans' own: public addresses only, checked again at dial time,
	// unless the dev/test setting lifts them, and the same trust roots.
	client, err := netguard.NewClient(netguard.ClientOptions{
		AllowPrivate: cfg.AllowPrivateTargets, ExtraCAFile: cfg.ExtraCAFile, Resolver: resolver,
		Timeout: cfg.Render.PageTimeout, AllowHTTP: true,
		// A page loads its subresources from a few hosts at once.
		MaxIdleConns: cfg.Render.Tabs * 6,
	})
	if err != nil {
		return nil, "", fmt.Errorf("rendering: client: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, browserStart)
	defer cancel()
	version := browserVersion(sctx, path)
	b, err := render.New(sctx, render.Config{
		Path: path, Tabs: cfg.Render.Tabs, PageTimeout: cfg.Render.PageTimeout, Client: client,
		UserAgent: browserUserAgent(version, cfg.PublicURL),
	})
	if err != nil {
		if strict {
			return nil, "", fmt.Errorf("rendering (GEOSCAN_RENDER=%s): the browser %s did not start: %w", cfg.Render.Mode, path, err)
		}
		log.Error("rendering is off: the browser did not start; pages are judged as fetched",
			slog.String("browser", path), slog.String("error", err.Error()))
		return nil, fmt.Sprintf("off — the browser %s did not start: %v", path, err), nil
	}
	name := filepath.Base(path)
	if version != "" {
		name += " " + version
	}
	tabs := "tabs"
	if cfg.Render.Tabs == 1 {
		tabs = "tab"
	}
	log.Info("rendering is on", slog.String("browser", path), slog.String("version", version),
		slog.Int("tabs", cfg.Render.Tabs), slog.Duration("page_timeout", cfg.Render.PageTimeout))
	return b, fmt.Sprintf("on (%s, %d %s)", name, cfg.Render.Tabs, tabs), nil
}

// browserVersion is the version the browser prints ("Chromium
// 156.0.8078.108" gives "156.0.8078.108"), or "" when it prints none.
func browserVersion(ctx context.Context, path string) string {
	out, err := exec.CommandContext(ctx, path, "--version").Output() //nolint:gosec // the operator's browser
	if err != nil {
		return ""
	}
	for _, f := range strings.Fields(string(out)) {
		if f != "" && f[0] >= '0' && f[0] <= '9' && strings.Contains(f, ".") {
			return f
		}
	}
	return ""
}

// browserUserAgent is the User-Agent of the rendering browser: a desktop
// Chrome's, so that sites serve what people get, with GeoScan named in it
// as in the fetch's own, so that a site can tell who visits.
func browserUserAgent(version, publicURL string) string {
	chrome := ""
	if version != "" {
		major, _, _ := strings.Cut(version, ".")
		chrome = " Chrome/" + major + ".0.0.0"
	}
	return "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)" + chrome +
		" Safari/537.36 (compatible; GeoScan/1.0; +" + strings.TrimSuffix(publicURL, "/") + "/bot)"
}

// closeRenderer stops the browser, if one runs.
func (a *App) closeRenderer() error {
	if a.renderer == nil {
		return nil
	}
	err := a.renderer.Close()
	a.renderer = nil
	if err != nil {
		return errors.Join(errors.New("close the browser"), err)
	}
	return nil
}

// Rendering says, in one line, whether this process's scans render pages
// in a browser, and with which or why not: "on (chromium-headless-shell
// 156.0.8078.108, 2 tabs)" or "off — no browser found; install: …".
func (a *App) Rendering() string { return a.rendering }
