package cli

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// storedMessage stores the email of a new scan of a new schedule of org in
// the given state, as the email job would have; the scan has no job, so no
// worker of another test of this package touches it.
func storedMessage(t *testing.T, st *store.Store, orgID uuid.UUID, host, status string) store.OutboxMessage {
	t.Helper()
	ctx := context.Background()
	sc, _, err := schedule.Create(ctx, st, store.NewSchedule{
		OrgID: orgID, URL: "https://" + host + "/", Domain: host, BrandName: host, Frequency: store.Monthly, NotifyEmail: true,
	}, time.Now())
	require.NoError(t, err)
	scan, err := st.CreateScan(ctx, store.NewScan{
		OrgID: orgID, ScheduleID: &sc.ID, Source: store.SourceSchedule, URL: sc.URL, Domain: host, BrandName: host,
	}, time.Now())
	require.NoError(t, err)
	m, created, err := st.CreateOutboxMessage(ctx, store.OutboxMessage{
		OrgID: orgID, ScheduleID: &sc.ID, ScanID: &scan.ID, Recipient: "ops@" + host,
		Subject: "GeoScan: " + host, TextBody: "text", HTMLBody: "<p>html</p>", Status: status,
	})
	require.NoError(t, err)
	require.True(t, created)
	return m
}

func emailJobs(t *testing.T, st *store.Store, messageID uuid.UUID) int {
	t.Helper()
	var n int
	require.NoError(t, st.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = 'scan_email' AND args->>'message_id' = $1`, messageID.String()).Scan(&n))
	return n
}

// TestOutboxSendQueuesNothingWhenItRefuses covers what `outbox send`
// refuses and what it only reports; the sending itself is tested with a
// relay and the workers in internal/jobs/mail (TestOutboxSend). Nothing here
// queues a job: the workers of this package's other tests have no relay.
func TestOutboxSendQueuesNothingWhenItRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := store.New(pgtest.Pool(t))
	org, err := st.CreateOrganization(ctx, "outbox", "pro", true)
	require.NoError(t, err)
	held := storedMessage(t, st, org.ID, "held.example.com", store.EmailHeld)
	sent := storedMessage(t, st, org.ID, "sent.example.com", store.EmailSent)
	noRelay := map[string]string{"DATABASE_URL": pgtest.URL()}
	// The command never contacts the relay itself: the workers do.
	relay := map[string]string{"DATABASE_URL": pgtest.URL(), "GEOSCAN_SMTP_URL": "smtp://127.0.0.1:2525"}
	unknown := "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"

	for _, tc := range []struct {
		vars map[string]string
		args []string
		code int
		want string
	}{
		{relay, []string{"outbox", "send"}, 2, "needs MESSAGE_ID arguments, --held or --failed"},
		{relay, []string{"outbox", "send", "first"}, 2, `"first" is not a message id`},
		{relay, []string{"outbox", "send", "--held", "--org", "acme"}, 2, "--org must be an organization id"},
		{relay, []string{"outbox", "deliver"}, 2, `unknown outbox subcommand "deliver"`},
		{noRelay, []string{"outbox", "send", "--held", "--org", org.ID.String()}, 1, "no SMTP relay is configured (GEOSCAN_SMTP_URL is unset)"},
		{noRelay, []string{"outbox", "send", held.ID.String()}, 1, "GEOSCAN_SMTP_URL is unset"},
		{relay, []string{"outbox", "send", held.ID.String(), unknown}, 1, "no outbox message with id " + unknown + "; nothing was queued"},
		{relay, []string{"outbox", "send", held.ID.String(), "--org", unknown}, 1, "no outbox message with id " + held.ID.String() + " in organization " + unknown},
	} {
		code, out, errOut := runCLI(t, tc.vars, tc.args...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.want, "%v", tc.args)
		require.Empty(t, out, "%v", tc.args)
	}

	// A dry run needs no relay: it shows what would be queued.
	code, out, errOut := runCLI(t, noRelay, "outbox", "send", "--held", "--org", org.ID.String(), "--dry-run")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, "without --dry-run this command would refuse")
	require.Regexp(t, held.ID.String()+`\s+held\s+ops@held.example.com\s+GeoScan: held.example.com\s+would be queued\n`, out)
	require.NotContains(t, out, sent.ID.String(), "only held emails are taken")
	require.Contains(t, out, "dry run: 1 would be queued, 0 skipped; nothing was changed")

	// A sent email named by id is reported, not sent again.
	code, out, errOut = runCLI(t, relay, "outbox", "send", sent.ID.String())
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, sent.ID.String()+`\s+sent\s+.*skipped: already sent\n`, out)
	require.Contains(t, out, "0 queued for sending, 1 skipped")

	for _, m := range []store.OutboxMessage{held, sent} {
		got, err := st.GetOutboxMessage(ctx, m.ID)
		require.NoError(t, err)
		require.Equal(t, m.Status, got.Status)
		require.Zero(t, got.Resends)
		require.Zero(t, emailJobs(t, st, m.ID))
	}

	code, help, errOut := runCLI(t, relay, "outbox", "send", "--help")
	require.Equal(t, 0, code)
	require.Empty(t, errOut)
	require.Contains(t, help, "Usage: geoscan outbox send [MESSAGE_ID ...] [--held] [--failed] [--org ORG_ID] [--dry-run]")
	require.Contains(t, help, "-dry-run")
}
