package triage_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/triage"
)

func techNames(det triage.Detection) []string {
	var out []string
	for _, t := range det.Technologies {
		out = append(out, t.Name)
	}
	return out
}

func nameOf(t *triage.Tech) string {
	if t == nil {
		return ""
	}
	return t.Name
}

// The shapes below are the ones that named the wrong platform on real
// pages: evidence that belongs to other sites, to content or to string
// literals, and single weak signals.
func TestPlatformEvidenceMustBelongToTheSite(t *testing.T) {
	cases := []struct {
		name                    string
		header                  http.Header
		html                    string
		cms, builder, framework string
		absent                  []string // technologies that must not be listed
		note                    string   // a fragment of Detection.Notes, "" for none
	}{
		{
			name:   "a MediaWiki page citing someone's /wp-content/ PDF",
			header: http.Header{},
			html: `<html><head><meta name="generator" content="MediaWiki 1.41.0"></head>
				<body class="mediawiki ltr sitedir-ltr ns-0"><div id="content"><p>The 2020 report
				<a rel="nofollow" class="external text" href="https://www.agency-reports.org/wp-content/uploads/2020/05/report.pdf">(PDF)</a>
				is cited here, along with <a href="https://blog.example.org/wp-includes/js/x.js">this</a>.</p>
				<p>Its theme path /wp-content/themes/ is mentioned in the text.</p></div>
				<a href="/wiki/Special:WhatLinksHere/Report">What links here</a></body></html>`,
			cms:    "MediaWiki",
			absent: []string{"WordPress"},
			note:   "WordPress: assets under /wp-content/, assets under /wp-includes/ only in URLs of other sites (blog.example.org, www.agency-reports.org)",
		},
		{
			name:   "a portal with third-party Drupal images",
			header: http.Header{},
			html: `<html><head><title>Health news</title></head><body><main>
				<img src="https://www.partner-health.com/sites/default/files/styles/article/public/2024/heart.jpg">
				<img src="https://images.medical-news.net/sites/default/files/2023/diet.png">
				<p>Stories from our partners.</p></main></body></html>`,
			absent: []string{"Drupal"},
			note:   "Drupal: files under /sites/default/files/ only in URLs of other sites",
		},
		{
			name:   "Drupal's own files name Drupal",
			header: http.Header{},
			html: `<html><head><script type="application/json" data-drupal-selector="drupal-settings-json">{}</script></head>
				<body><img src="/sites/default/files/2024/team.jpg"></body></html>`,
			cms: "Drupal",
		},
		{
			name:   "menu-item-object-section is not Oxygen's ct-section",
			header: http.Header{},
			html: `<html><head><meta name="generator" content="WordPress 6.4.2"></head><body>
				<nav><ul><li class="menu-item menu-item-type-taxonomy menu-item-object-section menu-item-381"><a href="/section/news/">News</a></li></ul></nav>
				<div class="wp-block-group"><p>Hello</p></div></body></html>`,
			cms:    "WordPress",
			absent: []string{"Oxygen"},
		},
		{
			name:   "Blogger theme code is not WPBakery",
			header: http.Header{},
			html: `<html><head><meta name="generator" content="Blogger">
				<style>.vc_row{margin:0}.et_pb_section{padding:0}</style>
				<script>var grid = document.querySelectorAll('.vc_row, .et_pb_section'); var cls = "vc_row-fluid";</script></head>
				<body class="version-1-3-3"><div class="post-body entry-content">A post about page builders such as WPBakery (vc_row) and Divi.</div></body></html>`,
			cms:    "Blogger",
			absent: []string{"WPBakery", "Divi"},
		},
		{
			name:   "one weak class names no builder",
			header: http.Header{},
			html:   `<html><body><div class="vc_row wpb_row"><p>Imported markup</p></div></body></html>`,
			absent: []string{"WPBakery"},
			note:   "WPBakery: a single weak signal (class vc_row)",
		},
		{
			name:   "a class and the plugin's own assets name the builder",
			header: http.Header{},
			html: `<html><head><link rel="stylesheet" href="/wp-content/plugins/js_composer/assets/css/js_composer.min.css"></head>
				<body><div class="vc_row wpb_row vc_row-fluid"><p>Hi</p></div></body></html>`,
			cms: "WordPress", builder: "WPBakery",
		},
		{
			name:   "a Shopify buy button names no shop platform",
			header: http.Header{},
			html: `<html><body><div id="product-component"></div>
				<script src="https://cdn.shopify.com/s/files/1/0001/buy-button-storefront.min.js"></script></body></html>`,
			absent: []string{"Shopify"},
		},
		{
			name:   "WordPress assets through an image proxy and a site CDN are the site's",
			header: http.Header{},
			html: `<html><head><link rel="stylesheet" href="https://examplepress.b-cdn.net/wp-content/themes/astra/style.css"></head>
				<body><img src="https://i0.wp.com/examplepress.test/wp-content/uploads/2024/01/a.jpg"></body></html>`,
			cms: "WordPress",
		},
		{
			name:      "a React mount attribute names React",
			header:    http.Header{},
			html:      `<html><body><div id="root" data-reactroot=""></div><script src="/static/js/main.js"></script></body></html>`,
			framework: "React",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			address := "https://example.test/"
			if strings.Contains(c.name, "proxy") {
				address = "https://examplepress.test/"
			}
			det := triage.Detect(htmlSiteAt(t, address, c.header, c.html))
			require.Equal(t, c.cms, nameOf(det.CMS), "cms")
			require.Equal(t, c.builder, nameOf(det.Builder), "page builder")
			require.Equal(t, c.framework, nameOf(det.Framework), "framework")
			for _, a := range c.absent {
				require.NotContains(t, techNames(det), a)
			}
			if c.note != "" {
				require.Contains(t, strings.Join(det.Notes, "\n"), c.note)
			}
		})
	}
}

