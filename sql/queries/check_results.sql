-- name: ListCheckResults :many
SELECT * FROM check_results WHERE scan_id = @scan_id ORDER BY position;

-- name: GetCheckResult :one
SELECT * FROM check_results WHERE scan_id = @scan_id AND check_id = @check_id;

-- name: DeleteCheckResults :exec
DELETE FROM check_results WHERE scan_id = @scan_id;

-- name: InsertCheckResults :copyfrom
INSERT INTO check_results (scan_id, check_id, ring, pillar, status, score, weight, impact, effort, summary, evidence, position)
VALUES (@scan_id, @check_id, @ring, @pillar, @status, @score, @weight, @impact, @effort, @summary, @evidence, @position);
