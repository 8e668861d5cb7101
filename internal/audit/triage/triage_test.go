package triage_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden is the part of a dossier the fixtures pin down: the platform
// triple, complexity and lens buckets, and the technologies seen.
type golden struct {
	CMS          *string           `json:"cms"`
	PageBuilder  *string           `json:"page_builder"`
	JSFramework  *string           `json:"js_framework"`
	Confidence   string            `json:"confidence"`
	Complexity   string            `json:"complexity_bucket"`
	Lenses       map[string]string `json:"risk_lenses"`
	Technologies []string          `json:"technologies"`
	QuickWins    []string          `json:"quick_wins"`
}

func build(t testing.TB, name string) triage.Stored {
	t.Helper()
	return *audited(t, fetched(t, name)).Triage
}

func TestFixturesMatchGoldens(t *testing.T) {
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			d := build(t, name).Marketing
			g := golden{
				CMS: d.Platform.Cms, PageBuilder: d.Platform.PageBuilder, JSFramework: d.Platform.JsFramework,
				Confidence: string(d.Platform.Confidence), Complexity: string(d.Platform.ComplexityBucket),
				Lenses: map[string]string{}, Technologies: []string{}, QuickWins: []string{},
			}
			for _, l := range d.RiskLenses {
				g.Lenses[string(l.LensID)] = string(l.Bucket)
			}
			for _, tech := range d.Platform.Technologies {
				g.Technologies = append(g.Technologies, tech.Name)
			}
			slices.Sort(g.Technologies)
			for _, a := range d.PriorityActions {
				if a.QuickWin {
					g.QuickWins = append(g.QuickWins, a.CheckID)
				}
			}
			got, err := json.MarshalIndent(g, "", "  ")
			require.NoError(t, err)
			path := filepath.Join("testdata", name+".golden.json")
			if *update {
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run with -update to create the golden file")
			require.JSONEq(t, string(want), string(got))
		})
	}
}

// htmlSite is a one-page site from literal headers and HTML.
func htmlSite(t *testing.T, header http.Header, html string) *fetch.Site {
	t.Helper()
	return htmlSiteAt(t, "https://example.test/", header, html)
}

// htmlSiteAt is htmlSite at another address.
func htmlSiteAt(t *testing.T, address string, header http.Header, html string) *fetch.Site {
	t.Helper()
	u, _ := url.Parse(address)
	header.Set("Content-Type", "text/html; charset=utf-8")
	home := &fetch.Response{Purpose: fetch.Homepage, URL: u.String(), FinalURL: u.String(), Status: 200, Header: header, Body: []byte(html)}
	p, err := page.Parse(home.Body, u)
	require.NoError(t, err)
	return &fetch.Site{Target: u, Home: home, HomePage: p, Parsed: map[*fetch.Response]*page.Page{home: p}}
}

func TestCompetingSignalsPickTheRightWinner(t *testing.T) {
	cases := []struct {
		name                    string
		header                  http.Header
		html                    string
		cms, builder, framework string
	}{
		{
			// A WordPress site with Elementor pages that also embeds a
			// Shopify buy button and block-editor markup.
			name:   "wordpress over an embedded shop, elementor over blocks",
			header: http.Header{},
			html: `<html><head><meta name="generator" content="WordPress 6.5.3">
				<link rel="https://api.w.org/" href="https://example.test/wp-json/">
				<link rel="stylesheet" href="/wp-content/plugins/elementor/assets/css/frontend.min.css">
				<script src="https://sdks.shopifycdn.com/buy-button/latest/buy-button-storefront.min.js"></script>
				<script src="https://cdn.shopify.com/s/files/buy-button.js"></script></head>
				<body><div class="wp-block-group"><div data-elementor-type="wp-page" class="elementor elementor-12">
				<div class="elementor-element">Hello</div></div></div></body></html>`,
			cms: "WordPress", builder: "Elementor",
		},
		{
			// Next.js ships React: the framework is the meta-framework.
			name:   "next.js over react",
			header: http.Header{"X-Powered-By": {"Next.js"}},
			html: `<html><body><div id="__next" data-reactroot=""><p>Hi</p></div>
				<script src="/_next/static/chunks/react-dom.js"></script>
				<script id="__NEXT_DATA__" type="application/json">{"props":{}}</script></body></html>`,
			framework: "Next.js",
		},
		{
			// A Shopify store whose blog links images from an old WordPress.
			name:   "shopify over stray wordpress assets",
			header: http.Header{"X-Shopid": {"612345"}, "Powered-By": {"Shopify"}},
			html: `<html><head><script>window.Shopify = {}; Shopify.theme = {"name":"Dawn"};</script></head>
				<body><img src="https://old.example.test/wp-content/uploads/a.jpg"><div class="__pf" id="__pf">PageFly</div>
				<script src="https://cdn.shopify.com/s/files/1/theme.js"></script>
				<script src="https://cdn.shopify.com/extensions/1a2b/pagefly-page-builder-210/assets/pagefly-main.js" defer></script></body></html>`,
			cms: "Shopify", builder: "PageFly",
		},
		{
			// Vue markup under Nuxt.
			name:      "nuxt over vue",
			header:    http.Header{},
			html:      `<html><body><div id="__nuxt"><div data-v-app data-v-1a2b>Hi</div></div><script>window.__NUXT__={}</script><script src="/_nuxt/entry.js"></script></body></html>`,
			framework: "Nuxt",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			det := triage.Detect(htmlSite(t, c.header, c.html))
			name := func(x *triage.Tech) string {
				if x == nil {
					return ""
				}
				return x.Name
			}
			require.Equal(t, c.cms, name(det.CMS), "cms")
			require.Equal(t, c.builder, name(det.Builder), "page builder")
			require.Equal(t, c.framework, name(det.Framework), "framework")
		})
	}
}

