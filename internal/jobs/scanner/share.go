package scanner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/store"
)

// HoldDelay is how long a scan job held back by its organization's share
// waits before it asks again. River orders waiting jobs by the time they
// are due, so a held job goes behind every job already waiting, and the
// next free worker takes another organization's scan first.
const HoldDelay = time.Second

// recordTime is what a scan job gets beyond the scan's budget to record
// its outcome.
const recordTime = 5 * time.Second

// ErrOverShare is returned by Runner.Run for a scan left pending because
// its organization already runs its share of the scan workers while
// another organization's scans wait; the worker snoozes its job.
var ErrOverShare = errors.New("organization runs its share of the scan workers")

// start claims a scan: it moves it to running and returns it, or returns
// ErrOverShare and leaves it as it was. With OrgShare set, an organization
// runs at most OrgShare scans at once, counted in the database across
// every worker process, whenever another organization has scans waiting
// while it runs fewer; with no one else waiting it may use every worker.
//
// A start with no one to yield to, the common case and the only one of a
// deployment with one organization, claims the scan at once. Otherwise the
// decision is taken under a lock on the organization, so that concurrent
// starts of its scans in any process count one after the other; only
// these starts wait for each other, each holding a database connection
// meanwhile.
func (r *Runner) start(ctx context.Context, id uuid.UUID) (store.Scan, error) {
	if r.OrgShare <= 0 {
		return r.Store.StartScan(ctx, id)
	}
	live := r.Budget + recordTime
	share, err := r.Store.ScanShare(ctx, id, r.OrgShare, live)
	if err != nil {
		return store.Scan{}, err
	}
	if !share.OthersWaiting {
		return r.Store.ClaimScan(ctx, id)
	}
	var scan store.Scan
	err = r.Store.InTx(ctx, func(tx *store.Store) error {
		share, err := tx.LockScanShare(ctx, id, r.OrgShare, live)
		if err != nil {
			return err
		}
		if share.Running >= r.OrgShare && share.OthersWaiting {
			r.Logger.Debug("scan waits: its organization runs its share of the workers while others wait",
				slog.String("scan_id", id.String()), slog.String("org_id", share.OrgID.String()),
				slog.Int("running", share.Running), slog.Int("share", r.OrgShare))
			return fmt.Errorf("scan %s: %w (%d running)", id, ErrOverShare, share.Running)
		}
		scan, err = tx.ClaimScan(ctx, id)
		return err
	})
	return scan, err
}
