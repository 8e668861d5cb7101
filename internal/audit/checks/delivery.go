package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The delivery pillar: how quickly and lightly do the pages reach a
// crawler? TTFB, HTML weight, compression, render-blocking resources and
// image sizing.
const pillarDelivery = "delivery"

// deliveryChecks returns the pillar's checks in report order.
func deliveryChecks() []*Check {
	return []*Check{
		ttfbCheck(),
		htmlWeightCheck(),
		compressionCheck(),
		renderBlockingHeadCheck(),
		imageDimensionsLCPCheck(),
		cruxFieldVitalsCheck(),
	}
}

func ttfbCheck() *Check {
	return &Check{
		ID: "ttfb", Ring: scoring.RingSearch, Pillar: pillarDelivery, Weight: 3, Effort: High,
		Marketing: Text{
			Title: "Server responds quickly",
			Why:   "Slow servers get crawled less often, and AI assistants that fetch pages live may give up, leaving your content out of the answer.",
			Fix:   "Ask your host or developers to add caching or a CDN so that the first response arrives in well under a second.",
		},
		Engineering: Text{
			Title: "Median TTFB ≤ 800 ms",
			Why:   "web.dev rates TTFB up to 0.8 s good and above 1.8 s poor; crawlers adapt their crawl rate to server response time, and live fetchers (ChatGPT-User, Perplexity-User) work with tight timeouts.",
			Fix:   "Cache HTML at the edge (CDN full-page cache, `Cache-Control: s-maxage`), enable server-side page caching, reduce backend work on the homepage, and use HTTP/2 or HTTP/3 with TLS session resumption.",
		},
		Eval: evalTTFB,
	}
}

// TTFB thresholds of web.dev: good up to 800 ms, poor above 1800 ms.
const (
	ttfbGoodMs = 800
	ttfbPoorMs = 1800
)

func evalTTFB(in *Input) Result {
	var ms []int64
	for _, d := range siteOf(in).TTFBSamples {
		if d > 0 {
			ms = append(ms, d.Milliseconds())
		}
	}
	if len(ms) == 0 {
		return na("No time-to-first-byte sample was recorded.", ev())
	}
	sorted := append([]int64(nil), ms...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	median := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	e := ev("samples_ms", ms, "median_ms", median, "good_ms", ttfbGoodMs, "poor_ms", ttfbPoorMs)
	summary := fmt.Sprintf("The median time to first byte of %s is %d ms", plural(len(ms), "request", "requests"), median)
	switch {
	case median <= ttfbGoodMs:
		return pass(summary+fmt.Sprintf(" (good is up to %d ms).", ttfbGoodMs), e)
	case median <= ttfbPoorMs:
		return warn(summary+fmt.Sprintf(", above the %d ms that counts as good.", ttfbGoodMs), e)
	}
	return fail(summary+fmt.Sprintf(", above the %d ms that counts as poor.", ttfbPoorMs), e)
}

func htmlWeightCheck() *Check {
	return &Check{
		ID: "html_weight", Ring: scoring.RingSearch, Pillar: pillarDelivery, Weight: 2, Effort: Medium,
		Marketing: Text{
			Title: "Page size is reasonable",
			Why:   "Very heavy pages take longer to fetch, and some AI crawlers stop reading after a limit, so content near the end may be missed.",
			Fix:   "Ask your developers to trim inline code and embedded data from the page so the HTML stays under about half a megabyte.",
		},
		Engineering: Text{
			Title: "Decompressed HTML under 500 KiB",
			Why:   "Googlebot reads only the first 15 MB of an HTML file and other crawlers cap lower; large inline JSON (hydration state), SVG and CSS push the text late into the document and slow parsing.",
			Fix:   "Move inline scripts and styles into cached files, trim hydration payloads (`__NEXT_DATA__` and similar), lazy-load markup below the fold and paginate long lists.",
		},
		Eval: evalHTMLWeight,
	}
}

// HTML weight thresholds in decompressed bytes.
const (
	htmlWeightGood = 500 << 10
	htmlWeightPoor = 2 << 20
)

func evalHTMLWeight(in *Input) Result {
	h := siteOf(in).Home
	if h == nil || (h.Err != nil && !h.Truncated) {
		return na("The homepage body was not read, so its size is unknown.", ev())
	}
	kib := h.Bytes >> 10
	e := ev("bytes", h.Bytes, "kib", kib, "truncated", h.Truncated, "content_encoding", h.ContentEncoding)
	size := fmt.Sprintf("%d KiB", kib)
	if h.Bytes < 10<<10 {
		size = byteCount(h.Bytes)
	}
	switch {
	case h.Truncated:
		return fail(fmt.Sprintf("The homepage HTML exceeds the %s GeoScan reads after decompression.", size), e)
	case h.Bytes < htmlWeightGood:
		return pass(fmt.Sprintf("The homepage HTML is %s after decompression (under 500 KiB).", size), e)
	case h.Bytes < htmlWeightPoor:
		return warn(fmt.Sprintf("The homepage HTML is %s after decompression, over the 500 KiB that keeps fetching light.", size), e)
	}
	return fail(fmt.Sprintf("The homepage HTML is %s after decompression, over 2 MiB.", size), e)
}

func compressionCheck() *Check {
	return &Check{
		ID: "compression", Ring: scoring.RingSearch, Pillar: pillarDelivery, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Pages are compressed",
			Why:   "Compressed pages download several times faster, so crawlers fetch more of your site in the same time.",
			Fix:   "Turn on gzip or Brotli compression at your host or CDN; it is usually a single setting.",
		},
		Engineering: Text{
			Title: "Content-Encoding br, gzip or zstd",
			Why:   "GeoScan sends `Accept-Encoding: gzip, br, zstd`, as crawlers do; uncompressed HTML costs several times the bytes and transfer time on every crawler fetch.",
			Fix:   "Enable Brotli or gzip for `text/html` (and CSS, JavaScript, XML, text/plain) at the origin or CDN and send `Vary: Accept-Encoding`.",
		},
		Eval: evalCompression,
	}
}

