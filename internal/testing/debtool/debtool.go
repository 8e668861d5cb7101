// Package debtool makes sure a command a test needs is installed: the
// tests that run real tools (pdftotext, jq, a browser) call Require, which
// installs the Debian package when the tests run as root (as CI does) and
// otherwise fails the test with the command to run. A missing tool is never
// a silent skip.
package debtool

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	mu     sync.Mutex
	looked = map[string]error{}
)

// Require fails t unless command is on the PATH, installing the Debian
// package pkg first when the process runs as root. Each command is looked
// up, and installed, once per test binary.
func Require(t testing.TB, command, pkg string) {
	t.Helper()
	mu.Lock()
	err, ok := looked[command]
	if !ok {
		err = ensure(command, pkg)
		looked[command] = err
	}
	mu.Unlock()
	require.NoError(t, err)
}

func ensure(command, pkg string) error {
	if _, err := exec.LookPath(command); err == nil {
		return nil
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("%s is not installed: run `apt-get install %s` (the tests install it themselves only when run as root)", command, pkg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Test binaries run in parallel: apt waits for another's dpkg lock
	// rather than failing on it.
	cmd := exec.CommandContext(ctx, "sh", "-c", //nolint:gosec // the package names are the tests' own constants
		"apt-get -o DPkg::Lock::Timeout=240 update -qq && apt-get -o DPkg::Lock::Timeout=240 install -y -qq "+pkg)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("install %s for %s: %w\n%s", pkg, command, err, out)
	}
	if _, err := exec.LookPath(command); err != nil {
		return fmt.Errorf("%s installed but %s not found: %w", pkg, command, err)
	}
	return nil
}
