// Package dbmigrate owns schema changes: the application's goose migrations
// embedded from sql/migrations, followed by River's own queue tables. Both are
// idempotent, so every process may run Up at start.
package dbmigrate

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	sqlfiles "github.com/geoscan/geoscan/sql"
)

// lockID serialises concurrent migrators (several replicas starting at once,
// parallel test packages building one template) with a session advisory lock.
const lockID = 7_215_004_311

// Up applies every pending application and River migration.
func Up(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire connection: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockID); err != nil {
		return fmt.Errorf("take migration lock: %w", err)
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockID) }()

	fsys, err := fs.Sub(sqlfiles.Migrations, "migrations")
	if err != nil {
		return fmt.Errorf("open embedded migrations: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	provider, err := goose.NewProvider(goose.DialectPostgres, db, fsys)
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}

	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("river migrator: %w", err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("apply river migrations: %w", err)
	}
	return nil
}

// Fingerprint identifies the embedded migration set, so a test template
// database built from one set is never reused for another.
func Fingerprint() (string, error) {
	entries, err := fs.ReadDir(sqlfiles.Migrations, "migrations")
	if err != nil {
		return "", err
	}
	h := newHasher()
	for _, e := range entries {
		b, err := fs.ReadFile(sqlfiles.Migrations, "migrations/"+e.Name())
		if err != nil {
			return "", err
		}
		h.add(e.Name(), b)
	}
	return h.sum(), nil
}
