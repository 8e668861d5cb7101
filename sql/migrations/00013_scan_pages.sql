-- +goose Up

-- A whole-site audit's page budget and its progress. max_pages is 1 for a
-- homepage-only audit; pages_planned stays NULL until the crawl knows how
-- many pages it will judge, which is how the API tells a homepage-only
-- scan (no progress to show) from a crawl that has not started yet.
ALTER TABLE scans
    ADD COLUMN max_pages     integer NOT NULL DEFAULT 1 CHECK (max_pages >= 1),
    ADD COLUMN pages_done    integer NOT NULL DEFAULT 0 CHECK (pages_done >= 0),
    ADD COLUMN pages_planned integer CHECK (pages_planned >= 0);

-- One row per page a whole-site audit judged, written as each is judged.
-- (scan_id, position) and (scan_id, url) are unique so that a job that
-- restarts and hands the same pages again stores each once.
CREATE TABLE scan_pages (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    scan_id     uuid NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
    position    integer NOT NULL CHECK (position >= 0),
    url         text NOT NULL,
    "group"     text NOT NULL,
    type        text NOT NULL,
    -- What became of the page: audited (judged), redirect, not_html (an
    -- answer the checks cannot read) or error (no answer, or an HTTP error).
    status      text NOT NULL CHECK (status IN ('audited', 'redirect', 'not_html', 'error')),
    http_status integer NOT NULL,
    score       double precision CHECK (score BETWEEN 0 AND 100),
    checks      jsonb NOT NULL DEFAULT '[]',
    error       text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (scan_id, position),
    UNIQUE (scan_id, url)
);
-- The list's sorts and filters; the default order (position) is the
-- unique index above.
CREATE INDEX scan_pages_score_idx ON scan_pages (scan_id, score, position);
CREATE INDEX scan_pages_status_idx ON scan_pages (scan_id, status, position);
CREATE INDEX scan_pages_group_idx ON scan_pages (scan_id, "group", position);
-- The check filter: pages whose checks hold {"id": …, "status": …}.
CREATE INDEX scan_pages_checks_idx ON scan_pages USING gin (checks jsonb_path_ops);

-- +goose Down
DROP TABLE scan_pages;
ALTER TABLE scans DROP COLUMN max_pages, DROP COLUMN pages_done, DROP COLUMN pages_planned;
