package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/geoscan/geoscan/gen/db"
)

// IdempotencyTTL is how long a key's first response is replayed.
const IdempotencyTTL = 24 * time.Hour

// StoredResponse is the first response to an idempotent request.
type StoredResponse struct {
	Status int
	Body   json.RawMessage
}

// IdempotencyKey names one Idempotency-Key of one operation of an
// organization.
type IdempotencyKey struct {
	OrgID     uuid.UUID
	Operation string
	Key       string
}

// ClaimIdempotencyKey locks k until the end of the caller's transaction, so
// concurrent requests with one key run one after the other, and returns the
// response saved under it within the TTL (found = true). A response saved
// for a different request hash is ErrIdempotencyReused. Without one, the
// caller does the work and saves its response (SaveIdempotentResponse) in
// the same transaction, so a failure saves nothing.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, k IdempotencyKey, requestHash []byte) (resp StoredResponse, found bool, err error) {
	if err := s.requireTx("ClaimIdempotencyKey"); err != nil {
		return StoredResponse{}, false, err
	}
	lock := k.OrgID.String() + "/" + k.Operation + "/" + k.Key
	if err := s.q.LockIdempotencyKey(ctx, s.conn, lock); err != nil {
		return StoredResponse{}, false, fmt.Errorf("lock idempotency key: %w", err)
	}
	prev, err := s.q.GetIdempotentResponse(ctx, s.conn, db.GetIdempotentResponseParams{OrgID: k.OrgID, Operation: k.Operation, Key: k.Key})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return StoredResponse{}, false, nil
	case err != nil:
		return StoredResponse{}, false, fmt.Errorf("read idempotency key: %w", err)
	case !bytes.Equal(prev.RequestHash, requestHash):
		return StoredResponse{}, false, ErrIdempotencyReused
	}
	return StoredResponse{Status: int(prev.ResponseStatus), Body: prev.ResponseBody}, true, nil
}

// SaveIdempotentResponse keeps the first response to k for the TTL.
func (s *Store) SaveIdempotentResponse(ctx context.Context, k IdempotencyKey, requestHash []byte, resp StoredResponse) error {
	return s.q.SaveIdempotentResponse(ctx, s.conn, db.SaveIdempotentResponseParams{
		OrgID: k.OrgID, Operation: k.Operation, Key: k.Key, RequestHash: requestHash,
		ResponseStatus: int32(resp.Status), ResponseBody: resp.Body,
		ExpiresAt: time.Now().Add(IdempotencyTTL),
	})
}

// DeleteExpiredIdempotencyKeys removes up to batch keys whose TTL has
// passed: they are never replayed again.
func (s *Store) DeleteExpiredIdempotencyKeys(ctx context.Context, batch int) (int64, error) {
	return s.q.DeleteExpiredIdempotencyKeys(ctx, s.conn, int32(batch))
}
