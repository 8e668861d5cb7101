-- +goose Up

-- An organization's white-label look for its PDF reports, HTML reports and
-- emails. No row is GeoScan's own look. The logo is stored as checked on the
-- way in: a PNG that decoded, or an SVG already sanitised.
CREATE TABLE organization_branding (
    org_id         uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    name           text NOT NULL DEFAULT '' CHECK (length(name) <= 100),
    primary_color  text NOT NULL DEFAULT '' CHECK (primary_color = '' OR primary_color ~ '^#[0-9a-f]{6}$'),
    logo           bytea CHECK (length(logo) <= 262144),
    logo_type      text NOT NULL DEFAULT '' CHECK (logo_type IN ('', 'image/png', 'image/svg+xml')),
    contact        text NOT NULL DEFAULT '' CHECK (length(contact) <= 200),
    footer         text NOT NULL DEFAULT '' CHECK (length(footer) <= 300),
    show_geoscan   boolean NOT NULL DEFAULT true,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CHECK ((logo IS NULL) = (logo_type = ''))
);

-- +goose Down
DROP TABLE organization_branding;
