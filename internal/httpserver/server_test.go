package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/dbmigrate"
	"github.com/geoscan/geoscan/internal/pgtest"
	"github.com/geoscan/geoscan/internal/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// failingHandlers panics in one operation and fails in another; every other
// operation is left unimplemented (nil interface) and must not be reached.
type failingHandlers struct{ api.StrictServerInterface }

func (failingHandlers) GetUsage(context.Context, api.GetUsageRequestObject) (api.GetUsageResponseObject, error) {
	panic("boom: geo_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
}

func (failingHandlers) ListScans(context.Context, api.ListScansRequestObject) (api.ListScansResponseObject, error) {
	return nil, errors.New("database on fire at 10.0.0.7")
}

func TestUnexpectedFailuresBecomeInternalErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, pgtest.URL())
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	require.NoError(t, dbmigrate.Up(ctx, pool))
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "failing", "free", true)
	require.NoError(t, err)
	key, _, err := st.CreateAPIKey(ctx, org.ID, "")
	require.NoError(t, err)

	var logs strings.Builder
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	e, err := New(Deps{Logger: logger, Store: st, Handler: failingHandlers{}, RequestTimeout: 5 * time.Second})
	require.NoError(t, err)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	for _, path := range []string{"/api/v1/usage", "/api/v1/scans"} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("X-API-Key", key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()

		require.Equal(t, http.StatusInternalServerError, resp.StatusCode, path)
		var env struct {
			Error struct {
				Type, Code, Message string
				Param               *string
			}
		}
		require.NoError(t, json.Unmarshal(body, &env), string(body))
		require.Equal(t, "api_error", env.Error.Type)
		require.Equal(t, "internal_error", env.Error.Code)
		require.Nil(t, env.Error.Param)
		requestID := resp.Header.Get("X-Request-Id")
		require.NotEmpty(t, requestID)
		require.Contains(t, env.Error.Message, requestID, "the message carries the request id")
		require.NotContains(t, string(body), "boom")
		require.NotContains(t, string(body), "10.0.0.7", "internal details stay in the logs")
	}
	require.Contains(t, logs.String(), "database on fire")
	require.NotContains(t, logs.String(), "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "keys are redacted from logs")
}
