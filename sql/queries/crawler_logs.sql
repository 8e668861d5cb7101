-- name: CreateCrawlerLog :one
INSERT INTO crawler_logs (org_id, domain, schedule_id, bytes, gzip)
VALUES (@org_id, @domain, sqlc.narg(schedule_id), 0, @gzip)
RETURNING *;

-- name: SetCrawlerLogBytes :exec
UPDATE crawler_logs SET bytes = @bytes WHERE id = @id;

-- name: GetCrawlerLog :one
SELECT * FROM crawler_logs WHERE id = @id AND org_id = @org_id;

-- name: GetCrawlerLogByID :one
-- The job's read: it acts for whichever organization filed the log.
SELECT * FROM crawler_logs WHERE id = @id;

-- name: ListCrawlerLogs :many
-- Keyset pagination over (created_at, id) descending; the optional domain
-- filter is exact (domains are stored in lower case).
SELECT * FROM crawler_logs
WHERE org_id = @org_id
  AND (sqlc.narg(domain)::text IS NULL OR domain = sqlc.narg(domain)::text)
  AND (created_at, id) < (coalesce(sqlc.narg(cursor_created_at)::timestamptz, 'infinity'),
                          coalesce(sqlc.narg(cursor_id)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: DeleteCrawlerLog :execrows
DELETE FROM crawler_logs WHERE id = @id AND org_id = @org_id;

-- name: StartCrawlerLog :one
-- Queued or running (a retry after a crash) becomes running; a finished
-- or deleted log returns no row and the job has nothing to do.
UPDATE crawler_logs SET status = 'running'
WHERE id = @id AND status IN ('queued', 'running')
RETURNING *;

-- name: FinishCrawlerLog :execrows
UPDATE crawler_logs
SET status = 'succeeded', result = @result, cross_check = @cross_check, completed_at = now()
WHERE id = @id AND status = 'running';

-- name: FailCrawlerLog :execrows
UPDATE crawler_logs
SET status = 'failed', error_code = @error_code, error_message = @error_message, completed_at = now()
WHERE id = @id AND status IN ('queued', 'running');

-- name: InsertCrawlerLogChunk :exec
INSERT INTO crawler_log_chunks (log_id, seq, data) VALUES (@log_id, @seq, @data);

-- name: GetCrawlerLogChunk :one
SELECT data FROM crawler_log_chunks WHERE log_id = @log_id AND seq = @seq;

-- name: DeleteCrawlerLogChunks :exec
DELETE FROM crawler_log_chunks WHERE log_id = @log_id;

-- name: LatestCrawlerLogOfSite :one
-- The latest analysed log of a site, for a scan's report; the host is
-- given with and without its www. (see store.siteHosts).
SELECT * FROM crawler_logs
WHERE org_id = @org_id AND domain = ANY(@domains::text[]) AND status = 'succeeded'
ORDER BY completed_at DESC, id DESC
LIMIT 1;

-- name: LatestCompletedScanOfDomain :one
-- The audit a log is cross-checked with: the organization's latest
-- completed scan of the host.
SELECT id, url, max_pages FROM scans
WHERE org_id = @org_id AND domain = ANY(@domains::text[]) AND status = 'completed'
ORDER BY completed_at DESC, id DESC
LIMIT 1;

-- name: ScanPageURLs :many
-- A scan's audited page addresses, for the log's "never crawled" check.
SELECT url FROM scan_pages WHERE scan_id = @scan_id ORDER BY position LIMIT @row_limit;
