-- name: InsertWebhookAttempt :exec
INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
VALUES (@delivery_id, @attempt, @started_at, @duration_ms, sqlc.narg(status_code), sqlc.narg(error));

-- name: ListWebhookAttempts :many
SELECT * FROM webhook_delivery_attempts
WHERE delivery_id = ANY(@delivery_ids::uuid[])
ORDER BY delivery_id, attempt;
