package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// Lists without a filter and with one read different queries; both page
// the same rows in the same order, ties on created_at included, and a
// page larger than the unfiltered query's own LIMIT is read whole.
func TestListScansPages(t *testing.T) {
	t.Parallel()
	tx := pgtest.Tx(t)
	st, ctx := store.New(pgtest.Pool(t)).WithTx(tx), context.Background()
	a := org(t, st, true, planlimits.Overrides{})
	other := org(t, st, true, planlimits.Overrides{})
	// 230 scans, three to a creation time, and a completed one with every
	// column set; another organization's scans in between.
	_, err := tx.Exec(ctx, `INSERT INTO scans (org_id, url, domain, brand_name, created_at)
		SELECT $1, 'https://s' || g || '.example.com/', 's' || g || '.example.com', 's' || g,
		       timestamptz '2026-11-01 00:00:00Z' + (g / 3) * interval '1 second'
		FROM generate_series(1, 230) g`, a.ID)
	require.NoError(t, err)
	_, err = tx.Exec(ctx, `INSERT INTO scans (org_id, url, domain, brand_name, created_at)
		SELECT $1, 'https://o.example.com/', 'o.example.com', 'o', timestamptz '2026-11-01 00:00:00Z' + g * interval '1 second'
		FROM generate_series(1, 50) g`, other.ID)
	require.NoError(t, err)
	full := newScan(a)
	full.BrandAliases, full.Project, full.TrackedURL = []string{"Example", "Ex"}, ptr("p"), ptr("https://example.com/t")
	full.CallbackURL, full.WebhookSecret = ptr("https://example.com/cb"), ptr("whsec_x")
	created, err := st.CreateScan(ctx, full, time.Now())
	require.NoError(t, err)
	_, err = st.StartScan(ctx, created.ID)
	require.NoError(t, err)
	done, err := st.CompleteScan(ctx, store.Completion{
		ScanID: created.ID, ScoringVersion: "v", Overall: 72.5, OverallGrade: "B",
		Search: store.RingScore{Score: 80, Grade: "B"}, Visibility: store.RingScore{Score: 60, Grade: "C"}, Trust: store.RingScore{Score: 77, Grade: "B"},
	})
	require.NoError(t, err)

	rows, err := tx.Query(ctx, `SELECT id FROM scans WHERE org_id = $1 ORDER BY created_at DESC, id DESC`, a.ID)
	require.NoError(t, err)
	want, err := pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
	require.NoError(t, err)
	require.Len(t, want, 231)

	everything := store.ScanFilter{CreatedAfter: ptr(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))}
	for _, f := range []store.ScanFilter{{}, everything} {
		for _, limit := range []int{1, 7, 21, 101, 150} {
			var got []uuid.UUID
			var after *store.Cursor
			for {
				page, err := st.ListScans(ctx, a.ID, f, after, limit)
				require.NoError(t, err)
				require.LessOrEqual(t, len(page), limit)
				for _, s := range page {
					got = append(got, s.ID)
				}
				if len(page) < limit {
					break
				}
				c := page[len(page)-1].Cursor()
				after = &c
			}
			require.Equal(t, want, got, "filter %+v, limit %d", f, limit)
		}
	}

	page, err := st.ListScans(ctx, a.ID, store.ScanFilter{}, nil, 1)
	require.NoError(t, err)
	require.Equal(t, []store.ScanView{done.ScanView}, page, "a list item holds every column the API shows")

	// Each query above ran on the transaction's one connection, the
	// filtered one far more than five times: it was planned for each
	// call's values, never kept as a statement PostgreSQL could give a
	// generic plan; the unfiltered one is kept, its plan made for any
	// cursor.
	var filtered, unfiltered int
	require.NoError(t, tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE statement LIKE '-- name: ListScansForOrgFiltered %'),
	       count(*) FILTER (WHERE statement LIKE '-- name: ListScansForOrg :%')
	FROM pg_prepared_statements`).Scan(&filtered, &unfiltered))
	require.Zero(t, filtered)
	require.Equal(t, 1, unfiltered)
}

func ptr[T any](v T) *T { return &v }

// ScanShare counts an organization's running scans in every process, its
// own row and rows older than the live window left out, and sees another
// organization waiting only while that one runs fewer than the share;
// LockScanShare measures the same under the organization's lock, and
// ClaimScan then starts the scan.
func TestLockScanShare(t *testing.T) {
	t.Parallel()
	st, ctx := txStore(t), context.Background()
	tx := st.Tx()
	a := org(t, st, true, planlimits.Overrides{})
	b := org(t, st, true, planlimits.Overrides{})
	c := org(t, st, true, planlimits.Overrides{})
	insert := func(o store.Organization, status string, age time.Duration) uuid.UUID {
		t.Helper()
		var id uuid.UUID
		require.NoError(t, tx.QueryRow(ctx, `INSERT INTO scans (org_id, url, domain, brand_name, status, updated_at)
			VALUES ($1, 'https://example.com/', 'example.com', 'e', $2, now() - $3 * interval '1 second') RETURNING id`,
			o.ID, status, age.Seconds()).Scan(&id))
		return id
	}
	aRunning := insert(a, "running", 0)
	insert(a, "running", 0)
	insert(a, "running", 0)
	insert(a, "running", 2*time.Hour) // a dead worker's
	aPending := insert(a, "pending", 0)
	insert(b, "running", 0)
	insert(b, "pending", 0)
	insert(c, "running", 0)
	insert(c, "running", 0)
	insert(c, "pending", 0)
	aDone := insert(a, "completed", 0)

	for _, tc := range []struct {
		name    string
		scan    uuid.UUID
		share   int
		live    time.Duration
		running int
		waiting bool
	}{
		{"another organization under its share waits", aPending, 2, time.Minute, 3, true},
		{"everyone waiting runs its share already", aPending, 1, time.Minute, 3, false},
		{"a larger share leaves the other organization under it", aPending, 4, time.Minute, 3, true},
		{"a longer window counts the dead worker's scan", aPending, 2, 3 * time.Hour, 4, true},
		{"a restarted scan does not count itself", aRunning, 2, time.Minute, 2, true},
	} {
		want := store.ScanShare{OrgID: a.ID, Running: tc.running, OthersWaiting: tc.waiting}
		got, err := st.ScanShare(ctx, tc.scan, tc.share, tc.live)
		require.NoError(t, err, tc.name)
		require.Equal(t, want, got, tc.name)
		got, err = st.LockScanShare(ctx, tc.scan, tc.share, tc.live)
		require.NoError(t, err, tc.name)
		require.Equal(t, want, got, "%s, under the lock", tc.name)
	}

	_, err := st.ScanShare(ctx, aDone, 2, time.Minute)
	require.ErrorIs(t, err, store.ErrNotFound, "a finished scan")
	_, err = st.LockScanShare(ctx, aDone, 2, time.Minute)
	require.ErrorIs(t, err, store.ErrNotFound, "a finished scan")
	_, err = store.New(pgtest.Pool(t)).LockScanShare(ctx, aPending, 2, time.Minute)
	require.ErrorContains(t, err, "inside InTx", "the lock lasts until the transaction ends")

	claimed, err := st.ClaimScan(ctx, aPending)
	require.NoError(t, err)
	require.Equal(t, store.ScanRunning, claimed.Status)
	require.NotNil(t, claimed.StartedAt)
	require.EqualValues(t, 1, claimed.Attempts)
	got, err := st.LockScanShare(ctx, aPending, 2, time.Minute)
	require.NoError(t, err)
	require.Equal(t, 3, got.Running, "the three fresh running scans, besides itself")
	_, err = st.ClaimScan(ctx, aDone)
	require.ErrorIs(t, err, store.ErrNotFound)
}
