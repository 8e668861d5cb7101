package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/store/pgcluster"
	"github.com/geoscan/geoscan/internal/testing/browsertest"
	"github.com/geoscan/geoscan/internal/testing/debtool"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

var update = flag.Bool("update", false, "rewrite the generated blocks of README.md and docs/*.md")

// regenerate is the command that rewrites the generated blocks.
const regenerate = "go run ./cmd/testdb -- go test ./internal/cli -run TestDocs -update (or make docs)"

// TestDocsShowWhatTheCodePrints keeps every output that README.md and
// docs/*.md show between <!-- generated: NAME --> and <!-- end generated -->
// equal to what the commands print: it runs the offline walkthrough (the
// fixture sites, `geoscan dev`, curl's requests, the client commands) and
// `geoscan demo` in-process and compares. What changes from run to run
// (ports, ids, keys, times, temporary paths, byte counts) is replaced by
// fixed sample values.
//
// One check of every scan reads time: the median time to first byte passes
// up to 800 ms. So the test is not parallel (the package's other tests wait
// while it scans), and when a page differs it scans once more and compares
// with that run: a drift shows in both, a machine too busy to answer within
// 800 ms rarely twice.
func TestDocsShowWhatTheCodePrints(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	pages = append([]string{"../../README.md"}, pages...)

	blocks := docBlocks(t)
	if t.Failed() {
		return
	}
	if !*update && len(staleBlocks(t, pages, blocks)) > 0 {
		t.Log("a page differs from this run's output; running again to tell a drift from a busy machine")
		blocks = docBlocks(t)
		if t.Failed() {
			return
		}
	}
	for _, s := range staleBlocks(t, pages, blocks) {
		require.Equal(t, s.want, s.shown, "%s: the block %q shows output the code no longer prints; rewrite it with %s",
			s.page, s.name, regenerate)
	}
}

// docBlocks runs what the pages show and returns each block by name.
func docBlocks(t *testing.T) map[string]string {
	t.Helper()
	var demo, walkthrough map[string]string
	// The demo and the walkthrough render pages when a browser is found
	// (GEOSCAN_RENDER=auto), and the pages show a run with one.
	browsertest.Path(t)
	t.Run("run", func(t *testing.T) {
		t.Run("demo", func(t *testing.T) {
			t.Parallel()
			demo = demoBlocks(t)
		})
		t.Run("walkthrough", func(t *testing.T) {
			t.Parallel()
			walkthrough = walkthroughBlocks(t)
		})
	})
	blocks := map[string]string{}
	for _, m := range []map[string]string{demo, walkthrough, helpBlocks(t)} {
		for k, v := range m {
			blocks[k] = v
		}
	}
	return blocks
}

type staleBlock struct{ page, name, want, shown string }

