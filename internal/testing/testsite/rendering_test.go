package testsite_test

import (
	"context"
	"io"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/testing/browsertest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// fetchPage reads a fixture's homepage as a crawler does and parses it.
func fetchPage(t *testing.T, s *testsite.Server, site string) *page.Page {
	t.Helper()
	u := s.URL(site)
	resp, err := s.Client().Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, site)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	pu, err := url.Parse(u)
	require.NoError(t, err)
	p, err := page.Parse(body, pu)
	require.NoError(t, err)
	return p
}

func path(t *testing.T, canonical string) string {
	t.Helper()
	if canonical == "" {
		return ""
	}
	u, err := url.Parse(canonical)
	require.NoError(t, err)
	return u.Path
}

// TestRenderingFixturesAsFetched holds the ground truth of the rendering
// fixtures' HTML to what the audit's own parser reads in it.
func TestRenderingFixturesAsFetched(t *testing.T) {
	t.Parallel()
	s := start(t)
	require.Len(t, testsite.RenderTruths(), len(testsite.Rendering))
	for i, truth := range testsite.RenderTruths() {
		require.Equal(t, testsite.Rendering[i], truth.Site)
		raw := fetchPage(t, s, truth.Site)
		d := render.Compare(raw, raw)
		require.Equal(t, truth.RawWords, d.Words.Raw, "%s: words", truth.Site)
		require.Equal(t, truth.RawNavLinks, d.NavLinks.Raw, "%s: nav links", truth.Site)
		require.Equal(t, truth.RawCanonical, path(t, d.Canonical.Raw), "%s: canonical", truth.Site)
		require.Equal(t, truth.RawTypes, d.RawTypes, "%s: JSON-LD types", truth.Site)
	}
	require.Greater(t, testsite.RenderTruthOf(testsite.ClientApp).RenderedWords, 500, "the app renders 500+ words")
	require.Equal(t, testsite.RenderTruthOf(testsite.ClientApp).RenderedWords, testsite.RenderTruthOf(testsite.ServerApp).RawWords,
		"the twin serves the words the app renders")
}

// TestRenderingFixturesInABrowser renders each fixture in a real
// headless Chromium through a client that reaches only the fixtures, and
// holds it to its ground truth: what scripts add, change or take away, and
// whether the page can be rendered at all. No canary is reached.
func TestRenderingFixturesInABrowser(t *testing.T) {
	t.Parallel()
	s := start(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	b, err := render.New(ctx, render.Config{Path: browsertest.Path(t), Client: s.Client(), Tabs: 4, PageTimeout: 8 * time.Second})
	require.NoError(t, err)
	t.Cleanup(func() { _ = b.Close() })

	for _, truth := range testsite.RenderTruths() {
		t.Run(truth.Site, func(t *testing.T) {
			t.Parallel()
			raw := fetchPage(t, s, truth.Site)
			p := b.Render(t.Context(), s.URL(truth.Site))
			if !truth.Renders {
				require.False(t, p.Rendered(), "%s was rendered", truth.Site)
				return
			}
			if !p.Rendered() {
				require.False(t, truth.Settles, "%s: %s", truth.Site, p.Err)
				return
			}
			d, err := render.CompareRendered(raw, p)
			require.NoError(t, err)
			if truth.Settles {
				require.Equal(t, truth.RenderedWords, d.Words.Rendered, "words")
			} else {
				require.GreaterOrEqual(t, d.Words.Rendered, truth.RenderedWords, "words")
			}
			require.Equal(t, truth.RenderedNavLinks, d.NavLinks.Rendered, "nav links")
			require.Equal(t, truth.RenderedCanonical, path(t, d.Canonical.Rendered), "canonical")
			require.Equal(t, truth.RenderedTypes, d.RenderedTypes, "JSON-LD types")
		})
	}
	t.Cleanup(func() {
		require.Zero(t, s.CanaryHits(), "a page reached a canary on %v", s.CanaryAddrs())
	})
}

// TestCanariesCount checks that the canaries count what reaches them, so
// that zero hits means nothing did.
func TestCanariesCount(t *testing.T) {
	t.Parallel()
	s := start(t)
	addrs := s.CanaryAddrs()
	require.Len(t, addrs, 2)
	require.Zero(t, s.CanaryHits())
	var d net.Dialer
	conn, err := d.DialContext(t.Context(), "tcp", addrs[0])
	require.NoError(t, err)
	_, err = io.ReadAll(conn)
	require.NoError(t, err)
	require.NoError(t, conn.Close())
	require.Equal(t, int64(1), s.CanaryHits())
}
