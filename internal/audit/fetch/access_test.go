package fetch

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// edgeSite serves a small site and refuses the requests refuse picks,
// the way a WAF answers: 403 (or 503) with a challenge page.
func edgeSite(t *testing.T, status int, refuse func(ua string) bool) (*Site, error) {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if refuse(r.UserAgent()) {
			w.Header().Set("Cf-Mitigated", "challenge")
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`<html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=1"></script></body></html>`))
			return
		}
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<html><head><title>Harbour Dental</title></head><body><main><h1>Harbour Dental</h1><p>Family dentistry in Leith since 1994.</p><a href="/about/">About</a></main></body></html>`))
		case "/about/":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<html><body><h1>About</h1></body></html>`))
		case "/robots.txt":
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
		default:
			http.NotFound(w, r)
		}
	})
	f, base := testFetcher(t, h, Options{UserAgent: "Mozilla/5.0 (compatible; GeoScan/1.0; +https://geoscan.test/bot)"})
	target, err := url.Parse(base + "/")
	require.NoError(t, err)
	return f.Site(context.Background(), target)
}

func geoscanUA(ua string) bool { return strings.Contains(ua, "GeoScan") }

func summary(site *Site) map[string]string {
	out := map[string]string{}
	for _, a := range site.HomeAccess() {
		k := a.Requester
		if a.Retry {
			k += " (retry)"
		}
		v := "served"
		if a.Refused() {
			v = "refused"
		}
		out[k] = v
	}
	return out
}

func TestAuditorRefusedButBrowsersServed(t *testing.T) {
	t.Parallel()
	site, err := edgeSite(t, http.StatusForbidden, geoscanUA)
	require.NoError(t, err)
	require.True(t, site.AuditorRefused())
	require.Equal(t, "Browser", site.AuditedAs)
	require.Equal(t, 403, site.AuditorHome.Status)
	require.Equal(t, "cf-mitigated: challenge", Refusal(site.AuditorHome))
	require.Same(t, site.BrowserHome, site.Home)
	require.Equal(t, 200, site.Home.Status)
	require.Equal(t, "Browser", site.Home.Agent, "the page read is marked as a browser's")
	require.NotNil(t, site.HomePage)
	require.Equal(t, "Harbour Dental", site.HomePage.Title)

	want := map[string]string{AuditorToken: "refused", "Browser (retry)": "served", "Browser": "served"}
	for _, b := range ProbeBots[1:] {
		want[b.Token] = "served"
	}
	require.Equal(t, want, summary(site))
	// Everything after the refusal was asked for as the browser, and says so.
	require.Equal(t, 200, site.Robots.Status)
	require.Equal(t, "Browser", site.Robots.Agent)
	require.Len(t, site.PagesFor(About), 1)
	require.Equal(t, 200, site.PagesFor(About)[0].Status)
	require.Equal(t, "Browser", site.PagesFor(About)[0].Agent)

	// The evidence survives a snapshot.
	snap, err := Snapshot(site)
	require.NoError(t, err)
	back, err := Restore(snap)
	require.NoError(t, err)
	require.Equal(t, summary(site), summary(back))
	require.True(t, back.AuditorRefused())
	require.Equal(t, "Browser", back.AuditedAs)
}

func TestAChallengeWith503IsARefusalNotAnOutage(t *testing.T) {
	t.Parallel()
	site, err := edgeSite(t, http.StatusServiceUnavailable, geoscanUA)
	require.NoError(t, err, "the browser was served, so the site can be audited")
	require.True(t, site.AuditorRefused())
	require.Equal(t, 503, site.AuditorHome.Status)
	require.Equal(t, 200, site.Home.Status)
}

func TestEveryoneRefused(t *testing.T) {
	t.Parallel()
	site, err := edgeSite(t, http.StatusForbidden, func(string) bool { return true })
	require.NoError(t, err)
	require.True(t, site.AuditorRefused())
	require.Empty(t, site.AuditedAs, "nobody was served, so nothing replaces GeoScan's answer")
	require.Nil(t, site.AuditorHome)
	require.Equal(t, 403, site.Home.Status)
	require.Equal(t, 403, site.BrowserHome.Status)
	for who, v := range summary(site) {
		require.Equal(t, "refused", v, who)
	}
	require.Empty(t, site.Robots.Agent, "GeoScan kept its own user agent")
}

func TestOnlyTheAICrawlersRefused(t *testing.T) {
	t.Parallel()
	site, err := edgeSite(t, http.StatusForbidden, func(ua string) bool { return strings.Contains(ua, "GPTBot") || strings.Contains(ua, "OAI-SearchBot") })
	require.NoError(t, err)
	require.False(t, site.AuditorRefused())
	require.Nil(t, site.BrowserHome, "no retry when GeoScan was served")
	got := summary(site)
	require.Equal(t, "served", got[AuditorToken])
	require.Equal(t, "served", got["Browser"])
	require.Equal(t, "refused", got["GPTBot"])
	require.Equal(t, "refused", got["OAI-SearchBot"])
	require.Equal(t, "served", got["PerplexityBot"])
}

func TestRefusal(t *testing.T) {
	page := func(status int, body string, h ...string) *Response {
		hdr := http.Header{}
		for i := 0; i+1 < len(h); i += 2 {
			hdr.Set(h[i], h[i+1])
		}
		return &Response{Status: status, Header: hdr, Body: []byte(body)}
	}
	cases := []struct {
		name string
		r    *Response
		want string
	}{
		{"served", page(200, "<html><body>Welcome</body></html>"), ""},
		{"an app's loading text is no challenge", page(200, `<div id="root">Just a moment...</div>`), ""},
		{"a captcha form on a served page", page(200, `<form><div class="px-captcha-hint"></div></form>`), ""},
		{"forbidden", page(403, "Forbidden"), "HTTP 403"},
		{"rate limited", page(429, ""), "HTTP 429"},
		{"a failing server is not refusing", page(503, "Service Unavailable"), ""},
		{"cloudflare challenge header", page(200, "", "Cf-Mitigated", "challenge"), "cf-mitigated: challenge"},
		{"old cloudflare challenge", page(503, "<title>Just a moment...</title>"), "challenge page (Just a moment)"},
		{"challenge script at 200", page(200, `<script>window._cf_chl_opt={}</script>`), "challenge page (_cf_chl)"},
		{"imperva", page(200, `<iframe>Request unsuccessful. Incapsula incident ID: 1234</iframe>`), "challenge page (Incapsula incident)"},
		{"failed request", &Response{Err: context.DeadlineExceeded}, ""},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Refusal(c.r), c.name)
	}
}
