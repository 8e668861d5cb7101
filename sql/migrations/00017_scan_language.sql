-- +goose Up

-- The language a scan's report is written in for people (the HTML page,
-- the PDF, the emails) and the one a schedule gives the scans it creates.
-- A scan's is the one requested until it completes, then the one resolved
-- (the requested, else the site's declared language when there is a
-- catalogue for it, else English); null on a schedule is the site's.
ALTER TABLE scans ADD COLUMN language text CHECK (language IN ('en', 'de', 'fr', 'es'));
ALTER TABLE schedules ADD COLUMN language text CHECK (language IN ('en', 'de', 'fr', 'es'));

-- +goose Down
ALTER TABLE schedules DROP COLUMN language;
ALTER TABLE scans DROP COLUMN language;
