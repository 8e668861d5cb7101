package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// Branding is an organization's white-label look, as stored: the logo is
// already checked (a PNG that decoded, or a sanitised SVG).
type Branding struct {
	OrgID        uuid.UUID
	Name         string
	PrimaryColor string
	// Logo is nil when there is none; LogoType is then empty.
	Logo        []byte
	LogoType    string
	Contact     string
	Footer      string
	ShowGeoScan bool
	// UpdatedAt is zero for an organization that never set a branding.
	UpdatedAt time.Time
}

// DefaultBranding is the branding of an organization that never set one:
// GeoScan's look.
func DefaultBranding(orgID uuid.UUID) Branding {
	return Branding{OrgID: orgID, ShowGeoScan: true}
}

func toBranding(r db.OrganizationBranding) Branding {
	return Branding{
		OrgID: r.OrgID, Name: r.Name, PrimaryColor: r.PrimaryColor, Logo: r.Logo, LogoType: r.LogoType,
		Contact: r.Contact, Footer: r.Footer, ShowGeoScan: r.ShowGeoscan, UpdatedAt: r.UpdatedAt,
	}
}

// GetBranding returns the organization's branding, DefaultBranding when it
// never set one.
func (s *Store) GetBranding(ctx context.Context, orgID uuid.UUID) (Branding, error) {
	r, err := s.q.GetOrganizationBranding(ctx, s.conn, orgID)
	b, err := one(r, err, toBranding)
	if errors.Is(err, ErrNotFound) {
		return DefaultBranding(orgID), nil
	}
	return b, err
}

// SetBranding replaces the organization's branding.
func (s *Store) SetBranding(ctx context.Context, b Branding) (Branding, error) {
	if len(b.Logo) == 0 {
		b.Logo, b.LogoType = nil, ""
	}
	r, err := s.q.UpsertOrganizationBranding(ctx, s.conn, db.UpsertOrganizationBrandingParams{
		OrgID: b.OrgID, Name: b.Name, PrimaryColor: b.PrimaryColor, Logo: b.Logo, LogoType: b.LogoType,
		Contact: b.Contact, Footer: b.Footer, ShowGeoscan: b.ShowGeoScan,
	})
	if err != nil {
		return Branding{}, fmt.Errorf("upsert branding: %w", err)
	}
	return toBranding(r), nil
}

// ResetBranding gives the organization GeoScan's look again.
func (s *Store) ResetBranding(ctx context.Context, orgID uuid.UUID) error {
	if _, err := s.q.DeleteOrganizationBranding(ctx, s.conn, orgID); err != nil {
		return fmt.Errorf("delete branding: %w", err)
	}
	return nil
}
