package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// sampleReport is a report with a check of every status, a pillar that was
// not measured, a whole-site audit's issue on many pages, and text from
// the site that would act on a terminal or start a workflow command.
func sampleReport() (*client.Scan, *client.Report) {
	id := uuid.MustParse("5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11")
	url := "https://www.example.com/"
	str := func(s string) *string { return &s }
	gain := 4.5
	score := func(v int) *int { return &v }
	r := &client.Report{
		ScanID: id, URL: url, BrandName: "Example", OverallScore: 48.2, OverallGrade: "D",
		ScoringVersion: "2026.4", GeneratedAt: time.Date(2026, 11, 23, 21, 26, 9, 0, time.UTC),
		Checks: []client.CheckResult{
			{
				ID: "ai_search_bots_allowed", Title: "AI search engines may crawl the site", Ring: client.Search, Pillar: "crawl_access",
				Status: client.CheckStatusFail, Impact: client.LevelHigh, Effort: client.LevelLow, ExpectedGain: &gain,
				Summary:        "robots.txt blocks OAI-SearchBot\n::error::injected \x1b[2J 100%",
				WhyItMatters:   "AI search engines that may not crawl the site cannot cite it.",
				Recommendation: str("Allow OAI-SearchBot in robots.txt."),
				Fix: &client.CheckFix{
					Summary: "Delete the rule that blocks OAI-SearchBot.", Edits: []string{"Delete line 5: `Disallow: /`."},
					Platform: "generic", PlatformSteps: []string{"Edit robots.txt at the site's root."},
				},
			},
			{
				ID: "sitemap_quality", Title: "Sitemap is accurate and up to date", Ring: client.Search, Pillar: "discovery",
				Status: client.CheckStatusWarn, Impact: client.LevelLow, Effort: client.LevelMedium,
				Summary: "2 of 10 sitemap URLs redirect.", Recommendation: str("List the final URLs."),
			},
			{ID: "robots_txt_fetchable", Title: "robots.txt is reachable", Ring: client.Search, Pillar: "crawl_access", Status: client.CheckStatusPass, Summary: "robots.txt answers 200."},
			{ID: "hreflang_valid", Title: "Language versions are linked", Ring: client.Search, Pillar: "discovery", Status: client.CheckStatusNa, Summary: "The site has one language."},
			{ID: "llm_brand_recognition", Title: "AI engines know the brand", Ring: client.Trust, Pillar: "ai_mentions", Status: client.CheckStatusError, Summary: "The answer engine timed out."},
			{ID: "llm_search_citation", Title: "AI engines cite the site", Ring: client.Trust, Pillar: "ai_mentions", Status: client.CheckStatusInfo, Summary: "Insufficient data: 3 of 9 answers."},
		},
		CrossCuttingIssues: &[]client.CrossCuttingIssue{{
			CheckID: "meta_description", PagesAffected: 212, PagesAudited: 500, ExpectedGain: 4.2,
			Groups: []string{"/blog/{yyyy}/{mm}/{slug}"}, ExampleUrls: []string{"https://www.example.com/blog/2026/03/launch", "https://www.example.com/blog/2026/04/next"},
		}},
	}
	r.Rings.Search = client.RingResult{Ring: client.Search, Score: 50, Pillars: []client.Pillar{
		{ID: "crawl_access", Name: "Crawl access", Ring: client.Search, Score: score(62)},
		{ID: "discovery", Name: "Discovery", Ring: client.Search, Score: score(63)},
	}}
	r.Rings.Visibility = client.RingResult{Ring: client.Visibility, Score: 40}
	r.Rings.Trust = client.RingResult{Ring: client.Trust, Score: 55, Pillars: []client.Pillar{
		{ID: "ai_mentions", Name: "AI mentions", Ring: client.Trust},
	}}
	s := &client.Scan{ID: id, URL: url, Domain: "example.com", Status: client.ScanStatusCompleted}
	return s, r
}

