-- +goose Up

-- Where a schedule's emails go when it names an address; otherwise to the
-- member who created it (owner_member_id), then to the organization's owner.
ALTER TABLE schedules
    ADD COLUMN notify_to text CHECK (length(notify_to) BETWEEN 3 AND 254);

CREATE INDEX members_org_role_idx ON members (org_id, role, created_at);

-- +goose Down
DROP INDEX members_org_role_idx;
ALTER TABLE schedules DROP COLUMN notify_to;
