-- +goose Up

-- Organizations own everything else: keys, members, scans, schedules.
-- The *_override columns replace the plan defaults for one organization when set.
CREATE TABLE organizations (
    id                          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name                        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    plan                        text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro')),
    subscription_status         text NOT NULL DEFAULT 'active' CHECK (subscription_status IN ('active', 'inactive')),
    daily_scan_quota_override   integer CHECK (daily_scan_quota_override >= 0),
    schedule_limit_override     integer CHECK (schedule_limit_override >= 0),
    rate_limit_write_override   integer CHECK (rate_limit_write_override > 0),
    rate_limit_read_override    integer CHECK (rate_limit_read_override > 0),
    created_at                  timestamptz NOT NULL DEFAULT now(),
    updated_at                  timestamptz NOT NULL DEFAULT now()
);

-- Members are the people of an organization; schedule notifications go to them.
CREATE TABLE members (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id      uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    email       text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
    name        text NOT NULL DEFAULT '',
    role        text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member')),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX members_org_email_key ON members (org_id, lower(email));

-- API keys are stored only as the SHA-256 of the whole key. display_prefix is
-- what listings show ("geo_AbCd…WxYz"); it cannot be turned back into a key.
CREATE TABLE api_keys (
    id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id          uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    member_id       uuid REFERENCES members (id) ON DELETE SET NULL,
    name            text NOT NULL DEFAULT '',
    key_hash        bytea NOT NULL CHECK (length(key_hash) = 32),
    display_prefix  text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_used_at    timestamptz,
    revoked_at      timestamptz
);
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_org_idx ON api_keys (org_id, created_at DESC);

-- Schedules re-run a homepage scan monthly or quarterly. Soft-deleted by
-- setting active = false, so the unique (org, url) row is reused on re-create.
CREATE TABLE schedules (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id           uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    owner_member_id  uuid REFERENCES members (id) ON DELETE SET NULL,
    url              text NOT NULL,
    domain           text NOT NULL,
    brand_name       text NOT NULL,
    frequency        text NOT NULL CHECK (frequency IN ('monthly', 'quarterly')),
    notify_email     boolean NOT NULL DEFAULT true,
    active           boolean NOT NULL DEFAULT true,
    next_run_at      timestamptz NOT NULL,
    last_run_at      timestamptz,
    last_scan_id     uuid,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    deactivated_at   timestamptz
);
CREATE UNIQUE INDEX schedules_org_url_key ON schedules (org_id, url);
CREATE INDEX schedules_org_list_idx ON schedules (org_id, created_at DESC, id DESC);
CREATE INDEX schedules_due_idx ON schedules (next_run_at) WHERE active;

-- Scans. Scores are denormalised from the report so lists, exports and
-- comparisons need no join. webhook_secret must stay readable to sign callbacks.
CREATE TABLE scans (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id           uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    api_key_id       uuid REFERENCES api_keys (id) ON DELETE SET NULL,
    schedule_id      uuid REFERENCES schedules (id) ON DELETE SET NULL,
    source           text NOT NULL DEFAULT 'api' CHECK (source IN ('api', 'schedule')),
    url              text NOT NULL,
    domain           text NOT NULL,
    brand_name       text NOT NULL,
    callback_url     text,
    webhook_secret   text,
    project          text,
    tracked_url      text,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'completed', 'failed')),
    error_code       text,
    error_message    text,
    overall_score    numeric(4, 1) CHECK (overall_score BETWEEN 0 AND 100),
    overall_grade    text,
    search_score     integer CHECK (search_score BETWEEN 0 AND 100),
    search_grade     text,
    visibility_score integer CHECK (visibility_score BETWEEN 0 AND 100),
    visibility_grade text,
    trust_score      integer CHECK (trust_score BETWEEN 0 AND 100),
    trust_grade      text,
    scoring_version  text,
    job_id           bigint,
    attempts         integer NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    started_at       timestamptz,
    completed_at     timestamptz,
    CHECK ((callback_url IS NULL) = (webhook_secret IS NULL))
);
CREATE INDEX scans_org_list_idx ON scans (org_id, created_at DESC, id DESC);
CREATE INDEX scans_org_status_idx ON scans (org_id, status, created_at DESC, id DESC);
CREATE INDEX scans_org_project_idx ON scans (org_id, project, created_at DESC, id DESC) WHERE project IS NOT NULL;
CREATE INDEX scans_org_domain_idx ON scans (org_id, domain, created_at DESC, id DESC);
CREATE INDEX scans_org_url_idx ON scans (org_id, url, created_at DESC, id DESC);
CREATE INDEX scans_schedule_idx ON scans (schedule_id) WHERE schedule_id IS NOT NULL;