// sarifSchemaOf compiles the SARIF 2.1.0 JSON schema
// (testdata/sarif-schema-2.1.0.json, the OASIS schema as
// @microsoft/jest-sarif ships it).
func sarifSchemaOf(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	require.NoError(t, err)
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("sarif-schema-2.1.0.json", schemaDoc))
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	require.NoError(t, err)
	return sch
}

// requireValidSARIF validates a SARIF log against the SARIF 2.1.0 JSON
// schema and returns it decoded.
func requireValidSARIF(t *testing.T, raw []byte) sarifLog {
	t.Helper()
	sch := sarifSchemaOf(t)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	require.NoError(t, sch.Validate(doc), "the SARIF log is not valid SARIF 2.1.0:\n%s", raw)
	var log sarifLog
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&log))
	return log
}

func TestSARIFSchemaRejectsWhatIsNotSARIF(t *testing.T) {
	t.Parallel()
	// The validation can fail: a level SARIF does not know, a result
	// without its message.
	s, r := sampleReport()
	log := sarifFor(s, r)
	log.Runs[0].Results[0].Level = "fail"
	raw, err := json.Marshal(log)
	require.NoError(t, err)
	sch := sarifSchemaOf(t)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	require.Error(t, sch.Validate(doc))
}

func TestSARIFOfAReport(t *testing.T) {
	t.Parallel()
	s, r := sampleReport()
	raw, err := json.Marshal(sarifFor(s, r))
	require.NoError(t, err)
	log := requireValidSARIF(t, raw)

	require.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	run := log.Runs[0]
	require.Equal(t, "GeoScan", run.Tool.Driver.Name)
	require.Equal(t, "geoscan/www.example.com/"+s.ID.String(), run.AutomationDetails.ID)
	require.True(t, run.Invocations[0].ExecutionSuccessful)

	// The failed check is an error, the warned one a warning, at the
	// scanned URL; the issue on many pages is at the pages it names. Pass,
	// na, info and error are no results.
	require.Len(t, run.Results, 3)
	byRule := map[string]sarifResult{}
	for _, res := range run.Results {
		byRule[res.RuleID] = res
		require.Equal(t, res.RuleID, run.Tool.Driver.Rules[res.RuleIndex].ID, "ruleIndex points at the result's rule")
		require.NotEmpty(t, res.PartialFingerprints["geoscanFinding/v1"])
	}
	fail := byRule["ai_search_bots_allowed"]
	require.Equal(t, "error", fail.Level)
	require.Equal(t, r.Checks[0].Summary, fail.Message.Text, "a SARIF viewer escapes the text it shows; the log keeps it as the site had it")
	require.Equal(t, []sarifLocation{sarifAt("https://www.example.com/")}, fail.Locations)
	require.Equal(t, "warning", byRule["sitemap_quality"].Level)
	pages := byRule["meta_description"]
	require.Equal(t, "warning", pages.Level)
	require.Equal(t, []sarifLocation{sarifAt("https://www.example.com/blog/2026/03/launch"), sarifAt("https://www.example.com/blog/2026/04/next")}, pages.Locations)
	require.Contains(t, pages.Message.Text, "212 of the 500 pages")

	// The rule: the check's title, why it matters, and the fix as help.
	rule := run.Tool.Driver.Rules[fail.RuleIndex]
	require.Equal(t, "AiSearchBotsAllowed", rule.Name)
	require.Equal(t, "AI search engines may crawl the site", rule.ShortDescription.Text)
	require.Equal(t, "AI search engines that may not crawl the site cannot cite it.", rule.FullDescription.Text)
	require.Contains(t, rule.Help.Text, "Allow OAI-SearchBot in robots.txt.")
	require.Contains(t, rule.Help.Text, "Delete line 5: `Disallow: /`.")
	require.Contains(t, rule.Help.Markdown, "- Delete line 5")
	require.Equal(t, []string{"geo", "search", "crawl_access"}, rule.Properties.Tags)
	require.Empty(t, rule.HelpURI, "the checks have no page of their own to link to")
	require.Len(t, run.Tool.Driver.Rules, 3, "a rule per check with results")

	// The same finding keeps its fingerprint from scan to scan.
	again := sarifFor(&client.Scan{ID: uuid.New(), URL: s.URL}, r)
	require.Equal(t, fail.PartialFingerprints, again.Runs[0].Results[0].PartialFingerprints)
}

