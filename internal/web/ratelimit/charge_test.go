package ratelimit_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

// Charge calls the function the request's context carries, with the
// class asked for, and passes its refusal on; without one (rate limits
// off) everything is allowed.
func TestCharge(t *testing.T) {
	t.Parallel()
	require.NoError(t, ratelimit.Charge(context.Background(), ratelimit.GroupRender))

	refused := errors.New("refused")
	var charged []ratelimit.Group
	ctx := ratelimit.WithCharge(context.Background(), func(_ context.Context, g ratelimit.Group) error {
		charged = append(charged, g)
		return refused
	})
	require.ErrorIs(t, ratelimit.Charge(ctx, ratelimit.GroupRender), refused)
	require.Equal(t, []ratelimit.Group{ratelimit.GroupRender}, charged)
}