func TestFingerprintDatabaseNamesTheCMSTheTableDoesNotKnow(t *testing.T) {
	cases := []struct {
		name   string
		header http.Header
		html   string
		cms    string
	}{
		{"Blogger", http.Header{}, `<html><head><meta name="generator" content="Blogger"></head><body></body></html>`, "Blogger"},
		{"TYPO3", http.Header{}, `<html><head><meta name="generator" content="TYPO3 CMS"></head><body><img src="/typo3temp/assets/images/a.png"></body></html>`, "TYPO3 CMS"},
		{"SPIP", http.Header{"X-Spip-Cache": {"86400"}}, `<html><head><meta name="generator" content="SPIP 4.2.8 [24006]"></head><body></body></html>`, "SPIP"},
		{"Contao", http.Header{}, `<html><head><meta name="generator" content="Contao Open Source CMS"></head><body></body></html>`, "Contao"},
		{"Bitrix", http.Header{"Set-Cookie": {"BITRIX_SM_GUEST_ID=1234; path=/"}, "X-Powered-Cms": {"Bitrix Site Manager (DEMO)"}}, `<html><body></body></html>`, "1C-Bitrix"},
		{"MediaWiki", http.Header{}, `<html><head><meta name="generator" content="MediaWiki 1.39.5"></head><body class="mediawiki"></body></html>`, "MediaWiki"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			det := triage.Detect(htmlSite(t, c.header, c.html))
			require.NotNil(t, det.CMS, "technologies: %v", techNames(det))
			require.Equal(t, c.cms, det.CMS.Name)
			require.Equal(t, triage.RoleCMS, det.CMS.Role)
			require.NotEmpty(t, det.CMS.Evidence)
		})
	}
	// The in-house table keeps its word: a WordPress generator on a page the
	// database also reads as something else stays WordPress.
	det := triage.Detect(htmlSite(t, http.Header{}, `<html><head><meta name="generator" content="WordPress 6.5"><meta name="generator" content="Blogger"></head><body></body></html>`))
	require.Equal(t, "WordPress", nameOf(det.CMS))
}

func TestTheWinningEvidenceIsRecorded(t *testing.T) {
	in := platformInput(t, http.Header{}, `<html><head><meta name="generator" content="WordPress 6.5"></head><body>
		<img src="/wp-content/uploads/a.jpg"><a href="https://other.example.org/sites/default/files/x.pdf">x</a></body></html>`)
	st, err := triage.Build(in)
	require.NoError(t, err)
	var label string
	for _, f := range st.Engineering.EvidenceLedger {
		if f.ID == "platform_cms" {
			label = f.Label
		}
	}
	require.Contains(t, label, "meta generator wordpress")
	require.Contains(t, label, "assets under /wp-content/ on the site's own host (/wp-content/uploads/a.jpg)")
	require.Contains(t, strings.Join(st.Engineering.Caveats, "\n"), "Platform evidence not counted: Drupal: files under /sites/default/files/ only in URLs of other sites (other.example.org)")
}
