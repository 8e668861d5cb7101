package store_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// txStore is a store on a transaction rolled back when the test ends: each
// test sees only its own rows, however many run at once.
func txStore(t *testing.T) *store.Store {
	t.Helper()
	return store.New(pgtest.Pool(t)).WithTx(pgtest.Tx(t))
}

func org(t *testing.T, st *store.Store, active bool, o planlimits.Overrides) store.Organization {
	t.Helper()
	ctx := context.Background()
	org, err := st.CreateOrganization(ctx, "store-test", "free", active)
	require.NoError(t, err)
	org, err = st.SetOverrides(ctx, org.ID, o)
	require.NoError(t, err)
	return org
}

func newScan(orgID store.Organization) store.NewScan {
	return store.NewScan{OrgID: orgID.ID, Source: store.SourceAPI, URL: "https://example.com/", Domain: "example.com", BrandName: "example"}
}

func TestCreateScanChecksSubscriptionAndQuota(t *testing.T) {
	t.Parallel()
	st, ctx := txStore(t), context.Background()
	one := int32(1)
	now := time.Date(2026, 11, 23, 23, 59, 0, 0, time.UTC)

	a := org(t, st, true, planlimits.Overrides{DailyScans: &one})
	scan, err := st.CreateScan(ctx, newScan(a), now)
	require.NoError(t, err)
	require.Equal(t, store.ScanPending, scan.Status)
	require.Equal(t, store.SourceAPI, scan.Source)
	_, err = st.CreateScan(ctx, newScan(a), now)
	require.ErrorIs(t, err, store.ErrQuotaExhausted)
	used, err := st.DailyUsage(ctx, a.ID, now)
	require.NoError(t, err)
	require.Equal(t, 1, used, "a refused create takes no quota")
	_, err = st.CreateScan(ctx, newScan(a), now.Add(time.Minute))
	require.NoError(t, err, "the quota is per UTC day")

	inactive := org(t, st, false, planlimits.Overrides{})
	_, err = st.CreateScan(ctx, newScan(inactive), now)
	require.ErrorIs(t, err, store.ErrNoSubscription)
}

func TestScanLifecycle(t *testing.T) {
	t.Parallel()
	st, ctx := txStore(t), context.Background()
	a := org(t, st, true, planlimits.Overrides{})
	scan, err := st.CreateScan(ctx, newScan(a), time.Now())
	require.NoError(t, err)

	_, err = st.CompleteScan(ctx, store.Completion{ScanID: scan.ID})
	require.ErrorIs(t, err, store.ErrNotFound, "only a running scan completes")
	running, err := st.StartScan(ctx, scan.ID)
	require.NoError(t, err)
	require.Equal(t, store.ScanRunning, running.Status)

	score := 0.5
	done, err := st.CompleteScan(ctx, store.Completion{
		ScanID: scan.ID, ScoringVersion: "test", Overall: 72.5, OverallGrade: "B",
		Search: store.RingScore{Score: 80, Grade: "B"}, Visibility: store.RingScore{Score: 60, Grade: "C"}, Trust: store.RingScore{Score: 77, Grade: "B"},
		Checks: []store.CheckRow{
			{CheckID: "b_second", Ring: "search", Pillar: "crawl_access", Status: "warn", Score: &score, Weight: 3, Impact: "low", Effort: "low", Evidence: map[string]any{"n": 2}},
			{CheckID: "a_first", Ring: "trust", Pillar: "site_security", Status: "na", Weight: 1, Impact: "low", Effort: "low"},
		},
		Report:   map[string]string{"kept": "whole"},
		Triage:   &store.TriageDoc{SchemaVersion: "1", Body: map[string]int{"x": 1}},
		Snapshot: []byte("fetched"), SnapshotFormat: 2,
	})
	require.NoError(t, err)
	require.Equal(t, store.ScanCompleted, done.Status)
	require.True(t, done.Status.Finished())
	require.InDelta(t, 72.5, *done.OverallScore, 1e-9)

	results, err := st.ListCheckResults(ctx, scan.ID)
	require.NoError(t, err)
	require.Len(t, results, 2)
	require.Equal(t, "b_second", results[0].CheckID, "results keep the catalog's order")
	require.JSONEq(t, `{"n":2}`, string(results[0].Evidence))
	report, err := st.GetReport(ctx, scan.ID)
	require.NoError(t, err)
	require.JSONEq(t, `{"kept":"whole"}`, string(report.Body))
	triage, err := st.GetTriage(ctx, scan.ID)
	require.NoError(t, err)
	require.Equal(t, "1", triage.SchemaVersion)
	snap, err := st.GetSnapshot(ctx, scan.ID)
	require.NoError(t, err)
	require.Equal(t, 2, snap.Format)

	_, err = st.FailScan(ctx, scan.ID, "timeout", "too late")
	require.ErrorIs(t, err, store.ErrNotFound, "a finished scan stays finished")
}

