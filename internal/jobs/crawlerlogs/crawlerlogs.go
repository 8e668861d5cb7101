// Package crawlerlogs analyses uploaded access logs in a River job: it
// streams the stored upload (un-gzipping it when it is gzip) through the
// engine's crawlerlog.Analyze, sets the result beside the organization's
// latest completed audit of the same site (crawlerlog.CrossCheck, from the
// robots.txt and pages that audit read), stores both and deletes the
// upload. Workers on any machine sharing the database can run it: the
// upload is in PostgreSQL, not on the machine that received it.
package crawlerlogs

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/store"
)

// Queue is the River queue of log analyses, apart from scans: one
// analysis holds up to the engine's bounded memory for minutes.
const Queue = "crawler_logs"

// maxAttempts: a crash or a lost database connection retries the
// analysis from the start (the upload is kept until it succeeds or fails).
const maxAttempts = 3

// Args is the job of one uploaded log.
type Args struct {
	LogID uuid.UUID `json:"log_id"`
}

// Kind names the job type in the queue.
func (Args) Kind() string { return "crawler_log" }

// InsertOpts puts the job on Queue.
func (Args) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, MaxAttempts: maxAttempts}
}

// Queuer inserts analyses.
type Queuer struct {
	Client *river.Client[pgx.Tx]
}

// Enqueue inserts the analysis of a new log in tx, the transaction that
// stored the upload, so the job exists exactly when the log does.
func (q *Queuer) Enqueue(ctx context.Context, tx *store.Store, logID uuid.UUID) error {
	if _, err := q.Client.InsertTx(ctx, tx.Tx(), Args{LogID: logID}, nil); err != nil {
		return fmt.Errorf("enqueue crawler log %s: %w", logID, err)
	}
	return nil
}

// Worker analyses logs.
type Worker struct {
	river.WorkerDefaults[Args]
	Store  *store.Store
	Logger *slog.Logger
	// Resolver verifies crawlers by reverse DNS; nil uses the system's.
	Resolver crawlerlog.Resolver
	// MaxUncompressedBytes bounds what a gzip upload may expand to; a log
	// beyond it fails as too_large (a gzip bomb costs no more than this).
	MaxUncompressedBytes int64
	// JobTimeout bounds one attempt; the analysis stops a little before
	// it so that the failure can be recorded. It must stay under River's
	// rescue of stuck jobs, or a live analysis would be run twice.
	JobTimeout time.Duration
}

// Timeout is River's bound on one attempt.
func (w *Worker) Timeout(*river.Job[Args]) time.Duration { return w.jobTimeout() }

func (w *Worker) jobTimeout() time.Duration {
	if w.JobTimeout > 0 {
		return w.JobTimeout
	}
	return 10 * time.Minute
}

// timeout is the analysis' own bound.
func (w *Worker) timeout() time.Duration {
	t := w.jobTimeout()
	return t - min(30*time.Second, t/10)
}

// Error codes a failed log carries.
const (
	CodeUnreadable = "unreadable"
	CodeTooLarge   = "too_large"
	CodeInternal   = "internal"
)

// Work runs one analysis.
func (w *Worker) Work(ctx context.Context, job *river.Job[Args]) error {
	id := job.Args.LogID
	lg, err := w.Store.StartCrawlerLog(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil // finished, or deleted while queued
	}
	if err != nil {
		return err
	}
	actx, cancel := context.WithTimeout(ctx, w.timeout())
	defer cancel()
	res, err := w.analyze(actx, lg)
	if err != nil {
		var fail *failure
		switch {
		case errors.As(err, &fail):
			return w.fail(ctx, id, fail.code, fail.message)
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			return w.fail(ctx, id, CodeTooLarge, fmt.Sprintf("The analysis did not finish within %s; split the log into smaller files.", w.timeout()))
		case job.Attempt >= maxAttempts:
			w.logger().Error("crawler log analysis failed", "log_id", id, "error", err)
			return w.fail(ctx, id, CodeInternal, "The log could not be analysed; upload it again.")
		}
		return err
	}
	cross := w.crossCheck(ctx, lg, res)
	result, err := json.Marshal(res)
	if err != nil {
		return err
	}
	crossJSON, err := json.Marshal(cross)
	if err != nil {
		return err
	}
	return w.Store.InTx(ctx, func(tx *store.Store) error {
		return tx.FinishCrawlerLog(ctx, id, result, crossJSON)
	})
}

// failure is an analysis that cannot succeed on a retry.
type failure struct{ code, message string }

func (f *failure) Error() string { return f.code + ": " + f.message }

func (w *Worker) fail(ctx context.Context, id uuid.UUID, code, message string) error {
	return w.Store.InTx(ctx, func(tx *store.Store) error { return tx.FailCrawlerLog(ctx, id, code, message) })
}

