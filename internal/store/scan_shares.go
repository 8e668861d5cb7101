package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// ShareTokenPrefix starts every share link's token, so a token pasted
// somewhere it does not belong is recognisable (and redactable) as one.
const ShareTokenPrefix = "gss_"

// shareTokenBytes is the token's randomness: 256 bits, so a fast hash is
// enough to store it, as for API keys.
const shareTokenBytes = 32

// ShareTokenLen is the length of a whole token: the prefix and the
// unpadded base64url of 32 bytes.
var ShareTokenLen = len(ShareTokenPrefix) + base64.RawURLEncoding.EncodedLen(shareTokenBytes)

// The token is made here rather than in the shell because both the API and
// the scheduled emails create links, and the store is the lowest layer both
// reach; what is kept of it is only its hash.

// NewShareToken returns a fresh token and the hash that is stored of it.
func NewShareToken() (token string, hash []byte, err error) {
	b := make([]byte, shareTokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", nil, fmt.Errorf("generate share token: %w", err)
	}
	token = ShareTokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, HashShareToken(token), nil
}

// HashShareToken is the SHA-256 of the whole token.
func HashShareToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// WellFormedShareToken reports whether token can be one NewShareToken
// made, so a made-up one is refused without a query.
func WellFormedShareToken(token string) bool {
	if len(token) != ShareTokenLen || !strings.HasPrefix(token, ShareTokenPrefix) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(token[len(ShareTokenPrefix):])
	return err == nil
}

// SharePath is where the public links are served, outside /api/v1.
const SharePath = "/r/"

// ShareURL is the public link of a token under the service's public URL.
func ShareURL(publicURL, token string) string {
	return strings.TrimRight(publicURL, "/") + SharePath + token
}

// ShareLink is a link to a completed scan's report that needs no API key:
// its token is shown once, when it is created, and only its hash is kept.
type ShareLink struct {
	ID        uuid.UUID
	OrgID     uuid.UUID
	ScanID    uuid.UUID
	Audience  string
	Language  string
	Label     *string
	ExpiresAt time.Time
	RevokedAt *time.Time
	CreatedAt time.Time
}

func shareLinkOf(r db.ScanShare) ShareLink {
	return ShareLink{
		ID: r.ID, OrgID: r.OrgID, ScanID: r.ScanID, Audience: r.Audience, Language: r.Language, Label: r.Label,
		ExpiresAt: r.ExpiresAt, RevokedAt: r.RevokedAt, CreatedAt: r.CreatedAt,
	}
}

// Cursor is the link's place in a list.
func (l ShareLink) Cursor() Cursor { return Cursor{CreatedAt: l.CreatedAt, ID: l.ID} }

// Live reports whether the link still opens its report at now.
func (l ShareLink) Live(now time.Time) bool { return l.RevokedAt == nil && now.Before(l.ExpiresAt) }

// NewShareLink is what creating a link stores: the token's hash, never the
// token.
type NewShareLink struct {
	OrgID     uuid.UUID
	ScanID    uuid.UUID
	TokenHash []byte
	Audience  string
	Language  string
	Label     *string
	ExpiresAt time.Time
}

// CreateShareLink stores a new link of a scan. The caller has checked that
// the scan is the organization's and completed.
func (s *Store) CreateShareLink(ctx context.Context, n NewShareLink) (ShareLink, error) {
	row, err := s.q.CreateScanShare(ctx, s.conn, db.CreateScanShareParams{
		OrgID: n.OrgID, ScanID: n.ScanID, TokenHash: n.TokenHash, Audience: n.Audience, Language: n.Language,
		Label: n.Label, ExpiresAt: n.ExpiresAt,
	})
	if err != nil {
		return ShareLink{}, fmt.Errorf("insert share link: %w", notFound(err))
	}
	return shareLinkOf(row), nil
}

// IssueShareLink makes a token and stores a link of it (n.TokenHash is
// set here); it returns the link and the token, which is kept nowhere.
func (s *Store) IssueShareLink(ctx context.Context, n NewShareLink) (ShareLink, string, error) {
	token, hash, err := NewShareToken()
	if err != nil {
		return ShareLink{}, "", err
	}
	n.TokenHash = hash
	link, err := s.CreateShareLink(ctx, n)
	if err != nil {
		return ShareLink{}, "", err
	}
	return link, token, nil
}

