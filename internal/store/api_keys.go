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

// Listener receives the announcements of one PostgreSQL channel on a
// connection of its own outside the pool: a pooled connection would be
// handed to other queries between waits.
type Listener struct {
	conn *pgx.Conn
}

// ListenAuth opens the connection that receives the announcements of
// changes cached authentication depends on (a key revoked or deleted, an
// organization changed). Notifications sent before it returns are not
// received, so a caller that caches must start afresh.
func (s *Store) ListenAuth(ctx context.Context) (*Listener, error) {
	return s.listen(ctx, AuthListenerName, s.q.ListenAuth)
}

// AuthListenerName is the auth listening connection's application_name.
const AuthListenerName = "geoscan auth listener"

func (s *Store) listen(ctx context.Context, name string, subscribe func(context.Context, db.DBTX) error) (*Listener, error) {
	cfg := s.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = name
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", name, err)
	}
	if err := subscribe(ctx, conn); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("listen: %w", err)
	}
	return &Listener{conn: conn}, nil
}

// Wait blocks until the next announcement and returns its payload.
func (l *Listener) Wait(ctx context.Context) (string, error) {
	n, err := l.conn.WaitForNotification(ctx)
	if err != nil {
		return "", err
	}
	return n.Payload, nil
}

// Close closes the connection.
func (l *Listener) Close(ctx context.Context) error { return l.conn.Close(ctx) }
