package schedule_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/scanner"
	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// The scheduler serves every organization's schedules; each test here
// ticks only its own organization (TickOrg), except the concurrency test,
// which runs in an era before every other test's schedules are due.

type testBundle struct {
	pool  *pgxpool.Pool
	st    *store.Store
	sched *schedule.Scheduler
}

func setup(t *testing.T) *testBundle {
	t.Helper()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	queue, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	require.NoError(t, err)
	return &testBundle{pool: pool, st: st, sched: &schedule.Scheduler{
		Store: st, Scans: &scanner.Queuer{Client: queue},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}}
}

func (b *testBundle) newOrg(t *testing.T, planName string) uuid.UUID {
	t.Helper()
	o, err := b.st.CreateOrganization(context.Background(), "org-"+uuid.NewString()[:8], planName, true)
	require.NoError(t, err)
	return o.ID
}

func (b *testBundle) newSchedule(t *testing.T, org uuid.UUID, host string, f store.Frequency, at time.Time) store.Schedule {
	t.Helper()
	sc, created, err := schedule.Create(context.Background(), b.st, store.NewSchedule{
		OrgID: org, URL: "https://" + host + "/", Domain: host, BrandName: "Brand " + host,
		Frequency: f, NotifyEmail: true,
	}, at)
	require.NoError(t, err)
	require.True(t, created)
	return sc
}

func (b *testBundle) tick(t *testing.T, org uuid.UUID, at time.Time) []schedule.Run {
	t.Helper()
	runs, err := b.sched.TickOrg(context.Background(), at, org)
	require.NoError(t, err)
	return runs
}

func (b *testBundle) get(t *testing.T, org, id uuid.UUID) store.Schedule {
	t.Helper()
	sc, err := b.st.GetSchedule(context.Background(), org, id)
	require.NoError(t, err)
	return sc
}

func (b *testBundle) runs(t *testing.T, id uuid.UUID) []store.ScheduleRun {
	t.Helper()
	runs, err := b.st.ListScheduleRuns(context.Background(), id, nil, 100)
	require.NoError(t, err)
	return runs
}

// scanOf is the scan a schedule created, as stored, with its queued job.
type scanOf struct {
	ID           uuid.UUID
	Source       string
	URL          string
	BrandName    string
	BrandAliases []string
	Status       string
	JobKind      string
}

