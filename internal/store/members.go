package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/geoscan/geoscan/gen/db"
)

// Member roles.
const (
	RoleOwner  = "owner"
	RoleMember = "member"
)

// Member is a person of an organization.
type Member struct {
	ID        uuid.UUID
	OrgID     uuid.UUID
	Email     string
	Name      string
	Role      string
	CreatedAt time.Time
}

func toMember(m db.Member) Member {
	return Member{ID: m.ID, OrgID: m.OrgID, Email: m.Email, Name: m.Name, Role: m.Role, CreatedAt: m.CreatedAt}
}

// CreateMember adds a member; ErrConflict when the organization already has
// one with that email (compared case-insensitively).
func (s *Store) CreateMember(ctx context.Context, orgID uuid.UUID, email, name, role string) (Member, error) {
	m, err := s.q.CreateMember(ctx, s.conn, db.CreateMemberParams{OrgID: orgID, Email: email, Name: name, Role: role})
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23505":
		return Member{}, ErrConflict
	case errors.As(err, &pgErr) && pgErr.Code == "23503":
		return Member{}, ErrNotFound
	case err != nil:
		return Member{}, fmt.Errorf("insert member: %w", err)
	}
	return toMember(m), nil
}

// GetMember returns one member.
func (s *Store) GetMember(ctx context.Context, id uuid.UUID) (Member, error) {
	m, err := s.q.GetMember(ctx, s.conn, id)
	return one(m, err, toMember)
}

// GetMemberByEmail returns the organization's member with that email.
func (s *Store) GetMemberByEmail(ctx context.Context, orgID uuid.UUID, email string) (Member, error) {
	m, err := s.q.GetMemberByEmail(ctx, s.conn, db.GetMemberByEmailParams{OrgID: orgID, Email: email})
	return one(m, err, toMember)
}

// GetOwnerMember returns the organization's first owner.
func (s *Store) GetOwnerMember(ctx context.Context, orgID uuid.UUID) (Member, error) {
	m, err := s.q.GetOwnerMember(ctx, s.conn, orgID)
	return one(m, err, toMember)
}

// ListMembers lists an organization's members, oldest first.
func (s *Store) ListMembers(ctx context.Context, orgID uuid.UUID) ([]Member, error) {
	rows, err := s.q.ListMembers(ctx, s.conn, orgID)
	return all(rows, err, toMember)
}
