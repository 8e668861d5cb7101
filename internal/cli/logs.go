package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/client"
)

// The access-log commands: a site's log goes to the server as a stream
// (gzip as it is), the server analyses it in the background, and the
// analysis is read back as tables. What the tables show of the log itself
// (paths, product tokens) is the log's text and is escaped like any other.

const logsUsage = `Usage: geoscan logs COMMAND [flags]

  upload FILE|-   send a site's access log, to learn which AI crawlers really visit it: plain text or
                  gzip, as the file is; - reads stdin. --domain HOST | --schedule ID [--wait] [--timeout 10m]
  get ID          the analysis: lines read, formats, period, each crawler's verified and claimed hits and
                  status codes, and the cross-check with the site's latest audit [--days] [--pages]
  list            the organization's logs, newest first [--domain HOST] [--limit N] [--cursor C]
  delete ID       delete a log and its analysis

Every command takes --json to print the API's JSON instead of a table.
Exit codes: 0 success, 1 error (the API's message and code are printed), 2 command-line mistake,
3 the analysis failed (upload --wait), 5 --wait timed out.
`

func logsCmd(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: logs needs a command\n\n%s", errUsage, logsUsage)
	}
	switch args[0] {
	case "upload":
		return logsUpload(ctx, e, args[1:])
	case "get":
		return logsGet(ctx, e, args[1:])
	case "list":
		return logsList(ctx, e, args[1:])
	case "delete":
		return logsDelete(ctx, e, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, logsUsage)
		return nil
	}
	return fmt.Errorf("%w: unknown logs command %q\n\n%s", errUsage, args[0], logsUsage)
}

// isGzip reports a gzip stream by its magic number (RFC 1952): a name
// ending in .gz proves nothing, and a compressed log may be named anything.
func isGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }

// openLog opens the log to upload: a file, or stdin for "-".
func openLog(e env, path string) (io.Reader, string, func(), error) {
	if path == "-" {
		return e.stdin, "stdin", func() {}, nil
	}
	f, err := os.Open(path) //nolint:gosec // the file the user names
	if err != nil {
		return nil, "", nil, err
	}
	return f, path, func() { _ = f.Close() }, nil
}

func logsUpload(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "logs upload", "Usage: geoscan logs upload FILE|- (--domain HOST | --schedule ID) [flags]\n\n"+
		"Streams a web server's access log to the server, which analyses it in the background: which AI\n"+
		"crawlers visited, whether they are who they claim to be, what they requested and what they got.\n"+
		"Plain text (Combined, Common, W3C, the JSON lines of CDN exports) or gzip, sent as the file is;\n"+
		"- reads the log from stdin.\n")
	domain := fs.String("domain", "", "the site's host name the log is of (www.example.com; of a URL its host is taken)")
	schedule := fs.String("schedule", "", "file the log under this schedule's site, instead of --domain")
	wait := fs.Bool("wait", false, "wait until the log is analysed, showing its status on stderr, then print the analysis")
	timeout := fs.Duration("timeout", 10*time.Minute, "with --wait, give up after this long (exit code 5)")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	params := &client.CreateCrawlerLogParams{}
	switch {
	case *domain != "" && *schedule != "":
		return fmt.Errorf("%w: give --domain or --schedule, not both", errUsage)
	case *domain != "":
		params.Domain = domain
	case *schedule != "":
		id, err := parseID(*schedule, "schedule id")
		if err != nil {
			return err
		}
		params.ScheduleID = &id
	default:
		return fmt.Errorf("%w: name the site the log is of: --domain HOST or --schedule ID", errUsage)
	}
	src, name, closeLog, err := openLog(e, pos[0])
	if err != nil {
		return err
	}
	defer closeLog()
	// The upload is streamed: the reader is handed to the request as it
	// is, never read into memory, and only its first bytes are looked at.
	body := bufio.NewReaderSize(src, 64<<10)
	head, err := body.Peek(2)
	switch {
	case len(head) == 0 && errors.Is(err, io.EOF):
		return fmt.Errorf("%s is empty: there is no log to upload", escape(name))
	case len(head) == 0 && err != nil:
		return fmt.Errorf("read %s: %w", escape(name), err)
	}
	contentType := "text/plain"
	if isGzip(head) {
		contentType = "application/gzip"
	}
	a, err := newUploadAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.CreateCrawlerLogWithBodyWithResponse(ctx, params, contentType, body)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusAccepted); err != nil {
		return err
	}
	lg := resp.JSON202
	if !*wait {
		if a.json {
			return a.printJSON(resp.Body)
		}
		if err := printCrawlerLog(e.stdout, lg); err != nil {
			return err
		}
		printf(e.stderr, "analysed in the background: geoscan logs get %s\n", lg.ID)
		return nil
	}
	final, raw, err := a.waitForLog(ctx, lg.ID, *timeout)
	if err != nil {
		return err
	}
	if a.json {
		err = a.printJSON(raw)
	} else {
		err = printCrawlerLog(e.stdout, final)
	}
	if err != nil {
		return err
	}
	if final.Status == client.CrawlerLogFailed {
		code, msg := "-", "-"
		if final.Error != nil {
			code, msg = final.Error.Code, final.Error.Message
		}
		return &exitError{code: exitLogFailed, msg: sprintf("log %s could not be analysed: %s (%s)", final.ID, msg, code)}
	}
	return nil
}

