package pgcluster

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/poll"
)

func TestEphemeralClusterRestartsWithItsData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	c, err := StartEphemeral(ctx, t.Logf)
	require.NoError(t, err)
	root := c.removeRoot
	t.Cleanup(func() { _ = c.Stop(context.Background()); _ = c.Remove() })
	require.FileExists(t, filepath.Join(c.Dir(), "PG_VERSION"))
	require.DirExists(t, root)

	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	require.NoError(t, err)
	var one int
	require.NoError(t, conn.QueryRow(ctx, "SELECT 1").Scan(&one))
	require.Equal(t, 1, one)
	require.NoError(t, conn.Close(ctx))

	require.NoError(t, c.EnsureDatabase(ctx, "app"))
	require.NoError(t, c.EnsureDatabase(ctx, "app"), "ensuring twice is fine")
	exec1(t, c.URL("app"), "CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)")
	require.NoError(t, c.Stop(ctx))
	require.NoError(t, c.Stop(ctx), "stopping a stopped cluster is fine")
	require.NoFileExists(t, filepath.Join(c.Dir(), "postmaster.pid"))

	// The same directory again, on the same port: no initdb, data kept.
	again, err := Start(ctx, Options{Dir: c.Dir(), Port: c.Port(), Logf: t.Logf})
	require.NoError(t, err)
	require.Equal(t, c.Port(), again.Port())
	require.Equal(t, 42, queryInt(t, again.URL("app"), "SELECT v FROM kept"))
	require.Error(t, again.Remove(), "a running cluster is not removed")
	require.NoError(t, again.Stop(ctx))

	require.NoError(t, c.Remove())
	require.NoDirExists(t, root)
}

func TestStartStopsServerLeftRunning(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	old, err := StartEphemeral(ctx, t.Logf)
	require.NoError(t, err)
	t.Cleanup(func() { _ = old.Stop(context.Background()); _ = old.Remove() })
	exec1(t, old.URL("postgres"), "CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)")

	// As if the process owning old had exited without stopping it.
	c, err := Start(ctx, Options{Dir: old.Dir(), Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	require.NotEqual(t, old.Port(), c.Port())
	require.Equal(t, 7, queryInt(t, c.URL("postgres"), "SELECT v FROM kept"))
	_, err = pgx.Connect(ctx, old.URL("postgres"))
	require.Error(t, err, "the leftover server is stopped")
	require.NoError(t, c.Stop(ctx))
}

func TestStartAfterServerWasKilled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	old, err := StartEphemeral(ctx, t.Logf)
	require.NoError(t, err)
	t.Cleanup(func() { _ = old.Stop(context.Background()); _ = old.Remove() })
	// With synchronous_commit off a crash may lose the last commits; the
	// checkpoint makes this one durable.
	exec1(t, old.URL("postgres"), "CREATE TABLE kept (v int); INSERT INTO kept VALUES (9)")
	exec1(t, old.URL("postgres"), "CHECKPOINT")

	pidFile := filepath.Join(old.Dir(), "postmaster.pid")
	pid, ok := readPID(pidFile)
	require.True(t, ok)
	require.NoError(t, syscall.Kill(pid, syscall.SIGKILL))
	poll.Until(t, 30*time.Second, "the killed server's port to close", func() bool {
		conn, err := pgx.Connect(ctx, old.URL("postgres"))
		if err == nil {
			_ = conn.Close(ctx)
		}
		return err != nil
	})
	require.FileExists(t, pidFile, "a killed server leaves its lock file")

	c, err := Start(ctx, Options{Dir: old.Dir(), Logf: t.Logf})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	require.Equal(t, 9, queryInt(t, c.URL("postgres"), "SELECT v FROM kept"))
	require.NoError(t, c.Stop(ctx))
}

func TestStartEphemeralSweepsAbandonedClusters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	abandonedCluster, err := StartEphemeral(ctx, t.Logf)
	require.NoError(t, err)
	t.Cleanup(func() { _ = abandonedCluster.Stop(context.Background()); _ = abandonedCluster.Remove() })

	// A PID that certainly exited: a finished child of ours.
	child := exec.Command(filepath.Join(abandonedCluster.bin, "postgres"), "--version")
	require.NoError(t, child.Run())
	dead := strconv.Itoa(child.Process.Pid)
	require.NoError(t, os.WriteFile(filepath.Join(abandonedCluster.removeRoot, ownerFile), []byte(dead), 0o600))

	c, err := StartEphemeral(ctx, t.Logf)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Stop(context.Background()); _ = c.Remove() })
	require.NoDirExists(t, abandonedCluster.removeRoot)
	_, err = pgx.Connect(ctx, abandonedCluster.URL("postgres"))
	require.Error(t, err, "the abandoned server is stopped")
	require.DirExists(t, c.removeRoot, "a live owner's cluster is kept")

	require.NoError(t, c.Stop(ctx))
	require.NoError(t, c.Remove())
	require.NoDirExists(t, c.removeRoot)
}

func TestMissingBinariesSayHowToInstall(t *testing.T) {
	t.Parallel()
	nowhere := &binSearch{path: "", glob: filepath.Join(t.TempDir(), "none", "*", "bin")}
	_, err := Start(context.Background(), Options{Dir: t.TempDir(), search: nowhere})
	require.EqualError(t, err, InstallHint)
	require.Contains(t, err.Error(), "sudo apt-get install -y postgresql")
	require.Contains(t, err.Error(), "DATABASE_URL")
}

func TestFindBinDirPrefersPathThenHighestVersion(t *testing.T) {
	t.Parallel()
	lib := t.TempDir()
	for _, v := range []string{"9.6", "16", "10", "15"} {
		fakeServerBinaries(t, filepath.Join(lib, v, "bin"))
	}
	glob := filepath.Join(lib, "*", "bin")

	dir, err := findBinDir(binSearch{path: filepath.Join(t.TempDir(), "empty"), glob: glob})
	require.NoError(t, err)
	require.Equal(t, filepath.Join(lib, "16", "bin"), dir)

	// initdb and pg_ctl linked onto PATH resolve to the directory with postgres.
	onPath := t.TempDir()
	for _, name := range []string{"initdb", "pg_ctl"} {
		require.NoError(t, os.Symlink(filepath.Join(lib, "10", "bin", name), filepath.Join(onPath, name)))
	}
	dir, err = findBinDir(binSearch{path: onPath, glob: glob})
	require.NoError(t, err)
	require.Equal(t, filepath.Join(lib, "10", "bin"), dir)
}

func TestUnreachableDataDirectoryIsNamed(t *testing.T) {
	t.Parallel()
	closed := filepath.Join(EnterableTempDir(t), "closed")
	dir := filepath.Join(closed, "pg")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.Chmod(closed, 0o700))
	// Neither the owner nor in the owner's group.
	stranger := &account{name: "stranger", uid: uint32(os.Geteuid()) + 1, groups: []uint32{1 << 30}}

	err := checkReachable(dir, stranger)
	require.ErrorContains(t, err, "cannot enter "+closed)
	require.ErrorContains(t, err, "DATABASE_URL")
	require.ErrorContains(t, err, "move the checkout")

	require.NoError(t, os.Chmod(closed, 0o711))
	require.NoError(t, checkReachable(dir, stranger))
}

func fakeServerBinaries(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, name := range []string{"initdb", "pg_ctl", "postgres"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755)) //nolint:gosec // must be executable
	}
}

func exec1(t *testing.T, url, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	require.NoError(t, err)
}

func queryInt(t *testing.T, url, sql string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var v int
	require.NoError(t, conn.QueryRow(ctx, sql).Scan(&v))
	return v
}
