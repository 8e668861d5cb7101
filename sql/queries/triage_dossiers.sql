-- name: GetTriage :one
SELECT * FROM triage_dossiers WHERE scan_id = @scan_id;

-- name: UpsertTriage :exec
INSERT INTO triage_dossiers (scan_id, schema_version, body)
VALUES (@scan_id, @schema_version, @body)
ON CONFLICT (scan_id) DO UPDATE SET schema_version = EXCLUDED.schema_version, body = EXCLUDED.body, created_at = now();
