// Command testdb runs a command with GEOSCAN_TEST_DATABASE_URL pointing at an
// ephemeral PostgreSQL cluster, then stops and removes the cluster:
//
//	go run ./cmd/testdb -- go test ./...
//
// With GEOSCAN_TEST_DATABASE_URL already set it just runs the command. It
// exits with the command's exit code; SIGINT and SIGTERM are passed on to
// the command, and the cluster is removed once the command has exited.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/geoscan/geoscan/internal/store/pgcluster"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func main() {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	code, err := run(context.Background(), os.Args[1:], os.Getenv, signals, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testdb: %v\n", err)
	}
	os.Exit(code)
}

// run runs the command in args and returns its exit code; err reports
// testdb's own failures, with a nonzero code.
func run(ctx context.Context, args []string, getenv func(string) string, signals <-chan os.Signal, stdin io.Reader, stdout, stderr io.Writer) (code int, err error) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return 2, errors.New("usage: testdb -- COMMAND [ARGS...]")
	}

	// A signal cancels the cluster's start, or goes to the command once it runs.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	var child *os.Process
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case sig := <-signals:
				mu.Lock()
				if child != nil {
					_ = child.Signal(sig)
				} else {
					cancel()
				}
				mu.Unlock()
			case <-done:
				return
			}
		}
	}()

	var env []string
	if getenv(pgtest.EnvAdminURL) == "" {
		cluster, err := pgcluster.StartEphemeral(ctx, nil)
		if err != nil && ctx.Err() != nil {
			return 1, errors.New("interrupted while starting the PostgreSQL cluster")
		}
		if err != nil {
			return 1, fmt.Errorf("start an ephemeral PostgreSQL cluster: %w", err)
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			if cleanupErr := errors.Join(cluster.Stop(stopCtx), cluster.Remove()); cleanupErr != nil {
				err = errors.Join(err, fmt.Errorf("remove the ephemeral cluster: %w", cleanupErr))
				code = max(code, 1)
			}
		}()
		env = append(os.Environ(), pgtest.EnvAdminURL+"="+cluster.URL("postgres"))
	}

	// Not tied to ctx: the command ends on its own or on the signals passed
	// on to it, and the cluster outlives it.
	cmd := exec.Command(args[0], args[1:]...) //nolint:gosec,noctx // running the given command is this program's job
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, stdin, stdout, stderr
	mu.Lock()
	if ctx.Err() != nil {
		mu.Unlock()
		return 1, errors.New("interrupted")
	}
	err = cmd.Start()
	child = cmd.Process
	mu.Unlock()
	if err != nil {
		return 1, fmt.Errorf("run %s: %w", args[0], err)
	}
	return exitCode(cmd.Wait())
}

// exitCode is the command's exit code, 128+N if signal N killed it, as a
// shell reports it.
func exitCode(err error) (int, error) {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 1, err
	}
	return 0, nil
}
