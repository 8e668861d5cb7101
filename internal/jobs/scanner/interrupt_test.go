package scanner

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestInterruptedTellsShutdownFromBudget: a context cancelled from outside
// (River's stop, with its own cause) interrupts the scan, with an error
// River's soft-stop handling recognises; the scan's own deadline does not.
func TestInterruptedTellsShutdownFromBudget(t *testing.T) {
	require.NoError(t, interrupted(context.Background()))

	budget, cancel := context.WithTimeoutCause(context.Background(), time.Nanosecond, fetch.ErrBudget)
	defer cancel()
	<-budget.Done()
	require.NoError(t, interrupted(budget), "the budget fails the scan as a timeout")

	stop := errors.New("stop initiated")
	job, cancelJob := context.WithCancelCause(context.Background())
	scan, cancelScan := context.WithTimeoutCause(job, time.Hour, fetch.ErrBudget)
	defer cancelScan()
	cancelJob(stop)
	err := interrupted(scan)
	require.ErrorIs(t, err, ErrInterrupted)
	require.ErrorIs(t, err, stop, "River matches its stop cause")
	require.ErrorIs(t, err, context.Canceled, "and context.Canceled")

	plain, cancelPlain := context.WithCancel(context.Background())
	cancelPlain()
	require.ErrorIs(t, interrupted(plain), ErrInterrupted)
	require.ErrorIs(t, interrupted(plain), context.Canceled)
}
