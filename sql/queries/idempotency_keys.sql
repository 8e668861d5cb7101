-- name: GetIdempotentResponse :one
SELECT * FROM idempotency_keys
WHERE org_id = @org_id AND operation = @operation AND key = @key AND expires_at > now();

-- name: SaveIdempotentResponse :exec
INSERT INTO idempotency_keys (org_id, operation, key, request_hash, response_status, response_body, expires_at)
VALUES (@org_id, @operation, @key, @request_hash, @response_status, @response_body, @expires_at)
ON CONFLICT (org_id, operation, key) DO UPDATE SET
    request_hash = excluded.request_hash,
    response_status = excluded.response_status,
    response_body = excluded.response_body,
    created_at = now(),
    expires_at = excluded.expires_at
WHERE idempotency_keys.expires_at <= now();

-- name: LockIdempotencyKey :exec
-- A transaction-scoped advisory lock so two concurrent requests with one key
-- run one after the other: the second sees the first one's saved response.
SELECT pg_advisory_xact_lock(hashtextextended(@lock_key::text, 0));

-- name: DeleteExpiredIdempotencyKeys :execrows
-- Up to @batch keys whose TTL has passed, oldest first.
DELETE FROM idempotency_keys
WHERE (org_id, operation, key) IN (
    SELECT old.org_id, old.operation, old.key FROM idempotency_keys old
    WHERE old.expires_at <= now() ORDER BY old.expires_at LIMIT @batch::integer
);
