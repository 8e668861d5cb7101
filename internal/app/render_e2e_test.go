package app_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/browsertest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestScanRendersWithTheWorkersBrowser runs a scan of the client-rendered
// app through the API on a server with GEOSCAN_RENDER=on: the worker's
// browser runs the app's bundle (which asks the site for its content) and
// the report says the homepage was rendered. It does not run in parallel
// with the package's other tests, whose started workers trust another
// fixture CA and could take its job.
func TestScanRendersWithTheWorkersBrowser(t *testing.T) {
	browsertest.Path(t)
	sites := startSites(t)
	ca, err := sites.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	h := apitest.Start(t, pgtest.URL(), apitest.Options{
		AllowPrivateTargets: true,
		Hosts:               map[string][]string{sites.Host(testsite.ClientApp): {"127.0.0.1"}},
		Getenv: map[string]string{
			"GEOSCAN_ROLE": "all", "GEOSCAN_RENDER": "on", "GEOSCAN_EXTRA_CA_FILE": ca,
			"GEOSCAN_PLAIN_HTTP_PORT": strconv.Itoa(sites.HTTPPort()), "GEOSCAN_SCAN_BUDGET": "60s",
		},
	})
	require.Regexp(t, `^on \(`, h.App.Rendering())
	org := h.NewOrg(t, "pro", true)

	created := h.Do(t, http.MethodPost, "/api/v1/scans", org.Key, map[string]string{"url": sites.URL(testsite.ClientApp)})
	require.Equal(t, http.StatusCreated, created.Status, "%s", created.Body)
	var scan struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	created.JSON(t, &scan)
	done, ok := poll.For(t, 90*time.Second, func() (string, bool) {
		r := h.Do(t, http.MethodGet, "/api/v1/scans/"+scan.ID, org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r.JSON(t, &scan)
		return scan.Status, scan.Status == "completed" || scan.Status == "failed"
	})
	require.True(t, ok, "the scan did not finish")
	require.Equal(t, "completed", done)

	r := h.Do(t, http.MethodGet, "/api/v1/scans/"+scan.ID+"/report", org.Key, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var report struct {
		Rendering *struct {
			Mode  string `json:"mode"`
			Pages []struct {
				URL      string `json:"url"`
				Rendered bool   `json:"rendered"`
				Reason   string `json:"reason"`
			} `json:"pages"`
		} `json:"rendering"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &report))
	require.NotNil(t, report.Rendering, "the report says nothing of rendering")
	require.Equal(t, "rendered", report.Rendering.Mode, "%+v", report.Rendering)
	require.NotEmpty(t, report.Rendering.Pages)
	require.True(t, report.Rendering.Pages[0].Rendered, report.Rendering.Pages[0].Reason)
	require.Positive(t, sites.Hits(testsite.ClientApp)["/api/page.json"], "the browser did not run the app's bundle")
}
