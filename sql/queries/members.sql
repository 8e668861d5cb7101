-- name: CreateMember :one
INSERT INTO members (org_id, email, name, role)
VALUES (@org_id, @email, @name, @role)
RETURNING *;
