-- name: CreateAPIKey :one
INSERT INTO api_keys (org_id, member_id, name, key_hash, display_prefix)
VALUES (@org_id, sqlc.narg(member_id), @name, @key_hash, @display_prefix)
RETURNING *;

-- name: GetAPIKeyPrincipal :one
-- The authentication lookup: one indexed probe by hash, joined with the
-- organization so a request needs no second query.
SELECT k.id AS key_id, k.org_id, k.member_id, k.revoked_at, k.last_used_at,
       o.plan, o.subscription_status
FROM api_keys k
JOIN organizations o ON o.id = k.org_id
WHERE k.key_hash = @key_hash;

-- name: TouchAPIKey :exec
-- Throttled by the caller; the WHERE keeps concurrent touches cheap.
UPDATE api_keys SET last_used_at = now()
WHERE id = @id AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute');

-- name: ListAPIKeys :many
SELECT * FROM api_keys WHERE org_id = @org_id ORDER BY created_at DESC, id DESC;

-- name: RevokeAPIKey :one
UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
WHERE id = @id
RETURNING *;

-- name: GetAPIKey :one
SELECT * FROM api_keys WHERE id = @id;

-- name: ListenAuth :exec
-- Subscribes the connection to the announcements of migration 00004
-- (revoked or deleted keys, changed organizations).
LISTEN geoscan_auth;
