package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/geoscan/geoscan/internal/app"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/pgcluster"
	"github.com/geoscan/geoscan/internal/web/auth"
)

const devOrgName = "Development"

// dev runs the service for local development: with DATABASE_URL unset it
// starts (or reuses) a private PostgreSQL cluster under GEOSCAN_DATA_DIR,
// then ensures a development organization and an API key that survives
// restarts, prints them, and serves until interrupted, stopping the cluster
// on the way out.
// devGetenv is the environment of `geoscan dev`: GEOSCAN_ENV defaults to
// dev and GEOSCAN_LOG_FORMAT to text.
func devGetenv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if getenv(k) == "" {
			switch k {
			case "GEOSCAN_ENV":
				return string(config.EnvDev)
			case "GEOSCAN_LOG_FORMAT":
				return "text"
			}
		}
		return getenv(k)
	}
}

// devURL is the base URL `geoscan dev` (make run) serves on with this
// environment: its GEOSCAN_HTTP_ADDR, a listener on every interface read
// through loopback.
func devURL(getenv func(string) string) string {
	addr := "127.0.0.1:8080"
	if cfg, err := config.Load(devGetenv(getenv)); err == nil {
		addr = cfg.HTTPAddr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func dev(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "dev")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: geoscan dev\n\nRuns GeoScan for development (GEOSCAN_ENV defaults to dev, GEOSCAN_LOG_FORMAT to text). With DATABASE_URL unset, a private\nPostgreSQL cluster is kept under GEOSCAN_DATA_DIR/postgres. Configuration:\n\n")
		_ = config.WriteHelp(fs.Output())
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg, err := config.Load(devGetenv(e.getenv))
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	logger := newLogger(cfg, e.stderr)

	stop, err := privateDatabase(ctx, e, &cfg, logger)
	if err != nil {
		return err
	}
	defer stop()

	return run(ctx, cfg, logger, func(a *app.App) error {
		keyFile := filepath.Join(cfg.DataDir, "dev-api-key")
		key, err := devKey(ctx, a.Store(), keyFile)
		if err != nil {
			return err
		}
		base := "http://" + a.Addr()
		printf(e.stdout, `
GeoScan is running (%s mode).

  API        %s/api/v1
  Swagger UI %s/api/docs
  ReDoc      %s/api/redoc
  API key    %s
  Rendering  %s
  CJK font   %s

Try:
  curl -s -H 'X-API-Key: %s' %s/api/v1/usage

The key is kept in %s and keeps working across restarts. Press Ctrl-C to stop.
`, cfg.Env, base, base, base, key, a.Rendering(), report.CJKFontStatus(cfg.PDFCJKFont), key, base, relative(keyFile))
		return nil
	})
}

// privateDatabase starts (or reuses) the private cluster under
// GEOSCAN_DATA_DIR/postgres when DATABASE_URL is unset and points cfg at
// it; stop stops the cluster again.
func privateDatabase(ctx context.Context, e env, cfg *config.Config, logger *slog.Logger) (stop func(), err error) {
	if cfg.DatabaseURL != "" {
		return func() {}, nil
	}
	dir, err := filepath.Abs(filepath.Join(cfg.DataDir, "postgres"))
	if err != nil {
		return nil, err
	}
	printf(e.stdout, "Starting private PostgreSQL in %s ...\n", relative(dir))
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir, Logf: func(f string, a ...any) { logger.Info(fmt.Sprintf(f, a...)) }})
	if err != nil {
		return nil, err
	}
	stop = func() {
		fmt.Fprintln(e.stdout, "Stopping private PostgreSQL ...")
		if err := cluster.Stop(context.WithoutCancel(ctx)); err != nil {
			logger.Error("stop postgres", slog.String("error", err.Error()))
		}
	}
	if err := cluster.EnsureDatabase(ctx, "geoscan"); err != nil {
		stop()
		return nil, err
	}
	cfg.DatabaseURL = cluster.URL("geoscan")
	return stop, nil
}

// devKey returns the saved development key if it still authenticates, and
// otherwise creates the development organization (if needed) and a new key.
func devKey(ctx context.Context, st *store.Store, path string) (string, error) {
	if b, err := os.ReadFile(path); err == nil { //nolint:gosec // our own data directory
		key := strings.TrimSpace(string(b))
		if auth.ParseKey(key) == nil {
			p, err := st.LookupKey(ctx, auth.HashKey(key))
			if err == nil && p.RevokedAt == nil {
				return key, nil
			}
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return "", err
			}
		}
	}
	org, err := st.GetOrganizationByName(ctx, devOrgName)
	if errors.Is(err, store.ErrNotFound) {
		org, err = st.CreateOrganization(ctx, devOrgName, "pro", true)
	}
	if err != nil {
		return "", err
	}
	key, err := createKey(ctx, st, org.ID, nil, "development")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil { //nolint:gosec // the postgres user must be able to enter it
		return "", err
	}
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("save development key: %w", err)
	}
	return key, nil
}

func relative(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
