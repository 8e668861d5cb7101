package retention_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/retention"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// putKey stores an idempotency key of org that expires after ttl (before
// now when ttl is negative).
func putKey(t *testing.T, st *store.Store, org uuid.UUID, key string, ttl time.Duration) {
	t.Helper()
	_, err := st.Pool().Exec(context.Background(), `INSERT INTO idempotency_keys
		(org_id, operation, key, request_hash, response_status, response_body, expires_at)
		VALUES ($1, 'createScan', $2, '\x00', 201, '{}', now() + make_interval(secs => $3))`, org, key, ttl.Seconds())
	require.NoError(t, err)
}

func keysOf(t *testing.T, st *store.Store, org uuid.UUID) []string {
	t.Helper()
	rows, err := st.Pool().Query(context.Background(), "SELECT key FROM idempotency_keys WHERE org_id = $1 ORDER BY key", org)
	require.NoError(t, err)
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(t, err)
	return keys
}

func TestSweepDeletesOnlyExpiredIdempotencyKeys(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	org, err := st.CreateOrganization(ctx, "retention", "free", true)
	require.NoError(t, err)
	putKey(t, st, org.ID, "expired", -time.Minute)
	putKey(t, st, org.ID, "live", time.Hour)

	w := &retention.Worker{Store: st, Logger: slog.New(slog.DiscardHandler)}
	require.NoError(t, w.Work(ctx, &river.Job[retention.Args]{}))
	require.Equal(t, []string{"live"}, keysOf(t, st, org.ID), "the expired key is gone, the live one is still replayed")
}

// The worker role runs the sweeps when it starts, through the queue.
func TestWorkerRoleRunsTheSweeps(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	org, err := st.CreateOrganization(ctx, "retention-at-start", "free", true)
	require.NoError(t, err)
	putKey(t, st, org.ID, "expired", -time.Minute)

	apitest.Start(t, pgtest.URL(), apitest.Options{Getenv: map[string]string{"GEOSCAN_ROLE": "all"}})
	poll.Until(t, time.Minute, "the retention job to delete the expired key", func() bool {
		return len(keysOf(t, st, org.ID)) == 0
	})
}

func TestSweepDeletesOnlyExpiredRateLimitBuckets(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	l := ratelimit.NewPostgres(st)
	live := "test:" + uuid.NewString()
	_, err := l.Allow(ctx, live, ratelimit.PerMinute(5))
	require.NoError(t, err)
	// More expired buckets than one batch holds: the run takes several.
	prefix := "test:" + uuid.NewString() + ":"
	_, err = pool.Exec(ctx, `INSERT INTO rate_limits (bucket, tat, allowed)
		SELECT $1 || i, now() - interval '1 second', true FROM generate_series(1, 2500) i`, prefix)
	require.NoError(t, err)

	w := &retention.Worker{Store: st, Logger: slog.New(slog.DiscardHandler)}
	require.NoError(t, w.Work(ctx, &river.Job[retention.Args]{}))
	var expired, kept int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM rate_limits WHERE bucket LIKE $1 || '%'", prefix).Scan(&expired))
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM rate_limits WHERE bucket = $1", live).Scan(&kept))
	require.Zero(t, expired)
	require.Equal(t, 1, kept, "a bucket still refilling is kept")

	// A deleted bucket is a whole allowance, as it was before the sweep.
	res, err := l.Allow(ctx, prefix+"1", ratelimit.PerMinute(5))
	require.NoError(t, err)
	require.Equal(t, 4, res.Remaining)
}

func TestSweepDeletesOldSnapshotsAndKeepsTheirScans(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "snapshots", "pro", true)
	require.NoError(t, err)
	scan := func() uuid.UUID {
		s, err := st.CreateScan(ctx, store.NewScan{OrgID: org.ID, Source: store.SourceAPI, URL: "https://example.com/", Domain: "example.com", BrandName: "example"}, time.Now())
		require.NoError(t, err)
		require.NoError(t, st.PutSnapshot(ctx, s.ID, 1, []byte("pages")))
		require.NoError(t, st.PutTriage(ctx, s.ID, store.TriageDoc{SchemaVersion: "test", Body: map[string]any{"kept": true}}))
		return s.ID
	}
	old, edge, recent := scan(), scan(), scan()
	now := time.Now()
	for id, age := range map[uuid.UUID]time.Duration{old: 120 * 24 * time.Hour, edge: 89 * 24 * time.Hour, recent: time.Hour} {
		_, err := pool.Exec(ctx, "UPDATE scan_snapshots SET created_at = $2 WHERE scan_id = $1", id, now.Add(-age))
		require.NoError(t, err)
	}
	has := func(id uuid.UUID) bool {
		_, err := st.GetSnapshot(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return false
		}
		require.NoError(t, err)
		return true
	}

	// No retention configured: everything stays.
	w := &retention.Worker{Store: st, Logger: slog.New(slog.DiscardHandler), NowFunc: func() time.Time { return now }}
	require.NoError(t, w.Work(ctx, &river.Job[retention.Args]{}))
	require.True(t, has(old))

	w.SnapshotRetention = 90 * 24 * time.Hour
	require.NoError(t, w.Work(ctx, &river.Job[retention.Args]{}))
	require.False(t, has(old), "older than the retention")
	require.True(t, has(edge))
	require.True(t, has(recent))
	for _, id := range []uuid.UUID{old, edge, recent} {
		_, err := st.GetScan(ctx, org.ID, id)
		require.NoError(t, err, "the scan stays")
		_, err = st.GetTriage(ctx, id)
		require.NoError(t, err, "the dossier stays")
	}
}

// Share links stay listed, and their page says they expired, for
// ShareLinkGrace after they expire; then they are deleted.
func TestSweepDeletesShareLinksLongExpired(t *testing.T) {
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	org, err := st.CreateOrganization(ctx, "retention shares", "free", true)
	require.NoError(t, err)
	scan, err := st.CreateScan(ctx, store.NewScan{OrgID: org.ID, Source: store.SourceAPI, URL: "https://example.com/", Domain: "example.com", BrandName: "example"}, time.Now())
	require.NoError(t, err)
	link := func(expires time.Time) uuid.UUID {
		l, _, err := st.IssueShareLink(ctx, store.NewShareLink{OrgID: org.ID, ScanID: scan.ID, Audience: "marketing", Language: "en", ExpiresAt: expires})
		require.NoError(t, err)
		return l.ID
	}
	now := time.Now()
	old := link(now.Add(-retention.ShareLinkGrace - time.Hour))
	recent := link(now.Add(-retention.ShareLinkGrace + time.Hour))
	live := link(now.Add(time.Hour))

	w := &retention.Worker{Store: st, Logger: slog.New(slog.DiscardHandler)}
	require.NoError(t, w.Work(ctx, &river.Job[retention.Args]{}))
	links, err := st.ListShareLinks(ctx, org.ID, scan.ID, nil, 10)
	require.NoError(t, err)
	var left []uuid.UUID
	for _, l := range links {
		left = append(left, l.ID)
	}
	require.ElementsMatch(t, []uuid.UUID{recent, live}, left)
	require.NotContains(t, left, old)
}
