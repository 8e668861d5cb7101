// Package store owns SQL and transactions: it is the only importer of the
// sqlc-generated gen/db, scopes every organization-owned query by org id, and
// translates pgx errors into the sentinels below. Each table has one file
// here and one query file in sql/queries, both named after it; a method that
// writes several tables lives with the table whose state it changes.
package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/puddle/v2"

	"github.com/geoscan/geoscan/gen/db"
)

// Errors the store returns; handlers translate them into API errors.
var (
	ErrNotFound          = errors.New("not found")
	ErrNoSubscription    = errors.New("no active subscription")
	ErrQuotaExhausted    = errors.New("daily scan quota exhausted")
	ErrScheduleLimit     = errors.New("active schedule limit reached")
	ErrIdempotencyReused = errors.New("idempotency key reused with a different request")
	ErrConflict          = errors.New("conflicts with an existing row")
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

// Tx is the transaction of a store handed out by InTx or WithTx, nil
// otherwise. Jobs that must be enqueued atomically with a write are inserted
// in it (River's InsertTx).
func (s *Store) Tx() pgx.Tx { return s.tx }

// WithTx returns a store bound to tx, a transaction the caller commits or
// rolls back.
func (s *Store) WithTx(tx pgx.Tx) *Store {
	return &Store{pool: s.pool, conn: tx, tx: tx, q: s.q}
}

// InTx runs fn with a store bound to one transaction, committed when fn
// returns nil and rolled back otherwise. Nested calls use savepoints. The
// caller owns the transaction: it calls the store and queues jobs in it in
// plain sequence, and the store never calls back.
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
	if err := fn(s.WithTx(tx)); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// atomically runs fn in the caller's transaction, or in one of its own when
// there is none: a method that writes several rows never leaves half of
// them, and inside InTx it costs no savepoint.
func (s *Store) atomically(ctx context.Context, fn func(tx *Store) error) error {
	if s.tx != nil {
		return fn(s)
	}
	return s.InTx(ctx, fn)
}

// requireTx refuses to run what only holds inside a transaction (an
// advisory lock released at its end).
func (s *Store) requireTx(what string) error {
	if s.tx == nil {
		return fmt.Errorf("store: %s must run inside InTx", what)
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

// one maps the row a query read to the store's own type, the store's
// callers never seeing gen/db; no row is ErrNotFound.
func one[R, T any](row R, err error, of func(R) T) (T, error) {
	if err != nil {
		var zero T
		return zero, notFound(err)
	}
	return of(row), nil
}

// all maps the rows of a list query to the store's own type.
func all[R, T any](rows []R, err error, of func(R) T) ([]T, error) {
	if err != nil {
		return nil, err
	}
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = of(r)
	}
	return out, nil
}

// Unavailable reports whether err means the database could not be reached
// or went away: a failed connection attempt, a closed pool or connection, a
// network error on an open connection, or a server that is shutting down,
// starting up or out of connections. These are the database's fault, not
// the request's, and pass once it is back; every caller (handlers,
// authentication, rate limits) classifies them here so the API answers 503
// the same way everywhere.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) || errors.Is(err, puddle.ErrClosedPool) || errors.Is(err, pgconn.ErrConnClosed) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08": // connection exception
			return true
		case pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03": // admin or crash shutdown, cannot connect now
			return true
		case pgErr.Code == "53300": // too many connections
			return true
		}
		return false
	}
	var netErr *net.OpError
	if errors.As(err, &netErr) {
		return true
	}
	// The server closed the socket under an open connection: pgconn's own
	// errors (the ones that know whether a retry is safe) wrap an EOF.
	var fromPgconn interface{ SafeToRetry() bool }
	return errors.As(err, &fromPgconn) && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF))
}
