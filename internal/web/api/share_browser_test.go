package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/browsertest"
)

// TestShareLinkInBrowser follows a share link as its reader would: in a
// real Chromium, without a key. The page wears the organization's brand in
// the link's language; once the link is revoked the same address shows the
// gone page, in that language, with none of the report.
func TestShareLinkInBrowser(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	roomyRateLimits(t, h, org)
	scanID := newCompletedScan(t, h, org)

	name, hide := "Agentur <Nord>", false
	set, err := org.Client.SetBrandingWithResponse(ctx, client.BrandingRequest{Name: &name, ShowGeoscan: &hide})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, set.StatusCode(), "body: %s", set.Body)
	share, path := createShare(t, h, org, scanID, map[string]any{"language": "de"})

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browsertest.Path(t)), chromedp.NoSandbox, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	bctx, cancelTime := context.WithTimeout(bctx, 2*time.Minute)
	t.Cleanup(cancelTime)

	// seen is what the tests read back from the page Chromium shows.
	type seen struct {
		Status int
		Lang   string
		Text   string
	}
	const read = `({
  Status: performance.getEntriesByType('navigation')[0].responseStatus,
  Lang: document.documentElement.lang,
  Text: document.body.innerText,
})`
	open := func() (int, string, string) {
		t.Helper()
		require.NoError(t, chromedp.Do(bctx, chromedp.Navigate(h.BaseURL+path)))
		s, err := chromedp.Run(bctx, chromedp.Evaluate[seen](read))
		require.NoError(t, err)
		return s.Status, s.Lang, s.Text
	}

	status, lang, text := open()
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "de", lang)
	require.Contains(t, text, "Agentur <Nord>", "the brand's name, shown as text")
	require.Contains(t, text, "Die drei Ringe", "the page's words in German")
	// The page's own sentences too, not only its headings.
	for _, english := range []string{"The three rings", "out of 100", "Content management", "checks were run", "Each ring scores", "nothing to fix", "made 1 request"} {
		require.NotContains(t, text, english)
	}
	require.NotContains(t, text, "Made with GeoScan", "the brand hides GeoScan's name")

	del, err := org.Client.RevokeScanShareWithResponse(ctx, scanID, share.ID)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, del.StatusCode(), "body: %s", del.Body)

	status, lang, text = open()
	require.Equal(t, http.StatusGone, status, "revocation takes effect at once")
	require.Equal(t, "de", lang)
	require.Contains(t, text, "widerrufen")
	require.Contains(t, text, "Agentur <Nord>")
	require.NotContains(t, text, "Die drei Ringe", "the gone page holds none of the report")
}
