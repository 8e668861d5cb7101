package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/mcpserver"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	testsite.RemoveTempCAFiles()
	os.Exit(code)
}

var (
	sitesOnce sync.Once
	sites     *testsite.Server
	caFile    string
	sitesErr  error
)

// fixtures starts the fixture sites once for the package.
func fixtures(t testing.TB) *testsite.Server {
	t.Helper()
	sitesOnce.Do(func() {
		sites, sitesErr = testsite.Start()
		if sitesErr != nil {
			return
		}
		caFile, sitesErr = sites.WriteTempCAFile()
	})
	require.NoError(t, sitesErr)
	return sites
}

// engine starts an API server with scan workers that may scan the fixtures.
func engine(t *testing.T) *apitest.Harness {
	t.Helper()
	s := fixtures(t)
	hosts := map[string][]string{}
	for k, v := range apitest.DefaultHosts {
		hosts[k] = v
	}
	for _, name := range testsite.Realistic {
		hosts[s.Host(name)] = []string{"127.0.0.1"}
	}
	return apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Hosts: hosts, Getenv: map[string]string{
		"GEOSCAN_ROLE":            "all",
		"GEOSCAN_EXTRA_CA_FILE":   caFile,
		"GEOSCAN_PLAIN_HTTP_PORT": strconv.Itoa(s.HTTPPort()),
		"GEOSCAN_SCAN_BUDGET":     "60s",
	}})
}

// connect is an MCP client session on a server built for the key, over
// in-memory transports; the server calls the harness's API over HTTP.
func connect(t *testing.T, h *apitest.Harness, key string) *mcp.ClientSession {
	t.Helper()
	return connectWith(t, mcpserver.Options{APIURL: h.APIURL, Key: key, HTTPClient: h.HTTP, PollInterval: 100 * time.Millisecond})
}

func connectWith(t *testing.T, opts mcpserver.Options) *mcp.ClientSession {
	t.Helper()
	srv, err := mcpserver.New(opts)
	require.NoError(t, err)
	ct, st := mcp.NewInMemoryTransports()
	ctx := t.Context()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool that must succeed and decodes its structured content.
func call[Out any](t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (Out, string) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	text := textOf(t, res)
	require.False(t, res.IsError, "%s: %s", name, text)
	b, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	var out Out
	require.NoError(t, json.Unmarshal(b, &out), "%s", b)
	return out, text
}

// callError calls a tool that must fail with a tool error (not a protocol
// error, which would end the call for the client) and returns its text.
func callError(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(t, err)
	text := textOf(t, res)
	require.True(t, res.IsError, "%s succeeded: %s", name, text)
	return text
}

func textOf(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content %T", res.Content[0])
	return tc.Text
}

var toolNames = []string{
	"compare_scans", "create_scan", "get_checks", "get_crawler_log", "get_fixes", "get_pages", "get_scan", "get_triage",
	"list_crawler_logs", "list_scans", "list_schedules", "upload_crawler_log",
}

func requireTools(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		require.NotEmpty(t, tool.Description, tool.Name)
		require.NotNil(t, tool.InputSchema, tool.Name)
		require.NotNil(t, tool.OutputSchema, tool.Name)
	}
	slices.Sort(names)
	require.Equal(t, toolNames, names)
}

