package webhook

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store"
)

// Queue is the River queue of callback deliveries, apart from scans so a
// backlog of one never delays the other.
const Queue = "webhooks"

// DefaultSchedule is the retry schedule the API promises (openapi.yaml,
// docs/WEBHOOKS.md): an attempt at once, then 5 s, 25 s and 125 s after
// each failure.
var DefaultSchedule = Schedule{5 * time.Second, 25 * time.Second, 125 * time.Second}

// Schedule is the delays between attempts: the first attempt is at once,
// the n-th retry waits Schedule[n-1] after the n-th failure.
type Schedule []time.Duration

// MaxAttempts is the first attempt plus one per delay.
func (s Schedule) MaxAttempts() int { return len(s) + 1 }

// Delay is the wait after the attempt-th failed attempt (1-based).
func (s Schedule) Delay(attempt int) time.Duration {
	if len(s) == 0 {
		return 0
	}
	return s[min(max(attempt, 1), len(s))-1]
}

// DeliverArgs is the job of one delivery. It carries only the id: the body
// and URL are stored with the delivery and the secret stays with the scan,
// so nothing secret sits in the queue.
type DeliverArgs struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
}

// Kind names the job type in the queue.
func (DeliverArgs) Kind() string { return "webhook_delivery" }

// InsertOpts puts deliveries on their own queue.
func (DeliverArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

// Queuer creates deliveries and queues their jobs inside the caller's
// transaction. Client is set once the River client exists.
type Queuer struct {
	Client   *river.Client[pgx.Tx]
	Schedule Schedule
}

// Enqueue inserts the job of a stored delivery in tx; MaxAttempts comes
// from the schedule in force now, so a redelivery gets the whole schedule.
func (q *Queuer) Enqueue(ctx context.Context, tx *store.Store, d store.WebhookDelivery) error {
	_, err := q.Client.InsertTx(ctx, tx.Tx(), DeliverArgs{DeliveryID: d.ID},
		&river.InsertOpts{Queue: Queue, MaxAttempts: q.Schedule.MaxAttempts()})
	if err != nil {
		return fmt.Errorf("enqueue delivery %s: %w", d.ID, err)
	}
	return nil
}

// QueueCallback stores the callback of a finished scan that has a
// callback_url and queues its job in tx, the transaction that moves the scan
// to completed or failed, so the callback exists exactly when the final
// state does.
func (q *Queuer) QueueCallback(ctx context.Context, tx *store.Store, scan store.Scan) error {
	if scan.CallbackURL == nil {
		return nil
	}
	n, err := NewDelivery(scan)
	if err != nil {
		return err
	}
	d, err := tx.CreateDelivery(ctx, n)
	if err != nil {
		return fmt.Errorf("store delivery of scan %s: %w", scan.ID, err)
	}
	return q.Enqueue(ctx, tx, d)
}

// Redelivery outcomes besides store.ErrNotFound.
var (
	ErrScanNotFinished = errors.New("scan not finished")
	ErrNoCallback      = errors.New("scan has no callback_url")
)

// NotFinishedError is ErrScanNotFinished with the state the scan is in, so
// the caller can tell the client whether it is still waiting or running.
type NotFinishedError struct{ Status store.ScanStatus }

func (e *NotFinishedError) Error() string { return "scan not finished: " + string(e.Status) }

// Is makes errors.Is(err, ErrScanNotFinished) hold.
func (e *NotFinishedError) Is(target error) bool { return target == ErrScanNotFinished }

// Redeliver makes the delivery of a finished scan's final event pending
// again and queues its job, in tx. A delivery still pending is returned as
// it is: its job is still going and nothing new is queued. A finished scan
// whose event was never recorded (it finished before callbacks were
// delivered) gets its delivery created now.
func (q *Queuer) Redeliver(ctx context.Context, tx *store.Store, orgID, scanID uuid.UUID) (store.WebhookDelivery, error) {
	scan, err := tx.LockScan(ctx, orgID, scanID)
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	if scan.CallbackURL == nil {
		return store.WebhookDelivery{}, ErrNoCallback
	}
	if !scan.Status.Finished() {
		return store.WebhookDelivery{}, &NotFinishedError{Status: scan.Status}
	}
	d, err := tx.LockLatestDelivery(ctx, scanID)
	switch {
	case err == nil && d.Status == store.DeliveryPending:
		return d, nil
	case err == nil:
		d, err = tx.RequeueDelivery(ctx, d.ID)
	case errors.Is(err, store.ErrNotFound):
		var n store.NewDelivery
		if n, err = NewDelivery(scan); err == nil {
			d, err = tx.CreateDelivery(ctx, n)
		}
	}
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	return d, q.Enqueue(ctx, tx, d)
}

// NewDelivery builds the callback of a finished scan: its event and the
// exact body bytes, which every attempt and redelivery sends unchanged.
func NewDelivery(scan store.Scan) (store.NewDelivery, error) {
	if scan.CallbackURL == nil {
		return store.NewDelivery{}, fmt.Errorf("scan %s has no callback_url", scan.ID)
	}
	p := Payload{
		ScanID: scan.ID.String(), URL: scan.URL, Status: string(scan.Status),
		CreatedAt: scan.CreatedAt.UTC().Format(PayloadTimeFormat),
	}
	switch scan.Status {
	case store.ScanCompleted:
		p.Event, p.OverallScore = EventCompleted, scan.OverallScore
		if scan.MaxPages > 1 {
			p.PagesAudited = &scan.PagesDone
		}
	case store.ScanFailed:
		p.Event, p.ErrorMessage = EventFailed, scan.ErrorMessage
	default:
		return store.NewDelivery{}, fmt.Errorf("scan %s has not finished yet; it %s", scan.ID, scan.Status.Phrase())
	}
	completed := scan.UpdatedAt
	if scan.CompletedAt != nil {
		completed = *scan.CompletedAt
	}
	p.CompletedAt = completed.UTC().Format(PayloadTimeFormat)
	body, err := p.Encode()
	if err != nil {
		return store.NewDelivery{}, err
	}
	return store.NewDelivery{OrgID: scan.OrgID, ScanID: scan.ID, Event: p.Event, URL: *scan.CallbackURL, Payload: body}, nil
}

// Worker sends deliveries: one attempt per job run, recorded before the
// job reports back, retried by River on the schedule.
type Worker struct {
	river.WorkerDefaults[DeliverArgs]
	Store *store.Store
	// Client must be netguard's guarded client without redirects.
	Client *http.Client
	// Targets re-checks the callback URL at send time, resolving its host
	// again: every address must be public, whatever it was at creation.
	Targets  netguard.Policy
	Schedule Schedule
	Logger   *slog.Logger
	NowFunc  func() time.Time
}

// Timeout leaves room for the attempt and the bookkeeping around it.
func (w *Worker) Timeout(*river.Job[DeliverArgs]) time.Duration { return Timeout + 10*time.Second }

// NextRetry applies the schedule instead of River's default backoff.
func (w *Worker) NextRetry(job *river.Job[DeliverArgs]) time.Time {
	return w.now().Add(w.Schedule.Delay(job.Attempt))
}

func (w *Worker) now() time.Time {
	if w.NowFunc != nil {
		return w.NowFunc()
	}
	return time.Now()
}

// Work makes one attempt. It returns an error only to have River retry:
// after a 2xx, a refused destination or the last attempt the job ends and
// the delivery's state says what happened.
func (w *Worker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	d, err := w.Store.DeliveryForSend(ctx, job.Args.DeliveryID)
	if errors.Is(err, store.ErrNotFound) {
		return nil // the scan was deleted: nothing left to deliver
	}
	if err != nil {
		return err
	}
	if d.Status != store.DeliveryPending {
		return nil // already settled by an earlier run of this job
	}

	started := w.now().UTC()
	res := w.attempt(ctx, d, started)
	if !res.Delivered && ctx.Err() != nil {
		// Stopped from outside (shutdown): not the receiver's failure. River
		// runs the job again without counting this attempt.
		return ctx.Err()
	}
	final := res.Delivered || res.Blocked() || job.Attempt >= job.MaxAttempts
	a := store.Attempt{
		DeliveryID: d.ID, StartedAt: started, Duration: res.Duration,
		StatusCode: res.StatusCode, Error: res.ErrorText(), Status: store.DeliveryPending,
	}
	switch {
	case res.Delivered:
		a.Status = store.DeliverySucceeded
	case final:
		a.Status = store.DeliveryFailed
	default:
		next := w.now().Add(w.Schedule.Delay(job.Attempt)).UTC()
		a.NextAttemptAt = &next
	}
	// The receiver has answered: record that even if the job is being stopped.
	n, err := w.Store.RecordAttempt(context.WithoutCancel(ctx), a)
	if errors.Is(err, store.ErrNotFound) {
		return nil // deleted or settled meanwhile
	}
	if err != nil {
		return fmt.Errorf("record attempt: %w", err)
	}
	attrs := []any{
		slog.String("delivery_id", d.ID.String()), slog.String("event", d.Event),
		slog.Int("attempt", n), slog.String("status", string(a.Status)), slog.String("host", hostOf(d.URL)),
		slog.Int64("duration_ms", res.Duration.Milliseconds()),
	}
	if d.ScanID != nil {
		attrs = append(attrs, slog.String("scan_id", d.ScanID.String()))
	}
	if res.StatusCode != nil {
		attrs = append(attrs, slog.Int("status_code", *res.StatusCode))
	}
	if res.Err != nil {
		attrs = append(attrs, slog.String("error", res.ErrorText()))
	}
	w.Logger.InfoContext(ctx, "webhook attempt", attrs...)
	if final {
		return nil
	}
	return fmt.Errorf("attempt %d: %s", n, res.ErrorText())
}

// attempt checks the destination again and sends once, all within Timeout.
func (w *Worker) attempt(ctx context.Context, d store.DeliveryToSend, now time.Time) Result {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	start := time.Now()
	if _, err := w.Targets.CheckURL(ctx, d.URL); err != nil {
		res := Result{Duration: time.Since(start), Class: ClassConnection, Err: err}
		var ue *netguard.URLError
		switch {
		case errors.As(err, &ue) && ue.Unresolvable:
			res.Class, res.Err = ClassDNS, errors.New(ue.Reason)
		case errors.As(err, &ue):
			res.Class, res.Err = ClassBlocked, errors.New(ue.Reason)
		}
		return res
	}
	return Send(ctx, w.Client, Delivery{ID: d.ID.String(), URL: d.URL, Event: d.Event, Secret: d.Secret, Body: d.Payload}, now)
}

// hostOf is what logs show of a callback URL: its query may carry the
// receiver's own token.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}
