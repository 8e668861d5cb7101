package mail_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/cli"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/mailtest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// These tests run one after another, not in parallel: each starts a whole
// application whose workers take any job of the package database (an
// email queued by one test could go to another test's SMTP server), and
// each moves its own clock. Their schedulers tick only by hand.

const publicURL = "https://geoscan.example"

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

type bundle struct {
	h      *apitest.Harness
	clock  *clock
	sites  *testsite.Server
	caFile string
	// down, quiet and gone are homepages on a closed port: their scans
	// fail at once.
	down, quiet, gone string
}

func setup(t *testing.T, env map[string]string) *bundle {
	t.Helper()
	sites, err := testsite.Start()
	require.NoError(t, err)
	t.Cleanup(sites.Close)
	caFile, err := sites.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	require.NoError(t, ln.Close())

	hosts := map[string][]string{"down.example.com": {"127.0.0.1"}, "quiet.example.com": {"127.0.0.1"}, "gone.example.com": {"127.0.0.1"}}
	for _, name := range testsite.Realistic {
		hosts[sites.Host(name)] = []string{"127.0.0.1"}
	}
	vars := map[string]string{
		"GEOSCAN_ROLE":            "all",
		"GEOSCAN_EXTRA_CA_FILE":   caFile,
		"GEOSCAN_PLAIN_HTTP_PORT": strconv.Itoa(sites.HTTPPort()),
		"GEOSCAN_SCAN_BUDGET":     "10s",
		"GEOSCAN_PUBLIC_URL":      publicURL,
		"GEOSCAN_MAIL_FROM":       "GeoScan Reports <reports@geoscan.example>",
	}
	for k, v := range env {
		vars[k] = v
	}
	c := &clock{t: time.Date(2030, 1, 15, 10, 0, 0, 0, time.UTC)}
	h := apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Hosts: hosts, Getenv: vars, NowFunc: c.Now, ManualScheduler: true})
	return &bundle{
		h: h, clock: c, sites: sites, caFile: caFile,
		down: "https://down.example.com:" + closed + "/", quiet: "https://quiet.example.com:" + closed + "/", gone: "https://gone.example.com:" + closed + "/",
	}
}

// tick serves org's schedules due at at, as the periodic job would.
func (b *bundle) tick(t *testing.T, org uuid.UUID, at time.Time) {
	t.Helper()
	b.clock.Set(at)
	runs, err := b.h.App.Scheduler().TickOrg(context.Background(), at, org)
	require.NoError(t, err)
	require.NotEmpty(t, runs, "something was due at %s", at)
	for _, r := range runs {
		require.NotNil(t, r.ScanID, "run skipped: %s", r.SkipReason)
	}
}

func (b *bundle) createSchedule(t *testing.T, key string, body map[string]any) client.Schedule {
	t.Helper()
	r := b.h.Do(t, "POST", "/api/v1/schedules", key, body)
	require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
	var s client.Schedule
	r.JSON(t, &s)
	return s
}

func (b *bundle) schedule(t *testing.T, org apitest.Org, id uuid.UUID) client.Schedule {
	t.Helper()
	got, err := org.Client.GetScheduleWithResponse(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode())
	return *got.JSON200
}

// latestRun waits until the schedule's newest run has an email status.
func (b *bundle) latestRun(t *testing.T, org apitest.Org, id uuid.UUID) client.ScheduleRun {
	t.Helper()
	var run client.ScheduleRun
	poll.Until(t, 90*time.Second, "the run's email status", func() bool {
		got, err := org.Client.ListScheduleRunsWithResponse(context.Background(), id, &client.ListScheduleRunsParams{Limit: ptr(1)})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, got.StatusCode(), "body: %s", got.Body)
		if len(got.JSON200.Data) == 0 {
			return false
		}
		run = got.JSON200.Data[0]
		return run.EmailStatus != nil && *run.EmailStatus != store.EmailPending
	})
	return run
}

func (b *bundle) scan(t *testing.T, org apitest.Org, id uuid.UUID) client.Scan {
	t.Helper()
	got, err := org.Client.GetScanWithResponse(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode())
	return *got.JSON200
}

