package scanner_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
	"github.com/geoscan/geoscan/webhook"
)

var update = flag.Bool("update", false, "rewrite the golden files")

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
func engine(t *testing.T, env map[string]string) *apitest.Harness {
	t.Helper()
	s := fixtures(t)
	hosts := map[string][]string{}
	for k, v := range apitest.DefaultHosts {
		hosts[k] = v
	}
	for _, name := range append(append([]string{}, testsite.Realistic...), testsite.Hostile...) {
		hosts[s.Host(name)] = []string{"127.0.0.1"}
	}
	vars := map[string]string{
		"GEOSCAN_ROLE":            "all",
		"GEOSCAN_EXTRA_CA_FILE":   caFile,
		"GEOSCAN_PLAIN_HTTP_PORT": strconv.Itoa(s.HTTPPort()),
		// Above the per-fetch limits (10 s for headers, 15 s a request), so
		// the tarpit tests see those fire rather than the budget. Every
		// engine of the package shares one queue and may run any scan, so
		// a test cannot give its own engine another budget.
		"GEOSCAN_SCAN_BUDGET":  "30s",
		"GEOSCAN_SCAN_WORKERS": "8",
	}
	for k, v := range env {
		vars[k] = v
	}
	return apitest.Start(t, pgtest.URL(), apitest.Options{AllowPrivateTargets: true, Hosts: hosts, Getenv: vars})
}

// scan creates a scan of a fixture and waits until it is finished.
func scan(ctx context.Context, t *testing.T, org apitest.Org, url string) client.Scan {
	t.Helper()
	created, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: url})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, created.StatusCode(), "body: %s", created.Body)
	got, ok := poll.For(t, 90*time.Second, func() (client.Scan, bool) {
		got, err := org.Client.GetScanWithResponse(ctx, created.JSON201.ID)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, got.StatusCode())
		return *got.JSON200, webhook.IsFinished(string(got.JSON200.Status))
	})
	if !ok {
		t.Fatalf("scan of %s did not finish", url)
	}
	return got
}

// golden is what a fixture's scan is expected to produce; a scoring or
// check change shows up as a reviewed diff of these files.
type golden struct {
	Status       string            `json:"status"`
	Overall      float64           `json:"overall_score"`
	OverallGrade string            `json:"overall_grade"`
	Rings        map[string]string `json:"rings"` // "score grade [capped_by]"
	Gates        []string          `json:"gates_fired"`
	Checks       map[string]string `json:"checks"`
}

func TestFixturesMatchGoldens(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			done := scan(ctx, t, org, s.URL(name))
			require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v", done.ErrorMessage)

			m, err := org.Client.GetScanReportWithResponse(ctx, done.ID, nil)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, m.StatusCode(), "body: %s", m.Body)
			e, err := org.Client.GetScanReportWithResponse(ctx, done.ID, &client.GetScanReportParams{Audience: ptr(client.GetScanReportParamsAudienceEngineering)})
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, e.StatusCode())
			requireSameNumbers(t, m.Body, e.Body)

			rep := m.JSON200
			got := golden{Status: string(done.Status), Overall: rep.OverallScore, OverallGrade: string(rep.OverallGrade), Rings: map[string]string{}, Gates: []string{}, Checks: map[string]string{}}
			for ring, rr := range map[string]client.RingResult{"search": rep.Rings.Search, "visibility": rep.Rings.Visibility, "trust": rep.Rings.Trust} {
				v := fmt.Sprintf("%d %s", rr.Score, rr.Grade)
				if rr.CappedBy != nil {
					v += " capped_by=" + *rr.CappedBy
				}
				got.Rings[ring] = v
			}
			for _, g := range rep.GatesFired {
				got.Gates = append(got.Gates, g.ID+"/"+string(g.Ring))
			}
			sort.Strings(got.Gates)
			for _, c := range rep.Checks {
				got.Checks[c.ID] = string(c.Status)
			}
			// The scan row carries the same numbers as the report.
			require.InDelta(t, rep.OverallScore, *done.OverallScore, 1e-9)
			require.Equal(t, rep.Rings.Search.Score, *done.SearchScore)
			require.Equal(t, string(rep.OverallGrade), *done.OverallGrade)

			path := filepath.Join("testdata", name+".golden.json")
			if *update {
				b, err := json.MarshalIndent(got, "", "  ")
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
				return
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err, "missing golden file: go test ./internal/jobs/scanner -run TestFixturesMatchGoldens -update")
			var want golden
			require.NoError(t, json.Unmarshal(b, &want))
			require.Equal(t, want, got, "scan of %s differs from %s (review, then -update)", name, path)

			// The checks endpoints serve the same objects as the report.
			list, err := org.Client.ListScanChecksWithResponse(ctx, done.ID, nil)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, list.StatusCode())
			require.Len(t, list.JSON200.Data, len(rep.Checks))
			one, err := org.Client.GetScanCheckWithResponse(ctx, done.ID, rep.Checks[0].ID, nil)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, one.StatusCode())
			require.Equal(t, rep.Checks[0], *one.JSON200)
		})
	}
}

// requireSameNumbers walks two reports of different audiences: every
// number, boolean, null and non-text string must be identical, and the
// text fields must differ somewhere.
func requireSameNumbers(t *testing.T, a, b []byte) {
	t.Helper()
	var x, y any
	require.NoError(t, json.Unmarshal(a, &x))
	require.NoError(t, json.Unmarshal(b, &y))
	texts := map[string]bool{
		"title": true, "why_it_matters": true, "recommendation": true, "description": true,
		"grade_descriptor": true, "executive": true, "audience": true,
		// Caveats name operator settings for engineers only.
		"caveats": true,
	}
	differ := 0
	var walk func(path, key string, x, y any)
	walk = func(path, key string, x, y any) {
		switch xv := x.(type) {
		case map[string]any:
			yv, ok := y.(map[string]any)
			require.True(t, ok, path)
			require.Len(t, yv, len(xv), path)
			for k := range xv {
				walk(path+"."+k, k, xv[k], yv[k])
			}
		case []any:
			yv, ok := y.([]any)
			require.True(t, ok, path)
			require.Len(t, yv, len(xv), path)
			for i := range xv {
				walk(fmt.Sprintf("%s[%d]", path, i), key, xv[i], yv[i])
			}
		case string:
			ring := path == "$.summaries.search" || path == "$.summaries.visibility" || path == "$.summaries.trust"
			// A fix's summary and its steps to verify are worded per audience.
			fix := strings.Contains(path, ".fix.") && (key == "summary" || key == "step")
			// A finding that names an operator setting is worded for
			// clients in the marketing edition.
			finding := strings.HasPrefix(path, "$.checks[") && key == "summary" && strings.Count(path, ".") == 2
			if texts[key] || ring || fix || finding {
				if x != y {
					differ++
				}
				return
			}
			require.Equal(t, x, y, "%s must not depend on the audience", path)
		default:
			require.Equal(t, x, y, "%s must not depend on the audience", path)
		}
	}
	walk("$", "", x, y)
	require.Positive(t, differ, "the audiences' texts should differ")
}

func ptr[T any](v T) *T { return &v }
