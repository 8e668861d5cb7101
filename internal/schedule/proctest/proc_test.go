// Package proctest runs the scheduler in two real `geoscan serve`
// processes against one database and checks that each due schedule gets
// one scan per period, whichever process is the leader and when one dies.
// It has a package of its own so that no other test's schedules or
// workers share its database.
package proctest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/pgtest"
	"github.com/geoscan/geoscan/internal/schedule"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/wait"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestTwoServersServeEachPeriodOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	ctx := context.Background()
	bin := filepath.Join(t.TempDir(), "geoscan")
	build := exec.Command("go", "build", "-o", bin, "github.com/geoscan/geoscan/cmd/geoscan")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	pool := pgtest.Pool(t)
	st := store.New(pool)
	// Scans of a closed port fail at once: the test is about creating them.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	require.NoError(t, ln.Close())

	// Schedules anchored a month and a minute ago are due now.
	const n = 8
	var ids []uuid.UUID
	anchor := time.Now().UTC().AddDate(0, -1, 0).Add(-time.Minute)
	for i := range n {
		org, err := st.CreateOrganization(ctx, fmt.Sprintf("org%d", i), "pro", true)
		require.NoError(t, err)
		host := fmt.Sprintf("site%d.example.com", i)
		sc, _, err := schedule.Create(ctx, st, store.NewSchedule{
			OrgID: org.ID, URL: "https://" + host + ":" + closed + "/", Domain: host, BrandName: host,
			Frequency: store.Monthly, NotifyEmail: false,
		}, anchor)
		require.NoError(t, err)
		ids = append(ids, sc.ID)
	}
	var resolve []string
	for i := range n {
		resolve = append(resolve, fmt.Sprintf("site%d.example.com=127.0.0.1", i))
	}

	server := func(role string) (*exec.Cmd, *lockedWriter) {
		cmd := exec.Command(bin, "serve", "--role", role)
		cmd.Env = append(os.Environ(),
			"DATABASE_URL="+pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
			"GEOSCAN_HTTP_ADDR=127.0.0.1:0", "GEOSCAN_RESOLVE="+strings.Join(resolve, ","),
			"GEOSCAN_SCHEDULER_INTERVAL=1s", "GEOSCAN_SCAN_BUDGET=5s", "GEOSCAN_LOG_LEVEL=info")
		logs := &lockedWriter{}
		cmd.Stderr = logs
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd, logs
	}
	count := func(query string, args ...any) int {
		var c int
		require.NoError(t, pool.QueryRow(ctx, query, args...).Scan(&c))
		return c
	}
	scansOf := func(id uuid.UUID) int {
		return count("SELECT count(*) FROM scans WHERE schedule_id = $1", id)
	}
	ticks := func() int {
		return count("SELECT count(*) FROM river_job WHERE kind = $1 AND state = 'completed'", schedule.TickArgs{}.Kind())
	}
	period := func(want int, logs ...*lockedWriter) {
		t.Helper()
		waitFor(t, 90*time.Second, fmt.Sprintf("%d scans per schedule", want), func() bool {
			for _, id := range ids {
				if scansOf(id) < want {
					return false
				}
			}
			return true
		}, logs...)
		// Several more ticks, by whichever process leads: nothing more.
		after := ticks()
		waitFor(t, 90*time.Second, "five more ticks", func() bool { return ticks() >= after+5 }, logs...)
		for _, id := range ids {
			require.Equal(t, want, scansOf(id), "schedule %s", id)
		}
		require.Equal(t, n*want, count("SELECT count(*) FROM schedule_runs WHERE outcome = 'scanned'"))
	}

	a, aLogs := server("all")
	_, bLogs := server("worker")
	period(1, aLogs, bLogs)

	// The next period comes due; the process that may lead is killed, so
	// the other one has to take over.
	require.NoError(t, a.Process.Signal(syscall.SIGKILL))
	_ = a.Wait()
	_, err = pool.Exec(ctx, "UPDATE schedules SET due_at = now() - interval '1 minute', next_run_at = now() - interval '1 minute'")
	require.NoError(t, err)
	period(2, bLogs)

	// A third process and a manual tick at the same time: still once.
	_, cLogs := server("worker")
	_, err = pool.Exec(ctx, "UPDATE schedules SET due_at = now() - interval '1 minute', next_run_at = now() - interval '1 minute'")
	require.NoError(t, err)
	tick := exec.Command(bin, "schedule", "tick")
	tick.Env = append(os.Environ(), "DATABASE_URL="+pgtest.URL())
	out, err := tick.CombinedOutput()
	require.NoError(t, err, "%s", out)
	period(3, bLogs, cLogs)
	var dupes int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT schedule_id, due_at FROM schedule_runs GROUP BY 1, 2 HAVING count(*) > 1) d`).Scan(&dupes))
	require.Zero(t, dupes)
}

// lockedWriter collects a process's output for the failure message.
type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitFor polls cond with internal/wait and, when the limit passes first,
// fails with what each process logged.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool, logs ...*lockedWriter) {
	t.Helper()
	if _, ok := wait.For(t, limit, func() (struct{}, bool) { return struct{}{}, cond() }); ok {
		return
	}
	var out strings.Builder
	for i, l := range logs {
		fmt.Fprintf(&out, "\n--- process %d ---\n%s", i, l.String())
	}
	t.Fatalf("timed out waiting for %s%s", what, out.String())
}
