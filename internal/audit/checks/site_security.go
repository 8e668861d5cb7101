package checks

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// The site_security pillar: the basic security and legal signals a
// trustworthy business site shows. TLS validity, HSTS, security headers,
// mixed content, privacy and terms pages.
const pillarSiteSecurity = "site_security"

// siteSecurityChecks returns the pillar's checks in report order.
func siteSecurityChecks() []*Check {
	return []*Check{
		tlsValidCheck(),
		hstsCheck(),
		securityHeadersCheck(),
		mixedContentCheck(),
		legalPagesCheck(),
	}
}

func tlsValidCheck() *Check {
	return &Check{
		ID: "tls_valid", Ring: scoring.RingTrust, Pillar: pillarSiteSecurity, Weight: 3, Effort: Low,
		Marketing: Text{
			Title: "Secure connection",
			Why:   "Engines and browsers will not send people to a site with a broken or outdated security certificate.",
			Fix:   "Ask your hosting provider to renew the certificate automatically and to use modern encryption settings.",
		},
		Engineering: Text{
			Title: "TLS version and certificate validity",
			Why:   "A verified chain, TLS 1.2 or newer and a certificate that does not expire within 14 days keep crawlers and users from hitting handshake errors.",
			Fix:   "Enable automatic renewal (ACME), disable TLS 1.0/1.1, and monitor certificate expiry with at least 14 days of margin.",
		},
		Eval: evalTLSValid,
	}
}

func evalTLSValid(in *Input) Result {
	if in.Site == nil || in.Site.Home == nil || in.Site.Home.TLS == nil {
		return na("No TLS connection details were recorded for the homepage (it may have been served over plain HTTP).", ev())
	}
	t := in.Site.Home.TLS
	days := int(t.NotAfter.Sub(in.Now).Hours() / 24)
	versionOK := tlsAtLeast12(t.Version)
	e := ev("version", t.Version, "issuer", t.Issuer, "not_after", t.NotAfter.UTC().Format(time.RFC3339), "days_left", days)
	switch {
	case !t.NotAfter.After(in.Now):
		return fail(fmt.Sprintf("The certificate issued by %s expired on %s.", t.Issuer, t.NotAfter.UTC().Format("2006-01-02")), e)
	case !versionOK:
		return fail(fmt.Sprintf("The homepage was served over %s; TLS 1.2 or newer is expected.", t.Version), e)
	case days == 0:
		return warn(fmt.Sprintf("The certificate issued by %s expires within a day (%s).", t.Issuer, t.NotAfter.UTC().Format("2006-01-02")), e)
	case days <= 14:
		return warn(fmt.Sprintf("The certificate issued by %s expires in %s (%s).", t.Issuer, plural(days, "day", "days"), t.NotAfter.UTC().Format("2006-01-02")), e)
	}
	return pass(fmt.Sprintf("%s with a certificate from %s valid for %d more days.", t.Version, t.Issuer, days), e)
}

// tlsAtLeast12 reads crypto/tls version names ("TLS 1.3").
func tlsAtLeast12(v string) bool {
	num, ok := strings.CutPrefix(strings.TrimSpace(v), "TLS ")
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f >= 1.2
}

func hstsCheck() *Check {
	return &Check{
		ID: "hsts", Ring: scoring.RingTrust, Pillar: pillarSiteSecurity, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "Always-secure connection",
			Why:   "Telling browsers to always use the secure version of your site protects visitors and is a basic trust signal.",
			Fix:   "Ask your hosting or CDN provider to enable HSTS with a duration of at least six months.",
		},
		Engineering: Text{
			Title: "Strict-Transport-Security",
			Why:   "HSTS with max-age ≥ 15552000 (180 days) prevents protocol downgrade and is checked by security-aware trust signals.",
			Fix:   "Send Strict-Transport-Security: max-age=31536000; includeSubDomains on all HTTPS responses (add preload once every subdomain is HTTPS).",
		},
		Eval: evalHSTS,
	}
}

func servedOverHTTPS(in *Input) bool {
	if in.Site == nil || in.Site.Home == nil {
		return false
	}
	u, err := url.Parse(in.Site.Home.FinalURL)
	return err == nil && u.Scheme == "https"
}

