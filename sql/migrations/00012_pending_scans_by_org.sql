-- +goose Up

-- The organizations that have scans waiting for a worker. A scan job about
-- to start asks whether another organization is waiting while under its
-- share of the workers (internal/jobs/scanner): it walks this index one
-- organization at a time, a probe each, however many scans each has queued.
CREATE INDEX scans_pending_org_idx ON scans (org_id) WHERE status = 'pending';

-- +goose Down
DROP INDEX scans_pending_org_idx;