// ListShareLinks pages through a scan's links, revoked and expired ones
// included, newest first.
func (s *Store) ListShareLinks(ctx context.Context, orgID, scanID uuid.UUID, after *Cursor, limit int) ([]ShareLink, error) {
	p := db.ListScanSharesParams{OrgID: orgID, ScanID: scanID, RowLimit: int32(min(limit, 1000))} //nolint:gosec // bounded
	if after != nil {
		p.CursorCreatedAt, p.CursorID = &after.CreatedAt, &after.ID
	}
	rows, err := s.q.ListScanShares(ctx, s.conn, p)
	return all(rows, err, shareLinkOf)
}

// RevokeShareLink revokes a link of the organization's scan at once; a
// link revoked before keeps its first revocation time. ErrNotFound means no
// such link of that scan in the organization.
func (s *Store) RevokeShareLink(ctx context.Context, orgID, scanID, id uuid.UUID) (ShareLink, error) {
	row, err := s.q.RevokeScanShare(ctx, s.conn, db.RevokeScanShareParams{ID: id, ScanID: scanID, OrgID: orgID})
	return one(row, err, shareLinkOf)
}

// LookupShareLink finds the link of a token: one probe by the token's
// hash, then the hashes compared in constant time, as the public route
// must not answer faster for a near miss. ErrNotFound means no link has
// it; the caller judges revocation and expiry (Live).
func (s *Store) LookupShareLink(ctx context.Context, token string) (ShareLink, error) {
	hash := HashShareToken(token)
	row, err := s.q.GetScanShareByHash(ctx, s.conn, hash)
	if err != nil {
		return ShareLink{}, notFound(err)
	}
	if subtle.ConstantTimeCompare(row.TokenHash, hash) != 1 {
		return ShareLink{}, ErrNotFound
	}
	return shareLinkOf(row), nil
}

// SetShareLinkExpiry moves a link's expiry; the link's owner cannot, it is
// for tests and operators.
func (s *Store) SetShareLinkExpiry(ctx context.Context, id uuid.UUID, expiresAt time.Time) error {
	return s.q.SetScanShareExpiry(ctx, s.conn, db.SetScanShareExpiryParams{ID: id, ExpiresAt: expiresAt})
}

// ScorePoint is one completed scan's scores, for a shared report's trend.
type ScorePoint struct {
	ScanID                    uuid.UUID
	CompletedAt               time.Time
	Overall                   float64
	Search, Visibility, Trust int
}

// ScoreHistory returns the organization's completed scans of url that
// finished no later than until, at most limit of them, oldest first.
func (s *Store) ScoreHistory(ctx context.Context, orgID uuid.UUID, url string, until time.Time, limit int) ([]ScorePoint, error) {
	rows, err := s.q.CompletedScansOfURL(ctx, s.conn, db.CompletedScansOfURLParams{
		OrgID: orgID, URL: url, Until: &until, RowLimit: int32(min(limit, 1000)), //nolint:gosec // bounded
	})
	if err != nil {
		return nil, fmt.Errorf("read score history: %w", err)
	}
	out := make([]ScorePoint, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		p := ScorePoint{ScanID: r.ID}
		if r.CompletedAt != nil {
			p.CompletedAt = *r.CompletedAt
		}
		if r.OverallScore != nil {
			p.Overall = *r.OverallScore
		}
		p.Search, p.Visibility, p.Trust = intOr0(r.SearchScore), intOr0(r.VisibilityScore), intOr0(r.TrustScore)
		out = append(out, p)
	}
	return out, nil
}

func intOr0(v *int32) int {
	if v == nil {
		return 0
	}
	return int(*v)
}

// DeleteExpiredShareLinks deletes at most limit links that expired before
// before; it returns how many it deleted.
func (s *Store) DeleteExpiredShareLinks(ctx context.Context, before time.Time, limit int) (int64, error) {
	n, err := s.q.DeleteExpiredScanShares(ctx, s.conn, db.DeleteExpiredScanSharesParams{Before: before, RowLimit: int32(min(limit, 100000))}) //nolint:gosec // bounded
	if err != nil {
		return 0, fmt.Errorf("delete expired share links: %w", err)
	}
	return n, nil
}
