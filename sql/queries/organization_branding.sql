-- name: GetOrganizationBranding :one
SELECT * FROM organization_branding WHERE org_id = @org_id;

-- name: UpsertOrganizationBranding :one
INSERT INTO organization_branding (org_id, name, primary_color, logo, logo_type, contact, footer, show_geoscan, updated_at)
VALUES (@org_id, @name, @primary_color, @logo, @logo_type, @contact, @footer, @show_geoscan, now())
ON CONFLICT (org_id) DO UPDATE SET
    name = EXCLUDED.name, primary_color = EXCLUDED.primary_color, logo = EXCLUDED.logo,
    logo_type = EXCLUDED.logo_type, contact = EXCLUDED.contact, footer = EXCLUDED.footer,
    show_geoscan = EXCLUDED.show_geoscan, updated_at = now()
RETURNING *;

-- name: DeleteOrganizationBranding :execrows
DELETE FROM organization_branding WHERE org_id = @org_id;
