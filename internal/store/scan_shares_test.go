package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestShareTokens(t *testing.T) {
	t.Parallel()
	a, hashA, err := store.NewShareToken()
	require.NoError(t, err)
	b, _, err := store.NewShareToken()
	require.NoError(t, err)
	require.NotEqual(t, a, b)
	require.Len(t, a, store.ShareTokenLen)
	require.Equal(t, hashA, store.HashShareToken(a))
	require.True(t, store.WellFormedShareToken(a))
	for _, bad := range []string{"", "gss_", a[:len(a)-1], "geo_" + a[4:], a[:10] + "!" + a[11:]} {
		require.False(t, store.WellFormedShareToken(bad), bad)
	}
}

func TestShareLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tx := pgtest.Tx(t)
	st := store.New(pgtest.Pool(t)).WithTx(tx)
	o := org(t, st, true, planlimits.Overrides{})

	// Three completed scans of one URL a day apart, and one of another URL.
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	complete := func(url string, day int, overall float64) uuid.UUID {
		n := newScan(o)
		n.URL = url
		s, err := st.CreateScan(ctx, n, time.Now())
		require.NoError(t, err)
		_, err = tx.Exec(ctx, `UPDATE scans SET status = 'completed', completed_at = $2, overall_score = $3,
			search_score = 50, visibility_score = 60, trust_score = 70 WHERE id = $1`, s.ID, base.AddDate(0, 0, day), overall)
		require.NoError(t, err)
		return s.ID
	}
	first := complete("https://example.com/", 0, 50.5)
	second := complete("https://example.com/", 1, 60)
	third := complete("https://example.com/", 2, 70)
	complete("https://example.org/", 1, 90)

	history, err := st.ScoreHistory(ctx, o.ID, "https://example.com/", base.AddDate(0, 0, 1), 10)
	require.NoError(t, err)
	require.Len(t, history, 2, "scans completed after the shared one are not its history")
	require.Equal(t, []uuid.UUID{first, second}, []uuid.UUID{history[0].ScanID, history[1].ScanID}, "oldest first")
	require.InDelta(t, 50.5, history[0].Overall, 0.01)
	require.Equal(t, 60, history[1].Visibility)
	latest, err := st.ScoreHistory(ctx, o.ID, "https://example.com/", base.AddDate(0, 0, 5), 2)
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{second, third}, []uuid.UUID{latest[0].ScanID, latest[1].ScanID}, "the most recent ones when limited")
	other, err := st.ScoreHistory(ctx, uuid.New(), "https://example.com/", base.AddDate(0, 0, 5), 10)
	require.NoError(t, err)
	require.Empty(t, other, "another organization's scans are not history")

	link, token, err := st.IssueShareLink(ctx, store.NewShareLink{OrgID: o.ID, ScanID: third, Audience: "engineering", Language: "fr", ExpiresAt: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	found, err := st.LookupShareLink(ctx, token)
	require.NoError(t, err)
	require.Equal(t, link.ID, found.ID)
	require.True(t, found.Live(time.Now()))
	require.False(t, found.Live(time.Now().Add(2*time.Hour)), "expired")
	other2, _, err := store.NewShareToken()
	require.NoError(t, err)
	_, err = st.LookupShareLink(ctx, other2)
	require.ErrorIs(t, err, store.ErrNotFound)

	_, err = st.RevokeShareLink(ctx, o.ID, second, link.ID)
	require.ErrorIs(t, err, store.ErrNotFound, "a link of another scan")
	_, err = st.RevokeShareLink(ctx, uuid.New(), third, link.ID)
	require.ErrorIs(t, err, store.ErrNotFound, "another organization")
	revoked, err := st.RevokeShareLink(ctx, o.ID, third, link.ID)
	require.NoError(t, err)
	require.NotNil(t, revoked.RevokedAt)
	require.False(t, revoked.Live(time.Now()))
	again, err := st.RevokeShareLink(ctx, o.ID, third, link.ID)
	require.NoError(t, err)
	require.True(t, revoked.RevokedAt.Equal(*again.RevokedAt), "the first revocation stays")

	_, err = tx.Exec(ctx, `DELETE FROM scans WHERE id = $1`, third)
	require.NoError(t, err)
	_, err = st.LookupShareLink(ctx, token)
	require.ErrorIs(t, err, store.ErrNotFound, "the links go with their scan")
}
