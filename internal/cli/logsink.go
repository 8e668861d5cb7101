package cli

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logSink batches the log lines of a serving process: a busy API writes an
// access-log line per request, and a system call per line to a pipe or a
// terminal cost the request path several microseconds. Lines are kept
// until logFlushInterval has passed, 64 KiB are waiting, a warning or an
// error is logged (flushAtWarn), or the process stops. A process killed
// outright loses at most that interval of information lines.
type logSink struct {
	mu  sync.Mutex
	buf *bufio.Writer
}

const logFlushInterval = 100 * time.Millisecond

func newLogSink(w io.Writer) *logSink {
	return &logSink{buf: bufio.NewWriterSize(w, 64<<10)}
}

// startLogSink returns a sink over w that flushes every logFlushInterval,
// and the function that stops it, writing out what is left; that function
// returns when it has.
func startLogSink(ctx context.Context, w io.Writer) (*logSink, func()) {
	sink := newLogSink(w)
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	flushed := make(chan struct{})
	go func() { defer close(flushed); sink.flushEvery(ctx, logFlushInterval) }()
	return sink, func() { cancel(); <-flushed }
}

// Write keeps p, a whole record: slog's handlers write one record a call.
func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// Flush writes out what is kept.
func (s *logSink) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Flush()
}

// flushEvery flushes every interval until ctx is done, then once more.
func (s *logSink) flushEvery(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			_ = s.Flush()
			return
		case <-t.C:
			_ = s.Flush()
		}
	}
}

// flushAtWarn writes a warning or an error out at once, with the lines
// kept before it, so that what goes wrong is never waiting in the sink.
type flushAtWarn struct {
	slog.Handler
	sink *logSink
}

func (h flushAtWarn) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		_ = h.sink.Flush()
	}
	return err
}

func (h flushAtWarn) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushAtWarn{h.Handler.WithAttrs(attrs), h.sink}
}

func (h flushAtWarn) WithGroup(name string) slog.Handler {
	return flushAtWarn{h.Handler.WithGroup(name), h.sink}
}
