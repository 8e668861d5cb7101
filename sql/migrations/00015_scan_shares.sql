-- +goose Up

-- Share links: a completed scan's report, readable without an API key by
-- whoever holds the link's token. Only the token's SHA-256 is kept (the
-- token is shown once, in the link); deleting the scan deletes its links.
CREATE TABLE scan_shares (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id     uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    scan_id    uuid NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    audience   text NOT NULL CHECK (audience IN ('marketing', 'engineering')),
    language   text NOT NULL CHECK (language IN ('en', 'de', 'fr', 'es')),
    label      text CHECK (char_length(label) <= 200),
    expires_at timestamptz NOT NULL,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- The list of a scan's links, newest first.
CREATE INDEX scan_shares_scan ON scan_shares (scan_id, created_at DESC, id DESC);
-- The retention sweep of long-expired links.
CREATE INDEX scan_shares_expires ON scan_shares (expires_at);

-- +goose Down
DROP TABLE scan_shares;
