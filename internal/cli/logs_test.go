package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/jobs/crawlerlogs"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
)

// accessLog is a Combined Log Format log of www.example.com: GPTBot from
// an address of OpenAI's published list and from one that is not in it,
// OAI-SearchBot from an address not in its list, Bytespider (whose
// operator publishes no way to verify it) asking for a path with an
// escape sequence in it, a browser and a line that is no log line. No
// crawler in it is verified by reverse DNS, so its analysis asks no DNS.
const accessLog = `20.171.206.5 - - [20/Nov/2026:10:00:00 +0000] "GET /pricing HTTP/1.1" 200 5120 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
203.0.113.9 - - [21/Nov/2026:09:00:00 +0000] "GET /pricing HTTP/1.1" 403 0 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
203.0.113.10 - - [21/Nov/2026:09:30:00 +0000] "GET /docs HTTP/1.1" 200 2048 "-" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot"
198.51.100.7 - - [21/Nov/2026:11:00:00 +0000] "GET /` + "\x1b" + `[31mred HTTP/1.1" 200 99 "-" "Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)"
198.51.100.8 - - [21/Nov/2026:12:00:00 +0000] "GET / HTTP/1.1" 200 10240 "-" "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"
this line is not a log line
`

// recordingDoer passes requests on and keeps how each upload was sent.
type recordingDoer struct {
	base client.HttpRequestDoer
	mu   sync.Mutex
	sent []sentUpload
}

type sentUpload struct {
	contentType string
	lengthKnown bool // the body's length was known before it was sent
	inMemory    bool // net/http can replay the body: it was handed over as bytes, not a stream
}

func (d *recordingDoer) Do(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/crawler-logs") {
		d.mu.Lock()
		d.sent = append(d.sent, sentUpload{r.Header.Get("Content-Type"), r.ContentLength > 0, r.GetBody != nil})
		d.mu.Unlock()
	}
	return d.base.Do(r)
}

func (d *recordingDoer) last(t *testing.T) sentUpload {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	require.NotEmpty(t, d.sent)
	return d.sent[len(d.sent)-1]
}

// logsEnv is an API server without workers of its own (the analyses are
// run by the test), uploads of at most 1 MiB, and an organization.
type logsEnv struct {
	h    *apitest.Harness
	org  apitest.Org
	doer *recordingDoer
}

func newLogsEnv(t *testing.T) logsEnv {
	t.Helper()
	h := apitest.Start(t, pgtest.URL(), apitest.Options{Getenv: map[string]string{"GEOSCAN_CRAWLER_LOG_MAX_MB": "1"}})
	org := h.NewOrg(t, "pro", true)
	_, err := h.Store.Pool().Exec(context.Background(),
		"UPDATE organizations SET rate_limit_read_override = 100000, rate_limit_write_override = 100000 WHERE id = $1", org.ID)
	require.NoError(t, err)
	return logsEnv{h: h, org: org, doer: &recordingDoer{base: h.HTTP}}
}

func (l logsEnv) geoscan(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	vars := map[string]string{"GEOSCAN_API_URL": l.h.BaseURL, "GEOSCAN_API_KEY": l.org.Key}
	var stdout, stderr bytes.Buffer
	e := env{getenv: func(k string) string { return vars[k] }, stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, httpClient: l.doer}
	code := mainWith(context.Background(), e, args)
	return code, stdout.String(), stderr.String()
}

// noDNS answers no lookup, in place of the worker's system resolver: an
// analysis run by a test never asks the network.
type noDNS struct{}

func (noDNS) LookupAddr(context.Context, string) ([]string, error) {
	return nil, errors.New("no DNS in tests")
}

func (noDNS) LookupHost(context.Context, string) ([]string, error) {
	return nil, errors.New("no DNS in tests")
}

// analyse runs the analysis job of a log as a worker would. The servers
// of the package's other tests run workers on the same database and may
// take the job first; either way it has run when Work returns.
func (l logsEnv) analyse(t *testing.T, id string) {
	t.Helper()
	w := &crawlerlogs.Worker{Store: l.h.Store, Resolver: noDNS{}}
	require.NoError(t, w.Work(context.Background(), &river.Job[crawlerlogs.Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: crawlerlogs.Args{LogID: uuid.MustParse(id)}}))
}

func tempFile(t *testing.T, name string, body []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, body, 0o600))
	return path
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

var spaces = regexp.MustCompile(`[ \t]+`)

// squeeze is output with each run of blanks as one space, so a test can
// read a table's row without its column widths.
func squeeze(s string) string { return spaces.ReplaceAllString(s, " ") }

