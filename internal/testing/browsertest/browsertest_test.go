package browsertest

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPathRuns checks that the browser Path returns is one that runs: the
// rendering tests all start from it.
func TestPathRuns(t *testing.T) {
	t.Parallel()
	p := Path(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, "--version").CombinedOutput()
	require.NoError(t, err, "%s --version: %s", p, out)
	require.Contains(t, strings.ToLower(string(out)), "chrom", "%s --version printed %q", p, out)
}