// logPhrase is a log's status as a sentence says it: "log … is queued".
func logPhrase(s client.CrawlerLogStatus) string {
	switch s {
	case client.CrawlerLogQueued:
		return "is waiting to be analysed"
	case client.CrawlerLogRunning:
		return "is being analysed"
	case client.CrawlerLogSucceeded:
		return "was analysed"
	case client.CrawlerLogFailed:
		return "could not be analysed"
	}
	return "is in state " + string(s)
}

func logFinished(s client.CrawlerLogStatus) bool {
	return s == client.CrawlerLogSucceeded || s == client.CrawlerLogFailed
}

// waitForLog polls a log until its analysis has succeeded or failed, as
// waitForScan polls a scan: backing off from half a second to five,
// honouring Retry-After, its status on stderr (redrawn in place on a
// terminal, a line per change elsewhere).
func (a *api) waitForLog(ctx context.Context, id uuid.UUID, timeout time.Duration) (*client.CrawlerLog, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tty := a.env.tty(a.env.stderr)
	start := time.Now()
	delay := 500 * time.Millisecond
	var last client.CrawlerLogStatus
	timedOut := func() error {
		if tty {
			fmt.Fprintln(a.env.stderr)
		}
		return &exitError{code: exitWaitTimeout, msg: fmt.Sprintf("log %s was not analysed within %s; the analysis goes on: geoscan logs get %s", id, timeout, id)}
	}
	for i := 0; ; i++ {
		resp, err := a.c.GetCrawlerLogWithResponse(ctx, id, nil)
		if err == nil {
			err = expect(resp.HTTPResponse, resp.Body, http.StatusOK)
		}
		wait := delay
		switch d, limited := retryAfter(err); {
		case limited:
			wait = d
		case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
			return nil, nil, timedOut()
		case err != nil:
			return nil, nil, err
		default:
			lg := resp.JSON200
			phrase := logPhrase(lg.Status)
			switch {
			case tty:
				printf(a.env.stderr, "\r\033[K%s log %s %s (%s)", spinnerFrame(i), id, phrase, time.Since(start).Round(100*time.Millisecond))
			case lg.Status != last:
				printf(a.env.stderr, "log %s %s\n", id, phrase)
			}
			last = lg.Status
			if logFinished(lg.Status) {
				if tty {
					fmt.Fprintln(a.env.stderr)
				}
				return lg, resp.Body, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, nil, timedOut()
		case <-time.After(wait):
		}
		delay = min(delay*2, 5*time.Second)
	}
}

func logsGet(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "logs get", "Usage: geoscan logs get ID [--days] [--pages] [--json]\n\n"+
		"Shows an uploaded access log and, once analysed, what AI crawlers did on the site: each one's hits,\n"+
		"how many are verified and how many only claim to be it, the status codes they got, and the log set\n"+
		"beside the site's latest audit.\n")
	days := fs.Bool("days", false, "add each crawler's hits per day")
	pages := fs.Bool("pages", false, "add the pages each crawler requested most")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "log id")
	if err != nil {
		return err
	}
	var include []client.GetCrawlerLogParamsInclude
	if *days {
		include = append(include, client.CrawlerLogIncludeDays)
	}
	if *pages {
		include = append(include, client.CrawlerLogIncludePages)
	}
	params := &client.GetCrawlerLogParams{}
	if len(include) > 0 {
		params.Include = &include
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.GetCrawlerLogWithResponse(ctx, id, params)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	return printCrawlerLog(e.stdout, resp.JSON200)
}

