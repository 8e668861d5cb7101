-- name: GetSnapshot :one
SELECT * FROM scan_snapshots WHERE scan_id = @scan_id;

-- name: UpsertSnapshot :exec
INSERT INTO scan_snapshots (scan_id, format, body)
VALUES (@scan_id, @format, @body)
ON CONFLICT (scan_id) DO UPDATE SET format = EXCLUDED.format, body = EXCLUDED.body, created_at = now();
