package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// Snapshot is what a scan fetched, compressed (fetch.Snapshot), in the
// snapshot format Format.
type Snapshot struct {
	ScanID    uuid.UUID
	Format    int
	Body      []byte
	CreatedAt time.Time
}

func snapshotOf(r db.ScanSnapshot) Snapshot {
	return Snapshot{ScanID: r.ScanID, Format: int(r.Format), Body: r.Body, CreatedAt: r.CreatedAt}
}

// PutSnapshot stores what a scan fetched.
func (s *Store) PutSnapshot(ctx context.Context, scanID uuid.UUID, format int, body []byte) error {
	if err := s.q.UpsertSnapshot(ctx, s.conn, db.UpsertSnapshotParams{ScanID: scanID, Format: int32(format), Body: body}); err != nil {
		return fmt.Errorf("store snapshot: %w", err)
	}
	return nil
}

// GetSnapshot returns what a scan fetched; ErrNotFound for scans stored
// without one.
func (s *Store) GetSnapshot(ctx context.Context, scanID uuid.UUID) (Snapshot, error) {
	snap, err := s.q.GetSnapshot(ctx, s.conn, scanID)
	return one(snap, err, snapshotOf)
}

// DeleteSnapshotsBefore deletes up to batch snapshots taken before t,
// oldest first; the scans, reports and dossiers stay.
func (s *Store) DeleteSnapshotsBefore(ctx context.Context, t time.Time, batch int) (int64, error) {
	return s.q.DeleteSnapshotsBefore(ctx, s.conn, db.DeleteSnapshotsBeforeParams{Before: t, Batch: int32(batch)})
}