func TestLogsUploadAndGet(t *testing.T) {
	t.Parallel()
	l := newLogsEnv(t)

	// A file, streamed as text.
	path := tempFile(t, "access.log", []byte(accessLog))
	code, out, errOut := l.geoscan(t, "", "logs", "upload", path, "--domain", "https://WWW.Example.com/shop")
	require.Equal(t, 0, code, errOut)
	id := scanID(t, out)
	require.Regexp(t, `(?m)^Domain\s+www\.example\.com$`, out)
	require.Regexp(t, `(?m)^Status\s+queued$`, out)
	require.Contains(t, errOut, "geoscan logs get "+id)
	sent := l.doer.last(t)
	require.Equal(t, "text/plain", sent.contentType)
	require.False(t, sent.lengthKnown, "the file is streamed, its length unknown to the request")
	require.False(t, sent.inMemory, "the body is the file's stream, not bytes read into memory")

	l.analyse(t, id)
	code, out, errOut = l.geoscan(t, "", "logs", "get", id)
	require.Equal(t, 0, code, errOut)
	got := squeeze(out)
	require.Contains(t, got, "Status succeeded\n")
	require.Contains(t, got, "Lines 6: 5 read, 1 not read\n")
	require.Contains(t, got, "not read 1 unrecognized (the first on line 6)\n")
	require.Contains(t, got, "Formats combined 5\n")
	require.Contains(t, got, "Period 2026-11-20T10:00:00Z to 2026-11-21T12:00:00Z\n")
	require.Contains(t, got, "Other hits 1 (people")
	require.Contains(t, got, "BOT ROLE HITS VERIFIED UNVERIFIED FAILED NOT CHECKED STATUSES\n")
	require.Contains(t, got, "GPTBot training 2 1 1 (claims to be GPTBot, unverified) 1 0 200×1 403×1\n")
	require.Contains(t, got, "OAI-SearchBot search 1 0 1 (claims to be OAI-SearchBot, unverified) 1 0 200×1\n")
	require.Contains(t, got, "Bytespider mixed 1 0 1 (claims to be Bytespider, unverified) 0 1 200×1\n")
	require.Contains(t, got, "Cross-check with the site's latest audit: not measured. No completed audit of www.example.com")
	require.NotContains(t, out, "Hits per day", "no days unless asked for")
	require.NotContains(t, out, "requested most", "no pages unless asked for")

	// The log's own text is data: the path's escape sequence shows, and
	// does nothing to the terminal.
	code, out, errOut = l.geoscan(t, "", "logs", "get", id, "--days", "--pages")
	require.Equal(t, 0, code, errOut)
	require.NotContains(t, out, "\x1b", "the log's path reaches the terminal escaped")
	got = squeeze(out)
	require.Contains(t, got, `Bytespider 1 0 200×1 /\x1b[31mred`+"\n")
	require.Contains(t, got, "GPTBot 2 1 200×1 403×1 /pricing\n")
	require.Contains(t, got, "Hits per day (UTC):\nDATE BOT HITS VERIFIED\n2026-11-20 GPTBot 1 1\n2026-11-21 GPTBot 1 0\n2026-11-21 Bytespider 1 0\n2026-11-21 OAI-SearchBot 1 0\n")

	// --json is the API's JSON as sent: the path as the log has it.
	code, out, _ = l.geoscan(t, "", "logs", "get", id, "--pages", "--json")
	require.Equal(t, 0, code)
	var lg client.CrawlerLog
	require.NoError(t, json.Unmarshal([]byte(out), &lg), out)
	require.Equal(t, client.CrawlerLogSucceeded, lg.Status)
	paths := map[string]bool{}
	for _, b := range lg.Bots {
		for _, p := range *b.Pages {
			paths[p.Path] = true
		}
	}
	require.True(t, paths["/\x1b[31mred"], "%v", paths)

	// gzip is known by its first bytes, whatever the name says.
	code, out, errOut = l.geoscan(t, "", "logs", "upload", tempFile(t, "access.log.1", gzipped(t, accessLog)), "--domain", "www.example.com", "--json")
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &lg), out)
	require.True(t, lg.Gzip)
	require.Equal(t, "application/gzip", l.doer.last(t).contentType)
	l.analyse(t, lg.ID.String())
	code, out, errOut = l.geoscan(t, "", "logs", "get", lg.ID.String())
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Uploaded\s+\S+ \(\d+ bytes, gzip\)$`, out)
	require.Contains(t, squeeze(out), "Lines 6: 5 read, 1 not read\n")

	code, out, errOut = l.geoscan(t, "", "logs", "upload", tempFile(t, "plain.gz", []byte(accessLog)), "--domain", "www.example.com", "--json")
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &lg), out)
	require.False(t, lg.Gzip, "a .gz name is no proof of gzip")
	require.Equal(t, "text/plain", l.doer.last(t).contentType)

	// stdin.
	code, out, errOut = l.geoscan(t, accessLog, "logs", "upload", "-", "--domain", "stdin.example.com")
	require.Equal(t, 0, code, errOut)
	fromStdin := scanID(t, out)
	require.False(t, l.doer.last(t).lengthKnown)
	require.False(t, l.doer.last(t).inMemory)
	l.analyse(t, fromStdin)
	code, out, errOut = l.geoscan(t, "", "logs", "get", fromStdin)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, squeeze(out), "Lines 6: 5 read, 1 not read\n")

	// The list, filtered by domain; then a log deleted.
	code, out, errOut = l.geoscan(t, "", "logs", "list", "--domain", "stdin.example.com")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "ID  ")
	require.Regexp(t, fromStdin+`\s+succeeded\s+6\s+3\s+\S+\s+stdin\.example\.com\n`, out)
	require.NotContains(t, out, id)
	code, out, _ = l.geoscan(t, "", "logs", "list", "--limit", "1", "--json")
	require.Equal(t, 0, code)
	var list client.CrawlerLogList
	require.NoError(t, json.Unmarshal([]byte(out), &list), out)
	require.Len(t, list.Data, 1)
	require.True(t, list.HasMore)
	code, _, errOut = l.geoscan(t, "", "logs", "list", "--limit", "1")
	require.Equal(t, 0, code)
	require.Contains(t, errOut, "more logs: geoscan logs list --cursor ")

	code, out, errOut = l.geoscan(t, "", "logs", "delete", fromStdin)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "deleted log "+fromStdin+"\n", out)
	code, _, errOut = l.geoscan(t, "", "logs", "get", fromStdin)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "crawler_log_not_found")
}

func TestLogsUploadWaitAndRefusals(t *testing.T) {
	t.Parallel()
	l := newLogsEnv(t)

	// --wait polls until the analysis ends; the test runs the job once
	// the upload has queued it.
	waitFor := func(domain string, body []byte) (int, string, string) {
		t.Helper()
		type result struct {
			code        int
			out, errOut string
		}
		done := make(chan result, 1)
		path := tempFile(t, domain+".log", body)
		go func() {
			code, out, errOut := l.geoscan(t, "", "logs", "upload", path, "--domain", domain, "--wait", "--timeout", "2m")
			done <- result{code, out, errOut}
		}()
		id, ok := poll.For(t, time.Minute, func() (string, bool) {
			var id string
			err := l.h.Store.Pool().QueryRow(context.Background(),
				"SELECT id::text FROM crawler_logs WHERE org_id = $1 AND domain = $2", l.org.ID, domain).Scan(&id)
			return id, err == nil
		})
		require.True(t, ok, "the upload of %s was stored", domain)
		l.analyse(t, id)
		r := <-done
		return r.code, r.out, r.errOut
	}
	code, out, errOut := waitFor("wait.example.com", []byte(accessLog))
	require.Equal(t, 0, code, errOut)
	require.Contains(t, squeeze(out), "GPTBot training 2 1 1 (claims to be GPTBot, unverified) 1 0 200×1 403×1\n")
	require.Contains(t, errOut, "was analysed\n")
	require.NotContains(t, errOut, "\r", "no in-place redraw when stderr is not a terminal")

	// A gzip stream that breaks: the analysis fails, and so does the command.
	broken := gzipped(t, accessLog)
	broken = append(broken[:len(broken)/2:len(broken)/2], []byte("not gzip any more")...)
	code, out, errOut = waitFor("broken.example.com", broken)
	require.Equal(t, exitLogFailed, code, errOut)
	require.Regexp(t, `(?m)^Status\s+failed$`, out)
	require.Regexp(t, `(?m)^Error\s+unreadable: `, out)
	require.Contains(t, errOut, "could not be analysed: ")
	require.Contains(t, errOut, "(unreadable)")

	// The API's refusals, with its message and code.
	big := bytes.Repeat([]byte(strings.SplitAfter(accessLog, "\n")[0]), (2<<20)/len(strings.SplitAfter(accessLog, "\n")[0]))
	code, out, errOut = l.geoscan(t, "", "logs", "upload", tempFile(t, "big.log", big), "--domain", "big.example.com")
	require.Equal(t, 1, code, errOut)
	require.Empty(t, out)
	require.Contains(t, errOut, "An access log must not exceed 1048576 bytes as uploaded; split it, or gzip it.")
	require.Contains(t, errOut, "request_too_large, HTTP 413")
	code, _, errOut = l.geoscan(t, accessLog, "logs", "upload", "-", "--domain", "not-a-host")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "invalid_parameter, param domain, HTTP 422")
	code, _, errOut = l.geoscan(t, accessLog, "logs", "upload", "-", "--schedule", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "schedule_not_found")

	// Mistakes of the command line, found before anything is sent.
	code, _, errOut = l.geoscan(t, accessLog, "logs", "upload", "-")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "--domain HOST or --schedule ID")
	code, _, errOut = l.geoscan(t, accessLog, "logs", "upload", "-", "--domain", "a.example.com", "--schedule", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "not both")
	code, _, errOut = l.geoscan(t, "", "logs", "upload", "-", "--domain", "a.example.com")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "stdin is empty")
	code, _, errOut = l.geoscan(t, "", "logs", "upload", filepath.Join(t.TempDir(), "missing.log"), "--domain", "a.example.com")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "missing.log")
	code, _, errOut = l.geoscan(t, "", "logs", "get", "x")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "not a UUID")
}

func TestCompetitors(t *testing.T) {
	t.Parallel()
	l := newLogsEnv(t)

	code, out, errOut := l.geoscan(t, "", "scan", "create", "https://example.com/", "--competitor", "https://www.example.com/", "--competitor", "https://shop.example.co.uk/")
	require.Equal(t, 0, code, errOut)
	scan := scanID(t, out)
	code, out, errOut = l.geoscan(t, "", "scan", "get", scan)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Competitors\s+https://www\.example\.com/\n\s+https://shop\.example\.co\.uk/$`, out)
	// The workers of the package's other servers would try to scan it.
	code, _, errOut = l.geoscan(t, "", "scan", "delete", scan)
	require.Equal(t, 0, code, errOut)
	code, _, errOut = l.geoscan(t, "", "scan", "create", "https://example.com/", "--competitor", "ftp://www.example.com/")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "invalid_url")

	code, out, errOut = l.geoscan(t, "", "schedule", "create", "https://example.com/", "--competitor", "https://www.example.com/")
	require.Equal(t, 0, code, errOut)
	sched := scanID(t, out)
	require.Regexp(t, `(?m)^Competitors\s+https://www\.example\.com/$`, out)
	code, out, errOut = l.geoscan(t, "", "schedule", "update", sched, "--competitor", "https://shop.example.co.uk/")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `(?m)^Competitors\s+https://shop\.example\.co\.uk/$`, out, "the list is replaced")
	require.NotContains(t, out, "www.example.com")
	code, out, errOut = l.geoscan(t, "", "schedule", "get", sched, "--json")
	require.Equal(t, 0, code, errOut)
	var s client.Schedule
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	require.Equal(t, []string{"https://shop.example.co.uk/"}, s.Competitors)
	code, out, errOut = l.geoscan(t, "", "schedule", "update", sched, "--no-competitors")
	require.Equal(t, 0, code, errOut)
	require.NotContains(t, out, "Competitors")
	code, _, errOut = l.geoscan(t, "", "schedule", "update", sched, "--no-competitors", "--competitor", "https://www.example.com/")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "not both")
}