func (b *testBundle) scans(t *testing.T, scheduleID uuid.UUID) []scanOf {
	t.Helper()
	rows, err := b.pool.Query(context.Background(), `
		SELECT s.id, s.source, s.url, s.brand_name, s.brand_aliases, s.status, coalesce(j.kind, '')
		FROM scans s LEFT JOIN river_job j ON j.id = s.job_id AND j.args->>'scan_id' = s.id::text
		WHERE s.schedule_id = $1 ORDER BY s.created_at, s.id`, scheduleID)
	require.NoError(t, err)
	defer rows.Close()
	var out []scanOf
	for rows.Next() {
		var s scanOf
		require.NoError(t, rows.Scan(&s.ID, &s.Source, &s.URL, &s.BrandName, &s.BrandAliases, &s.Status, &s.JobKind))
		out = append(out, s)
	}
	require.NoError(t, rows.Err())
	return out
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestTickDueAndNotDue(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	org := b.newOrg(t, "free")
	anchor := utc("2031-01-15T09:00:00Z")
	sc, _, err := schedule.Create(ctx, b.st, store.NewSchedule{
		OrgID: org, URL: "https://due.example.com/", Domain: "due.example.com", BrandName: "Brand due.example.com",
		BrandAliases: []string{"Due", "Due Inc"}, Frequency: store.Monthly, NotifyEmail: true,
	}, anchor)
	require.NoError(t, err)
	require.Equal(t, utc("2031-02-15T09:00:00Z"), sc.NextRunAt.UTC(), "the first run is one period after creation")

	require.Empty(t, b.tick(t, org, utc("2031-02-15T08:59:59Z")), "not due a second early")
	require.Empty(t, b.scans(t, sc.ID))

	runs := b.tick(t, org, utc("2031-02-15T09:00:00Z"))
	require.Len(t, runs, 1)
	require.NotNil(t, runs[0].ScanID)
	require.Equal(t, utc("2031-03-15T09:00:00Z"), runs[0].NextRunAt)

	scans := b.scans(t, sc.ID)
	require.Len(t, scans, 1)
	require.Equal(t, scanOf{
		ID: *runs[0].ScanID, Source: "schedule", URL: "https://due.example.com/", BrandName: "Brand due.example.com",
		BrandAliases: []string{"Due", "Due Inc"}, Status: "pending", JobKind: (scanner.Args{}).Kind(),
	}, scans[0], "the scan is created like an API scan, with the schedule's brand and aliases and its job queued")

	got := b.get(t, org, sc.ID)
	require.Equal(t, utc("2031-03-15T09:00:00Z"), got.NextRunAt.UTC())
	require.Equal(t, utc("2031-02-15T09:00:00Z"), got.LastRunAt.UTC())
	require.Equal(t, runs[0].ScanID, got.LastScanID)
	require.Nil(t, got.LastSkipReason)

	// The same instant again, and any instant before the next period: nothing.
	require.Empty(t, b.tick(t, org, utc("2031-02-15T09:00:00Z")))
	require.Empty(t, b.tick(t, org, utc("2031-03-15T08:00:00Z")))
	require.Len(t, b.scans(t, sc.ID), 1)
	used, err := b.st.DailyUsage(ctx, org, utc("2031-02-15T12:00:00Z"))
	require.NoError(t, err)
	require.Equal(t, 1, used, "the scheduled scan took quota on the day it ran")

	runList := b.runs(t, sc.ID)
	require.Len(t, runList, 1)
	require.Equal(t, store.RunScanned, runList[0].Outcome)
	require.Equal(t, utc("2031-02-15T09:00:00Z"), runList[0].DueAt.UTC())
	require.Equal(t, store.ScanPending, *runList[0].ScanStatus)
}

// TestTickThroughAYearOfMonthEnds moves a monthly schedule anchored on 31
// January through two years by ticking exactly when it says it is due.
func TestTickThroughAYearOfMonthEnds(t *testing.T) {
	b := setup(t)
	org := b.newOrg(t, "free")
	sc := b.newSchedule(t, org, "monthend.example.com", store.Monthly, utc("2032-01-31T23:30:00Z"))
	var dates []string
	for range 24 {
		next := b.get(t, org, sc.ID).NextRunAt.UTC()
		runs := b.tick(t, org, next)
		require.Len(t, runs, 1)
		require.NotNil(t, runs[0].ScanID)
		dates = append(dates, next.Format("2006-01-02"))
	}
	require.Equal(t, []string{
		"2032-02-29", "2032-03-31", "2032-04-30", "2032-05-31", "2032-06-30", "2032-07-31",
		"2032-08-31", "2032-09-30", "2032-10-31", "2032-11-30", "2032-12-31", "2033-01-31",
		"2033-02-28", "2033-03-31", "2033-04-30", "2033-05-31", "2033-06-30", "2033-07-31",
		"2033-08-31", "2033-09-30", "2033-10-31", "2033-11-30", "2033-12-31", "2034-01-31",
	}, dates)
	require.Len(t, b.scans(t, sc.ID), 24)
	require.Len(t, b.runs(t, sc.ID), 24)

	q := b.newSchedule(t, org, "quarterly.example.com", store.Quarterly, utc("2032-11-30T06:00:00Z"))
	dates = nil
	for range 4 {
		next := b.get(t, org, q.ID).NextRunAt.UTC()
		require.Len(t, b.tick(t, org, next), 1)
		dates = append(dates, next.Format("2006-01-02"))
	}
	require.Equal(t, []string{"2033-02-28", "2033-05-30", "2033-08-30", "2033-11-30"}, dates)
}

func TestTickLateServesOneRun(t *testing.T) {
	b := setup(t)
	org := b.newOrg(t, "free")
	sc := b.newSchedule(t, org, "late.example.com", store.Monthly, utc("2034-01-10T10:00:00Z"))
	// Nothing ran the scheduler for four months: one scan, then the next
	// date of the cadence.
	runs := b.tick(t, org, utc("2034-05-20T00:00:00Z"))
	require.Len(t, runs, 1)
	require.Equal(t, utc("2034-02-10T10:00:00Z"), runs[0].DueAt, "the run serves the oldest period owed")
	require.Equal(t, utc("2034-06-10T10:00:00Z"), b.get(t, org, sc.ID).NextRunAt.UTC())
	require.Empty(t, b.tick(t, org, utc("2034-06-10T09:59:00Z")))
	require.Len(t, b.scans(t, sc.ID), 1)
}

func TestTickQuotaUsedUp(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	org := b.newOrg(t, "free")
	sc := b.newSchedule(t, org, "quota.example.com", store.Monthly, utc("2035-03-31T18:00:00Z"))
	due := utc("2035-04-30T18:00:00Z")

	// The day's five scans are used up through the API path before the run.
	for range 5 {
		_, err := b.st.CreateScan(ctx, store.NewScan{OrgID: org, Source: store.SourceAPI, URL: "https://quota.example.com/", Domain: "quota.example.com", BrandName: "x"}, due)
		require.NoError(t, err)
	}
	runs := b.tick(t, org, due.Add(time.Minute))
	require.Len(t, runs, 1)
	require.Nil(t, runs[0].ScanID)
	require.Equal(t, schedule.SkipQuotaExhausted, runs[0].SkipReason)
	require.Equal(t, utc("2035-05-01T00:00:00Z"), runs[0].RetryAt, "retried when the quota resets, 00:00 UTC")

	got := b.get(t, org, sc.ID)
	require.Equal(t, schedule.SkipQuotaExhausted, *got.LastSkipReason)
	require.Equal(t, utc("2035-05-01T00:00:00Z"), got.NextRunAt.UTC())
	require.Equal(t, due, got.DueAt.UTC(), "the period is still owed")
	require.Nil(t, got.LastScanID)
	require.Empty(t, b.scans(t, sc.ID))
	require.Empty(t, b.tick(t, org, utc("2035-04-30T23:59:59Z")), "no retry before the quota resets")

	runs = b.tick(t, org, utc("2035-05-01T00:00:00Z"))
	require.Len(t, runs, 1)
	require.NotNil(t, runs[0].ScanID)
	require.Equal(t, utc("2035-05-31T18:00:00Z"), runs[0].NextRunAt, "the cadence is kept: the retry does not move later runs")

	list := b.runs(t, sc.ID)
	require.Len(t, list, 1, "one row per period")
	require.Equal(t, store.RunScanned, list[0].Outcome)
	require.Equal(t, 2, list[0].Attempts)
	require.Equal(t, due, list[0].DueAt.UTC())
	require.Equal(t, *runs[0].ScanID, *list[0].ScanID)

	// A plan override of zero scans a day skips too.
	_, err := b.st.SetOverrides(ctx, org, planlimits.Overrides{DailyScans: ptr(int32(0))})
	require.NoError(t, err)
	runs = b.tick(t, org, utc("2035-05-31T18:00:00Z"))
	require.Len(t, runs, 1)
	require.Equal(t, schedule.SkipQuotaExhausted, runs[0].SkipReason)
	require.Len(t, b.runs(t, sc.ID), 2)
}

func TestTickSubscriptionInactive(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	org := b.newOrg(t, "pro")
	sc := b.newSchedule(t, org, "dormant.example.com", store.Quarterly, utc("2036-01-01T12:00:00Z"))
	_, err := b.st.SetSubscription(ctx, org, false)
	require.NoError(t, err)

	due := utc("2036-04-01T12:00:00Z")
	runs := b.tick(t, org, due)
	require.Len(t, runs, 1)
	require.Equal(t, schedule.SkipSubscriptionInactive, runs[0].SkipReason)
	require.Equal(t, due.Add(schedule.SubscriptionRetry), runs[0].RetryAt)
	require.Empty(t, b.tick(t, org, due.Add(schedule.SubscriptionRetry-time.Second)))

	runs = b.tick(t, org, due.Add(schedule.SubscriptionRetry))
	require.Len(t, runs, 1)
	require.Equal(t, schedule.SkipSubscriptionInactive, runs[0].SkipReason, "still inactive")
	list := b.runs(t, sc.ID)
	require.Len(t, list, 1)
	require.Equal(t, store.RunSkipped, list[0].Outcome)
	require.Equal(t, schedule.SkipSubscriptionInactive, *list[0].SkipReason)
	require.Equal(t, 2, list[0].Attempts)
	require.Nil(t, list[0].ScanID)

	_, err = b.st.SetSubscription(ctx, org, true)
	require.NoError(t, err)
	at := due.Add(2 * schedule.SubscriptionRetry)
	runs = b.tick(t, org, at)
	require.Len(t, runs, 1)
	require.NotNil(t, runs[0].ScanID)
	require.Equal(t, utc("2036-07-01T12:00:00Z"), runs[0].NextRunAt)
	got := b.get(t, org, sc.ID)
	require.Equal(t, at, got.LastRunAt.UTC())
	require.Equal(t, schedule.SkipSubscriptionInactive, *got.LastSkipReason, "the last skip stays visible with its time")
	require.Equal(t, due.Add(schedule.SubscriptionRetry), got.LastSkippedAt.UTC())
	list = b.runs(t, sc.ID)
	require.Len(t, list, 1)
	require.Equal(t, store.RunScanned, list[0].Outcome)
	require.Nil(t, list[0].SkipReason)
	require.Equal(t, 3, list[0].Attempts)
}

func TestTickDeactivatedBetweenTicks(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	org := b.newOrg(t, "free")
	sc := b.newSchedule(t, org, "paused.example.com", store.Monthly, utc("2037-02-10T08:00:00Z"))
	require.Len(t, b.tick(t, org, utc("2037-03-10T08:00:00Z")), 1)

	_, err := schedule.Deactivate(ctx, b.st, org, sc.ID, utc("2037-03-20T00:00:00Z"))
	require.NoError(t, err)
	for _, at := range []string{"2037-04-10T08:00:00Z", "2037-06-01T00:00:00Z", "2038-01-01T00:00:00Z"} {
		require.Empty(t, b.tick(t, org, utc(at)), "a deactivated schedule never runs (%s)", at)
	}

	on := true
	got, err := schedule.Update(ctx, b.st, org, sc.ID, schedule.Change{Active: &on}, utc("2038-01-05T10:00:00Z"))
	require.NoError(t, err)
	require.Equal(t, utc("2038-02-05T10:00:00Z"), got.NextRunAt.UTC(), "reactivation re-anchors: one period from then")
	require.Empty(t, b.tick(t, org, utc("2038-02-05T09:59:59Z")))
	runs := b.tick(t, org, utc("2038-02-05T10:00:00Z"))
	require.Len(t, runs, 1)
	require.Equal(t, utc("2038-03-05T10:00:00Z"), runs[0].NextRunAt)
	require.Len(t, b.scans(t, sc.ID), 2)
}

func TestTickFrequencyChanged(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	org := b.newOrg(t, "free")
	sc := b.newSchedule(t, org, "cadence.example.com", store.Monthly, utc("2039-01-31T07:00:00Z"))
	require.Len(t, b.tick(t, org, utc("2039-02-28T07:00:00Z")), 1)

	quarterly := store.Quarterly
	got, err := schedule.Update(ctx, b.st, org, sc.ID, schedule.Change{Frequency: &quarterly}, utc("2039-03-10T00:00:00Z"))
	require.NoError(t, err)
	require.Equal(t, utc("2039-04-30T07:00:00Z"), got.NextRunAt.UTC(), "the first quarterly date from the anchor after the last run")
	require.Empty(t, b.tick(t, org, utc("2039-03-31T07:00:00Z")), "the old monthly date no longer runs")
	runs := b.tick(t, org, utc("2039-04-30T07:00:00Z"))
	require.Len(t, runs, 1)
	require.Equal(t, utc("2039-07-31T07:00:00Z"), runs[0].NextRunAt)

	// Back to monthly after the first monthly date since the last run has
	// passed: due at once.
	monthly := store.Monthly
	got, err = schedule.Update(ctx, b.st, org, sc.ID, schedule.Change{Frequency: &monthly}, utc("2039-06-02T00:00:00Z"))
	require.NoError(t, err)
	require.Equal(t, utc("2039-06-02T00:00:00Z"), got.NextRunAt.UTC())
	require.Equal(t, utc("2039-05-31T07:00:00Z"), got.DueAt.UTC())
	runs = b.tick(t, org, utc("2039-06-02T00:01:00Z"))
	require.Len(t, runs, 1)
	require.Equal(t, utc("2039-06-30T07:00:00Z"), runs[0].NextRunAt)
	require.Len(t, b.scans(t, sc.ID), 3)
}

// TestConcurrentTicksServeEachScheduleOnce runs several global ticks at the
// same instant; its schedules are due in 1990, before any other test's.
func TestConcurrentTicksServeEachScheduleOnce(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	org := b.newOrg(t, "pro")
	var ids []uuid.UUID
	for i := range 30 {
		ids = append(ids, b.newSchedule(t, org, fmt.Sprintf("site%d.example.com", i), store.Monthly, utc("1990-01-01T00:00:00Z")).ID)
	}
	at := utc("1990-02-01T00:00:00Z")
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs, err := b.sched.Tick(ctx, at)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += len(runs)
			mu.Unlock()
		}()
	}
	wg.Wait()
	require.Equal(t, 30, total, "each due schedule served by exactly one tick")
	for _, id := range ids {
		require.Len(t, b.scans(t, id), 1)
	}
	runs, err := b.sched.Tick(ctx, at)
	require.NoError(t, err)
	require.Empty(t, runs)
}

func ptr[T any](v T) *T { return &v }