func TestSARIFOfAFailedScan(t *testing.T) {
	t.Parallel()
	s, _ := sampleReport()
	s.Status = client.ScanStatusFailed
	code, msg := "response_too_large", "The homepage is larger than 10 MiB."
	s.ErrorCode, s.ErrorMessage = &code, &msg
	raw, err := json.Marshal(sarifFor(s, nil))
	require.NoError(t, err)
	log := requireValidSARIF(t, raw)
	inv := log.Runs[0].Invocations[0]
	require.False(t, inv.ExecutionSuccessful)
	require.Contains(t, inv.ToolExecutionNotifications[0].Message.Text, "response_too_large")
	require.Empty(t, log.Runs[0].Results)
}

// junitShape is the Jenkins JUnit schema (junit-10.xsd): for each element,
// the attributes and children it may have, and the attributes it must.
// No schema file for JUnit is published in a package registry, so the
// report is checked against this transcription of the elements GeoScan
// writes.
var junitShape = map[string]struct{ attrs, required, children []string }{
	"testsuites": {attrs: []string{"name", "time", "tests", "failures", "disabled", "errors", "skipped"}, children: []string{"testsuite"}},
	"testsuite": {
		attrs:    []string{"name", "tests", "failures", "errors", "group", "time", "disabled", "skipped", "timestamp", "hostname", "id", "package", "file", "log", "url", "version"},
		required: []string{"name", "tests"}, children: []string{"properties", "testcase", "system-out", "system-err"},
	},
	"properties": {children: []string{"property"}},
	"property":   {attrs: []string{"name", "value"}, required: []string{"name", "value"}},
	"testcase":   {attrs: []string{"name", "assertions", "time", "classname", "status"}, required: []string{"name"}, children: []string{"skipped", "error", "failure", "system-out", "system-err"}},
	"skipped":    {attrs: []string{"message"}},
	"error":      {attrs: []string{"message", "type"}},
	"failure":    {attrs: []string{"message", "type"}},
	"system-out": {},
	"system-err": {},
}

// requireValidJUnit checks a JUnit report against junitShape and that its
// counts add up, and returns it decoded.
func requireValidJUnit(t *testing.T, raw []byte) junitSuites {
	t.Helper()
	require.True(t, bytes.HasPrefix(raw, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)))
	dec := xml.NewDecoder(bytes.NewReader(raw))
	var stack []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "not well-formed XML")
		switch el := tok.(type) {
		case xml.StartElement:
			name := el.Name.Local
			shape, ok := junitShape[name]
			require.True(t, ok, "<%s> is no JUnit element", name)
			if len(stack) == 0 {
				require.Equal(t, "testsuites", name, "the root")
			} else {
				parent := stack[len(stack)-1]
				require.Contains(t, junitShape[parent].children, name, "<%s> in <%s>", name, parent)
			}
			var have []string
			for _, a := range el.Attr {
				require.Contains(t, shape.attrs, a.Name.Local, "<%s %s>", name, a.Name.Local)
				have = append(have, a.Name.Local)
			}
			for _, a := range shape.required {
				require.Contains(t, have, a, "<%s> needs %s", name, a)
			}
			stack = append(stack, name)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && !slices.Contains([]string{"failure", "error", "system-out", "system-err"}, stack[len(stack)-1]) {
				require.Empty(t, strings.TrimSpace(string(el)), "text in <%s>", stack[len(stack)-1])
			}
		}
	}
	var out junitSuites
	require.NoError(t, xml.Unmarshal(raw, &out))
	tests, failures, errs, skipped := 0, 0, 0, 0
	for _, su := range out.Suites {
		f, e, s := 0, 0, 0
		for _, c := range su.Cases {
			n := 0
			if c.Failure != nil {
				f, n = f+1, n+1
			}
			if c.Error != nil {
				e, n = e+1, n+1
			}
			if c.Skipped != nil {
				s, n = s+1, n+1
			}
			require.LessOrEqual(t, n, 1, "a test case has one outcome")
		}
		require.Equal(t, []int{len(su.Cases), f, e, s}, []int{su.Tests, su.Failures, su.Errors, su.Skipped}, "the counts of %s", su.Name)
		tests, failures, errs, skipped = tests+su.Tests, failures+f, errs+e, skipped+s
	}
	require.Equal(t, []int{tests, failures, errs, skipped}, []int{out.Tests, out.Failures, out.Errors, out.Skipped})
	return out
}

