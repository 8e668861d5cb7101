package retention_test

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/apitest"
	"github.com/geoscan/geoscan/internal/pgtest"
	"github.com/geoscan/geoscan/internal/retention"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/wait"
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
	wait.Until(t, time.Minute, "the retention job to delete the expired key", func() bool {
		return len(keysOf(t, st, org.ID)) == 0
	})
}
