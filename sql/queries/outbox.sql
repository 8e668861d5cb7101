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
