package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// Triage is a row of triage_dossiers.
type Triage = db.TriageDossier

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
	return t, notFound(err)
}