// A scan of a fixture site through the tools, from creation (waiting for
// it) to its checks, fixes, triage, list and comparison.
func TestScanThroughTools(t *testing.T) {
	t.Parallel()
	h := engine(t)
	org := h.NewOrg(t, "pro", true)
	cs := connect(t, h, org.Key)
	requireTools(t, cs)
	site := fixtures(t).URL(testsite.WordPress)

	first, text := call[mcpserver.ScanSummary](t, cs, "create_scan", map[string]any{"url": site, "wait": true, "audience": "engineering", "wait_seconds": 120})
	require.Equal(t, "completed", first.Scan.Status, "%s", text)
	require.NotNil(t, first.Report, text)
	require.Equal(t, "engineering", first.Report.Audience)
	require.Len(t, first.Report.Rings, 3)
	require.NotEmpty(t, first.Report.TopIssues, "the fixture has issues")
	require.LessOrEqual(t, len(first.Report.TopIssues), 5)
	require.Contains(t, text, first.Scan.ID)
	require.Contains(t, text, first.Report.OverallGrade)

	got, _ := call[mcpserver.ScanSummary](t, cs, "get_scan", map[string]any{"scan_id": first.Scan.ID})
	require.Equal(t, first.Scan.ID, got.Scan.ID)
	require.NotNil(t, got.Report)
	require.InDelta(t, first.Report.OverallScore, got.Report.OverallScore, 0)

	checks, text := call[mcpserver.Checks](t, cs, "get_checks", map[string]any{"scan_id": first.Scan.ID, "include_evidence": true})
	require.NotEmpty(t, checks.Checks)
	require.Contains(t, text, strconv.Itoa(len(checks.Checks))+" checks")
	failed, _ := call[mcpserver.Checks](t, cs, "get_checks", map[string]any{"scan_id": first.Scan.ID, "status": "fail"})
	for _, c := range failed.Checks {
		require.Equal(t, "fail", c.Status)
	}
	require.Less(t, len(failed.Checks), len(checks.Checks))

	fixes, _ := call[mcpserver.Fixes](t, cs, "get_fixes", map[string]any{"scan_id": first.Scan.ID})
	for _, f := range fixes.Fixes {
		require.Contains(t, []string{"warn", "fail"}, f.Status)
		require.NotNil(t, f.Fix)
	}

	triage, _ := call[mcpserver.Triage](t, cs, "get_triage", map[string]any{"scan_id": first.Scan.ID})
	require.Equal(t, first.Scan.ID, triage.ScanID)
	dossier, ok := triage.Dossier.(map[string]any)
	require.True(t, ok, "dossier %T", triage.Dossier)
	require.Equal(t, first.Scan.ID, dossier["scan_id"])

	pages, _ := call[mcpserver.Pages](t, cs, "get_pages", map[string]any{"scan_id": first.Scan.ID, "limit": 10})
	require.Equal(t, first.Scan.ID, pages.ScanID)

	second, _ := call[mcpserver.ScanSummary](t, cs, "create_scan", map[string]any{"url": site, "wait": true})
	require.Equal(t, "completed", second.Scan.Status)
	cmp, text := call[mcpserver.Comparison](t, cs, "compare_scans", map[string]any{"base_scan_id": first.Scan.ID, "target_scan_id": second.Scan.ID})
	require.True(t, cmp.SameURL)
	require.Equal(t, second.Scan.ID, cmp.TargetScanID)
	require.Contains(t, text, "improved")

	list, _ := call[mcpserver.ScanList](t, cs, "list_scans", map[string]any{"limit": 1})
	require.Len(t, list.Scans, 1)
	require.Equal(t, second.Scan.ID, list.Scans[0].ID, "newest first")
	require.True(t, list.HasMore)
	next, _ := call[mcpserver.ScanList](t, cs, "list_scans", map[string]any{"limit": 1, "cursor": list.NextCursor})
	require.Equal(t, first.Scan.ID, next.Scans[0].ID)

	schedules, _ := call[mcpserver.ScheduleList](t, cs, "list_schedules", nil)
	require.Empty(t, schedules.Schedules)

	// Another organization's key does not see the scan: the API's 404.
	other := h.NewOrg(t, "pro", true)
	msg := callError(t, connect(t, h, other.Key), "get_scan", map[string]any{"scan_id": first.Scan.ID})
	require.Contains(t, msg, "scan_not_found")
	require.Contains(t, msg, "HTTP 404")
}

