package checks

import (
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestSiteSecurity covers the site_security pillar.
func TestSiteSecurity(t *testing.T) {
	t.Parallel()
	withTLS := func(version string, days int) func(t *testing.T) *Input {
		return func(t *testing.T) *Input {
			s := site(t, fixtureYoastHome())
			s.Home.TLS = &fetch.TLSInfo{Version: version, Issuer: "R11", NotAfter: testNow.Add(time.Duration(days) * 24 * time.Hour)}
			return input(s)
		}
	}
	withHeaders := func(headers ...string) func(t *testing.T) *Input {
		return func(t *testing.T) *Input {
			return inputOf(t, "", resp(fetch.Homepage, testOrigin, 200, fixtureYoastHome(), headers...))
		}
	}
	legal := func(p fetch.Purpose, u string, status int) *fetch.Response {
		return resp(p, u, status, simplePage("Legal", "<p>Legal text.</p>"))
	}
	testPillar(t, pillarSiteSecurity, []pillarCheck{
		{id: "tls_valid", cases: []checkCase{
			{"modern and valid", withTLS("TLS 1.3", 80), Pass, "valid for 80 more days", ev("issuer", "R11")},
			{"expiring soon", withTLS("TLS 1.2", 10), Warn, "expires in 10 days", nil},
			{"expired", withTLS("TLS 1.3", -2), Fail, "expired", nil},
			{"old protocol", withTLS("TLS 1.0", 80), Fail, "TLS 1.2 or newer", nil},
			{"no tls details", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, NA, "No TLS", nil},
		}},
		{id: "hsts", cases: []checkCase{
			{"one year", withHeaders("Strict-Transport-Security", "max-age=31536000; includeSubDomains"), Pass, "365 days", ev("include_subdomains", true)},
			{"one day", withHeaders("Strict-Transport-Security", "max-age=86400"), Warn, "below 180 days", ev("max_age", 86400)},
			{"disabled", withHeaders("Strict-Transport-Security", "max-age=0"), Fail, "disables", nil},
			{"absent", withHeaders(), Fail, "no Strict-Transport-Security", nil},
			{"no headers", func(t *testing.T) *Input {
				in := inputOf(t, fixtureYoastHome())
				in.Site.Home.Header = nil
				return in
			}, NA, "", nil},
		}},
		{id: "security_headers", cases: []checkCase{
			{"all four", withHeaders("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'", "X-Content-Type-Options", "nosniff",
				"Referrer-Policy", "strict-origin-when-cross-origin"), Pass, "all four", nil},
			{"two", withHeaders("X-Content-Type-Options", "nosniff", "X-Frame-Options", "DENY"), Warn, "2 of 4", ev("missing", []string{"Content-Security-Policy", "Referrer-Policy"})},
			{"none", withHeaders(), Fail, "0 of 4", nil},
			{"no homepage response", func(t *testing.T) *Input { return &Input{Site: &fetch.Site{}, Now: testNow} }, NA, "", nil},
		}},
		{id: "mixed_content", never: []Status{Warn}, cases: []checkCase{
			{"clean", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "on the https page", nil},
			{"http image and script", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", `<img src="http://cdn.example.net/a.png"><script src="http://cdn.example.net/a.js"></script><a href="http://other.example/">link is fine</a>`))
			}, Fail, "2 subresources", ev("insecure_count", 2)},
			{"plain http site", func(t *testing.T) *Input {
				in := inputOf(t, fixtureYoastHome())
				in.Site.Home.FinalURL = "http://example.com/"
				return in
			}, NA, "plain HTTP", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "legal_pages", cases: []checkCase{
			{"both", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), legal(fetch.Privacy, "https://example.com/privacy/", 200), legal(fetch.Terms, "https://example.com/terms/", 200))
			}, Pass, "both answer 200", nil},
			{"privacy only", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), legal(fetch.Privacy, "https://example.com/privacy/", 200), legal(fetch.Terms, "https://example.com/terms/", 404))
			}, Warn, "no terms", nil},
			{"neither", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Fail, "Neither", ev("pages", []map[string]any{{"found": false, "page": "privacy"}, {"found": false, "page": "terms"}})},
			{"nothing fetched", noHomeInput, NA, "", nil},
		}},
	})
}
