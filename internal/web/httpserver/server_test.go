package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/puddle/v2"
	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/dbmigrate"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/web/auth"
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
	k, err := auth.Issue()
	require.NoError(t, err)
	_, err = st.CreateAPIKey(ctx, store.NewAPIKey{OrgID: org.ID, Hash: k.Hash, DisplayPrefix: k.Display})
	require.NoError(t, err)
	key := k.Key

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

// blockingHandlers waits in ListSchedules until the request's context ends.
type blockingHandlers struct {
	api.StrictServerInterface
	started chan struct{}
}

func (b blockingHandlers) ListSchedules(ctx context.Context, _ api.ListSchedulesRequestObject) (api.ListSchedulesResponseObject, error) {
	close(b.started)
	<-ctx.Done()
	return nil, fmt.Errorf("list schedules: %w", ctx.Err())
}

// newTestServer serves handlers over a migrated package database and
// returns its URL, a valid key and the log.
func newTestServer(t *testing.T, handlers api.StrictServerInterface) (url, key string, logs *syncLog) {
	t.Helper()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, pgtest.URL())
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	require.NoError(t, dbmigrate.Up(ctx, pool))
	st := store.New(pool)
	org, err := st.CreateOrganization(ctx, "edge", "free", true)
	require.NoError(t, err)
	k, err := auth.Issue()
	require.NoError(t, err)
	_, err = st.CreateAPIKey(ctx, store.NewAPIKey{OrgID: org.ID, Hash: k.Hash, DisplayPrefix: k.Display})
	require.NoError(t, err)
	key = k.Key
	logs = &syncLog{}
	e, err := New(Deps{Logger: slog.New(slog.NewJSONHandler(logs, nil)), Store: st, Handler: handlers, RequestTimeout: 30 * time.Second})
	require.NoError(t, err)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv.URL, key, logs
}

type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestClientDisconnectIsNotAFailure(t *testing.T) {
	t.Parallel()
	h := blockingHandlers{started: make(chan struct{})}
	url, key, logs := newTestServer(t, h)

	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/api/v1/schedules", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", key)
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-h.started
	cancel() // the client goes away while the handler works
	require.ErrorIs(t, <-done, context.Canceled)

	poll.For(t, 10*time.Second, func() (string, bool) { return logs.String(), strings.Contains(logs.String(), `"status":499`) })
	require.Contains(t, logs.String(), "client disconnected before the response")
	require.Contains(t, logs.String(), `"status":499`, "the request log records the disconnect")
	require.NotContains(t, logs.String(), `"level":"ERROR"`)
	require.NotContains(t, logs.String(), "internal_error")
}

func TestUnavailableDatabaseIs503(t *testing.T) {
	t.Parallel()
	cfg, err := pgconn.ParseConfig("postgres://nobody@127.0.0.1:1/none?connect_timeout=1")
	require.NoError(t, err)
	_, connectErr := pgconn.ConnectConfig(context.Background(), cfg)
	require.Error(t, connectErr)
	for _, err := range []error{
		connectErr,
		fmt.Errorf("begin: %w", connectErr),
		puddle.ErrClosedPool,
		fmt.Errorf("list: %w", pgconn.ErrConnClosed),
		&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"},
		&pgconn.PgError{Code: "57P03", Message: "the database system is starting up"},
		&pgconn.PgError{Code: "08006"},
		&pgconn.PgError{Code: "53300"},
		&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET},
		context.DeadlineExceeded,
		echo.ErrServiceUnavailable.WithInternal(context.DeadlineExceeded),
	} {
		e := toAPIError(err)
		require.Equal(t, http.StatusServiceUnavailable, e.Status, "%v", err)
		require.Equal(t, "service_unavailable", string(e.Code), "%v", err)
		require.Positive(t, e.RetryAfter, "%v", err)
	}
	for _, err := range []error{
		&pgconn.PgError{Code: "23505", Message: "duplicate key"},
		&pgconn.PgError{Code: "22021", Message: "invalid byte sequence for encoding"},
		errors.New("something else"),
		io.ErrUnexpectedEOF, // not from the database
	} {
		require.False(t, store.Unavailable(err), "%v", err)
		require.Equal(t, http.StatusInternalServerError, toAPIError(err).Status, "%v", err)
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	key := "geo_" + strings.Repeat("A", 40)
	for in, want := range map[string]string{
		"/api/v1/scans/6f1c0e2a-6a55-4c1b-9b1e-1a2b3c4d5e6f": "/api/v1/scans/6f1c0e2a-6a55-4c1b-9b1e-1a2b3c4d5e6f",
		"/api/v1/" + key:                 "/api/v1/geo_[redacted]",
		"a " + key + " b " + key:         "a geo_[redacted] b geo_[redacted]",
		"geo_abc is too short a key":     "geo_abc is too short a key",
		"GEO_" + strings.Repeat("A", 40): "GEO_" + strings.Repeat("A", 40),
		"":                               "",
		// Bytes a path or an error may carry around a key.
		"/a\x00" + key + "\x00b": "/a\x00geo_[redacted]\x00b",
		"x\r\n" + key + "\r":     "x\r\ngeo_[redacted]\r",
		"geo_":                   "geo_",
	} {
		require.Equal(t, want, redact(in), in)
	}
}

// A generated request id is a version 4 UUID, different every time.
func TestNewRequestID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := newRequestID()
		u, err := uuid.Parse(id)
		require.NoError(t, err)
		require.Equal(t, uuid.Version(4), u.Version(), id)
		require.Equal(t, uuid.RFC4122, u.Variant(), id)
		require.Equal(t, u.String(), id)
		require.False(t, seen[id], "repeated id %s", id)
		seen[id] = true
	}
}