ALTER TABLE schedules
    ADD CONSTRAINT schedules_last_scan_fk FOREIGN KEY (last_scan_id) REFERENCES scans (id) ON DELETE SET NULL;

-- One row per check per scan; texts per audience come from the check registry.
CREATE TABLE check_results (
    scan_id     uuid NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
    check_id    text NOT NULL,
    ring        text NOT NULL CHECK (ring IN ('search', 'visibility', 'trust')),
    pillar      text NOT NULL,
    status      text NOT NULL CHECK (status IN ('pass', 'warn', 'fail', 'na', 'info')),
    score       real CHECK (score BETWEEN 0 AND 1),
    weight      real NOT NULL CHECK (weight >= 0),
    impact      text NOT NULL,
    effort      text NOT NULL,
    summary     text NOT NULL DEFAULT '',
    evidence    jsonb NOT NULL DEFAULT '{}'::jsonb,
    position    integer NOT NULL,
    PRIMARY KEY (scan_id, check_id)
);
CREATE INDEX check_results_order_idx ON check_results (scan_id, position);

-- The rolled-up report of a completed scan (rings, pillars, gates, fetch log,
-- summaries), kept as one document because it is always read whole.
CREATE TABLE reports (
    scan_id          uuid PRIMARY KEY REFERENCES scans (id) ON DELETE CASCADE,
    scoring_version  text NOT NULL,
    body             jsonb NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE triage_dossiers (
    scan_id         uuid PRIMARY KEY REFERENCES scans (id) ON DELETE CASCADE,
    schema_version  text NOT NULL,
    body            jsonb NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- Webhook deliveries: one row per event sent (its id is X-GeoScan-Delivery),
-- attempts beside it. Test deliveries have no scan.
CREATE TABLE webhook_deliveries (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    org_id            uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    scan_id           uuid REFERENCES scans (id) ON DELETE CASCADE,
    event             text NOT NULL CHECK (event IN ('scan.completed', 'scan.failed', 'scan.test')),
    url               text NOT NULL,
    payload           bytea NOT NULL,
    status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempt_count     integer NOT NULL DEFAULT 0,
    last_status_code  integer,
    last_error        text,
    next_attempt_at   timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    completed_at      timestamptz
);
CREATE INDEX webhook_deliveries_scan_idx ON webhook_deliveries (scan_id, created_at DESC) WHERE scan_id IS NOT NULL;
CREATE INDEX webhook_deliveries_org_idx ON webhook_deliveries (org_id, created_at DESC);

CREATE TABLE webhook_delivery_attempts (
    delivery_id  uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt      integer NOT NULL CHECK (attempt >= 1),
    started_at   timestamptz NOT NULL,
    duration_ms  integer NOT NULL,
    status_code  integer,
    error        text,
    PRIMARY KEY (delivery_id, attempt)
);

-- Daily scan quota counter: incremented in the transaction that creates the
-- scan, so a deleted scan never gives its quota back and concurrent creates
-- cannot overshoot. Days are UTC dates.
CREATE TABLE daily_usage (
    org_id     uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    day        date NOT NULL,
    scans      integer NOT NULL DEFAULT 0 CHECK (scans >= 0),
    PRIMARY KEY (org_id, day)
);

-- Idempotency-Key replays for POST /scans and POST /schedules (24 h).
CREATE TABLE idempotency_keys (
    org_id           uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    operation        text NOT NULL,
    key              text NOT NULL,
    request_hash     bytea NOT NULL,
    response_status  integer NOT NULL,
    response_body    jsonb NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    PRIMARY KEY (org_id, operation, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE daily_usage;
DROP TABLE webhook_delivery_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE triage_dossiers;
DROP TABLE reports;
DROP TABLE check_results;
ALTER TABLE schedules DROP CONSTRAINT schedules_last_scan_fk;
DROP TABLE scans;
DROP TABLE schedules;
DROP TABLE api_keys;
DROP TABLE members;
DROP TABLE organizations;