// The cross-check as logs get shows it once measured: the refused pages
// with robots.txt's reason, the pages never crawled, each list cut to
// what a table shows with the count of the rest, the log's text escaped.
func TestPrintCrossCheck(t *testing.T) {
	t.Parallel()
	scan := uuid.MustParse("5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11")
	var never []string
	for i := range 25 {
		never = append(never, "https://www.example.com/page-"+strings.Repeat("x", i%3)+string(rune('a'+i)))
	}
	never[1] = "https://www.example.com/\u202eevil"
	cc := &client.CrawlerLogCrossCheck{
		Status: client.CrossCheckMeasured, ScanID: &scan,
		RefusedButAllowed: client.CrawlerLogRefusals{Measured: true, Count: 2, Hits: 7, Pages: []client.CrawlerLogRefusal{
			{
				Token: "OAI-SearchBot", Role: "search", Path: "/pricing", Hits: 5, VerifiedHits: 5,
				Statuses: []client.StatusHits{{Status: 403, Hits: 4}, {Status: 429, Hits: 1}}, Robots: "no group names it; the * group allows /",
			},
			{
				Token: "PerplexityBot", Role: "search", Path: "/\x1b[2Jdocs", Hits: 2,
				Statuses: []client.StatusHits{{Status: 503, Hits: 2}}, Robots: "Allow: /docs",
			},
		}},
		NeverCrawled: client.CrawlerLogNeverCrawled{Measured: true, Count: 130, Pages: never},
	}
	var b bytes.Buffer
	require.NoError(t, printCrossCheck(&b, cc))
	out := b.String()
	require.NotContains(t, out, "\x1b")
	require.NotContains(t, out, "\u202e")
	got := squeeze(out)
	require.Contains(t, got, "Cross-check with the site's latest audit (scan "+scan.String()+"):\n")
	require.Contains(t, got, "Refused although robots.txt allows them: 2 pages, 7 hits; a WAF, rate limiter or bot filter\nmay be blocking what the site means to allow:\n")
	require.Contains(t, got, "OAI-SearchBot 5 5 403×4 429×1 /pricing no group names it; the * group allows /\n")
	require.Contains(t, got, `PerplexityBot 2 0 503×2 /\x1b[2Jdocs Allow: /docs`+"\n")
	require.Contains(t, got, "Audited pages no AI search crawler requested: 130.\n")
	require.Contains(t, got, `https://www.example.com/\u202eevil`)
	require.Equal(t, logRowsShown, strings.Count(out, "\n  https://"), "a table's worth of pages")
	require.Contains(t, got, "… and 110 more (--json lists the first 25)\n")

	b.Reset()
	require.NoError(t, printCrossCheck(&b, &client.CrawlerLogCrossCheck{
		Status: client.CrossCheckMeasured, ScanID: &scan,
		RefusedButAllowed: client.CrawlerLogRefusals{Measured: false, Reason: ptrTo("robots.txt answered 503")},
		NeverCrawled:      client.CrawlerLogNeverCrawled{Measured: true},
	}))
	require.Contains(t, b.String(), "Refused although robots.txt allows them: not measured. robots.txt answered 503\n")
	require.Contains(t, b.String(), "Audited pages no AI search crawler requested: none.\n")
}

