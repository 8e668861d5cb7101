-- +goose Up

-- An organization's own politeness for its whole-site crawls, replacing its
-- plan's (internal/planlimits) when set: the requests per second a crawl
-- makes to the site it audits, and how many it has in flight at once. The
-- bounds are planlimits.MaxCrawlRate and MaxCrawlConcurrency.
ALTER TABLE organizations
    ADD COLUMN crawl_rate_override        double precision CHECK (crawl_rate_override > 0 AND crawl_rate_override <= 20),
    ADD COLUMN crawl_concurrency_override integer CHECK (crawl_concurrency_override BETWEEN 1 AND 16);

-- +goose Down
ALTER TABLE organizations DROP COLUMN crawl_rate_override, DROP COLUMN crawl_concurrency_override;
