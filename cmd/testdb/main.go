// Command testdb runs a command with GEOSCAN_TEST_DATABASE_URL pointing at an
// ephemeral PostgreSQL cluster, then stops and removes the cluster:
//
//	go run ./cmd/testdb -- go test ./...
//
// With GEOSCAN_TEST_DATABASE_URL already set it just runs the command.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/geoscan/geoscan/internal/pgcluster"
	"github.com/geoscan/geoscan/internal/pgtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: testdb -- COMMAND [ARGS...]")
		return 2
	}
	env := os.Environ()
	if os.Getenv(pgtest.EnvAdminURL) == "" {
		cluster, err := pgcluster.StartEphemeral(ctx, nil)
		if err != nil {
			fmt.Fprintf(stderr, "testdb: %v\n", err)
			return 1
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if err := cluster.Stop(stopCtx); err != nil {
				fmt.Fprintf(stderr, "testdb: %v\n", err)
			}
			_ = cluster.Remove()
		}()
		env = append(env, pgtest.EnvAdminURL+"="+cluster.URL("postgres"))
	}
	// The child is not tied to ctx: on Ctrl-C the terminal signals it too,
	// and we wait for it so the cluster is removed only after it exits.
	cmd := exec.Command(args[0], args[1:]...) //nolint:gosec,noctx // running the given command is this program's job
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, stdout, stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		fmt.Fprintf(stderr, "testdb: %v\n", err)
		return 1
	}
	return 0
}
