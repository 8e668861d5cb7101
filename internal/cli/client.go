package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/config"
)

// The client commands (scan, schedule, usage, webhook) talk to a GeoScan
// server through the generated Go client only, as any integrator would.
// Each prints a table, or with --json the API's JSON exactly as received.

// Exit codes of the client commands, beyond 0 (success), 1 (an error: the
// API refused the request, the server could not be reached) and 2 (a
// mistake in the command line).
const (
	exitScanFailed  = 3 // scan create --wait: the scan failed
	exitLogFailed   = 3 // logs upload --wait: the analysis failed
	exitBelowScore  = 4 // scan create --min-score: the scan scored below it
	exitWaitTimeout = 5 // scan create --wait: the scan did not finish in time
	exitWebhook     = 6 // webhook test: not delivered; webhook verify: signature not valid
)

// exitError ends a command with a particular exit code; its message, when
// not empty, goes to stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// apiError is an error response of the API, read from its envelope.
type apiError struct {
	status                int
	code, message, param  string
	requestID, retryAfter string // response headers
}

// Error is the server's message, code and request id (escaped: the
// server's text, bound for a terminal) with the HTTP status.
func (e *apiError) Error() string {
	var b strings.Builder
	printf(&b, "%s (%s", e.message, e.code)
	if e.param != "" {
		printf(&b, ", param %s", e.param)
	}
	printf(&b, ", HTTP %d", e.status)
	if e.requestID != "" {
		printf(&b, ", request id %s", e.requestID)
	}
	b.WriteString(")")
	return b.String()
}

// expect returns nil when the response has one of the wanted statuses and
// otherwise the error the API sent (or a description of what came back).
func expect(resp *http.Response, body []byte, want ...int) error {
	for _, w := range want {
		if resp.StatusCode == w {
			return nil
		}
	}
	var env client.Error
	if err := json.Unmarshal(body, &env); err == nil && env.Error.Code != "" {
		e := &apiError{
			status: resp.StatusCode, code: env.Error.Code, message: env.Error.Message,
			requestID: resp.Header.Get("X-Request-Id"), retryAfter: resp.Header.Get("Retry-After"),
		}
		if env.Error.Param != nil {
			e.param = *env.Error.Param
		}
		return e
	}
	snippet := strings.TrimSpace(string(body))
	if len(snippet) > 200 {
		snippet = snippet[:200] + "…"
	}
	return fmt.Errorf("unexpected answer from the server: HTTP %d %s", resp.StatusCode, escape(snippet))
}

// api is what every client command works with.
type api struct {
	c    *client.ClientWithResponses
	cfg  config.Client
	json bool // print the API's JSON instead of tables
	env  env
}

// newAPI reads GEOSCAN_API_URL and GEOSCAN_API_KEY and builds the client.
func newAPI(e env, asJSON bool) (*api, error) {
	return newAPIWith(e, asJSON, &http.Client{Timeout: 2 * time.Minute})
}

// newUploadAPI is newAPI for a request whose body is a large stream: no
// bound on the whole exchange, which a slow link may need (the server
// bounds an upload's time), but two minutes for the answer once the body
// is sent.
func newUploadAPI(e env, asJSON bool) (*api, error) {
	tr, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return nil, errors.New("the default HTTP transport is not an *http.Transport")
	}
	tr = tr.Clone()
	tr.ResponseHeaderTimeout = 2 * time.Minute
	return newAPIWith(e, asJSON, &http.Client{Transport: tr})
}

// newAPIWith is newAPI sending through doer, unless the environment has a
// client of its own (tests).
func newAPIWith(e env, asJSON bool, doer client.HttpRequestDoer) (*api, error) {
	cfg, err := config.LoadClient(e.getenv)
	if err != nil {
		return nil, err
	}
	if e.httpClient != nil {
		doer = e.httpClient
	}
	c, err := client.NewClientWithResponses(cfg.APIURL, client.WithHTTPClient(doer),
		client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			r.Header.Set("X-API-Key", cfg.APIKey)
			r.Header.Set("User-Agent", "geoscan-cli")
			return nil
		}))
	if err != nil {
		return nil, err
	}
	return &api{c: c, cfg: cfg, json: asJSON, env: e}, nil
}

