package scanner_test

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// TestHostileTargets: each hostile site ends in a failed scan with a clear
// code and message, never a crash or a scan left running.
func TestHostileTargets(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	cases := map[string]string{
		testsite.SlowDrip:         "timeout",
		testsite.Huge:             "response_too_large",
		testsite.GzipBomb:         "response_too_large",
		testsite.MetadataRedirect: "blocked_destination",
	}
	for site, code := range cases {
		t.Run(site, func(t *testing.T) {
			t.Parallel()
			done := scan(ctx, t, org, s.URL(site))
			require.Equal(t, client.ScanStatusFailed, done.Status)
			require.NotNil(t, done.ErrorCode)
			require.Equal(t, code, *done.ErrorCode, "message: %s", *done.ErrorMessage)
			require.NotEmpty(t, *done.ErrorMessage)
			require.NotNil(t, done.CompletedAt)
			// A failed scan has no results.
			rep, err := org.Client.GetScanReportWithResponse(ctx, done.ID, nil)
			require.NoError(t, err)
			require.Equal(t, 400, rep.StatusCode())
			h.Do(t, "GET", "/api/v1/scans/"+done.ID.String()+"/triage", org.Key, nil).RequireError(t, 404, "triage_not_available", "scan_id")
		})
	}
}

// TestTLSFailuresFailTheScanOnce: a site whose TLS fails ends in a failed
// scan that says what failed, naming TLS once ("tls: tls: …" and "x509:"
// never reach the message).
func TestTLSFailuresFailTheScanOnce(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	bad, err := testsite.StartBadTLS()
	require.NoError(t, err)
	t.Cleanup(bad.Close)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	for fault, want := range map[string]string{
		testsite.TLSExpired:     "the TLS certificate expired on " + bad.Expiry.Format(time.DateOnly),
		testsite.TLSWrongHost:   "the TLS certificate is valid for other.test, not for 127.0.0.1",
		testsite.TLSSelfSigned:  "the TLS certificate is self-signed, not issued by a trusted certificate authority",
		testsite.TLSOldProtocol: "the TLS handshake failed: the server refused it (protocol version not supported)",
	} {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			done := scan(ctx, t, org, bad.URL(fault))
			require.Equal(t, client.ScanStatusFailed, done.Status)
			require.Equal(t, "tls_error", *done.ErrorCode)
			require.Equal(t, "The homepage could not be fetched: "+want+".", *done.ErrorMessage)
		})
	}
}

// TestTarpits: every fetch has limits of its own, so a site that sends
// next to nothing ends as a fetch error naming the limit that fired. On the
// homepage that fails the scan (never a grade computed from a few bytes);
// elsewhere the scan completes and the error is evidence. The engines'
// budget is above the per-fetch limits, so only those can fire.
func TestTarpits(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	for site, want := range map[string]string{
		// Seven bytes over fourteen seconds would finish inside the
		// per-request timeout: only the transfer rate stops it.
		testsite.TarpitBody:    "minimum transfer rate of 128 bytes/s",
		testsite.TarpitHeaders: "no complete response headers arrived within 10s",
	} {
		t.Run(site, func(t *testing.T) {
			t.Parallel()
			done := scan(ctx, t, org, s.URL(site))
			require.Equal(t, client.ScanStatusFailed, done.Status)
			require.Equal(t, "timeout", *done.ErrorCode)
			require.Contains(t, *done.ErrorMessage, "The homepage could not be fetched: ")
			require.Contains(t, *done.ErrorMessage, want)
			require.NotContains(t, *done.ErrorMessage, "budget")
			t.Logf("%s: failed after %s: %s", site, done.CompletedAt.Sub(*done.StartedAt).Round(100*time.Millisecond), *done.ErrorMessage)
		})
	}
	t.Run(testsite.SlowPages, func(t *testing.T) {
		t.Parallel()
		done := scan(ctx, t, org, s.URL(testsite.SlowPages))
		require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %v", done.ErrorMessage)
		t.Logf("slow pages: completed after %s", done.CompletedAt.Sub(*done.StartedAt).Round(100*time.Millisecond))
		rep, err := org.Client.GetScanReportWithResponse(ctx, done.ID, &client.GetScanReportParams{Audience: ptr(client.GetScanReportParamsAudienceEngineering)})
		require.NoError(t, err)
		require.Equal(t, 200, rep.StatusCode())
		slow := map[string]string{}
		for _, f := range rep.JSON200.Fetch.Fetches {
			if f.Error != nil {
				slow[f.Purpose] = *f.Error
			}
		}
		for _, purpose := range []string{"robots", "llms_txt", "sitemap", "about"} {
			require.Contains(t, slow[purpose], "below the minimum transfer rate of 128 bytes/s", "fetch errors: %v", slow)
		}
		check, err := org.Client.GetScanCheckWithResponse(ctx, done.ID, "robots_txt_fetchable", nil)
		require.NoError(t, err)
		require.Equal(t, 200, check.StatusCode())
		require.Equal(t, client.CheckStatusFail, check.JSON200.Status)
		require.Contains(t, check.JSON200.Evidence["error"], "minimum transfer rate")
	})
}

// TestNulBytesPageCompletes: NUL bytes and invalid UTF-8 in a page's
// title, meta tags, headings, structured data, robots.txt, llms.txt,
// sitemap and header values never fail its scan; what is stored is valid
// text, with U+FFFD where a byte could not be kept.
func TestNulBytesPageCompletes(t *testing.T) {
	t.Parallel()
	h := engine(t, nil)
	s := fixtures(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	done := scan(ctx, t, org, s.URL(testsite.NulBytes))
	require.Equal(t, client.ScanStatusCompleted, done.Status, "error: %s", ptrString(done.ErrorMessage))

	id := done.ID.String()
	var bodies []string
	for _, path := range []string{"/report", "/report?audience=engineering", "/checks", "/triage"} {
		r := h.Do(t, "GET", "/api/v1/scans/"+id+path, org.Key, nil)
		require.Equal(t, 200, r.Status, "%s: %s", path, r.Body)
		require.True(t, utf8.Valid(r.Body), path)
		require.NotContains(t, string(r.Body), `\u0000`, path)
		bodies = append(bodies, string(r.Body))
	}
	all := strings.Join(bodies, "\n")
	// The title was read and kept, with U+FFFD for what could not be.
	title, err := org.Client.GetScanCheckWithResponse(ctx, done.ID, "title_quality", nil)
	require.NoError(t, err)
	require.Equal(t, 200, title.StatusCode())
	got, _ := title.JSON200.Evidence["title"].(string)
	require.True(t, strings.HasPrefix(got, "Nul\ufffd Bakery \ufffd") && strings.HasSuffix(got, " Fresh Bread"), "title %q", got)
	// So was the structured data, whose name holds the escape \u0000.
	require.Contains(t, all, "Nul\ufffd Bakery")
	// The about page's NUL header is refused by the client (RFC 9110
	// section 5.5) and recorded as that fetch's error.
	require.Contains(t, all, "malformed")
}

func ptrString(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
