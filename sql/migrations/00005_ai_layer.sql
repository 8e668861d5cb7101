-- +goose Up

-- Other names of the brand counted as mentions in AI answers (brand_aliases).
ALTER TABLE scans ADD COLUMN brand_aliases text[] NOT NULL DEFAULT '{}';
ALTER TABLE schedules ADD COLUMN brand_aliases text[] NOT NULL DEFAULT '{}';

-- A check whose answer engine failed is reported as error, not scored.
ALTER TABLE check_results DROP CONSTRAINT check_results_status_check;
ALTER TABLE check_results ADD CONSTRAINT check_results_status_check
    CHECK (status IN ('pass', 'warn', 'fail', 'na', 'info', 'error'));

-- Answers of the answer engines, kept for the day they were given: a second
-- scan of a site the same day asks nothing again. The key hashes the engine,
-- model, request and run index (never an API key); older days are pruned.
CREATE TABLE llm_answers (
    key         text PRIMARY KEY CHECK (length(key) = 64),
    day         date NOT NULL,
    engine      text NOT NULL,
    model       text NOT NULL,
    answer      jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX llm_answers_day_idx ON llm_answers (day);

-- +goose Down
DROP TABLE llm_answers;
ALTER TABLE check_results DROP CONSTRAINT check_results_status_check;
ALTER TABLE check_results ADD CONSTRAINT check_results_status_check
    CHECK (status IN ('pass', 'warn', 'fail', 'na', 'info'));
ALTER TABLE schedules DROP COLUMN brand_aliases;
ALTER TABLE scans DROP COLUMN brand_aliases;
