-- name: CreateScan :one
INSERT INTO scans (org_id, api_key_id, schedule_id, source, url, domain, brand_name, brand_aliases,
                   callback_url, webhook_secret, project, tracked_url, max_pages, language, competitors)
VALUES (@org_id, sqlc.narg(api_key_id), sqlc.narg(schedule_id), @source, @url, @domain, @brand_name, @brand_aliases,
        sqlc.narg(callback_url), sqlc.narg(webhook_secret), sqlc.narg(project), sqlc.narg(tracked_url), @max_pages,
        sqlc.narg(language), @competitors)
RETURNING *;

-- name: SetScanJob :exec
UPDATE scans SET job_id = @job_id WHERE id = @id;

-- name: GetScanForOrg :one
SELECT * FROM scans WHERE id = @id AND org_id = @org_id;

-- name: GetScanViewForOrg :one
-- A scan of the organization as the API shows it (ListScansForOrg's columns).
SELECT id, schedule_id, source, url, domain, brand_name, brand_aliases, callback_url, project, tracked_url,
       status, error_code, error_message, overall_score, overall_grade, search_score, search_grade,
       visibility_score, visibility_grade, trust_score, trust_grade, scoring_version,
       created_at, updated_at, started_at, completed_at, max_pages, pages_done, pages_planned, language, competitors
FROM scans WHERE id = @id AND org_id = @org_id;

-- name: LockScanForOrg :one
SELECT * FROM scans WHERE id = @id AND org_id = @org_id FOR UPDATE;

-- name: ListScansForOrg :many
-- One page of the organization's scans, newest first, after the cursor when
-- there is one; the columns of a scan the API shows. A statement prepared
-- once per connection is planned once (a generic plan) when that plan costs
-- no more than planning each call would, and the page size is not known
-- then; the inner LIMIT, at least the largest page plus one (store's
-- maxListRows), tells the planner that this is a top-N read, so the plan it
-- keeps walks scans_org_list_idx from the cursor and stops after the page,
-- whatever the organization's size. The cursor defaults to a position
-- after every row so that it is always an index condition.
SELECT page.* FROM (
    SELECT id, schedule_id, source, url, domain, brand_name, brand_aliases, callback_url, project, tracked_url,
           status, error_code, error_message, overall_score, overall_grade, search_score, search_grade,
           visibility_score, visibility_grade, trust_score, trust_grade, scoring_version,
           created_at, updated_at, started_at, completed_at, max_pages, pages_done, pages_planned, language, competitors
    FROM scans
    WHERE org_id = @org_id
      AND (created_at, id) < (coalesce(sqlc.narg(cursor_created_at)::timestamptz, 'infinity'),
                              coalesce(sqlc.narg(cursor_id)::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'))
    ORDER BY created_at DESC, id DESC
    LIMIT 101
) page
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: ListScansForOrgFiltered :many
-- Keyset pagination over (created_at, id) descending with the list's
-- filters, each optional: planned for each call's values, so a filter with
-- an index of its own (status, project, url, domain) uses it.
SELECT id, schedule_id, source, url, domain, brand_name, brand_aliases, callback_url, project, tracked_url,
       status, error_code, error_message, overall_score, overall_grade, search_score, search_grade,
       visibility_score, visibility_grade, trust_score, trust_grade, scoring_version,
       created_at, updated_at, started_at, completed_at, max_pages, pages_done, pages_planned, language, competitors
FROM scans
WHERE org_id = @org_id
  AND (sqlc.narg(status)::text IS NULL OR status = sqlc.narg(status)::text)
  AND (sqlc.narg(project)::text IS NULL OR project = sqlc.narg(project)::text)
  AND (sqlc.narg(url)::text IS NULL OR url = sqlc.narg(url)::text)
  AND (sqlc.narg(domain)::text IS NULL OR domain = sqlc.narg(domain)::text
       OR right(domain, length(sqlc.narg(domain)::text) + 1) = '.' || sqlc.narg(domain)::text)
  AND (sqlc.narg(created_after)::timestamptz IS NULL OR created_at >= sqlc.narg(created_after)::timestamptz)
  AND (sqlc.narg(created_before)::timestamptz IS NULL OR created_at < sqlc.narg(created_before)::timestamptz)
  AND (sqlc.narg(cursor_created_at)::timestamptz IS NULL
       OR (created_at, id) < (sqlc.narg(cursor_created_at)::timestamptz, sqlc.narg(cursor_id)::uuid))
ORDER BY created_at DESC, id DESC
LIMIT @row_limit;

-- name: UpdateScanMetadata :one
UPDATE scans SET
    project = CASE WHEN @set_project::boolean THEN sqlc.narg(project)::text ELSE project END,
    tracked_url = CASE WHEN @set_tracked_url::boolean THEN sqlc.narg(tracked_url)::text ELSE tracked_url END,
    updated_at = now()
WHERE id = @id AND org_id = @org_id
RETURNING *;

-- name: DeleteScanForOrg :one
DELETE FROM scans WHERE id = @id AND org_id = @org_id
RETURNING id, job_id;

-- name: GetScan :one
-- Unscoped: only the scan runner reads scans by id alone.
SELECT * FROM scans WHERE id = @id;

-- name: StartScan :one
-- A rescued job finds its scan still running and starts it again.
UPDATE scans SET status = 'running', started_at = COALESCE(started_at, now()),
    attempts = attempts + 1, updated_at = now()
WHERE id = @id AND status IN ('pending', 'running')
RETURNING *;

-- name: CompleteScan :one
UPDATE scans SET status = 'completed', completed_at = now(), updated_at = now(),
    overall_score = @overall_score, overall_grade = @overall_grade,
    search_score = @search_score, search_grade = @search_grade,
    visibility_score = @visibility_score, visibility_grade = @visibility_grade,
    trust_score = @trust_score, trust_grade = @trust_grade,
    scoring_version = @scoring_version, error_code = NULL, error_message = NULL,
    language = coalesce(sqlc.narg(language), language)
WHERE id = @id AND status = 'running'
RETURNING *;

-- name: FailScan :one
UPDATE scans SET status = 'failed', completed_at = now(), updated_at = now(),
    error_code = @error_code, error_message = @error_message
WHERE id = @id AND status IN ('pending', 'running')
RETURNING *;

-- name: CompletedScansWithoutTriage :many
SELECT s.id FROM scans s
WHERE s.status = 'completed' AND NOT EXISTS (SELECT 1 FROM triage_dossiers t WHERE t.scan_id = s.id)
ORDER BY s.completed_at
LIMIT @max_rows;

-- name: SetExportFilter :exec
-- COPY takes no bind parameters, so the filters of an export reach the
-- two COPY statements below as transaction-local settings, set here with
-- bound parameters: no value is ever spliced into SQL text. A filter that
-- is on is 'v' followed by its value, one that is off is ''.
SELECT set_config('geoscan.export_org', sqlc.arg(org_id)::uuid::text, true),
       set_config('geoscan.export_status', coalesce('v' || sqlc.narg(status)::text, ''), true),
       set_config('geoscan.export_project', coalesce('v' || sqlc.narg(project)::text, ''), true),
       set_config('geoscan.export_url', coalesce('v' || sqlc.narg(url)::text, ''), true),
       set_config('geoscan.export_domain', coalesce('v' || sqlc.narg(domain)::text, ''), true),
       set_config('geoscan.export_after', coalesce('v' || sqlc.narg(created_after)::timestamptz::text, ''), true),
       set_config('geoscan.export_before', coalesce('v' || sqlc.narg(created_before)::timestamptz::text, ''), true),
       set_config('geoscan.export_limit', coalesce(sqlc.narg(row_limit)::bigint::text, ''), true);

-- name: ExportScansCSV :exec
-- The scans of GET /scans/export as CSV, newest first, for the filters of
-- SetExportFilter (the same filters as ListScansForOrg). Run with COPY's
-- protocol by the store, which streams it to the client as it comes. Every
-- text column goes through geoscan_csv_cell, whoever wrote it; the scores
-- are numbers the CHECK constraints keep from 0 up, never a formula.
COPY (
    SELECT s.id AS scan_id, geoscan_csv_cell(s.url) AS url, geoscan_csv_cell(s.domain) AS domain,
           geoscan_csv_cell(s.brand_name) AS brand_name, geoscan_csv_cell(s.project) AS project,
           geoscan_csv_cell(s.status) AS status, s.overall_score, geoscan_csv_cell(s.overall_grade) AS overall_grade,
           s.search_score, geoscan_csv_cell(s.search_grade) AS search_grade,
           s.visibility_score, geoscan_csv_cell(s.visibility_grade) AS visibility_grade,
           s.trust_score, geoscan_csv_cell(s.trust_grade) AS trust_grade,
           geoscan_csv_cell(s.scoring_version) AS scoring_version,
           to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
           to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS completed_at,
           geoscan_csv_cell(s.error_message) AS error_message, geoscan_csv_cell(s.error_code) AS error_code
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
) TO STDOUT WITH (FORMAT csv, HEADER true);

-- name: GetPreviousScheduledScan :one
-- The completed scan of a schedule made before the given one.
SELECT * FROM scans
WHERE schedule_id = @schedule_id AND status = 'completed'
  AND (created_at, id) < (@created_at::timestamptz, @id::uuid)
ORDER BY created_at DESC, id DESC
LIMIT 1;

-- name: LockScanOrg :one
-- The organization of a scan about to start, with a transaction-scoped
-- advisory lock on it, so that the starts of one organization's scans, in
-- any process, count its running scans one after the other. No row when
-- the scan is gone or finished.
SELECT s.org_id FROM scans s
CROSS JOIN LATERAL pg_advisory_xact_lock(hashtextextended('scan_share:' || s.org_id::text, 0)) l
WHERE s.id = @id AND s.status IN ('pending', 'running');

-- name: ScanShare :one
-- The organization of a scan about to start, its running scans besides
-- that one, and whether another organization has scans waiting while it
-- runs fewer than @share. A running scan counts for @live_seconds after
-- its row last changed (a start sets updated_at): no job runs longer, so
-- a row left running by a dead worker stops counting then, even before
-- River rescues its job. The organizations waiting are walked one index
-- probe at a time (scans_pending_org_idx), however many scans each has
-- queued, and each one's running scans are counted only up to @share. No
-- row when the scan is gone or finished.
WITH RECURSIVE target AS (
    SELECT t.org_id FROM scans t WHERE t.id = @scan_id::uuid AND t.status IN ('pending', 'running')
), waiting (org_id) AS (
    (SELECT w.org_id FROM scans w WHERE w.status = 'pending' ORDER BY w.org_id LIMIT 1)
    UNION ALL
    SELECT (SELECT n.org_id FROM scans n WHERE n.status = 'pending' AND n.org_id > p.org_id ORDER BY n.org_id LIMIT 1)
    FROM waiting p WHERE p.org_id IS NOT NULL
)
SELECT target.org_id,
       (SELECT count(*) FROM scans r
        WHERE r.org_id = target.org_id AND r.status = 'running' AND r.id <> @scan_id::uuid
          AND r.updated_at > now() - make_interval(secs => @live_seconds::float8))::integer AS running,
       EXISTS (
           SELECT 1 FROM waiting o
           WHERE o.org_id <> target.org_id
             AND (SELECT count(*) FROM (
                      SELECT 1 FROM scans r
                      WHERE r.org_id = o.org_id AND r.status = 'running'
                        AND r.updated_at > now() - make_interval(secs => @live_seconds::float8)
                      LIMIT @share::integer) x) < @share::integer) AS others_waiting
FROM target;

-- name: ClaimScan :one
-- StartScan for a start decided under LockScanOrg's lock: the clock is
-- read as the row changes rather than when the transaction began, so a
-- start that waited for the lock is stamped after the starts it waited
-- for, and its share counts it from then.
UPDATE scans SET status = 'running', started_at = COALESCE(started_at, clock_timestamp()),
    attempts = attempts + 1, updated_at = clock_timestamp()
WHERE id = @id AND status IN ('pending', 'running')
RETURNING *;