func ptrTo[T any](v T) *T { return &v }

// scan report shows the site's latest access log beside the scan, with
// the log's text escaped; a report without one shows nothing of it.
func TestPrintCrawlerActivity(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	require.NoError(t, printCrawlerActivity(&b, nil))
	require.Empty(t, b.String())

	logID, scan := uuid.New(), uuid.New()
	first, last := time.Date(2026, 11, 2, 8, 0, 0, 0, time.UTC), time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	ca := &client.CrawlerActivity{
		LogID: logID, FirstSeen: &first, LastSeen: &last,
		Bots: []client.CrawlerLogBot{{
			Token: "OAI-SearchBot", Role: client.BotRoleSearch, Hits: 9, VerifiedHits: 7, UnverifiedHits: 2,
			Verification: client.CrawlerLogVerification{Method: client.VerifyByIPRanges, FailedHits: 2},
			Statuses:     []client.StatusHits{{Status: 403, Hits: 9}},
		}},
		CrossCheck: &client.CrawlerLogCrossCheck{
			Status: client.CrossCheckMeasured, ScanID: &scan,
			RefusedButAllowed: client.CrawlerLogRefusals{Measured: true, Count: 1, Hits: 7, Pages: []client.CrawlerLogRefusal{{
				Token: "OAI-SearchBot", Path: "/\x1b]0;owned\x07claims", Hits: 7, VerifiedHits: 7,
				Statuses: []client.StatusHits{{Status: 403, Hits: 7}}, Robots: "Allow: /",
			}}},
			NeverCrawled: client.CrawlerLogNeverCrawled{Measured: true, Pages: []string{}},
		},
	}
	require.NoError(t, printCrawlerActivity(&b, ca))
	out := b.String()
	require.NotContains(t, out, "\x1b")
	require.NotContains(t, out, "\x07")
	got := squeeze(out)
	require.Contains(t, got, "AI crawlers in the site's access log (log "+logID.String()+", 2026-11-02 to 2026-11-20;")
	require.Contains(t, got, "OAI-SearchBot search 9 7 2 (claims to be OAI-SearchBot, unverified) 2 0 403×9\n")
	require.Contains(t, got, "(scan "+scan.String()+")")
	require.Contains(t, got, "1 page, 7 hits")
}
