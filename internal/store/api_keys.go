package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/geoscan/geoscan/gen/db"
)

// APIKey is an organization's key, as listings show it: its hash stays in
// the database.
type APIKey struct {
	ID            uuid.UUID
	OrgID         uuid.UUID
	MemberID      *uuid.UUID
	Name          string
	DisplayPrefix string
	CreatedAt     time.Time
	LastUsedAt    *time.Time
	RevokedAt     *time.Time
}

func apiKeyOf(r db.APIKey) APIKey {
	return APIKey{
		ID: r.ID, OrgID: r.OrgID, MemberID: r.MemberID, Name: r.Name, DisplayPrefix: r.DisplayPrefix,
		CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt, RevokedAt: r.RevokedAt,
	}
}

// Principal is what authenticating a key reads: the key and its
// organization's plan and subscription.
type Principal struct {
	KeyID              uuid.UUID
	OrgID              uuid.UUID
	MemberID           *uuid.UUID
	RevokedAt          *time.Time
	LastUsedAt         *time.Time
	Plan               string
	SubscriptionStatus SubscriptionStatus
}

func principalOf(r db.GetAPIKeyPrincipalRow) Principal {
	return Principal{
		KeyID: r.KeyID, OrgID: r.OrgID, MemberID: r.MemberID, RevokedAt: r.RevokedAt, LastUsedAt: r.LastUsedAt,
		Plan: r.Plan, SubscriptionStatus: SubscriptionStatus(r.SubscriptionStatus),
	}
}

// NewAPIKey is what creating a key stores: never the key itself (package
// auth generates it), only its hash and its display prefix.
type NewAPIKey struct {
	OrgID uuid.UUID
	// MemberID is the member the key belongs to, nil for the organization
	// alone; what the key creates is then that member's (the schedules
	// whose emails go to them).
	MemberID      *uuid.UUID
	Name          string
	Hash          []byte
	DisplayPrefix string
}

// CreateAPIKey stores a new key of an organization.
func (s *Store) CreateAPIKey(ctx context.Context, n NewAPIKey) (APIKey, error) {
	row, err := s.q.CreateAPIKey(ctx, s.conn, db.CreateAPIKeyParams{
		OrgID: n.OrgID, MemberID: n.MemberID, Name: n.Name, KeyHash: n.Hash, DisplayPrefix: n.DisplayPrefix,
	})
	if err != nil {
		return APIKey{}, fmt.Errorf("insert api key: %w", notFound(err))
	}
	return apiKeyOf(row), nil
}

// ListAPIKeys lists an organization's keys, newest first.
func (s *Store) ListAPIKeys(ctx context.Context, orgID uuid.UUID) ([]APIKey, error) {
	rows, err := s.q.ListAPIKeys(ctx, s.conn, orgID)
	return all(rows, err, apiKeyOf)
}

// GetAPIKey returns one key.
func (s *Store) GetAPIKey(ctx context.Context, id uuid.UUID) (APIKey, error) {
	k, err := s.q.GetAPIKey(ctx, s.conn, id)
	return one(k, err, apiKeyOf)
}

// RevokeAPIKey revokes a key; revoking twice keeps the first time.
func (s *Store) RevokeAPIKey(ctx context.Context, id uuid.UUID) (APIKey, error) {
	k, err := s.q.RevokeAPIKey(ctx, s.conn, id)
	return one(k, err, apiKeyOf)
}

// LookupKey finds the principal of a key hash.
func (s *Store) LookupKey(ctx context.Context, hash []byte) (Principal, error) {
	p, err := s.q.GetAPIKeyPrincipal(ctx, s.conn, hash)
	return one(p, err, principalOf)
}

// TouchAPIKey records that a key was used (at most once a minute in SQL).
func (s *Store) TouchAPIKey(ctx context.Context, id uuid.UUID) error {
	return s.q.TouchAPIKey(ctx, s.conn, id)
}

// AuthListener receives the announcements of changes that cached
// authentication depends on (a key revoked or deleted, an organization
// changed), on a connection of its own outside the pool: a pooled
// connection would be handed to other queries between waits.
type AuthListener struct {
	conn *pgx.Conn
}

// ListenAuth opens the listening connection. Notifications sent before it
// returns are not received, so a caller that caches must start afresh.
func (s *Store) ListenAuth(ctx context.Context) (*AuthListener, error) {
	cfg := s.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = AuthListenerName
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect auth listener: %w", err)
	}
	if err := s.q.ListenAuth(ctx, conn); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("listen: %w", err)
	}
	return &AuthListener{conn: conn}, nil
}

// AuthListenerName is the listening connection's application_name.
const AuthListenerName = "geoscan auth listener"

// Wait blocks until the next announcement and returns its payload:
// "key:<hex sha-256>" or "org:<uuid>".
func (l *AuthListener) Wait(ctx context.Context) (string, error) {
	n, err := l.conn.WaitForNotification(ctx)
	if err != nil {
		return "", err
	}
	return n.Payload, nil
}

// Close closes the connection.
func (l *AuthListener) Close(ctx context.Context) error { return l.conn.Close(ctx) }