// staleBlocks returns the blocks of pages that differ from blocks; with
// -update it rewrites those pages instead. A block no page shows fails
// the test.
func staleBlocks(t *testing.T, pages []string, blocks map[string]string) []staleBlock {
	t.Helper()
	var stale []staleBlock
	used := map[string]bool{}
	for _, page := range pages {
		b, err := os.ReadFile(page)
		require.NoError(t, err)
		got, shown, err := rewriteBlocks(string(b), blocks)
		require.NoError(t, err, page)
		for name, body := range shown {
			used[name] = true
			if body != blocks[name] && !*update {
				stale = append(stale, staleBlock{strings.TrimPrefix(page, "../../"), name, blocks[name], body})
			}
		}
		if *update && got != string(b) {
			require.NoError(t, os.WriteFile(page, []byte(got), 0o644)) //nolint:gosec // a page of the documentation
		}
	}
	var unused []string
	for name := range blocks {
		if !used[name] {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	require.Empty(t, unused, "generated blocks no page shows; add <!-- generated: NAME --> and <!-- end generated --> where they belong")
	sort.Slice(stale, func(i, j int) bool { return stale[i].page+stale[i].name < stale[j].page+stale[j].name })
	return stale
}

// A block's markers stand alone on their lines, so prose may name them.
var (
	generatedBlock = regexp.MustCompile(`(?ms)^<!-- generated: ([a-z0-9-]+) -->\n(.*?)^<!-- end generated -->$`)
	generatedStart = regexp.MustCompile(`(?m)^<!-- generated: `)
)

// rewriteBlocks replaces the body of every generated block of text with
// the block of that name; shown maps each name met to the body the text
// had.
func rewriteBlocks(text string, blocks map[string]string) (out string, shown map[string]string, err error) {
	if len(generatedStart.FindAllString(text, -1)) != len(generatedBlock.FindAllString(text, -1)) {
		return "", nil, errors.New("a <!-- generated: NAME --> line has no <!-- end generated --> after it")
	}
	shown = map[string]string{}
	out = generatedBlock.ReplaceAllStringFunc(text, func(m string) string {
		sub := generatedBlock.FindStringSubmatch(m)
		name := sub[1]
		body, ok := blocks[name]
		if !ok {
			err = fmt.Errorf("no generated block is named %q", name)
			return m
		}
		shown[name] = sub[2]
		return "<!-- generated: " + name + " -->\n" + body + "<!-- end generated -->"
	})
	return out, shown, err
}

func TestDocsRewriteBlocks(t *testing.T) {
	t.Parallel()
	page := "intro\n<!-- generated: a -->\nold\n<!-- end generated -->\nmiddle\n<!-- generated: b -->\n<!-- end generated -->\n"
	got, shown, err := rewriteBlocks(page, map[string]string{"a": "new\n", "b": "```\nx\n```\n"})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"a": "old\n", "b": ""}, shown)
	require.Equal(t, "intro\n<!-- generated: a -->\nnew\n<!-- end generated -->\nmiddle\n<!-- generated: b -->\n```\nx\n```\n<!-- end generated -->\n", got)

	_, _, err = rewriteBlocks(page, map[string]string{"a": ""})
	require.ErrorContains(t, err, `"b"`)
	_, _, err = rewriteBlocks("<!-- generated: a -->\nno end\n", map[string]string{"a": ""})
	require.Error(t, err)
	prose := "Blocks sit between `<!-- generated: NAME -->` and `<!-- end generated -->`.\n"
	got, shown, err = rewriteBlocks(prose, nil)
	require.NoError(t, err)
	require.Equal(t, prose, got)
	require.Empty(t, shown)
}

// console renders a shell session: each command after "$ ", then its
// output.
type console struct{ b strings.Builder }

func (c *console) cmd(line string, output ...string) {
	c.b.WriteString("$ " + line + "\n")
	for _, o := range output {
		c.b.WriteString(o)
		if o != "" && !strings.HasSuffix(o, "\n") {
			c.b.WriteByte('\n')
		}
	}
}

func (c *console) block(n *normalizer) string {
	return "```console\n" + n.apply(c.b.String()) + "```\n"
}

// normalizer replaces what differs between runs with fixed sample values.
// One normalizer serves a whole session, so an id keeps its sample value
// from one block to the next.
type normalizer struct {
	session string
	exact   [][2]string
	ids     map[string]string
}

func newNormalizer(session string) *normalizer {
	return &normalizer{session: session, ids: map[string]string{}}
}

func (n *normalizer) replace(old, sample string) {
	if old != "" {
		n.exact = append(n.exact, [2]string{old, sample})
	}
}

