package mcpserver_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/crawlerlogs"
	"github.com/geoscan/geoscan/internal/mcpserver"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// accessLog is a Combined Log Format log of www.example.com: GPTBot from
// an address of OpenAI's published list and from one that is not in it,
// Bytespider (whose operator publishes no way to verify it) asking for a
// path with an escape sequence in it, and a browser. No crawler in it is
// verified by reverse DNS.
const accessLog = `20.171.206.5 - - [20/Nov/2026:10:00:00 +0000] "GET /pricing HTTP/1.1" 200 5120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
203.0.113.9 - - [21/Nov/2026:09:00:00 +0000] "GET /pricing HTTP/1.1" 403 0 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
198.51.100.7 - - [21/Nov/2026:11:00:00 +0000] "GET /` + "\x1b" + `[31mred HTTP/1.1" 200 99 "-" "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)"
198.51.100.8 - - [21/Nov/2026:12:00:00 +0000] "GET / HTTP/1.1" 200 10240 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"
`

// noDNS answers no lookup, in place of the worker's system resolver.
type noDNS struct{}

func (noDNS) LookupAddr(context.Context, string) ([]string, error) {
	return nil, errors.New("no DNS in tests")
}

func (noDNS) LookupHost(context.Context, string) ([]string, error) {
	return nil, errors.New("no DNS in tests")
}

// analyse runs the analysis job of a log as a worker would (no worker
// runs in these tests' servers).
func analyse(t *testing.T, h *apitest.Harness, id string) {
	t.Helper()
	w := &crawlerlogs.Worker{Store: h.Store, Resolver: noDNS{}}
	require.NoError(t, w.Work(context.Background(), &river.Job[crawlerlogs.Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: crawlerlogs.Args{LogID: uuid.MustParse(id)}}))
}

func toolDescription(t *testing.T, cs *mcp.ClientSession, name string) string {
	t.Helper()
	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	i := slices.IndexFunc(list.Tools, func(tool *mcp.Tool) bool { return tool.Name == name })
	require.GreaterOrEqual(t, i, 0, name)
	return list.Tools[i].Description
}

