package cli

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// lockedBuffer is what a serving process's stderr receives.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSuffix(l.b.String(), "\n"), "\n")
}

func TestLogSinkBatchesInformationAndWritesWarningsAtOnce(t *testing.T) {
	t.Parallel()
	out := &lockedBuffer{}
	sink := newLogSink(out)
	logger := slog.New(flushAtWarn{slog.NewTextHandler(sink, nil), sink}).With("component", "api")

	for i := range 100 {
		logger.Info("request", "n", i)
	}
	require.Equal(t, 0, out.writes, "information lines wait in the sink")

	logger.Warn("database slow")
	lines := out.lines()
	require.Len(t, lines, 101, "a warning goes out at once, after the lines kept before it")
	require.Contains(t, lines[0], "n=0")
	require.Contains(t, lines[99], "n=99")
	require.Contains(t, lines[100], "database slow")
	require.Contains(t, lines[100], "component=api", "attributes added with With keep the flushing handler")
	require.Equal(t, 1, out.writes, "101 lines in one write")

	logger.WithGroup("g").Error("failed", "x", 1)
	require.Contains(t, out.lines()[101], "g.x=1")
}

func TestLogSinkFlushesOnItsOwnAndWhenStopped(t *testing.T) {
	t.Parallel()
	out := &lockedBuffer{}
	sink := newLogSink(out)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); sink.flushEvery(ctx, 10*time.Millisecond) }()

	slog.New(slog.NewJSONHandler(sink, nil)).Info("first")
	require.Eventually(t, func() bool { return strings.Contains(out.lines()[0], "first") }, 5*time.Second, 5*time.Millisecond,
		"a kept line goes out within the interval")

	// Stopping writes out what is left, however long the interval.
	slowCtx, stop := context.WithCancel(context.Background())
	slow := newLogSink(out)
	stopped := make(chan struct{})
	go func() { defer close(stopped); slow.flushEvery(slowCtx, time.Hour) }()
	slog.New(slog.NewJSONHandler(slow, nil)).Info("last words")
	stop()
	<-stopped
	require.Contains(t, out.lines()[len(out.lines())-1], "last words")

	// As geoscan serve starts and stops its sink: stopping returns once
	// the last lines are out.
	started, stopStarted := startLogSink(context.Background(), out)
	slog.New(slog.NewJSONHandler(started, nil)).Info("at exit")
	stopStarted()
	require.Contains(t, out.lines()[len(out.lines())-1], "at exit")

	cancel()
	<-done
}

func TestLogSinkWritesLargeRecordsWhole(t *testing.T) {
	t.Parallel()
	out := &lockedBuffer{}
	sink := newLogSink(out)
	big := strings.Repeat("x", 100<<10)
	slog.New(slog.NewTextHandler(sink, nil)).Info("big", "v", big)
	require.NoError(t, sink.Flush())
	lines := out.lines()
	require.Len(t, lines, 1)
	require.Contains(t, lines[0], big)
}
