package cli

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/geoscan/geoscan/internal/app"
	"github.com/geoscan/geoscan/internal/config"
)

func serve(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "serve")
	role := fs.String("role", "", "what to run: api, worker or all (overrides GEOSCAN_ROLE)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: geoscan serve [--role api|worker|all]\n\nRuns the HTTP API and the scan workers (--role splits them into separate processes\nsharing one database). Configuration comes from the environment:\n\n")
		_ = config.WriteHelp(fs.Output())
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
	sink, stopSink := startLogSink(ctx, e.stderr)
	defer stopSink()
	logger := slog.New(flushAtWarn{newLogger(cfg, sink).Handler(), sink})
	if cfg.Role == config.RoleAPI && e.getenv("GOGC") == "" && e.getenv("GOMEMLIMIT") == "" {
		tuneAPIGC()
	}
	if cfg.Role == config.RoleWorker && e.getenv("GOMEMLIMIT") == "" {
		tuneWorkerGC(cfg.ScanMemoryMiB)
	}
	return run(ctx, cfg, logger, nil)
}

// tuneAPIGC lets an API process's heap grow four times its live size
// between collections instead of twice: the live heap of the API is small
// (tens of MiB), so with Go's default most of a busy process's garbage
// collection is spent on it; this costs about 40 MiB more and saves about
// a sixth of the CPU of a list request (docs/PERFORMANCE.md). The soft
// limit brings collections back before the heap gets large. GOGC or
// GOMEMLIMIT in the environment keep Go's own handling.
func tuneAPIGC() {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(512 << 20)
}

// workerGCHeadroom is a worker process's soft memory limit beyond its
// scans' memory budget: the runtime, the queue and database clients, and
// the homepages of scans waiting for the budget.
const workerGCHeadroom = 32 << 20

// tuneWorkerGC sets a worker process's soft memory limit to its scans'
// memory budget (GEOSCAN_SCAN_MEMORY) and the headroom. The budget's
// estimates already count the garbage an audit leaves between
// collections, while Go's default pacing lets the heap grow to twice what
// is live, which for many scans in flight is well past the budget
// (docs/PERFORMANCE.md). GOMEMLIMIT in the environment keeps Go's own
// handling.
func tuneWorkerGC(scanMemoryMiB int) {
	debug.SetMemoryLimit(int64(scanMemoryMiB)<<20 + workerGCHeadroom)
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
