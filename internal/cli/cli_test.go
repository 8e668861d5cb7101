package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store/pgcluster"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/poll"
	"github.com/geoscan/geoscan/internal/testing/testsite"
	"github.com/geoscan/geoscan/internal/web/auth"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	testsite.RemoveTempCAFiles()
	os.Exit(code)
}

// runCLI runs one command with the given environment and returns its exit
// code and output.
func runCLI(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), args, func(k string) string { return vars[k] }, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestAdminCommands(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}

	code, out, errOut := runCLI(t, vars, "org", "create", "--name", "Acme", "--plan", "pro")
	require.Equal(t, 0, code, errOut)
	orgID := strings.TrimSpace(out)
	require.Regexp(t, `^[0-9a-f-]{36}$`, orgID)

	code, out, errOut = runCLI(t, vars, "key", "create", "--org", orgID, "--name", "ci")
	require.Equal(t, 0, code, errOut)
	key := strings.TrimSuffix(out, "\n")
	require.NotContains(t, key, "\n", "the key is alone on its line")
	require.NoError(t, auth.ParseKey(key))

	code, out, errOut = runCLI(t, vars, "key", "list", "--org", orgID)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, auth.DisplayPrefix(key))
	require.NotContains(t, out, key, "listings never show a whole key")
	keyID := regexp.MustCompile(`(?m)^([0-9a-f-]{36})\s`).FindStringSubmatch(out)[1]

	code, out, errOut = runCLI(t, vars, "key", "revoke", keyID)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "revoked")
	code, out, _ = runCLI(t, vars, "key", "list", "--org", orgID)
	require.Equal(t, 0, code)
	require.NotRegexp(t, `\s-\s*\n$`, out, "the revoked column is filled")

	code, out, errOut = runCLI(t, vars, "org", "set-subscription", orgID, "inactive")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "inactive")

	code, out, _ = runCLI(t, vars, "org", "create", "--name", "Dormant", "--inactive")
	require.Equal(t, 0, code)
	require.NotEmpty(t, strings.TrimSpace(out))
}

func TestCommandErrors(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "no command"},
		{[]string{"launch"}, 2, "unknown command"},
		{[]string{"org", "create"}, 2, "--name is required"},
		{[]string{"org", "create", "--name", "x", "--plan", "gold"}, 2, "free or pro"},
		{[]string{"org", "set-subscription", "nope", "active"}, 2, "not an organization id"},
		{[]string{"org", "set-subscription", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", "active"}, 1, "no organization"},
		{[]string{"key", "create", "--org", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"}, 1, "no organization"},
		{[]string{"key", "revoke", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"}, 1, "no api key"},
	} {
		code, _, errOut := runCLI(t, vars, tc.args...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

func TestServeHelpListsEveryVariable(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, nil, "serve", "--help")
	require.Equal(t, 0, code)
	require.Empty(t, errOut, "help asked for is the answer, on stdout")
	for _, v := range []string{"DATABASE_URL", "GEOSCAN_HTTP_ADDR", "127.0.0.1:8080", "GEOSCAN_ALLOW_PRIVATE_TARGETS", "GEOSCAN_EXTRA_CA_FILE", "GEOSCAN_ENV"} {
		require.Contains(t, out, v)
	}
}

func TestServeRefusesPrivateTargetsInProduction(t *testing.T) {
	t.Parallel()
	code, _, errOut := runCLI(t, map[string]string{"DATABASE_URL": pgtest.URL(), "GEOSCAN_ALLOW_PRIVATE_TARGETS": "true"}, "serve")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "GEOSCAN_ALLOW_PRIVATE_TARGETS=true is refused in production mode")
}

// syncWriter lets the test read what a running command printed so far.
type syncWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

var (
	printedKey = regexp.MustCompile(`API key\s+(geo_[0-9A-Za-z]+)`)
	printedAPI = regexp.MustCompile(`API\s+(http://\S+/api/v1)`)
)

// startDev runs `geoscan dev` until the returned stop is called and returns
// the printed API base URL and key.
func startDev(t *testing.T, dataDir string) (api, key string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncWriter{}
	errOut := &syncWriter{}
	done := make(chan int, 1)
	vars := map[string]string{"GEOSCAN_DATA_DIR": dataDir, "GEOSCAN_HTTP_ADDR": "127.0.0.1:0", "GEOSCAN_LOG_LEVEL": "warn"}
	go func() { done <- Main(ctx, []string{"dev"}, func(k string) string { return vars[k] }, out, errOut) }()
	// A bound, not a speed: initdb and the first start take minutes on a
	// busy machine.
	printed, _ := poll.For(t, 5*time.Minute, func() (bool, bool) {
		select {
		case code := <-done:
			cancel()
			t.Fatalf("dev exited with %d before printing a key; stdout: %s\nstderr: %s", code, out.String(), errOut.String())
		default:
		}
		printed := printedKey.MatchString(out.String())
		return printed, printed
	})
	if !printed {
		cancel()
		t.Fatalf("dev printed no key within 5 min; stdout: %s\nstderr: %s", out.String(), errOut.String())
	}
	key = printedKey.FindStringSubmatch(out.String())[1]
	api = printedAPI.FindStringSubmatch(out.String())[1]
	return api, key, func() (int, string) {
		cancel()
		return <-done, out.String()
	}
}

func TestDevStartsPrivateClusterWithStableKey(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(pgcluster.EnterableTempDir(t), ".data")

	api, key, stop := startDev(t, dataDir)
	require.Equal(t, http.StatusOK, get(t, api+"/usage", key))
	code, out := stop()
	require.Equal(t, 0, code)
	require.Contains(t, out, "Stopping private PostgreSQL")
	require.FileExists(t, filepath.Join(dataDir, "postgres", "PG_VERSION"))

	api2, key2, stop2 := startDev(t, dataDir)
	require.Equal(t, key, key2, "the development key survives a restart")
	require.Equal(t, http.StatusOK, get(t, api2+"/usage", key2))
	code, _ = stop2()
	require.Equal(t, 0, code)
}

func get(t *testing.T, url, key string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, bufio.NewReader(resp.Body))
	return resp.StatusCode
}
