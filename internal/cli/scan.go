package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/webhook"
)

const scanUsage = `Usage: geoscan scan COMMAND [flags]

  create URL [--brand NAME] [--callback-url URL] [--project P] [--max-pages N] [--language en|de|fr|es]
             [--competitor URL ...] [--wait] [--min-score N] [--fail-under RING=N] [--sarif FILE] [--junit FILE]
             [--timeout 10m]
                     create a scan; --max-pages above 1 audits the whole site, up to N pages; each
                     --competitor is audited beside it and scored in the same AI answers; --wait
                     shows its progress (pages judged, on a whole-site audit) until it finishes,
                     --min-score fails the command when the overall score is lower, --fail-under when
                     a ring's is (search=70); --sarif and --junit write the results for CI (each implies --wait)
  get ID             the scan with its status and scores
  list               the organization's scans, newest first [--status S] [--project P] [--domain D] [--limit N] [--cursor C] [--all]
  report ID          the full report [--audience marketing|engineering] [--fail-under RING=N] [--sarif FILE] [--junit FILE]
  triage ID          the Site Triage dossier [--audience marketing|engineering]
  checks ID          every check result [--ring R] [--status S] [--audience A]
  compare BASE TARGET  score deltas between two completed scans
  export             the scans as CSV [--status S] [--project P] [--domain D] [--limit N] [--include checks|pages] [-o FILE]
  pdf ID             download the PDF report [--audience A] [-o FILE, - for stdout]
  fixes ID           save the fixes written for the site: files and FIXES.md [--dir DIR] [--force]
  pages ID           the pages a whole-site audit judged [--status S] [--check C] [--group G] [--score-lt N]
                     [--sort position|url|score|-score] [--limit N] [--cursor C] [--all]
  share create|list|revoke
                     links to a completed scan's report that open without a key (geoscan scan share help)
  delete ID          delete a scan and its results

Every command but pdf and export takes --json to print the API's JSON instead of a table. On GitHub
Actions (GITHUB_ACTIONS=true), create --wait and report also annotate the run with the failed and
warned checks (docs/CI.md).
Exit codes: 0 success, 1 error (the API's message and code are printed), 2 command-line mistake,
3 the scan failed, 4 a score is below --min-score or --fail-under, 5 --wait timed out.
`

func scanCmd(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: scan needs a command\n\n%s", errUsage, scanUsage)
	}
	switch args[0] {
	case "create":
		return scanCreate(ctx, e, args[1:])
	case "get":
		return scanGet(ctx, e, args[1:])
	case "list":
		return scanList(ctx, e, args[1:])
	case "report":
		return scanReport(ctx, e, args[1:])
	case "triage":
		return scanTriage(ctx, e, args[1:])
	case "checks":
		return scanChecks(ctx, e, args[1:])
	case "compare":
		return scanCompare(ctx, e, args[1:])
	case "export":
		return scanExport(ctx, e, args[1:])
	case "pdf":
		return scanPDF(ctx, e, args[1:])
	case "pages":
		return scanPages(ctx, e, args[1:])
	case "fixes":
		return scanFixes(ctx, e, args[1:])
	case "share":
		return scanShareCmd(ctx, e, args[1:])
	case "delete":
		return scanDelete(ctx, e, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, scanUsage)
		return nil
	}
	return fmt.Errorf("%w: unknown scan command %q\n\n%s", errUsage, args[0], scanUsage)
}

// competitorUsage is the --competitor flag's usage on scan and schedule create.
const competitorUsage = "a competitor's site to benchmark against, audited beside it (a public HTTPS URL); repeat it for each, up to the plan's number"

// stringList is a flag that may be given again and again; each adds a value.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, " ") }

func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// printList writes a table row of values, one per line; none, no row.
func printList(tw io.Writer, label string, values []string) {
	for i, v := range values {
		if i == 0 {
			printf(tw, "%s\t%s\n", label, v)
		} else {
			printf(tw, "\t%s\n", v)
		}
	}
}

func parseID(s, what string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, fmt.Errorf("%w: %s %q is not a UUID", errUsage, what, s)
	}
	return id, nil
}

