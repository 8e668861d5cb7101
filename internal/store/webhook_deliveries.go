package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// DeliveryStatus is where a callback delivery stands: pending while
// attempts remain, then succeeded or failed.
type DeliveryStatus string

// The delivery states.
const (
	DeliveryPending   DeliveryStatus = "pending"
	DeliverySucceeded DeliveryStatus = "succeeded"
	DeliveryFailed    DeliveryStatus = "failed"
)

// WebhookDelivery is one callback (its id is X-GeoScan-Delivery) and where
// its attempts stand. Test deliveries have no scan.
type WebhookDelivery struct {
	ID             uuid.UUID
	OrgID          uuid.UUID
	ScanID         *uuid.UUID
	Event          string
	URL            string
	Payload        []byte
	Status         DeliveryStatus
	AttemptCount   int32
	LastStatusCode *int32
	LastError      *string
	NextAttemptAt  *time.Time
	CreatedAt      time.Time
	CompletedAt    *time.Time
}

func deliveryOf(r db.WebhookDelivery) WebhookDelivery {
	return WebhookDelivery{
		ID: r.ID, OrgID: r.OrgID, ScanID: r.ScanID, Event: r.Event, URL: r.URL, Payload: r.Payload,
		Status: DeliveryStatus(r.Status), AttemptCount: r.AttemptCount,
		LastStatusCode: r.LastStatusCode, LastError: r.LastError, NextAttemptAt: r.NextAttemptAt,
		CreatedAt: r.CreatedAt, CompletedAt: r.CompletedAt,
	}
}

// Cursor is the delivery's place in a list.
func (d WebhookDelivery) Cursor() Cursor { return Cursor{CreatedAt: d.CreatedAt, ID: d.ID} }

// NewDelivery is a callback to queue for a finished scan.
type NewDelivery struct {
	OrgID   uuid.UUID
	ScanID  uuid.UUID
	Event   string
	URL     string
	Payload []byte
}

// CreateDelivery stores a pending delivery; the caller queues its job in
// the same transaction.
func (s *Store) CreateDelivery(ctx context.Context, n NewDelivery) (WebhookDelivery, error) {
	d, err := s.q.CreateWebhookDelivery(ctx, s.conn, db.CreateWebhookDeliveryParams{
		OrgID: n.OrgID, ScanID: &n.ScanID, Event: n.Event, URL: n.URL, Payload: n.Payload,
	})
	return one(d, err, deliveryOf)
}

// DeliveryToSend is a delivery with the secret of its scan.
type DeliveryToSend struct {
	WebhookDelivery
	Secret string
}

// DeliveryForSend reads a delivery and its scan's secret. ErrNotFound means
// the scan (and with it the delivery) was deleted.
func (s *Store) DeliveryForSend(ctx context.Context, id uuid.UUID) (DeliveryToSend, error) {
	row, err := s.q.GetWebhookDeliveryForSend(ctx, s.conn, id)
	if err != nil {
		return DeliveryToSend{}, notFound(err)
	}
	if row.WebhookSecret == nil {
		return DeliveryToSend{}, fmt.Errorf("delivery %s: its scan has no webhook secret", id)
	}
	return DeliveryToSend{WebhookDelivery: deliveryOf(row.WebhookDelivery), Secret: *row.WebhookSecret}, nil
}

// Attempt is one recorded delivery attempt.
type Attempt struct {
	DeliveryID uuid.UUID
	StartedAt  time.Time
	Duration   time.Duration
	StatusCode *int
	Error      string
	// Status is the delivery's state after this attempt; NextAttemptAt is
	// set while it stays pending.
	Status        DeliveryStatus
	NextAttemptAt *time.Time
}

// RecordAttempt logs an attempt and moves the delivery to its new state in
// one transaction. It returns the attempt's number, or ErrNotFound when the
// delivery is gone or no longer pending (nothing is recorded then).
func (s *Store) RecordAttempt(ctx context.Context, a Attempt) (int, error) {
	var code *int32
	if a.StatusCode != nil {
		c := int32(*a.StatusCode)
		code = &c
	}
	var errText *string
	if a.Error != "" {
		errText = &a.Error
	}
	var n int32
	err := s.atomically(ctx, func(tx *Store) error {
		var err error
		n, err = tx.q.RecordWebhookAttempt(ctx, tx.conn, db.RecordWebhookAttemptParams{
			ID: a.DeliveryID, Status: string(a.Status), StatusCode: code, Error: errText, NextAttemptAt: a.NextAttemptAt,
		})
		if err != nil {
			return notFound(err)
		}
		return tx.insertAttempt(ctx, db.InsertWebhookAttemptParams{
			DeliveryID: a.DeliveryID, Attempt: n, StartedAt: a.StartedAt,
			DurationMs: int32(a.Duration.Milliseconds()), StatusCode: code, Error: errText,
		})
	})
	return int(n), err
}

// DeliveryWithAttempts is a delivery and its attempts in order.
type DeliveryWithAttempts struct {
	WebhookDelivery
	Attempts []WebhookAttempt
}

// ListDeliveries returns up to limit deliveries of a scan after cursor,
// newest first, each with its attempts. The caller has checked that the
// scan belongs to the organization.
func (s *Store) ListDeliveries(ctx context.Context, scanID uuid.UUID, after *Cursor, limit int) ([]DeliveryWithAttempts, error) {
	p := db.ListWebhookDeliveriesForScanParams{ScanID: &scanID, RowLimit: int32(limit)}
	if after != nil {
		p.CursorCreatedAt, p.CursorID = &after.CreatedAt, &after.ID
	}
	rows, err := s.q.ListWebhookDeliveriesForScan(ctx, s.conn, p)
	if err != nil {
		return nil, err
	}
	out := make([]DeliveryWithAttempts, len(rows))
	ids := make([]uuid.UUID, len(rows))
	index := make(map[uuid.UUID]int, len(rows))
	for i, r := range rows {
		out[i] = DeliveryWithAttempts{WebhookDelivery: deliveryOf(r), Attempts: []WebhookAttempt{}}
		ids[i] = r.ID
		index[r.ID] = i
	}
	if len(ids) == 0 {
		return out, nil
	}
	attempts, err := s.listAttempts(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, a := range attempts {
		i := index[a.DeliveryID]
		out[i].Attempts = append(out[i].Attempts, a)
	}
	return out, nil
}

// LockLatestDelivery returns the delivery of a scan's final event, locked
// until the end of the caller's transaction so two redeliveries at once
// queue one job.
func (s *Store) LockLatestDelivery(ctx context.Context, scanID uuid.UUID) (WebhookDelivery, error) {
	d, err := s.q.LockLatestWebhookDelivery(ctx, s.conn, &scanID)
	return one(d, err, deliveryOf)
}

// RequeueDelivery makes a settled delivery pending again, due now.
func (s *Store) RequeueDelivery(ctx context.Context, id uuid.UUID) (WebhookDelivery, error) {
	d, err := s.q.RequeueWebhookDelivery(ctx, s.conn, id)
	return one(d, err, deliveryOf)
}
