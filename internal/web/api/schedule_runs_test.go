package api_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

// testClock is a clock a test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestScheduleRuns moves one schedule through months of injected time and
// reads what the scheduler did through the API. Ticks are limited to the
// test's organization: the package database holds other tests' schedules.
func TestScheduleRuns(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: mustTime("2027-01-31T10:00:00Z")}
	opts := startOptions(nil)
	opts.NowFunc = clock.Now
	h := start(t, opts)
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)
	tick := func(at string) []schedule.Run {
		t.Helper()
		clock.Set(mustTime(at))
		runs, err := h.App.Scheduler().TickOrg(ctx, mustTime(at), org.ID)
		require.NoError(t, err)
		return runs
	}
	getSchedule := func(id uuid.UUID) client.Schedule {
		t.Helper()
		got, err := org.Client.GetScheduleWithResponse(ctx, id)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, got.StatusCode(), "body: %s", got.Body)
		return *got.JSON200
	}
	listRuns := func(id uuid.UUID, params *client.ListScheduleRunsParams) client.ScheduleRunList {
		t.Helper()
		got, err := org.Client.ListScheduleRunsWithResponse(ctx, id, params)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, got.StatusCode(), "body: %s", got.Body)
		return *got.JSON200
	}

	created, err := org.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{
		URL: "https://www.example.com/", Frequency: ptr(client.ScheduleCreateRequestFrequencyMonthly), BrandName: ptr("Example"),
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	sc := created.JSON201
	require.Equal(t, mustTime("2027-02-28T10:00:00Z"), *sc.NextRunAt, "one month after creation, clamped to February's end")
	require.Nil(t, sc.LastSkipReason)
	require.Nil(t, sc.LastSkippedAt)
	require.Empty(t, listRuns(sc.ID, nil).Data)

	// Due while the subscription is off: skipped, retried 6 hours later.
	_, err = h.Store.SetSubscription(ctx, org.ID, false)
	require.NoError(t, err)
	require.Len(t, tick("2027-02-28T10:00:00Z"), 1)
	got := getSchedule(sc.ID)
	require.Equal(t, "subscription_inactive", *got.LastSkipReason)
	require.Equal(t, mustTime("2027-02-28T10:00:00Z"), *got.LastSkippedAt)
	require.Equal(t, mustTime("2027-02-28T16:00:00Z"), *got.NextRunAt)
	require.Nil(t, got.LastRunAt)
	runs := listRuns(sc.ID, nil)
	require.Len(t, runs.Data, 1)
	require.Equal(t, client.Skipped, runs.Data[0].Outcome)
	require.Equal(t, "subscription_inactive", *runs.Data[0].SkipReason)
	require.Nil(t, runs.Data[0].ScanID)

	_, err = h.Store.SetSubscription(ctx, org.ID, true)
	require.NoError(t, err)
	require.Len(t, tick("2027-02-28T16:00:00Z"), 1)
	got = getSchedule(sc.ID)
	require.NotNil(t, got.LastScanID)
	require.Equal(t, mustTime("2027-02-28T16:00:00Z"), *got.LastRunAt)
	require.Equal(t, mustTime("2027-03-31T10:00:00Z"), *got.NextRunAt, "the retry did not move the cadence")

	scan, err := org.Client.GetScanWithResponse(ctx, *got.LastScanID)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, scan.StatusCode())
	require.Equal(t, client.ScanSourceSchedule, scan.JSON200.Source)
	require.Equal(t, sc.ID, *scan.JSON200.ScheduleID)
	require.Equal(t, "https://www.example.com/", scan.JSON200.URL)
	require.Equal(t, "Example", scan.JSON200.BrandName)

	runs = listRuns(sc.ID, nil)
	require.Len(t, runs.Data, 1, "the retried period kept its entry")
	first := runs.Data[0]
	require.Equal(t, client.Scanned, first.Outcome)
	require.Nil(t, first.SkipReason)
	require.Equal(t, 2, first.Attempts)
	require.Equal(t, got.LastScanID, first.ScanID)
	require.Equal(t, "pending", *first.ScanStatus)
	require.Equal(t, mustTime("2027-02-28T10:00:00Z"), first.DueAt)

	// Finish the scan as the runner does: the run shows its score and grade.
	_, err = h.Store.StartScan(ctx, *first.ScanID)
	require.NoError(t, err)
	_, err = h.Store.CompleteScan(ctx, store.Completion{
		ScanID: *first.ScanID, ScoringVersion: "test", Overall: 81.4, OverallGrade: "B",
		Search: store.RingScore{Score: 80, Grade: "B"}, Visibility: store.RingScore{Score: 82, Grade: "B"}, Trust: store.RingScore{Score: 83, Grade: "B"},
		Report: map[string]any{},
	})
	require.NoError(t, err)

	for _, at := range []string{"2027-03-31T10:00:00Z", "2027-04-30T10:00:00Z", "2027-05-31T10:00:00Z", "2027-06-30T10:00:00Z"} {
		require.Len(t, tick(at), 1, at)
	}
	page1 := listRuns(sc.ID, &client.ListScheduleRunsParams{Limit: ptr(2)})
	require.Len(t, page1.Data, 2)
	require.True(t, page1.HasMore)
	require.Equal(t, mustTime("2027-06-30T10:00:00Z"), page1.Data[0].DueAt, "newest first")
	page2 := listRuns(sc.ID, &client.ListScheduleRunsParams{Limit: ptr(2), Cursor: page1.NextCursor})
	require.Len(t, page2.Data, 2)
	page3 := listRuns(sc.ID, &client.ListScheduleRunsParams{Limit: ptr(2), Cursor: page2.NextCursor})
	require.Len(t, page3.Data, 1)
	require.False(t, page3.HasMore)
	require.Nil(t, page3.NextCursor)
	oldest := page3.Data[0]
	require.Equal(t, first.ID, oldest.ID)
	require.Equal(t, "completed", *oldest.ScanStatus)
	require.InDelta(t, 81.4, *oldest.OverallScore, 0.001)
	require.Equal(t, "B", *oldest.OverallGrade)

	// A deleted scan leaves its period, without the scan.
	del, err := org.Client.DeleteScanWithResponse(ctx, *first.ScanID)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, del.StatusCode())
	page3 = listRuns(sc.ID, &client.ListScheduleRunsParams{Limit: ptr(2), Cursor: page2.NextCursor})
	require.Equal(t, client.Scanned, page3.Data[0].Outcome)
	require.Nil(t, page3.Data[0].ScanID)
	require.Nil(t, page3.Data[0].ScanStatus)

	// Errors: another organization, an unknown schedule, a bad cursor.
	other := h.NewOrg(t, "free", true)
	path := "/api/v1/schedules/" + sc.ID.String() + "/runs"
	h.Do(t, "GET", path, other.Key, nil).RequireError(t, 404, "schedule_not_found", "schedule_id")
	h.Do(t, "GET", "/api/v1/schedules/"+uuid.NewString()+"/runs", org.Key, nil).RequireError(t, 404, "schedule_not_found", "schedule_id")
	h.Do(t, "GET", path+"?cursor=bm9wZQ", org.Key, nil).RequireError(t, 422, "invalid_parameter", "cursor")
	h.Do(t, "GET", path+"?limit=0", org.Key, nil).RequireError(t, 422, "invalid_parameter", "limit")
}

