-- +goose Up

-- Rate-limit leases: an API process takes up to n requests of a bucket's
-- allowance at once and spends them locally (internal/ratelimit). granted
-- is how many the last take obtained, read back by the same statement.
ALTER TABLE rate_limits ADD COLUMN granted integer NOT NULL DEFAULT 0;

-- API processes cache verified keys and organizations' limits. A change
-- that must reach them at once (a key revoked or deleted, an
-- organization's plan, overrides or subscription changed) is announced on
-- the geoscan_auth channel, whatever made it: the API, the CLI or plain SQL.
-- Payloads: 'key:<hex sha-256 of the key>' and 'org:<uuid>'.
-- +goose StatementBegin
CREATE FUNCTION geoscan_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'api_keys' THEN
        PERFORM pg_notify('geoscan_auth', 'key:' || encode(OLD.key_hash, 'hex'));
    ELSE
        PERFORM pg_notify('geoscan_auth', 'org:' || OLD.id::text);
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER api_keys_notify_auth
    AFTER UPDATE OF revoked_at, key_hash, org_id, member_id OR DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION geoscan_notify_auth();
CREATE TRIGGER organizations_notify_auth
    AFTER UPDATE OR DELETE ON organizations
    FOR EACH ROW EXECUTE FUNCTION geoscan_notify_auth();

-- A CSV cell of user-controlled text for GET /scans/export: a cell that a
-- spreadsheet would run as a formula gets a leading apostrophe, and an
-- empty string becomes NULL, which COPY writes as an empty cell as it does
-- for null.
-- +goose StatementBegin
CREATE FUNCTION geoscan_csv_cell(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN left(v, 1) IN ('=', '+', '-', '@', E'\t', E'\r') THEN '''' || v ELSE nullif(v, '') END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION geoscan_csv_cell(text);
DROP TRIGGER organizations_notify_auth ON organizations;
DROP TRIGGER api_keys_notify_auth ON api_keys;
DROP FUNCTION geoscan_notify_auth();
ALTER TABLE rate_limits DROP COLUMN granted;
