-- name: CreateSchedule :one
-- ON CONFLICT DO NOTHING makes a concurrent duplicate return no row, so the
-- caller can fall back to reading the existing schedule.
INSERT INTO schedules (org_id, owner_member_id, url, domain, brand_name, brand_aliases, frequency, notify_email, next_run_at)
VALUES (@org_id, sqlc.narg(owner_member_id), @url, @domain, @brand_name, @brand_aliases, @frequency, @notify_email, @next_run_at)
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
SELECT * FROM schedules
WHERE org_id = @org_id
  AND (sqlc.narg(active)::boolean IS NULL OR active = sqlc.narg(active)::boolean)
  AND (sqlc.narg(cursor_created_at)::timestamptz IS NULL
       OR (created_at, id) < (sqlc.narg(cursor_created_at)::timestamptz, sqlc.narg(cursor_id)::uuid))
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: UpdateSchedule :one
UPDATE schedules SET
    frequency = @frequency,
    notify_email = @notify_email,
    active = @active,
    next_run_at = @next_run_at,
    deactivated_at = CASE WHEN @active::boolean THEN NULL ELSE coalesce(deactivated_at, now()) END,
    updated_at = now()
WHERE id = @id AND org_id = @org_id
RETURNING *;