// printJSON writes a response body as received, ending in a newline.
func (a *api) printJSON(body []byte) error {
	if _, err := a.env.stdout.Write(body); err != nil {
		return err
	}
	if len(body) > 0 && body[len(body)-1] != '\n' {
		_, err := io.WriteString(a.env.stdout, "\n")
		return err
	}
	return nil
}

// clientFlags are the flags every client command has.
type clientFlags struct{ json *bool }

func newClientFlagSet(e env, name, usageText string) (*flag.FlagSet, clientFlags) {
	fs := newFlagSet(e, name)
	f := clientFlags{json: fs.Bool("json", false, "print the API's JSON response instead of a table")}
	fs.Usage = func() {
		printf(fs.Output(), "%s", lines(usageText))
		fmt.Fprintln(fs.Output(), "\nFlags:")
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output(), "\nEnvironment:")
		_ = config.WriteClientHelp(fs.Output())
	}
	return fs, f
}

// parseArgs parses flags wherever they stand among the arguments, so
// `geoscan scan create URL --wait` works, and returns the positional
// arguments checked against the count the command takes.
func parseArgs(fs *flag.FlagSet, args []string, minPos, maxPos int) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	switch {
	case len(pos) < minPos:
		return nil, fmt.Errorf("%w: %s needs %d argument(s), got %d", errUsage, fs.Name(), minPos, len(pos))
	case len(pos) > maxPos:
		return nil, fmt.Errorf("%w: %s takes at most %d argument(s), got %q", errUsage, fs.Name(), maxPos, pos)
	}
	return pos, nil
}

// isTerminal reports whether w is a terminal (progress is drawn in place
// there, and written as plain lines anywhere else).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) //nolint:gosec // a file descriptor fits an int
}

func newTable(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0) }

// Formatting of nullable values for tables.

func orDash[T any](p *T) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

func scoreText(score *float64, grade *string) string {
	if score == nil {
		return "-"
	}
	s := strconv.FormatFloat(*score, 'f', 1, 64)
	if grade != nil {
		s += " " + *grade
	}
	return s
}

func ringText(score *int, grade *string) string {
	if score == nil {
		return "-"
	}
	s := strconv.Itoa(*score)
	if grade != nil {
		s += " " + *grade
	}
	return s
}

func timeText(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// usageCmd prints today's usage of the organization.
func usageCmd(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "usage", "Usage: geoscan usage [--json]\n\nShows the organization's plan, today's scan quota and what is left of it, schedules and rate limits.\n")
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.GetUsageWithResponse(ctx)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	u := resp.JSON200
	tw := newTable(e.stdout)
	printf(tw, "Plan\t%s (subscription %s)\n", u.Plan, u.SubscriptionStatus)
	printf(tw, "Date\t%s (UTC)\n", u.Date)
	printf(tw, "Scans today\t%d of %d used, %d left\n", u.Used, u.DailyLimit, u.Remaining)
	printf(tw, "Quota resets\t%s\n", u.ResetsAt.UTC().Format(time.RFC3339))
	printf(tw, "Schedules\t%d of %d active\n", u.Schedules.Active, u.Schedules.Limit)
	printf(tw, "Rate limits\t%d writes and %d reads per minute\n", u.RateLimits.APIWrite, u.RateLimits.APIRead)
	return tw.Flush()
}

// retryAfter is how long a 429 asks to wait, at least a second.
func retryAfter(err error) (time.Duration, bool) {
	var ae *apiError
	if !errors.As(err, &ae) || ae.status != http.StatusTooManyRequests {
		return 0, false
	}
	n, convErr := strconv.Atoi(ae.retryAfter)
	if convErr != nil || n < 1 {
		n = 1
	}
	return time.Duration(n) * time.Second, true
}
