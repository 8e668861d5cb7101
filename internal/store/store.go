// Package store owns SQL and transactions: it is the only importer of the
// sqlc-generated gen/db, scopes every organization-owned query by org id, and
// translates pgx errors into the sentinels below.
package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/geoscan/geoscan/gen/db"
)

// Errors the store returns; handlers translate them into API errors.
var (
	ErrNotFound          = errors.New("not found")
	ErrNoSubscription    = errors.New("no active subscription")
	ErrQuotaExhausted    = errors.New("daily scan quota exhausted")
	ErrScheduleLimit     = errors.New("active schedule limit reached")
	ErrIdempotencyReused = errors.New("idempotency key reused with a different request")
)

// Row types of the store, shared with callers so each is defined once.
type (
	Organization = db.Organization
	APIKey       = db.APIKey
	Scan         = db.Scan
	Schedule     = db.Schedule
	CheckResult  = db.CheckResult
	Report       = db.Report
	Triage       = db.TriageDossier
	Principal    = db.GetAPIKeyPrincipalRow
)

// Store runs queries on a pool, or on one transaction inside InTx.
type Store struct {
	pool *pgxpool.Pool
	conn db.DBTX
	tx   pgx.Tx
	q    *db.Queries
}

// New returns a store over pool.
func New(pool *pgxpool.Pool) *Store {
	return &Store{pool: pool, conn: pool, q: db.New()}
}

// Pool is the underlying pool (for River and health checks).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Tx is the transaction of a store handed out by InTx, nil otherwise. Jobs
// that must be enqueued atomically with a write use it.
func (s *Store) Tx() pgx.Tx { return s.tx }

// InTx runs fn with a store bound to one transaction, committed when fn
// returns nil and rolled back otherwise. Nested calls use savepoints.
func (s *Store) InTx(ctx context.Context, fn func(tx *Store) error) error {
	var (
		tx  pgx.Tx
		err error
	)
	if s.tx != nil {
		tx, err = s.tx.Begin(ctx)
	} else {
		tx, err = s.pool.Begin(ctx)
	}
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if err := fn(&Store{pool: s.pool, conn: tx, tx: tx, q: s.q}); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
