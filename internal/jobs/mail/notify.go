package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/branding"
	"github.com/geoscan/geoscan/internal/store"
)

// Queue is the River queue of emails, apart from scans and callbacks.
const Queue = "email"

// DefaultRetryDelays are the waits before each retry of an email the relay
// refused for now or could not be reached for.
var DefaultRetryDelays = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour}

// NotifyArgs is the job of the email about one finished scheduled scan.
// The job queued when the scan finishes carries only the scan id: its
// first attempt builds and stores the message, the others resend it
// unchanged. A job queued by `geoscan outbox send` also names the stored
// message and the resend it belongs to; it only sends that message, and
// its arguments differ from every earlier job's, so River's uniqueness by
// arguments never takes it for one of them.
type NotifyArgs struct {
	ScanID    uuid.UUID `json:"scan_id"`
	MessageID uuid.UUID `json:"message_id,omitzero"`
	Resend    int       `json:"resend,omitzero"`
}

// Kind names the job type in the queue.
func (NotifyArgs) Kind() string { return "scan_email" }

// InsertOpts puts emails on their own queue, one job per scan.
func (NotifyArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: Queue, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// Notifier builds, stores and sends the emails of scheduled scans.
type Notifier struct {
	Store *store.Store
	// Client is the River client jobs are inserted with; set once it exists.
	Client *river.Client[pgx.Tx]
	// Sender is nil when no SMTP relay is configured: messages are then
	// held in the outbox and logged.
	Sender    Sender
	From      string
	PublicURL string
	// ShareDays is how long the report link of an email works
	// (DefaultShareDays when 0).
	ShareDays int
	// NowFunc is the clock share links expire by (time.Now when nil).
	NowFunc func() time.Time
	// RetryDelays are the waits before each retry (DefaultRetryDelays).
	RetryDelays []time.Duration
	Logger      *slog.Logger
}

// QueueEmail queues the email job of a scheduled scan in tx, the
// transaction that moves the scan to completed or failed (the scan
// runner's finish path), so the email is owed exactly when the final state
// exists. Other scans have none.
func (n *Notifier) QueueEmail(ctx context.Context, tx *store.Store, scan store.Scan) error {
	if scan.ScheduleID == nil {
		return nil
	}
	_, err := n.Client.InsertTx(ctx, tx.Tx(), NotifyArgs{ScanID: scan.ID}, n.jobOpts())
	if err != nil {
		return fmt.Errorf("queue email of scan %s: %w", scan.ID, err)
	}
	return nil
}

func (n *Notifier) jobOpts() *river.InsertOpts {
	return &river.InsertOpts{Queue: Queue, MaxAttempts: len(n.retryDelays()) + 1, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

func (n *Notifier) retryDelays() []time.Duration {
	if len(n.RetryDelays) == 0 {
		return DefaultRetryDelays
	}
	return n.RetryDelays
}

// retryDelay is the wait after the attempt-th failed attempt (1-based).
func (n *Notifier) retryDelay(attempt int) time.Duration {
	d := n.retryDelays()
	return d[min(max(attempt, 1), len(d))-1]
}

// DefaultShareDays is how long the report link of an email works unless
// the Notifier says otherwise.
const DefaultShareDays = 30

// Reasons an email was skipped, recorded on the schedule run.
const (
	DetailNoRecipient = "no address: the schedule has no notify_to, was not created with a member's key, and the organization has no owner member"
)

// Deliver does the work of one job attempt for the email of a scan:
// build and store it on the first attempt, then send it, or hold it when no
// relay is configured. The returned error asks for a retry; a permanent
// refusal, or the last attempt failing, marks the message failed.
func (n *Notifier) Deliver(ctx context.Context, scanID uuid.UUID, lastAttempt bool) error {
	msg, err := n.Store.GetOutboxMessageByScan(ctx, scanID)
	switch {
	case err == nil:
		// Sent, held or failed by an earlier attempt; or queued again by an
		// operator, and then that later job sends it.
		if msg.Status != store.EmailPending || msg.Resends > 0 {
			return nil
		}
	case errors.Is(err, store.ErrNotFound):
		var ok bool
		if msg, ok, err = n.compose(ctx, scanID); err != nil || !ok {
			return err
		}
		if msg.Status == store.EmailHeld {
			n.logHeld(msg)
			return n.Store.SetScheduleRunEmail(ctx, scanID, store.EmailHeld, nil)
		}
		if msg.Status != store.EmailPending {
			return nil
		}
	default:
		return fmt.Errorf("read outbox: %w", err)
	}
	return n.sendStored(ctx, msg, lastAttempt)
}

// Resend does one attempt of a job queued by `geoscan outbox send`: it
// sends the stored message unchanged, as long as it is pending and this
// job is its latest resend (a job an operator's later resend superseded,
// run again after its worker died, sends nothing).
func (n *Notifier) Resend(ctx context.Context, messageID uuid.UUID, resend int, lastAttempt bool) error {
	msg, err := n.Store.GetOutboxMessage(ctx, messageID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil // deleted with its organization
	case err != nil:
		return fmt.Errorf("read outbox: %w", err)
	}
	if msg.Status != store.EmailPending || msg.Resends != resend {
		return nil
	}
	return n.sendStored(ctx, msg, lastAttempt)
}

// sendStored sends a stored pending message. A process with no relay
// (a worker started without GEOSCAN_SMTP_URL took the job) holds it again
// instead, so it waits in the outbox for `geoscan outbox send`.
func (n *Notifier) sendStored(ctx context.Context, msg store.OutboxMessage, lastAttempt bool) error {
	if n.Sender != nil {
		return n.send(ctx, msg, lastAttempt)
	}
	held, err := n.Store.UpdateOutboxMessage(ctx, msg.ID, store.EmailHeld, msg.Attempts, msg.LastError)
	if err != nil {
		return err
	}
	n.logHeld(held)
	return n.recordRun(ctx, held, store.EmailHeld, nil)
}

func (n *Notifier) logHeld(msg store.OutboxMessage) {
	n.Logger.Info("email held in the outbox: no SMTP relay is configured (GEOSCAN_SMTP_URL)",
		slog.String("outbox_id", msg.ID.String()), slog.String("scan_id", orNone(msg.ScanID)),
		slog.String("to", msg.Recipient), slog.String("subject", msg.Subject), slog.String("text", msg.TextBody))
}

func orNone(id *uuid.UUID) string {
	if id == nil {
		return ""
	}
	return id.String()
}

// compose builds the email of a finished scheduled scan and stores it; ok
// is false when there is nothing to send (the scan or schedule is gone,
// notifications are off, no one to send to), which is recorded.
func (n *Notifier) compose(ctx context.Context, scanID uuid.UUID) (store.OutboxMessage, bool, error) {
	scan, err := n.Store.GetScanByID(ctx, scanID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && scan.ScheduleID == nil) {
		return store.OutboxMessage{}, false, nil
	}
	if err != nil {
		return store.OutboxMessage{}, false, err
	}
	if !scan.Status.Finished() {
		return store.OutboxMessage{}, false, fmt.Errorf("scan %s has not finished yet; it %s", scan.ID, scan.Status.Phrase())
	}
	sc, err := n.Store.GetSchedule(ctx, scan.OrgID, *scan.ScheduleID)
	if errors.Is(err, store.ErrNotFound) {
		return store.OutboxMessage{}, false, nil
	}
	if err != nil {
		return store.OutboxMessage{}, false, err
	}
	if !sc.NotifyEmail {
		return store.OutboxMessage{}, false, n.Store.SetScheduleRunEmail(ctx, scan.ID, store.EmailNotRequested, nil)
	}
	to, err := n.Recipient(ctx, sc)
	if err != nil {
		return store.OutboxMessage{}, false, err
	}
	if to == "" {
		n.Logger.Warn("scheduled scan email skipped: no address", slog.String("scan_id", scan.ID.String()), slog.String("schedule_id", sc.ID.String()))
		detail := DetailNoRecipient
		return store.OutboxMessage{}, false, n.Store.SetScheduleRunEmail(ctx, scan.ID, store.EmailSkipped, &detail)
	}
	r, err := n.report(ctx, scan, sc)
	if err != nil {
		return store.OutboxMessage{}, false, err
	}
	m, err := Compose(r)
	if err != nil {
		return store.OutboxMessage{}, false, err
	}
	status := store.EmailPending
	if n.Sender == nil {
		status = store.EmailHeld
	}
	stored, _, err := n.Store.CreateOutboxMessage(ctx, store.OutboxMessage{
		OrgID: scan.OrgID, ScheduleID: &sc.ID, ScanID: &scan.ID, Recipient: to,
		Subject: m.Subject, TextBody: m.Text, HTMLBody: m.HTML, Status: status,
	})
	if err != nil {
		return store.OutboxMessage{}, false, err
	}
	if stored.Status == store.EmailPending {
		if err := n.Store.SetScheduleRunEmail(ctx, scan.ID, store.EmailPending, nil); err != nil {
			return store.OutboxMessage{}, false, err
		}
	}
	return stored, true, nil
}

// Recipient is who a schedule's emails go to: its notify_to, else the
// member whose key created it, else the organization's first owner; ""
// when none is known.
func (n *Notifier) Recipient(ctx context.Context, sc store.Schedule) (string, error) {
	if sc.NotifyTo != nil {
		if addr, err := ParseAddress(*sc.NotifyTo); err == nil {
			return addr, nil
		}
	}
	if sc.OwnerMemberID != nil {
		m, err := n.Store.GetMember(ctx, *sc.OwnerMemberID)
		switch {
		case err == nil:
			if addr, err := ParseAddress(m.Email); err == nil {
				return addr, nil
			}
		case !errors.Is(err, store.ErrNotFound):
			return "", err
		}
	}
	owner, err := n.Store.GetOwnerMember(ctx, sc.OrgID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", nil
	case err != nil:
		return "", err
	}
	if addr, err := ParseAddress(owner.Email); err == nil {
		return addr, nil
	}
	return "", nil
}

func (n *Notifier) send(ctx context.Context, msg store.OutboxMessage, lastAttempt bool) error {
	err := n.Sender.Send(ctx, Envelope{
		MessageID: msg.ID.String(), From: n.From, To: msg.Recipient,
		Subject: msg.Subject, Text: msg.TextBody, HTML: msg.HTMLBody,
	})
	attempts := msg.Attempts + 1
	// Recording the outcome must not depend on the attempt's deadline.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err == nil {
		if _, err := n.Store.UpdateOutboxMessage(wctx, msg.ID, store.EmailSent, attempts, nil); err != nil {
			return err
		}
		n.Logger.Info("email sent", slog.String("outbox_id", msg.ID.String()), slog.Int("attempt", attempts))
		return n.recordRun(wctx, msg, store.EmailSent, nil)
	}
	reason := err.Error()
	if len(reason) > 500 {
		reason = reason[:500]
	}
	if Permanent(err) || lastAttempt {
		if _, uerr := n.Store.UpdateOutboxMessage(wctx, msg.ID, store.EmailFailed, attempts, &reason); uerr != nil {
			return errors.Join(err, uerr)
		}
		n.Logger.Error("email failed for good", slog.String("outbox_id", msg.ID.String()), slog.Int("attempt", attempts), slog.String("error", reason))
		if rerr := n.recordRun(wctx, msg, store.EmailFailed, &reason); rerr != nil {
			return rerr
		}
		return river.JobCancel(err)
	}
	if _, uerr := n.Store.UpdateOutboxMessage(wctx, msg.ID, store.EmailPending, attempts, &reason); uerr != nil {
		return errors.Join(err, uerr)
	}
	n.Logger.Warn("email not sent; retrying", slog.String("outbox_id", msg.ID.String()), slog.Int("attempt", attempts), slog.String("error", reason))
	return err
}

func (n *Notifier) recordRun(ctx context.Context, msg store.OutboxMessage, status string, detail *string) error {
	if msg.ScanID == nil {
		return nil
	}
	return n.Store.SetScheduleRunEmail(ctx, *msg.ScanID, status, detail)
}

// links gives the email of a completed scan its report as a share link,
// so the reader (and whoever they forward it to) needs no API key, and the
// PDF of the API. The link is made once, with the message: a later attempt
// sends the stored message and its link.
func (n *Notifier) links(ctx context.Context, scan store.Scan, r *Report) error {
	days := n.ShareDays
	if days <= 0 {
		days = DefaultShareDays
	}
	now := time.Now
	if n.NowFunc != nil {
		now = n.NowFunc
	}
	// The link's page is in the scan's language, resolved when it
	// completed; a scan from before languages existed has none.
	lang := "en"
	if scan.Language != nil {
		lang = *scan.Language
	}
	link, token, err := n.Store.IssueShareLink(ctx, store.NewShareLink{
		OrgID: scan.OrgID, ScanID: scan.ID, Audience: "marketing", Language: lang,
		ExpiresAt: now().UTC().AddDate(0, 0, days),
	})
	if err != nil {
		return fmt.Errorf("share link of scan %s: %w", scan.ID, err)
	}
	r.ReportURL, r.ShareExpiresAt = store.ShareURL(n.PublicURL, token), link.ExpiresAt
	r.PDFURL = strings.TrimRight(n.PublicURL, "/") + "/api/v1/scans/" + url.PathEscape(scan.ID.String()) + "/pdf?audience=marketing"
	return nil
}

// report gathers what the email says from the stored scan, the schedule's
// previous completed scan and the triage dossier.
func (n *Notifier) report(ctx context.Context, scan store.Scan, sc store.Schedule) (Report, error) {
	r := Report{
		URL: scan.URL, Domain: scan.Domain, BrandName: scan.BrandName, Frequency: string(sc.Frequency),
		ScheduleID: sc.ID.String(), FinishedAt: scan.UpdatedAt,
	}
	// The scan's language is resolved when it completes; a failed scan has
	// only the schedule's.
	switch {
	case scan.Language != nil:
		r.Language = *scan.Language
	case sc.Language != nil:
		r.Language = *sc.Language
	}
	if scan.CompletedAt != nil {
		r.FinishedAt = *scan.CompletedAt
	}
	brand, err := branding.Load(ctx, n.Store, scan.OrgID)
	if err != nil {
		return Report{}, err
	}
	r.Brand = brand
	if sc.Active {
		r.NextRunAt = sc.NextRunAt
	}
	if scan.Status == "failed" {
		r.Failed = true
		r.ErrorCode, r.Error = deref(scan.ErrorCode), deref(scan.ErrorMessage)
		if r.Error == "" {
			r.Error = "The scan could not be finished."
		}
		return r, nil
	}
	if err := n.links(ctx, scan, &r); err != nil {
		return Report{}, err
	}
	if scan.OverallScore != nil {
		r.Overall = *scan.OverallScore
	}
	r.OverallGrade = deref(scan.OverallGrade)
	prev, err := n.Store.PreviousScheduledScan(ctx, scan)
	hasPrev := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Report{}, fmt.Errorf("previous scan: %w", err)
	}
	rings := []struct {
		name                 string
		score, prevScore     *int32
		grade, prevGradeText *string
	}{
		{"Search", scan.SearchScore, prev.SearchScore, scan.SearchGrade, prev.SearchGrade},
		{"Visibility", scan.VisibilityScore, prev.VisibilityScore, scan.VisibilityGrade, prev.VisibilityGrade},
		{"Trust", scan.TrustScore, prev.TrustScore, scan.TrustGrade, prev.TrustGrade},
	}
	for _, ring := range rings {
		out := Ring{Name: ring.name, Grade: deref(ring.grade)}
		if ring.score != nil {
			out.Score = int(*ring.score)
		}
		if hasPrev && ring.prevScore != nil {
			p := int(*ring.prevScore)
			out.PrevScore, out.PrevGrade = &p, deref(ring.prevGradeText)
		}
		r.Rings = append(r.Rings, out)
	}
	if hasPrev {
		r.Previous = &Previous{OverallGrade: deref(prev.OverallGrade), FinishedAt: prev.UpdatedAt}
		if prev.OverallScore != nil {
			r.Previous.Overall = *prev.OverallScore
		}
		if prev.CompletedAt != nil {
			r.Previous.FinishedAt = *prev.CompletedAt
		}
		if r.Regressed, r.Improved, err = n.checkChanges(ctx, prev.ID, scan.ID); err != nil {
			return Report{}, err
		}
	}
	if r.QuickWins, r.FirstFix, err = n.quickWins(ctx, scan.ID); err != nil {
		return Report{}, err
	}
	return r, nil
}

// verdictRank orders scored verdicts; na and info are not compared.
var verdictRank = map[string]int{"fail": 0, "warn": 1, "pass": 2}

func (n *Notifier) checkChanges(ctx context.Context, baseID, targetID uuid.UUID) (regressed, improved []CheckChange, err error) {
	base, err := n.Store.ListCheckResults(ctx, baseID)
	if err != nil {
		return nil, nil, fmt.Errorf("previous check results: %w", err)
	}
	target, err := n.Store.ListCheckResults(ctx, targetID)
	if err != nil {
		return nil, nil, fmt.Errorf("check results: %w", err)
	}
	before := make(map[string]string, len(base))
	for _, c := range base {
		before[c.CheckID] = c.Status
	}
	for _, c := range target {
		was, ok := before[c.CheckID]
		if !ok {
			continue
		}
		from, okFrom := verdictRank[was]
		to, okTo := verdictRank[c.Status]
		if !okFrom || !okTo || from == to {
			continue
		}
		change := CheckChange{Title: checkTitle(c.CheckID), From: was, To: c.Status}
		if to < from {
			regressed = append(regressed, change)
		} else {
			improved = append(improved, change)
		}
	}
	return regressed, improved, nil
}

func checkTitle(id string) string {
	if c := checks.Lookup(id); c != nil && c.Marketing.Title != "" {
		return c.Marketing.Title
	}
	return id
}

// quickWins are the dossier's first quick wins, and its first priority
// action when that is not the first quick win and adds to the score.
func (n *Notifier) quickWins(ctx context.Context, scanID uuid.UUID) ([]QuickWin, *QuickWin, error) {
	t, err := n.Store.GetTriage(ctx, scanID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil // computed later, if at all: the email goes without
	}
	if err != nil {
		return nil, nil, fmt.Errorf("triage: %w", err)
	}
	var doc triage.Stored
	if err := json.Unmarshal(t.Body, &doc); err != nil {
		return nil, nil, fmt.Errorf("decode triage of %s: %w", scanID, err)
	}
	var out []QuickWin
	var first *QuickWin
	for i, a := range doc.Marketing.PriorityActions {
		q := QuickWin{Label: a.Label, Recommendation: a.Recommendation, Gain: gainSaid(a.ExpectedGain, a.GainInOrder, a.FixedWith)}
		if i == 0 && !a.QuickWin && a.GainInOrder != nil && *a.GainInOrder > 0 {
			first = &q
		}
		if a.QuickWin && len(out) < MaxQuickWins {
			out = append(out, q)
		}
	}
	return out, first, nil
}

// gainSaid words what an action adds to the overall score: alone, only
// together with other actions, or once those ranked above it are made;
// "" for a dossier made before gains were computed.
func gainSaid(alone, inOrder *float64, with *[]string) string {
	switch {
	case alone == nil || inOrder == nil:
		return ""
	case *alone > 0:
		return fmt.Sprintf("+%.1f points", *alone)
	case with != nil && len(*with) > 0 && *inOrder > 0:
		titles := make([]string, 0, len(*with))
		for _, id := range *with {
			titles = append(titles, checkTitle(id))
		}
		return fmt.Sprintf("+%.1f points together with %s", *inOrder, strings.Join(titles, " and "))
	case *inOrder > 0:
		return fmt.Sprintf("+%.1f points once the fixes ranked above it are made", *inOrder)
	}
	return "no change to the overall score as it stands"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Worker is the River worker of NotifyArgs.
type Worker struct {
	river.WorkerDefaults[NotifyArgs]
	Notifier *Notifier
}

// Timeout leaves room for an SMTP attempt and the bookkeeping around it.
func (w *Worker) Timeout(*river.Job[NotifyArgs]) time.Duration { return SMTPTimeout + 15*time.Second }

// NextRetry follows the notifier's retry delays.
func (w *Worker) NextRetry(job *river.Job[NotifyArgs]) time.Time {
	return time.Now().Add(w.Notifier.retryDelay(job.Attempt))
}

// Work sends (or holds) the email of one scan.
func (w *Worker) Work(ctx context.Context, job *river.Job[NotifyArgs]) error {
	last := job.Attempt >= job.MaxAttempts
	if job.Args.MessageID != uuid.Nil {
		return w.Notifier.Resend(ctx, job.Args.MessageID, job.Args.Resend, last)
	}
	return w.Notifier.Deliver(ctx, job.Args.ScanID, last)
}
