package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/geoscan/geoscan/gen/client"
)

// What CI systems read from a scan: a SARIF 2.1.0 log (GitHub code
// scanning and other SARIF viewers), a JUnit XML report (the test report
// of nearly every CI), GitHub Actions annotations, and --fail-under.

// ciFlags are the flags of the commands that write CI output (scan create
// and scan report).
type ciFlags struct {
	sarif, junit *string
	failUnder    thresholds
}

func addCIFlags(fs *flag.FlagSet) ciFlags {
	f := ciFlags{failUnder: thresholds{}}
	f.sarif = fs.String("sarif", "", "write the failed and warned checks as a SARIF 2.1.0 log to FILE (GitHub code scanning)")
	f.junit = fs.String("junit", "", "write every check as a JUnit XML test report to FILE: a test suite per pillar")
	fs.Var(f.failUnder, "fail-under", "exit with code 4 when a score is below a minimum: RING=N for search, visibility or trust, overall=N (or N) for the overall score; repeatable, or comma-separated")
	return f
}

// any reports whether CI output or a threshold was asked for.
func (f ciFlags) any() bool { return *f.sarif != "" || *f.junit != "" || len(f.failUnder) > 0 }

// thresholds is --fail-under: the lowest score allowed, by "overall",
// "search", "visibility" or "trust".
type thresholds map[string]float64

var scoreNames = []string{"overall", "search", "visibility", "trust"}

func (t thresholds) String() string {
	var parts []string
	for _, name := range scoreNames {
		if v, ok := t[name]; ok {
			parts = append(parts, name+"="+strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	return strings.Join(parts, ",")
}

func (t thresholds) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		name, num, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			name, num = "overall", name
		}
		if !oneOf(name, scoreNames...) {
			return fmt.Errorf("%q is not a score: overall, search, visibility or trust", name)
		}
		n, err := strconv.ParseFloat(num, 64)
		if err != nil || n < 0 || n > 100 {
			return fmt.Errorf("%s=%s: the minimum is a number from 0 to 100", name, num)
		}
		t[name] = n
	}
	return nil
}

// scores are a scan's overall score and ring scores; nil where not scored.
type scores map[string]*float64

func scanScores(s *client.Scan) scores {
	ring := func(p *int) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	return scores{"overall": s.OverallScore, "search": ring(s.SearchScore), "visibility": ring(s.VisibilityScore), "trust": ring(s.TrustScore)}
}

func reportScores(r *client.Report) scores {
	ring := func(v int) *float64 {
		f := float64(v)
		return &f
	}
	overall := r.OverallScore
	return scores{"overall": &overall, "search": ring(r.Rings.Search.Score), "visibility": ring(r.Rings.Visibility.Score), "trust": ring(r.Rings.Trust.Score)}
}

// below returns a sentence for each score under its minimum, in the order
// overall, search, visibility, trust. A score that was not measured is not
// below anything.
func (t thresholds) below(url string, s scores) []string {
	var out []string
	for _, name := range scoreNames {
		least, ok := t[name]
		if !ok || s[name] == nil || *s[name] >= least {
			continue
		}
		what := "the " + ringLabelOf(name) + " ring"
		if name == "overall" {
			what = "the overall score"
		}
		out = append(out, sprintf("%s: %s is %s, below the minimum of %g", url, what, strconv.FormatFloat(*s[name], 'f', -1, 64), least))
	}
	return out
}

func ringLabelOf(name string) string {
	switch name {
	case "search":
		return "Search"
	case "visibility":
		return "AI visibility"
	}
	return "AI trust"
}

// failUnderError is the exit of --fail-under, or nil when every score is
// at or above its minimum.
func (t thresholds) failUnderError(url string, s scores) error {
	if msgs := t.below(url, s); len(msgs) > 0 {
		return &exitError{code: exitBelowScore, msg: strings.Join(msgs, "\n")}
	}
	return nil
}

// writeCIFiles writes the SARIF log and the JUnit report asked for, from a
// completed scan's report, or, when the scan failed (r is nil), files that
// say so: a SARIF run whose execution did not succeed and a JUnit error.
func writeCIFiles(e env, f ciFlags, s *client.Scan, r *client.Report) error {
	if *f.sarif != "" {
		b, err := json.MarshalIndent(sarifFor(s, r), "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*f.sarif, append(b, '\n'), 0o644); err != nil { //nolint:gosec // a report the user asked for
			return fmt.Errorf("write the SARIF log: %w", err)
		}
		printf(e.stderr, "SARIF log written to %s\n", *f.sarif)
	}
	if *f.junit != "" {
		b, err := xml.MarshalIndent(junitFor(s, r), "", "  ")
		if err != nil {
			return err
		}
		out := append([]byte(xml.Header), b...)
		if err := os.WriteFile(*f.junit, append(out, '\n'), 0o644); err != nil { //nolint:gosec // a report the user asked for
			return fmt.Errorf("write the JUnit report: %w", err)
		}
		printf(e.stderr, "JUnit report written to %s\n", *f.junit)
	}
	return nil
}

