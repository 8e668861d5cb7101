package pgcluster

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

func TestClusterLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(EnterableTempDir(t), "pg")

	c, err := Start(ctx, Options{Dir: dir})
	require.NoError(t, err)
	require.NoError(t, c.EnsureDatabase(ctx, "app"))
	require.NoError(t, c.EnsureDatabase(ctx, "app"), "ensuring twice is fine")
	conn, err := pgx.Connect(ctx, c.URL("app"))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, "CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)")
	require.NoError(t, err)
	require.NoError(t, conn.Close(ctx))
	require.NoError(t, c.Stop(ctx))

	// The same directory is reused: no initdb, data kept.
	c, err = Start(ctx, Options{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	conn, err = pgx.Connect(ctx, c.URL("app"))
	require.NoError(t, err)
	var v int
	require.NoError(t, conn.QueryRow(ctx, "SELECT v FROM kept").Scan(&v))
	require.Equal(t, 42, v)
	require.NoError(t, conn.Close(ctx))
}

func TestEphemeralClusterIsRemoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := StartEphemeral(ctx, nil)
	require.NoError(t, err)
	dir := c.Dir()
	require.FileExists(t, filepath.Join(dir, "PG_VERSION"))
	require.NoError(t, c.Stop(ctx))
	require.NoError(t, c.Remove())
	require.NoDirExists(t, filepath.Dir(dir))
}

func TestMissingBinariesSayHowToInstall(t *testing.T) {
	t.Parallel()
	empty := ""
	_, err := Start(context.Background(), Options{Dir: t.TempDir(), searchPath: &empty, searchGlob: filepath.Join(t.TempDir(), "none", "*", "bin")})
	require.EqualError(t, err, InstallHint)
	require.Contains(t, err.Error(), "apt-get install")
}
