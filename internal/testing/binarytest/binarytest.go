// Package binarytest builds the geoscan binary and runs it as real
// processes, for the tests that must cross a process boundary: a deploy's
// SIGTERM, a crash, a database outage under a running server, several
// servers sharing one database. A process's output is kept for the
// failure message, and every process still running when its test ends is
// killed.
package binarytest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/poll"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// Build compiles cmd/geoscan once per test binary and returns its path.
// The go command's build cache makes the second package's build cheap.
// The binary outlives the test that built it, so the package's TestMain
// calls Remove once all its tests have run.
func Build(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "geoscan-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "geoscan")
		// The build serves every test in the binary, not only the one that
		// happens to run it first, so it gets no test's context.
		build := exec.CommandContext(context.Background(), "go", "build", "-o", builtBin, "github.com/geoscan/geoscan/cmd/geoscan") //nolint:gosec // our own temporary directory
		build.Stderr = os.Stderr
		buildErr = build.Run()
	})
	require.NoError(t, buildErr, "go build ./cmd/geoscan")
	return builtBin
}

// Remove deletes what Build compiled, if anything; TestMain calls it after
// the tests, as `code := m.Run(); binarytest.Remove(); os.Exit(code)`.
func Remove() {
	if builtBin != "" {
		_ = os.RemoveAll(filepath.Dir(builtBin))
	}
}

// Process is one running geoscan process.
type Process struct {
	Cmd  *exec.Cmd
	name string
	logs *Logs

	mu     sync.Mutex
	addr   string
	exited chan struct{}
	err    error
}

// Start runs bin with args and the test's environment plus env (KEY=value
// entries, later ones winning). Its stdout and stderr go to Logs; its JSON
// log lines are watched for the address it serves on (see Addr).
func Start(t testing.TB, name, bin string, env []string, args ...string) *Process {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, args...) //nolint:gosec // the binary and arguments a test chose
	// Processes render pages only when a test asks for it (its env
	// setting GEOSCAN_RENDER wins): what they do must not depend on
	// whether the machine has a browser.
	cmd.Env = append(append(os.Environ(), "GEOSCAN_RENDER=off"), env...)
	pr, pw := io.Pipe()
	p := &Process{Cmd: cmd, name: name, logs: &Logs{}, exited: make(chan struct{})}
	cmd.Stderr = pw
	cmd.Stdout = p.logs
	require.NoError(t, cmd.Start(), "start %s", name)
	scanned := make(chan struct{})
	go func() {
		p.scan(pr)
		close(scanned)
	}()
	go func() {
		err := cmd.Wait()
		_ = pw.Close()
		// The scanner may still hold the last lines it read; the process
		// counts as exited only once they are in its logs, so a test that
		// waited for it reads everything it printed.
		<-scanned
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.exited)
	}()
	t.Cleanup(func() {
		if !p.Exited() {
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// Serve starts `geoscan serve --role role` listening on a free loopback
// port and waits until it serves (for a worker, until its workers start).
func Serve(t testing.TB, name, bin, role string, env []string) *Process {
	t.Helper()
	env = append([]string{"GEOSCAN_HTTP_ADDR=127.0.0.1:0", "GEOSCAN_LOG_FORMAT=json"}, env...)
	p := Start(t, name, bin, env, "serve", "--role", role)
	ready := "serving"
	if role == "worker" {
		ready = "scan workers started"
	}
	Until(t, 60*time.Second, name+" to start", func() bool {
		require.False(t, p.Exited(), "%s exited before it was ready:\n%s", name, p.Logs())
		return strings.Contains(p.Logs(), `"msg":"`+ready+`"`)
	}, p)
	return p
}

// scan copies the process's stderr into its logs and notes the address
// of its "serving" line.
func (p *Process) scan(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		_, _ = p.logs.Write(append(line, '\n'))
		var entry struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal(line, &entry) == nil && entry.Msg == "serving" && entry.Addr != "" {
			p.mu.Lock()
			p.addr = entry.Addr
			p.mu.Unlock()
		}
	}
	_, _ = io.Copy(io.Discard, r)
}

// Addr is the host:port the process serves HTTP on ("" before it does).
func (p *Process) Addr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

// BaseURL is http://Addr.
func (p *Process) BaseURL() string { return "http://" + p.Addr() }

// Logs is everything the process printed so far; once it has exited
// (Exited, Wait, Kill), all it printed.
func (p *Process) Logs() string { return p.logs.String() }

// Exited reports whether the process has ended.
func (p *Process) Exited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// Signal sends sig to the process.
func (p *Process) Signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	require.NoError(t, p.Cmd.Process.Signal(sig), "signal %s", p.name)
}

// Wait waits up to limit for the process to exit and returns its exit
// error; the test fails, with the process's output, if it does not exit.
func (p *Process) Wait(t testing.TB, limit time.Duration) error {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(limit):
		t.Fatalf("%s did not exit within %s; output:\n%s", p.name, limit, p.Logs())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Kill ends the process at once, as a crash would, and waits for it.
func (p *Process) Kill(t testing.TB) {
	t.Helper()
	if !p.Exited() {
		require.NoError(t, p.Cmd.Process.Kill())
	}
	<-p.exited
}

// Until polls cond with internal/testing/poll and, when limit passes first, fails
// naming what it waited for with the output of each process given.
func Until(t testing.TB, limit time.Duration, what string, cond func() bool, procs ...*Process) {
	t.Helper()
	if _, ok := poll.For(t, limit, func() (struct{}, bool) { return struct{}{}, cond() }); ok {
		return
	}
	var out strings.Builder
	for _, p := range procs {
		fmt.Fprintf(&out, "\n--- %s ---\n%s", p.name, p.Logs())
	}
	t.Fatalf("timed out after %s waiting for %s%s", limit, what, out.String())
}

// Logs collects a process's output; it is safe for concurrent use.
type Logs struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
