package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestDelivery covers the delivery pillar.
func TestDelivery(t *testing.T) {
	t.Parallel()

	testPillar(t, pillarDelivery, []pillarCheck{
		{id: "ttfb", cases: []checkCase{
			{"fast", withSite(""), Pass, "40 ms", ev("median_ms", 40)},
			{"medium", withEdit("", func(s *fetch.Site) {
				s.TTFBSamples = []time.Duration{900 * time.Millisecond, 1200 * time.Millisecond, 5 * time.Second}
			}), Warn, "1200 ms", ev("samples_ms", "[900 1200 5000]")},
			{"even count", withEdit("", func(s *fetch.Site) {
				s.TTFBSamples = []time.Duration{2 * time.Second, 3 * time.Second}
			}), Fail, "2500 ms", ev("median_ms", 2500)},
			{"no samples", withEdit("", func(s *fetch.Site) { s.TTFBSamples = nil }), NA, "No time-to-first-byte", nil},
		}},
		{id: "html_weight", cases: []checkCase{
			{"small", withSite(htmlPage("", "hi")), Pass, "86 bytes", ev("kib", 0)},
			{"heavy", withEdit("", func(s *fetch.Site) { s.Home.Bytes = 600 << 10 }), Warn, "600 KiB", ev("kib", 600)},
			{"huge", withEdit("", func(s *fetch.Site) { s.Home.Bytes = 3 << 20 }), Fail, "over 2 MiB", nil},
			{"truncated", withEdit("", func(s *fetch.Site) {
				s.Home.Bytes, s.Home.Truncated, s.Home.Err = 5<<20, true, fetch.ErrTooLarge
			}), Fail, "exceeds", ev("truncated", true)},
			{"not fetched", withEdit("", func(s *fetch.Site) { s.Home = nil }), NA, "not read", nil},
		}},
		{id: "compression", cases: []checkCase{
			{"br", withEdit(htmlPage("", strings.Repeat("<p>word</p>", 300)), func(s *fetch.Site) { s.Home.ContentEncoding = "br" }), Pass, "Content-Encoding br", ev("content_encoding", "br")},
			{"deflate", withEdit(htmlPage("", strings.Repeat("<p>word</p>", 300)), func(s *fetch.Site) { s.Home.ContentEncoding = "deflate" }), Warn, "deflate", nil},
			{"none", withSite(htmlPage("", strings.Repeat("<p>word</p>", 300))), Fail, "uncompressed", ev("content_encoding", "")},
			{"tiny", withSite(htmlPage("", "hi")), NA, "too small", nil},
			{"not fetched", withEdit("", func(s *fetch.Site) { s.Home = nil }), NA, "not fetched", nil},
		}},
		{id: "render_blocking_head", cases: []checkCase{
			{"deferred", withSite(htmlPage(`<script src="/a.js" defer></script><script src="/b.js" async></script><script type="module" src="/c.js"></script><link rel="stylesheet" href="/s.css">`, "hi")), Pass, "no synchronous scripts and 1 stylesheet", ev("total", 1)},
			{"five", withSite(htmlPage(`<script src="/a.js"></script><script src="/b.js"></script><script src="/c.js"></script><link rel="stylesheet" href="/1.css"><link rel="stylesheet" href="/2.css">`, "hi")), Warn, "5 in total", ev("blocking_stylesheets", 2)},
			{"ten", withSite(htmlPage(strings.Repeat(`<script src="/a.js"></script>`, 6)+strings.Repeat(`<link rel="stylesheet" href="/s.css">`, 4), "hi")), Fail, "10 in total", nil},
			{"not html", withEdit("", func(s *fetch.Site) { s.HomePage = nil }), NA, "not HTML", nil},
		}},
		{id: "image_dimensions_lcp", never: []Status{Fail}, cases: []checkCase{
			{"sized", withSite(htmlPage("", `<img src="/hero.jpg" width="800" height="400"><img src="/b.jpg" width="10" height="10" loading="lazy">`)), Pass, "2 of 2", ev("with_dimensions", 2)},
			{"unsized", withSite(htmlPage("", `<img src="/hero.jpg"><img src="/b.jpg" width="10" height="10">`)), Warn, "only 1 of 2 images", ev("with_dimensions_pct", 50)},
			{"first lazy", withSite(htmlPage("", `<img src="/hero.jpg" width="800" height="400" loading="lazy">`)), Warn, "first image is lazy-loaded", ev("first_lazy", true)},
			{"no images", withSite(htmlPage("", "hi")), NA, "no <img>", nil},
		}},
		{id: "crux_field_vitals", never: []Status{Pass, Warn, Fail}, cases: []checkCase{
			{"always na", withSite(""), NA, "Not measured: real-visitor speed data needs a Chrome UX Report (CrUX) API key, which this GeoScan server does not have; not scored.", ev("reason", "no_crux_api_key")},
		}},
	})
}