// SARIF 2.1.0: the parts of the format GeoScan writes.

const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool         `json:"tool"`
	AutomationDetails sarifAutomation   `json:"automationDetails"`
	Invocations       []sarifInvocation `json:"invocations"`
	Results           []sarifResult     `json:"results"`
	Properties        map[string]any    `json:"properties,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name    string      `json:"name"`
	Version string      `json:"version,omitempty"`
	Rules   []sarifRule `json:"rules"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	EndTimeUTC                 string              `json:"endTimeUtc,omitempty"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifMessage    `json:"shortDescription"`
	FullDescription      *sarifMessage   `json:"fullDescription,omitempty"`
	Help                 *sarifMessage   `json:"help,omitempty"`
	HelpURI              string          `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           sarifRuleProps  `json:"properties"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags   []string `json:"tags"`
	Ring   string   `json:"ring,omitempty"`
	Pillar string   `json:"pillar,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

// sarifFor is the SARIF log of a scan: a result for each failed check
// (level error) and each warned one (warning) at the scanned URL, and one
// for each issue found on many pages of a whole-site audit, at the pages
// it names. Each result's rule carries the check's title, why it matters
// and how to fix it.
func sarifFor(s *client.Scan, r *client.Report) sarifLog {
	run := sarifRun{
		Tool:              sarifTool{Driver: sarifDriver{Name: "GeoScan", Rules: []sarifRule{}}},
		AutomationDetails: sarifAutomation{ID: "geoscan/" + hostOf(s.URL) + "/" + s.ID.String()},
		Results:           []sarifResult{},
	}
	if r == nil {
		run.Invocations = []sarifInvocation{{
			ExecutionSuccessful: false,
			ToolExecutionNotifications: []sarifNotification{{
				Level:   "error",
				Message: sarifMessage{Text: sprintf("The scan of %s failed: %s (%s)", s.URL, orDash(s.ErrorMessage), orDash(s.ErrorCode))},
			}},
		}}
		return sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}
	}
	run.Tool.Driver.Version = r.ScoringVersion
	run.Invocations = []sarifInvocation{{ExecutionSuccessful: true, EndTimeUTC: r.GeneratedAt.UTC().Format("2006-01-02T15:04:05Z")}}
	run.Properties = map[string]any{
		"scanId": s.ID.String(), "url": r.URL, "overallScore": r.OverallScore, "overallGrade": string(r.OverallGrade),
		"searchScore": r.Rings.Search.Score, "visibilityScore": r.Rings.Visibility.Score, "trustScore": r.Rings.Trust.Score,
	}
	checks := map[string]client.CheckResult{}
	for _, c := range r.Checks {
		checks[c.ID] = c
	}
	ruleIndex := map[string]int{}
	rule := func(id string) int {
		if i, ok := ruleIndex[id]; ok {
			return i
		}
		ruleIndex[id] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleFor(id, checks[id]))
		return ruleIndex[id]
	}
	for _, c := range r.Checks {
		level := sarifLevel(c.Status)
		if level == "" {
			continue
		}
		text := c.Summary
		res := sarifResult{
			RuleID: c.ID, RuleIndex: rule(c.ID), Level: level,
			Message:             sarifMessage{Text: text},
			Locations:           []sarifLocation{sarifAt(r.URL)},
			PartialFingerprints: map[string]string{"geoscanFinding/v1": fingerprint(c.ID, r.URL)},
			Properties:          map[string]any{"status": string(c.Status), "impact": string(c.Impact), "effort": string(c.Effort)},
		}
		if c.ExpectedGain != nil {
			res.Properties["expectedGain"] = *c.ExpectedGain
		}
		run.Results = append(run.Results, res)
	}
	if r.CrossCuttingIssues != nil {
		for _, is := range *r.CrossCuttingIssues {
			if len(is.ExampleUrls) == 0 {
				continue
			}
			res := sarifResult{
				RuleID: is.CheckID, RuleIndex: rule(is.CheckID), Level: "warning",
				Message: sarifMessage{Text: sprintf("Fails or warns on %d of the %d pages audited (templates: %s); fixing it everywhere adds %.1f points to the site score.",
					is.PagesAffected, is.PagesAudited, strings.Join(is.Groups, ", "), is.ExpectedGain)},
				PartialFingerprints: map[string]string{"geoscanFinding/v1": fingerprint(is.CheckID, "pages:"+strings.Join(is.Groups, " "))},
				Properties:          map[string]any{"pagesAffected": is.PagesAffected, "pagesAudited": is.PagesAudited},
			}
			for _, u := range is.ExampleUrls {
				res.Locations = append(res.Locations, sarifAt(u))
			}
			run.Results = append(run.Results, res)
		}
	}
	return sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}}
}

