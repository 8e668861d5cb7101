package api_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
)

// Every list answers with one body and its Content-Length, ending with a
// newline as the generated responses do. net/http sends the length of a
// body it holds whole (2 KiB) by itself; a longer page of scans or
// schedules went out chunked.
func TestListsSendTheirLength(t *testing.T) {
	t.Parallel()
	sites := map[string][]string{}
	for i := range 8 {
		sites[fmt.Sprintf("site%d.example.com", i)] = []string{"93.184.216.34"}
	}
	h := start(t, startOptions(sites))
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	var scanID, scheduleID string
	for i := range 8 {
		scan, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, scan.StatusCode(), "body: %s", scan.Body)
		sc, err := org.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{URL: fmt.Sprintf("https://site%d.example.com/", i)})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, sc.StatusCode(), "body: %s", sc.Body)
		scanID, scheduleID = scan.JSON201.ID.String(), sc.JSON201.ID.String()
	}

	for _, path := range []string{
		"/api/v1/scans",
		"/api/v1/scans?limit=1",
		"/api/v1/schedules",
		"/api/v1/schedules/" + scheduleID + "/runs",
		"/api/v1/scans/" + scanID + "/deliveries",
	} {
		r := h.Do(t, http.MethodGet, path, org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
		require.Equal(t, strconv.Itoa(len(r.Body)), r.Header.Get("Content-Length"), path)
		require.Equal(t, "application/json", r.Header.Get("Content-Type"), path)
		require.Equal(t, byte('\n'), r.Body[len(r.Body)-1], path)
		if path == "/api/v1/scans" || path == "/api/v1/schedules" {
			require.Greater(t, len(r.Body), 2<<10, "%s: a page longer than what net/http holds whole", path)
		}
	}
}