func scanCreate(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan create", "Usage: geoscan scan create URL [flags]\n\nQueues a scan of a public HTTPS URL. With --wait, shows its progress and ends when it finishes.\n")
	brand := fs.String("brand", "", "brand name looked for in AI answers (default: the registrable domain)")
	callback := fs.String("callback-url", "", "HTTPS URL to POST the finished scan to; the response shows its webhook_secret once")
	project := fs.String("project", "", "label to group scans by")
	maxPages := fs.Int("max-pages", 0, "page budget: above 1 audits the whole site, up to this many pages (the plan caps it; default 1, the homepage)")
	idem := fs.String("idempotency-key", "", "makes retrying this command safe: the same key and URL return the first scan")
	wait := fs.Bool("wait", false, "wait until the scan finishes, showing its progress on stderr")
	minScore := fs.Float64("min-score", -1, "exit with code 4 when the overall score is below this (0-100; implies --wait)")
	timeout := fs.Duration("timeout", 10*time.Minute, "with --wait, give up after this long (exit code 5)")
	language := fs.String("language", "", "the language of the report, PDF and emails: en, de, fr or es (default: the site's declared language when one of these, else en)")
	var competitors stringList
	fs.Var(&competitors, "competitor", competitorUsage)
	ci := addCIFlags(fs)
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *minScore > 100 {
		return fmt.Errorf("%w: --min-score must be between 0 and 100", errUsage)
	}
	if *minScore >= 0 || ci.any() {
		*wait = true
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	body := client.ScanCreateRequest{URL: pos[0]}
	for dst, v := range map[**string]string{&body.BrandName: *brand, &body.CallbackURL: *callback, &body.Project: *project} {
		if v != "" {
			*dst = &v
		}
	}
	if *maxPages != 0 {
		body.MaxPages = maxPages
	}
	if len(competitors) > 0 {
		body.Competitors = (*[]string)(&competitors)
	}
	if *language != "" {
		// The API names the languages it supports when it refuses one.
		body.Language = (*client.ScanCreateRequestLanguage)(language)
	}
	var params *client.CreateScanParams
	if *idem != "" {
		params = &client.CreateScanParams{IdempotencyKey: idem}
	}
	resp, err := a.c.CreateScanWithResponse(ctx, params, body)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusCreated); err != nil {
		return err
	}
	s := resp.JSON201
	if !*wait {
		if a.json {
			return a.printJSON(resp.Body)
		}
		return printScan(e, s)
	}
	if s.WebhookSecret != nil && !a.json {
		// Shown once by the API; the final table comes from GET, which never shows it.
		printf(e.stderr, "webhook secret (shown only now): %s\n", *s.WebhookSecret)
	}
	final, raw, err := a.waitForScan(ctx, s.ID, s.URL, *timeout)
	if err != nil {
		return err
	}
	if a.json {
		if err := a.printJSON(raw); err != nil {
			return err
		}
	} else if err := printScan(e, final); err != nil {
		return err
	}
	if err := verdict(final, *minScore); err != nil {
		var exit *exitError
		if !errors.As(err, &exit) || exit.code != exitScanFailed {
			return err
		}
		// The CI files say that the scan failed.
		if ciErr := writeCIFiles(e, ci, final, nil); ciErr != nil {
			return ciErr
		}
		return err
	}
	return a.ciOutput(ctx, final, ci, client.GetScanReportParamsAudienceEngineering)
}

// ciOutput reads a completed scan's report when CI output needs it, writes
// the files asked for, annotates the run on GitHub Actions and applies
// --fail-under.
func (a *api) ciOutput(ctx context.Context, s *client.Scan, ci ciFlags, audience client.GetScanReportParamsAudience) error {
	github := a.env.getenv("GITHUB_ACTIONS") == "true"
	if *ci.sarif == "" && *ci.junit == "" && !github {
		return ci.failUnder.failUnderError(s.URL, scanScores(s))
	}
	resp, err := a.c.GetScanReportWithResponse(ctx, s.ID, &client.GetScanReportParams{Audience: &audience})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	return a.reportCIOutput(s, resp.JSON200, ci)
}

// reportCIOutput is ciOutput once the report is read.
func (a *api) reportCIOutput(s *client.Scan, r *client.Report, ci ciFlags) error {
	if err := writeCIFiles(a.env, ci, s, r); err != nil {
		return err
	}
	below := ci.failUnder.below(r.URL, reportScores(r))
	if a.env.getenv("GITHUB_ACTIONS") == "true" {
		// On stdout, where the runner reads workflow commands, unless
		// stdout carries JSON.
		w := a.env.stdout
		if a.json {
			w = a.env.stderr
		}
		annotate(w, r, below)
	}
	if len(below) > 0 {
		return &exitError{code: exitBelowScore, msg: strings.Join(below, "\n")}
	}
	return nil
}

