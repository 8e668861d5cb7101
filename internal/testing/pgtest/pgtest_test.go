package pgtest

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store/dbmigrate"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestPackageDatabaseIsFreshAndMigrated(t *testing.T) {
	t.Parallel()
	pool := Pool(t)
	ctx := context.Background()

	var name string
	require.NoError(t, pool.QueryRow(ctx, "SELECT current_database()").Scan(&name))
	require.True(t, strings.HasPrefix(name, "geoscan_test_pgtest_"), name)
	require.Contains(t, URL(), "/"+name)

	for _, table := range []string{"organizations", "scans", "schedules", "river_job"} {
		var exists bool
		require.NoError(t, pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", table).Scan(&exists))
		require.True(t, exists, table)
	}
	var n int
	require.NoError(t, pool.QueryRow(ctx, "SELECT count(*) FROM organizations").Scan(&n))
	require.Zero(t, n, "a fresh database has no rows")
}

func TestTemplateIsSealed(t *testing.T) {
	t.Parallel()
	fp, err := dbmigrate.Fingerprint()
	require.NoError(t, err)
	var isTemplate, allowConn bool
	require.NoError(t, Pool(t).QueryRow(context.Background(),
		"SELECT datistemplate, datallowconn FROM pg_database WHERE datname = $1", "geoscan_tmpl_"+fp).Scan(&isTemplate, &allowConn))
	require.True(t, isTemplate)
	require.False(t, allowConn, "a template nobody can connect to can always be cloned")
}

func TestPackageDBName(t *testing.T) {
	t.Parallel()
	for binary, want := range map[string]string{
		"/tmp/go-build1/b001/api.test":       "geoscan_test_api_0123abcd",
		"httpserver.test.exe":                "geoscan_test_httpserver_0123abcd",
		"My-Package.v2.test":                 "geoscan_test_my_package_v2_0123abcd",
		"---.test":                           "geoscan_test_pkg_0123abcd",
		strings.Repeat("long", 30) + ".test": "geoscan_test_" + strings.Repeat("long", 30)[:41] + "_0123abcd",
	} {
		got := packageDBName(binary, "0123abcd")
		require.Equal(t, want, got, binary)
		require.LessOrEqual(t, len(got), 63, binary)
	}
}

func TestWithDatabase(t *testing.T) {
	t.Parallel()
	require.Equal(t, "postgres://u:p@h:5/db2?sslmode=disable", withDatabase("postgres://u:p@h:5/postgres?sslmode=disable", "db2"))
	require.Equal(t, "host=h user=u dbname=postgres dbname=db2", withDatabase("host=h user=u dbname=postgres", "db2"))
}
