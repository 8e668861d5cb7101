package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

// heldLock is a statement in flight: holder holds an advisory lock, and
// conn (whose backend is pid) waits for it in `SELECT pg_advisory_lock`
// under a context that cancel ends; done receives the statement's error.
type heldLock struct {
	holder, conn *pgxpool.Conn
	pid          int
	cancel       context.CancelFunc
	done         <-chan error
}

// onHeldLock acquires two connections of the test pool and starts conn's
// statement on holder's lock key, returning once the server shows it
// waiting, so that the statement is in flight when the caller acts.
func onHeldLock(t *testing.T, key int64) heldLock {
	t.Helper()
	pool, ctx := pgtest.Pool(t), context.Background()
	holder, err := pool.Acquire(ctx)
	require.NoError(t, err)
	t.Cleanup(holder.Release)
	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	t.Cleanup(conn.Release)
	_, err = holder.Exec(ctx, `SELECT pg_advisory_lock($1)`, key)
	require.NoError(t, err)

	pid := backendPID(t, conn)
	stmtCtx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	done := make(chan error, 1)
	go func() {
		_, err := conn.Exec(stmtCtx, `SELECT pg_advisory_lock($1)`, key)
		done <- err
	}()
	require.Eventually(t, func() bool {
		var waiting bool
		err := holder.QueryRow(ctx,
			`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND NOT granted)`, pid).Scan(&waiting)
		return err == nil && waiting
	}, 30*time.Second, 2*time.Millisecond)
	return heldLock{holder: holder, conn: conn, pid: pid, cancel: cancel, done: done}
}

func backendPID(t *testing.T, conn *pgxpool.Conn) int {
	t.Helper()
	var pid int
	require.NoError(t, conn.QueryRow(context.Background(), `SELECT pg_backend_pid()`).Scan(&pid))
	return pid
}

// A statement that finishes soon after its context ends (a client hung up
// while its read was in flight) keeps its connection, and the connection
// its backend.
func TestEndedContextKeepsTheConnectionOfAQuickStatement(t *testing.T) {
	ctx := context.Background()
	l := onHeldLock(t, 71)
	l.cancel()
	_, err := l.holder.Exec(ctx, `SELECT pg_advisory_unlock(71)`)
	require.NoError(t, err)

	require.NoError(t, <-l.done, "the statement finished within the grace")
	require.False(t, l.conn.Conn().IsClosed())
	require.Equal(t, l.pid, backendPID(t, l.conn))
	_, err = l.conn.Exec(ctx, `SELECT pg_advisory_unlock(71)`)
	require.NoError(t, err)
}

// A statement still running when the grace ends is broken off as before:
// the caller gets the context's error instead of waiting for it.
func TestEndedContextBreaksOffASlowStatement(t *testing.T) {
	l := onHeldLock(t, 72)
	l.cancel()
	require.ErrorIs(t, <-l.done, context.Canceled)
	// The waiting backend takes the lock once it is free, finds its client
	// gone and ends.
	_, err := l.holder.Exec(context.Background(), `SELECT pg_advisory_unlock(72)`)
	require.NoError(t, err)
}

// A LISTEN wait whose context ends returns, and its connection stays
// usable.
func TestEndedContextEndsAListenWait(t *testing.T) {
	pool, ctx := pgtest.Pool(t), context.Background()
	conn, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer conn.Release()
	_, err = conn.Exec(ctx, `LISTEN cancel_test`)
	require.NoError(t, err)
	before := backendPID(t, conn)

	waitCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := conn.Conn().WaitForNotification(waitCtx)
		done <- err
	}()
	// Time for the wait to block on the socket; had it not yet begun, it
	// would return at once, and the assertions still hold.
	time.Sleep(20 * time.Millisecond)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	require.False(t, conn.Conn().IsClosed())
	require.Equal(t, before, backendPID(t, conn))
	_, err = conn.Exec(ctx, `UNLISTEN cancel_test`)
	require.NoError(t, err)
}