func ptr[T any](v T) *T { return &v }

// on returns org with a client of this bundle's server, for an
// organization an earlier server of the test created.
func (b *bundle) on(t *testing.T, org apitest.Org) apitest.Org {
	t.Helper()
	c, err := client.NewClientWithResponses(b.h.APIURL, client.WithHTTPClient(b.h.HTTP),
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-API-Key", org.Key)
			return nil
		}))
	require.NoError(t, err)
	org.Client = c
	return org
}

// TestScheduledScanEmails runs a schedule over a fixture site for three
// months against a real SMTP server and checks each email against the
// scans it reports on.
func TestScheduledScanEmails(t *testing.T) {
	smtp := mailtest.Start(t, mailtest.Options{})
	b := setup(t, map[string]string{"GEOSCAN_SMTP_URL": smtp.URL()})
	ctx := context.Background()
	org := b.h.NewOrg(t, "pro", true)
	_, err := b.h.Store.CreateMember(ctx, org.ID, "owner@example.com", "Olga", store.RoleOwner)
	require.NoError(t, err)
	dana, err := b.h.Store.CreateMember(ctx, org.ID, "dana@example.com", "Dana", store.RoleMember)
	require.NoError(t, err)
	danaKey, _ := b.h.NewMemberKey(t, org.ID, &dana.ID, "dana")

	// Created with Dana's key: Dana owns it and gets its emails.
	site := b.sites.URL(testsite.NextShell)
	sc := b.createSchedule(t, danaKey, map[string]any{"url": site, "frequency": "monthly", "brand_name": "Nimbus"})

	b.tick(t, org.ID, time.Date(2030, 2, 15, 10, 0, 0, 0, time.UTC))
	run := b.latestRun(t, org, sc.ID)
	require.Equal(t, store.EmailSent, *run.EmailStatus)
	msgs := smtp.Messages()
	require.Len(t, msgs, 1)
	first := msgs[0]
	scan1 := b.scan(t, org, *run.ScanID)
	require.Equal(t, client.ScanStatusCompleted, scan1.Status, "error: %v", scan1.ErrorMessage)
	require.Equal(t, []string{"dana@example.com"}, first.To)
	require.Equal(t, "reports@geoscan.example", first.From)
	require.Contains(t, first.Header.Get("From"), "GeoScan Reports")
	require.Equal(t, fmt.Sprintf("GeoScan: %s scored %.1f (%s)", scan1.Domain, *scan1.OverallScore, *scan1.OverallGrade), first.Subject)
	requireScores(t, first, scan1)
	require.Contains(t, first.Text, "first completed scan")
	requireLinks(t, b, first, scan1)
	requireQuickWins(t, b, org, first, scan1.ID)
	require.Empty(t, smtp.Errors())

	// Make the stored first scan worse, as if the site had improved since:
	// the next email must report exactly these differences.
	pool := b.h.Store.Pool()
	var improvedID, regressedID string
	require.NoError(t, pool.QueryRow(ctx, `SELECT check_id FROM check_results WHERE scan_id = $1 AND status = 'pass' ORDER BY position LIMIT 1`, scan1.ID).Scan(&improvedID))
	require.NoError(t, pool.QueryRow(ctx, `SELECT check_id FROM check_results WHERE scan_id = $1 AND status = 'fail' ORDER BY position LIMIT 1`, scan1.ID).Scan(&regressedID))
	_, err = pool.Exec(ctx, `UPDATE check_results SET status = CASE WHEN check_id = $2 THEN 'fail' ELSE 'pass' END
		WHERE scan_id = $1 AND check_id IN ($2, $3)`, scan1.ID, improvedID, regressedID)
	require.NoError(t, err)
	oldSearch := *scan1.SearchScore - 7
	oldGrade := "F"
	if *scan1.OverallGrade == "F" {
		oldGrade = "D"
	}
	_, err = pool.Exec(ctx, `UPDATE scans SET overall_score = 12.3, overall_grade = $3, search_score = $2, search_grade = 'F' WHERE id = $1`, scan1.ID, oldSearch, oldGrade)
	require.NoError(t, err)

	b.tick(t, org.ID, time.Date(2030, 3, 15, 10, 0, 0, 0, time.UTC))
	run = b.latestRun(t, org, sc.ID)
	require.Equal(t, store.EmailSent, *run.EmailStatus)
	msgs = smtp.Messages()
	require.Len(t, msgs, 2)
	second := msgs[1]
	scan2 := b.scan(t, org, *run.ScanID)
	require.Equal(t, client.ScanStatusCompleted, scan2.Status)
	delta := fmt.Sprintf("%+.1f", *scan2.OverallScore-12.3)
	require.Equal(t, fmt.Sprintf("GeoScan: %s scored %.1f (%s), %s", scan2.Domain, *scan2.OverallScore, *scan2.OverallGrade, delta), second.Subject)
	requireScores(t, second, scan2)
	require.Contains(t, second.Text, fmt.Sprintf("%s, grade %s → %s since the previous scan on %s (12.3)",
		delta, oldGrade, *scan2.OverallGrade, scan1.CompletedAt.UTC().Format("2 January 2006")))
	require.Contains(t, second.Text, fmt.Sprintf("Search:     %d (%s)  %+d, was F\n", *scan2.SearchScore, *scan2.SearchGrade, *scan2.SearchScore-oldSearch))
	require.Contains(t, second.Text, "Visibility: "+fmt.Sprintf("%d (%s)  unchanged\n", *scan2.VisibilityScore, *scan2.VisibilityGrade))
	require.Contains(t, second.Text, fmt.Sprintf("Checks that improved (1):\n  - %s (fail → pass)\n", checks.Lookup(improvedID).Marketing.Title))
	require.Contains(t, second.Text, fmt.Sprintf("Checks that regressed (1):\n  - %s (pass → fail)\n", checks.Lookup(regressedID).Marketing.Title))
	require.Contains(t, second.HTML, checks.Lookup(improvedID).Marketing.Title)
	requireLinks(t, b, second, scan2)
	require.Contains(t, second.Text, "due on 15 April 2030")

	// notify_to takes precedence over the owner.
	patch := b.h.Do(t, "PATCH", "/api/v1/schedules/"+sc.ID.String(), org.Key, map[string]any{"notify_to": "seo@example.com"})
	require.Equal(t, http.StatusOK, patch.Status, "body: %s", patch.Body)
	b.tick(t, org.ID, time.Date(2030, 4, 15, 10, 0, 0, 0, time.UTC))
	require.Equal(t, store.EmailSent, *b.latestRun(t, org, sc.ID).EmailStatus)
	msgs = smtp.Messages()
	require.Len(t, msgs, 3)
	require.Equal(t, []string{"seo@example.com"}, msgs[2].To)

	// A schedule created with the organization's key goes to its owner.
	other := b.createSchedule(t, org.Key, map[string]any{"url": b.down, "frequency": "monthly"})
	b.tick(t, org.ID, time.Date(2030, 5, 15, 10, 0, 0, 0, time.UTC)) // both schedules are due
	require.Equal(t, store.EmailSent, *b.latestRun(t, org, other.ID).EmailStatus)
	poll.Until(t, 60*time.Second, "two more emails", func() bool { return len(smtp.Messages()) == 5 })
	var failed *mailtest.Message
	for _, m := range smtp.Messages()[3:] {
		if m.To[0] == "owner@example.com" {
			failed = &m
		}
	}
	require.NotNil(t, failed, "the owner got the other schedule's email")
	downScan := b.scan(t, org, *b.schedule(t, org, other.ID).LastScanID)
	require.Equal(t, client.ScanStatusFailed, downScan.Status)
	require.Equal(t, "GeoScan: the scheduled scan of "+downScan.Domain+" failed", failed.Subject)
	require.Contains(t, failed.Text, "Why: "+*downScan.ErrorMessage+" ("+*downScan.ErrorCode+")")
	requireNoLinks(t, *failed)
}

