package httpserver

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/dbmigrate"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/web/auth"
)

// newKey issues and stores a key of org.
func newKey(t *testing.T, st *store.Store, org uuid.UUID) (string, store.APIKey) {
	t.Helper()
	k, err := auth.Issue()
	require.NoError(t, err)
	row, err := st.CreateAPIKey(context.Background(), store.NewAPIKey{OrgID: org, Hash: k.Hash, DisplayPrefix: k.Display})
	require.NoError(t, err)
	return k.Key, row
}

func runCache(t *testing.T, st *store.Store) *AuthCache {
	t.Helper()
	c := NewAuthCache(st, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	poll.Until(t, 5*time.Second, "the cache to listen", c.Live)
	return c
}

// A verified key is served from the cache (a change that is not announced,
// its last use, is not seen), a revoked key is dropped as soon as the
// revocation is announced, and a listener that lost its connection starts
// over with an empty cache.
func TestAuthCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t)
	require.NoError(t, dbmigrate.Up(ctx, pool))
	st := store.New(pool)
	c := runCache(t, st)
	org, err := st.CreateOrganization(ctx, "cache", "free", true)
	require.NoError(t, err)
	key, row := newKey(t, st, org.ID)
	hash := auth.HashKey(key)

	p, err := c.lookupKey(ctx, hash)
	require.NoError(t, err)
	require.Equal(t, row.ID, p.KeyID)
	require.Nil(t, p.LastUsedAt)
	_, err = pool.Exec(ctx, "UPDATE api_keys SET last_used_at = now() WHERE id = $1", row.ID)
	require.NoError(t, err)
	p, err = c.lookupKey(ctx, hash)
	require.NoError(t, err)
	require.Nil(t, p.LastUsedAt, "the second lookup should come from the cache")

	// The organization's limits are cached too, and an announced change
	// replaces them.
	l, err := c.limits(ctx, org.ID)
	require.NoError(t, err)
	require.Equal(t, 10, l.WritePerMinute)
	_, err = pool.Exec(ctx, "UPDATE organizations SET rate_limit_write_override = 3 WHERE id = $1", org.ID)
	require.NoError(t, err)
	poll.Until(t, 5*time.Second, "the change to reach the cache", func() bool {
		l, err := c.limits(ctx, org.ID)
		return err == nil && l.WritePerMinute == 3
	})

	// Revoked: the announcement drops the entry, and the database says so.
	_, err = st.RevokeAPIKey(ctx, row.ID)
	require.NoError(t, err)
	poll.Until(t, 5*time.Second, "the change to reach the cache", func() bool {
		p, err := c.lookupKey(ctx, hash)
		return err == nil && p.RevokedAt != nil
	})

	// Deleted: the same.
	key2, row2 := newKey(t, st, org.ID)
	_, err = c.lookupKey(ctx, auth.HashKey(key2))
	require.NoError(t, err)
	_, err = pool.Exec(ctx, "DELETE FROM api_keys WHERE id = $1", row2.ID)
	require.NoError(t, err)
	poll.Until(t, 5*time.Second, "the change to reach the cache", func() bool {
		_, err := c.lookupKey(ctx, auth.HashKey(key2))
		return err != nil
	})
	require.ErrorIs(t, func() error { _, err := c.lookupKey(ctx, auth.HashKey(key2)); return err }(), store.ErrNotFound)

	// The listener's connection is cut, and a key is revoked while the
	// announcement may be lost: the reconnected cache starts empty, so the
	// revocation is seen all the same.
	key3, row3 := newKey(t, st, org.ID)
	_, err = c.lookupKey(ctx, auth.HashKey(key3))
	require.NoError(t, err)
	var cut int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = $1 AND datname = current_database()`, store.AuthListenerName).Scan(&cut))
	require.Positive(t, cut)
	_, err = pool.Exec(ctx, "UPDATE api_keys SET revoked_at = now() WHERE id = $1", row3.ID)
	require.NoError(t, err)
	poll.Until(t, 5*time.Second, "the change to reach the cache", func() bool {
		p, err := c.lookupKey(ctx, auth.HashKey(key3))
		return err == nil && p.RevokedAt != nil
	})
	poll.Until(t, 5*time.Second, "the cache to listen", c.Live)
}
