package scanner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
)

// TestStartHoldsAnOrganizationAtItsShare starts scans the way concurrent
// workers of several processes do, each in its own transaction on its own
// connection. While another organization has a scan waiting, exactly the
// share of one organization's scans start and the others are left as they
// were; with no one else waiting, an organization uses every worker; a
// dead worker's scans stop counting once no job could still be running
// them.
//
// Not parallel: whether another organization is waiting is a question
// about the whole database, which the package's other tests fill with
// scans of their own.
func TestStartHoldsAnOrganizationAtItsShare(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	const share = 3
	r := &Runner{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Budget: 30 * time.Second, OrgShare: share}

	newOrg := func(name string) uuid.UUID {
		org, err := st.CreateOrganization(ctx, name, "pro", true)
		require.NoError(t, err)
		t.Cleanup(func() {
			_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
			require.NoError(t, err)
		})
		return org.ID
	}
	newScans := func(org uuid.UUID, n int) []uuid.UUID {
		ids := make([]uuid.UUID, n)
		for i := range ids {
			s, err := st.CreateScan(ctx, store.NewScan{
				OrgID: org, Source: store.SourceAPI, URL: "https://example.com/", Domain: "example.com", BrandName: "Example",
			}, time.Now())
			require.NoError(t, err)
			ids[i] = s.ID
		}
		return ids
	}
	// startAll starts the scans at once, one goroutine each.
	startAll := func(ids []uuid.UUID) (started, held []uuid.UUID) {
		var (
			mu   sync.Mutex
			wg   sync.WaitGroup
			gate = make(chan struct{})
		)
		for _, id := range ids {
			wg.Go(func() {
				<-gate
				_, err := r.start(ctx, id)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					started = append(started, id)
				case errors.Is(err, ErrOverShare):
					held = append(held, id)
				default:
					t.Errorf("start %s: %v", id, err)
				}
			})
		}
		close(gate)
		wg.Wait()
		return started, held
	}

	heavy, light := newOrg("heavy"), newOrg("light")
	heavyScans := newScans(heavy, 10)
	lightScan := newScans(light, 1)[0]

	firstWave, held := startAll(heavyScans)
	require.Len(t, firstWave, share, "with another organization waiting, exactly the share starts, however many ask at once")
	require.Len(t, held, len(heavyScans)-share)
	for _, id := range held {
		s, err := st.GetScanByID(ctx, id)
		require.NoError(t, err)
		require.Equal(t, store.ScanPending, s.Status, "a held scan stays pending")
		require.Nil(t, s.StartedAt)
		require.Zero(t, s.Attempts, "and its start is not counted")
	}

	started, held := startAll([]uuid.UUID{lightScan})
	require.Len(t, started, 1, "the waiting organization starts at once")
	require.Empty(t, held)

	started, held = startAll(except(heavyScans, firstWave))
	require.Empty(t, held, "with no one else waiting, the organization uses every worker")
	require.Len(t, started, len(heavyScans)-share)

	// Someone waits again; the heavy organization's running scans, left by
	// a dead worker, stop counting once no job could be running them.
	lightWaiting := newScans(light, 1)
	more := newScans(heavy, 1)
	_, held = startAll(more)
	require.Len(t, held, 1, "ten running and another organization waiting")
	_, err := pool.Exec(ctx, `UPDATE scans SET updated_at = now() - $2 * interval '1 second'
		WHERE org_id = $1 AND status = 'running'`, heavy, (r.Budget + recordTime + time.Second).Seconds())
	require.NoError(t, err)
	started, _ = startAll(more)
	require.Len(t, started, 1, "scans running for longer than any job runs do not hold the share")

	started, _ = startAll(lightWaiting)
	require.Len(t, started, 1)
	_, err = r.start(ctx, heavyScans[0])
	require.NoError(t, err, "a rescued scan restarts; its own row is not counted against it")

	s, err := st.GetScanByID(ctx, heavyScans[0])
	require.NoError(t, err)
	require.EqualValues(t, 2, s.Attempts)
	_, err = st.FailScan(ctx, heavyScans[0], CodeInternal, "done")
	require.NoError(t, err)
	_, err = r.start(ctx, heavyScans[0])
	require.ErrorIs(t, err, store.ErrNotFound, "a finished scan has nothing left to start")
}

// TestStartsOfOneOrganizationTakeTurns: a start of an organization's scan
// waits until another start of that organization, in another
// transaction (another worker, another process), has committed, and then
// counts it; without the lock both would count the same running scans
// and together run one past the share. Not parallel, like the test above.
func TestStartsOfOneOrganizationTakeTurns(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.Pool(t)
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "turns", "pro", true)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := pool.Exec(context.Background(), `DELETE FROM organizations WHERE id = $1`, org.ID)
		require.NoError(t, err)
	})
	var ids [2]uuid.UUID
	for i := range ids {
		s, err := st.CreateScan(ctx, store.NewScan{
			OrgID: org.ID, Source: store.SourceAPI, URL: "https://example.com/", Domain: "example.com", BrandName: "Example",
		}, time.Now())
		require.NoError(t, err)
		ids[i] = s.ID
	}
	const live = time.Minute

	locked, commit := make(chan struct{}), make(chan struct{})
	var committing sync.Once
	letCommit := func() { committing.Do(func() { close(commit) }) }
	t.Cleanup(letCommit) // before the organization is deleted, should the test stop early
	firstDone := make(chan error, 1)
	go func() {
		firstDone <- st.InTx(ctx, func(tx *store.Store) error {
			share, err := tx.LockScanShare(ctx, ids[0], 1, live)
			if err != nil {
				return err
			}
			if share.Running != 0 {
				return fmt.Errorf("first start counts %d running scans", share.Running)
			}
			if _, err := tx.StartScan(ctx, ids[0]); err != nil {
				return err
			}
			close(locked)
			<-commit
			return nil
		})
	}()
	<-locked

	type measured struct {
		share store.ScanShare
		err   error
	}
	second := make(chan measured, 1)
	go func() {
		var m measured
		m.err = st.InTx(ctx, func(tx *store.Store) error {
			m.share, m.err = tx.LockScanShare(ctx, ids[1], 1, live)
			return m.err
		})
		second <- m
	}()
	poll.Until(t, 10*time.Second, "the second start to wait for the first one's lock", func() bool {
		var waiting int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&waiting))
		return waiting > 0
	})
	select {
	case m := <-second:
		t.Fatalf("the second start measured before the first committed: %+v", m)
	default:
	}
	letCommit()
	require.NoError(t, <-firstDone)
	m := <-second
	require.NoError(t, m.err)
	require.Equal(t, 1, m.share.Running, "the second start counts the first")
}

// except lists the ids not in drop, in order.
func except(ids, drop []uuid.UUID) []uuid.UUID {
	skip := map[uuid.UUID]bool{}
	for _, id := range drop {
		skip[id] = true
	}
	var out []uuid.UUID
	for _, id := range ids {
		if !skip[id] {
			out = append(out, id)
		}
	}
	return out
}
