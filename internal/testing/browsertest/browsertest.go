// Package browsertest gives the tests that render pages a real headless
// Chromium. Path finds one the way a worker does; when none is installed it
// installs Debian's chromium-headless-shell if the tests run as root (as CI
// does) and otherwise fails the test with the command to run. A missing
// browser is never a silent skip.
package browsertest

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/debtool"
)

// Package is the Debian package the tests install, and Install the command
// that installs it, as the failure of a test without a browser says.
const (
	Package = "chromium-headless-shell"
	Install = "apt-get install " + Package
)

// candidates are the browsers looked for on the PATH, in order: the names
// render.Find looks for. The package does not import render, so that
// render's own tests can use it.
var candidates = []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"}

// Path returns the path of a headless-capable Chromium, installing
// chromium-headless-shell first when none is found and the tests run as
// root; otherwise it fails t with the install command.
func Path(t testing.TB) string {
	t.Helper()
	if p, ok := lookPath(); ok {
		return p
	}
	debtool.Require(t, Package, Package)
	p, ok := lookPath()
	require.True(t, ok, "%s was installed but no browser is on the PATH", Package)
	return p
}

func lookPath() (string, bool) {
	for _, name := range candidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}