func TestJUnitOfAReport(t *testing.T) {
	t.Parallel()
	s, r := sampleReport()
	raw, err := xml.MarshalIndent(junitFor(s, r), "", "  ")
	require.NoError(t, err)
	out := requireValidJUnit(t, append([]byte(xml.Header), raw...))

	require.Equal(t, "GeoScan https://www.example.com/", out.Name)
	var names []string
	cases := map[string]junitCase{}
	for _, su := range out.Suites {
		names = append(names, su.Name)
		for _, c := range su.Cases {
			cases[strings.SplitN(c.Name, ":", 2)[0]] = c
		}
	}
	require.Equal(t, []string{"Search / Crawl access", "Search / Discovery", "AI trust / AI mentions"}, names, "a suite per pillar, in ring order")
	require.Equal(t, 6, out.Tests)
	require.Equal(t, 1, out.Failures)
	require.Equal(t, 1, out.Errors)
	require.Equal(t, 2, out.Skipped)

	fail := cases["ai_search_bots_allowed"]
	require.NotNil(t, fail.Failure)
	require.Equal(t, "robots.txt blocks OAI-SearchBot\n::error::injected \\x1b[2J 100%", fail.Failure.Message, "shown as the tables show it")
	require.Contains(t, fail.Failure.Text, "Allow OAI-SearchBot in robots.txt.")
	require.Equal(t, "geoscan.search.crawl_access", fail.ClassName)
	warn := cases["sitemap_quality"]
	require.Nil(t, warn.Failure, "a warned check passes, partly")
	require.Contains(t, warn.SystemOut, "warn: 2 of 10 sitemap URLs redirect.")
	require.Nil(t, cases["robots_txt_fetchable"].Failure)
	require.Nil(t, cases["robots_txt_fetchable"].Skipped)
	require.Equal(t, "does not apply: The site has one language.", cases["hreflang_valid"].Skipped.Message)
	// Not measured is never failed.
	require.Equal(t, "not scored: Insufficient data: 3 of 9 answers.", cases["llm_search_citation"].Skipped.Message)
	require.Nil(t, cases["llm_search_citation"].Failure)
	require.NotNil(t, cases["llm_brand_recognition"].Error)
	require.Nil(t, cases["llm_brand_recognition"].Failure)
	props := map[string]string{}
	for _, p := range out.Suites[2].Properties {
		props[p.Name] = p.Value
	}
	require.Equal(t, "not measured", props["score"])
}

func TestJUnitOfAFailedScan(t *testing.T) {
	t.Parallel()
	s, _ := sampleReport()
	code := "response_too_large"
	s.ErrorCode = &code
	raw, err := xml.Marshal(junitFor(s, nil))
	require.NoError(t, err)
	out := requireValidJUnit(t, append([]byte(xml.Header), raw...))
	require.Equal(t, 1, out.Errors)
	require.Equal(t, "response_too_large", out.Suites[0].Cases[0].Error.Type)
}

