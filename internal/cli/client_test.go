package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

var (
	sitesOnce sync.Once
	sites     *testsite.Server
	sitesCA   []byte
	sitesErr  error
)

// fixtureSites starts the fixture sites once for the package.
func fixtureSites(t *testing.T) *testsite.Server {
	t.Helper()
	sitesOnce.Do(func() {
		sites, sitesErr = testsite.Start()
		if sitesErr != nil {
			return
		}
		path, err := sites.WriteTempCAFile()
		if err != nil {
			sitesErr = err
			return
		}
		sitesCA, sitesErr = os.ReadFile(path)
	})
	require.NoError(t, sitesErr)
	return sites
}

// clientEnv is a server with scan workers that may scan the fixtures and
// send callbacks to a loopback receiver, and an organization to act for.
type clientEnv struct {
	h        *apitest.Harness
	org      apitest.Org
	sites    *testsite.Server
	receiver *httptest.Server // answers 204
	failing  *httptest.Server // answers 500
}

func newClientEnv(t *testing.T) clientEnv {
	t.Helper()
	s := fixtureSites(t)
	ok := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(ok.Close)
	failing := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }))
	t.Cleanup(failing.Close)
	bundle := append([]byte{}, sitesCA...)
	for _, srv := range []*httptest.Server{ok, failing} {
		bundle = append(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})...)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, bundle, 0o600))

	hosts := map[string][]string{}
	for k, v := range apitest.DefaultHosts {
		hosts[k] = v
	}
	for _, name := range slices.Concat(testsite.Realistic, testsite.Crawl, testsite.Hostile) {
		hosts[s.Host(name)] = []string{"127.0.0.1"}
	}
	// ManualScheduler: a server ticking schedules at the real time would
	// also serve the schedules TestScheduleTickTwiceCreatesOneScan anchors
	// in the past, in this package's database.
	h := apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Hosts: hosts, ManualScheduler: true, Getenv: map[string]string{
		"GEOSCAN_ROLE":            "all",
		"GEOSCAN_EXTRA_CA_FILE":   caFile,
		"GEOSCAN_PLAIN_HTTP_PORT": strconv.Itoa(s.HTTPPort()),
		"GEOSCAN_SCAN_BUDGET":     "10s",
		"GEOSCAN_SCAN_WORKERS":    "4",
	}})
	return clientEnv{h: h, org: h.NewOrg(t, "pro", true), sites: s, receiver: ok, failing: failing}
}

// geoscan runs a client command against the test server, its responses
// validated against the contract, and returns the exit code and output.
func (c clientEnv) geoscan(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return c.geoscanWith(t, map[string]string{"GEOSCAN_API_URL": c.h.BaseURL, "GEOSCAN_API_KEY": c.org.Key}, "", args...)
}

func (c clientEnv) geoscanWith(t *testing.T, vars map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := env{getenv: func(k string) string { return vars[k] }, stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, httpClient: c.h.HTTP}
	code := mainWith(context.Background(), e, args)
	return code, stdout.String(), stderr.String()
}

var idLine = regexp.MustCompile(`(?m)^ID\s+([0-9a-f-]{36})$`)

func scanID(t *testing.T, out string) string {
	t.Helper()
	m := idLine.FindStringSubmatch(out)
	require.NotNil(t, m, "no ID line in %q", out)
	return m[1]
}

