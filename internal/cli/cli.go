// Package cli implements the geoscan subcommands: serve, migrate, dev, the
// organization and API-key administration commands, and the client
// commands (scan, schedule, logs, usage, webhook) that use a server's API
// through the generated Go client.
package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/dbmigrate"
)

// env is what every command gets.
type env struct {
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// httpClient, when set, carries the client commands' requests (tests
	// validate every response against the contract with it).
	httpClient client.HttpRequestDoer
	// terminal, when set, tells which writers are terminals (tests);
	// otherwise a writer is one when it is an *os.File on a terminal.
	terminal func(io.Writer) bool
	// inspectFlags, when set, is handed each flag set a command builds,
	// and the command then stops as for --help (shell completion lists
	// the flags that way).
	inspectFlags func(*flag.FlagSet)
}

// tty reports whether w is a terminal.
func (e env) tty(w io.Writer) bool {
	if e.terminal != nil {
		return e.terminal(w)
	}
	return isTerminal(w)
}

const usage = `geoscan — GEO audit service

Usage:
  geoscan serve [--role api|worker|all] run the HTTP API and scan workers (see geoscan serve --help)
  geoscan dev                           run with a private PostgreSQL under GEOSCAN_DATA_DIR and a dev API key (make run)
  geoscan demo                          scan the built-in fixture sites offline and print the grades (make demo)
  geoscan fixtures                      serve the fixture sites and print the settings to scan them (dev/test)
  geoscan migrate                       apply database migrations
  geoscan triage recompute [--queue] [--missing N] [SCAN_ID ...]
                                        compute triage dossiers again (scans without one)
  geoscan org create --name NAME [--plan free|pro] [--inactive]
  geoscan org set-subscription ORG_ID active|inactive
  geoscan org set-limits ORG_ID [--api-read N] [--api-write N] [--daily-scans N] [--schedules N]
                          [--crawl-rate R] [--crawl-concurrency N] [--clear]
                                        per-organization overrides (N or plan); running servers apply them at once
  geoscan org show ORG_ID               plan, limits and overrides, today's usage, members and keys
  geoscan org branding show|reset ORG_ID
  geoscan org branding set ORG_ID [--name NAME] [--color #rrggbb] [--logo FILE] [--contact TEXT] [--footer TEXT]
                          [--show-geoscan=false]
                                        the white-label look of reports and emails; set changes the flags given
  geoscan member add --org ORG_ID --email EMAIL [--name NAME] [--role owner|member]
  geoscan member list --org ORG_ID
  geoscan key create --org ORG_ID [--name NAME] [--member EMAIL]
  geoscan key list --org ORG_ID
  geoscan key revoke KEY_ID
  geoscan outbox list [--org ORG_ID] [--status pending|sent|held|failed] [--limit N]
  geoscan outbox show MESSAGE_ID        print a notification email as built (to, subject, text)
  geoscan outbox send [MESSAGE_ID ...] [--held] [--failed] [--org ORG_ID] [--dry-run]
                                        queue held (or failed) emails for sending again; needs GEOSCAN_SMTP_URL
  geoscan schedule tick [--at RFC3339] [--org ORG_ID]
                                        create the scans of the schedules due now (or at --at) and exit
  geoscan completion bash|zsh|fish      print the shell's completion script (geoscan completion --help)
  geoscan version                       the module version and commit of this binary (also --version)

Client commands (GEOSCAN_API_URL, GEOSCAN_API_KEY; --json prints the API's JSON, but for pdf and export):
  geoscan scan create URL [--brand NAME] [--callback-url URL] [--language en|de|fr|es] [--competitor URL ...]
                          [--wait] [--min-score N] [--fail-under RING=N] [--sarif FILE] [--junit FILE]
  geoscan scan get|report|triage|checks|pdf|delete ID
  geoscan scan list | export | compare BASE TARGET       (geoscan scan help)
  geoscan schedule create URL | list | get ID | update ID | delete ID   (geoscan schedule help)
  geoscan logs upload FILE|- --domain HOST | --schedule ID [--wait]
                                        which AI crawlers really visit: a site's access log, analysed
  geoscan logs get ID [--days] [--pages] | list | delete ID   (geoscan logs help)
  geoscan usage
  geoscan webhook test URL | verify --secret S --signature SIG --payload-file F
  geoscan mcp [--max-wait D]            serve these as tools to an AI assistant over MCP on stdio (docs/API.md)
`

