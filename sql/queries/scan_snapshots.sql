-- name: GetSnapshot :one
SELECT * FROM scan_snapshots WHERE scan_id = @scan_id;

-- name: UpsertSnapshot :exec
INSERT INTO scan_snapshots (scan_id, format, body)
VALUES (@scan_id, @format, @body)
ON CONFLICT (scan_id) DO UPDATE SET format = EXCLUDED.format, body = EXCLUDED.body, created_at = now();

-- name: DeleteSnapshotsBefore :execrows
-- Up to @batch snapshots taken before @before, oldest first; the scans,
-- their reports and dossiers stay.
DELETE FROM scan_snapshots
WHERE scan_id IN (
    SELECT old.scan_id FROM scan_snapshots old
    WHERE old.created_at < @before::timestamptz ORDER BY old.created_at LIMIT @batch::integer
);
