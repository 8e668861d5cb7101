-- +goose Up

-- The retention job deletes snapshots oldest first, in batches.
CREATE INDEX scan_snapshots_created_idx ON scan_snapshots (created_at);

-- +goose Down
DROP INDEX scan_snapshots_created_idx;
