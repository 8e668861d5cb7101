package scanner_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// The fairness tests run two worker processes' queues (two applications,
// four scan workers each) on the package database, with a share of four
// scans per organization. They are not parallel: every engine of the
// package shares one queue, so another test's workers would run these
// scans, and another test's scans would be waiting organizations.
var fleet = map[string]string{"GEOSCAN_SCAN_WORKERS": "4", "GEOSCAN_SCAN_ORG_SHARE": "4"}

const (
	fleetWorkers = 8
	fleetShare   = 4
)

// TestOrgShareAcrossProcesses: one organization's scans of a site that
// holds every request occupy all eight workers of the two processes, and
// eight more of its scans, of another such site, are queued behind them,
// when another organization asks for one scan. Once the first site lets
// go, that scan starts while the queued scans' site still holds every
// request: at most the share of them started before it, where without
// the share all eight would hold every worker and it would wait for them.
// The scans held back waited without using up an attempt.
func TestOrgShareAcrossProcesses(t *testing.T) {
	s := fixtures(t)
	h := engine(t, fleet)
	engine(t, fleet)
	pool := pgtest.Pool(t)
	ctx := context.Background()
	heavy, light := h.NewOrg(t, "pro", true), h.NewOrg(t, "pro", true)

	releaseFirst := s.Hold(testsite.Winery)
	t.Cleanup(releaseFirst)
	releaseSecond := s.Hold(testsite.Wiki)
	t.Cleanup(releaseSecond)

	first := createScans(ctx, t, heavy, s.URL(testsite.Winery), fleetWorkers)
	poll.Until(t, 20*time.Second, "the first scans to hold every worker", func() bool {
		return count(t, scanRows(t, pool, heavy.ID), running) == fleetWorkers
	})
	second := createScans(ctx, t, heavy, s.URL(testsite.Wiki), fleetWorkers)
	lightScan := createScans(ctx, t, light, s.URL(testsite.Bakery), 1)[0]

	releaseFirst()
	lightRow, ok := poll.For(t, 20*time.Second, func() (scanRow, bool) {
		r := scanRows(t, pool, light.ID)[lightScan]
		return r, r.StartedAt != nil
	})
	require.True(t, ok, "the other organization's scan did not start while the first one's held every worker")
	rows := scanRows(t, pool, heavy.ID)
	var startedBefore int
	for _, id := range second {
		r := rows[id]
		if r.StartedAt != nil && r.StartedAt.Before(*lightRow.StartedAt) {
			startedBefore++
		}
		require.Nil(t, r.CompletedAt, "the site still holds every request of %s", id)
	}
	require.LessOrEqual(t, startedBefore, fleetShare,
		"no more than the share of the queued scans started ahead of the other organization's")

	releaseSecond()
	waitFinished(t, pool, append(append(first, second...), lightScan))
	rows = scanRows(t, pool, heavy.ID)
	var held int
	for id, r := range rows {
		require.Equal(t, "completed", r.Status, "scan %s", id)
		require.EqualValues(t, 1, r.Attempts, "scan %s started once", id)
		require.Equal(t, 1, r.JobAttempt, "waiting is not an attempt (scan %s)", id)
		if r.Snoozes > 0 {
			held++
		}
	}
	require.Positive(t, held, "some scans were held back and waited")
	require.Equal(t, "completed", scanRows(t, pool, light.ID)[lightScan].Status)
}

// TestOrgAloneUsesEveryWorker: with no other organization waiting, one
// organization runs as many scans as there are workers in all processes,
// twice its share, and none of its scans is held back.
func TestOrgAloneUsesEveryWorker(t *testing.T) {
	s := fixtures(t)
	h := engine(t, fleet)
	engine(t, fleet)
	pool := pgtest.Pool(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	release := s.Hold(testsite.Winery)
	t.Cleanup(release)
	ids := createScans(ctx, t, org, s.URL(testsite.Winery), fleetWorkers+2)
	most := 0
	rows, ok := poll.For(t, 20*time.Second, func() (map[uuid.UUID]scanRow, bool) {
		rows := scanRows(t, pool, org.ID)
		most = max(most, count(t, rows, running))
		return rows, most == fleetWorkers
	})
	require.True(t, ok, "at most %d of the organization's scans ran at once, not one on every worker", most)
	require.Equal(t, 2, count(t, rows, pending))

	release()
	waitFinished(t, pool, ids)
	for id, r := range scanRows(t, pool, org.ID) {
		require.Equal(t, "completed", r.Status, "scan %s", id)
		require.Zero(t, r.Snoozes, "scan %s was held back with no one else waiting", id)
	}
}

// createScans creates n scans of url through the API.
func createScans(ctx context.Context, t *testing.T, org apitest.Org, url string, n int) []uuid.UUID {
	t.Helper()
	ids := make([]uuid.UUID, n)
	for i := range ids {
		created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: url})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
		ids[i] = created.JSON201.ID
	}
	return ids
}

// waitFinished waits until every scan is completed or failed.
func waitFinished(t *testing.T, pool *pgxpool.Pool, ids []uuid.UUID) {
	t.Helper()
	poll.Until(t, 60*time.Second, "the scans to finish", func() bool {
		var left int
		require.NoError(t, pool.QueryRow(context.Background(),
			`SELECT count(*) FROM scans WHERE id = ANY($1) AND status IN ('pending', 'running')`, ids).Scan(&left))
		return left == 0
	})
}

// scanRow is a scan as the database has it, with its queue job.
type scanRow struct {
	Status                 string
	StartedAt, CompletedAt *time.Time
	Attempts               int32
	JobAttempt             int
	Snoozes                int
}

func running(r scanRow) bool { return r.Status == "running" }
func pending(r scanRow) bool { return r.Status == "pending" }

func count(t *testing.T, rows map[uuid.UUID]scanRow, is func(scanRow) bool) int {
	t.Helper()
	n := 0
	for _, r := range rows {
		if is(r) {
			n++
		}
	}
	return n
}

// scanRows reads an organization's scans and their jobs: the job's
// attempt and how often it was snoozed, as River records them.
func scanRows(t *testing.T, pool *pgxpool.Pool, orgID uuid.UUID) map[uuid.UUID]scanRow {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT s.id, s.status, s.started_at, s.completed_at, s.attempts,
		       coalesce(j.attempt, 0), coalesce((j.metadata->>'snoozes')::int, 0)
		FROM scans s LEFT JOIN river_job j ON j.id = s.job_id
		WHERE s.org_id = $1`, orgID)
	require.NoError(t, err)
	out := map[uuid.UUID]scanRow{}
	var (
		id uuid.UUID
		r  scanRow
	)
	_, err = pgx.ForEachRow(rows, []any{&id, &r.Status, &r.StartedAt, &r.CompletedAt, &r.Attempts, &r.JobAttempt, &r.Snoozes}, func() error {
		out[id] = r
		r = scanRow{} // the next row's times get their own values
		return nil
	})
	require.NoError(t, err)
	return out
}
