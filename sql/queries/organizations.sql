-- name: CreateOrganization :one
INSERT INTO organizations (name, plan, subscription_status)
VALUES (@name, @plan, @subscription_status)
RETURNING *;

-- name: GetOrganization :one
SELECT * FROM organizations WHERE id = @id;

-- name: GetOrganizationByName :one
SELECT * FROM organizations WHERE name = @name ORDER BY created_at LIMIT 1;

-- name: SetSubscriptionStatus :one
UPDATE organizations SET subscription_status = @subscription_status, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetOrganizationPlan :one
UPDATE organizations SET plan = @plan, updated_at = now()
WHERE id = @id
RETURNING *;

-- name: SetOrganizationOverrides :one
UPDATE organizations SET
    daily_scan_quota_override = sqlc.narg(daily_scan_quota_override),
    schedule_limit_override = sqlc.narg(schedule_limit_override),
    rate_limit_write_override = sqlc.narg(rate_limit_write_override),
    rate_limit_read_override = sqlc.narg(rate_limit_read_override),
    crawl_rate_override = sqlc.narg(crawl_rate_override),
    crawl_concurrency_override = sqlc.narg(crawl_concurrency_override),
    updated_at = now()
WHERE id = @id
RETURNING *;

-- name: LockOrganization :one
-- Serialises limit checks (active schedules) of one organization.
SELECT id FROM organizations WHERE id = @id FOR UPDATE;