// verdict turns a finished scan into the command's exit code.
func verdict(s *client.Scan, minScore float64) error {
	if !webhook.IsCompleted(string(s.Status)) {
		return &exitError{code: exitScanFailed, msg: sprintf("scan %s failed: %s (%s)", s.ID, orDash(s.ErrorMessage), orDash(s.ErrorCode))}
	}
	if minScore >= 0 && s.OverallScore != nil && *s.OverallScore < minScore {
		return &exitError{code: exitBelowScore, msg: sprintf("%s scores %.1f, below the minimum of %g", s.URL, *s.OverallScore, minScore)}
	}
	return nil
}

// waitForScan polls the scan until it is finished, backing off from half a
// second to five, and honouring Retry-After when rate-limited. Progress goes
// to stderr: redrawn in place on a terminal, one line per change elsewhere;
// a whole-site audit's crawl shows as a bar of its pages.
func (a *api) waitForScan(ctx context.Context, id uuid.UUID, url string, timeout time.Duration) (*client.Scan, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tty := a.env.tty(a.env.stderr)
	start := time.Now()
	delay := 500 * time.Millisecond
	last, lastBar := "", ""
	for i := 0; ; i++ {
		resp, err := a.c.GetScanWithResponse(ctx, id)
		if err == nil {
			err = expect(resp.HTTPResponse, resp.Body, http.StatusOK)
		}
		wait := delay
		switch d, limited := retryAfter(err); {
		case limited:
			wait = d
		case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
			if tty {
				fmt.Fprintln(a.env.stderr)
			}
			return nil, nil, &exitError{code: exitWaitTimeout, msg: fmt.Sprintf("scan %s did not finish within %s; it keeps running: geoscan scan get %s", id, timeout, id)}
		case err != nil:
			return nil, nil, err
		default:
			s := resp.JSON200
			status := string(s.Status)
			// "scan … is running", "scan … failed": never "scan … pending".
			phrase := store.ScanStatus(status).Phrase()
			bar := ""
			if p := s.Progress; p != nil && !webhook.IsFinished(status) {
				bar = progressBar(p.PagesDone, p.PagesPlanned, progressWidth)
			}
			switch {
			case tty && bar != "":
				printf(a.env.stderr, "\r\033[K%s %s %s %s (%s)", spinnerFrame(i), url, phrase, bar, time.Since(start).Round(100*time.Millisecond))
			case tty:
				printf(a.env.stderr, "\r\033[K%s %s %s (%s)", spinnerFrame(i), url, phrase, time.Since(start).Round(100*time.Millisecond))
			default:
				if status != last {
					printf(a.env.stderr, "scan %s %s\n", id, phrase)
				}
				if bar != "" && bar != lastBar {
					printf(a.env.stderr, "scan %s %s\n", id, bar)
				}
			}
			last, lastBar = status, bar
			if webhook.IsFinished(status) {
				if tty {
					printf(a.env.stderr, "\r\033[K%s %s after %s\n", url, phrase, time.Since(start).Round(100*time.Millisecond))
				}
				return s, resp.Body, nil
			}
		}
		select {
		case <-ctx.Done():
			if tty {
				fmt.Fprintln(a.env.stderr)
			}
			return nil, nil, &exitError{code: exitWaitTimeout, msg: fmt.Sprintf("scan %s did not finish within %s; it keeps running: geoscan scan get %s", id, timeout, id)}
		case <-time.After(wait):
		}
		delay = min(delay*2, 5*time.Second)
	}
}

// spinnerFrames are the frames of the --wait spinner on a terminal.
const spinnerFrames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

// spinnerFrame is the spinner's frame at poll i.
func spinnerFrame(i int) string {
	frames := []rune(spinnerFrames)
	return string(frames[i%len(frames)])
}

// progressWidth is the cells of the --wait progress bar.
const progressWidth = 24

// progressBar is a whole-site audit's crawl as a bar of width cells, one
// '#' per share of the pages planned that are done:
// "[#######.....] 212/500 pages". Done is held to planned, which the crawl
// may not know yet (0: an empty bar).
func progressBar(done, planned, width int) string {
	done, planned = max(done, 0), max(planned, 0)
	filled := 0
	if planned > 0 {
		filled = min(done, planned) * width / planned
	}
	return "[" + strings.Repeat("#", filled) + strings.Repeat(".", width-filled) + "] " +
		strconv.Itoa(done) + "/" + strconv.Itoa(planned) + " pages"
}

