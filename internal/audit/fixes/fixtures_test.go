package fixes_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/fixes"
	"github.com/geoscan/geoscan/internal/audit/jsonld"
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/audit/robots"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

func TestMain(m *testing.M) { audittest.Main(m) }

// audited is a fixture site audited as a scan audits it, and its fixes.
type audited struct {
	res   audit.Result
	fixes map[string]fixes.Fix
	list  []fixes.Fix
}

var (
	auditedMu sync.Mutex
	auditedBy = map[string]audited{}
)

func fixture(t *testing.T, name string) audited {
	t.Helper()
	auditedMu.Lock()
	defer auditedMu.Unlock()
	if a, ok := auditedBy[name]; ok {
		return a
	}
	res := audittest.Run(t, name, "", audit.Options{})
	list := fixes.Generate(fixes.Input{
		Site: res.Site, Outcomes: res.Outcomes, BrandName: audittest.Target(t, name, "").BrandName, Platform: fixes.PlatformOf(res.Triage),
	})
	a := audited{res: res, fixes: map[string]fixes.Fix{}, list: list}
	for _, f := range list {
		a.fixes[f.CheckID] = f
	}
	auditedBy[name] = a
	return a
}

func (a audited) outcome(id string) checks.Outcome {
	for _, o := range a.res.Outcomes {
		if o.Check.ID == id {
			return o
		}
	}
	return checks.Outcome{}
}

// The checks fixes are written for; on the fixture sites each of them
// that warns or fails gets one.
var fixable = []string{
	"robots_txt_fetchable", "robots_txt_syntax", "ai_search_bots_allowed", "ai_user_fetchers_allowed", "stale_ai_tokens",
	"edge_bot_reachability", "sitemap_present", "llms_txt_present", "llms_txt_valid", "jsonld_valid", "schema_site_entities",
	"organization_entity", "sameas_profiles", "schema_page_type_match", "schema_required_props", "title_quality",
	"meta_description", "canonical_valid",
}

