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