// An access log through the tools: uploaded as text, analysed, read back
// with its days and pages, listed. Not parallel, like
// TestArgumentsAndAPIErrors: the workers of a parallel test's server
// would take up the scan this one creates.
func TestCrawlerLogTools(t *testing.T) {
	h := apitest.Start(t, pgtest.URL(), apitest.Options{})
	org := h.NewOrg(t, "free", true)
	cs := connect(t, h, org.Key)
	requireTools(t, cs)
	desc := toolDescription(t, cs, "upload_crawler_log")
	require.Contains(t, desc, "at most 5 MiB")
	require.Contains(t, desc, "geoscan logs upload")

	up, text := call[mcpserver.CrawlerLogEntry](t, cs, "upload_crawler_log", map[string]any{"domain": "https://WWW.Example.com/", "log": accessLog})
	require.Equal(t, "queued", up.Status)
	require.Equal(t, "www.example.com", up.Domain)
	require.EqualValues(t, len(accessLog), up.Bytes)
	require.Nil(t, up.Crawlers, "not analysed yet")
	require.Contains(t, text, "get_crawler_log")

	queued, text := call[mcpserver.CrawlerLog](t, cs, "get_crawler_log", map[string]any{"log_id": up.ID})
	require.Equal(t, "queued", queued.Status)
	require.Contains(t, text, "again")

	analyse(t, h, up.ID)
	got, text := call[mcpserver.CrawlerLog](t, cs, "get_crawler_log", map[string]any{"log_id": up.ID, "include_days": true, "include_pages": true})
	require.Equal(t, "succeeded", got.Status)
	require.Contains(t, text, "4 lines, 4 read; 2 AI or search crawlers: GPTBot 2 hits (1 verified, 1 claim to be GPTBot unverified), Bytespider 1 hits (0 verified, 1 claim to be Bytespider unverified).")
	lg, ok := got.Log.(map[string]any)
	require.True(t, ok, "log %T", got.Log)
	require.Equal(t, up.ID, lg["id"])
	bots, ok := lg["bots"].([]any)
	require.True(t, ok)
	require.Len(t, bots, 2)
	var paths []string
	for _, b := range bots {
		bot := b.(map[string]any)
		require.NotNil(t, bot["days"], "include_days")
		for _, p := range bot["pages"].([]any) {
			paths = append(paths, p.(map[string]any)["path"].(string))
		}
	}
	require.Contains(t, paths, "/\x1b[31mred", "the log's path is data in a JSON field, as the API sent it")

	plain, _ := call[mcpserver.CrawlerLog](t, cs, "get_crawler_log", map[string]any{"log_id": up.ID})
	for _, b := range plain.Log.(map[string]any)["bots"].([]any) {
		require.NotContains(t, b.(map[string]any), "pages", "no pages unless asked for")
	}

	list, _ := call[mcpserver.CrawlerLogList](t, cs, "list_crawler_logs", map[string]any{"domain": "www.example.com"})
	require.Len(t, list.Logs, 1)
	require.Equal(t, up.ID, list.Logs[0].ID)
	require.Equal(t, "succeeded", list.Logs[0].Status)
	require.EqualValues(t, 4, *list.Logs[0].Lines)
	require.Equal(t, 2, *list.Logs[0].Crawlers)
	other, _ := call[mcpserver.CrawlerLogList](t, cs, "list_crawler_logs", map[string]any{"domain": "other.example.com"})
	require.Empty(t, other.Logs)

	// Competitors on create_scan: shown on the scan; the plan caps them.
	scan, _ := call[mcpserver.ScanSummary](t, cs, "create_scan", map[string]any{"url": "https://example.com/", "competitors": []string{"https://www.example.com/"}})
	require.Equal(t, []string{"https://www.example.com/"}, scan.Scan.Competitors)
	msg := callError(t, cs, "create_scan", map[string]any{"url": "https://example.com/", "competitors": []string{"https://www.example.com/", "https://shop.example.co.uk/"}})
	require.Contains(t, msg, "invalid_parameter")
	require.Contains(t, msg, "param: competitors")

	// Refusals: the tool's own before any call, then the API's.
	for _, c := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"log": accessLog}, []string{"domain", "schedule_id"}},
		{map[string]any{"domain": "www.example.com", "schedule_id": uuid.NewString(), "log": accessLog}, []string{"not both"}},
		{map[string]any{"schedule_id": "7", "log": accessLog}, []string{"schedule_id", "not a UUID"}},
		{map[string]any{"domain": "www.example.com", "log": " \n"}, []string{"log", "empty"}},
		{map[string]any{"domain": "www.example.com"}, []string{"log"}},
		{map[string]any{"domain": "not-a-host", "log": accessLog}, []string{"invalid_parameter", "HTTP 422", "param: domain"}},
		{map[string]any{"schedule_id": uuid.NewString(), "log": accessLog}, []string{"schedule_not_found", "HTTP 404"}},
	} {
		msg := callError(t, cs, "upload_crawler_log", c.args)
		for _, w := range c.want {
			require.Contains(t, msg, w, "%v", c.args)
		}
	}
	require.Contains(t, callError(t, cs, "get_crawler_log", map[string]any{"log_id": uuid.NewString()}), "crawler_log_not_found")
	require.Contains(t, callError(t, cs, "get_crawler_log", map[string]any{"log_id": "x"}), "not a UUID")

	// A log above the bound is refused with the way to upload it.
	small := connectWith(t, mcpserver.Options{APIURL: h.APIURL, Key: org.Key, HTTPClient: h.HTTP, MaxLogBytes: 1000})
	require.Contains(t, toolDescription(t, small, "upload_crawler_log"), "at most 1000 bytes")
	big := strings.Repeat(strings.SplitAfter(accessLog, "\n")[3], 10)
	msg = callError(t, small, "upload_crawler_log", map[string]any{"domain": "www.example.com", "log": big})
	require.Contains(t, msg, "log")
	require.Contains(t, msg, "geoscan logs upload FILE")
	none, _ := call[mcpserver.CrawlerLogList](t, cs, "list_crawler_logs", nil)
	require.Len(t, none.Logs, 1, "nothing of the refused uploads was stored")
}