// Arguments are checked before any call: by the schema (types, unknown
// names, enumerations, ranges) and by the tools (ids are UUIDs). The API's
// own refusals come back with its code. Every failure is a tool error and
// the session goes on.
//
// Not parallel: the package's tests share a database, and the workers of
// a parallel test's server would take up the scans this one expects to
// stay pending.
func TestArgumentsAndAPIErrors(t *testing.T) {
	h := apitest.Start(t, pgtest.URL(), apitest.Options{})
	org := h.NewOrg(t, "free", true)
	cs := connect(t, h, org.Key)

	for _, c := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"get_scan", map[string]any{"scan_id": "not-a-uuid"}, []string{"scan_id", "not a UUID", `"not-a-uuid"`}},
		{"get_scan", map[string]any{"scan_id": "{" + uuid.NewString() + "}"}, []string{"scan_id", "not a UUID"}},
		{"compare_scans", map[string]any{"base_scan_id": uuid.NewString(), "target_scan_id": "42"}, []string{"target_scan_id", "not a UUID"}},
		{"get_scan", map[string]any{}, []string{"scan_id"}},
		{"get_scan", map[string]any{"scan_id": uuid.NewString(), "audience": "board"}, []string{"audience"}},
		{"get_scan", map[string]any{"scan_id": uuid.NewString(), "colour": "red"}, []string{"colour"}},
		{"list_scans", map[string]any{"limit": 1000}, []string{"limit"}},
		{"get_checks", map[string]any{"scan_id": 7}, []string{"scan_id"}},
		{"create_scan", map[string]any{"url": " "}, []string{"url"}},
		// The API's refusals, with its code and message.
		{"get_scan", map[string]any{"scan_id": uuid.NewString()}, []string{"scan_not_found", "HTTP 404", "request id"}},
		{"create_scan", map[string]any{"url": "ftp://example.com/"}, []string{"invalid_url", "HTTP 422", "param: url"}},
		{"create_scan", map[string]any{"url": "https://example.com/", "max_pages": 50}, []string{"invalid_parameter", "max_pages"}},
	} {
		msg := callError(t, cs, c.tool, c.args)
		for _, w := range c.want {
			require.Contains(t, msg, w, "%s %v", c.tool, c.args)
		}
	}
	// The session is still there.
	requireTools(t, cs)

	// A scan that has not completed has no report yet: the summary says so.
	created, text := call[mcpserver.ScanSummary](t, cs, "create_scan", map[string]any{"url": "https://example.com/"})
	require.Equal(t, "pending", created.Scan.Status)
	require.Nil(t, created.Report)
	require.Contains(t, text, "get_scan")
	msg := callError(t, cs, "get_checks", map[string]any{"scan_id": created.Scan.ID})
	require.Contains(t, msg, "scan_not_complete")

	// No worker runs here: a wait ends at its bound with the scan's status.
	waited, text := call[mcpserver.ScanSummary](t, cs, "create_scan", map[string]any{"url": "https://www.example.com/", "wait": true, "wait_seconds": 1})
	require.Equal(t, "pending", waited.Scan.Status)
	require.Nil(t, waited.Report)
	require.NotEmpty(t, waited.Waited)
	require.Contains(t, text, "still pending")
}

// keyTransport sends an Authorization header with every request.
type keyTransport struct{ header, value string }

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if k.header != "" {
		r.Header.Set(k.header, k.value)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTP(ctx context.Context, h *apitest.Harness, header, value string) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{
		Endpoint:   h.BaseURL + mcpserver.Path,
		HTTPClient: &http.Client{Transport: keyTransport{header: header, value: value}},
		MaxRetries: -1,
	}
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
}

