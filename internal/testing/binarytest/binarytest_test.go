package binarytest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestLogsHoldEverythingOnceExited checks that a test which waited for a
// process reads all it printed: stderr passes through the scanner, and its
// last line must be in the logs by the time Wait returns. The race it
// guards against is narrow, so the process runs several times.
func TestLogsHoldEverythingOnceExited(t *testing.T) {
	t.Parallel()
	for i := range 20 {
		p := Start(t, "sh", "/bin/sh", nil, "-c", `i=0; while [ $i -lt 500 ]; do echo "line $i" >&2; i=$((i+1)); done; echo out; echo last >&2`)
		require.NoError(t, p.Wait(t, 30*time.Second))
		require.Contains(t, p.Logs(), "out\n", "run %d: stdout", i)
		require.Contains(t, p.Logs(), "last\n", "run %d: the end of stderr", i)
	}
}
