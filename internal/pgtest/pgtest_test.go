package pgtest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestPackageDatabaseIsFreshAndMigrated(t *testing.T) {
	t.Parallel()
	pool := Pool(t)
	ctx := context.Background()

	var name string
	require.NoError(t, pool.QueryRow(ctx, "SELECT current_database()").Scan(&name))
	require.True(t, strings.HasPrefix(name, "geoscan_test_pgtest_"), name)

	for _, table := range []string{"organizations", "scans", "schedules", "river_job"} {
		var exists bool
		require.NoError(t, pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", table).Scan(&exists))
		require.True(t, exists, table)
	}
	var n int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM organizations").Scan(&n))
	require.Zero(t, n, "a fresh database has no rows")
}
