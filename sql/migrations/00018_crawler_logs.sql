-- +goose Up

-- Access logs an organization uploads to see which AI crawlers visit a
-- site. The upload is kept in chunks only until it is analysed (the job
-- reads them in order, then deletes them); what stays is the analysis
-- (result, the engine's JSON) and its cross-check with the latest audit
-- of the same site (cross_check). domain is a host name, lower case.
CREATE TABLE crawler_logs (
    id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id        uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    domain        text NOT NULL CHECK (domain <> '' AND char_length(domain) <= 253 AND domain = lower(domain)),
    schedule_id   uuid REFERENCES schedules (id) ON DELETE SET NULL,
    status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
    bytes         bigint NOT NULL CHECK (bytes >= 0),
    gzip          boolean NOT NULL,
    error_code    text,
    error_message text,
    result        jsonb,
    cross_check   jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    completed_at  timestamptz,
    CHECK ((status = 'failed') = (error_code IS NOT NULL)),
    CHECK ((status = 'succeeded') = (result IS NOT NULL))
);

-- The list, newest first, and the latest analysed log of a site.
CREATE INDEX crawler_logs_org ON crawler_logs (org_id, created_at DESC, id DESC);
CREATE INDEX crawler_logs_site ON crawler_logs (org_id, domain, completed_at DESC) WHERE status = 'succeeded';

-- The upload, in order; at most 1 MiB a chunk.
CREATE TABLE crawler_log_chunks (
    log_id uuid NOT NULL REFERENCES crawler_logs (id) ON DELETE CASCADE,
    seq    integer NOT NULL CHECK (seq >= 0),
    data   bytea NOT NULL,
    PRIMARY KEY (log_id, seq)
);

-- The competitors' sites a scan, or a schedule's scans, benchmark against.
ALTER TABLE scans ADD COLUMN competitors text[] NOT NULL DEFAULT '{}';
ALTER TABLE schedules ADD COLUMN competitors text[] NOT NULL DEFAULT '{}';

-- +goose Down
ALTER TABLE schedules DROP COLUMN competitors;
ALTER TABLE scans DROP COLUMN competitors;
DROP TABLE crawler_log_chunks;
DROP TABLE crawler_logs;