// Every fixture site gets fixes of its own: for its open findings, on its
// platform, filled with its facts, and carried by the report of the scan.
func TestFixturesGetFixesOfTheirOwn(t *testing.T) {
	t.Parallel()
	platformOf := map[string]string{testsite.WordPress: "WordPress", testsite.Shopify: "Shopify", testsite.NextShell: "Next.js"}
	llms := map[string]string{}
	llmsSteps := map[string][]string{}
	for _, name := range testsite.Realistic {
		a := fixture(t, name)
		host := audittest.URL(t, name).Host
		for _, o := range a.res.Outcomes {
			open := o.Result.Status == checks.Warn || o.Result.Status == checks.Fail
			_, has := a.fixes[o.Check.ID]
			if !open {
				require.False(t, has, "%s: %s is %s and gets no fix", name, o.Check.ID, o.Result.Status)
				continue
			}
			if slices.Contains(fixable, o.Check.ID) {
				require.True(t, has, "%s: %s is %s and gets a fix", name, o.Check.ID, o.Result.Status)
			}
		}
		require.Len(t, a.fixes, len(a.list), "%s: one fix per check", name)
		for _, f := range a.list {
			want := platformOf[name]
			if want == "" {
				want = "generic"
			}
			require.Equal(t, want, f.Platform, "%s %s", name, f.CheckID)
			require.NotEmpty(t, f.Cause)
			require.NotEmpty(t, f.Summary.Engineering)
			require.NotEmpty(t, f.Summary.Marketing)
			require.NotEqual(t, f.Summary.Engineering, f.Summary.Marketing)
			require.NotEmpty(t, f.PlatformSteps, "%s %s", name, f.CheckID)
			require.NotEmpty(t, f.Verify, "%s %s", name, f.CheckID)
			o := a.outcome(f.CheckID)
			require.NotEqual(t, o.Check.Engineering.Fix, f.Summary.Engineering, "not the catalog's text")
			for _, v := range f.Verify {
				require.NotEmpty(t, v.Step.Engineering)
				require.NotEmpty(t, v.Step.Marketing)
				if v.Command != "" {
					require.True(t, strings.HasPrefix(v.Command, "curl ") || strings.HasPrefix(v.Command, "for i in"), v.Command)
					require.Contains(t, v.Command, host, "a command reaches the site itself")
				}
			}
			if art := f.Artifact; art != nil {
				require.Regexp(t, `^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`, art.Filename)
				require.NotEmpty(t, art.Checked)
				require.Contains(t, art.Location, host)
				if strings.Contains(art.Content, "REVIEW") {
					require.NotEmpty(t, f.Review, "%s %s: a placeholder is listed for review", name, f.CheckID)
				}
			}
			// The report of the scan carries the fix on the check, in both
			// editions.
			for _, edition := range []string{"engineering", "marketing"} {
				require.Equal(t, string(f.Cause), reportedCause(t, a, edition, f.CheckID), "%s %s in the %s edition", name, f.CheckID, edition)
			}
		}
		if f, ok := a.fixes["llms_txt_present"]; ok && f.Artifact != nil {
			llms[name] = f.Artifact.Content
			llmsSteps[name] = f.PlatformSteps
			require.Contains(t, f.Artifact.Content, host, "the draft links the site's own pages")
		}
	}
	require.GreaterOrEqual(t, len(llms), 4)
	seen := map[string]string{}
	for name, content := range llms {
		require.NotContains(t, seen, content, "%s's draft is another site's", name)
		seen[content] = name
	}
	require.NotEqual(t, llmsSteps[testsite.WordPress], llmsSteps[testsite.Shopify], "steps follow the platform")
	require.NotEqual(t, llmsSteps[testsite.WordPress], llmsSteps[testsite.Bakery])
	require.NotEqual(t, llmsSteps[testsite.Shopify], llmsSteps[testsite.Bakery])

	// The same finding on different sites is fixed with each site's facts.
	wp, shop := fixture(t, testsite.WordPress).fixes["organization_entity"], fixture(t, testsite.Shopify).fixes["organization_entity"]
	require.Contains(t, wp.Artifact.Content, `"name": "Brightpath Studio"`)
	require.Contains(t, wp.Artifact.Content, "hello@brightpath-studio.test", "the email the site links to")
	require.Contains(t, wp.Artifact.Content, "https://www.linkedin.com/company/brightpath-studio", "the profiles the site names")
	require.Contains(t, shop.Artifact.Content, `"name": "Copper Kettle Coffee"`)
	require.Contains(t, strings.Join(wp.PlatformSteps, " "), "Yoast SEO")
	require.Contains(t, strings.Join(shop.PlatformSteps, " "), "theme.liquid")
}

// reportedCause is the cause of the fix the report of a fixture carries
// on a check.
func reportedCause(t *testing.T, a audited, edition, id string) string {
	t.Helper()
	r := a.res.Report.Marketing
	if edition == "engineering" {
		r = a.res.Report.Engineering
	}
	for _, c := range r.Checks {
		if c.ID == id {
			require.NotNil(t, c.Fix, "%s has no fix in the %s edition", id, edition)
			return c.Fix.Cause
		}
	}
	t.Fatalf("no check %s", id)
	return ""
}

// withoutFile are the causes fixed by a change to make rather than a file.
var withoutFile = []fixes.Cause{
	fixes.RobotsServerError, fixes.RobotsRefused, fixes.RobotsSyntax, fixes.RobotsOversize, fixes.EdgeBlock, fixes.SitemapFault,
}