// TestScheduleUpdateRecomputesNextRun changes frequency and reactivates a
// schedule under injected time and reads next_run_at back.
func TestScheduleUpdateRecomputesNextRun(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: mustTime("2028-01-31T08:00:00Z")}
	h := start(t, apitest.Options{Hosts: apitest.DefaultHosts, NowFunc: clock.Now})
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)
	created, err := org.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{URL: "https://example.com/", Frequency: ptr(client.ScheduleCreateRequestFrequencyMonthly)})
	require.NoError(t, err)
	id := created.JSON201.ID
	require.Equal(t, mustTime("2028-02-29T08:00:00Z"), *created.JSON201.NextRunAt, "a leap February")

	clock.Set(mustTime("2028-02-10T00:00:00Z"))
	upd, err := org.Client.UpdateScheduleWithResponse(ctx, id, client.ScheduleUpdateRequest{Frequency: ptr(client.ScheduleUpdateRequestFrequencyQuarterly)})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, upd.StatusCode(), "body: %s", upd.Body)
	require.Equal(t, mustTime("2028-04-30T08:00:00Z"), *upd.JSON200.NextRunAt, "three months from the anchor")

	off, err := org.Client.DeleteScheduleWithResponse(ctx, id)
	require.NoError(t, err)
	require.Nil(t, off.JSON200.NextRunAt)
	clock.Set(mustTime("2028-08-31T12:00:00Z"))
	on, err := org.Client.UpdateScheduleWithResponse(ctx, id, client.ScheduleUpdateRequest{Active: ptr(true)})
	require.NoError(t, err)
	require.Equal(t, mustTime("2028-11-30T12:00:00Z"), *on.JSON200.NextRunAt, "reactivation re-anchors: a quarter from now, clamped")
}