var (
	uuidPattern  = regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	timePattern  = regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b`)
	bytesPattern = regexp.MustCompile(`\(\d+ bytes\)`)
	trailing     = regexp.MustCompile(`(?m)[ \t]+$`)
)

func (n *normalizer) apply(s string) string {
	for _, r := range n.exact {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	s = uuidPattern.ReplaceAllStringFunc(s, func(id string) string {
		if sample, ok := n.ids[id]; ok {
			return sample
		}
		sample := uuid.NewSHA1(uuid.NameSpaceURL, fmt.Appendf(nil, "geoscan docs %s %d", n.session, len(n.ids))).String()
		n.ids[id] = sample
		return sample
	})
	s = timePattern.ReplaceAllString(s, "2026-11-23T21:26:09Z")
	// A PDF's appendix lists how long each request took, so its size
	// varies by a few bytes from run to run.
	s = bytesPattern.ReplaceAllString(s, "(… bytes)")
	return trailing.ReplaceAllString(s, "")
}

// background runs a long-lived command until the test ends and returns
// its output so far.
func background(t *testing.T, vars map[string]string, args ...string) (stdout, stderr *syncWriter, exited <-chan int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = &syncWriter{}, &syncWriter{}
	done := make(chan int, 1)
	go func() { done <- Main(ctx, args, func(k string) string { return vars[k] }, stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Errorf("%v did not stop", args)
		}
	})
	return stdout, stderr, done
}

// waitFor polls out until it contains want, failing if the command exits.
func waitFor(t *testing.T, what string, out, errOut *syncWriter, exited <-chan int, want string) {
	t.Helper()
	ok, _ := poll.For(t, 2*time.Minute, func() (bool, bool) {
		select {
		case code := <-exited:
			t.Fatalf("%s exited with %d; stdout: %s\nstderr: %s", what, code, out.String(), errOut.String())
		default:
		}
		ok := strings.Contains(out.String(), want)
		return ok, ok
	})
	if !ok {
		t.Fatalf("%s printed no %q; stdout: %s\nstderr: %s", what, want, out.String(), errOut.String())
	}
}

// helpBlocks are the command lists of geoscan help and of each client
// command group.
func helpBlocks(t *testing.T) map[string]string {
	t.Helper()
	blocks := map[string]string{}
	for name, args := range map[string][]string{
		"cli-help":            {"help"},
		"cli-scan-help":       {"scan", "help"},
		"cli-scan-share-help": {"scan", "share", "help"},
		"cli-schedule-help":   {"schedule", "help"},
		"cli-logs-help":       {"logs", "help"},
		"cli-webhook-help":    {"webhook", "help"},
	} {
		code, out, errOut := runCLI(t, nil, args...)
		require.Equal(t, 0, code, errOut)
		var c console
		c.cmd("bin/geoscan "+strings.Join(args, " "), out)
		blocks[name] = c.block(newNormalizer(name))
	}
	return blocks
}

// demoBlocks runs `geoscan demo` as make demo does, with a private cluster
// of its own, and returns its output.
func demoBlocks(t *testing.T) map[string]string {
	t.Helper()
	root := pgcluster.EnterableTempDir(t)
	vars := map[string]string{"GEOSCAN_DATA_DIR": filepath.Join(root, ".data"), "GEOSCAN_LOG_LEVEL": "error"}
	code, out, errOut := runCLI(t, vars, "demo")
	require.Equal(t, 0, code, errOut)
	n := newNormalizer("demo")
	n.replace(root+string(filepath.Separator), "")
	if m := regexp.MustCompile(`through http://127\.0\.0\.1:(\d+)/`).FindStringSubmatch(out); m != nil {
		n.replace("127.0.0.1:"+m[1]+"/", "127.0.0.1:39705/")
	}
	var c console
	c.cmd("bin/geoscan demo", out)
	return map[string]string{"demo": c.block(n)}
}

