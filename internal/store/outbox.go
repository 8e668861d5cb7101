package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/geoscan/geoscan/gen/db"
)

// Outbox message states.
const (
	EmailPending = "pending"
	EmailSent    = "sent"
	EmailHeld    = "held"
	EmailFailed  = "failed"
	// The two below are recorded on a schedule run only: no message exists.
	EmailSkipped      = "skipped"
	EmailNotRequested = "not_requested"
)

// OutboxMessage is one notification email as built, with its state.
type OutboxMessage struct {
	ID         uuid.UUID
	OrgID      uuid.UUID
	ScheduleID *uuid.UUID
	ScanID     *uuid.UUID
	Recipient  string
	Subject    string
	TextBody   string
	HTMLBody   string
	Status     string
	Attempts   int
	// Resends counts the times an operator queued the message again.
	Resends   int
	LastError *string
	CreatedAt time.Time
	UpdatedAt time.Time
	SentAt    *time.Time
}

func toOutboxMessage(m db.Outbox) OutboxMessage {
	return OutboxMessage{
		ID: m.ID, OrgID: m.OrgID, ScheduleID: m.ScheduleID, ScanID: m.ScanID, Recipient: m.Recipient,
		Subject: m.Subject, TextBody: m.TextBody, HTMLBody: m.HtmlBody, Status: m.Status,
		Attempts: int(m.Attempts), Resends: int(m.Resends), LastError: m.LastError, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt, SentAt: m.SentAt,
	}
}

// CreateOutboxMessage stores a message in state m.Status. A scan has one
// message: when one already exists it is returned instead (created false).
func (s *Store) CreateOutboxMessage(ctx context.Context, m OutboxMessage) (OutboxMessage, bool, error) {
	row, err := s.q.CreateOutboxMessage(ctx, s.conn, db.CreateOutboxMessageParams{
		OrgID: m.OrgID, ScheduleID: m.ScheduleID, ScanID: m.ScanID, Recipient: m.Recipient,
		Subject: m.Subject, TextBody: m.TextBody, HtmlBody: m.HTMLBody, Status: m.Status,
	})
	if errors.Is(err, pgx.ErrNoRows) && m.ScanID != nil {
		existing, err := s.GetOutboxMessageByScan(ctx, *m.ScanID)
		return existing, false, err
	}
	if err != nil {
		return OutboxMessage{}, false, fmt.Errorf("store outbox message: %w", err)
	}
	return toOutboxMessage(row), true, nil
}

// GetOutboxMessageByScan returns the message of a scan.
func (s *Store) GetOutboxMessageByScan(ctx context.Context, scanID uuid.UUID) (OutboxMessage, error) {
	row, err := s.q.GetOutboxMessageByScan(ctx, s.conn, &scanID)
	return toOutboxMessage(row), notFound(err)
}

// GetOutboxMessage returns one message.
func (s *Store) GetOutboxMessage(ctx context.Context, id uuid.UUID) (OutboxMessage, error) {
	row, err := s.q.GetOutboxMessage(ctx, s.conn, id)
	return toOutboxMessage(row), notFound(err)
}

// UpdateOutboxMessage records a message's state after an attempt; sent_at
// is set when it becomes sent.
func (s *Store) UpdateOutboxMessage(ctx context.Context, id uuid.UUID, status string, attempts int, lastError *string) (OutboxMessage, error) {
	row, err := s.q.UpdateOutboxMessage(ctx, s.conn, db.UpdateOutboxMessageParams{
		ID: id, Status: status, Attempts: int32(attempts), LastError: lastError,
	})
	return toOutboxMessage(row), notFound(err)
}

// OutboxFilter selects messages; nil fields do not filter.
type OutboxFilter struct {
	OrgID  *uuid.UUID
	Status *string
}

// ListOutboxMessages returns up to limit messages, newest first.
func (s *Store) ListOutboxMessages(ctx context.Context, f OutboxFilter, limit int) ([]OutboxMessage, error) {
	rows, err := s.q.ListOutboxMessages(ctx, s.conn, db.ListOutboxMessagesParams{OrgID: f.OrgID, Status: f.Status, RowLimit: int32(limit)})
	if err != nil {
		return nil, err
	}
	out := make([]OutboxMessage, len(rows))
	for i, r := range rows {
		out[i] = toOutboxMessage(r)
	}
	return out, nil
}

// OutboxSelection chooses the messages LockOutboxMessages returns: the
// given ids, or else those in the given states; OrgID narrows either.
type OutboxSelection struct {
	IDs      []uuid.UUID
	Statuses []string
	OrgID    *uuid.UUID
}

// LockOutboxMessages returns the selected messages, oldest first, locked
// until the transaction ends: a concurrent caller waits for them and then
// sees what this one made of them.
func (s *Store) LockOutboxMessages(ctx context.Context, sel OutboxSelection) ([]OutboxMessage, error) {
	if err := s.requireTx("LockOutboxMessages"); err != nil {
		return nil, err
	}
	rows, err := s.q.LockOutboxMessages(ctx, s.conn, db.LockOutboxMessagesParams{Ids: sel.IDs, Statuses: sel.Statuses, OrgID: sel.OrgID})
	return all(rows, err, toOutboxMessage)
}

// RequeueOutboxMessages moves held or failed messages back to pending and
// counts one more resend on each; messages in any other state are left
// alone and not returned.
func (s *Store) RequeueOutboxMessages(ctx context.Context, ids []uuid.UUID) ([]OutboxMessage, error) {
	rows, err := s.q.RequeueOutboxMessages(ctx, s.conn, ids)
	return all(rows, err, toOutboxMessage)
}
