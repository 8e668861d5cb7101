package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Limit names one of a fetch's own limits.
type Limit string

// The limits every fetch has, whatever the scan's budget.
const (
	LimitHeaders Limit = "header_timeout"    // Options.HeaderTimeout
	LimitTotal   Limit = "request_timeout"   // Options.RequestTimeout
	LimitRate    Limit = "min_transfer_rate" // Options.MinBytesPerSecond
)

// ErrBudget is the cause to give a context cancelled because the whole
// scan's time budget ran out (context.WithTimeoutCause): fetches cut short
// by it then say so instead of blaming the site.
var ErrBudget = errors.New("the scan's time budget ran out")

// LimitError is a fetch cut short by one of its own limits; its message
// names the limit and its value.
type LimitError struct {
	Limit Limit
	// Max is the value of a time limit.
	Max time.Duration
	// Bytes arrived in After since the headers, below MinRate bytes/s.
	Bytes   int64
	After   time.Duration
	MinRate int64
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case LimitHeaders:
		return fmt.Sprintf("no complete response headers arrived within %s (the per-request limit for headers)", e.Max)
	case LimitRate:
		return fmt.Sprintf("the response arrived too slowly: %d bytes in %s, below the minimum transfer rate of %d bytes/s",
			e.Bytes, e.After.Round(100*time.Millisecond), e.MinRate)
	default:
		return fmt.Sprintf("the response was not complete within %s (the per-request limit)", e.Max)
	}
}

// Timeout reports true: every limit is a kind of timeout (net.Error).
func (e *LimitError) Timeout() bool { return true }

// rateCheckEvery is how often the transfer rate is checked after the grace.
const rateCheckEvery = 500 * time.Millisecond

// watchdog enforces one fetch's limits by cancelling its context with a
// *LimitError as the cause, so the error says which limit fired.
type watchdog struct {
	o      *Options
	parent context.Context // the caller's
	ctx    context.Context // the fetch's, derived from parent
	cancel context.CancelCauseFunc
	stopT  context.CancelFunc
	header *time.Timer
	n      atomic.Int64 // body bytes read, as sent on the wire

	mu   sync.Mutex
	rate *time.Timer
	body time.Time
	done bool
}

// watch derives the context of one fetch: cancelled at RequestTimeout,
// or at HeaderTimeout while the headers have not arrived, or when the body
// arrives slower than MinBytesPerSecond once RateGrace has passed.
func (f *Fetcher) watch(parent context.Context) (context.Context, *watchdog) {
	o := &f.opts
	ctx, cancel := context.WithCancelCause(parent)
	w := &watchdog{o: o, parent: parent, cancel: cancel}
	w.ctx, w.stopT = context.WithTimeoutCause(ctx, o.RequestTimeout, &LimitError{Limit: LimitTotal, Max: o.RequestTimeout})
	w.header = time.AfterFunc(o.HeaderTimeout, func() { cancel(&LimitError{Limit: LimitHeaders, Max: o.HeaderTimeout}) })
	return w.ctx, w
}

// headersIn stops the header clock and starts the rate clock.
func (w *watchdog) headersIn() {
	w.header.Stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.body = time.Now()
	w.rate = time.AfterFunc(w.o.RateGrace, w.checkRate)
}

func (w *watchdog) checkRate() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	elapsed := time.Since(w.body)
	n := w.n.Load()
	if float64(n) < float64(w.o.MinBytesPerSecond)*elapsed.Seconds() {
		w.cancel(&LimitError{Limit: LimitRate, Bytes: n, After: elapsed, MinRate: w.o.MinBytesPerSecond})
		return
	}
	w.rate.Reset(rateCheckEvery)
}

// count wraps a response body so the rate clock sees its bytes.
func (w *watchdog) count(body io.ReadCloser) io.ReadCloser {
	return &countingBody{ReadCloser: body, n: &w.n}
}

// stop releases the timers and the context.
func (w *watchdog) stop() {
	w.header.Stop()
	w.mu.Lock()
	w.done = true
	if w.rate != nil {
		w.rate.Stop()
	}
	w.mu.Unlock()
	w.stopT()
	w.cancel(nil)
}

// cause replaces the transport's error for a cancelled fetch by what
// cancelled it: one of the fetch's limits, or the caller's own cause
// (ErrBudget, a shutdown). A cancelled fetch is an error even when the
// transport reported none: an HTTP/1.1 body whose read is cancelled can
// end in a clean EOF, and a body cut short must not pass for a whole one.
func (w *watchdog) cause(err error) error {
	if w.ctx.Err() == nil {
		return err
	}
	if w.parent.Err() != nil {
		return context.Cause(w.parent)
	}
	var le *LimitError
	if errors.As(context.Cause(w.ctx), &le) {
		return le
	}
	if err == nil {
		return context.Cause(w.ctx)
	}
	return err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}
