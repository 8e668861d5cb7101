-- name: CreateMember :one
INSERT INTO members (org_id, email, name, role)
VALUES (@org_id, @email, @name, @role)
RETURNING *;

-- name: GetMemberByEmail :one
SELECT * FROM members WHERE org_id = @org_id AND lower(email) = lower(@email);

-- name: GetMember :one
SELECT * FROM members WHERE id = @id;

-- name: ListMembers :many
SELECT * FROM members WHERE org_id = @org_id ORDER BY created_at, id;

-- name: GetOwnerMember :one
-- The organization's first owner, who gets what no one else was named for.
SELECT * FROM members WHERE org_id = @org_id AND role = 'owner' ORDER BY created_at, id LIMIT 1;