var maxAgeRE = regexp.MustCompile(`(?i)max-age\s*=\s*"?(\d+)`)

func evalHSTS(in *Input) Result {
	if in.Site == nil || in.Site.Home == nil || in.Site.Home.Header == nil {
		return na("The homepage response has no headers to inspect.", ev())
	}
	if !servedOverHTTPS(in) {
		return fail("The homepage is served over plain HTTP, where Strict-Transport-Security has no effect.", ev("final_url", in.Site.Home.FinalURL))
	}
	hdr := in.Site.Home.Header.Get("Strict-Transport-Security")
	e := ev("header", hdr)
	if hdr == "" {
		return fail("The homepage sends no Strict-Transport-Security header.", e)
	}
	maxAge := int64(0)
	if m := maxAgeRE.FindStringSubmatch(hdr); m != nil {
		maxAge, _ = strconv.ParseInt(m[1], 10, 64)
	}
	lower := strings.ToLower(hdr)
	e["max_age"] = maxAge
	e["include_subdomains"] = strings.Contains(lower, "includesubdomains")
	e["preload"] = strings.Contains(lower, "preload")
	switch {
	case maxAge >= 15552000:
		return pass(fmt.Sprintf("Strict-Transport-Security is set with max-age=%d (%d days).", maxAge, maxAge/86400), e)
	case maxAge > 0:
		days := "under a day"
		if maxAge >= 86400 {
			days = plural(int(maxAge/86400), "day", "days")
		}
		return warn(fmt.Sprintf("Strict-Transport-Security max-age=%d (%s) is below 180 days.", maxAge, days), e)
	}
	return fail("Strict-Transport-Security is sent with max-age=0 or none, which disables it.", e)
}

func securityHeadersCheck() *Check {
	return &Check{
		ID: "security_headers", Ring: scoring.RingTrust, Pillar: pillarSiteSecurity, Weight: 1, Effort: Medium,
		Marketing: Text{
			Title: "Standard security protections",
			Why:   "Standard browser protections show the site is professionally maintained and protect visitors who arrive from AI answers.",
			Fix:   "Ask your web team or hosting provider to turn on the standard security headers.",
		},
		Engineering: Text{
			Title: "Security response headers",
			Why:   "Content-Security-Policy, X-Content-Type-Options, frame-ancestors/X-Frame-Options and Referrer-Policy are the baseline hardening headers site-quality assessments look for.",
			Fix:   "Send Content-Security-Policy (with frame-ancestors), X-Content-Type-Options: nosniff, X-Frame-Options: SAMEORIGIN and Referrer-Policy: strict-origin-when-cross-origin.",
		},
		Eval: evalSecurityHeaders,
	}
}

func evalSecurityHeaders(in *Input) Result {
	if in.Site == nil || in.Site.Home == nil || in.Site.Home.Header == nil {
		return na("The homepage response has no headers to inspect.", ev())
	}
	h := in.Site.Home.Header
	csp := h.Get("Content-Security-Policy")
	metaCSP, metaReferrer := "", ""
	if in.Home != nil {
		metaCSP, metaReferrer = in.Home.MetaContent("content-security-policy"), in.Home.MetaContent("referrer")
	}
	present := map[string]bool{
		"Content-Security-Policy": csp != "" || metaCSP != "",
		"X-Content-Type-Options":  strings.EqualFold(strings.TrimSpace(h.Get("X-Content-Type-Options")), "nosniff"),
		// frame-ancestors only works in the header, never in a meta CSP.
		"frame-ancestors or X-Frame-Options": strings.Contains(strings.ToLower(csp), "frame-ancestors") || h.Get("X-Frame-Options") != "",
		"Referrer-Policy":                    h.Get("Referrer-Policy") != "" || metaReferrer != "",
	}
	var have, missing []string
	for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "frame-ancestors or X-Frame-Options", "Referrer-Policy"} {
		if present[k] {
			have = append(have, k)
		} else {
			missing = append(missing, k)
		}
	}
	e := ev("present", nonNil(have), "missing", nonNil(missing), "content_security_policy", excerpt(csp, 200),
		"x_frame_options", h.Get("X-Frame-Options"), "referrer_policy", h.Get("Referrer-Policy"))
	switch {
	case len(have) == 4:
		return pass("The homepage sends all four baseline security headers.", e)
	case len(have) >= 2:
		return warn(fmt.Sprintf("The homepage sends %d of 4 baseline security headers; missing: %s.", len(have), strings.Join(missing, ", ")), e)
	}
	return fail(fmt.Sprintf("The homepage sends %d of 4 baseline security headers; missing: %s.", len(have), strings.Join(missing, ", ")), e)
}