// errUsage marks a mistake in the command line; it exits 2.
var errUsage = errors.New("usage")

// Main runs the command in args and returns the process exit code.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return mainWith(ctx, env{getenv: getenv, stdin: os.Stdin, stdout: stdout, stderr: stderr}, args)
}

func mainWith(ctx context.Context, e env, args []string) int {
	err := dispatch(ctx, e, args)
	var exit *exitError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &exit):
		if exit.msg != "" {
			printf(e.stderr, "geoscan: %s\n", lines(exit.msg))
		}
		return exit.code
	case errors.Is(err, errUsage) && helpAsked(args):
		// A command without flags of its own, or a group asked for help:
		// its lines of the usage answer.
		printf(e.stdout, "%s", lines(usageOf(args)))
		return 0
	case errors.Is(err, errUsage):
		if len(args) > 0 && oneOf(args[0], "scan", "schedule", "logs", "webhook", "usage") {
			// The group's own usage is already part of the message.
			printf(e.stderr, "%s\n", lines(err.Error()))
		} else {
			printf(e.stderr, "%s\n\n%s", lines(err.Error()), lines(usage))
		}
		return 2
	default:
		// Text from the server is escaped where it enters an error
		// (apiError, expect); an error of several lines (configuration)
		// keeps them.
		printf(e.stderr, "geoscan: %s\n", lines(err.Error()))
		return 1
	}
}

// command is one of geoscan's commands: its name, what runs it, and, for a
// group, its subcommands (a nested one as "share create"), which help and
// shell completion list.
type command struct {
	name string
	run  func(ctx context.Context, e env, args []string) error
	sub  []string
}

// commandTable is every command of geoscan, one per line.
func commandTable() []command {
	return []command{
		{name: "serve", run: serve},
		{name: "dev", run: dev},
		{name: "demo", run: demo},
		{name: "fixtures", run: fixtures},
		{name: "migrate", run: migrate},
		{name: "triage", run: triageCmd, sub: []string{"recompute"}},
		{name: "org", run: org, sub: []string{"create", "set-subscription", "set-limits", "show", "branding show", "branding set", "branding reset"}},
		{name: "key", run: key, sub: []string{"create", "list", "revoke"}},
		{name: "member", run: member, sub: []string{"add", "list"}},
		{name: "outbox", run: outbox, sub: []string{"list", "show", "send"}},
		{name: "scan", run: scanCmd, sub: []string{
			"create", "get", "list", "report", "triage", "checks", "compare", "export", "pdf", "fixes", "pages",
			"share create", "share list", "share revoke", "delete",
		}},
		{name: "schedule", run: scheduleCmd, sub: []string{"create", "list", "get", "update", "delete", "runs", "tick"}},
		{name: "logs", run: logsCmd, sub: []string{"upload", "get", "list", "delete"}},
		{name: "usage", run: usageCmd},
		{name: "webhook", run: webhookCmd, sub: []string{"test", "verify"}},
		{name: "mcp", run: mcpCmd},
		{name: "completion", run: completionCmd, sub: []string{"bash", "zsh", "fish"}},
		{name: "version", run: versionCmd},
	}
}

