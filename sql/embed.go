// Package sql embeds the database migrations so the binary can apply them
// without reading files at run time. The queries beside them feed sqlc only.
package sql

import "embed"

// Migrations holds the goose migration files under migrations/.
//
//go:embed migrations/*.sql
var Migrations embed.FS
