-- name: InsertScanPage :exec
-- A page a whole-site audit judged. A restarted job first drops what the
-- attempt before it stored (ResetScanPages), so a conflict here is a page
-- the same crawl hands twice: the first one stored is kept.
INSERT INTO scan_pages (scan_id, position, url, "group", type, status, http_status, score, checks, error)
VALUES (@scan_id, @position, @url, @page_group, @type, @status, @http_status, sqlc.narg(score), @checks, @error)
ON CONFLICT DO NOTHING;

-- name: ResetScanPages :exec
-- A whole-site audit starts from no pages: a job that restarts after its
-- worker died mid-crawl crawls again from the start, so the pages and the
-- progress an earlier attempt left are dropped first, and the pages
-- stored, like the roll-up of the report, are those of one crawl.
WITH gone AS (DELETE FROM scan_pages WHERE scan_id = @scan_id)
UPDATE scans SET pages_done = 0, pages_planned = NULL, updated_at = now()
WHERE scans.id = @scan_id AND scans.status = 'running';

-- name: PreviousSiteScan :one
-- The previous whole-site audit of a scan's site: the organization's
-- latest completed scan of the same URL with a page budget above 1 that
-- was created before it and kept its pages.
SELECT s.id, s.completed_at FROM scans s
WHERE s.org_id = @org_id AND s.url = @url AND s.status = 'completed' AND s.max_pages > 1
  AND (s.created_at, s.id) < (@created_at::timestamptz, @id::uuid)
  AND EXISTS (SELECT 1 FROM scan_pages p WHERE p.scan_id = s.id)
ORDER BY s.created_at DESC, s.id DESC
LIMIT 1;

-- name: SitePageTotals :one
-- A whole-site audit's roll-up, read back from its pages: the pages
-- judged, those scored, and their mean score (the site score; 0 when
-- none was scored).
SELECT count(*) FILTER (WHERE status = 'audited')::integer AS pages_audited,
       count(score)::integer AS pages_scored,
       coalesce(avg(score), 0)::double precision AS mean_score
FROM scan_pages WHERE scan_id = @scan_id;

-- name: SiteCheckCounts :many
-- Per page-level check, the judged pages of a whole-site audit it failed
-- or warned on.
SELECT (c ->> 'id')::text AS check_id, count(*)::integer AS pages_affected
FROM scan_pages p CROSS JOIN LATERAL jsonb_array_elements(p.checks) c
WHERE p.scan_id = @scan_id AND p.status = 'audited' AND c ->> 'status' IN ('fail', 'warn')
GROUP BY 1
ORDER BY 1;

-- name: SetScanProgress :exec
-- A whole-site audit's progress; only a running scan moves.
UPDATE scans SET pages_done = @pages_done, pages_planned = @pages_planned, updated_at = now()
WHERE id = @id AND status = 'running';

-- name: ListScanPages :many
-- One page of a scan's pages in the order sort names (position, url,
-- score: unjudged pages last, -score: unjudged pages last), position
-- breaking ties, after the page at after_position when there is one (the
-- cursor names a page; its sort key is read here). Filters are optional.
SELECT p.id, p.scan_id, p.position, p.url, p."group", p.type, p.status, p.http_status, p.score, p.checks, p.error, p.created_at
FROM scan_pages p
JOIN scans s ON s.id = p.scan_id AND s.org_id = @org_id
LEFT JOIN scan_pages a ON a.scan_id = p.scan_id AND a.position = sqlc.narg(after_position)::integer
WHERE p.scan_id = @scan_id
  AND (sqlc.narg(status)::text IS NULL OR p.status = sqlc.narg(status)::text)
  AND (sqlc.narg(page_group)::text IS NULL OR p."group" = sqlc.narg(page_group)::text)
  AND (sqlc.narg(score_lt)::double precision IS NULL OR p.score < sqlc.narg(score_lt)::double precision)
  AND (sqlc.narg(score_gte)::double precision IS NULL OR p.score >= sqlc.narg(score_gte)::double precision)
  AND (sqlc.narg(check_id)::text IS NULL
       OR p.checks @> jsonb_build_array(jsonb_build_object('id', sqlc.narg(check_id)::text, 'status', 'fail'))
       OR p.checks @> jsonb_build_array(jsonb_build_object('id', sqlc.narg(check_id)::text, 'status', 'warn')))
  AND (sqlc.narg(after_position)::integer IS NULL OR (a.id IS NOT NULL AND CASE @sort::text
        WHEN 'url' THEN p.url > a.url
        WHEN 'score' THEN (coalesce(p.score, 1000), p.position) > (coalesce(a.score, 1000), a.position)
        WHEN '-score' THEN (-coalesce(p.score, -1), p.position) > (-coalesce(a.score, -1), a.position)
        ELSE p.position > a.position END))
