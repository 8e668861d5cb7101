package multiprocess

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/binarytest"
	"github.com/geoscan/geoscan/internal/web/auth"
)

// refusalLimit is how long a test waits for a revoked or deleted key to be
// refused. It is far below the cache's own expiry (a minute after a key is
// verified), so a refusal within it comes from the announcement.
const refusalLimit = 10 * time.Second

// TestRevocationAcrossProcesses runs two API processes that have both
// verified and cached two keys of an organization. A revocation nobody
// announces is not seen (the keys are answered from the caches, with no
// query); one key revoked with `geoscan key revoke` (a third process) and
// the other deleted in SQL are then refused by both processes, through the
// PostgreSQL announcement, with the same 401 body as a key that never
// existed. The delay from each change to each process's first refusal is
// logged, not asserted.
func TestRevocationAcrossProcesses(t *testing.T) {
	// Polling for a refusal must not be cut off by the limits.
	p := startPair(t, "GEOSCAN_IP_RATE_LIMIT=1000000")
	for i, proc := range p.procs {
		binarytest.Until(t, 30*time.Second, "the authentication cache of "+p.hs[i].BaseURL+" to listen", func() bool {
			return strings.Contains(proc.Logs(), `"msg":"authentication cache on`)
		}, proc)
	}
	ctx := context.Background()
	a := p.hs[0]
	org := a.NewOrg(t, "pro", true)
	// Nor by the organization's: the polls are as fast as the answers.
	_, err := a.Store.Pool().Exec(ctx, "UPDATE organizations SET rate_limit_read_override = 1000000 WHERE id = $1", org.ID)
	require.NoError(t, err)
	revoked, revokedRow := a.NewKey(t, org.ID, "revoked with the CLI")
	deleted, deletedRow := a.NewKey(t, org.ID, "deleted in SQL")
	unknown, err := auth.NewKey()
	require.NoError(t, err)

	// What a key that never existed gets from each process.
	unknownBody := make([][]byte, len(p.hs))
	for i, h := range p.hs {
		r := h.Do(t, "GET", "/api/v1/usage", unknown, nil)
		r.RequireError(t, http.StatusUnauthorized, "api_key_invalid", "")
		require.Equal(t, "authentication_error", string(r.Error(t).Error.Type))
		unknownBody[i] = r.Body
	}

	// Each process verifies and caches both keys.
	for _, h := range p.hs {
		for _, key := range []string{revoked, deleted} {
			require.Equal(t, http.StatusOK, h.Do(t, "GET", "/api/v1/usage", key, nil).Status)
		}
	}

	// A revocation that is not announced (triggers off for one
	// transaction) is not seen: both processes answer from their caches.
	setRevokedQuietly(t, a, revokedRow.ID, true)
	for _, h := range p.hs {
		r := h.Do(t, "GET", "/api/v1/usage", revoked, nil)
		require.Equal(t, http.StatusOK, r.Status, "%s should answer a cached key without a query; body %s", h.BaseURL, r.Body)
	}
	setRevokedQuietly(t, a, revokedRow.ID, false)

	// Revoked by an administrator, with the CLI.
	out := p.cli(t, "key", "revoke", revokedRow.ID.String())
	require.Contains(t, out, revokedRow.ID.String()+" revoked at")
	var revokedAt time.Time
	require.NoError(t, a.Store.Pool().QueryRow(ctx, "SELECT revoked_at FROM api_keys WHERE id = $1", revokedRow.ID).Scan(&revokedAt))
	for i, d := range firstRefusals(t, p, revoked, revokedAt) {
		t.Logf("revoked key (geoscan key revoke): %s refused it %s after revoked_at", p.hs[i].BaseURL, d.Round(100*time.Microsecond))
	}

	// Deleted in SQL: the trigger announces it all the same.
	var deletedAt time.Time
	require.NoError(t, a.Store.Pool().QueryRow(ctx, "DELETE FROM api_keys WHERE id = $1 RETURNING now()", deletedRow.ID).Scan(&deletedAt))
	for i, d := range firstRefusals(t, p, deleted, deletedAt) {
		t.Logf("deleted key (DELETE in SQL): %s refused it %s after the deleting transaction began", p.hs[i].BaseURL, d.Round(100*time.Microsecond))
	}

	// The 401 bodies are those of a key that never existed, byte for byte;
	// the organization's own key still works everywhere.
	for i, h := range p.hs {
		for _, key := range []string{revoked, deleted} {
			r := h.Do(t, "GET", "/api/v1/usage", key, nil)
			r.RequireError(t, http.StatusUnauthorized, "api_key_invalid", "")
			require.Equal(t, string(unknownBody[i]), string(r.Body))
		}
		require.Equal(t, http.StatusOK, h.Do(t, "GET", "/api/v1/usage", org.Key, nil).Status)
	}
}

// setRevokedQuietly sets or clears a key's revocation with the triggers
// off for the transaction, so no process hears of it.
func setRevokedQuietly(t *testing.T, h *apitest.Harness, id uuid.UUID, revoked bool) {
	t.Helper()
	ctx := context.Background()
	err := pgx.BeginFunc(ctx, h.Store.Pool(), func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "UPDATE api_keys SET revoked_at = CASE WHEN $2 THEN now() END WHERE id = $1", id, revoked)
		return err
	})
	require.NoError(t, err)
}

// firstRefusals polls both processes in turn with key until each answers
// 401, and returns how long after since each first did. The polls are as
// frequent as the answers allow, so the figures are close to the delivery
// time of the announcement plus one request.
func firstRefusals(t *testing.T, p *pair, key string, since time.Time) []time.Duration {
	t.Helper()
	delays := make([]time.Duration, len(p.hs))
	refused := make([]bool, len(p.hs))
	deadline := time.Now().Add(refusalLimit)
	for {
		pending := 0
		for i, h := range p.hs {
			if refused[i] {
				continue
			}
			r := h.Do(t, "GET", "/api/v1/usage", key, nil)
			if r.Status == http.StatusUnauthorized {
				refused[i], delays[i] = true, time.Since(since)
				continue
			}
			require.Equal(t, http.StatusOK, r.Status, "body %s", r.Body)
			pending++
		}
		if pending == 0 {
			return delays
		}
		if time.Now().After(deadline) {
			var logs strings.Builder
			for _, proc := range p.procs {
				logs.WriteString("\n---\n" + proc.Logs())
			}
			t.Fatalf("a process still accepts the key %s after the change; output:%s", refusalLimit, logs.String())
		}
	}
}
