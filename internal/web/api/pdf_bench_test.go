package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// BenchmarkGetScanPdf downloads the marketing PDF of the wordpress fixture
// site's scan (its report and dossier built by audit.Run, as a scan builds
// them) through real HTTP and PostgreSQL, one request at a time: "cached"
// is served as rendered before, "rendered" renders on every request
// (GEOSCAN_PDF_CACHE_MB=0). Both rate-limit layers run, with limits no
// benchmark reaches. cpu-ns/op is the CPU time of the test process (client
// and server) per request; PostgreSQL's is not in it.
//
//	go run ./cmd/testdb -- go test -run '^$' -bench GetScanPdf -benchtime 100x ./internal/web/api/
func BenchmarkGetScanPdf(b *testing.B) {
	res := audittest.Run(b, "wordpress", "", audit.Options{})
	b.Cleanup(testsite.RemoveTempCAFiles)
	require.NoError(b, res.TriageErr)
	reportBody, err := json.Marshal(res.Report)
	require.NoError(b, err)
	triageBody, err := json.Marshal(res.Triage)
	require.NoError(b, err)

	for _, c := range []struct{ name, cacheMB string }{{"cached", "64"}, {"rendered", "0"}} {
		b.Run(c.name, func(b *testing.B) {
			h := apitest.Start(b, pgtest.URL(), apitest.Options{Getenv: map[string]string{
				"GEOSCAN_LOG_LEVEL": "error", "GEOSCAN_PDF_CACHE_MB": c.cacheMB, "GEOSCAN_RENDER_RATE_LIMIT": "1000000000",
			}})
			org := h.NewOrg(b, "pro", true)
			ctx := context.Background()
			pool := h.Store.Pool()
			_, err := pool.Exec(ctx, `UPDATE organizations SET rate_limit_read_override = 1000000000 WHERE id = $1`, org.ID)
			require.NoError(b, err)
			resp, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://example.com/"})
			require.NoError(b, err)
			require.Equal(b, http.StatusCreated, resp.StatusCode())
			id := resp.JSON201.ID
			_, err = pool.Exec(ctx, `UPDATE scans SET status = 'completed', started_at = now(), completed_at = now() WHERE id = $1`, id)
			require.NoError(b, err)
			_, err = pool.Exec(ctx, `INSERT INTO reports (scan_id, scoring_version, body) VALUES ($1, $2, $3)`, id, res.Scores.Version, reportBody)
			require.NoError(b, err)
			_, err = pool.Exec(ctx, `INSERT INTO triage_dossiers (scan_id, schema_version, body) VALUES ($1, $2, $3)`, id, triage.SchemaVersion, triageBody)
			require.NoError(b, err)

			url := h.BaseURL + "/api/v1/scans/" + id.String() + "/pdf"
			get := func() int {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				req.Header.Set("X-API-Key", org.Key)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				defer resp.Body.Close()
				n, _ := io.Copy(io.Discard, resp.Body)
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
				return int(n)
			}
			size := get() // rendered once: the cached case measures hits only
			b.ReportAllocs()
			b.ResetTimer()
			start := processCPU(b)
			for b.Loop() {
				get()
			}
			// The process's CPU time (the server runs in it) per request:
			// on a shared machine it moves far less than the time per op.
			b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(size), "pdf-bytes")
		})
	}
}

// processCPU is the user and system time this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	require.NoError(b, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