ORDER BY CASE @sort::text WHEN 'score' THEN coalesce(p.score, 1000) WHEN '-score' THEN -coalesce(p.score, -1) END,
         CASE WHEN @sort::text = 'url' THEN p.url END,
         p.position
LIMIT @row_limit;

-- name: GetScanPage :one
SELECT p.id, p.scan_id, p.position, p.url, p."group", p.type, p.status, p.http_status, p.score, p.checks, p.error, p.created_at
FROM scan_pages p
JOIN scans s ON s.id = p.scan_id AND s.org_id = @org_id
WHERE p.scan_id = @scan_id AND p.id = @id;

-- name: CountScanPages :one
SELECT count(*) FROM scan_pages WHERE scan_id = @scan_id;

-- name: ComparePages :many
-- The pages two scans both judged, matched by URL, the largest score
-- change first (pages judged in only one of them last).
SELECT b.url, b."group", b.score AS base_score, t.score AS target_score
FROM scan_pages b
JOIN scan_pages t ON t.scan_id = @target_id AND t.url = b.url
WHERE b.scan_id = @base_id
ORDER BY abs(t.score - b.score) DESC NULLS LAST, b.url
LIMIT @row_limit;

-- name: CountComparedPages :one
-- How many pages two scans share by URL, and how many each has.
SELECT
  (SELECT count(*) FROM scan_pages b JOIN scan_pages t ON t.scan_id = @target_id AND t.url = b.url
   WHERE b.scan_id = @base_id)::integer AS in_both,
  (SELECT count(*) FROM scan_pages WHERE scan_id = @base_id)::integer AS base_pages,
  (SELECT count(*) FROM scan_pages WHERE scan_id = @target_id)::integer AS target_pages;

-- name: ExportPagesCSV :exec
-- include=pages of GET /scans/export: one row per page of the whole-site
-- audits among the scans ExportScansCSV (scans.sql) would export, for the
-- filters of SetExportFilter, in the same order, each scan's pages in
-- crawl order. Text columns go through geoscan_csv_cell; position,
-- http_status and score (0 to 100, empty when the page was not judged)
-- are numbers.
COPY (
    SELECT p.scan_id, p.position, geoscan_csv_cell(p.url) AS url, geoscan_csv_cell(p."group") AS "group",
           geoscan_csv_cell(p.type) AS type, geoscan_csv_cell(p.status) AS status, p.http_status, p.score
    FROM (
        SELECT s.id, s.created_at
        FROM scans s
        WHERE s.org_id = (SELECT current_setting('geoscan.export_org'))::uuid
          AND ((SELECT current_setting('geoscan.export_status')) = '' OR s.status = substr((SELECT current_setting('geoscan.export_status')), 2))
          AND ((SELECT current_setting('geoscan.export_project')) = '' OR s.project = substr((SELECT current_setting('geoscan.export_project')), 2))
          AND ((SELECT current_setting('geoscan.export_url')) = '' OR s.url = substr((SELECT current_setting('geoscan.export_url')), 2))
          AND ((SELECT current_setting('geoscan.export_domain')) = '' OR s.domain = substr((SELECT current_setting('geoscan.export_domain')), 2)
               OR right(s.domain, length((SELECT current_setting('geoscan.export_domain')))) = '.' || substr((SELECT current_setting('geoscan.export_domain')), 2))
          AND ((SELECT current_setting('geoscan.export_after')) = '' OR s.created_at >= nullif(substr((SELECT current_setting('geoscan.export_after')), 2), '')::timestamptz)
          AND ((SELECT current_setting('geoscan.export_before')) = '' OR s.created_at < nullif(substr((SELECT current_setting('geoscan.export_before')), 2), '')::timestamptz)
        ORDER BY s.created_at DESC, s.id DESC
        LIMIT nullif((SELECT current_setting('geoscan.export_limit')), '')::bigint
    ) s
    JOIN scan_pages p ON p.scan_id = s.id
    ORDER BY s.created_at DESC, s.id DESC, p.position
) TO STDOUT WITH (FORMAT csv, HEADER true);