func TestScanCommands(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)
	tmp := t.TempDir()

	// create --wait --min-score: progress as plain lines (stderr is no
	// terminal), the finished scan as a table, exit 0.
	code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.Docs), "--wait", "--min-score", "50", "--project", "cli")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	id := scanID(t, out)
	require.Regexp(t, `(?m)^Status\s+completed$`, out)
	require.Regexp(t, `(?m)^Overall\s+\d+\.\d [A-F]\+?$`, out)
	require.Contains(t, errOut, "scan "+id+" completed")
	require.NotRegexp(t, `scan \S+ (pending|running)\n`, errOut, "a status reads as a sentence: is waiting to run, is running")
	require.NotContains(t, errOut, "\r", "no in-place redraw when stderr is not a terminal")

	code, out, errOut = c.geoscan(t, "scan", "get", id)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, id, scanID(t, out))
	require.Contains(t, out, "lumen-docs.test", "the default brand is the registrable domain")

	code, out, _ = c.geoscan(t, "scan", "get", id, "--json")
	require.Equal(t, 0, code)
	var s client.Scan
	require.NoError(t, json.Unmarshal([]byte(out), &s), out)
	require.Equal(t, id, s.ID.String())
	require.Equal(t, client.ScanStatusCompleted, s.Status)

	code, out, _ = c.geoscan(t, "scan", "list", "--project", "cli")
	require.Equal(t, 0, code)
	require.Contains(t, out, id)
	require.Contains(t, out, "OVERALL")
	code, out, _ = c.geoscan(t, "scan", "list", "--json", "--limit", "1")
	require.Equal(t, 0, code)
	var list client.ScanList
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Len(t, list.Data, 1)

	code, out, errOut = c.geoscan(t, "scan", "report", id)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `Overall \d+\.\d, grade`, out)
	require.Contains(t, out, "AI visibility")
	require.Contains(t, out, "Rendering: off; the JavaScript checks judged the raw HTML without a browser.")
	code, out, _ = c.geoscan(t, "scan", "report", id, "--audience", "engineering", "--json")
	require.Equal(t, 0, code)
	var rep client.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Equal(t, client.ReportAudienceEngineering, rep.Audience)
	require.InDelta(t, *s.OverallScore, rep.OverallScore, 1e-9)

	code, out, errOut = c.geoscan(t, "scan", "triage", id)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "Risk by lens")
	require.Contains(t, out, "Hugo", "the docs fixture is a Hugo site")

	// A site with much to fix: its open issues come by what fixing each
	// alone adds, as the report says, and its priority actions with what
	// each adds in their order, as the dossier says.
	code, out, errOut = c.geoscan(t, "scan", "create", c.sites.URL(testsite.Broken), "--wait", "--project", "cli-broken")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	broken := scanID(t, out)
	code, out, errOut = c.geoscan(t, "scan", "report", broken)
	require.Equal(t, 0, code, errOut)
	code, js, _ := c.geoscan(t, "scan", "report", broken, "--json")
	require.Equal(t, 0, code)
	var br client.Report
	require.NoError(t, json.Unmarshal([]byte(js), &br))
	most := -1.0
	for _, ch := range br.Checks {
		if ch.ExpectedGain != nil {
			most = max(most, *ch.ExpectedGain)
		}
	}
	require.Positive(t, most, "a fix gains")
	require.Equal(t, []string{"fail", fmt.Sprintf("+%.1f", most)}, rowAfter(t, out, "STATUS")[:2])
	require.Contains(t, strings.Join(strings.Fields(out), " "), "The fix that would gain the most: “")

	code, out, errOut = c.geoscan(t, "scan", "triage", broken)
	require.Equal(t, 0, code, errOut)
	code, js, _ = c.geoscan(t, "scan", "triage", broken, "--json")
	require.Equal(t, 0, code)
	var dossier client.TriageDossier
	require.NoError(t, json.Unmarshal([]byte(js), &dossier))
	require.NotEmpty(t, dossier.PriorityActions)
	first := rowAfter(t, out, "#")
	require.Equal(t, "1", first[0])
	require.Contains(t, first, fmt.Sprintf("+%.1f", *dossier.PriorityActions[0].GainInOrder))
	require.Positive(t, *dossier.PriorityActions[0].GainInOrder)

	code, out, _ = c.geoscan(t, "scan", "checks", id, "--ring", "search", "--status", "pass", "--json")
	require.Equal(t, 0, code)
	var checks client.CheckList
	require.NoError(t, json.Unmarshal([]byte(out), &checks))
	require.NotEmpty(t, checks.Data)
	for _, ch := range checks.Data {
		require.Equal(t, client.Search, ch.Ring)
		require.Equal(t, client.CheckStatusPass, ch.Status)
	}
	code, out, _ = c.geoscan(t, "scan", "checks", id)
	require.Equal(t, 0, code)
	require.Contains(t, out, "robots_txt_fetchable")

	csvPath := filepath.Join(tmp, "scans.csv")
	code, out, errOut = c.geoscan(t, "scan", "export", "-o", csvPath, "--project", "cli")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, csvPath)
	csv, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(csv), "scan_id,url,domain,brand_name"))
	require.Contains(t, string(csv), id)

	pdfPath := filepath.Join(tmp, "report.pdf")
	code, _, errOut = c.geoscan(t, "scan", "pdf", id, "-o", pdfPath, "--audience", "engineering")
	require.Equal(t, 0, code, errOut)
	pdf, err := os.ReadFile(pdfPath)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pdf, []byte("%PDF-")))
	code, out, _ = c.geoscan(t, "scan", "pdf", id, "-o", "-")
	require.Equal(t, 0, code)
	require.True(t, strings.HasPrefix(out, "%PDF-"))

	// A second scan to compare with, then delete.
	code, out, errOut = c.geoscan(t, "scan", "create", c.sites.URL(testsite.NextShell), "--wait")
	require.Equal(t, 0, code, errOut)
	other := scanID(t, out)
	code, out, errOut = c.geoscan(t, "scan", "compare", id, other)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Overall\s+\d+\.\d\s+\d+\.\d\s+[+-]\d+\.\d`, out)
	require.Contains(t, out, "regressed")

	code, out, errOut = c.geoscan(t, "scan", "delete", other)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "deleted scan "+other)
	code, _, errOut = c.geoscan(t, "scan", "get", other)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "scan_not_found")
	require.Contains(t, errOut, "HTTP 404")

	// Without --wait the scan is printed as created.
	code, out, errOut = c.geoscan(t, "scan", "create", c.sites.URL(testsite.Edge), "--callback-url", c.receiver.URL+"/hook", "--brand", "Fortress")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Status\s+pending$`, out)
	require.Regexp(t, `(?m)^Webhook secret\s+whsec_`, out)
	require.Regexp(t, `(?m)^Brand\s+Fortress$`, out)
}

