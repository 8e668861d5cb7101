package store

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
	"github.com/geoscan/geoscan/internal/auth"
)

// APIKey is a row of api_keys.
type APIKey = db.APIKey

// Principal is what authenticating a key reads: the key and its organization.
type Principal = db.GetAPIKeyPrincipalRow

// CreateAPIKey makes a new key for org and returns it in full, the only time
// it exists outside the caller's hands; only its hash is stored.
func (s *Store) CreateAPIKey(ctx context.Context, orgID uuid.UUID, name string) (string, APIKey, error) {
	key, err := auth.NewKey()
	if err != nil {
		return "", APIKey{}, fmt.Errorf("generate key: %w", err)
	}
	row, err := s.q.CreateAPIKey(ctx, s.conn, db.CreateAPIKeyParams{
		OrgID: orgID, Name: name, KeyHash: auth.HashKey(key), DisplayPrefix: auth.DisplayPrefix(key),
	})
	if err != nil {
		return "", APIKey{}, fmt.Errorf("insert api key: %w", notFound(err))
	}
	return key, row, nil
}

// ListAPIKeys lists an organization's keys, newest first.
func (s *Store) ListAPIKeys(ctx context.Context, orgID uuid.UUID) ([]APIKey, error) {
	return s.q.ListAPIKeys(ctx, s.conn, orgID)
}

// GetAPIKey returns one key row.
func (s *Store) GetAPIKey(ctx context.Context, id uuid.UUID) (APIKey, error) {
	k, err := s.q.GetAPIKey(ctx, s.conn, id)
	return k, notFound(err)
}

// RevokeAPIKey revokes a key; revoking twice keeps the first time.
func (s *Store) RevokeAPIKey(ctx context.Context, id uuid.UUID) (APIKey, error) {
	k, err := s.q.RevokeAPIKey(ctx, s.conn, id)
	return k, notFound(err)
}

// LookupKey finds the principal of a key hash.
func (s *Store) LookupKey(ctx context.Context, hash []byte) (Principal, error) {
	p, err := s.q.GetAPIKeyPrincipal(ctx, s.conn, hash)
	return p, notFound(err)
}

// TouchAPIKey records that a key was used (at most once a minute in SQL).
func (s *Store) TouchAPIKey(ctx context.Context, id uuid.UUID) error {
	return s.q.TouchAPIKey(ctx, s.conn, id)
}
