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

// Idempotent runs fn at most once per (org, operation, key) within the TTL.
// A repeat with the same request hash gets the stored response (replayed =
// true); a different hash gets ErrIdempotencyReused. fn runs inside the
// transaction that saves its response, so a failure saves nothing.
func (s *Store) Idempotent(ctx context.Context, orgID uuid.UUID, operation, key string, requestHash []byte,
	fn func(ctx context.Context, tx *Store) (StoredResponse, error),
) (resp StoredResponse, replayed bool, err error) {
	err = s.InTx(ctx, func(tx *Store) error {
		lock := orgID.String() + "/" + operation + "/" + key
		if err := tx.q.LockIdempotencyKey(ctx, tx.conn, lock); err != nil {
			return fmt.Errorf("lock idempotency key: %w", err)
		}
		prev, err := tx.q.GetIdempotentResponse(ctx, tx.conn, db.GetIdempotentResponseParams{OrgID: orgID, Operation: operation, Key: key})
		switch {
		case err == nil:
			if !bytes.Equal(prev.RequestHash, requestHash) {
				return ErrIdempotencyReused
			}
			resp, replayed = StoredResponse{Status: int(prev.ResponseStatus), Body: prev.ResponseBody}, true
			return nil
		case !errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("read idempotency key: %w", err)
		}
		resp, err = fn(ctx, tx)
		if err != nil {
			return err
		}
		return tx.q.SaveIdempotentResponse(ctx, tx.conn, db.SaveIdempotentResponseParams{
			OrgID: orgID, Operation: operation, Key: key, RequestHash: requestHash,
			ResponseStatus: int32(resp.Status), ResponseBody: resp.Body,
			ExpiresAt: time.Now().Add(IdempotencyTTL),
		})
	})
	return resp, replayed, err
}
