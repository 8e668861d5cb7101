-- name: GetReport :one
SELECT * FROM reports WHERE scan_id = @scan_id;

-- name: UpsertReport :exec
INSERT INTO reports (scan_id, scoring_version, body) VALUES (@scan_id, @scoring_version, @body)
ON CONFLICT (scan_id) DO UPDATE SET scoring_version = EXCLUDED.scoring_version, body = EXCLUDED.body, created_at = now();