func TestWorkflowCommandEscaping(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	workflowCommand(&b, "error", [][2]string{{"file", "https://example.com:8443/a,b"}, {"title", "x: 100%\nnext"}},
		"line one\nline two\r ::warning::no 50% \x1b[2J")
	require.Equal(t, "::error file=https%3A//example.com%3A8443/a%2Cb,title=x%3A 100%25%0Anext::line one%0Aline two\\r ::warning::no 50%25 \\x1b[2J\n", b.String())
	require.Equal(t, 1, strings.Count(b.String(), "\n"), "one command, one line")

	_, r := sampleReport()
	b.Reset()
	annotate(&b, r, []string{"https://www.example.com/: the Search ring is 50, below the minimum of 70"})
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, got, 3, "a failed check, a warned one, a score below its minimum: %q", b.String())
	require.True(t, strings.HasPrefix(got[0], "::error file=https%3A//www.example.com/,title=ai_search_bots_allowed%3A AI search engines may crawl the site::robots.txt blocks OAI-SearchBot%0A::error::injected \\x1b[2J 100%25%0AAllow"), got[0])
	require.True(t, strings.HasPrefix(got[1], "::warning file=https%3A//www.example.com/,title=sitemap_quality"), got[1])
	require.Equal(t, "::error title=GeoScan score below the minimum::https://www.example.com/: the Search ring is 50, below the minimum of 70", got[2])
}

func TestFailUnder(t *testing.T) {
	t.Parallel()
	th := thresholds{}
	require.NoError(t, th.Set("search=70,trust=40"))
	require.NoError(t, th.Set("55.5"))
	require.Equal(t, "overall=55.5,search=70,trust=40", th.String())
	for _, bad := range []string{"speed=3", "search=101", "search=-1", "search=x", ""} {
		require.Error(t, thresholds{}.Set(bad), bad)
	}
	_, r := sampleReport()
	below := th.below(r.URL, reportScores(r))
	require.Equal(t, []string{
		"https://www.example.com/: the overall score is 48.2, below the minimum of 55.5",
		"https://www.example.com/: the Search ring is 50, below the minimum of 70",
	}, below, "trust 55 meets 40")
	// A score that was not measured is below nothing.
	require.NoError(t, th.failUnderError("u", scores{"overall": nil}))
	var exit *exitError
	require.ErrorAs(t, th.failUnderError(r.URL, reportScores(r)), &exit)
	require.Equal(t, exitBelowScore, exit.code)
}