func TestLedgerStrengthsAndCountsAreConsistent(t *testing.T) {
	for _, name := range testsite.Realistic {
		st := build(t, name)
		for _, d := range []api.TriageDossier{st.Marketing, st.Engineering} {
			t.Run(name+"/"+string(d.Audience), func(t *testing.T) {
				var strengths []api.TriageFinding
				ledger := map[string]api.TriageFinding{}
				for _, f := range d.EvidenceLedger {
					require.NotContains(t, ledger, f.ID, "ledger ids are unique")
					ledger[f.ID] = f
					if f.Status == api.Strength {
						strengths = append(strengths, f)
					}
					if f.Status == api.Neutral || f.Status == api.Unknown {
						require.Nil(t, f.Effort, "%s: effort only for weaknesses", f.ID)
					}
					require.NotEmpty(t, f.Label)
					require.NotEmpty(t, f.WhyItMatters)
				}
				require.Equal(t, strengths, nonNil(d.Strengths), "strengths are the ledger's strength rows, in order")
				require.Len(t, d.PriorityActions, d.ActionCount)
				quick := 0
				for _, a := range d.PriorityActions {
					f, ok := ledger[a.CheckID]
					require.True(t, ok, "action %s has a ledger row", a.ID)
					require.Equal(t, api.Weakness, f.Status, "action %s fixes a weakness", a.ID)
					require.Equal(t, string(a.Impact), string(*f.Impact))
					require.Equal(t, string(a.Effort), string(*f.Effort))
					require.Equal(t, a.Impact == api.LevelHigh && a.Effort == api.LevelLow, a.QuickWin, "quick win of %s", a.ID)
					if a.QuickWin {
						quick++
					}
				}
				require.Equal(t, quick, d.QuickWinCount)
				require.Len(t, d.RiskLenses, 6)
				require.Equal(t, triage.SchemaVersion, d.SchemaVersion)
				require.NotEmpty(t, d.SummaryParagraph)
			})
		}
	}
}

func nonNil(f []api.TriageFinding) []api.TriageFinding {
	if f == nil {
		return []api.TriageFinding{}
	}
	return f
}

func TestAudiencesChangeTextNeverBucketsOrOrder(t *testing.T) {
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			st := build(t, name)
			m, e := skeleton(t, st.Marketing), skeleton(t, st.Engineering)
			require.Equal(t, m, e, "only texts may differ between audiences")
			require.NotEqual(t, st.Marketing.SummaryParagraph, st.Engineering.SummaryParagraph)
		})
	}
}

// textFields are the keys whose values are wording for an audience.
var textFields = map[string]bool{"label": true, "why_it_matters": true, "summary_paragraph": true, "recommendation": true, "audience": true}

// skeleton is the dossier's JSON with every audience text blanked.
func skeleton(t *testing.T, d api.TriageDossier) any {
	t.Helper()
	b, err := json.Marshal(d)
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	var blank func(any) any
	blank = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				if textFields[k] {
					x[k] = ""
				} else {
					x[k] = blank(val)
				}
			}
		case []any:
			for i := range x {
				x[i] = blank(x[i])
			}
		}
		return v
	}
	return blank(v)
}