// The streamable HTTP endpoint: the key is checked before any MCP message,
// and tool calls are the caller's API requests, with its organization's
// scope and rate limits.
func TestStreamableHTTP(t *testing.T) {
	t.Parallel()
	h := apitest.Start(t, pgtest.URL(), apitest.Options{})
	org := h.NewOrg(t, "free", true)
	ctx := t.Context()

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	accept := "application/json, text/event-stream"
	for _, c := range []struct {
		name    string
		headers []string
		code    string
	}{
		{"no key", nil, "api_key_required"},
		{"empty bearer", []string{"Authorization", "Bearer "}, "api_key_invalid"},
		{"another scheme", []string{"Authorization", "Basic " + org.Key}, "api_key_invalid"},
		{"malformed", []string{"Authorization", "Bearer geo_nope"}, "api_key_invalid"},
		{"unknown", []string{"Authorization", "Bearer geo_" + strings.Repeat("a", 38)}, "api_key_invalid"},
		{"two keys", []string{"Authorization", "Bearer " + org.Key, "X-API-Key", "geo_" + strings.Repeat("b", 38)}, "api_key_invalid"},
	} {
		r := h.Do(t, "POST", mcpserver.Path, "", initialize, append([]string{"Accept", accept}, c.headers...)...)
		r.RequireError(t, http.StatusUnauthorized, c.code, "")
		require.NotEmpty(t, r.Header.Get("WWW-Authenticate"), c.name)
		require.NotEmpty(t, r.Header.Get("X-Request-Id"), c.name)
		require.Equal(t, "ip", r.Header.Get("X-RateLimit-Group"), "%s: the address limit applies first", c.name)
	}
	// The same request with the key is the MCP handshake's answer.
	r := h.Do(t, "POST", mcpserver.Path, "", initialize, "Accept", accept, "Authorization", "Bearer "+org.Key)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Contains(t, string(r.Body), `"serverInfo"`)

	_, err := connectHTTP(ctx, h, "", "")
	require.Error(t, err, "no key, no session")

	cs, err := connectHTTP(ctx, h, "Authorization", "Bearer "+org.Key)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	requireTools(t, cs)
	created, _ := call[mcpserver.ScanSummary](t, cs, "create_scan", map[string]any{"url": "https://example.com/"})
	got, _ := call[mcpserver.ScanSummary](t, cs, "get_scan", map[string]any{"scan_id": created.Scan.ID})
	require.Equal(t, created.Scan.ID, got.Scan.ID)
	list, _ := call[mcpserver.ScanList](t, cs, "list_scans", nil)
	require.Len(t, list.Scans, 1)
	require.Contains(t, callError(t, cs, "get_scan", map[string]any{"scan_id": "x"}), "not a UUID")
	// A log comes inside the request, so the endpoint's bound on a request
	// is the tool's; the upload is served in-process like any call.
	require.Contains(t, toolDescription(t, cs, "upload_crawler_log"), "at most 1 MiB")
	up, _ := call[mcpserver.CrawlerLogEntry](t, cs, "upload_crawler_log", map[string]any{"domain": "www.example.com", "log": accessLog})
	require.Equal(t, "queued", up.Status)
	require.EqualValues(t, len(accessLog), up.Bytes)

	// X-API-Key works too; another organization's key does not see the scan.
	other := h.NewOrg(t, "free", true)
	ocs, err := connectHTTP(ctx, h, "X-API-Key", other.Key)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ocs.Close() })
	require.Contains(t, callError(t, ocs, "get_scan", map[string]any{"scan_id": created.Scan.ID}), "scan_not_found")
	empty, _ := call[mcpserver.ScanList](t, ocs, "list_scans", nil)
	require.Empty(t, empty.Scans)

	// The organization's read limit applies to tool calls: the third read
	// of a minute is refused, and the tool error says when to retry.
	limited := h.NewOrg(t, "free", true)
	_, err = h.Store.Pool().Exec(ctx, "UPDATE organizations SET rate_limit_read_override = 2 WHERE id = $1", limited.ID)
	require.NoError(t, err)
	lcs, err := connectHTTP(ctx, h, "Authorization", "Bearer "+limited.Key)
	require.NoError(t, err)
	t.Cleanup(func() { _ = lcs.Close() })
	call[mcpserver.ScanList](t, lcs, "list_scans", nil)
	call[mcpserver.ScheduleList](t, lcs, "list_schedules", nil)
	msg := callError(t, lcs, "list_scans", nil)
	require.Contains(t, msg, "org_rate_limit_exceeded")
	require.Contains(t, msg, "HTTP 429")
	require.Regexp(t, `Retry after [1-9][0-9]* seconds`, msg)
	// The refusal was the API's: its own counter says so.
	refused := h.Do(t, "GET", "/api/v1/scans", limited.Key, nil)
	refused.RequireError(t, http.StatusTooManyRequests, "org_rate_limit_exceeded", "")
}
