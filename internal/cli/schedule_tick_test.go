package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// TestScheduleTickTwiceCreatesOneScan runs `geoscan schedule tick --at` for
// one instant twice. Its schedules are anchored in 1995, before any other
// schedule of this package's database, so the tick serves only them.
func TestScheduleTickTwiceCreatesOneScan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	st := store.New(pgtest.Pool(t))
	org, err := st.CreateOrganization(ctx, "tick", "free", true)
	require.NoError(t, err)
	anchor := time.Date(1995, 1, 31, 9, 0, 0, 0, time.UTC)
	var ids []string
	for _, host := range []string{"a.example.com", "b.example.com"} {
		sc, _, err := schedule.Create(ctx, st, store.NewSchedule{
			OrgID: org.ID, URL: "https://" + host + "/", Domain: host, BrandName: host, Frequency: store.Monthly, NotifyEmail: true,
		}, anchor)
		require.NoError(t, err)
		ids = append(ids, sc.ID.String())
	}

	code, out, errOut := runCLI(t, vars, "schedule", "tick", "--at", "1995-02-28T09:00:00Z")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "2 scans created, 0 runs skipped at 1995-02-28T09:00:00Z")
	for _, id := range ids {
		require.Regexp(t, id+`\s+1995-02-28T09:00:00Z\s+scanned\s+[0-9a-f-]{36}\s+1995-03-31T09:00:00Z`, out)
	}

	code, out, errOut = runCLI(t, vars, "schedule", "tick", "--at", "1995-02-28T09:00:00Z")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "no schedule due at 1995-02-28T09:00:00Z\n", out)

	var scans int
	require.NoError(t, st.Pool().QueryRow(ctx, "SELECT count(*) FROM scans WHERE org_id = $1 AND source = 'schedule'", org.ID).Scan(&scans))
	require.Equal(t, 2, scans)
	var jobs int
	require.NoError(t, st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job j JOIN scans s ON s.job_id = j.id WHERE s.org_id = $1 AND j.kind = 'scan'`, org.ID).Scan(&jobs))
	require.Equal(t, 2, jobs, "each scan's job is queued for the workers")

	// --org limits a tick to one organization.
	code, out, errOut = runCLI(t, vars, "schedule", "tick", "--at", "1995-03-31T09:00:00Z", "--org", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11")
	require.Equal(t, 0, code, errOut)
	require.True(t, strings.HasPrefix(out, "no schedule due"), out)
}

func TestScheduleTickErrors(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schedule"}, "schedule needs a command"},
		{[]string{"schedule", "tick", "--at", "tomorrow"}, "--at must be an RFC 3339 time"},
		{[]string{"schedule", "tick", "--org", "acme"}, "--org must be an organization id"},
		{[]string{"schedule", "tick", "now"}, "takes no arguments"},
	} {
		code, _, errOut := runCLI(t, vars, tc.args...)
		require.Equal(t, 2, code, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}
