-- +goose Up

-- A schedule's runs are counted in calendar months from its anchor: its
-- creation, or its last reactivation. due_at is the occurrence the next run
-- serves; next_run_at is when it is tried, later than due_at while a run
-- that was skipped waits for its retry.
ALTER TABLE schedules
    ADD COLUMN anchor_at timestamptz,
    ADD COLUMN due_at timestamptz,
    ADD COLUMN last_skip_reason text CHECK (last_skip_reason IN ('subscription_inactive', 'quota_exhausted')),
    ADD COLUMN last_skipped_at timestamptz;
UPDATE schedules SET anchor_at = created_at, due_at = next_run_at;
ALTER TABLE schedules
    ALTER COLUMN anchor_at SET NOT NULL,
    ALTER COLUMN due_at SET NOT NULL;

-- One row per period a schedule served: the scan it created, or why it was
-- skipped. A skipped period is retried on the same row (attempts counts the
-- tries), so a long-inactive subscription does not fill the list.
CREATE TABLE schedule_runs (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    schedule_id  uuid NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    org_id       uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    due_at       timestamptz NOT NULL,
    outcome      text NOT NULL CHECK (outcome IN ('scanned', 'skipped')),
    skip_reason  text CHECK (skip_reason IN ('subscription_inactive', 'quota_exhausted')),
    scan_id      uuid REFERENCES scans (id) ON DELETE SET NULL,
    attempts     integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    CHECK ((outcome = 'skipped') = (skip_reason IS NOT NULL))
);
CREATE UNIQUE INDEX schedule_runs_period_key ON schedule_runs (schedule_id, due_at);
CREATE INDEX schedule_runs_list_idx ON schedule_runs (schedule_id, created_at DESC, id DESC);
CREATE INDEX schedule_runs_scan_idx ON schedule_runs (scan_id) WHERE scan_id IS NOT NULL;

-- +goose Down
DROP TABLE schedule_runs;
ALTER TABLE schedules
    DROP COLUMN anchor_at,
    DROP COLUMN due_at,
    DROP COLUMN last_skip_reason,
    DROP COLUMN last_skipped_at;
