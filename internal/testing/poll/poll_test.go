package poll

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestForReturnsTheValueThatEndedTheWait(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	got, ok := For(t, time.Minute, func() (int32, bool) {
		n := calls.Add(1)
		return n, n == 3
	})
	require.True(t, ok)
	require.Equal(t, int32(3), got)
}

func TestForGivesUpAtTheDeadlineWithTheLastValue(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	got, ok := For(t, 50*time.Millisecond, func() (int32, bool) { return calls.Add(1), false })
	require.False(t, ok)
	require.Equal(t, calls.Load(), got, "the value of the last probe, taken at the deadline")
	require.GreaterOrEqual(t, got, int32(2), "probed at the start and again at the deadline")
}

// recorder stands in for a test so Until's failure can be observed.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

func TestUntilFailsNamingWhatItWaitedFor(t *testing.T) {
	t.Parallel()
	r := &recorder{TB: t}
	Until(r, 30*time.Millisecond, "the impossible", func() bool { return false })
	require.Contains(t, r.failed, "waiting for the impossible")

	r = &recorder{TB: t}
	Until(r, time.Minute, "something true", func() bool { return true })
	require.Empty(t, r.failed)
}
