package store_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
)

// A scan's deliveries page newest first; made in one transaction they
// share their creation time, so the pages follow the ids.
func TestListDeliveriesPages(t *testing.T) {
	t.Parallel()
	st, ctx := txStore(t), context.Background()
	a := org(t, st, true, planlimits.Overrides{})
	scan, err := st.CreateScan(ctx, newScan(a), time.Now())
	require.NoError(t, err)
	other, err := st.CreateScan(ctx, newScan(a), time.Now())
	require.NoError(t, err)
	var want []uuid.UUID
	for range 7 {
		d, err := st.CreateDelivery(ctx, store.NewDelivery{OrgID: a.ID, ScanID: scan.ID, Event: "scan.test", URL: "https://example.com/cb", Payload: []byte(`{}`)})
		require.NoError(t, err)
		want = append(want, d.ID)
		_, err = st.CreateDelivery(ctx, store.NewDelivery{OrgID: a.ID, ScanID: other.ID, Event: "scan.test", URL: "https://example.com/cb", Payload: []byte(`{}`)})
		require.NoError(t, err)
	}
	// Equal creation times: newest first is the highest id first, as
	// PostgreSQL compares uuids, byte by byte.
	slices.SortFunc(want, func(x, y uuid.UUID) int { return bytes.Compare(y[:], x[:]) })

	var got []uuid.UUID
	var after *store.Cursor
	for {
		page, err := st.ListDeliveries(ctx, scan.ID, after, 3)
		require.NoError(t, err)
		for _, d := range page {
			got = append(got, d.ID)
		}
		if len(page) < 3 {
			break
		}
		c := page[len(page)-1].Cursor()
		after = &c
	}
	require.Equal(t, want, got)
}
