// Package outage stops the PostgreSQL server under a running GeoScan
// and starts it again. It has a package and a private cluster of its own,
// so no other test loses its database meanwhile.
package outage

import (
	"context"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/store/pgcluster"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
	"github.com/geoscan/geoscan/internal/web/auth"
	"github.com/geoscan/geoscan/webhook"
)

// TestDatabaseOutage runs the geoscan binary (API and scan workers in one
// process) on a private cluster, stops PostgreSQL while a scan is mid-fetch and clients
// poll and create, and starts it again: meanwhile every request that needs
// the database is 503 service_unavailable with Retry-After and the
// envelope; afterwards the same requests succeed again without a restart
// of GeoScan, and every scan created before the outage completes.
func TestDatabaseOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and stops a PostgreSQL cluster")
	}
	ctx := context.Background()
	cluster, err := pgcluster.StartEphemeral(ctx, t.Logf)
	require.NoError(t, err)
	running := cluster
	t.Cleanup(func() {
		_ = running.Stop(context.Background())
		_ = cluster.Remove()
	})
	require.NoError(t, cluster.EnsureDatabase(ctx, "geoscan"))

	sites, err := testsite.Start()
	require.NoError(t, err)
	t.Cleanup(sites.Close)
	caFile, err := sites.WriteCAFile(t.TempDir())
	require.NoError(t, err)
	var resolve []string
	for _, name := range testsite.Realistic {
		resolve = append(resolve, sites.Host(name)+"=127.0.0.1")
	}
	// The real binary, API and scan workers in one process, as deployed.
	server := binarytest.Serve(t, "geoscan", binarytest.Build(t), "all", []string{
		"DATABASE_URL=" + cluster.URL("geoscan"), "GEOSCAN_ENV=test", "GEOSCAN_ALLOW_PRIVATE_TARGETS=true",
		"GEOSCAN_EXTRA_CA_FILE=" + caFile, "GEOSCAN_RESOLVE=" + strings.Join(resolve, ","),
		"GEOSCAN_PLAIN_HTTP_PORT=" + strconv.Itoa(sites.HTTPPort()), "GEOSCAN_SCAN_BUDGET=30s",
		"GEOSCAN_LOG_LEVEL=info",
	})
	h := apitest.Attach(t, server.BaseURL(), cluster.URL("geoscan"))
	org := h.NewOrg(t, "pro", true)
	unknownKey, err := auth.NewKey() // well formed, so only the database can refuse it
	require.NoError(t, err)

	// One scan is caught mid-fetch, one waits its turn or finishes.
	release := sites.Hold(testsite.Docs)
	defer release()
	held := createScan(ctx, t, org, sites.URL(testsite.Docs))
	other := createScan(ctx, t, org, sites.URL(testsite.WordPress))
	binarytest.Until(t, 60*time.Second, "the held scan to start fetching", func() bool {
		return getScan(ctx, t, org, held).Status == client.ScanStatusRunning && sites.Hits(testsite.Docs)["/"] > 0
	}, server)

	require.NoError(t, cluster.Stop(ctx))

	// Every request that needs the database: reads, lists, creates,
	// updates, and authentication itself (the key is looked up).
	needDB := []struct {
		method, path, key, body string
	}{
		{"GET", "/api/v1/scans/" + held.String(), org.Key, ""},
		{"GET", "/api/v1/scans?limit=5", org.Key, ""},
		{"GET", "/api/v1/usage", org.Key, ""},
		{"GET", "/api/v1/schedules", org.Key, ""},
		{"POST", "/api/v1/scans", org.Key, `{"url":"` + sites.URL(testsite.Shopify) + `"}`},
		{"PATCH", "/api/v1/scans/" + other.String(), org.Key, `{"project":"outage"}`},
		{"GET", "/api/v1/scans", unknownKey, ""},
	}
	for round := range 3 {
		for _, r := range needDB {
			var body any
			if r.body != "" {
				body = r.body
			}
			resp := h.Do(t, r.method, r.path, r.key, body)
			resp.RequireError(t, http.StatusServiceUnavailable, "service_unavailable", "")
			require.Equal(t, "api_error", string(resp.Error(t).Error.Type))
			retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
			require.NoError(t, err, "round %d %s %s: Retry-After %q", round, r.method, r.path, resp.Header.Get("Retry-After"))
			require.Positive(t, retry)
		}
	}
	// What needs no database still answers as usual.
	h.Do(t, "GET", "/api/v1/scans", "", nil).RequireError(t, http.StatusUnauthorized, "api_key_required", "")
	require.Equal(t, http.StatusOK, h.Do(t, "GET", "/healthz", "", nil).Status)
	require.Equal(t, http.StatusServiceUnavailable, h.Do(t, "GET", "/readyz", "", nil).Status)

	require.False(t, server.Exited(), "the server survives the outage; output:\n%s", server.Logs())

	running, err = pgcluster.Start(ctx, pgcluster.Options{Dir: cluster.Dir(), Port: cluster.Port(), Logf: t.Logf})
	require.NoError(t, err)
	// The test's own pool still holds connections the stop terminated;
	// pgx would hand one out once before noticing.
	h.Store.Pool().Reset()

	// The same process recovers: reads and creates succeed again.
	binarytest.Until(t, 30*time.Second, "reads to succeed again", func() bool {
		return h.Do(t, "GET", "/api/v1/scans/"+held.String(), org.Key, nil).Status == http.StatusOK
	}, server)
	require.Equal(t, http.StatusOK, h.Do(t, "GET", "/readyz", "", nil).Status)
	after := createScan(ctx, t, org, sites.URL(testsite.Shopify))
	patched := h.Do(t, "PATCH", "/api/v1/scans/"+other.String(), org.Key, `{"project":"after-outage"}`)
	require.Equal(t, http.StatusOK, patched.Status, "body: %s", patched.Body)
	release()

	// No scan was lost or left running: each one completes.
	for _, id := range []client.ScanID{held, other, after} {
		binarytest.Until(t, 120*time.Second, "scan "+id.String()+" to finish", func() bool {
			return webhook.IsFinished(string(getScan(ctx, t, org, id).Status))
		}, server)
		got := getScan(ctx, t, org, id)
		require.Equal(t, client.ScanStatusCompleted, got.Status, "scan %s: %v %v", id, got.ErrorCode, got.ErrorMessage)
	}
	var stuck int
	require.NoError(t, h.Store.Pool().QueryRow(ctx, "SELECT count(*) FROM scans WHERE status IN ('pending', 'running')").Scan(&stuck))
	require.Zero(t, stuck)
	require.False(t, server.Exited(), "the same process served throughout; output:\n%s", server.Logs())
	apitest.RequireNoKeysIn(t, server.Logs())
}

func createScan(ctx context.Context, t *testing.T, org apitest.Org, url string) client.ScanID {
	t.Helper()
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: url})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	return created.JSON201.ID
}

func getScan(ctx context.Context, t *testing.T, org apitest.Org, id client.ScanID) client.Scan {
	t.Helper()
	got, err := org.Client.GetScanWithResponse(ctx, id)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode(), "body: %s", got.Body)
	return *got.JSON200
}

func TestMain(m *testing.M) {
	code := m.Run()
	binarytest.Remove()
	os.Exit(code)
}
