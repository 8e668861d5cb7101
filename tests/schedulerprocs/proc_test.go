// Package schedulerprocs runs the scheduler in two real `geoscan serve`
// processes against one database and checks that each due schedule gets
// one scan per period, whichever process is the leader and when one dies.
// It has a package of its own so that no other test's schedules or
// workers share its database.
package schedulerprocs

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	binarytest.Remove()
	os.Exit(code)
}

func TestTwoServersServeEachPeriodOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	ctx := context.Background()
	bin := binarytest.Build(t)

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

	env := []string{
		"DATABASE_URL=" + pgtest.URL(), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
		"GEOSCAN_RESOLVE=" + strings.Join(resolve, ","),
		"GEOSCAN_SCHEDULER_INTERVAL=1s", "GEOSCAN_SCAN_BUDGET=5s", "GEOSCAN_LOG_LEVEL=info",
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
	period := func(want int, procs ...*binarytest.Process) {
		t.Helper()
		binarytest.Until(t, 90*time.Second, fmt.Sprintf("%d scans per schedule", want), func() bool {
			for _, id := range ids {
				if scansOf(id) < want {
					return false
				}
			}
			return true
		}, procs...)
		// Several more ticks, by whichever process leads: nothing more.
		after := ticks()
		binarytest.Until(t, 90*time.Second, "five more ticks", func() bool { return ticks() >= after+5 }, procs...)
		for _, id := range ids {
			require.Equal(t, want, scansOf(id), "schedule %s", id)
		}
		require.Equal(t, n*want, count("SELECT count(*) FROM schedule_runs WHERE outcome = 'scanned'"))
	}

	a := binarytest.Serve(t, "a (all)", bin, "all", env)
	b := binarytest.Serve(t, "b (worker)", bin, "worker", env)
	period(1, a, b)

	// The next period comes due; the process that may lead is killed, so
	// the other one has to take over.
	a.Kill(t)
	_, err = pool.Exec(ctx, "UPDATE schedules SET due_at = now() - interval '1 minute', next_run_at = now() - interval '1 minute'")
	require.NoError(t, err)
	period(2, b)

	// A third process and a manual tick at the same time: still once.
	c := binarytest.Serve(t, "c (worker)", bin, "worker", env)
	_, err = pool.Exec(ctx, "UPDATE schedules SET due_at = now() - interval '1 minute', next_run_at = now() - interval '1 minute'")
	require.NoError(t, err)
	tick := binarytest.Start(t, "schedule tick", bin, []string{"DATABASE_URL=" + pgtest.URL()}, "schedule", "tick")
	require.NoError(t, tick.Wait(t, 60*time.Second), "%s", tick.Logs())
	period(3, b, c)
	var dupes int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT schedule_id, due_at FROM schedule_runs GROUP BY 1, 2 HAVING count(*) > 1) d`).Scan(&dupes))
	require.Zero(t, dupes)
}