func printScan(e env, s *client.Scan) error {
	tw := newTable(e.stdout)
	printf(tw, "ID\t%s\n", s.ID)
	printf(tw, "URL\t%s\n", s.URL)
	printf(tw, "Brand\t%s\n", s.BrandName)
	if s.Language != nil {
		printf(tw, "Language\t%s\n", *s.Language)
	}
	printf(tw, "Status\t%s\n", s.Status)
	if s.ErrorCode != nil {
		printf(tw, "Error\t%s: %s\n", *s.ErrorCode, orDash(s.ErrorMessage))
	}
	printf(tw, "Overall\t%s\n", scoreText(s.OverallScore, s.OverallGrade))
	printf(tw, "Search\t%s\n", ringText(s.SearchScore, s.SearchGrade))
	printf(tw, "AI visibility\t%s\n", ringText(s.VisibilityScore, s.VisibilityGrade))
	printf(tw, "AI trust\t%s\n", ringText(s.TrustScore, s.TrustGrade))
	printList(tw, "Competitors", s.Competitors)
	if s.Project != nil {
		printf(tw, "Project\t%s\n", *s.Project)
	}
	if s.CallbackURL != nil {
		printf(tw, "Callback\t%s\n", *s.CallbackURL)
	}
	if s.WebhookSecret != nil {
		printf(tw, "Webhook secret\t%s (shown only now)\n", *s.WebhookSecret)
	}
	printf(tw, "Created\t%s\n", timeText(&s.CreatedAt))
	printf(tw, "Completed\t%s\n", timeText(s.CompletedAt))
	return tw.Flush()
}

func scanGet(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan get", "Usage: geoscan scan get ID [--json]\n\nShows a scan with its status and, once completed, its scores.\n")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.GetScanWithResponse(ctx, id)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	return printScan(e, resp.JSON200)
}

func scanList(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan list", "Usage: geoscan scan list [flags]\n\nLists the organization's scans, newest first.\n")
	status := fs.String("status", "", "only scans with this status: pending, running, completed or failed")
	project := fs.String("project", "", "only scans with this project")
	domain := fs.String("domain", "", "only scans of this domain or its subdomains")
	limit := fs.Int("limit", 20, "page size (1-100)")
	cursor := fs.String("cursor", "", "the next_cursor of the previous page")
	all := fs.Bool("all", false, "follow the cursor through every page (tables only)")
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	params := &client.ListScansParams{Limit: limit}
	if *status != "" {
		st := client.StatusFilter(*status)
		params.Status = &st
	}
	if *project != "" {
		params.Project = project
	}
	if *domain != "" {
		params.Domain = domain
	}
	if *cursor != "" {
		params.Cursor = cursor
	}
	tw := newTable(e.stdout)
	if !a.json {
		fmt.Fprintln(tw, "ID\tSTATUS\tOVERALL\tSEARCH\tVISIBILITY\tTRUST\tCREATED\tURL")
	}
	for {
		resp, err := a.c.ListScansWithResponse(ctx, params)
		if err != nil {
			return err
		}
		if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
			return err
		}
		if a.json {
			return a.printJSON(resp.Body)
		}
		page := resp.JSON200
		for _, s := range page.Data {
			printf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.Status, scoreText(s.OverallScore, s.OverallGrade),
				ringText(s.SearchScore, s.SearchGrade), ringText(s.VisibilityScore, s.VisibilityGrade), ringText(s.TrustScore, s.TrustGrade),
				s.CreatedAt.UTC().Format(time.RFC3339), s.URL)
		}
		if !page.HasMore || page.NextCursor == nil {
			break
		}
		if !*all {
			if err := tw.Flush(); err != nil {
				return err
			}
			printf(e.stderr, "more scans: geoscan scan list --cursor %s\n", *page.NextCursor)
			return nil
		}
		params.Cursor = page.NextCursor
	}
	return tw.Flush()
}

func audienceFlag(fs interface {
	String(name, value, usage string) *string
},
) *string {
	return fs.String("audience", "marketing", "who the texts are written for: marketing or engineering")
}

func checkAudience(a string) error {
	if !client.Audience(a).Valid() {
		return fmt.Errorf("%w: --audience must be marketing or engineering, not %q", errUsage, a)
	}
	return nil
}

func scanReport(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan report", "Usage: geoscan scan report ID [--audience marketing|engineering] [--json]\n\nThe report of a completed scan: scores, rings and pillars, summaries and the open issues.\n")
	audience := audienceFlag(fs)
	ci := addCIFlags(fs)
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := checkAudience(*audience); err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	aud := client.GetScanReportParamsAudience(*audience)
	resp, err := a.c.GetScanReportWithResponse(ctx, id, &client.GetScanReportParams{Audience: &aud})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	r := resp.JSON200
	if a.json {
		if err := a.printJSON(resp.Body); err != nil {
			return err
		}
	} else if err := printReport(e.stdout, r); err != nil {
		return err
	} else if err := printBenchmark(e.stdout, r); err != nil {
		return err
	} else if err := printCrawlerActivity(e.stdout, r.CrawlerActivity); err != nil {
		return err
	} else if err := printAgentReadiness(e.stdout, resp.Body); err != nil {
		return err
	}
	return a.reportCIOutput(&client.Scan{ID: r.ScanID, URL: r.URL}, r, ci)
}

