package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestScanCreateMaxPages: --max-pages reaches the API, which caps it by the
// plan (pro: 500).
func TestScanCreateMaxPages(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)

	code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.Docs), "--max-pages", "3", "--json")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	var s client.Scan
	require.NoError(t, json.Unmarshal([]byte(out), &s), "out: %s", out)
	require.Equal(t, 3, s.MaxPages)

	code, out, errOut = c.geoscan(t, "scan", "create", c.sites.URL(testsite.Docs), "--max-pages", "501")
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "invalid_parameter")
	require.Contains(t, errOut, "param max_pages")
	require.Contains(t, errOut, "maximum of 500")
}

// TestScanPages: a whole-site scan's pages are listed as a table, as the
// API's JSON, sorted and filtered, with the cursor to follow.
func TestScanPages(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)
	code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.Megasite), "--max-pages", "6", "--wait", "--json")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	var s client.Scan
	require.NoError(t, json.Unmarshal([]byte(out), &s), "out: %s", out)
	id := s.ID.String()

	code, out, errOut = c.geoscan(t, "scan", "pages", id, "--json", "--limit", "100")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	var list client.ScanPageList
	require.NoError(t, json.Unmarshal([]byte(out), &list), "out: %s", out)
	require.Len(t, list.Data, 6)
	require.Equal(t, 0, list.Data[0].Position, "the homepage comes first")

	code, out, errOut = c.geoscan(t, "scan", "pages", id)
	require.Equal(t, 0, code, "stderr: %s", errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 7, out)
	require.Regexp(t, `^ID\s+STATUS\s+HTTP\s+SCORE\s+GROUP\s+URL$`, lines[0])
	for i, p := range list.Data {
		require.Contains(t, lines[i+1], p.URL)
		require.Contains(t, lines[i+1], string(p.Status))
	}

	code, out, errOut = c.geoscan(t, "scan", "pages", id, "--sort", "-score", "--limit", "2")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	require.Len(t, strings.Split(strings.TrimSpace(out), "\n"), 3, out)
	require.Contains(t, errOut, "more pages: geoscan scan pages "+id+" --cursor ")

	// The pages as CSV, one row per page, in crawl order.
	code, out, errOut = c.geoscan(t, "scan", "export", "--include", "pages")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	require.Equal(t, "scan_id,position,url,group,type,status,http_status,score", rows[0])
	require.Len(t, rows, 7, out)
	for i, row := range rows[1:] {
		require.True(t, strings.HasPrefix(row, id+","+strconv.Itoa(i)+","), row)
	}
	code, _, errOut = c.geoscan(t, "scan", "export", "--include", "sites")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "include")

	code, _, errOut = c.geoscan(t, "scan", "pages", id, "--score-lt", "low")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "--score-lt must be a number")
	code, _, errOut = c.geoscan(t, "scan", "pages", id, "--sort", "size")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "sort")

	// The report shows what the crawl covered; a second whole-site audit of
	// the site also says how it changed since the first.
	code, out, errOut = c.geoscan(t, "scan", "report", id)
	require.Equal(t, 0, code, "stderr: %s", errOut)
	require.Regexp(t, `Across the site: \d+ pages audited of \d+ known \(page budget 6\); the crawl ended: `, out)
	require.NotContains(t, out, "Since the whole-site audit")
	code, out, errOut = c.geoscan(t, "scan", "create", c.sites.URL(testsite.Megasite), "--max-pages", "6", "--wait", "--json")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	var second client.Scan
	require.NoError(t, json.Unmarshal([]byte(out), &second), "out: %s", out)
	code, out, errOut = c.geoscan(t, "scan", "report", second.ID.String())
	require.Equal(t, 0, code, "stderr: %s", errOut)
	require.Contains(t, out, "(scan "+id+")")
	require.Regexp(t, `Since the whole-site audit of \d{4}-\d\d-\d\d \(scan \S+\): site score \d+\.\d, [+-]\d+\.\d since \(\d+\.\d\); \d+ pages audited, \d+ then\.\n`, out)
	require.Regexp(t, `CHANGE\s+PAGES THEN\s+PAGES NOW\s+CHECK\n(?:(?:new|persisting|resolved)\s+\d+\s+\d+\s+\w+\n)+`, out)
	require.Regexp(t, `Issues on many pages, most pages first:\nPAGES\s+GAIN\s+CHECK\s+TEMPLATES\n\d+/\d+\s+\+\d+\.\d`, out)
}
