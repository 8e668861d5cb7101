package scanner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/cli"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestTriageThroughTheAPI scans fixtures through the service and reads
// their dossiers; the platform triple comes from the real fetched pages.
func TestTriageThroughTheAPI(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	want := map[string][3]string{ // cms, page builder, framework
		testsite.WordPress: {"WordPress", "Elementor", ""},
		testsite.Shopify:   {"Shopify", "PageFly", ""},
		testsite.NextShell: {"", "", "Next.js"},
		// Other sites' /wp-content/ and /sites/default/files/ URLs in its
		// articles do not make the wiki WordPress or Drupal.
		testsite.Wiki: {"MediaWiki", "", ""},
	}
	for name, triple := range want {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			done := scan(ctx, t, org, s.URL(name))
			require.Equal(t, client.ScanStatusCompleted, done.Status)
			m, err := org.Client.GetScanTriageWithResponse(ctx, done.ID, nil)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, m.StatusCode(), "body: %s", m.Body)
			d := m.JSON200
			require.Equal(t, done.ID, d.ScanID)
			require.Equal(t, client.TriageDossierAudienceMarketing, d.Audience)
			got := [3]string{str(d.Platform.Cms), str(d.Platform.PageBuilder), str(d.Platform.JsFramework)}
			require.Equal(t, triple, got) //nolint:testifylint // triple is the expectation
			require.Len(t, d.PriorityActions, d.ActionCount)

			e, err := org.Client.GetScanTriageWithResponse(ctx, done.ID, &client.GetScanTriageParams{Audience: ptr(client.GetScanTriageParamsAudienceEngineering)})
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, e.StatusCode())
			require.Equal(t, d.RiskLenses, e.JSON200.RiskLenses, "buckets do not depend on the audience")
			require.Equal(t, d.Platform, e.JSON200.Platform)
		})
	}
}

// TestTriageRecompute covers scans without a dossier: the CLI recomputes
// it from the kept snapshot, from a fresh fetch when no snapshot exists,
// and through a queued River job that the workers run.
func TestTriageRecompute(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	done := scan(ctx, t, org, s.URL(testsite.WordPress))
	require.Equal(t, client.ScanStatusCompleted, done.Status)
	id := done.ID.String()
	original := h.Do(t, "GET", "/api/v1/scans/"+id+"/triage", org.Key, nil)
	require.Equal(t, http.StatusOK, original.Status)

	pool := h.Store.Pool()
	// A scan from before triage existed: no dossier (and, below, no snapshot).
	forget := func(snapshot bool) {
		_, err := pool.Exec(ctx, `DELETE FROM triage_dossiers WHERE scan_id = $1`, done.ID)
		require.NoError(t, err)
		if snapshot {
			_, err = pool.Exec(ctx, `DELETE FROM scan_snapshots WHERE scan_id = $1`, done.ID)
			require.NoError(t, err)
		}
		h.Do(t, "GET", "/api/v1/scans/"+id+"/triage", org.Key, nil).RequireError(t, 404, "triage_not_available", "scan_id")
	}
	var resolve []string
	for _, name := range testsite.Realistic {
		resolve = append(resolve, s.Host(name)+"=127.0.0.1")
	}
	env := map[string]string{
		"DATABASE_URL": pool.Config().ConnString(), "GEOSCAN_ENV": "test", "GEOSCAN_ALLOW_PRIVATE_TARGETS": "true",
		"GEOSCAN_EXTRA_CA_FILE": caFile, "GEOSCAN_RESOLVE": strings.Join(resolve, ","),
		"GEOSCAN_PLAIN_HTTP_PORT": strconv.Itoa(s.HTTPPort()), "GEOSCAN_LOG_LEVEL": "error",
	}
	geoscan := func(args ...string) string {
		var out, errOut bytes.Buffer
		code := cli.Main(ctx, args, func(k string) string { return env[k] }, &out, &errOut)
		require.Equal(t, 0, code, "geoscan %v: %s%s", args, out.String(), errOut.String())
		return out.String()
	}

	t.Run("from snapshot", func(t *testing.T) {
		forget(false)
		require.Equal(t, id+" recomputed from snapshot\n", geoscan("triage", "recompute", id))
		again := h.Do(t, "GET", "/api/v1/scans/"+id+"/triage", org.Key, nil)
		require.Equal(t, http.StatusOK, again.Status)
		require.JSONEq(t, string(original.Body), string(again.Body), "the snapshot rebuilds the same dossier")
	})

	t.Run("from a fresh fetch", func(t *testing.T) {
		forget(true)
		require.Equal(t, id+" recomputed from refetch\n", geoscan("triage", "recompute", "--missing", "10"))
		r, err := org.Client.GetScanTriageWithResponse(ctx, done.ID, nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, r.StatusCode())
		require.Equal(t, "WordPress", str(r.JSON200.Platform.Cms))
		require.Contains(t, strings.Join(r.JSON200.Caveats, " "), "fresh fetch")
	})

	t.Run("queued job", func(t *testing.T) {
		forget(false)
		require.Equal(t, id+" queued\n", geoscan("triage", "recompute", "--queue", id))
		r, ok := poll.For(t, 60*time.Second, func() (apitest.Response, bool) {
			r := h.Do(t, "GET", "/api/v1/scans/"+id+"/triage", org.Key, nil)
			return r, r.Status == http.StatusOK
		})
		require.True(t, ok, "the queued recompute did not run")
		var d client.TriageDossier
		require.NoError(t, json.Unmarshal(r.Body, &d))
		require.Equal(t, "WordPress", str(d.Platform.Cms))
	})

	t.Run("bad input", func(t *testing.T) {
		var out, errOut bytes.Buffer
		require.Equal(t, 2, cli.Main(ctx, []string{"triage", "recompute", "not-a-uuid"}, func(k string) string { return env[k] }, &out, &errOut))
		require.Contains(t, errOut.String(), "not a scan id")
		require.Equal(t, 1, cli.Main(ctx, []string{"triage", "recompute", "00000000-0000-4000-8000-000000000000"}, func(k string) string { return env[k] }, &out, &errOut))
		require.Contains(t, out.String(), "not found")
	})

	t.Run("failed scan", func(t *testing.T) {
		failed := scan(ctx, t, org, s.URL(testsite.MetadataRedirect))
		require.Equal(t, client.ScanStatusFailed, failed.Status)
		var out, errOut bytes.Buffer
		require.Equal(t, 1, cli.Main(ctx, []string{"triage", "recompute", failed.ID.String()}, func(k string) string { return env[k] }, &out, &errOut))
		require.Equal(t, failed.ID.String()+" skipped: scan "+failed.ID.String()+" failed, so it has no results to build a dossier from\n", out.String())
	})
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
