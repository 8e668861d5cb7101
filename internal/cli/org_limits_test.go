package cli

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
)

// TestOrgSetLimitsAppliesToARunningServer changes an organization's limits
// with the CLI while a server runs and watches the API obey them.
func TestOrgSetLimitsAppliesToARunningServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := apitest.Start(t, pgtest.URL(), apitest.Options{ManualScheduler: true}) // see clientEnv
	org := h.NewOrg(t, "free", true)
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	id := org.ID.String()
	createScan := func() apitest.Response {
		return h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://example.com/"})
	}

	code, out, errOut := runCLI(t, vars, "org", "set-limits", id, "--daily-scans", "1", "--schedules", "0", "--api-write", "1000")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `daily scans\s+5\s+1\s+1\n`, out)
	require.Regexp(t, `active schedules\s+5\s+0\s+0\n`, out)
	require.Regexp(t, `api_write per minute\s+10\s+1000\s+1000\n`, out)
	require.Regexp(t, `api_read per minute\s+120\s+-\s+120\n`, out)

	// Daily scans and schedules are read per request: at once.
	require.Equal(t, http.StatusCreated, createScan().Status)
	createScan().RequireError(t, http.StatusPaymentRequired, "subscription_required", "")
	h.Do(t, "POST", "/api/v1/schedules", org.Key, map[string]any{"url": "https://example.com/"}).
		RequireError(t, http.StatusUnprocessableEntity, "schedule_limit_reached", "")
	// Rate limits are reread when the change is announced: poll until the
	// new limit shows.
	poll.Until(t, 30*time.Second, "the api_write override to apply", func() bool {
		return h.Do(t, "GET", "/api/v1/usage", org.Key, nil).Header.Get("X-RateLimit-Limit") == "120" && writeLimit(t, h, org) == "1000"
	})

	// One limit back to the plan; the others kept.
	code, out, errOut = runCLI(t, vars, "org", "set-limits", id, "--daily-scans", "plan")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `daily scans\s+5\s+-\s+5\n`, out)
	require.Regexp(t, `api_write per minute\s+10\s+1000\s+1000\n`, out)
	require.Equal(t, http.StatusCreated, createScan().Status)

	code, out, errOut = runCLI(t, vars, "org", "show", id)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "Plan          free, subscription active\n")
	require.Regexp(t, `active schedules\s+5\s+0\s+0\n`, out)
	require.Regexp(t, `Usage on \d{4}-\d\d-\d\d \(UTC\): 2 of 5 scans; 0 of 0 active schedules\n`, out)
	require.Contains(t, out, "API keys: 1 active, 0 revoked\n")
	require.Contains(t, out, "Members:\n  none")

	_, err := h.Store.CreateMember(ctx, org.ID, "ops@example.com", "Ops", store.RoleOwner)
	require.NoError(t, err)
	code, _, errOut = runCLI(t, vars, "org", "--clear", "set-limits", id)
	require.Equal(t, 2, code, "flags go after the subcommand: %s", errOut)
	code, out, errOut = runCLI(t, vars, "org", "set-limits", id, "--clear", "--api-read", "7")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `daily scans\s+5\s+-\s+5\n`, out)
	require.Regexp(t, `api_write per minute\s+10\s+-\s+10\n`, out)
	require.Regexp(t, `api_read per minute\s+120\s+7\s+7\n`, out)
	require.Regexp(t, `crawl requests per second\s+2\s+-\s+2\n`, out)
	require.Regexp(t, `crawl requests in flight\s+2\s+-\s+2\n`, out)

	// A whole-site audit's politeness: the plan's unless the organization
	// has its own (the scan job reads it as each scan starts).
	code, out, errOut = runCLI(t, vars, "org", "set-limits", id, "--crawl-rate", "4.5", "--crawl-concurrency", "4")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `crawl requests per second\s+2\s+4.5\s+4.5\n`, out)
	require.Regexp(t, `crawl requests in flight\s+2\s+4\s+4\n`, out)
	require.Regexp(t, `api_read per minute\s+120\s+7\s+7\n`, out, "the other overrides kept")
	got, err := h.Store.GetOrganization(ctx, org.ID)
	require.NoError(t, err)
	require.InDelta(t, 4.5, store.Limits(got).CrawlRate, 1e-9)
	require.Equal(t, 4, store.Limits(got).CrawlConcurrency)
	code, out, errOut = runCLI(t, vars, "org", "set-limits", id, "--crawl-rate", "plan")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `crawl requests per second\s+2\s+-\s+2\n`, out)
	require.Regexp(t, `crawl requests in flight\s+2\s+4\s+4\n`, out)
	code, out, _ = runCLI(t, vars, "org", "show", id)
	require.Equal(t, 0, code)
	require.Regexp(t, `ops@example.com\s+Ops\s+owner`, out)
	require.True(t, strings.HasPrefix(out, "Organization  "+id))
}

func writeLimit(t *testing.T, h *apitest.Harness, org apitest.Org) string {
	t.Helper()
	// A refused PATCH of an unknown schedule still counts as a write and
	// carries the group's headers; it changes nothing.
	r := h.Do(t, "PATCH", "/api/v1/schedules/5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", org.Key, map[string]any{"active": false})
	return r.Header.Get("X-RateLimit-Limit")
}

func TestOrgSetLimitsErrors(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	const missing = "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"org", "set-limits", missing}, 2, "at least one limit or --clear"},
		{[]string{"org", "set-limits", missing, "--api-read", "0"}, 2, "from 1 to 1000000"},
		{[]string{"org", "set-limits", missing, "--daily-scans", "-1"}, 2, "from 0 to 1000000"},
		{[]string{"org", "set-limits", missing, "--schedules", "many"}, 2, "or plan"},
		{[]string{"org", "set-limits", missing, "--crawl-rate", "0"}, 2, "above 0 and at most 20"},
		{[]string{"org", "set-limits", missing, "--crawl-rate", "21"}, 2, "above 0 and at most 20"},
		{[]string{"org", "set-limits", missing, "--crawl-rate", "NaN"}, 2, "above 0 and at most 20"},
		{[]string{"org", "set-limits", missing, "--crawl-concurrency", "17"}, 2, "from 1 to 16"},
		{[]string{"org", "set-limits", missing, "--crawl-concurrency", "0"}, 2, "from 1 to 16"},
		{[]string{"org", "set-limits", "--clear"}, 2, "org set-limits ORG_ID"},
		{[]string{"org", "set-limits", "acme", "--clear"}, 2, "not an organization id"},
		{[]string{"org", "set-limits", missing, "--clear"}, 1, "no organization"},
		{[]string{"org", "show"}, 2, "org show ORG_ID"},
		{[]string{"org", "show", missing}, 1, "no organization"},
	} {
		code, _, errOut := runCLI(t, vars, tc.args...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}