// compressionMinBytes is the size below which servers commonly skip
// compression on purpose: the body fits in about one TCP packet.
const compressionMinBytes = 1400

func evalCompression(in *Input) Result {
	h := siteOf(in).Home
	if fetchFailed(h) || h.Status == 0 {
		return na("The homepage was not fetched, so its compression is unknown.", ev())
	}
	enc := strings.ToLower(strings.TrimSpace(h.ContentEncoding))
	e := ev("content_encoding", enc, "bytes", h.Bytes, "vary", h.Header.Get("Vary"))
	switch enc {
	case "br", "gzip", "x-gzip", "zstd":
		return pass(fmt.Sprintf("The homepage is sent with Content-Encoding %s (%s decompressed).", enc, byteCount(h.Bytes)), e)
	case "deflate":
		return warn("The homepage is sent with Content-Encoding deflate; br, gzip or zstd are better supported.", e)
	}
	if h.Bytes == 0 {
		return na("The homepage is empty, so compression does not matter.", e)
	}
	if h.Bytes < compressionMinBytes {
		return na(fmt.Sprintf("The homepage is only %s, too small for compression to matter.", byteCount(h.Bytes)), e)
	}
	return fail(fmt.Sprintf("The homepage's %d bytes of HTML are sent uncompressed although the request accepted br, gzip and zstd.", h.Bytes), e)
}

func renderBlockingHeadCheck() *Check {
	return &Check{
		ID: "render_blocking_head", Ring: scoring.RingSearch, Pillar: pillarDelivery, Weight: 1, Effort: Medium,
		Marketing: Text{
			Title: "Page starts showing quickly",
			Why:   "Scripts and style files that must load before anything appears slow the page down for people who click through from an AI answer, and page experience feeds search quality signals.",
			Fix:   "Ask your developers to load non-essential scripts later and combine style files.",
		},
		Engineering: Text{
			Title: "At most 3 render-blocking resources in <head>",
			Why:   "Every synchronous `<script src>` and blocking stylesheet in `<head>` delays first render (Lighthouse's render-blocking audit); it affects Core Web Vitals rather than crawler access, hence the low weight.",
			Fix:   "Add `defer` or `async` (or `type=module`) to head scripts, inline critical CSS and load the rest without blocking, and drop unused third-party tags.",
		},
		Eval: evalRenderBlockingHead,
	}
}