// TestNoRawNumberLeaks holds the dossier to buckets and levels: its only
// numbers are the counts and what each priority action adds to the
// overall score, which the report states too.
func TestNoRawNumberLeaks(t *testing.T) {
	for _, name := range testsite.Realistic {
		st := build(t, name)
		for _, d := range []api.TriageDossier{st.Marketing, st.Engineering} {
			b, err := json.Marshal(d)
			require.NoError(t, err)
			var v any
			require.NoError(t, json.Unmarshal(b, &v))
			var walk func(path string, v any)
			walk = func(path string, v any) {
				switch x := v.(type) {
				case float64:
					require.Contains(t, []string{".quick_win_count", ".action_count", ".priority_actions[].expected_gain", ".priority_actions[].gain_in_order"}, path, "%s/%s: a number at %s", name, d.Audience, path)
				case map[string]any:
					for k, val := range x {
						walk(path+"."+k, val)
					}
				case []any:
					for _, val := range x {
						walk(path+"[]", val)
					}
				}
			}
			walk("", v)
		}
	}
}

func TestSnapshotRebuildsTheSameDossier(t *testing.T) {
	for _, name := range testsite.Realistic {
		t.Run(name, func(t *testing.T) {
			first := audited(t, fetched(t, name))
			require.NoError(t, first.SnapshotErr)
			again, err := audit.Run(context.Background(), audit.Target{URL: first.Site.Target},
				audit.Options{Prior: &audit.Prior{Outcomes: first.Outcomes, Snapshot: first.Snapshot, AgentReadiness: first.AgentReadiness}})
			require.NoError(t, err)
			require.False(t, again.Refetched)
			require.Equal(t, *first.Triage, *again.Triage)
		})
	}
}

func TestBuildFailureIsAnError(t *testing.T) {
	_, err := triage.Build(triage.Input{URL: "https://example.test/"}) // no site at all
	require.Error(t, err)
}

// platformInput is a one-page site on a platform whose checks all pass
// except the failing ones given.
func platformInput(t *testing.T, header http.Header, html string, failing ...string) triage.Input {
	t.Helper()
	site := htmlSite(t, header, html)
	var outcomes []checks.Outcome
	for _, c := range checks.All() {
		st := checks.Pass
		if slices.Contains(failing, c.ID) {
			st = checks.Fail
		}
		outcomes = append(outcomes, checks.Outcome{Check: c, Result: checks.Result{Status: st, Summary: "synthetic"}})
	}
	return triage.Input{URL: site.Target.String(), Site: site, Outcomes: outcomes, Scores: audit.Score(outcomes)}
}

func TestEffortDependsOnThePlatform(t *testing.T) {
	failing := []string{"ai_search_bots_allowed", "security_headers", "ssr_text_content"}
	platforms := map[string]struct {
		header http.Header
		html   string
	}{
		"wordpress": {http.Header{}, `<html><head><meta name="generator" content="WordPress 6.5"></head><body><img src="/wp-content/uploads/a.jpg"></body></html>`},
		"shopify":   {http.Header{"X-Shopid": {"1"}}, `<html><head><script>Shopify.theme = {}</script></head><body></body></html>`},
		"wix":       {http.Header{"X-Wix-Request-Id": {"1"}}, `<html><head><meta name="generator" content="Wix.com Website Builder"></head><body></body></html>`},
		"react spa": {http.Header{}, `<html><body><div id="root" data-reactroot=""></div><script src="/static/js/react-dom.production.min.js"></script></body></html>`},
	}
	want := map[string]map[string]api.Level{ // platform → check → effort
		// robots.txt is a file on WordPress; a theme template or an app on
		// Shopify; out of reach on Wix. Headers cannot be set on either SaaS.
		"wordpress": {"ai_search_bots_allowed": api.LevelLow, "security_headers": api.LevelMedium, "ssr_text_content": api.LevelMedium},
		"shopify":   {"ai_search_bots_allowed": api.LevelMedium, "security_headers": api.LevelHigh, "ssr_text_content": api.LevelMedium},
		"wix":       {"ai_search_bots_allowed": api.LevelHigh, "security_headers": api.LevelHigh, "ssr_text_content": api.LevelMedium},
		// Rendering on the server means rebuilding a client-rendered app.
		"react spa": {"ai_search_bots_allowed": api.LevelLow, "security_headers": api.LevelMedium, "ssr_text_content": api.LevelHigh},
	}
	fixability := map[string]api.TriageRiskLensBucket{
		"wordpress": api.TriageRiskLensBucketLow, "shopify": api.TriageRiskLensBucketHigh,
		"wix": api.TriageRiskLensBucketCritical, "react spa": api.TriageRiskLensBucketCritical,
	}
	for name, p := range platforms {
		t.Run(name, func(t *testing.T) {
			st, err := triage.Build(platformInput(t, p.header, p.html, failing...))
			require.NoError(t, err)
			got := map[string]api.Level{}
			for _, a := range st.Marketing.PriorityActions {
				got[a.CheckID] = a.Effort
			}
			require.Equal(t, want[name], got)
			for _, l := range st.Marketing.RiskLenses {
				if l.LensID == api.PlatformFixability {
					require.Equal(t, fixability[name], l.Bucket, "platform fixability")
				}
			}
		})
	}
}
