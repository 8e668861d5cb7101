-- name: CreateSchedule :one
-- ON CONFLICT DO NOTHING makes a concurrent duplicate return no row, so the
-- caller can fall back to reading the existing schedule.
INSERT INTO schedules (org_id, owner_member_id, url, domain, brand_name, brand_aliases, frequency, notify_email, notify_to, anchor_at, due_at, next_run_at, language, competitors)
VALUES (@org_id, sqlc.narg(owner_member_id), @url, @domain, @brand_name, @brand_aliases, @frequency, @notify_email, sqlc.narg(notify_to), @anchor_at, @due_at, @next_run_at, sqlc.narg(language), @competitors)
ON CONFLICT (org_id, url) DO NOTHING
RETURNING *;

-- name: GetScheduleByURL :one
SELECT * FROM schedules WHERE org_id = @org_id AND url = @url;

-- name: GetScheduleForOrg :one
SELECT * FROM schedules WHERE id = @id AND org_id = @org_id;

-- name: GetScheduleForOrgForUpdate :one
SELECT * FROM schedules WHERE id = @id AND org_id = @org_id FOR UPDATE;

-- name: CountActiveSchedules :one
SELECT count(*)::integer FROM schedules WHERE org_id = @org_id AND active;

-- name: ListSchedulesForOrg :many
-- Keyset pagination over (created_at, id) descending; the cursor defaults
-- to a position after every row, so that it is an index condition in any
-- plan (see ListScheduleRuns).
SELECT * FROM schedules
WHERE org_id = @org_id
  AND (sqlc.narg(active)::boolean IS NULL OR active = sqlc.narg(active)::boolean)
  AND (created_at, id) < (coalesce(sqlc.narg(cursor_created_at)::timestamptz, 'infinity'),
                          coalesce(sqlc.narg(cursor_id)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: UpdateSchedule :one
UPDATE schedules SET
    frequency = @frequency,
    notify_email = @notify_email,
    notify_to = sqlc.narg(notify_to),
    language = sqlc.narg(language),
    competitors = @competitors,
    active = @active,
    anchor_at = @anchor_at,
    due_at = @due_at,
    next_run_at = @next_run_at,
    deactivated_at = CASE WHEN @active::boolean THEN NULL ELSE coalesce(deactivated_at, now()) END,
    updated_at = now()
WHERE id = @id AND org_id = @org_id
RETURNING *;

-- name: ClaimDueSchedule :one
-- The scheduler's claim: one active schedule due at @now, locked for the
-- claiming transaction; rows another transaction holds are skipped, so
-- concurrent ticks never serve the same run. @exclude lists schedules
-- this tick already failed on; @org_id, when set, limits the tick to one
-- organization.
SELECT * FROM schedules
WHERE active AND next_run_at <= @now AND NOT (id = ANY(@exclude::uuid[]))
  AND (sqlc.narg(org_id)::uuid IS NULL OR org_id = sqlc.narg(org_id)::uuid)
ORDER BY next_run_at, id
LIMIT 1
FOR UPDATE SKIP LOCKED;

-- name: MarkScheduleRun :exec
-- A run created its scan: the next period is due.
UPDATE schedules SET
    due_at = @next_due_at,
    next_run_at = @next_due_at,
    last_run_at = @ran_at::timestamptz,
    last_scan_id = @scan_id::uuid,
    updated_at = now()
WHERE id = @id;

-- name: MarkScheduleSkipped :exec
-- A run was skipped: it is retried at @retry_at, for the same period.
UPDATE schedules SET
    next_run_at = @retry_at,
    last_skip_reason = @reason::text,
    last_skipped_at = @skipped_at::timestamptz,
    updated_at = now()
WHERE id = @id;
