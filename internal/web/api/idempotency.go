package api

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/apierror"
)

// createOnce runs create in one transaction and answers with its status and
// value. With an Idempotency-Key, the first response to the key is saved in
// that transaction and a repeat of the same request within 24 hours gets it
// again without create running; the same key with another body is refused.
// Both the first answer and a replay are decoded from the saved JSON, so
// they are the same.
func createOnce[T any](ctx context.Context, st *store.Store, orgID uuid.UUID, operation string, key *string, body any,
	create func(ctx context.Context, tx *store.Store) (status int, out T, err error),
) (int, T, error) {
	var (
		resp store.StoredResponse
		out  T
	)
	err := st.InTx(ctx, func(tx *store.Store) error {
		var (
			k    store.IdempotencyKey
			hash []byte
		)
		if key != nil {
			k, hash = store.IdempotencyKey{OrgID: orgID, Operation: operation, Key: *key}, requestHash(body)
			saved, found, err := tx.ClaimIdempotencyKey(ctx, k, hash)
			if errors.Is(err, store.ErrIdempotencyReused) {
				return apierror.New(apierror.CodeIdempotencyKeyReused, "Idempotency-Key", "This Idempotency-Key was used with a different request body in the last 24 hours.")
			}
			if err != nil || found {
				resp = saved
				return err
			}
		}
		status, v, err := create(ctx, tx)
		if err != nil {
			return err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		resp = store.StoredResponse{Status: status, Body: b}
		if key == nil {
			return nil
		}
		return tx.SaveIdempotentResponse(ctx, k, hash, resp)
	})
	if err != nil {
		return 0, out, err
	}
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		return 0, out, fmt.Errorf("decode stored response: %w", err)
	}
	return resp.Status, out, nil
}

// requestHash identifies a request body for idempotency: the canonical JSON
// of the decoded body, so formatting differences do not count as changes.
func requestHash(body any) []byte {
	b, _ := json.Marshal(body)
	sum := sha256.Sum256(b)
	return sum[:]
}
