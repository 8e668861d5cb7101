-- name: CreateWebhookDelivery :one
INSERT INTO webhook_deliveries (org_id, scan_id, event, url, payload, next_attempt_at)
VALUES (@org_id, @scan_id, @event, @url, @payload, now())
RETURNING *;

-- name: GetWebhookDeliveryForSend :one
-- Unscoped: only the delivery worker reads it. The secret comes from the
-- scan and is never copied; a deleted scan takes its deliveries with it.
SELECT sqlc.embed(d), s.webhook_secret
FROM webhook_deliveries d JOIN scans s ON s.id = d.scan_id
WHERE d.id = @id;

-- name: RecordWebhookAttempt :one
-- Numbers attempts per delivery across redeliveries, so the log never has
-- two attempts with the same number; a delivery no longer pending is left alone.
UPDATE webhook_deliveries SET
    attempt_count = attempt_count + 1,
    status = @status,
    last_status_code = sqlc.narg(status_code),
    last_error = sqlc.narg(error),
    next_attempt_at = sqlc.narg(next_attempt_at),
    completed_at = CASE WHEN @status::text = 'pending' THEN NULL ELSE now() END
WHERE id = @id AND status = 'pending'
RETURNING attempt_count;

-- name: ListWebhookDeliveriesForScan :many
-- Keyset pagination over (created_at, id) descending; the cursor defaults
-- to a position after every row, so that it is an index condition in any
-- plan (see ListScheduleRuns).
SELECT * FROM webhook_deliveries
WHERE scan_id = @scan_id
  AND (created_at, id) < (coalesce(sqlc.narg(cursor_created_at)::timestamptz, 'infinity'),
                          coalesce(sqlc.narg(cursor_id)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: LockLatestWebhookDelivery :one
-- The delivery of a scan's final event, locked so two redeliveries at once
-- queue one job.
SELECT * FROM webhook_deliveries
WHERE scan_id = @scan_id
ORDER BY created_at DESC, id DESC
LIMIT 1
FOR UPDATE;

-- name: RequeueWebhookDelivery :one
UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), completed_at = NULL
WHERE id = @id
RETURNING *;
