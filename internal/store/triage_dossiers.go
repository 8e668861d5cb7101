package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// Triage is the stored triage dossier of a scan: one JSON document
// (triage.Stored) read whole.
type Triage struct {
	ScanID        uuid.UUID
	SchemaVersion string
	Body          json.RawMessage
	CreatedAt     time.Time
}

func triageOf(r db.TriageDossier) Triage { return Triage(r) }

// TriageDoc is a triage dossier to store.
type TriageDoc struct {
	SchemaVersion string
	Body          any // JSON document
}

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

// GetTriage returns the triage dossier of a scan.
func (s *Store) GetTriage(ctx context.Context, scanID uuid.UUID) (Triage, error) {
	t, err := s.q.GetTriage(ctx, s.conn, scanID)
	return one(t, err, triageOf)
}
