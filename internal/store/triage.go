package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// TriageDoc is a triage dossier to store.
type TriageDoc struct {
	SchemaVersion string
	Body          any // JSON document
}

// Snapshot is what a scan fetched, compressed (fetch.Snapshot).
type Snapshot = db.ScanSnapshot

// PutTriage stores (or replaces) the triage dossier of a scan.
func (s *Store) PutTriage(ctx context.Context, scanID uuid.UUID, t TriageDoc) error {
	body, err := json.Marshal(t.Body)
	if err != nil {
		return fmt.Errorf("encode triage: %w", err)
	}
	if err := s.q.UpsertTriage(ctx, s.conn, db.UpsertTriageParams{ScanID: scanID, SchemaVersion: t.SchemaVersion, Body: body}); err != nil {
		return fmt.Errorf("store triage: %w", err)
	}
	return nil
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
	return snap, notFound(err)
}

// CompletedScansWithoutTriage lists completed scans that have no dossier,
// oldest first.
func (s *Store) CompletedScansWithoutTriage(ctx context.Context, limit int) ([]uuid.UUID, error) {
	return s.q.CompletedScansWithoutTriage(ctx, s.conn, int32(limit))
}
