// Package poll is how tests wait for asynchronous work (a queued job, a
// callback, a process starting): they poll a condition until it holds or a
// deadline passes, never sleep for a fixed time, and never assert on how
// long it took.
package poll

import (
	"testing"
	"time"
)

// Polls start this often and back off to maxInterval, so a condition that
// holds at once costs nothing and a slow one does not spin.
const (
	firstInterval = 10 * time.Millisecond
	maxInterval   = 200 * time.Millisecond
)

// For calls probe until it reports done or limit passes, and returns the
// last value probe returned and whether it was done. The caller asserts on
// the outcome, so its failure message says what went wrong; probe may fail
// the test itself. Polling also stops when the test's context ends.
func For[T any](t testing.TB, limit time.Duration, probe func() (T, bool)) (T, bool) {
	t.Helper()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	interval := firstInterval
	for {
		v, done := probe()
		if done {
			return v, true
		}
		tick := time.NewTimer(interval)
		select {
		case <-tick.C:
		case <-deadline.C:
			tick.Stop()
			return probe()
		case <-t.Context().Done():
			tick.Stop()
			return v, false
		}
		interval = min(2*interval, maxInterval)
	}
}

// Until polls cond until it holds, and fails the test, naming what it
// waited for, when limit passes first.
func Until(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	if _, ok := For(t, limit, func() (struct{}, bool) { return struct{}{}, cond() }); !ok {
		t.Fatalf("timed out after %s waiting for %s", limit, what)
	}
}