func requireScores(t *testing.T, m mailtest.Message, s client.Scan) {
	t.Helper()
	require.Contains(t, m.Text, fmt.Sprintf("Overall: %.1f (%s)\n", *s.OverallScore, *s.OverallGrade))
	for _, ring := range []struct {
		name  string
		score *int
		grade *string
	}{{"Search:     ", s.SearchScore, s.SearchGrade}, {"Visibility: ", s.VisibilityScore, s.VisibilityGrade}, {"Trust:      ", s.TrustScore, s.TrustGrade}} {
		require.Contains(t, m.Text, fmt.Sprintf("%s%d (%s)", ring.name, *ring.score, *ring.grade))
		require.Contains(t, m.HTML, fmt.Sprintf("<td>%s</td><td>%d (%s)</td>", strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(ring.name), ":")), *ring.score, *ring.grade))
	}
	require.Contains(t, m.HTML, fmt.Sprintf("<td>Overall</td><td>%.1f (%s)</td>", *s.OverallScore, *s.OverallGrade))
}

// requireLinks checks that the email of a completed scan links its report
// as a share link that opens without a key, and its PDF through the API.
func requireLinks(t *testing.T, b *bundle, m mailtest.Message, scan client.Scan) {
	t.Helper()
	link := regexp.MustCompile(`Report: (` + regexp.QuoteMeta(publicURL) + `/r/gss_[A-Za-z0-9_-]{43})\n`).FindStringSubmatch(m.Text)
	require.NotNil(t, link, "a share link in: %s", m.Text)
	pdf := publicURL + "/api/v1/scans/" + scan.ID.String() + "/pdf?audience=marketing"
	require.Contains(t, m.Text, "PDF:    "+pdf+"\n")
	require.Contains(t, m.HTML, `<a href="`+link[1]+`">Report</a>`)
	require.Contains(t, m.HTML, `<a href="`+pdf+`">PDF</a>`)
	page := b.h.Do(t, "GET", strings.TrimPrefix(link[1], publicURL), "", nil)
	require.Equal(t, http.StatusOK, page.Status, "the link opens without a key")
	require.Contains(t, string(page.Body), scan.Domain, "the page is this scan's report")
	require.NotNil(t, scan.Language, "a completed scan has its resolved language")
	require.Contains(t, string(page.Body), `<html lang="`+string(*scan.Language)+`">`, "the page is in the scan's language")
}

