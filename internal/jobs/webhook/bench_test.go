package webhook_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/jobs/webhook"
	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
)

// The benchmarks below run a fixed workload once and report what
// docs/PERFORMANCE.md quotes; they assert nothing about time.

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}

// BenchmarkCallbackLatency runs 500 real scans of a loopback site with a
// callback each and measures, per scan, from the moment it became
// completed (its completed_at, the start of the finishing transaction) to
// the receiver getting the first attempt.
func BenchmarkCallbackLatency(b *testing.B) {
	const scans = 500
	for range b.N {
		var (
			mu      sync.Mutex
			arrived = map[string]time.Time{}
		)
		rc := newReceiver(b, func(_ int, w http.ResponseWriter, r *http.Request) {
			now := time.Now()
			var p struct {
				ScanID string `json:"scan_id"`
			}
			_ = json.NewDecoder(r.Body).Decode(&p)
			mu.Lock()
			if _, ok := arrived[p.ScanID]; !ok {
				arrived[p.ScanID] = now
			}
			mu.Unlock()
			w.WriteHeader(http.StatusOK)
		})
		h := benchEngine(b, rc, nil)
		org := h.NewOrg(b, "pro", true)
		many := int32(10 * scans)
		_, err := h.Store.SetOverrides(context.Background(), org.ID, planlimits.Overrides{DailyScans: &many, WritePerMinute: &many})
		require.NoError(b, err)

		ctx := context.Background()
		ids := make([]uuid.UUID, 0, scans)
		cb := rc.srv.URL + "/hook"
		for range scans {
			created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: rc.srv.URL + "/", CallbackURL: &cb})
			require.NoError(b, err)
			require.Equal(b, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
			ids = append(ids, created.JSON201.ID)
		}
		n, ok := poll.For(b, 5*time.Minute, func() (int, bool) {
			mu.Lock()
			defer mu.Unlock()
			return len(arrived), len(arrived) == scans
		})
		require.True(b, ok, "only %d of %d callbacks arrived", n, scans)
		b.StopTimer()

		lat := make([]time.Duration, 0, scans)
		for _, id := range ids {
			var done time.Time
			require.NoError(b, h.Store.Pool().QueryRow(ctx, "SELECT completed_at FROM scans WHERE id = $1", id).Scan(&done))
			lat = append(lat, arrived[id.String()].Sub(done))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		b.ReportMetric(float64(percentile(lat, 0.50).Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(percentile(lat, 0.99).Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
		b.StartTimer()
	}
}

// BenchmarkDeliveryThroughput queues 1000 deliveries in one transaction
// (as 1000 finishing scans would) to a receiver that answers in 50 ms, and
// measures until the last one has succeeded.
func BenchmarkDeliveryThroughput(b *testing.B) {
	const deliveries = 1000
	for range b.N {
		var (
			got    atomic.Int64
			queued sync.Map // delivery ids of this run
		)
		rc := newReceiver(b, func(_ int, w http.ResponseWriter, r *http.Request) {
			time.Sleep(50 * time.Millisecond)
			w.WriteHeader(http.StatusOK)
			if _, ok := queued.Load(r.Header.Get("X-GeoScan-Delivery")); ok {
				got.Add(1)
			}
		})
		h := benchEngine(b, rc, nil)
		org := h.NewOrg(b, "pro", true)
		ctx := context.Background()
		cb := rc.srv.URL + "/hook"
		// A pending scan carries the callback URL and the secret; no scan
		// runs (its URL does not resolve), only the deliveries do.
		created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://127.0.0.1:1/", CallbackURL: &cb})
		require.NoError(b, err)
		require.Equal(b, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
		scan, err := h.Store.GetScanByID(ctx, created.JSON201.ID)
		require.NoError(b, err)
		scan.Status = "completed"
		n, err := webhook.NewDelivery(scan)
		require.NoError(b, err)

		inserter, err := river.NewClient(riverpgxv5.New(h.Store.Pool()), &river.Config{})
		require.NoError(b, err)
		q := &webhook.Queuer{Client: inserter, Schedule: webhook.DefaultSchedule}
		b.ResetTimer()
		start := time.Now()
		require.NoError(b, h.Store.InTx(ctx, func(tx *store.Store) error {
			for range deliveries {
				d, err := tx.CreateDelivery(ctx, n)
				if err != nil {
					return err
				}
				queued.Store(d.ID.String(), true)
				if err := q.Enqueue(ctx, tx, d); err != nil {
					return err
				}
			}
			return nil
		}))
		arrived, ok := poll.For(b, 5*time.Minute, func() (int64, bool) { return got.Load(), got.Load() >= deliveries })
		require.True(b, ok, "only %d of %d deliveries arrived", arrived, deliveries)
		elapsed := time.Since(start)
		b.StopTimer()
		b.ReportMetric(float64(deliveries)/elapsed.Seconds(), "deliveries/s")
		b.ReportMetric(elapsed.Seconds(), "s-total")
		b.StartTimer()
	}
}

func benchEngine(tb testing.TB, rc *receiver, extra map[string]string) *apitest.Harness {
	tb.Helper()
	vars := map[string]string{
		"GEOSCAN_ROLE":            "all",
		"GEOSCAN_EXTRA_CA_FILE":   rc.caFile,
		"GEOSCAN_PLAIN_HTTP_PORT": closedPort(tb),
		"GEOSCAN_SCAN_BUDGET":     "30s",
		"GEOSCAN_LOG_LEVEL":       "warn",
	}
	for k, v := range extra {
		vars[k] = v
	}
	return apitest.Start(tb, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Getenv: vars})
}