func TestScanCreateExitCodes(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)

	t.Run("BelowMinScore", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.NextShell), "--min-score", "90")
		require.Equal(t, exitBelowScore, code, "stderr: %s", errOut)
		require.Regexp(t, `(?m)^Status\s+completed$`, out, "--min-score waits for the result")
		require.Regexp(t, `scores \d+\.\d, below the minimum of 90`, errOut)
	})
	t.Run("ScanFailed", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.Huge), "--wait", "--json")
		require.Equal(t, exitScanFailed, code, "stderr: %s", errOut)
		var s client.Scan
		require.NoError(t, json.Unmarshal([]byte(out), &s), "--json prints only the scan: %s", out)
		require.Equal(t, client.ScanStatusFailed, s.Status)
		require.Contains(t, errOut, "failed")
		require.Contains(t, errOut, "response_too_large")
	})
	t.Run("WaitTimesOut", func(t *testing.T) {
		t.Parallel()
		code, _, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.SlowDrip), "--wait", "--timeout", "1ms")
		require.Equal(t, exitWaitTimeout, code, "stderr: %s", errOut)
		require.Contains(t, errOut, "did not finish within 1ms")
	})
	t.Run("APIErrorPrintsEnvelope", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := c.geoscan(t, "scan", "create", "http://example.com/")
		require.Equal(t, 1, code)
		require.Empty(t, out)
		require.Contains(t, errOut, "invalid_url")
		require.Contains(t, errOut, "param url")
		require.Contains(t, errOut, "HTTP 422")
		require.Regexp(t, `request id \S+`, errOut)
	})
	t.Run("Configuration", func(t *testing.T) {
		t.Parallel()
		code, _, errOut := c.geoscanWith(t, map[string]string{"GEOSCAN_API_URL": c.h.BaseURL}, "", "usage")
		require.Equal(t, 1, code)
		require.Contains(t, errOut, "GEOSCAN_API_KEY is not set")

		code, _, errOut = c.geoscanWith(t, map[string]string{"GEOSCAN_API_URL": c.h.BaseURL, "GEOSCAN_API_KEY": "geo_nope"}, "", "usage")
		require.Equal(t, 1, code)
		require.Contains(t, errOut, "api_key_invalid")

		code, _, errOut = c.geoscanWith(t, map[string]string{"GEOSCAN_API_URL": "ftp://x", "GEOSCAN_API_KEY": c.org.Key}, "", "usage")
		require.Equal(t, 1, code)
		require.Contains(t, errOut, "GEOSCAN_API_URL")

		// The /api/v1 suffix is optional.
		code, out, errOut := c.geoscanWith(t, map[string]string{"GEOSCAN_API_URL": c.h.APIURL + "/", "GEOSCAN_API_KEY": c.org.Key}, "", "usage")
		require.Equal(t, 0, code, errOut)
		require.Contains(t, out, "Scans today")
	})
	t.Run("Unreachable", func(t *testing.T) {
		t.Parallel()
		var stdout, stderr bytes.Buffer
		vars := map[string]string{"GEOSCAN_API_URL": "http://127.0.0.1:1", "GEOSCAN_API_KEY": c.org.Key}
		code := mainWith(context.Background(), env{getenv: func(k string) string { return vars[k] }, stdout: &stdout, stderr: &stderr}, []string{"scan", "list"})
		require.Equal(t, 1, code)
		require.Contains(t, stderr.String(), "connection refused")
	})
	t.Run("Usage", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			args []string
			want string
		}{
			{[]string{"scan"}, "scan needs a command"},
			{[]string{"scan", "frobnicate"}, "unknown scan command"},
			{[]string{"scan", "create"}, "needs 1 argument"},
			{[]string{"scan", "get", "not-a-uuid"}, "not a UUID"},
			{[]string{"scan", "get", "a", "b"}, "at most 1 argument"},
			{[]string{"scan", "report", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", "--audience", "ceo"}, "marketing or engineering"},
			{[]string{"scan", "create", "https://example.com/", "--min-score", "101"}, "between 0 and 100"},
			{[]string{"scan", "list", "--bogus"}, "flag provided but not defined"},
			{[]string{"schedule", "update", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"}, "at least one of"},
			{[]string{"webhook", "verify", "--secret", "whsec_x"}, "needs --secret, --signature"},
		} {
			code, _, errOut := c.geoscan(t, tc.args...)
			require.Equal(t, 2, code, "%v: %s", tc.args, errOut)
			require.Contains(t, errOut, tc.want, "%v", tc.args)
		}
	})
}

func TestScheduleCommands(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)

	code, out, errOut := c.geoscan(t, "schedule", "create", "https://www.example.com/")
	require.Equal(t, 0, code, errOut)
	id := scanID(t, out)
	require.Regexp(t, `(?m)^Frequency\s+quarterly$`, out, "only the URL: the server's defaults apply")
	require.Regexp(t, `(?m)^Email notification\s+true$`, out)

	code, out, errOut = c.geoscan(t, "schedule", "create", "https://www.example.com/", "--frequency", "monthly")
	require.Equal(t, 0, code, errOut)
	require.Equal(t, id, scanID(t, out))
	require.Contains(t, errOut, "already exists")

	code, out, _ = c.geoscan(t, "schedule", "list")
	require.Equal(t, 0, code)
	require.Contains(t, out, id)
	code, out, _ = c.geoscan(t, "schedule", "list", "--active", "false", "--json")
	require.Equal(t, 0, code)
	var list client.ScheduleList
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Empty(t, list.Data)

	code, out, errOut = c.geoscan(t, "schedule", "update", id, "--frequency", "monthly", "--notify-email=false")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Frequency\s+monthly$`, out)
	require.Regexp(t, `(?m)^Email notification\s+false$`, out)

	code, out, _ = c.geoscan(t, "schedule", "get", id, "--json")
	require.Equal(t, 0, code)
	var s client.Schedule
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	require.Equal(t, client.ScheduleFrequencyMonthly, s.Frequency)
	require.False(t, s.NotifyEmail)

	code, out, errOut = c.geoscan(t, "schedule", "delete", id)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Active\s+false$`, out)

	// Where emails go, and what each period did.
	code, out, errOut = c.geoscan(t, "schedule", "create", c.sites.URL(testsite.Docs), "--notify-to", "seo@example.com")
	require.Equal(t, 0, code, errOut)
	docs := scanID(t, out)
	require.Regexp(t, `(?m)^Email to\s+seo@example.com$`, out)
	code, out, errOut = c.geoscan(t, "schedule", "update", docs, "--notify-to", "owner")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Email to\s+the owner$`, out)
	code, _, errOut = c.geoscan(t, "schedule", "update", docs, "--notify-to", "Ops <ops@example.com>")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "invalid_parameter")
	code, out, _ = c.geoscan(t, "schedule", "runs", docs)
	require.Equal(t, 0, code)
	require.Equal(t, "DUE  OUTCOME  SCAN  STATUS  SCORE  TRIES  EMAIL", strings.TrimSpace(out))
	var sc client.Schedule
	code, out, _ = c.geoscan(t, "schedule", "get", docs, "--json")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(out), &sc))
	runs, err := c.h.App.Scheduler().TickOrg(context.Background(), *sc.NextRunAt, c.org.ID)
	require.NoError(t, err)
	require.Len(t, runs, 1)
	code, out, _ = c.geoscan(t, "schedule", "runs", docs)
	require.Equal(t, 0, code)
	require.Regexp(t, sc.NextRunAt.UTC().Format(time.RFC3339)+`\s+scanned\s+`+runs[0].ScanID.String()+`\s+\w+\s+`, out)

	code, _, errOut = c.geoscan(t, "schedule", "create", "https://www.example.com/pricing")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "not_homepage")
	code, _, errOut = c.geoscan(t, "schedule", "get", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "schedule_not_found")
}

func TestUsageAndWebhookCommands(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)

	code, out, errOut := c.geoscan(t, "usage")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "pro (subscription active)")
	require.Regexp(t, `Scans today\s+0 of 200 used, 200 left`, out)
	code, out, _ = c.geoscan(t, "usage", "--json")
	require.Equal(t, 0, code)
	var u client.Usage
	require.NoError(t, json.Unmarshal([]byte(out), &u))
	require.Equal(t, 200, u.DailyLimit)

	code, out, errOut = c.geoscan(t, "webhook", "test", c.receiver.URL+"/hook")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Delivered\s+true$`, out)
	require.Regexp(t, `(?m)^Receiver status\s+204$`, out)
	code, out, errOut = c.geoscan(t, "webhook", "test", c.failing.URL+"/hook")
	require.Equal(t, exitWebhook, code, errOut)
	require.Regexp(t, `(?m)^Receiver status\s+500$`, out)
	require.Contains(t, errOut, "was not delivered")

	// The documented test vector.
	const (
		secret    = "whsec_dGVzdC1zZWNyZXQtZm9yLWdlb3NjYW4tZG9jcw=="
		payload   = `{"event":"scan.test","scan_id":"test_0"}`
		signature = "v1=46ceb39d1b112579f83647c07ec21c7c72abab519c86c18d5734b0fb76e7fb1d"
	)
	code, out, errOut = c.geoscan(t, "webhook", "verify", "--secret", secret, "--signature", signature, "--payload", payload)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Valid\s+true$`, out)
	vars := map[string]string{"GEOSCAN_API_URL": c.h.BaseURL, "GEOSCAN_API_KEY": c.org.Key}
	code, out, errOut = c.geoscanWith(t, vars, payload, "webhook", "verify", "--secret", secret, "--signature", "v1="+strings.ToUpper(signature[3:]), "--payload-file", "-")
	require.Equal(t, exitWebhook, code, errOut)
	require.Regexp(t, `(?m)^Valid\s+false$`, out)
	require.Contains(t, out, "uppercase_hex")
	code, _, errOut = c.geoscan(t, "webhook", "verify", "--secret", "nope", "--signature", signature, "--payload", payload)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "invalid_parameter")
}

// rowAfter is the fields of the line after the table header that starts
// with head.
func rowAfter(t *testing.T, out, head string) []string {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && f[0] == head && i+1 < len(lines) {
			return strings.Fields(lines[i+1])
		}
	}
	t.Fatalf("no table headed %q in %q", head, out)
	return nil
}