// hostOf is the host of a URL ("www.example.com:8443"), or the URL when
// it has none: the category of a site's runs in code scanning.
func hostOf(u string) string {
	if p, err := url.Parse(u); err == nil && p.Host != "" {
		return p.Host
	}
	return u
}

func sarifLevel(st client.CheckStatus) string {
	switch st {
	case client.CheckStatusFail:
		return "error"
	case client.CheckStatusWarn:
		return "warning"
	}
	return ""
}

func sarifAt(uri string) sarifLocation {
	return sarifLocation{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: uri}}}
}

// fingerprint identifies a finding across scans (a check at a place), so
// code scanning tracks one alert rather than a new one per scan.
func fingerprint(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

func sarifRuleFor(id string, c client.CheckResult) sarifRule {
	title := c.Title
	if title == "" {
		title = id
	}
	r := sarifRule{
		ID: id, Name: pascal(id),
		ShortDescription:     sarifMessage{Text: title},
		DefaultConfiguration: sarifRuleConfig{Level: "warning"},
		Properties:           sarifRuleProps{Tags: []string{"geo"}, Ring: string(c.Ring), Pillar: c.Pillar},
	}
	if c.Ring != "" {
		r.Properties.Tags = append(r.Properties.Tags, string(c.Ring), c.Pillar)
	}
	if c.WhyItMatters != "" {
		r.FullDescription = &sarifMessage{Text: c.WhyItMatters}
	}
	if help, md := fixText(c); help != "" {
		r.Help = &sarifMessage{Text: help, Markdown: md}
	}
	return r
}

// fixText is how to fix a check, as text and as Markdown: the
// recommendation, then the fix written for the site (what to change, the
// edits, where on the platform) when the scan wrote one.
func fixText(c client.CheckResult) (text, markdown string) {
	var t, m []string
	if c.Recommendation != nil && *c.Recommendation != "" {
		t = append(t, *c.Recommendation)
		m = append(m, *c.Recommendation)
	}
	if f := c.Fix; f != nil {
		if f.Summary != "" {
			t = append(t, f.Summary)
			m = append(m, f.Summary)
		}
		if len(f.Edits) > 0 {
			t = append(t, strings.Join(f.Edits, "\n"))
			m = append(m, "- "+strings.Join(f.Edits, "\n- "))
		}
		if len(f.PlatformSteps) > 0 {
			t = append(t, f.Platform+": "+strings.Join(f.PlatformSteps, "\n"))
			m = append(m, "On "+f.Platform+":\n\n- "+strings.Join(f.PlatformSteps, "\n- "))
		}
	}
	return strings.Join(t, "\n\n"), strings.Join(m, "\n\n")
}

// pascal is "ai_search_bots_allowed" as "AiSearchBotsAllowed", the usual
// spelling of a SARIF rule's name.
func pascal(id string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(id, func(r rune) bool { return r == '_' || r == '-' }) {
		rs := []rune(w)
		rs[0] = unicode.ToUpper(rs[0])
		b.WriteString(string(rs))
	}
	return b.String()
}

// JUnit XML: the shape Jenkins, GitLab, GitHub's test reporters and most
// CI systems read.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// junitFor is the JUnit report of a scan: a test suite per pillar (named
// "Ring / Pillar"), a test case per check. A failed check is a failure, a
// check that could not be measured an error, one that does not apply or
// is not scored (na, info) is skipped with the reason, never failed; a
// warned check passes, its finding in system-out. A failed scan is one
// suite with one error.
func junitFor(s *client.Scan, r *client.Report) junitSuites {
	out := junitSuites{Name: "GeoScan " + xmlText(s.URL)}
	if r == nil {
		out.Suites = []junitSuite{{
			Name: "scan", Tests: 1, Errors: 1,
			Cases: []junitCase{{
				Name: "scan " + s.ID.String(), ClassName: "geoscan",
				Error: &junitProblem{Message: xmlText(sprintf("the scan failed: %s", orDash(s.ErrorMessage))), Type: xmlText(orDash(s.ErrorCode))},
			}},
		}}
		out.Tests, out.Errors = 1, 1
		return out
	}
	out.Name = "GeoScan " + xmlText(r.URL)
	ts := r.GeneratedAt.UTC().Format("2006-01-02T15:04:05")
	byPillar := map[string][]client.CheckResult{}
	for _, c := range r.Checks {
		byPillar[string(c.Ring)+"/"+c.Pillar] = append(byPillar[string(c.Ring)+"/"+c.Pillar], c)
	}
	seen := map[string]bool{}
	var suites []junitSuite
	for _, ring := range []client.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
		for _, p := range ring.Pillars {
			key := string(ring.Ring) + "/" + p.ID
			seen[key] = true
			score := "not measured"
			if p.Score != nil {
				score = strconv.Itoa(*p.Score)
			}
			suite := junitSuite{
				Name: ringLabel(ring.Ring) + " / " + xmlText(p.Name), Timestamp: ts,
				Properties: []junitProperty{{"ring", string(ring.Ring)}, {"pillar", p.ID}, {"score", score}, {"ring score", strconv.Itoa(ring.Score)}},
			}
			suite.add(byPillar[key])
			suites = append(suites, suite)
		}
	}
	// Checks of a pillar the rings do not list (none today) still count.
	var rest []string
	for key := range byPillar {
		if !seen[key] {
			rest = append(rest, key)
		}
	}
	sort.Strings(rest)
	for _, key := range rest {
		suite := junitSuite{Name: key, Timestamp: ts}
		suite.add(byPillar[key])
		suites = append(suites, suite)
	}
	for _, su := range suites {
		out.Tests += su.Tests
		out.Failures += su.Failures
		out.Errors += su.Errors
		out.Skipped += su.Skipped
	}
	out.Suites = suites
	return out
}

