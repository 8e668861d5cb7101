-- +goose Up

-- Rate limit state shared by every API process: one row per limited key
-- ("org:<id>:api_write", "ip:<address>"), holding the GCRA theoretical
-- arrival time. A row whose tat has passed describes a key with its whole
-- allowance available, exactly like a missing row, so such rows can be
-- deleted at any time without changing a decision.
--
-- UNLOGGED: the counters are hot (one write per API request) and worthless
-- after a crash; losing them merely restores every allowance.
CREATE UNLOGGED TABLE rate_limits (
    bucket      text PRIMARY KEY CHECK (length(bucket) BETWEEN 1 AND 200),
    tat         timestamptz NOT NULL,
    allowed     boolean NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_limits_tat_idx ON rate_limits (tat);

-- +goose Down
DROP TABLE rate_limits;
