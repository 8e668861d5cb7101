package schedule_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/store"
)

// A schedule's language is stored, kept by a change of something else, and
// given to the scans it creates.
func TestScheduleLanguage(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	org := b.newOrg(t, "free")
	anchor := utc("2031-01-15T09:00:00Z")
	sc, _, err := schedule.Create(ctx, b.st, store.NewSchedule{
		OrgID: org, URL: "https://lang.example.com/", Domain: "lang.example.com", BrandName: "Lang",
		Frequency: store.Monthly, NotifyEmail: true, Language: new("de"),
	}, anchor)
	require.NoError(t, err)
	require.Equal(t, "de", *b.get(t, org, sc.ID).Language)

	off := false
	_, err = schedule.Update(ctx, b.st, org, sc.ID, schedule.Change{NotifyEmail: &off}, anchor)
	require.NoError(t, err)
	require.Equal(t, "de", *b.get(t, org, sc.ID).Language, "kept")
	_, err = schedule.Update(ctx, b.st, org, sc.ID, schedule.Change{Language: new("fr")}, anchor)
	require.NoError(t, err)
	require.Equal(t, "fr", *b.get(t, org, sc.ID).Language)

	runs := b.tick(t, org, utc("2031-02-15T09:00:00Z"))
	require.Len(t, runs, 1)
	require.NotNil(t, runs[0].ScanID)
	scan, err := b.st.GetScan(ctx, org, *runs[0].ScanID)
	require.NoError(t, err)
	require.NotNil(t, scan.Language)
	require.Equal(t, "fr", *scan.Language, "the scan has the schedule's language")
}