// printReport shows a report as tables.
func printReport(w io.Writer, r *client.Report) error {
	printf(w, "%s (%s)\n", r.URL, r.BrandName)
	printf(w, "Overall %.1f, grade %s: %s\n\n", r.OverallScore, r.OverallGrade, r.GradeDescriptor)
	printf(w, "%s\n", wrapText(r.Summaries.Executive, 100))
	fmt.Fprintln(w)
	tw := newTable(w)
	fmt.Fprintln(tw, "RING\tPILLAR\tSCORE\tGRADE")
	for _, ring := range []client.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
		capped := ""
		if ring.CappedBy != nil {
			capped = " (capped)"
		}
		printf(tw, "%s\t\t%d%s\t%s\n", ringLabel(ring.Ring), ring.Score, capped, ring.Grade)
		for _, p := range ring.Pillars {
			printf(tw, "\t%s\t%s\t\n", p.Name, pillarScore(p.Score))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printf(w, "\nChecks: %d passed, %d partly, %d failed, %d not applicable, %d for information.\n",
		r.Counts.Pass, r.Counts.Warn, r.Counts.Fail, r.Counts.Na, r.Counts.Info)
	var open []client.CheckResult
	for _, c := range r.Checks {
		if c.Status == client.CheckStatusFail || c.Status == client.CheckStatusWarn {
			open = append(open, c)
		}
	}
	// What fixing each alone adds to the overall score first (absent in
	// reports made before it was computed), then the impact level.
	rank := map[client.Level]int{client.LevelHigh: 0, client.LevelMedium: 1, client.LevelLow: 2}
	gain := func(c client.CheckResult) float64 {
		if c.ExpectedGain == nil {
			return -1
		}
		return *c.ExpectedGain
	}
	sort.SliceStable(open, func(i, j int) bool {
		if a, b := gain(open[i]), gain(open[j]); a != b {
			return a > b
		}
		return rank[open[i].Impact] < rank[open[j].Impact]
	})
	if len(open) > 0 {
		fmt.Fprintln(w, "\nOpen issues, by the points fixing each alone adds to the overall score:")
		tw = newTable(w)
		fmt.Fprintln(tw, "STATUS\tGAIN\tIMPACT\tCHECK\tTITLE")
		for _, c := range open {
			printf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Status, gainText(c.ExpectedGain), c.Impact, c.ID, c.Title)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if err := printRendering(w, r); err != nil {
		return err
	}
	return printSite(w, r)
}

// printRendering shows what a browser saw beside the raw HTML: which pages
// were rendered, why others were not, and what exists only after
// JavaScript. Reports made before rendering existed have nothing here.
func printRendering(w io.Writer, r *client.Report) error {
	rc := r.Rendering
	if rc == nil {
		return nil
	}
	switch rc.Mode {
	case client.RenderModeOff:
		fmt.Fprintln(w, "\nRendering: off; the JavaScript checks judged the raw HTML without a browser.")
		return nil
	case client.RenderModeUnavailable:
		fmt.Fprintln(w, "\nRendering: no browser was available; the JavaScript checks judged the raw HTML without one.")
		return nil
	}
	rendered := 0
	for _, p := range rc.Pages {
		if p.Rendered {
			rendered++
		}
	}
	printf(w, "\nRendered in a browser: %d of %d pages tried", rendered, len(rc.Pages))
	if rc.UnsampledPages > 0 {
		printf(w, " (%d more judged from their HTML only)", rc.UnsampledPages)
	}
	fmt.Fprintln(w, ".")
	tw := newTable(w)
	fmt.Fprintln(tw, "WORDS RAW\tRENDERED\tPAGE\tWHAT JAVASCRIPT ADDS OR CHANGES")
	for _, p := range rc.Pages {
		if !p.Rendered || p.Comparison == nil {
			printf(tw, "-\t-\t%s\tnot rendered: %s\n", p.URL, p.Reason)
			continue
		}
		what := p.Summary
		if what == "" {
			what = "nothing"
		}
		printf(tw, "%d\t%d\t%s\t%s\n", p.Comparison.RawWords, p.Comparison.RenderedWords, p.URL, what)
	}
	return tw.Flush()
}

// printSite shows what a whole-site audit adds to its report: what the
// crawl covered, how the site changed since the previous whole-site audit
// of it, and the issues on many pages. A homepage audit has nothing here.
func printSite(w io.Writer, r *client.Report) error {
	s := r.Site
	if s == nil {
		return nil
	}
	printf(w, "\nAcross the site: %d pages audited of %d known (page budget %d); the crawl ended: %s.\n",
		s.PagesAudited, s.PagesKnown, s.PagesPlanned, strings.ReplaceAll(s.Stop, "_", " "))
	if t := s.Trend; t != nil {
		score := "the site score was not measured in one of the two"
		if t.ScoreNow != nil && t.ScoreThen != nil && t.ScoreDelta != nil {
			score = sprintf("site score %.1f, %+.1f since (%.1f)", *t.ScoreNow, *t.ScoreDelta, *t.ScoreThen)
		}
		printf(w, "Since the whole-site audit of %s (scan %s): %s; %d pages audited, %d then.\n",
			t.PreviousCompletedAt.UTC().Format("2006-01-02"), t.PreviousScanID, score, t.PagesAuditedNow, t.PagesAuditedThen)
		if len(t.Issues) > 0 {
			tw := newTable(w)
			fmt.Fprintln(tw, "CHANGE\tPAGES THEN\tPAGES NOW\tCHECK")
			for _, is := range t.Issues {
				printf(tw, "%s\t%d\t%d\t%s\n", is.Change, is.PagesAffectedThen, is.PagesAffectedNow, is.CheckID)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
	}
	if r.CrossCuttingIssues == nil || len(*r.CrossCuttingIssues) == 0 {
		fmt.Fprintln(w, "No check fails or warns on many of the pages audited.")
		return nil
	}
	fmt.Fprintln(w, "\nIssues on many pages, most pages first:")
	tw := newTable(w)
	fmt.Fprintln(tw, "PAGES\tGAIN\tCHECK\tTEMPLATES")
	for _, is := range *r.CrossCuttingIssues {
		printf(tw, "%d/%d\t+%.1f\t%s\t%s\n", is.PagesAffected, is.PagesAudited, is.ExpectedGain, is.CheckID, strings.Join(is.Groups, " "))
	}
	return tw.Flush()
}

// gainText is "+4.4", or "-" when the document has no gain.
func gainText(g *float64) string {
	if g == nil {
		return "-"
	}
	return fmt.Sprintf("+%.1f", *g)
}

// actionGain is what a priority action adds in the dossier's order: "+6.1
// (alone +0.0)" when the actions above it make the difference, "+3.2
// (with 2)" for actions that gain only together.
func actionGain(act client.TriageAction, pos map[string]int) string {
	out := gainText(act.GainInOrder)
	switch {
	case act.GainInOrder == nil:
	case act.FixedWith != nil && len(*act.FixedWith) > 0:
		nums := make([]string, 0, len(*act.FixedWith))
		for _, id := range *act.FixedWith {
			nums = append(nums, fmt.Sprint(pos[id]))
		}
		out += " (with " + strings.Join(nums, ", ") + ")"
	case act.ExpectedGain != nil && *act.ExpectedGain != *act.GainInOrder:
		out += " (alone " + gainText(act.ExpectedGain) + ")"
	}
	return out
}

func ringLabel(r client.Ring) string {
	switch r {
	case client.Search:
		return "Search"
	case client.Visibility:
		return "AI visibility"
	}
	return "AI trust"
}

func pillarScore(p *int) string {
	if p == nil {
		return "not measured"
	}
	return fmt.Sprint(*p)
}

// wrapText breaks s into lines of at most width characters, once what
// would act on a terminal in it is escaped (so a line break or a control
// in s shows rather than disappears into the wrapping).
func wrapText(s string, width int) lines {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(escape(s)) {
		if n > 0 && n+1+len([]rune(w)) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len([]rune(w))
	}
	return lines(b.String())
}

func scanTriage(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan triage", "Usage: geoscan scan triage ID [--audience marketing|engineering] [--json]\n\nThe Site Triage dossier: platform, complexity, risk by lens and the priority actions.\n")
	audience := audienceFlag(fs)
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := checkAudience(*audience); err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	aud := client.GetScanTriageParamsAudience(*audience)
	resp, err := a.c.GetScanTriageWithResponse(ctx, id, &client.GetScanTriageParams{Audience: &aud})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	d := resp.JSON200
	w := e.stdout
	printf(w, "%s\n", wrapText(d.SummaryParagraph, 100))
	fmt.Fprintln(w)
	tw := newTable(w)
	printf(tw, "CMS\t%s\n", orNone(d.Platform.Cms))
	printf(tw, "Page builder\t%s\n", orNone(d.Platform.PageBuilder))
	printf(tw, "JavaScript framework\t%s\n", orNone(d.Platform.JsFramework))
	printf(tw, "Complexity\t%s (confidence %s)\n", d.Platform.ComplexityBucket, d.Platform.Confidence)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nRisk by lens:")
	tw = newTable(w)
	for _, l := range d.RiskLenses {
		printf(tw, "  %s\t%s\n", l.Label, strings.ReplaceAll(string(l.Bucket), "_", " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	printf(w, "\nPriority actions (%d, %d quick wins; GAIN: overall points, the actions above made):\n", d.ActionCount, d.QuickWinCount)
	tw = newTable(w)
	fmt.Fprintln(tw, "#\tQUICK WIN\tGAIN\tIMPACT\tEFFORT\tACTION")
	place := map[string]int{}
	for i, act := range d.PriorityActions {
		place[act.CheckID] = i + 1
	}
	for i, act := range d.PriorityActions {
		qw := ""
		if act.QuickWin {
			qw = "yes"
		}
		printf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", i+1, qw, actionGain(act, place), act.Impact, act.Effort, act.Label)
	}
	return tw.Flush()
}

func orNone(p *string) string {
	if p == nil || *p == "" {
		return "-"
	}
	return *p
}

func scanChecks(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan checks", "Usage: geoscan scan checks ID [--ring R] [--status S] [--audience A] [--json]\n\nEvery check result of a completed scan, in catalog order.\n")
	audience := audienceFlag(fs)
	ring := fs.String("ring", "", "only checks of this ring: search, visibility or trust")
	status := fs.String("status", "", "only checks with this status: pass, warn, fail, na or info")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := checkAudience(*audience); err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	aud := client.ListScanChecksParamsAudience(*audience)
	params := &client.ListScanChecksParams{Audience: &aud}
	if *ring != "" {
		r := client.Ring(*ring)
		params.Ring = &r
	}
	if *status != "" {
		s := client.CheckStatus(*status)
		params.Status = &s
	}
	resp, err := a.c.ListScanChecksWithResponse(ctx, id, params)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, "STATUS\tRING\tPILLAR\tCHECK\tSUMMARY")
	for _, c := range resp.JSON200.Data {
		printf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Status, c.Ring, c.Pillar, c.ID, c.Summary)
	}
	return tw.Flush()
}

func scanCompare(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan compare", "Usage: geoscan scan compare BASE_ID TARGET_ID [--json]\n\nCompares two completed scans: the deltas (target − base) of the overall score, rings and checks.\n")
	pos, err := parseArgs(fs, args, 2, 2)
	if err != nil {
		return err
	}
	base, err := parseID(pos[0], "base scan id")
	if err != nil {
		return err
	}
	target, err := parseID(pos[1], "target scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.CompareScansWithResponse(ctx, &client.CompareScansParams{Base: base, Target: target})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	c := resp.JSON200
	w := e.stdout
	if !c.ScoringVersionsMatch {
		fmt.Fprintln(w, "Note: the scans were scored with different rubric versions.")
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "\tBASE\tTARGET\tDELTA")
	for _, row := range []struct {
		name string
		d    client.ScoreDelta
	}{{"Overall", c.Overall}, {"Search", c.Rings.Search}, {"AI visibility", c.Rings.Visibility}, {"AI trust", c.Rings.Trust}} {
		printf(tw, "%s\t%s\t%s\t%s\n", row.name, num(row.d.Base), num(row.d.Target), signed(row.d.Delta))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	s := c.Summary
	printf(w, "\nChecks: %d improved, %d regressed, %d unchanged, %d added, %d removed.\n", s.Improved, s.Regressed, s.Unchanged, s.Added, s.Removed)
	tw = newTable(w)
	header := false
	for _, d := range c.Checks {
		if d.Change == client.Unchanged {
			continue
		}
		if !header {
			fmt.Fprintln(tw, "CHANGE\tCHECK\tBASE\tTARGET")
			header = true
		}
		printf(tw, "%s\t%s\t%s\t%s\n", d.Change, d.CheckID, orDash(d.BaseStatus), orDash(d.TargetStatus))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return printPageComparison(w, c.Pages)
}

// printPageComparison shows how two whole-site audits' pages compare: the
// counts, then the pages whose score changed most.
func printPageComparison(w io.Writer, p *client.PageComparison) error {
	if p == nil {
		return nil
	}
	printf(w, "\nPages: %d in both, %d only in the base scan, %d only in the target.\n", p.InBoth, p.OnlyBase, p.OnlyTarget)
	tw := newTable(w)
	header := false
	for _, d := range p.Changed {
		if d.Delta == nil || *d.Delta == 0 {
			continue
		}
		if !header {
			fmt.Fprintln(tw, "DELTA\tBASE\tTARGET\tURL")
			header = true
		}
		printf(tw, "%s\t%s\t%s\t%s\n", signed(d.Delta), num(d.Base), num(d.Target), d.URL)
	}
	return tw.Flush()
}

func num(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f", *p)
}

func signed(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%+.1f", *p)
}

// writeOut writes a downloaded document to path, or to stdout for "-":
// as received, unless stdout is a terminal, where it is shown escaped.
func writeOut(e env, path string, body []byte) error {
	if path == "-" {
		if e.tty(e.stdout) {
			printf(e.stdout, "%s", lines(body))
			return nil
		}
		_, err := e.stdout.Write(body)
		return err
	}
	if err := os.WriteFile(path, body, 0o644); err != nil { //nolint:gosec // a document the user asked for
		return err
	}
	printf(e.stdout, "%s (%d bytes)\n", path, len(body))
	return nil
}

func scanExport(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan export", "Usage: geoscan scan export [flags]\n\nStreams the organization's scans as CSV, newest first (to stdout unless -o is given).\n")
	status := fs.String("status", "", "only scans with this status")
	project := fs.String("project", "", "only scans with this project")
	domain := fs.String("domain", "", "only scans of this domain or its subdomains")
	limit := fs.Int("limit", 1000, "the most scans to export (1-10000)")
	include := fs.String("include", "", "checks: one row per check of those scans; pages: one row per page of their whole-site audits")
	out := fs.String("o", "-", "file to write, - for stdout")
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	if *f.json {
		return fmt.Errorf("%w: scan export writes CSV, not JSON: leave out --json (geoscan scan list --json lists the scans as JSON)", errUsage)
	}
	a, err := newAPI(e, false)
	if err != nil {
		return err
	}
	params := &client.ExportScansParams{Limit: limit}
	if *include != "" {
		in := client.ExportScansParamsInclude(*include)
		params.Include = &in
	}
	if *status != "" {
		st := client.StatusFilter(*status)
		params.Status = &st
	}
	if *project != "" {
		params.Project = project
	}
	if *domain != "" {
		params.Domain = domain
	}
	resp, err := a.c.ExportScansWithResponse(ctx, params)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	return writeOut(e, *out, resp.Body)
}

func scanPDF(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan pdf", "Usage: geoscan scan pdf ID [--audience marketing|engineering] [-o FILE]\n\nDownloads the PDF report of a completed scan; by default to the file name the server suggests.\n")
	audience := audienceFlag(fs)
	out := fs.String("o", "", "file to write, - for stdout (default: the server's file name, in the current directory)")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *f.json {
		return fmt.Errorf("%w: scan pdf writes a PDF, not JSON: leave out --json (geoscan scan report --json prints the report as JSON)", errUsage)
	}
	if err := checkAudience(*audience); err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, false)
	if err != nil {
		return err
	}
	aud := client.GetScanPdfParamsAudience(*audience)
	resp, err := a.c.GetScanPdfWithResponse(ctx, id, &client.GetScanPdfParams{Audience: &aud})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	path := *out
	if path == "" {
		path = fmt.Sprintf("geoscan-%s-%s.pdf", id, *audience)
		if _, p, err := mime.ParseMediaType(resp.HTTPResponse.Header.Get("Content-Disposition")); err == nil && p["filename"] != "" {
			// Only a bare file name is taken from the server.
			if name := filepath.Base(p["filename"]); name != "." && name != "/" && !strings.HasPrefix(name, ".") {
				path = strings.TrimSuffix(name, ".pdf") + "-" + *audience + ".pdf"
			}
		}
	}
	return writeOut(e, path, resp.Body)
}

func scanDelete(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan delete", "Usage: geoscan scan delete ID\n\nDeletes a scan and everything that belongs to it (a running scan is stopped).\n")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.DeleteScanWithResponse(ctx, id)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusNoContent); err != nil {
		return err
	}
	if a.json {
		return nil // 204: the API sends no JSON
	}
	printf(e.stdout, "deleted scan %s\n", id)
	return nil
}