// xmlText is text from a site for an XML file: XML 1.0 cannot carry most
// control characters (an encoder would drop them), so what would act on a
// terminal is written as its Go escape, as the tables show it; line
// breaks stay.
func xmlText(s string) string { return escapeKeeping(s, true) }

func (su *junitSuite) add(checks []client.CheckResult) {
	for _, c := range checks {
		c.Summary, c.Title = xmlText(c.Summary), xmlText(c.Title)
		tc := junitCase{Name: c.ID + ": " + c.Title, ClassName: "geoscan." + string(c.Ring) + "." + c.Pillar}
		help, _ := fixText(c)
		help = xmlText(help)
		switch c.Status {
		case client.CheckStatusFail:
			tc.Failure = &junitProblem{Message: c.Summary, Type: "fail", Text: help}
			su.Failures++
		case client.CheckStatusError:
			tc.Error = &junitProblem{Message: c.Summary, Type: "error", Text: "The check could not be measured: " + c.Summary}
			su.Errors++
		case client.CheckStatusNa:
			tc.Skipped = &junitSkipped{Message: "does not apply: " + c.Summary}
			su.Skipped++
		case client.CheckStatusInfo:
			tc.Skipped = &junitSkipped{Message: "not scored: " + c.Summary}
			su.Skipped++
		case client.CheckStatusWarn:
			tc.SystemOut = "warn: " + c.Summary
			if help != "" {
				tc.SystemOut += "\n\n" + help
			}
		default:
			tc.SystemOut = string(c.Status) + ": " + c.Summary
		}
		su.Tests++
		su.Cases = append(su.Cases, tc)
	}
}

// GitHub Actions annotations: workflow commands the runner turns into
// annotations on the run and the pull request.

// annotate writes an ::error annotation for each failed check and a
// ::warning for each warned one, at the scanned URL, then one for each
// score under its --fail-under minimum.
func annotate(w io.Writer, r *client.Report, below []string) {
	for _, c := range r.Checks {
		cmd := ""
		switch c.Status {
		case client.CheckStatusFail:
			cmd = "error"
		case client.CheckStatusWarn:
			cmd = "warning"
		default:
			continue
		}
		msg := c.Summary
		if c.Recommendation != nil && *c.Recommendation != "" {
			msg += "\n" + *c.Recommendation
		}
		workflowCommand(w, cmd, [][2]string{{"file", r.URL}, {"title", c.ID + ": " + c.Title}}, msg)
	}
	for _, b := range below {
		workflowCommand(w, "error", [][2]string{{"title", "GeoScan score below the minimum"}}, b)
	}
}

// workflowCommand writes "::cmd key=value,…::message" with GitHub's
// escaping: in the message %, CR and LF become %25, %0D and %0A; in a
// property also : and , (%3A, %2C). What would act on a terminal (the
// log viewer renders ANSI sequences) is escaped first, as everywhere in
// the package (a CR shows as \r); the line breaks are kept for the
// workflow escaping to encode.
func workflowCommand(w io.Writer, cmd string, props [][2]string, msg string) {
	data := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	var b strings.Builder
	b.WriteString("::" + cmd)
	for i, p := range props {
		if i == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(p[0] + "=" + prop.Replace(escapeKeeping(p[1], true)))
	}
	b.WriteString("::" + data.Replace(escapeKeeping(msg, true)) + "\n")
	_, _ = io.WriteString(w, b.String())
}
