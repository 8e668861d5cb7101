-- +goose Up

-- What a scan fetched, kept so derived documents (the triage dossier) can be
-- recomputed without fetching the site again: gzip-compressed JSON of the
-- homepage, sampled pages and bot probes (headers and HTML bodies only).
CREATE TABLE scan_snapshots (
    scan_id     uuid PRIMARY KEY REFERENCES scans (id) ON DELETE CASCADE,
    format      integer NOT NULL CHECK (format >= 1),
    body        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE scan_snapshots;