// TestCIOutputOfRealScans runs scan create and scan report with the CI
// flags against a server: the files are valid, GitHub Actions gets its
// annotations, --fail-under sets the exit code, and a scan that fails
// writes files that say so.
func TestCIOutputOfRealScans(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)
	dir := t.TempDir()
	sarifPath, junitPath := filepath.Join(dir, "geo.sarif"), filepath.Join(dir, "geo.xml")
	gh := map[string]string{"GEOSCAN_API_URL": c.h.BaseURL, "GEOSCAN_API_KEY": c.org.Key, "GITHUB_ACTIONS": "true"}

	// --sarif implies --wait; search=100 cannot be met by the broken site.
	code, out, errOut := c.geoscanWith(t, gh, "", "scan", "create", c.sites.URL(testsite.Broken),
		"--sarif", sarifPath, "--junit", junitPath, "--fail-under", "search=100")
	require.Equal(t, exitBelowScore, code, "stderr: %s", errOut)
	id := scanID(t, out)
	require.Regexp(t, `(?m)^Status\s+completed$`, out)
	require.Regexp(t, `the Search ring is \d+, below the minimum of 100`, errOut)
	require.Contains(t, errOut, "SARIF log written to "+sarifPath)
	require.Regexp(t, `(?m)^::error file=https%3A//[^,]+,title=[a-z_]+%3A .+::.+$`, out, "annotations on stdout")
	require.Regexp(t, `(?m)^::error title=GeoScan score below the minimum::`, out)

	raw, err := os.ReadFile(sarifPath)
	require.NoError(t, err)
	log := requireValidSARIF(t, raw)
	require.NotEmpty(t, log.Runs[0].Results)
	for _, res := range log.Runs[0].Results {
		require.Contains(t, []string{"error", "warning"}, res.Level)
		require.Equal(t, c.sites.URL(testsite.Broken), res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
	}
	raw, err = os.ReadFile(junitPath)
	require.NoError(t, err)
	suites := requireValidJUnit(t, raw)
	require.Positive(t, suites.Failures)
	require.Positive(t, suites.Skipped)
	annotations := regexp.MustCompile(`(?m)^::(error|warning) file=`).FindAllString(out, -1)
	require.Len(t, annotations, len(log.Runs[0].Results)-pageResults(log), "an annotation per finding at the scanned URL")

	// scan report --json: stdout stays JSON, the annotations go to stderr.
	reportSARIF := filepath.Join(dir, "report.sarif")
	code, out, errOut = c.geoscanWith(t, gh, "", "scan", "report", id, "--json", "--sarif", reportSARIF, "--fail-under", "overall=0")
	require.Equal(t, 0, code, errOut)
	var rep client.Report
	require.NoError(t, json.Unmarshal([]byte(out), &rep), "stdout is the report's JSON alone: %s", out)
	require.Contains(t, errOut, "::error file=")
	raw, err = os.ReadFile(reportSARIF)
	require.NoError(t, err)
	require.Len(t, requireValidSARIF(t, raw).Runs[0].Results, len(log.Runs[0].Results), "the same findings as from create")

	// Outside GitHub Actions no annotations; --fail-under on the report.
	code, out, errOut = c.geoscan(t, "scan", "report", id, "--fail-under", "overall=100")
	require.Equal(t, exitBelowScore, code, errOut)
	require.NotContains(t, out, "::error")
	require.Regexp(t, `the overall score is [\d.]+, below the minimum of 100`, errOut)

	// A scan that fails: exit 3, and the files say why.
	code, _, errOut = c.geoscan(t, "scan", "create", c.sites.URL(testsite.Huge), "--junit", junitPath, "--sarif", sarifPath)
	require.Equal(t, exitScanFailed, code, errOut)
	raw, err = os.ReadFile(junitPath)
	require.NoError(t, err)
	suites = requireValidJUnit(t, raw)
	require.Equal(t, 1, suites.Errors)
	require.Equal(t, "response_too_large", suites.Suites[0].Cases[0].Error.Type)
	raw, err = os.ReadFile(sarifPath)
	require.NoError(t, err)
	require.False(t, requireValidSARIF(t, raw).Runs[0].Invocations[0].ExecutionSuccessful)

	// A bad threshold is a command-line mistake.
	code, _, errOut = c.geoscan(t, "scan", "report", id, "--fail-under", "speed=3")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `"speed" is not a score`)
}

func TestScanAndScheduleLanguage(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)

	code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.Docs), "--language", "de")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Language\s+de$`, out)
	code, out, _ = c.geoscan(t, "scan", "get", scanID(t, out), "--json")
	require.Equal(t, 0, code)
	var s client.Scan
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	require.Equal(t, client.ScanLanguage("de"), *s.Language)

	code, out, errOut = c.geoscan(t, "scan", "create", c.sites.URL(testsite.Docs), "--language", "it")
	require.Equal(t, 1, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "param language")
	require.Contains(t, errOut, "HTTP 422")
	for _, l := range []string{"en", "de", "fr", "es"} {
		require.Regexp(t, `\b`+l+`\b`, errOut, "the refusal names the languages")
	}

	code, out, errOut = c.geoscan(t, "schedule", "create", "https://www.example.com/", "--language", "fr")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Language\s+fr$`, out)
	code, _, errOut = c.geoscan(t, "schedule", "create", "https://www.example.org/", "--language", "xx")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "param language")
}

func TestDevURL(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]string{
		"":               "http://127.0.0.1:8080",
		":9090":          "http://127.0.0.1:9090",
		"0.0.0.0:7000":   "http://127.0.0.1:7000",
		"127.0.0.2:8081": "http://127.0.0.2:8081",
	} {
		got := devURL(func(k string) string {
			if k == "GEOSCAN_HTTP_ADDR" {
				return addr
			}
			return ""
		})
		require.Equal(t, want, got, strconv.Quote(addr))
	}
}

// pageResults counts the results about many pages of a whole-site audit.
func pageResults(log sarifLog) int {
	n := 0
	for _, res := range log.Runs[0].Results {
		if _, ok := res.Properties["pagesAffected"]; ok {
			n++
		}
	}
	return n
}
