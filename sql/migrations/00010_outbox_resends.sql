-- +goose Up

-- How many times an operator queued the message again (geoscan outbox send).
-- The job of each send carries its number and sends only while it matches,
-- so a job a later send superseded never sends the message a second time;
-- the number also keeps each send's job distinct from the earlier ones,
-- which River's uniqueness by arguments would otherwise take for
-- duplicates while they are kept.
ALTER TABLE outbox ADD COLUMN resends integer NOT NULL DEFAULT 0 CHECK (resends >= 0);

-- +goose Down
ALTER TABLE outbox DROP COLUMN resends;
