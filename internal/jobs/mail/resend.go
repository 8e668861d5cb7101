package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/geoscan/geoscan/internal/store"
)

// RequeueOpts chooses the messages Requeue queues for sending again.
type RequeueOpts struct {
	// IDs names the messages; held ones are queued, failed ones only with
	// Failed. Without IDs, Held and Failed choose the states to take.
	IDs    []uuid.UUID
	Held   bool
	Failed bool
	// OrgID keeps only this organization's messages.
	OrgID *uuid.UUID
	// DryRun decides as Requeue would and changes nothing.
	DryRun bool
}

// Requeued is what Requeue made of one message.
type Requeued struct {
	// Message is the message as it was found, before it was queued.
	Message store.OutboxMessage
	// Skipped says why the message was not queued; empty when it was (or,
	// in a dry run, would have been).
	Skipped string
}

// Why a message is not queued again.
const (
	SkipSent            = "already sent"
	SkipPending         = "already queued for sending"
	SkipFailed          = "failed; failed messages are queued again only when asked (--failed)"
	SkipScanDeleted     = "its scan was deleted"
	SkipScheduleDeleted = "its schedule was deleted"
)

// ErrUnknownMessage is returned, followed by the id, when a message named
// in RequeueOpts.IDs does not exist (or not in RequeueOpts.OrgID); nothing
// is queued then.
var ErrUnknownMessage = errors.New("no outbox message with id")

// Requeue queues held (and, when asked, failed) messages for sending again
// through the email job and its retries, unchanged. In one transaction it
// locks the chosen messages, moves each back to pending, counts the resend
// and inserts its job, so a message is never pending without a job nor
// queued twice: a concurrent Requeue waits for the locks and then finds
// the messages pending. The job sends with the relay of the worker that
// runs it; a worker without one holds the message again.
func (n *Notifier) Requeue(ctx context.Context, opts RequeueOpts) ([]Requeued, error) {
	sel := store.OutboxSelection{IDs: opts.IDs, OrgID: opts.OrgID}
	if len(opts.IDs) == 0 {
		if opts.Held {
			sel.Statuses = append(sel.Statuses, store.EmailHeld)
		}
		if opts.Failed {
			sel.Statuses = append(sel.Statuses, store.EmailFailed)
		}
		if len(sel.Statuses) == 0 {
			return nil, errors.New("requeue: name messages or choose held or failed ones")
		}
	}
	var out []Requeued
	err := n.Store.InTx(ctx, func(tx *store.Store) error {
		msgs, err := tx.LockOutboxMessages(ctx, sel)
		if err != nil {
			return fmt.Errorf("lock outbox messages: %w", err)
		}
		if err := requireEach(opts.IDs, msgs, opts.OrgID); err != nil {
			return err
		}
		out = make([]Requeued, 0, len(msgs))
		var ids []uuid.UUID
		for _, m := range msgs {
			r := Requeued{Message: m, Skipped: skipReason(m, opts.Failed)}
			if r.Skipped == "" {
				ids = append(ids, m.ID)
			}
			out = append(out, r)
		}
		if opts.DryRun || len(ids) == 0 {
			return nil // nothing was written: the locks go with the commit
		}
		moved, err := tx.RequeueOutboxMessages(ctx, ids)
		if err != nil {
			return fmt.Errorf("requeue outbox messages: %w", err)
		}
		if len(moved) != len(ids) {
			// The rows are locked and were held or failed: this cannot
			// happen, and half a requeue must not be committed.
			return fmt.Errorf("requeue: %d of %d messages changed state meanwhile", len(ids)-len(moved), len(ids))
		}
		jobs := make([]river.InsertManyParams, 0, len(moved))
		for _, m := range moved {
			if err := tx.SetScheduleRunEmail(ctx, *m.ScanID, store.EmailPending, nil); err != nil {
				return err
			}
			jobs = append(jobs, river.InsertManyParams{
				Args:       NotifyArgs{ScanID: *m.ScanID, MessageID: m.ID, Resend: m.Resends},
				InsertOpts: n.jobOpts(),
			})
		}
		res, err := n.Client.InsertManyTx(ctx, tx.Tx(), jobs)
		if err != nil {
			return fmt.Errorf("queue emails: %w", err)
		}
		for _, r := range res {
			if r.UniqueSkippedAsDuplicate {
				// Each resend's arguments are new; a duplicate means the
				// message would stay pending with no job of its own.
				return fmt.Errorf("queue emails: job %d already exists for %s", r.Job.ID, r.Job.EncodedArgs)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// FOR UPDATE may return rows that waited for a lock out of order.
	slices.SortFunc(out, func(a, b Requeued) int {
		if c := a.Message.CreatedAt.Compare(b.Message.CreatedAt); c != 0 {
			return c
		}
		return bytes.Compare(a.Message.ID[:], b.Message.ID[:])
	})
	return out, nil
}

// requireEach fails when a named message was not found.
func requireEach(ids []uuid.UUID, found []store.OutboxMessage, orgID *uuid.UUID) error {
	for _, id := range ids {
		if slices.ContainsFunc(found, func(m store.OutboxMessage) bool { return m.ID == id }) {
			continue
		}
		if orgID != nil {
			return fmt.Errorf("%w %s in organization %s", ErrUnknownMessage, id, orgID)
		}
		return fmt.Errorf("%w %s", ErrUnknownMessage, id)
	}
	return nil
}

// skipReason says why m is not queued again, or "" when it is. A message
// whose scan was deleted is not sent: its links lead nowhere and its
// owner removed what it reports on.
func skipReason(m store.OutboxMessage, failed bool) string {
	switch {
	case m.Status == store.EmailSent:
		return SkipSent
	case m.Status == store.EmailPending:
		return SkipPending
	case m.Status == store.EmailFailed && !failed:
		return SkipFailed
	case m.ScanID == nil:
		return SkipScanDeleted
	case m.ScheduleID == nil:
		return SkipScheduleDeleted
	}
	return ""
}