// Every artifact written for a fixture site reads back as what it claims
// to be, checked here with the project's own readers and checks: a
// robots.txt patch applies to the site's file and lets the crawlers in, a
// robots.txt allows everyone, JSON-LD parses and passes the structured
// data and entity checks on a page holding it, llms.txt passes the llms.txt
// check, a sitemap reads as a urlset, a head tag passes its check.
func TestArtifactsValidate(t *testing.T) {
	t.Parallel()
	kinds := map[string]int{}
	for _, name := range testsite.Realistic {
		a := fixture(t, name)
		for _, f := range a.list {
			art := f.Artifact
			for _, n := range f.Notes {
				require.NotContains(t, n, "could be written", "%s %s: every artifact passes the checks it is written for", name, f.CheckID)
			}
			if art == nil {
				require.Contains(t, withoutFile, f.Cause, "%s %s: a fix with a file to offer offers it", name, f.CheckID)
				continue
			}
			kinds[art.Filename]++
			t.Logf("%s %s: %s", name, f.CheckID, art.Filename)
			switch {
			case art.Filename == "robots.txt.patch":
				requireRobotsPatch(t, a, art.Content)
			case art.Filename == "robots.txt":
				rf := robots.ParseBody(art.Content)
				require.Empty(t, rf.Problems())
				for _, ag := range robots.Agents {
					require.True(t, rf.Allowed(ag.Token, "/").Allowed, ag.Token)
				}
			case strings.HasSuffix(art.Filename, ".jsonld.html"):
				requireJSONLD(t, a, f, art)
			case art.Filename == "llms.txt":
				site := &fetch.Site{Target: a.res.Site.Target, LLMsTxt: &fetch.Response{
					Purpose: fetch.LLMsTxt, URL: art.Location, FinalURL: art.Location, Status: http.StatusOK,
					Header: http.Header{"Content-Type": {"text/markdown"}}, Body: []byte(art.Content),
				}}
				requirePasses(t, &checks.Input{Site: site}, "llms_txt_present", "llms_txt_valid")
			case art.Filename == "sitemap.xml":
				read := fetch.ReadSitemap(&fetch.Response{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/xml"}}, Body: []byte(art.Content)}, fetch.SitemapFromDefault, "/sitemap.xml", "")
				require.Equal(t, "urlset", read.Kind)
				require.Positive(t, read.Entries)
				for _, loc := range regexp.MustCompile(`<loc>([^<]*)</loc>`).FindAllStringSubmatch(art.Content, -1) {
					u, err := url.Parse(loc[1])
					require.NoError(t, err)
					require.Equal(t, a.res.Site.Target.Host, u.Host, "a sitemap lists the site's own pages")
				}
			case strings.HasPrefix(art.Filename, "homepage-"):
				in := pageInput(t, a, art.Location, fetch.Homepage, art.Content)
				requirePasses(t, in, f.CheckID)
			default:
				t.Fatalf("%s: no validation for %s", name, art.Filename)
			}
		}
	}
	for _, want := range []string{"robots.txt.patch", "organization.jsonld.html", "llms.txt", "sitemap.xml", "homepage-meta-description.html", "homepage-canonical.html", "homepage-title.html", "product.jsonld.html", "breadcrumb.jsonld.html"} {
		require.Positive(t, kinds[want], "the fixtures exercise %s", want)
	}
}

func requireRobotsPatch(t *testing.T, a audited, patch string) {
	t.Helper()
	body := string(a.res.Site.Robots.Body)
	patched, err := fixes.ApplyUnifiedDiff(body, patch)
	require.NoError(t, err, "the patch applies to the file the scan read:\n%s", patch)
	before, after := robots.ParseBody(body), robots.ParseBody(patched)
	for role, id := range map[robots.Role]string{robots.Search: "ai_search_bots_allowed", robots.UserFetch: "ai_user_fetchers_allowed"} {
		open := a.outcome(id).Result.Status == checks.Fail || a.outcome(id).Result.Status == checks.Warn
		for _, ag := range robots.ByRole(role) {
			if open {
				require.True(t, after.Allowed(ag.Token, "/").Allowed, "%s is let in", ag.Token)
			} else {
				require.Equal(t, before.Allowed(ag.Token, "/").Allowed, after.Allowed(ag.Token, "/").Allowed, ag.Token)
			}
		}
	}
	for _, ag := range robots.ByRole(robots.Training, robots.Control, robots.Mixed) {
		require.Equal(t, before.Allowed(ag.Token, "/").Allowed, after.Allowed(ag.Token, "/").Allowed, "%s keeps the site's policy", ag.Token)
	}
}

var scriptRE = regexp.MustCompile(`(?s)^<script type="application/ld\+json">\n(.*)\n</script>\n$`)

func requireJSONLD(t *testing.T, a audited, f fixes.Fix, art *fixes.Artifact) {
	t.Helper()
	m := scriptRE.FindStringSubmatch(art.Content)
	require.NotNil(t, m, "one script element:\n%s", art.Content)
	g := jsonld.Parse([]string{m[1]})
	require.Equal(t, 1, g.Valid)
	require.Empty(t, g.Errors)
	if art.Filename == "organization.jsonld.html" {
		in := pageInput(t, a, a.res.Site.Home.FinalURL, fetch.Homepage, art.Content)
		requirePasses(t, in, "jsonld_valid", "schema_site_entities", "organization_entity", "sameas_profiles", "schema_required_props")
		return
	}
	// A page's snippet joins the page's own JSON-LD.
	var existing string
	var purpose fetch.Purpose
	for _, r := range a.res.Site.Pages {
		if p := a.res.Site.Page(r); p != nil && p.URL.String() == art.Location {
			purpose = r.Purpose
			for _, b := range p.JSONLDTexts {
				existing += `<script type="application/ld+json">` + b + "</script>\n"
			}
		}
	}
	require.NotEmpty(t, purpose, "the snippet is for a page the scan read")
	in := pageInput(t, a, art.Location, purpose, existing+art.Content)
	requirePasses(t, in, "jsonld_valid", f.CheckID)
}

// pageInput is a site of one page at pageURL whose head holds head.
func pageInput(t *testing.T, a audited, pageURL string, purpose fetch.Purpose, head string) *checks.Input {
	t.Helper()
	u, err := url.Parse(pageURL)
	require.NoError(t, err)
	doc := []byte("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">" + head + "</head><body><h1>Page</h1></body></html>")
	r := &fetch.Response{
		Purpose: purpose, URL: pageURL, FinalURL: pageURL, Status: http.StatusOK, Method: http.MethodGet,
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: doc,
	}
	p, err := page.Parse(doc, u)
	require.NoError(t, err)
	site := &fetch.Site{Target: a.res.Site.Target, Parsed: map[*fetch.Response]*page.Page{r: p}, All: []*fetch.Response{r}}
	in := &checks.Input{Site: site, BrandName: a.res.Report.Engineering.BrandName}
	if purpose == fetch.Homepage {
		site.Home, site.HomePage, in.Home = r, p, p
	} else {
		site.Pages = []*fetch.Response{r}
	}
	return in
}

func requirePasses(t *testing.T, in *checks.Input, ids ...string) {
	t.Helper()
	for _, id := range ids {
		c := checks.Lookup(id)
		require.NotNil(t, c, id)
		r := c.Eval(in)
		require.Equal(t, checks.Pass, r.Status, "%s: %s", id, r.Summary)
	}
}

// A site whose pages, structured data and files hold NUL bytes and bytes
// that are not UTF-8 gets fixes whose every text can be stored as is.
func TestFixesOfANulByteSiteAreStorableText(t *testing.T) {
	t.Parallel()
	a := fixture(t, testsite.NulBytes)
	require.NotEmpty(t, a.list)
	for _, f := range a.list {
		b, err := json.Marshal(f)
		require.NoError(t, err)
		require.True(t, utf8.Valid(b), f.CheckID)
		require.NotContains(t, string(b), `\u0000`, "%s: %s", f.CheckID, b)
	}
}

// Broken Bay's robots.txt answers 503: the fix is on the server. There is
// no rule to delete and no file to swap in, whatever the check.
func TestA503RobotsTxtIsAServerFault(t *testing.T) {
	t.Parallel()
	a := fixture(t, testsite.Broken)
	require.Equal(t, 503, a.res.Site.Robots.Status)
	for _, id := range []string{"robots_txt_fetchable", "ai_search_bots_allowed", "ai_user_fetchers_allowed"} {
		f, ok := a.fixes[id]
		require.True(t, ok, id)
		require.Equal(t, fixes.RobotsServerError, f.Cause, id)
		require.Nil(t, f.Artifact, "%s: no patch, no file", id)
		all := strings.Join(slices.Concat([]string{f.Summary.Engineering, f.Summary.Marketing}, f.Edits, f.PlatformSteps), "\n")
		require.Contains(t, f.Summary.Engineering, "503")
		require.Contains(t, f.Summary.Marketing, "server")
		require.NotRegexp(t, `(?i)(delete|remove)[^.]*(line|rule|disallow)`, all, "%s tells no one to delete a rule", id)
		require.Contains(t, f.Verify[0].Command, a.res.Site.Robots.URL)
	}
	require.Equal(t, fixes.SitemapMissing, a.fixes["sitemap_present"].Cause)
	require.NotNil(t, a.fixes["sitemap_present"].Artifact)
}

// Nimbus, a Next.js app, blocks OAI-SearchBot in a group of its own: the
// patch deletes that line of the site's file, at its line number, and the
// training crawler it also blocks stays blocked.
func TestARuleThatBlocksIsPatchedAtItsLine(t *testing.T) {
	t.Parallel()
	a := fixture(t, testsite.NextShell)
	f := a.fixes["ai_search_bots_allowed"]
	require.Equal(t, fixes.RobotsRule, f.Cause)
	require.Equal(t, "Next.js", f.Platform)
	require.Contains(t, strings.Join(f.PlatformSteps, " "), "app/robots.ts")
	require.Contains(t, f.Summary.Engineering, "line 5")
	require.Equal(t, []string{"Delete line 5: `Disallow: /`."}, f.Edits)
	require.Equal(t, fixes.Patch, f.Artifact.Kind)
	require.Contains(t, f.Artifact.Content, "@@ -2,7 +2,6 @@\n Disallow: /\n \n User-agent: OAI-SearchBot\n-Disallow: /\n")
	patched, err := fixes.ApplyUnifiedDiff(string(a.res.Site.Robots.Body), f.Artifact.Content)
	require.NoError(t, err)
	after := robots.ParseBody(patched)
	require.True(t, after.Allowed("OAI-SearchBot", "/").Allowed)
	require.False(t, after.Allowed("GPTBot", "/").Allowed, "the site's opt-out of training stays")

	// A 404 robots.txt needs no patch for access: the checks that judge
	// access pass, and only the policy file is offered.
	bakery := fixture(t, testsite.Bakery)
	require.Equal(t, fixes.SitemapUnlisted, bakery.fixes["sitemap_present"].Cause)
	require.Contains(t, bakery.fixes["sitemap_present"].Artifact.Content, "+Sitemap: ")
}

// Fortress's edge challenges AI crawlers: no file fixes that. The steps
// are the bot settings of the CDN Site Triage saw, and each refused
// crawler gets a curl with its own user agent.
func TestAnEdgeBlockIsFixedAtTheEdge(t *testing.T) {
	t.Parallel()
	a := fixture(t, testsite.Edge)
	f := a.fixes["edge_bot_reachability"]
	require.Equal(t, fixes.EdgeBlock, f.Cause)
	require.Nil(t, f.Artifact)
	require.Contains(t, strings.Join(f.PlatformSteps, " "), "Cloudflare")
	var agents []string
	for _, v := range f.Verify {
		if strings.Contains(v.Command, " -A ") {
			agents = append(agents, v.Command)
		}
	}
	require.NotEmpty(t, agents)
	require.Contains(t, strings.Join(agents, "\n"), "OAI-SearchBot/1.0")
	require.NotEmpty(t, f.Notes, "the probes' limits are said")
	var buf bytes.Buffer
	for _, n := range f.Notes {
		buf.WriteString(n)
	}
	require.Contains(t, buf.String(), "IP address")
}
