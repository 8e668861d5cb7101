package auth

import (
	"context"

	"github.com/google/uuid"
)

// Principal is the authenticated caller of a request.
type Principal struct {
	KeyID    uuid.UUID
	OrgID    uuid.UUID
	MemberID *uuid.UUID
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller of the request, and false when the
// request was not authenticated (a wiring mistake on a secured route).
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
