package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/app"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/jobs/scanner"
	"github.com/geoscan/geoscan/internal/store"
)

// triageCmd fills in triage dossiers: for scans completed before triage
// existed, or whose dossier could not be computed when they finished.
func triageCmd(ctx context.Context, e env, args []string) error {
	if len(args) == 0 || args[0] != "recompute" {
		return fmt.Errorf("%w: triage needs a subcommand: recompute", errUsage)
	}
	fs := newFlagSet(e, "triage recompute")
	queue := fs.Bool("queue", false, "queue River jobs for the workers instead of computing here")
	missing := fs.Int("missing", 0, "also take up to this many completed scans that have no dossier")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: geoscan triage recompute [--queue] [--missing N] [SCAN_ID ...]\n\n"+
			"Computes the triage dossier of completed scans again, from the pages each scan kept,\n"+
			"or from a fresh fetch of the site when it kept none.\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	var ids []uuid.UUID
	for _, a := range fs.Args() {
		id, err := uuid.Parse(a)
		if err != nil {
			return fmt.Errorf("%w: %q is not a scan id", errUsage, a)
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 && *missing <= 0 {
		return fmt.Errorf("%w: give SCAN_ID arguments or --missing N", errUsage)
	}

	// A worker-role app has the fetcher and the queue client; its workers
	// are never started here.
	cfg, err := config.Load(func(k string) string {
		if k == "GEOSCAN_ROLE" {
			return string(config.RoleWorker)
		}
		return e.getenv(k)
	})
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	a, err := app.New(ctx, cfg, newLogger(cfg, e.stderr), app.Options{})
	if err != nil {
		return err
	}
	defer func() { _ = a.Shutdown(context.WithoutCancel(ctx)) }()

	if *missing > 0 {
		more, err := a.Store().CompletedScansWithoutTriage(ctx, *missing)
		if err != nil {
			return err
		}
		ids = append(ids, more...)
	}
	failed := 0
	for _, id := range ids {
		if *queue {
			queued, err := a.QueueTriage(ctx, id)
			if err != nil {
				return err
			}
			if queued {
				printf(e.stdout, "%s queued\n", id)
			} else {
				printf(e.stdout, "%s already queued\n", id)
			}
			continue
		}
		source, err := a.Runner().RecomputeTriage(ctx, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			printf(e.stdout, "%s not found\n", id)
			failed++
		case errors.Is(err, scanner.ErrNotCompleted):
			printf(e.stdout, "%s skipped: %v\n", id, err)
			failed++
		case err != nil:
			printf(e.stdout, "%s failed: %v\n", id, err)
			failed++
		default:
			printf(e.stdout, "%s recomputed from %s\n", id, source)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d dossiers were not recomputed", failed, len(ids))
	}
	return nil
}