func logsList(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "logs list", "Usage: geoscan logs list [flags]\n\nLists the organization's uploaded access logs, newest first.\n")
	domain := fs.String("domain", "", "only logs of this host name")
	limit := fs.Int("limit", 20, "page size (1-100)")
	cursor := fs.String("cursor", "", "the next_cursor of the previous page")
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	params := &client.ListCrawlerLogsParams{Limit: limit}
	if *domain != "" {
		params.Domain = domain
	}
	if *cursor != "" {
		params.Cursor = cursor
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.ListCrawlerLogsWithResponse(ctx, params)
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
	fmt.Fprintln(tw, "ID\tSTATUS\tLINES\tCRAWLERS\tUPLOADED\tDOMAIN")
	for _, l := range resp.JSON200.Data {
		crawlers := "-"
		if l.Status == client.CrawlerLogSucceeded {
			crawlers = strconv.Itoa(len(l.Bots))
		}
		printf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.ID, l.Status, orDash(l.Lines), crawlers, timeText(&l.CreatedAt), l.Domain)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if resp.JSON200.HasMore && resp.JSON200.NextCursor != nil {
		printf(e.stderr, "more logs: geoscan logs list --cursor %s\n", *resp.JSON200.NextCursor)
	}
	return nil
}

func logsDelete(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "logs delete", "Usage: geoscan logs delete ID\n\nDeletes an uploaded access log, its upload if it is still stored, and its analysis.\n")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "log id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.DeleteCrawlerLogWithResponse(ctx, id)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusNoContent); err != nil {
		return err
	}
	if a.json {
		return nil // 204: the API sends no JSON
	}
	printf(e.stdout, "deleted log %s\n", id)
	return nil
}

// logRowsShown bounds the rows of a log's lists a table shows (pages per
// crawler, refused pages, pages never crawled); --json has them all.
const logRowsShown = 20

// printCrawlerLog shows a log: what was uploaded and, once analysed, what
// was read, the crawlers, their days and pages when asked for, and the
// cross-check with the site's latest audit.
func printCrawlerLog(w io.Writer, l *client.CrawlerLog) error {
	tw := newTable(w)
	printf(tw, "ID\t%s\n", l.ID)
	printf(tw, "Domain\t%s\n", l.Domain)
	if l.ScheduleID != nil {
		printf(tw, "Schedule\t%s\n", *l.ScheduleID)
	}
	printf(tw, "Status\t%s\n", l.Status)
	gz := ""
	if l.Gzip {
		gz = ", gzip"
	}
	printf(tw, "Uploaded\t%s (%s%s)\n", timeText(&l.CreatedAt), byteSize(l.Bytes), gz)
	if l.Error != nil {
		printf(tw, "Error\t%s: %s\n", l.Error.Code, l.Error.Message)
	}
	if l.Status != client.CrawlerLogSucceeded || l.Lines == nil {
		return tw.Flush()
	}
	printf(tw, "Analysed\t%s\n", timeText(l.CompletedAt))
	printf(tw, "Lines\t%d: %d read, %d not read\n", *l.Lines, deref64(l.ParsedLines), deref64(l.UnparsedLines))
	if l.Unparsed != nil {
		for _, u := range *l.Unparsed {
			printf(tw, "  not read\t%d %s (the first on line %d)\n", u.Count, strings.ReplaceAll(u.Reason, "_", " "), u.FirstLine)
		}
	}
	if l.Formats != nil && len(*l.Formats) > 0 {
		parts := make([]string, 0, len(*l.Formats))
		for _, fm := range *l.Formats {
			parts = append(parts, fm.Format+" "+strconv.FormatInt(fm.Lines, 10))
		}
		printf(tw, "Formats\t%s\n", strings.Join(parts, ", "))
	}
	if l.FirstSeen != nil {
		printf(tw, "Period\t%s to %s\n", timeText(l.FirstSeen), timeText(l.LastSeen))
	}
	printf(tw, "Other hits\t%d (people, and bots not listed below)\n", deref64(l.OtherHits))
	if n := deref64(l.OtherHostLines); n > 0 {
		printf(tw, "Other hosts\t%d lines of other host names, not analysed\n", n)
	}
	if l.RangesUpdated != nil {
		printf(tw, "IP ranges\tthe operators' lists, published %s or later\n", l.RangesUpdated.String())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := printLogBots(w, l.Bots); err != nil {
		return err
	}
	if err := printLogDays(w, l.Bots); err != nil {
		return err
	}
	if err := printLogPages(w, l.Bots); err != nil {
		return err
	}
	return printCrossCheck(w, l.CrossCheck)
}

func printLogBots(w io.Writer, bots []client.CrawlerLogBot) error {
	if len(bots) == 0 {
		fmt.Fprintln(w, "\nNo AI or search crawler is named in the log.")
		return nil
	}
	fmt.Fprintln(w, "\nCrawlers, most hits first. A user agent is only a claim: verified hits came from the operator's")
	fmt.Fprintln(w, "published addresses or its reverse DNS.")
	tw := newTable(w)
	fmt.Fprintln(tw, "BOT\tROLE\tHITS\tVERIFIED\tUNVERIFIED\tFAILED\tNOT CHECKED\tSTATUSES")
	for _, b := range bots {
		unverified := "0"
		if b.UnverifiedHits > 0 {
			unverified = sprintf("%d (claims to be %s, unverified)", b.UnverifiedHits, b.Token)
		}
		printf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%d\t%s\n", b.Token, strings.ReplaceAll(string(b.Role), "_", " "), b.Hits, b.VerifiedHits,
			unverified, b.Verification.FailedHits, b.Verification.NotCheckedHits, statusesText(b.Statuses))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "FAILED: from addresses the operator's ranges or reverse DNS rule out, very likely not the crawler.")
	fmt.Fprintln(w, "NOT CHECKED: the operator publishes no way to verify, or DNS could not be asked.")
	return nil
}