func mixedContentCheck() *Check {
	return &Check{
		ID: "mixed_content", Ring: scoring.RingTrust, Pillar: pillarSiteSecurity, Weight: 1, Effort: Low,
		Marketing: Text{
			Title: "No insecure page elements",
			Why:   "Images or scripts loaded over an insecure connection break the padlock and may not load at all.",
			Fix:   "Replace http:// addresses of images, scripts and embeds with their https:// versions in your content and theme.",
		},
		Engineering: Text{
			Title: "Mixed content",
			Why:   "http:// subresources on an https page are blocked (active content) or flagged (passive content) by browsers and degrade security signals.",
			Fix:   "Rewrite http:// src/href/srcset of scripts, stylesheets, images and iframes to https:// (or protocol-relative to the same host); add Content-Security-Policy: upgrade-insecure-requests as a safety net.",
		},
		Eval: evalMixedContent,
	}
}

func evalMixedContent(in *Input) Result {
	if in.Home == nil {
		return na(naNoHome, ev())
	}
	if !servedOverHTTPS(in) {
		return na("The homepage is served over plain HTTP, so mixed content does not apply (the HTTPS checks cover it).", ev())
	}
	var rows []map[string]any
	total := 0
	pages := 0
	for _, p := range everyPage(in) {
		if p.URL == nil || p.URL.Scheme != "https" {
			continue
		}
		pages++
		insecure := p.InsecureSubresources()
		if len(insecure) > 0 {
			total += len(insecure)
			rows = append(rows, map[string]any{"url": addressOf(p), "insecure": firstN(insecure, 10), "count": len(insecure)})
		}
	}
	e := ev("pages_checked", pages, "insecure_count", total, "pages", nonNilRows(rows))
	if total == 0 {
		return pass(fmt.Sprintf("No script, stylesheet, image or frame loads over http:// on %s.", theN(pages, "https page", "https pages")), e)
	}
	return fail(fmt.Sprintf("%s over http:// on %s, e.g. %s.", plural(total, "subresource loads", "subresources load"), plural(len(rows), "page", "pages"), rows[0]["insecure"].([]string)[0]), e)
}

func legalPagesCheck() *Check {
	return &Check{
		ID: "legal_pages", Ring: scoring.RingTrust, Pillar: pillarSiteSecurity, Weight: 2, Effort: Low,
		Marketing: Text{
			Title: "Privacy policy and terms",
			Why:   "A privacy policy and terms of use are expected of any legitimate business and count towards how trustworthy a site looks.",
			Fix:   "Publish a privacy policy and terms (or legal notice) page and link both from the footer.",
		},
		Engineering: Text{
			Title: "Privacy and terms pages reachable",
			Why:   "Linked privacy and terms/imprint pages answering 200 are basic trust signals that quality raters and engines check.",
			Fix:   "Serve /privacy and /terms (or /legal, /imprint) with 200 and link them from the footer with crawlable <a href>.",
		},
		Eval: evalLegalPages,
	}
}

func evalLegalPages(in *Input) Result {
	if noPagesAtAll(in) {
		return na(naNoHome, ev())
	}
	privacy, privacyOK, _ := keyPage(in, fetch.Privacy)
	terms, termsOK, _ := keyPage(in, fetch.Terms)
	e := ev("pages", []map[string]any{privacy, terms})
	switch {
	case privacyOK && termsOK:
		return pass("A privacy policy and a terms or legal page both answer 200.", e)
	case privacyOK:
		return warn("A privacy policy answers 200, but no terms or legal page was found.", e)
	case termsOK:
		return warn("A terms or legal page answers 200, but no privacy policy was found.", e)
	}
	return fail("Neither a privacy policy nor a terms or legal page was found answering 200.", e)
}
