-- name: CreateOutboxMessage :one
-- ON CONFLICT DO NOTHING: a scan's message exists once; the caller reads
-- the stored one when this returns no row.
INSERT INTO outbox (org_id, schedule_id, scan_id, recipient, subject, text_body, html_body, status)
VALUES (@org_id, sqlc.narg(schedule_id), sqlc.narg(scan_id), @recipient, @subject, @text_body, @html_body, @status)
ON CONFLICT (scan_id) WHERE scan_id IS NOT NULL DO NOTHING
RETURNING *;

-- name: GetOutboxMessageByScan :one
SELECT * FROM outbox WHERE scan_id = @scan_id;

-- name: GetOutboxMessage :one
SELECT * FROM outbox WHERE id = @id;

-- name: UpdateOutboxMessage :one
UPDATE outbox SET
    status = @status,
    attempts = @attempts,
    last_error = sqlc.narg(last_error),
    sent_at = CASE WHEN @status = 'sent' THEN now() ELSE sent_at END,
    updated_at = now()
WHERE id = @id
RETURNING *;

-- name: ListOutboxMessages :many
SELECT * FROM outbox
WHERE (sqlc.narg(org_id)::uuid IS NULL OR org_id = sqlc.narg(org_id)::uuid)
  AND (sqlc.narg(status)::text IS NULL OR status = sqlc.narg(status)::text)
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: LockOutboxMessages :many
-- The messages geoscan outbox send considers: the given ids, or those in
-- the given states, locked in a fixed order. A concurrent send waits for
-- the lock and then sees the committed state, so a message another send
-- has just queued no longer matches the states and is not queued twice.
SELECT * FROM outbox
WHERE (sqlc.narg(ids)::uuid[] IS NULL OR id = ANY(sqlc.narg(ids)::uuid[]))
  AND (sqlc.narg(statuses)::text[] IS NULL OR status = ANY(sqlc.narg(statuses)::text[]))
  AND (sqlc.narg(org_id)::uuid IS NULL OR org_id = sqlc.narg(org_id)::uuid)
ORDER BY created_at, id
FOR UPDATE;

-- name: RequeueOutboxMessages :many
-- Moves held or failed messages back to pending for one more send; the
-- caller queues each one's job in the same transaction.
UPDATE outbox SET status = 'pending', resends = resends + 1, updated_at = now()
WHERE id = ANY(@ids::uuid[]) AND status IN ('held', 'failed')
RETURNING *;