func printLogDays(w io.Writer, bots []client.CrawlerLogBot) error {
	type row struct {
		date string
		bot  int
		day  client.CrawlerLogDay
	}
	var rows []row
	asked := false
	for i, b := range bots {
		if b.Days == nil {
			continue
		}
		asked = true
		for _, d := range *b.Days {
			rows = append(rows, row{d.Date.String(), i, d})
		}
	}
	if !asked {
		return nil
	}
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Or(strings.Compare(a.date, b.date), cmp.Compare(a.bot, b.bot)) })
	fmt.Fprintln(w, "\nHits per day (UTC):")
	tw := newTable(w)
	fmt.Fprintln(tw, "DATE\tBOT\tHITS\tVERIFIED")
	for _, r := range rows {
		printf(tw, "%s\t%s\t%d\t%d\n", r.date, bots[r.bot].Token, r.day.Hits, r.day.VerifiedHits)
	}
	return tw.Flush()
}

func printLogPages(w io.Writer, bots []client.CrawlerLogBot) error {
	asked := slices.ContainsFunc(bots, func(b client.CrawlerLogBot) bool { return b.Pages != nil })
	if !asked {
		return nil
	}
	fmt.Fprintln(w, "\nThe pages each crawler requested most:")
	tw := newTable(w)
	fmt.Fprintln(tw, "BOT\tHITS\tVERIFIED\tSTATUSES\tPATH")
	var notes []string
	for _, b := range bots {
		if b.Pages == nil {
			continue
		}
		ps := *b.Pages
		for _, p := range ps[:min(len(ps), logRowsShown)] {
			printf(tw, "%s\t%d\t%d\t%s\t%s\n", b.Token, p.Hits, p.VerifiedHits, statusesText(p.Statuses), p.Path)
		}
		switch {
		case len(ps) > logRowsShown:
			notes = append(notes, sprintf("%s: %d more pages listed by --json", b.Token, len(ps)-logRowsShown))
		case b.PagesTruncated != nil && *b.PagesTruncated:
			notes = append(notes, sprintf("%s requested more distinct paths than are kept; the most requested are listed", b.Token))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		printf(w, "%s\n", n)
	}
	return nil
}

func printCrossCheck(w io.Writer, cc *client.CrawlerLogCrossCheck) error {
	if cc == nil {
		return nil
	}
	if cc.Status != client.CrossCheckMeasured {
		printf(w, "\nCross-check with the site's latest audit: not measured. %s\n", orDash(cc.Reason))
		return nil
	}
	printf(w, "\nCross-check with the site's latest audit (scan %s):\n", orDash(cc.ScanID))
	rb := cc.RefusedButAllowed
	switch {
	case !rb.Measured:
		printf(w, "Refused although robots.txt allows them: not measured. %s\n", orDash(rb.Reason))
	case rb.Count == 0:
		fmt.Fprintln(w, "Refused although robots.txt allows them: none.")
	default:
		printf(w, "Refused although robots.txt allows them: %s, %s; a WAF, rate limiter or bot filter\n", counted(int64(rb.Count), "page"), counted(rb.Hits, "hit"))
		fmt.Fprintln(w, "may be blocking what the site means to allow:")
		tw := newTable(w)
		fmt.Fprintln(tw, "BOT\tHITS\tVERIFIED\tSTATUSES\tPATH\tROBOTS.TXT")
		for _, p := range rb.Pages[:min(len(rb.Pages), logRowsShown)] {
			printf(tw, "%s\t%d\t%d\t%s\t%s\t%s\n", p.Token, p.Hits, p.VerifiedHits, statusesText(p.Statuses), p.Path, p.Robots)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if more := rb.Count - min(len(rb.Pages), logRowsShown); more > 0 {
			printf(w, "… and %d more (--json lists the first %d)\n", more, len(rb.Pages))
		}
		if rb.Truncated {
			fmt.Fprintln(w, "The log had more refused pages than were evaluated.")
		}
	}
	nc := cc.NeverCrawled
	switch {
	case !nc.Measured:
		printf(w, "Audited pages no AI search crawler requested: not measured. %s\n", orDash(nc.Reason))
	case nc.Count == 0:
		fmt.Fprintln(w, "Audited pages no AI search crawler requested: none.")
	default:
		printf(w, "Audited pages no AI search crawler requested: %d.\n", nc.Count)
		for _, p := range nc.Pages[:min(len(nc.Pages), logRowsShown)] {
			printf(w, "  %s\n", p)
		}
		if more := nc.Count - min(len(nc.Pages), logRowsShown); more > 0 {
			printf(w, "  … and %d more (--json lists the first %d)\n", more, len(nc.Pages))
		}
	}
	return nil
}

// statusesText is the three status codes with most hits: "200×41 403×2 …".
func statusesText(ss []client.StatusHits) string {
	if len(ss) == 0 {
		return "-"
	}
	ss = slices.Clone(ss)
	slices.SortStableFunc(ss, func(a, b client.StatusHits) int {
		return cmp.Or(cmp.Compare(b.Hits, a.Hits), cmp.Compare(a.Status, b.Status))
	})
	parts := make([]string, 0, 4)
	for _, s := range ss[:min(len(ss), 3)] {
		parts = append(parts, strconv.Itoa(s.Status)+"×"+strconv.FormatInt(s.Hits, 10))
	}
	if len(ss) > 3 {
		parts = append(parts, "…")
	}
	return strings.Join(parts, " ")
}

// byteSize is a size for a person: "512 bytes", "4.2 KiB", "1.3 GiB".
func byteSize(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	v, unit := float64(n)/1024, "KiB"
	for _, u := range []string{"MiB", "GiB", "TiB"} {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// printCrawlerActivity shows a report's crawler_activity: the site's
// latest analysed access log, with the cross-check made with this scan.
func printCrawlerActivity(w io.Writer, ca *client.CrawlerActivity) error {
	if ca == nil {
		return nil
	}
	period := ""
	if ca.FirstSeen != nil && ca.LastSeen != nil {
		period = sprintf(", %s to %s", ca.FirstSeen.UTC().Format(time.DateOnly), ca.LastSeen.UTC().Format(time.DateOnly))
	}
	printf(w, "\nAI crawlers in the site's access log (log %s%s; geoscan logs get for more):", ca.LogID, period)
	if err := printLogBots(w, ca.Bots); err != nil {
		return err
	}
	return printCrossCheck(w, ca.CrossCheck)
}

// counted is "1 page", "3 pages".
func counted(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return sprintf("%d %ss", n, noun)
}
