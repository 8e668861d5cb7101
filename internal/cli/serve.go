package cli

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/geoscan/geoscan/internal/app"
	"github.com/geoscan/geoscan/internal/config"
)

func serve(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "serve")
	role := fs.String("role", "", "what to run: api, worker or all (overrides GEOSCAN_ROLE)")
	fs.Usage = func() {
		fmt.Fprint(e.stderr, "Usage: geoscan serve [--role api|worker|all]\n\nRuns the HTTP API and the scan workers (--role splits them into separate processes\nsharing one database). Configuration comes from the environment:\n\n")
		_ = config.WriteHelp(e.stderr)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	getenv := e.getenv
	if *role != "" {
		getenv = func(k string) string {
			if k == "GEOSCAN_ROLE" {
				return *role
			}
			return e.getenv(k)
		}
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	logger := newLogger(cfg, e.stderr)
	return run(ctx, cfg, logger, nil)
}

// run serves until ctx is done (SIGINT/SIGTERM) or the server fails, then
// shuts down; ready, if set, is called once the server accepts requests.
func run(ctx context.Context, cfg config.Config, logger *slog.Logger, ready func(a *app.App) error) error {
	a, err := app.New(ctx, cfg, logger, app.Options{})
	if err != nil {
		return err
	}
	if err := a.Start(ctx); err != nil {
		_ = a.Shutdown(context.WithoutCancel(ctx))
		return err
	}
	if ready != nil {
		if err := ready(a); err != nil {
			_ = a.Shutdown(context.WithoutCancel(ctx))
			return err
		}
	}
	var serveErr error
	select {
	case <-ctx.Done():
		logger.Info("shutting down")
	case serveErr = <-a.Done():
	}
	if err := a.Shutdown(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	return serveErr
}
