package api

import (
	"context"
	"errors"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/branding"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
	"github.com/geoscan/geoscan/internal/web/auth"
)

// GetBranding returns the organization's branding, GeoScan's look when it
// never set one.
func (s *Server) GetBranding(ctx context.Context, _ api.GetBrandingRequestObject) (api.GetBrandingResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	b, err := s.d.Store.GetBranding(ctx, p.OrgID)
	if err != nil {
		return nil, err
	}
	return api.GetBranding200JSONResponse{Body: toAPIBranding(b)}, nil
}

// SetBranding replaces the organization's branding; a field left out takes
// its default.
func (s *Server) SetBranding(ctx context.Context, req api.SetBrandingRequestObject) (api.SetBrandingResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.requireOwner(ctx, p); err != nil {
		return nil, err
	}
	body := req.Body
	in := branding.Input{
		Name: orEmpty(body.Name), PrimaryColor: orEmpty(body.PrimaryColor), Logo: orEmpty(body.Logo),
		Contact: orEmpty(body.Contact), Footer: orEmpty(body.Footer), ShowGeoScan: body.ShowGeoscan == nil || *body.ShowGeoscan,
	}
	b, err := branding.Check(p.OrgID, in)
	var fe *branding.FieldError
	if errors.As(err, &fe) {
		return nil, apierror.New(apierror.CodeInvalidParameter, fe.Param, "%s", fe.Message)
	}
	if err != nil {
		return nil, err
	}
	if b, err = s.d.Store.SetBranding(ctx, b); err != nil {
		return nil, err
	}
	return api.SetBranding200JSONResponse{Body: toAPIBranding(b)}, nil
}

// ResetBranding gives the organization GeoScan's look again.
func (s *Server) ResetBranding(ctx context.Context, _ api.ResetBrandingRequestObject) (api.ResetBrandingResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.requireOwner(ctx, p); err != nil {
		return nil, err
	}
	if err := s.d.Store.ResetBranding(ctx, p.OrgID); err != nil {
		return nil, err
	}
	return api.ResetBranding204Response{}, nil
}

// requireOwner lets a member's key through only when the member is an
// owner. The organization's own keys (no member) are issued by the
// operator for the organization as a whole and always pass.
func (s *Server) requireOwner(ctx context.Context, p auth.Principal) error {
	if p.MemberID == nil {
		return nil
	}
	m, err := s.d.Store.GetMember(ctx, *p.MemberID)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	case m.OrgID == p.OrgID && m.Role == store.RoleOwner:
		return nil
	}
	return apierror.New(apierror.CodeOwnerRequired, "", "Only an owner of the organization may change its branding; this key belongs to a member who is not one.")
}

func toAPIBranding(b store.Branding) api.Branding {
	out := api.Branding{
		Name: nonEmpty(b.Name), PrimaryColor: nonEmpty(b.PrimaryColor), Logo: nonEmpty(branding.DataURI(b.Logo, b.LogoType)),
		Contact: nonEmpty(b.Contact), Footer: nonEmpty(b.Footer), ShowGeoscan: b.ShowGeoScan,
	}
	if !b.UpdatedAt.IsZero() {
		t := b.UpdatedAt
		out.UpdatedAt = &t
	}
	return out
}

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
