package store

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/gen/db"
)

// WebhookAttempt is one attempt of a delivery, numbered from 1 across
// redeliveries.
type WebhookAttempt struct {
	DeliveryID uuid.UUID
	Attempt    int32
	StartedAt  time.Time
	DurationMs int32
	StatusCode *int32
	Error      *string
}

func attemptOf(r db.WebhookDeliveryAttempt) WebhookAttempt { return WebhookAttempt(r) }

// insertAttempt logs an attempt; RecordAttempt numbers it and moves its
// delivery on in the same transaction.
func (s *Store) insertAttempt(ctx context.Context, a db.InsertWebhookAttemptParams) error {
	return s.q.InsertWebhookAttempt(ctx, s.conn, a)
}

// listAttempts returns the attempts of some deliveries, by delivery and in
// order.
func (s *Store) listAttempts(ctx context.Context, deliveryIDs []uuid.UUID) ([]WebhookAttempt, error) {
	rows, err := s.q.ListWebhookAttempts(ctx, s.conn, deliveryIDs)
	return all(rows, err, attemptOf)
}
