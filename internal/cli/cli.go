// Package cli implements the geoscan subcommands: serve, migrate, dev, the
// organization and API-key administration commands, and the client
// commands (scan, schedule, usage, webhook) that use a server's API
// through the generated Go client.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

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

Client commands (GEOSCAN_API_URL, GEOSCAN_API_KEY; each takes --json):
  geoscan scan create URL [--brand NAME] [--callback-url URL] [--wait] [--min-score N]
  geoscan scan get|report|triage|checks|pdf|delete ID
  geoscan scan list | export | compare BASE TARGET       (geoscan scan help)
  geoscan schedule create URL | list | get ID | update ID | delete ID   (geoscan schedule help)
  geoscan usage
  geoscan webhook test URL | verify --secret S --signature SIG --payload-file F
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
	case errors.Is(err, errUsage):
		if len(args) > 0 && oneOf(args[0], "scan", "schedule", "webhook", "usage") {
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

func dispatch(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: no command given", errUsage)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serve(ctx, e, rest)
	case "dev":
		return dev(ctx, e, rest)
	case "demo":
		return demo(ctx, e, rest)
	case "fixtures":
		return fixtures(ctx, e, rest)
	case "migrate":
		return migrate(ctx, e, rest)
	case "triage":
		return triageCmd(ctx, e, rest)
	case "org":
		return org(ctx, e, rest)
	case "key":
		return key(ctx, e, rest)
	case "member":
		return member(ctx, e, rest)
	case "outbox":
		return outbox(ctx, e, rest)
	case "scan":
		return scanCmd(ctx, e, rest)
	case "schedule":
		return scheduleCmd(ctx, e, rest)
	case "usage":
		return usageCmd(ctx, e, rest)
	case "webhook":
		return webhookCmd(ctx, e, rest)
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, usage)
		return nil
	}
	return fmt.Errorf("%w: unknown command %q", errUsage, cmd)
}

func newFlagSet(e env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(layoutWriter{e.stderr}) // its messages echo the command line
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	return nil
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

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}
