// Package db holds the sqlc-generated queries over sql/migrations and
// sql/queries. Do not edit; run make generate. Only internal/store imports it.
package db

//go:generate go tool sqlc generate -f ../../sqlc.yaml
