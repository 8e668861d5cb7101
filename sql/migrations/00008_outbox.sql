-- +goose Up

-- Every notification email, as built, with whether it went out: pending
-- (queued for SMTP, retried), sent, held (no SMTP server configured: kept
-- here and logged so nothing is lost) or failed (refused for good, or out
-- of retries). One per scan, so a retried job never builds a second one.
CREATE TABLE outbox (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id       uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    schedule_id  uuid REFERENCES schedules (id) ON DELETE SET NULL,
    scan_id      uuid REFERENCES scans (id) ON DELETE SET NULL,
    recipient    text NOT NULL,
    subject      text NOT NULL,
    text_body    text NOT NULL,
    html_body    text NOT NULL,
    status       text NOT NULL CHECK (status IN ('pending', 'sent', 'held', 'failed')),
    attempts     integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    sent_at      timestamptz
);
CREATE UNIQUE INDEX outbox_scan_key ON outbox (scan_id) WHERE scan_id IS NOT NULL;
CREATE INDEX outbox_list_idx ON outbox (created_at DESC, id DESC);
CREATE INDEX outbox_org_idx ON outbox (org_id, created_at DESC);

-- What became of a scheduled scan's email: the outbox status, or skipped
-- (no address known) or not_requested (notify_email off); detail says why.
ALTER TABLE schedule_runs
    ADD COLUMN email_status text CHECK (email_status IN ('pending', 'sent', 'held', 'failed', 'skipped', 'not_requested')),
    ADD COLUMN email_detail text;

-- +goose Down
ALTER TABLE schedule_runs DROP COLUMN email_status, DROP COLUMN email_detail;
DROP TABLE outbox;