func evalRenderBlockingHead(in *Input) Result {
	p := in.Home
	if p == nil {
		return na("The homepage is not HTML, so its <head> could not be read.", ev())
	}
	var scripts []string
	for _, s := range p.Scripts {
		if !s.InHead || s.Src == "" || s.Async || s.Defer {
			continue
		}
		if s.Type != "" && !strings.Contains(s.Type, "javascript") && s.Type != "module" {
			continue
		}
		scripts = append(scripts, s.Src)
	}
	total := len(scripts) + p.HeadCSS
	e := ev("blocking_scripts", nonNil(scripts), "blocking_stylesheets", p.HeadCSS, "total", total)
	summary := fmt.Sprintf("The homepage <head> has %s and %s that block rendering",
		plural(len(scripts), "synchronous script", "synchronous scripts"), plural(p.HeadCSS, "stylesheet", "stylesheets"))
	switch {
	case total <= 3:
		return pass(summary+".", e)
	case total <= 8:
		return warn(summary+fmt.Sprintf(" (%d in total; 3 or fewer is the target).", total), e)
	}
	return fail(summary+fmt.Sprintf(" (%d in total, more than 8).", total), e)
}

func imageDimensionsLCPCheck() *Check {
	return &Check{
		ID: "image_dimensions_lcp", Ring: scoring.RingSearch, Pillar: pillarDelivery, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "Images are sized and load promptly",
			Why:   "Images without set sizes make the page jump while loading, and a delayed main image appears late; both spoil the first impression for visitors who arrive from AI answers.",
			Fix:   "Have your developers give images a width and height and load the first large image right away.",
		},
		Engineering: Text{
			Title: "img width/height set; first image not lazy",
			Why:   "Missing `width`/`height` causes layout shift (CLS), and `loading=lazy` on the likely LCP image delays LCP; both are static-HTML proxies for field Core Web Vitals.",
			Fix:   "Add intrinsic `width` and `height` attributes (or CSS aspect-ratio) to every `<img>`, remove `loading=\"lazy\"` from the first or hero image and consider `fetchpriority=\"high\"` on it.",
		},
		Eval: evalImageDimensionsLCP,
	}
}

func evalImageDimensionsLCP(in *Input) Result {
	p := in.Home
	if p == nil {
		return na("The homepage is not HTML, so its images could not be read.", ev())
	}
	if len(p.Images) == 0 {
		return na("The homepage HTML has no <img> elements, so the check does not apply.", ev("images", 0))
	}
	sized := 0
	for _, img := range p.Images {
		if strings.TrimSpace(img.Width) != "" && strings.TrimSpace(img.Height) != "" {
			sized++
		}
	}
	first := p.Images[0]
	pct := percent(sized, len(p.Images))
	e := ev("images", len(p.Images), "with_dimensions", sized, "with_dimensions_pct", pct, "first_image", first.Src, "first_lazy", first.Lazy)
	var problems []string
	if pct < 80 {
		problems = append(problems, fmt.Sprintf("%s (%.0f%%) %s width and height", fewOf(sized, len(p.Images), "image", "images"), pct, map[bool]string{true: "declares", false: "declare"}[len(p.Images) == 1]))
	}
	if first.Lazy {
		problems = append(problems, "the first image is lazy-loaded")
	}
	if len(problems) > 0 {
		return warn("On the homepage "+strings.Join(problems, " and ")+".", e)
	}
	return pass(fmt.Sprintf("%s (%.0f%%) %s width and height, and the first image loads eagerly.", ofTotal(sized, len(p.Images), "homepage image", "homepage images"), pct, map[bool]string{true: "declares", false: "declare"}[len(p.Images) == 1]), e)
}

func cruxFieldVitalsCheck() *Check {
	return &Check{
		ID: "crux_field_vitals", Ring: scoring.RingSearch, Pillar: pillarDelivery, Weight: 3, Effort: High,
		Marketing: Text{
			Title: "Real-visitor speed (Core Web Vitals)",
			Why:   "How fast and stable your pages feel to real visitors is part of Google's page-experience signals, which also shape the pages AI Overviews draw on.",
			Fix:   "Once field data is available, start with the metric rated poor, usually the loading of the main image or slow scripts.",
		},
		Engineering: Text{
			Title: "CrUX p75 LCP, INP and CLS",
			Why:   "Chrome UX Report p75 field data rates LCP ≤2.5 s, INP ≤200 ms and CLS ≤0.1 as good; origin data needs a CrUX API key and enough Chrome traffic.",
			Fix:   "Query the CrUX API or PageSpeed Insights for the origin; improve LCP through server caching and hero-image priority, INP by breaking up long tasks, CLS by reserving space for images and embeds.",
		},
		Eval: evalCruxFieldVitals,
	}
}

func evalCruxFieldVitals(*Input) Result {
	return na("Not measured: real-visitor speed data needs a Chrome UX Report (CrUX) API key, which this GeoScan server does not have; not scored.", ev("reason", "no_crux_api_key"))
}
