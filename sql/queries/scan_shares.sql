-- name: CreateScanShare :one
INSERT INTO scan_shares (org_id, scan_id, token_hash, audience, language, label, expires_at)
VALUES (@org_id, @scan_id, @token_hash, @audience, @language, sqlc.narg(label), @expires_at)
RETURNING *;

-- name: ListScanShares :many
-- Keyset pagination over (created_at, id) descending, as ListSchedulesForOrg.
SELECT * FROM scan_shares
WHERE org_id = @org_id AND scan_id = @scan_id
  AND (created_at, id) < (coalesce(sqlc.narg(cursor_created_at)::timestamptz, 'infinity'),
                          coalesce(sqlc.narg(cursor_id)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: RevokeScanShare :one
UPDATE scan_shares SET revoked_at = coalesce(revoked_at, now())
WHERE id = @id AND scan_id = @scan_id AND org_id = @org_id
RETURNING *;

-- name: GetScanShareByHash :one
-- The public link's lookup: one indexed probe by the token's hash.
SELECT * FROM scan_shares WHERE token_hash = @token_hash;

-- name: SetScanShareExpiry :exec
UPDATE scan_shares SET expires_at = @expires_at WHERE id = @id;

-- name: CompletedScansOfURL :many
-- The trend of a shared report: the organization's completed scans of the
-- same URL up to and including the shared one, newest first.
SELECT id, overall_score, search_score, visibility_score, trust_score, completed_at
FROM scans
WHERE org_id = @org_id AND url = @url AND status = 'completed' AND completed_at IS NOT NULL
  AND completed_at <= @until
ORDER BY completed_at DESC, id DESC
LIMIT @row_limit;

-- name: DeleteExpiredScanShares :execrows
DELETE FROM scan_shares WHERE id IN (
    SELECT s.id FROM scan_shares s WHERE s.expires_at < @before::timestamptz LIMIT @row_limit
);