// requireNoLinks checks that the email of a failed scan links no report.
func requireNoLinks(t *testing.T, m mailtest.Message) {
	t.Helper()
	require.NotContains(t, m.Text, "Report:")
	require.NotContains(t, m.Text, "/r/gss_")
	require.NotContains(t, m.HTML, "/r/gss_")
}

// requireQuickWins compares the email's quick wins with the dossier the
// API serves for the scan.
func requireQuickWins(t *testing.T, b *bundle, org apitest.Org, m mailtest.Message, scanID uuid.UUID) {
	t.Helper()
	r := b.h.Do(t, "GET", "/api/v1/scans/"+scanID.String()+"/triage?audience=marketing", org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	var d client.TriageDossier
	r.JSON(t, &d)
	var wins []client.TriageAction
	for _, a := range d.PriorityActions {
		if a.QuickWin {
			wins = append(wins, a)
		}
	}
	require.NotEmpty(t, wins, "the fixture has quick wins")
	for i, a := range wins[:min(3, len(wins))] {
		require.NotNil(t, a.ExpectedGain)
		if *a.ExpectedGain > 0 {
			require.Contains(t, m.Text, fmt.Sprintf("  %d. %s (+%.1f points): %s\n", i+1, a.Label, *a.ExpectedGain, a.Recommendation))
		} else {
			require.Regexp(t, fmt.Sprintf(`  %d\. %s \([^)]+\): %s\n`, i+1, regexp.QuoteMeta(a.Label), regexp.QuoteMeta(a.Recommendation)), m.Text)
		}
	}
	if len(wins) > 3 {
		require.NotContains(t, m.Text, wins[3].Label)
	}
}

// TestEmailRetriedAfterRefusal has the relay refuse the first attempt for
// now (451) and one recipient for good (550).
func TestEmailRetriedAfterRefusal(t *testing.T) {
	smtp := mailtest.Start(t, mailtest.Options{RefuseFirst: 1, Reject: []string{"gone@example.com"}})
	b := setup(t, map[string]string{"GEOSCAN_SMTP_URL": smtp.URL(), "GEOSCAN_MAIL_RETRY_DELAYS": "1s"})
	ctx := context.Background()
	org := b.h.NewOrg(t, "pro", true)
	sc := b.createSchedule(t, org.Key, map[string]any{"url": b.down, "frequency": "quarterly", "notify_to": "ops@example.com"})

	b.tick(t, org.ID, time.Date(2030, 4, 15, 10, 0, 0, 0, time.UTC))
	run := b.latestRun(t, org, sc.ID)
	require.Equal(t, store.EmailSent, *run.EmailStatus)
	require.Equal(t, 2, smtp.Attempts(), "refused once, then delivered; logs:\n%s", b.h.Logs())
	msgs := smtp.Messages()
	require.Len(t, msgs, 1)
	require.Equal(t, []string{"ops@example.com"}, msgs[0].To)
	require.Contains(t, msgs[0].Subject, "failed")
	sent, err := b.h.Store.GetOutboxMessageByScan(ctx, *run.ScanID)
	require.NoError(t, err)
	require.Equal(t, store.EmailSent, sent.Status)
	require.Equal(t, 2, sent.Attempts)
	require.NotNil(t, sent.SentAt)
	require.Contains(t, msgs[0].Header.Get("Message-Id"), sent.ID.String(), "retries send the same message")

	// A recipient refused for good: no retry, recorded as failed.
	patch := b.h.Do(t, "PATCH", "/api/v1/schedules/"+sc.ID.String(), org.Key, map[string]any{"notify_to": "gone@example.com"})
	require.Equal(t, http.StatusOK, patch.Status)
	b.tick(t, org.ID, time.Date(2030, 7, 15, 10, 0, 0, 0, time.UTC))
	run = b.latestRun(t, org, sc.ID)
	require.Equal(t, store.EmailFailed, *run.EmailStatus)
	require.Contains(t, *run.EmailDetail, "550")
	failed, err := b.h.Store.GetOutboxMessageByScan(ctx, *run.ScanID)
	require.NoError(t, err)
	require.Equal(t, store.EmailFailed, failed.Status)
	require.Equal(t, 1, failed.Attempts)
	for _, m := range smtp.Messages() {
		t.Logf("received %v %s %s", m.To, m.Header.Get("Message-Id"), m.Subject)
	}
	require.Len(t, smtp.Messages(), 1)
}

// TestOutboxWithoutSMTP runs with no relay configured: the email is kept in
// the outbox and logged, and the operator reads it with geoscan outbox.
// Schedules nobody can be emailed for, or that asked for no email, record
// why.
func TestOutboxWithoutSMTP(t *testing.T) {
	b := setup(t, nil)
	ctx := context.Background()
	org := b.h.NewOrg(t, "pro", true)
	_, err := b.h.Store.CreateMember(ctx, org.ID, "owner@example.com", "", store.RoleOwner)
	require.NoError(t, err)
	held := b.createSchedule(t, org.Key, map[string]any{"url": b.down, "frequency": "monthly"})

	lonely := b.h.NewOrg(t, "pro", true) // no members at all
	skipped := b.createSchedule(t, lonely.Key, map[string]any{"url": b.down, "frequency": "monthly"})
	quiet := b.createSchedule(t, lonely.Key, map[string]any{"url": b.quiet, "frequency": "monthly", "notify_email": false})

	at := time.Date(2030, 2, 15, 10, 0, 0, 0, time.UTC)
	b.tick(t, org.ID, at)
	b.tick(t, lonely.ID, at)

	run := b.latestRun(t, org, held.ID)
	require.Equal(t, store.EmailHeld, *run.EmailStatus)
	msg, err := b.h.Store.GetOutboxMessageByScan(ctx, *run.ScanID)
	require.NoError(t, err)
	require.Equal(t, store.EmailHeld, msg.Status)
	require.Equal(t, "owner@example.com", msg.Recipient)
	require.Contains(t, msg.Subject, "failed")
	require.Contains(t, b.h.Logs(), "email held in the outbox")
	require.Contains(t, b.h.Logs(), msg.ID.String())

	var stdout, stderr bytes.Buffer
	getenv := func(k string) string {
		if k == "DATABASE_URL" {
			return pgtest.URL()
		}
		return ""
	}
	code := cli.Main(ctx, []string{"outbox", "list", "--org", org.ID.String(), "--status", "held"}, getenv, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Regexp(t, msg.ID.String()+`\s+\S+\s+held\s+0\s+owner@example.com\s+`+regexp.QuoteMeta(msg.Subject), stdout.String())
	stdout.Reset()
	code = cli.Main(ctx, []string{"outbox", "show", msg.ID.String()}, getenv, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stdout.String(), "To: owner@example.com\nSubject: "+msg.Subject+"\nStatus: held")
	require.Contains(t, stdout.String(), msg.TextBody)

	run = b.latestRun(t, lonely, skipped.ID)
	require.Equal(t, store.EmailSkipped, *run.EmailStatus)
	require.Contains(t, *run.EmailDetail, "no address")
	_, err = b.h.Store.GetOutboxMessageByScan(ctx, *run.ScanID)
	require.ErrorIs(t, err, store.ErrNotFound)

	run = b.latestRun(t, lonely, quiet.ID)
	require.Equal(t, store.EmailNotRequested, *run.EmailStatus)
}

// runCLI runs one geoscan command against the package database with
// vars added to its environment.
func runCLI(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = cli.Main(context.Background(), args, func(k string) string {
		if k == "DATABASE_URL" {
			return pgtest.URL()
		}
		return vars[k]
	}, &out, &errOut)
	return code, out.String(), errOut.String()
}

// resendJobs counts the email jobs `geoscan outbox send` queued for a
// message.
func resendJobs(t *testing.T, st *store.Store, messageID uuid.UUID) int {
	t.Helper()
	var n int
	require.NoError(t, st.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = 'scan_email' AND args->>'message_id' = $1`, messageID.String()).Scan(&n))
	return n
}

// TestOutboxSend holds emails while no relay is configured, then sends
// them with `geoscan outbox send` once one is: each arrives once, as it
// was stored, and a failed one goes again only when asked.
func TestOutboxSend(t *testing.T) {
	ctx := context.Background()
	var (
		org, other apitest.Org
		schedules  []client.Schedule // org's, whose emails are sent
		held       []store.OutboxMessage
		orphan     store.OutboxMessage // org's, whose scan was deleted
		elsewhere  store.OutboxMessage // other's
	)
	t.Run("held without a relay", func(t *testing.T) {
		b := setup(t, nil)
		org, other = b.h.NewOrg(t, "pro", true), b.h.NewOrg(t, "pro", true)
		for _, s := range [][2]string{{b.down, "ana@example.com"}, {b.quiet, "ben@example.com"}, {b.gone, "cy@example.com"}} {
			schedules = append(schedules, b.createSchedule(t, org.Key, map[string]any{"url": s[0], "frequency": "monthly", "notify_to": s[1]}))
		}
		otherSchedule := b.createSchedule(t, other.Key, map[string]any{"url": b.down, "frequency": "monthly", "notify_to": "dee@example.com"})
		at := time.Date(2030, 2, 15, 10, 0, 0, 0, time.UTC)
		b.tick(t, org.ID, at)
		b.tick(t, other.ID, at)
		stored := func(o apitest.Org, id uuid.UUID) store.OutboxMessage {
			run := b.latestRun(t, o, id)
			require.Equal(t, store.EmailHeld, *run.EmailStatus)
			m, err := b.h.Store.GetOutboxMessageByScan(ctx, *run.ScanID)
			require.NoError(t, err)
			require.Equal(t, store.EmailHeld, m.Status)
			return m
		}
		for _, sc := range schedules {
			held = append(held, stored(org, sc.ID))
		}
		elsewhere = stored(other, otherSchedule.ID)
		orphan, held, schedules = held[2], held[:2], schedules[:2]
		r := b.h.Do(t, "DELETE", "/api/v1/scans/"+orphan.ScanID.String(), org.Key, nil)
		require.Equal(t, http.StatusNoContent, r.Status, "body: %s", r.Body)

		// Sent from a shell that has a relay while the workers have none:
		// the worker holds the email again, for a later send.
		code, out, errOut := runCLI(t, map[string]string{"GEOSCAN_SMTP_URL": "smtp://127.0.0.1:2525"}, "outbox", "send", held[0].ID.String())
		require.Equal(t, 0, code, errOut)
		require.Contains(t, out, "1 queued for sending, 0 skipped")
		require.Equal(t, store.EmailHeld, *b.latestRun(t, org, schedules[0].ID).EmailStatus)
		again, err := b.h.Store.GetOutboxMessage(ctx, held[0].ID)
		require.NoError(t, err)
		require.Equal(t, store.EmailHeld, again.Status)
		require.Equal(t, 1, again.Resends)
		require.Zero(t, again.Attempts)
		heldLogs := 0
		for line := range strings.Lines(b.h.Logs()) {
			if strings.Contains(line, "email held in the outbox") && strings.Contains(line, held[0].ID.String()) {
				heldLogs++
			}
		}
		require.Equal(t, 2, heldLogs, "logged when built and when held again")
		held[0] = again
	})
	if t.Failed() {
		return
	}

	// The relay refuses the first two attempts it sees: those of a new
	// schedule's email, which then fails (two attempts with one retry).
	smtp := mailtest.Start(t, mailtest.Options{RefuseFirst: 2})
	b := setup(t, map[string]string{"GEOSCAN_SMTP_URL": smtp.URL(), "GEOSCAN_MAIL_RETRY_DELAYS": "1s"})
	relay := map[string]string{"GEOSCAN_SMTP_URL": smtp.URL()}
	org = b.on(t, org)
	fails := b.h.NewOrg(t, "pro", true)
	failing := b.createSchedule(t, fails.Key, map[string]any{"url": b.down, "frequency": "monthly", "notify_to": "eve@example.com"})
	b.tick(t, fails.ID, time.Date(2030, 2, 15, 10, 0, 0, 0, time.UTC))
	run := b.latestRun(t, fails, failing.ID)
	require.Equal(t, store.EmailFailed, *run.EmailStatus)
	require.Contains(t, *run.EmailDetail, "451")
	failed, err := b.h.Store.GetOutboxMessageByScan(ctx, *run.ScanID)
	require.NoError(t, err)
	require.Equal(t, 2, failed.Attempts)
	require.Empty(t, smtp.Messages())

	// Without a relay here the command refuses: the emails would be held
	// again.
	code, out, errOut := runCLI(t, nil, "outbox", "send", "--held", "--org", org.ID.String())
	require.Equal(t, 1, code, out)
	require.Contains(t, errOut, "GEOSCAN_SMTP_URL is unset")

	code, out, errOut = runCLI(t, relay, "outbox", "send", "--held", "--org", org.ID.String(), "--dry-run")
	require.Equal(t, 0, code, errOut)
	for _, m := range held {
		require.Regexp(t, m.ID.String()+`\s+held\s+`+regexp.QuoteMeta(m.Recipient)+`\s+`+regexp.QuoteMeta(m.Subject)+`\s+would be queued\n`, out)
	}
	require.Regexp(t, orphan.ID.String()+`\s+held\s+.*skipped: its scan was deleted\n`, out)
	require.Contains(t, out, "dry run: 2 would be queued, 1 skipped; nothing was changed")
	for _, m := range append(held, orphan, elsewhere) {
		got, err := b.h.Store.GetOutboxMessage(ctx, m.ID)
		require.NoError(t, err)
		require.Equal(t, store.EmailHeld, got.Status)
		require.Equal(t, m.Resends, got.Resends)
		require.Equal(t, m.Resends, resendJobs(t, b.h.Store, m.ID))
	}

	// Two operators at once: each email is queued by one of them.
	var wg sync.WaitGroup
	outs := make([]string, 2)
	for i := range outs {
		wg.Go(func() {
			code, out, errOut := runCLI(t, relay, "outbox", "send", "--held", "--org", org.ID.String())
			outs[i] = fmt.Sprintf("exit %d\n%s%s", code, out, errOut)
		})
	}
	wg.Wait()
	both := outs[0] + outs[1]
	require.Equal(t, 2, strings.Count(both, "exit 0\n"), both)
	for _, m := range held {
		require.Len(t, regexp.MustCompile(m.ID.String()+`\s+held\s+.*\squeued\n`).FindAllString(both, -1), 1, both)
	}
	require.Equal(t, 2, strings.Count(both, "skipped: its scan was deleted"), both)

	for i, sc := range schedules {
		require.Equal(t, store.EmailSent, *b.latestRun(t, org, sc.ID).EmailStatus)
		got, err := b.h.Store.GetOutboxMessage(ctx, held[i].ID)
		require.NoError(t, err)
		require.Equal(t, store.EmailSent, got.Status)
		require.Equal(t, 1, got.Attempts)
		require.NotNil(t, got.SentAt)
		// The first email's earlier send, held again, left a completed job
		// with the same message: this send's job is a second one.
		require.Equal(t, 2-i, got.Resends)
		require.Equal(t, 2-i, resendJobs(t, b.h.Store, held[i].ID))
	}
	msgs := smtp.Messages()
	require.Len(t, msgs, 2, "logs:\n%s", b.h.Logs())
	for _, m := range held {
		i := slices.IndexFunc(msgs, func(got mailtest.Message) bool { return got.To[0] == m.Recipient })
		require.GreaterOrEqual(t, i, 0, "an email to %s arrived", m.Recipient)
		require.Equal(t, []string{m.Recipient}, msgs[i].To)
		require.Equal(t, m.Subject, msgs[i].Subject)
		require.Equal(t, m.TextBody, msgs[i].Text)
		require.Contains(t, msgs[i].Header.Get("Message-Id"), m.ID.String())
	}

	// Again: nothing is held any more, and emails named by id were sent.
	code, out, errOut = runCLI(t, relay, "outbox", "send", "--held", "--org", org.ID.String())
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "0 queued for sending, 1 skipped")
	code, out, errOut = runCLI(t, relay, "outbox", "send", held[0].ID.String(), held[1].ID.String())
	require.Equal(t, 0, code, errOut)
	require.Equal(t, 2, strings.Count(out, "skipped: already sent"), out)

	// An unknown id, or one of another organization, queues nothing.
	unknown := uuid.NewString()
	code, _, errOut = runCLI(t, relay, "outbox", "send", elsewhere.ID.String(), unknown)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "geoscan: no outbox message with id "+unknown+"; nothing was queued")
	code, _, errOut = runCLI(t, relay, "outbox", "send", "--org", org.ID.String(), elsewhere.ID.String())
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no outbox message with id "+elsewhere.ID.String()+" in organization "+org.ID.String())

	// A failed email goes again only when asked, unchanged.
	code, out, errOut = runCLI(t, relay, "outbox", "send", failed.ID.String())
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "skipped: failed; failed messages are queued again only when asked (--failed)")
	code, out, errOut = runCLI(t, relay, "outbox", "send", "--failed", "--org", fails.ID.String())
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, failed.ID.String()+`\s+failed\s+eve@example.com\s+.*\squeued\n`, out)
	require.Equal(t, store.EmailSent, *b.latestRun(t, fails, failing.ID).EmailStatus)
	resent, err := b.h.Store.GetOutboxMessage(ctx, failed.ID)
	require.NoError(t, err)
	require.Equal(t, store.EmailSent, resent.Status)
	require.Equal(t, 3, resent.Attempts)
	msgs = smtp.Messages()
	require.Len(t, msgs, 3)
	require.Equal(t, []string{"eve@example.com"}, msgs[2].To)
	require.Equal(t, failed.Subject, msgs[2].Subject)
	require.Contains(t, msgs[2].Header.Get("Message-Id"), failed.ID.String())

	// The other organization's email was never taken.
	got, err := b.h.Store.GetOutboxMessage(ctx, elsewhere.ID)
	require.NoError(t, err)
	require.Equal(t, store.EmailHeld, got.Status)
	require.Zero(t, resendJobs(t, b.h.Store, elsewhere.ID))
	require.Empty(t, smtp.Errors())
}
