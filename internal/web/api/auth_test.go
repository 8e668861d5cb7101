package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/testing/apitest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/web/auth"
)

func TestAuthentication(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)

	t.Run("MissingKey", func(t *testing.T) {
		t.Parallel()
		r := h.Do(t, "GET", "/api/v1/usage", "", nil)
		r.RequireError(t, http.StatusUnauthorized, "api_key_required", "")
		require.Equal(t, "authentication_error", string(r.Error(t).Error.Type))
	})

	t.Run("KeyInQueryStringIsIgnored", func(t *testing.T) {
		t.Parallel()
		h.Do(t, "GET", "/api/v1/usage?X-API-Key="+org.Key+"&api_key="+org.Key, "", nil).RequireError(t, 401, "api_key_required", "")
	})

	unknown, err := auth.NewKey()
	require.NoError(t, err)
	revokedKey, revokedRow := h.NewKey(t, org.ID, "to revoke")
	_, err = h.Store.RevokeAPIKey(context.Background(), revokedRow.ID)
	require.NoError(t, err)

	invalid := map[string]string{
		"malformed":      "geo_123",
		"bad checksum":   org.Key[:len(org.Key)-1] + flipChar(org.Key[len(org.Key)-1]),
		"bearer":         "Bearer " + org.Key,
		"wrong prefix":   "GEO_" + org.Key[4:],
		"unknown":        unknown,
		"revoked":        revokedKey,
		"trailing space": org.Key + " x",
	}
	var bodies []api.Error
	for name, key := range invalid {
		r := h.Do(t, "GET", "/api/v1/usage", key, nil)
		r.RequireError(t, http.StatusUnauthorized, "api_key_invalid", "")
		bodies = append(bodies, r.Error(t))
		_ = name
	}
	for _, b := range bodies[1:] {
		require.Equal(t, bodies[0], b, "malformed, unknown and revoked keys get the same body")
	}

	t.Run("TwoKeyHeaders", func(t *testing.T) {
		t.Parallel()
		h.Do(t, "GET", "/api/v1/usage", org.Key, nil, "X-API-Key", org.Key).RequireError(t, 401, "api_key_invalid", "")
	})

	t.Run("ValidKeyRecordsUse", func(t *testing.T) {
		t.Parallel()
		r := h.Do(t, "GET", "/api/v1/usage", org.Key, nil)
		require.Equal(t, http.StatusOK, r.Status)
		poll.Until(t, 5*time.Second, "the key's last use to be recorded", func() bool {
			k, err := h.Store.GetAPIKey(context.Background(), org.KeyID)
			return err == nil && k.LastUsedAt != nil
		})
	})

	t.Run("RevocationTakesEffect", func(t *testing.T) {
		t.Parallel()
		key, row := h.NewKey(t, org.ID, "short-lived")
		require.Equal(t, http.StatusOK, h.Do(t, "GET", "/api/v1/usage", key, nil).Status)
		_, err := h.Store.RevokeAPIKey(context.Background(), row.ID)
		require.NoError(t, err)
		// The key was cached by the first request; the revocation reaches
		// the cache by announcement (within a second; polled here).
		requireRefusedSoon(t, h, key)
	})
}

// requireRefusedSoon polls until key gets the 401 of a revoked key.
func requireRefusedSoon(t *testing.T, h *apitest.Harness, key string) {
	t.Helper()
	poll.Until(t, 5*time.Second, "the revoked key to be refused at "+h.BaseURL, func() bool {
		return h.Do(t, "GET", "/api/v1/usage", key, nil).Status == http.StatusUnauthorized
	})
	h.Do(t, "GET", "/api/v1/usage", key, nil).RequireError(t, 401, "api_key_invalid", "")
}

// Two application instances both cache a key; revoking it through one (or
// deleting it in SQL) stops it in both, and an organization's new override
// reaches both, without waiting for any cache to expire. (The same across
// real processes: tests/multiprocess.)
func TestRevocationReachesEveryInstance(t *testing.T) {
	t.Parallel()
	a := start(t)
	b := start(t)
	for _, h := range []*apitest.Harness{a, b} {
		poll.Until(t, 5*time.Second, "the key cache to listen", h.App.AuthCache().Live)
	}
	org := a.NewOrg(t, "free", true)
	ctx := context.Background()
	key, row := a.NewKey(t, org.ID, "shared")
	gone, goneRow := a.NewKey(t, org.ID, "deleted")
	for _, h := range []*apitest.Harness{a, b} {
		require.Equal(t, http.StatusOK, h.Do(t, "GET", "/api/v1/usage", key, nil).Status)
		require.Equal(t, http.StatusOK, h.Do(t, "GET", "/api/v1/usage", gone, nil).Status)
	}

	_, err := a.Store.RevokeAPIKey(ctx, row.ID)
	require.NoError(t, err)
	_, err = a.Store.Pool().Exec(ctx, "DELETE FROM api_keys WHERE id = $1", goneRow.ID)
	require.NoError(t, err)
	for _, h := range []*apitest.Harness{a, b} {
		requireRefusedSoon(t, h, key)
		requireRefusedSoon(t, h, gone)
	}

	// The organization's limits were cached by both; a new read override
	// shows in both.
	setRateOverrides(t, a, org, nil, 77)
	for _, h := range []*apitest.Harness{a, b} {
		poll.Until(t, 5*time.Second, "the new read limit at "+h.BaseURL, func() bool {
			return h.Do(t, "GET", "/api/v1/usage", org.Key, nil).Header.Get("X-RateLimit-Limit") == "77"
		})
	}
}

func flipChar(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

// TestEveryOperationRequiresAKey walks the contract, so a new operation
// without authentication fails here.
func TestEveryOperationRequiresAKey(t *testing.T) {
	t.Parallel()
	h := start(t)
	spec, err := api.GetSpec()
	require.NoError(t, err)
	n := 0
	for path, item := range spec.Paths.Map() {
		for method := range item.Operations() {
			p := strings.NewReplacer("{scan_id}", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", "{schedule_id}", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", "{check_id}", "robots_txt_present", "{page_id}", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", "{share_id}", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", "{log_id}", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11").Replace(path)
			r := h.Do(t, method, "/api/v1"+p, "", nil)
			r.RequireError(t, http.StatusUnauthorized, "api_key_required", "")
			n++
		}
	}
	require.Equal(t, 36, n, "the specification has 36 operations")
}