func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, _, err := store.New(pgtest.Pool(t)).ClaimIdempotencyKey(ctx, store.IdempotencyKey{}, nil)
	require.Error(t, err, "the key's lock lasts a transaction, so a claim needs one")

	st := txStore(t)
	a := org(t, st, true, planlimits.Overrides{})
	k := store.IdempotencyKey{OrgID: a.ID, Operation: "createScan", Key: "k1"}
	hash := []byte("request")
	_, found, err := st.ClaimIdempotencyKey(ctx, k, hash)
	require.NoError(t, err)
	require.False(t, found)
	first := store.StoredResponse{Status: 201, Body: json.RawMessage(`{"id":"first"}`)}
	require.NoError(t, st.SaveIdempotentResponse(ctx, k, hash, first))

	again, found, err := st.ClaimIdempotencyKey(ctx, k, hash)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, first.Status, again.Status)
	require.JSONEq(t, string(first.Body), string(again.Body))
	_, _, err = st.ClaimIdempotencyKey(ctx, k, []byte("another request"))
	require.ErrorIs(t, err, store.ErrIdempotencyReused)

	n, err := st.DeleteExpiredIdempotencyKeys(ctx, 1000)
	require.NoError(t, err)
	require.Zero(t, n, "a key within its TTL is kept")
}

func TestScheduleRowsAndLimit(t *testing.T) {
	t.Parallel()
	st, ctx := txStore(t), context.Background()
	limit := int32(1)
	a := org(t, st, true, planlimits.Overrides{ActiveSchedules: &limit})
	anchor := time.Date(2026, 1, 31, 9, 0, 0, 0, time.UTC)
	due := time.Date(2026, 4, 30, 9, 0, 0, 0, time.UTC)
	n := store.NewSchedule{
		OrgID: a.ID, URL: "https://example.com/", Domain: "example.com", BrandName: "example", Frequency: store.Quarterly,
		AnchorAt: anchor, DueAt: due,
	}

	require.NoError(t, st.LockOrganization(ctx, a.ID))
	require.NoError(t, st.CheckScheduleLimit(ctx, a.ID))
	sc, err := st.InsertSchedule(ctx, n)
	require.NoError(t, err)
	require.Equal(t, anchor, sc.AnchorAt.UTC())
	require.Equal(t, due, sc.DueAt.UTC())
	require.Equal(t, due, sc.NextRunAt.UTC(), "the first run is tried when it is due")
	_, err = st.InsertSchedule(ctx, n)
	require.ErrorIs(t, err, store.ErrConflict, "one schedule per URL")
	byURL, err := st.GetScheduleByURL(ctx, a.ID, n.URL)
	require.NoError(t, err)
	require.Equal(t, sc.ID, byURL.ID)
	require.ErrorIs(t, st.CheckScheduleLimit(ctx, a.ID), store.ErrScheduleLimit)

	locked, err := st.LockSchedule(ctx, a.ID, sc.ID)
	require.NoError(t, err)
	off, err := st.SaveSchedule(ctx, a.ID, sc.ID, store.ScheduleSettings{
		Frequency: store.Monthly, NotifyEmail: false, Active: false,
		AnchorAt: locked.AnchorAt, DueAt: locked.DueAt, NextRunAt: locked.NextRunAt,
	})
	require.NoError(t, err)
	require.False(t, off.Active)
	require.NotNil(t, off.DeactivatedAt)
	require.Equal(t, store.Monthly, off.Frequency)
	require.NoError(t, st.CheckScheduleLimit(ctx, a.ID), "a deactivated schedule frees its place")

	_, err = st.LockSchedule(ctx, org(t, st, true, planlimits.Overrides{}).ID, sc.ID)
	require.ErrorIs(t, err, store.ErrNotFound, "another organization's schedule")
	_, err = store.New(st.Pool()).LockSchedule(ctx, a.ID, sc.ID)
	require.Error(t, err, "a row lock outside a transaction would be released at once")
}
