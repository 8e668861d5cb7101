-- +goose Up

-- A CSV cell of GET /scans/export, defused as OWASP recommends for CSV
-- injection: a value that a spreadsheet would run as a formula gets a
-- leading apostrophe, and an empty string becomes NULL, which COPY writes
-- as an empty cell as it does for null. A formula is a value that starts
-- with a tab or a carriage return, or whose first character after leading
-- whitespace is =, +, - or @ or their full-width forms (＝ ＋ － ＠), which
-- spreadsheets read as the same signs. The whitespace is Unicode's
-- White_Space (the ASCII controls tab to carriage return, space, U+0085,
-- U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000)
-- and the invisible zero-width space and byte order mark (U+200B, U+FEFF).
-- The characters are spelled out rather than taken from [[:space:]], whose
-- meaning beyond ASCII depends on the database's locale.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION geoscan_csv_cell(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN v ~ '^([\t\r]|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20])'
            THEN '''' || v
        ELSE nullif(v, '')
    END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION geoscan_csv_cell(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN left(v, 1) IN ('=', '+', '-', '@', E'\t', E'\r') THEN '''' || v ELSE nullif(v, '') END
$$;
-- +goose StatementEnd
