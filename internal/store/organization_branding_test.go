package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
)

// An organization without a branding reads GeoScan's; a set one is
// replaced whole, kept apart from other organizations', and reset to
// GeoScan's again. The table refuses what the API would refuse.
func TestBranding(t *testing.T) {
	t.Parallel()
	st, ctx := txStore(t), context.Background()
	a := org(t, st, true, planlimits.Overrides{})
	b := org(t, st, true, planlimits.Overrides{})

	got, err := st.GetBranding(ctx, a.ID)
	require.NoError(t, err)
	require.Equal(t, store.DefaultBranding(a.ID), got)

	set, err := st.SetBranding(ctx, store.Branding{
		OrgID: a.ID, Name: "Acme", PrimaryColor: "#0a7c59", Logo: []byte("png"), LogoType: "image/png", Footer: "f",
	})
	require.NoError(t, err)
	require.False(t, set.UpdatedAt.IsZero())
	require.False(t, set.ShowGeoScan)
	got, err = st.GetBranding(ctx, a.ID)
	require.NoError(t, err)
	require.Equal(t, set, got)

	set, err = st.SetBranding(ctx, store.Branding{OrgID: a.ID, Name: "Acme", ShowGeoScan: true})
	require.NoError(t, err)
	require.Nil(t, set.Logo, "a set branding replaces the whole one")
	require.Empty(t, set.LogoType)

	other, err := st.GetBranding(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, store.DefaultBranding(b.ID), other)

	require.NoError(t, st.ResetBranding(ctx, a.ID))
	got, err = st.GetBranding(ctx, a.ID)
	require.NoError(t, err)
	require.Equal(t, store.DefaultBranding(a.ID), got)
}

func TestBrandingConstraints(t *testing.T) {
	t.Parallel()
	for name, br := range map[string]store.Branding{
		"colour":    {PrimaryColor: "red"},
		"logo type": {Logo: []byte("x"), LogoType: "image/gif"},
		"long name": {Name: strings.Repeat("n", 101)},
	} {
		st, ctx := txStore(t), context.Background()
		br.OrgID = org(t, st, true, planlimits.Overrides{}).ID
		_, err := st.SetBranding(ctx, br)
		require.Error(t, err, name)
	}
}