func (w *Worker) analyze(ctx context.Context, lg store.CrawlerLog) (crawlerlog.Result, error) {
	body, err := Decompress(w.Store.CrawlerLogReader(ctx, lg.ID), w.maxUncompressed())
	if err != nil {
		return crawlerlog.Result{}, err
	}
	res, err := crawlerlog.Analyze(ctx, body, crawlerlog.Options{Domain: lg.Domain, Resolver: w.resolver()})
	if err != nil {
		var ge gzipError
		if errors.As(err, &ge) {
			return res, &failure{CodeUnreadable, "The gzip stream is broken: " + ge.Error() + "."}
		}
		if errors.Is(err, crawlerlog.ErrCompressed) {
			return res, &failure{CodeUnreadable, "The upload is compressed in a format other than gzip (zstd, bzip2, xz or zip); decompress it, or send it gzipped."}
		}
		if errors.Is(err, errExpandsTooFar) {
			return res, &failure{CodeTooLarge, fmt.Sprintf("The log expands to more than %d bytes uncompressed; split it into smaller files.", w.maxUncompressed())}
		}
	}
	return res, err
}

func (w *Worker) maxUncompressed() int64 {
	if w.MaxUncompressedBytes > 0 {
		return w.MaxUncompressedBytes
	}
	return 16 << 30
}

func (w *Worker) resolver() crawlerlog.Resolver {
	if w.Resolver != nil {
		return w.Resolver
	}
	return net.DefaultResolver
}

func (w *Worker) logger() *slog.Logger {
	if w.Logger != nil {
		return w.Logger
	}
	return slog.Default()
}

// maxAuditPages bounds the audited pages the "never crawled" check reads.
const maxAuditPages = 10000

// crossCheck sets the analysis beside the latest completed audit of the
// site; without one, or when its robots.txt is no longer kept, it says
// so rather than guess.
func (w *Worker) crossCheck(ctx context.Context, lg store.CrawlerLog, res crawlerlog.Result) CrossCheck {
	audit, err := w.Store.LatestAuditOfSite(ctx, lg.OrgID, lg.Domain)
	if err != nil {
		reason := "No completed audit of " + lg.Domain + " to compare the log with; scan the site, then upload the log again."
		if !errors.Is(err, store.ErrNotFound) {
			reason = "The audit to compare the log with could not be read."
		}
		return CrossCheck{Status: NotMeasured, Reason: reason}
	}
	out := CrossCheck{ScanID: &audit.ScanID}
	snap, err := w.Store.GetSnapshot(ctx, audit.ScanID)
	if err != nil {
		out.Status, out.Reason = NotMeasured, "The pages the latest audit read are no longer kept, so its robots.txt cannot be compared with the log; scan the site again."
		return out
	}
	site, err := fetch.Restore(snap.Body)
	if err != nil {
		out.Status, out.Reason = NotMeasured, "The latest audit's pages could not be read back."
		return out
	}
	robotsTxt, fetched := crawlerlog.RobotsOf(site.Robots)
	pages := []string{audit.URL}
	if audit.MaxPages > 1 {
		if urls, err := w.Store.ScanPageURLs(ctx, audit.ScanID, maxAuditPages); err == nil && len(urls) > 0 {
			pages = urls
		}
	}
	out.Status = Measured
	out.Result = crawlerlog.CrossCheck(res, robotsTxt, fetched, pages)
	return out
}

// The states of a cross-check.
const (
	Measured    = "measured"
	NotMeasured = "not_measured"
)

// CrossCheck is what the job stores of the comparison: the engine's
// result, or why there is none, and the audit it was made with.
type CrossCheck struct {
	Status string                      `json:"status"`
	Reason string                      `json:"reason,omitempty"`
	ScanID *uuid.UUID                  `json:"scan_id,omitempty"`
	Result crawlerlog.CrossCheckResult `json:"result"`
}

// Decompress returns r un-gzipped when it starts with gzip's magic bytes
// (whatever the upload's content type said), else r itself; either way
// bounded to max bytes, beyond which reads fail with errExpandsTooFar.
// A broken gzip stream reads as a gzipError.
func Decompress(r io.Reader, max int64) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	var out io.Reader = br
	if bytes.Equal(head, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &failure{CodeUnreadable, "The upload starts like gzip but its header is broken."}
		}
		out = &gzipErrors{r: zr}
	}
	return &capped{r: out, left: max}, nil
}

var errExpandsTooFar = errors.New("log larger than the uncompressed limit")

type capped struct {
	r    io.Reader
	left int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errExpandsTooFar
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// gzipError marks an error of the gzip stream itself, as opposed to one
// reading the stored chunks.
type gzipError struct{ err error }

func (e gzipError) Error() string { return e.err.Error() }
func (e gzipError) Unwrap() error { return e.err }

type gzipErrors struct{ r *gzip.Reader }

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && (errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) || isFlateError(err)) {
		return n, gzipError{err}
	}
	return n, err
}

func isFlateError(err error) bool {
	var c flate.CorruptInputError
	return errors.As(err, &c)
}
