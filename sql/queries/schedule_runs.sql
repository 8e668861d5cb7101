-- name: RecordScheduleRun :one
-- One row per period: a retry of a skipped period updates its row. A
-- period that already created its scan is never overwritten.
INSERT INTO schedule_runs AS r (schedule_id, org_id, due_at, outcome, skip_reason, scan_id, created_at, updated_at)
VALUES (@schedule_id, @org_id, @due_at, @outcome, sqlc.narg(skip_reason), sqlc.narg(scan_id), @ran_at, @ran_at)
ON CONFLICT (schedule_id, due_at) DO UPDATE SET
    outcome = excluded.outcome,
    skip_reason = excluded.skip_reason,
    scan_id = excluded.scan_id,
    attempts = r.attempts + 1,
    updated_at = excluded.updated_at
WHERE r.outcome = 'skipped'
RETURNING *;

-- name: ListScheduleRuns :many
-- Newest first, keyset over (created_at, id), each with its scan's state.
-- The cursor defaults to a position after every row, so that it is an
-- index condition in any plan, the generic one PostgreSQL may keep for
-- the prepared statement included (an "IS NULL OR" would be a filter).
SELECT r.id, r.schedule_id, r.due_at, r.outcome, r.skip_reason, r.scan_id, r.attempts, r.created_at, r.updated_at,
       r.email_status, r.email_detail, s.status AS scan_status, s.overall_score, s.overall_grade, s.error_code
FROM schedule_runs r
LEFT JOIN scans s ON s.id = r.scan_id
WHERE r.schedule_id = @schedule_id
  AND (r.created_at, r.id) < (coalesce(sqlc.narg(cursor_created_at)::timestamptz, 'infinity'),
                              coalesce(sqlc.narg(cursor_id)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
ORDER BY r.created_at DESC, r.id DESC
LIMIT @row_limit;

-- name: SetScheduleRunEmail :exec
UPDATE schedule_runs SET email_status = @email_status, email_detail = sqlc.narg(email_detail)
WHERE scan_id = @scan_id;
