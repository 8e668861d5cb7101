-- name: UpsertTriage :exec
INSERT INTO triage_dossiers (scan_id, schema_version, body)
VALUES (@scan_id, @schema_version, @body)
ON CONFLICT (scan_id) DO UPDATE SET schema_version = EXCLUDED.schema_version, body = EXCLUDED.body, created_at = now();

-- name: UpsertSnapshot :exec
INSERT INTO scan_snapshots (scan_id, format, body)
VALUES (@scan_id, @format, @body)
ON CONFLICT (scan_id) DO UPDATE SET format = EXCLUDED.format, body = EXCLUDED.body, created_at = now();

-- name: GetSnapshot :one
SELECT * FROM scan_snapshots WHERE scan_id = @scan_id;

-- name: CompletedScansWithoutTriage :many
SELECT s.id FROM scans s
WHERE s.status = 'completed' AND NOT EXISTS (SELECT 1 FROM triage_dossiers t WHERE t.scan_id = s.id)
ORDER BY s.completed_at
LIMIT @max_rows;