// walkthroughBlocks follows the README's offline walkthrough.
func walkthroughBlocks(t *testing.T) map[string]string {
	t.Helper()
	blocks := map[string]string{}
	n := newNormalizer("walkthrough")
	// The server gets a private cluster of its own, as with make run: its
	// workers must not take the jobs of other tests' servers, which trust
	// another fixture CA, nor give them theirs.
	tmp := pgcluster.EnterableTempDir(t)
	n.replace(tmp+string(filepath.Separator), "")

	// The fixture sites, as `bin/geoscan fixtures | tee fixtures.env`.
	fixturesDir := filepath.Join(tmp, ".data", "fixtures")
	fxOut, fxErr, fxExit := background(t, nil, "fixtures", "--ca-dir", fixturesDir)
	printed := slices.Concat(testsite.Realistic, testsite.Crawl, testsite.Rendering)
	last := printed[len(printed)-1]
	waitFor(t, "geoscan fixtures", fxOut, fxErr, fxExit, "# "+last+" ")
	fixturesEnv := fxOut.String()
	vars := map[string]string{}
	urls := map[string]string{}
	for line := range strings.Lines(fixturesEnv) {
		line = strings.TrimSpace(line)
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			vars[k] = v
		}
		if f := strings.Fields(line); len(f) == 3 && f[0] == "#" {
			urls[f[1]] = f[2]
		}
	}
	site := urls[testsite.NextShell]
	require.NotEmpty(t, site, fixturesEnv)
	n.replace(":"+strings.TrimSuffix(site[strings.LastIndex(site, ":")+1:], "/")+"/", ":34543/")
	n.replace("GEOSCAN_PLAIN_HTTP_PORT="+vars["GEOSCAN_PLAIN_HTTP_PORT"], "GEOSCAN_PLAIN_HTTP_PORT=38575")
	var c console
	c.cmd("make build")
	// fixtures prints the absolute path of the CA file.
	c.cmd("bin/geoscan fixtures | tee fixtures.env", strings.ReplaceAll(fixturesEnv, fixturesDir, "<your checkout>/.data/fixtures"))
	blocks["fixtures"] = c.block(n)

	// The server, as `make run` does it after building.
	vars["GEOSCAN_DATA_DIR"] = filepath.Join(tmp, ".data")
	vars["GEOSCAN_HTTP_ADDR"] = "127.0.0.1:0"
	vars["GEOSCAN_LOG_LEVEL"] = "warn"
	devOut, devErr, devExit := background(t, vars, "dev")
	waitFor(t, "geoscan dev", devOut, devErr, devExit, "Press Ctrl-C to stop.")
	banner := devOut.String()
	// The browser's name and version are the machine's.
	if m := regexp.MustCompile(`Rendering  (on \([^)]*\))`).FindStringSubmatch(banner); m != nil {
		n.replace(m[1], "on (chromium-headless-shell 156.0.8078.108, 2 tabs)")
	}
	// So is whether the CJK font is installed.
	if m := regexp.MustCompile(`CJK font   (.*)`).FindStringSubmatch(banner); m != nil {
		n.replace(m[1], report.DefaultCJKFont)
	}
	key := printedKey.FindStringSubmatch(banner)[1]
	api := printedAPI.FindStringSubmatch(banner)[1]
	n.replace(key, "geo_GrBKq2Vd9LmX4bN8cR1tY6wK3sZ0pF5gJaEuC2")
	n.replace(strings.TrimSuffix(strings.TrimPrefix(api, "http://"), "/api/v1"), "127.0.0.1:8080")
	c = console{}
	c.cmd("set -a; . ./fixtures.env; set +a")
	// Its log lines, on stderr, are left out: they carry times.
	start, rest, _ := strings.Cut(banner, "\n\n")
	c.cmd("bin/geoscan dev", start+"\n…\n"+rest)
	blocks["make-run"] = c.block(n)

	// curl, as in the README.
	auth := `-H "X-API-Key: $KEY"`
	c = console{}
	c.cmd(`export KEY=$(cat .data/dev-api-key) API=http://127.0.0.1:8080/api/v1`)
	c.cmd(`SITE=$(awk '$2 == "nextshell" {print $3}' fixtures.env)`)
	filter := `{id, url, brand_name, status}`
	status, _, body := call(t, key, http.MethodPost, api+"/scans", fmt.Sprintf(`{"url": %q}`, site))
	require.Equal(t, http.StatusCreated, status, string(body))
	c.cmd(`curl -s -X POST $API/scans `+auth+` -H 'Content-Type: application/json' \`+"\n"+
		`    -d "{\"url\": \"$SITE\"}" | jq '`+filter+`'`, jq(t, filter, body))
	id := regexp.MustCompile(`"id":\s*"([^"]+)"`).FindSubmatch(body)[1]
	c.cmd("ID=" + string(id))
	c.cmd(`until curl -s $API/scans/$ID ` + auth + ` | jq -e '.status == "completed" or .status == "failed"' >/dev/null; do sleep 1; done`)
	scanURL := api + "/scans/" + string(id)
	scan, _ := poll.For(t, 2*time.Minute, func() ([]byte, bool) {
		_, _, b := call(t, key, http.MethodGet, scanURL, "")
		return b, regexp.MustCompile(`"status":\s*"(completed|failed)"`).Match(b)
	})
	require.Contains(t, string(scan), `"completed"`, "the walkthrough's scan did not complete")
	show := func(path, filter string) {
		t.Helper()
		status, _, body := call(t, key, http.MethodGet, api+path, "")
		require.Equal(t, http.StatusOK, status, string(body))
		shown := strings.ReplaceAll(path, string(id), "$ID")
		c.cmd("curl -s $API"+shown+" "+auth+" | jq '"+filter+"'", jq(t, filter, body))
	}
	show("/scans/"+string(id), `{status, overall_score, overall_grade, search_score, visibility_score, trust_score}`)
	show("/scans/"+string(id)+"/report", `{gates_fired: [.gates_fired[].id], capped: .rings.search.capped_by, executive: .summaries.executive}`)
	blocks["curl-scan"] = c.block(n)

	c = console{}
	show("/scans/"+string(id)+"/triage", `{js_framework: .platform.js_framework, complexity: .platform.complexity_bucket, quick_win_count, action_count, first_action: .priority_actions[0].label}`)
	status, header, _ := call(t, key, http.MethodGet, scanURL+"/pdf", "")
	c.cmd(`curl -s $API/scans/$ID/pdf `+auth+` -o nimbus.pdf -w '%{http_code} %{content_type}\n'`,
		fmt.Sprintf("%d %s\n", status, header.Get("Content-Type")))
	status, _, body = call(t, key, http.MethodGet, api+"/scans/export?status=completed", "")
	require.Equal(t, http.StatusOK, status, string(body))
	require.GreaterOrEqual(t, strings.Count(string(body), "\n"), 2, string(body))
	var head strings.Builder
	for _, line := range strings.SplitN(string(body), "\n", 3)[:2] {
		fields := strings.Split(line, ",")
		head.WriteString(strings.Join(fields[:min(15, len(fields))], ",") + "\n")
	}
	c.cmd(`curl -s "$API/scans/export?status=completed" `+auth+` -o scans.csv && head -2 scans.csv | cut -d, -f1-15`, head.String())
	blocks["curl-results"] = c.block(n)

	// The client commands.
	cli := map[string]string{"GEOSCAN_API_URL": strings.TrimSuffix(api, "/api/v1"), "GEOSCAN_API_KEY": key}
	geoscan := func(args ...string) (int, string, string) {
		t.Helper()
		return runCLI(t, cli, args...)
	}
	c = console{}
	c.cmd("export GEOSCAN_API_KEY=$KEY")
	// The progress lines on stderr depend on when each poll lands, so the
	// pages leave them out, as the command line they show says.
	code, out, errOut := geoscan("scan", "create", site, "--wait")
	require.Equal(t, 0, code, errOut)
	c.cmd(`bin/geoscan scan create "$SITE" --wait 2>/dev/null`, out)
	blocks["cli-wait"] = c.block(n)
	cliID := scanID(t, out)

	c = console{}
	code, out, errOut = geoscan("scan", "report", cliID)
	require.Equal(t, 0, code, errOut)
	c.cmd("bin/geoscan scan report "+cliID, out)
	blocks["cli-report"] = c.block(n)

	c = console{}
	code, out, errOut = geoscan("scan", "triage", cliID)
	require.Equal(t, 0, code, errOut)
	c.cmd("bin/geoscan scan triage "+cliID, out)
	blocks["cli-triage"] = c.block(n)

	c = console{}
	code, out, errOut = geoscan("scan", "pdf", cliID, "--audience", "engineering", "-o", filepath.Join(tmp, "nimbus-engineering.pdf"))
	require.Equal(t, 0, code, errOut)
	c.cmd("bin/geoscan scan pdf "+cliID+" --audience engineering -o nimbus-engineering.pdf", out)
	code, out, errOut = geoscan("scan", "export", "-o", filepath.Join(tmp, "scans.csv"))
	require.Equal(t, 0, code, errOut)
	c.cmd("bin/geoscan scan export -o scans.csv", out)
	code, out, errOut = geoscan("scan", "fixes", cliID, "--dir", filepath.Join(tmp, "nimbus-fixes"))
	require.Equal(t, 0, code, errOut)
	c.cmd("bin/geoscan scan fixes "+cliID+" --dir nimbus-fixes", out)
	blocks["cli-files"] = c.block(n)

	c = console{}
	code, _, errOut = geoscan("scan", "create", site, "--min-score", "60")
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	c.cmd(`bin/geoscan scan create "$SITE" --min-score 60 >/dev/null 2>errors.txt; echo "exit $?"; tail -1 errors.txt`,
		fmt.Sprintf("exit %d\n", code), lines[len(lines)-1])
	blocks["cli-min-score"] = c.block(n)

	// In a GitHub Actions job: annotations, the files, the gate.
	port := strings.TrimSuffix(site[strings.LastIndex(site, ":")+1:], "/")
	n.replace("%3A"+port+"/", "%3A34543/")
	n.replace(".test:"+vars["GEOSCAN_PLAIN_HTTP_PORT"]+"/", ".test:38575/")
	gh := map[string]string{"GITHUB_ACTIONS": "true"}
	for k, v := range cli {
		gh[k] = v
	}
	c = console{}
	sarifPath, junitPath := filepath.Join(tmp, "geo.sarif"), filepath.Join(tmp, "geo.xml")
	code, out, errOut = runCLI(t, gh, "scan", "create", site, "--fail-under", "search=70", "--sarif", sarifPath, "--junit", junitPath)
	require.Equal(t, exitBelowScore, code, errOut)
	var annotations []string
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "::") {
			annotations = append(annotations, line)
		}
	}
	require.Greater(t, len(annotations), 3, out)
	c.cmd(`GITHUB_ACTIONS=true bin/geoscan scan create "$SITE" --fail-under search=70 --sarif geo.sarif --junit geo.xml >out.txt 2>errors.txt; echo "exit $?"`,
		fmt.Sprintf("exit %d\n", code))
	// The progress lines depend on when each poll lands.
	var notes []string
	for line := range strings.Lines(errOut) {
		if !strings.HasPrefix(line, "scan ") {
			notes = append(notes, line)
		}
	}
	c.cmd(`grep -v '^scan ' errors.txt`, strings.Join(notes, ""))
	c.cmd(`grep -c '^::' out.txt; grep '^::' out.txt | head -3`, fmt.Sprintf("%d\n", len(annotations)), strings.Join(annotations[:3], ""))
	sarif, err := os.ReadFile(sarifPath)
	require.NoError(t, err)
	filter = `.runs[0] | {rules: (.tool.driver.rules | length), results: (.results | length), first: (.results[0] | {ruleId, level, message: .message.text, uri: .locations[0].physicalLocation.artifactLocation.uri})}`
	c.cmd(`jq '`+filter+`' geo.sarif`, jq(t, filter, sarif))
	junit, err := os.ReadFile(junitPath)
	require.NoError(t, err)
	c.cmd(`grep -E -o '<testsuites [^>]*>|<testsuite name="[^"]*" tests="[0-9]+"' geo.xml | head -4`,
		strings.Join(regexp.MustCompile(`<testsuites [^>]*>|<testsuite name="[^"]*" tests="[0-9]+"`).FindAllString(string(junit), 4), "\n"))
	blocks["ci-gate"] = c.block(n)

	c = console{}
	const unknown = "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"
	code, out, errOut = geoscan("scan", "get", unknown)
	c.cmd(`bin/geoscan scan get `+unknown+`; echo "exit $?"`, out, errOut, fmt.Sprintf("exit %d\n", code))
	blocks["cli-error"] = c.block(n)
	return blocks
}

