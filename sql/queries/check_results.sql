-- name: ListCheckResults :many
SELECT * FROM check_results WHERE scan_id = @scan_id ORDER BY position;

-- name: GetCheckResult :one
SELECT * FROM check_results WHERE scan_id = @scan_id AND check_id = @check_id;

-- name: DeleteCheckResults :exec
DELETE FROM check_results WHERE scan_id = @scan_id;

-- name: InsertCheckResults :copyfrom
INSERT INTO check_results (scan_id, check_id, ring, pillar, status, score, weight, impact, effort, summary, evidence, position)
VALUES (@scan_id, @check_id, @ring, @pillar, @status, @score, @weight, @impact, @effort, @summary, @evidence, @position);

-- name: ExportChecksCSV :exec
-- include=checks of GET /scans/export: one row per check of the scans that
-- ExportScansCSV (scans.sql) would export, for the filters of
-- SetExportFilter, in the same order,
-- each scan's checks in report order. Text columns go through
-- geoscan_csv_cell like the scans'; score (0 to 1) and weight (from 0) are
-- numbers.
COPY (
    SELECT c.scan_id, geoscan_csv_cell(c.check_id) AS check_id, geoscan_csv_cell(c.ring) AS ring,
           geoscan_csv_cell(c.pillar) AS pillar, geoscan_csv_cell(c.status) AS status, c.score, c.weight
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
    JOIN check_results c ON c.scan_id = s.id
    ORDER BY s.created_at DESC, s.id DESC, c.position
) TO STDOUT WITH (FORMAT csv, HEADER true);