func dispatch(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: no command given", errUsage)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, usage)
		return nil
	case "--version", "-version":
		return versionCmd(ctx, e, rest)
	}
	for _, c := range commandTable() {
		if c.name == cmd {
			return c.run(ctx, e, rest)
		}
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

func newFlagSet(e env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(&flagOutput{stdout: e.stdout, stderr: e.stderr, inspect: e.inspectFlags})
	return fs
}

// flagOutput is where a flag set writes its usage and its complaints. What
// it writes is held until Parse returns, then goes to stdout when help was
// asked for (-h, --help: the usage is the answer) and to stderr after a
// mistake; either way with the layout kept and anything else that would
// act on a terminal escaped, since the messages echo the command line.
type flagOutput struct {
	buf            bytes.Buffer
	stdout, stderr io.Writer
	inspect        func(*flag.FlagSet)
}

func (o *flagOutput) Write(p []byte) (int, error) { return o.buf.Write(p) }

func (o *flagOutput) flush(w io.Writer) {
	if w != nil && o.buf.Len() > 0 {
		_, _ = layoutWriter{w}.Write(o.buf.Bytes())
	}
	o.buf.Reset()
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	out, _ := fs.Output().(*flagOutput)
	if out != nil && out.inspect != nil {
		// Shell completion reads the flags and runs nothing.
		out.inspect(fs)
		return flag.ErrHelp
	}
	err := fs.Parse(args)
	if out != nil {
		switch {
		case errors.Is(err, flag.ErrHelp):
			out.flush(out.stdout)
		case err != nil && strings.Contains(err.Error(), "not defined: -json"):
			out.buf.Reset()
		default:
			out.flush(out.stderr)
		}
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return err
	case strings.Contains(err.Error(), "not defined: -json"):
		return fmt.Errorf("%w: geoscan %s prints no JSON: --json is for the client commands that read the API (geoscan help)", errUsage, fs.Name())
	}
	return fmt.Errorf("%w: %w", errUsage, err)
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	level := slog.LevelInfo
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(newJSONLog(w, opts))
}

// openStore connects and migrates for the administration commands.
func openStore(ctx context.Context, e env) (*store.Store, func(), error) {
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return nil, nil, err
	}
	if cfg.DatabaseURL == "" {
		return nil, nil, errors.New("DATABASE_URL is not set")
	}
	pool, err := store.NewPool(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, nil, fmt.Errorf("connect to database: %w", err)
	}
	if err := dbmigrate.Up(ctx, pool); err != nil {
		pool.Close()
		return nil, nil, fmt.Errorf("migrate: %w", err)
	}
	return store.New(pool), pool.Close, nil
}

// openQueue is openStore with an insert-only River client on the same
// pool: commands that queue work (schedule tick, outbox send) insert the
// jobs, and the workers of `geoscan serve` run them.
func openQueue(ctx context.Context, e env) (*store.Store, *river.Client[pgx.Tx], func(), error) {
	st, closeFn, err := openStore(ctx, e)
	if err != nil {
		return nil, nil, nil, err
	}
	queue, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{})
	if err != nil {
		closeFn()
		return nil, nil, nil, fmt.Errorf("queue client: %w", err)
	}
	return st, queue, closeFn, nil
}

// warnLogger is the logger of a one-shot command: warnings and errors only,
// as text on stderr.
func warnLogger(e env) *slog.Logger {
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// positional parses the command line of a command that takes no flags,
// only n arguments (synopsis names them): --help shows its usage and any
// flag is refused.
func positional(e env, name, synopsis, about string, args []string, n int) ([]string, error) {
	fs := newFlagSet(e, name)
	fs.Usage = func() { printf(fs.Output(), "Usage: geoscan %s %s\n\n%s\n", name, synopsis, about) }
	return parseArgs(fs, args, n, n)
}

// helpAsked reports whether the command line asks for help (-h, --help)
// before any "--".
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--h", "--help":
			return true
		}
	}
	return false
}

// usageOf is the lines of the usage about the command args name (its
// words before the first flag or argument that is not a command), or the
// whole usage when no line is about it.
func usageOf(args []string) string {
	var words []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			break
		}
		words = append(words, a)
	}
	for n := len(words); n > 0; n-- {
		prefix := "  geoscan " + strings.Join(words[:n], " ")
		var b strings.Builder
		in := false
		for line := range strings.Lines(usage) {
			switch {
			case strings.HasPrefix(line, prefix+" ") || strings.HasPrefix(line, prefix+"\n"):
				in = true
			case strings.HasPrefix(line, "    ") && in: // a continuation
			default:
				in = false
			}
			if in {
				b.WriteString(line)
			}
		}
		if b.Len() > 0 {
			return "Usage:\n" + b.String()
		}
	}
	return usage
}

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}