// call makes one API request as curl does in the walkthrough.
func call(t *testing.T, key, method, url, body string) (int, http.Header, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, r)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

// jq runs the filter a page shows through jq itself, so the page shows
// what jq prints.
func jq(t *testing.T, filter string, body []byte) string {
	t.Helper()
	debtool.Require(t, "jq", "jq")
	cmd := exec.CommandContext(t.Context(), "jq", filter) //nolint:gosec // the filters are the pages' own
	cmd.Stdin = bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "jq %q: %s\n%s", filter, stderr.String(), body)
	return strings.TrimSuffix(string(out), "\n")
}

// TestDocsLinks keeps the links of the README and the guides true: every
// relative link names a file or folder that exists, and every #anchor a
// heading of its page.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range []string{"README.md", "docs/API.md", "docs/CLI.md", "docs/CI.md", "docs/OPERATIONS.md", "docs/DEVELOPMENT.md", "docs/OVERVIEW.md"} {
		b, err := os.ReadFile("../../" + page)
		require.NoError(t, err)
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			_, err := os.Stat("../../" + path)
			require.NoError(t, err, "%s links to %s", page, target)
			if anchor != "" {
				require.Contains(t, headingAnchors(t, "../../"+path), anchor, "%s links to %s, a heading %s lacks", page, target, path)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a
// Markdown page: lower case, punctuation dropped, spaces as hyphens.
func headingAnchors(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var anchors []string
	fence := false
	for line := range strings.Lines(string(b)) {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var a strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				a.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				a.WriteRune(r)
			}
		}
		anchors = append(anchors, a.String())
	}
	return anchors
}

// TestDevelopmentLayoutNamesEveryPackage keeps the layout of
// docs/DEVELOPMENT.md true: every folder of Go code under internal/ and
// tests/ is named there, at the start of a line of the layout block (by its
// path, or by its last element indented under its parent).
func TestDevelopmentLayoutNamesEveryPackage(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/DEVELOPMENT.md")
	require.NoError(t, err)
	_, layout, ok := strings.Cut(string(doc), "## Project layout")
	require.True(t, ok, "docs/DEVELOPMENT.md has no Project layout section")
	layout, _, _ = strings.Cut(layout, "\n## ")
	named := map[string]bool{}
	for _, line := range strings.Split(layout, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			named[strings.TrimSuffix(f[0], "/")] = true
		}
	}
	for _, root := range []string{"internal", "tests"} {
		err := filepath.WalkDir("../../"+root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if gofiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(gofiles) == 0 {
				return nil
			}
			rel := strings.TrimPrefix(filepath.ToSlash(path), "../../")
			if !named[rel] && !named[filepath.Base(path)] {
				t.Errorf("docs/DEVELOPMENT.md's layout does not name %s", rel)
			}
			return nil
		})
		require.NoError(t, err)
	}
}
