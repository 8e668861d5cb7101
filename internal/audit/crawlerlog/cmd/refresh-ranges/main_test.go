package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// TestRefresh serves three lists: one good, one that is an HTML error page
// with status 200, one missing. Only the good one replaces its copy.
func TestRefresh(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	manifest := crawlerlog.Manifest{Lists: []crawlerlog.ManifestList{
		{Name: "openai-gptbot", Operator: "OpenAI", URL: "https://openai.com/gptbot.json", File: "openai-gptbot.json", Status: crawlerlog.ListPresent, Fetched: "2026-08-21", CopiedFrom: "a mirror", Note: "old"},
		{Name: "bingbot", Operator: "Microsoft", URL: "https://www.bing.com/toolbox/bingbot.json", File: "bingbot.json", Status: crawlerlog.ListPresent, Fetched: "2026-08-21"},
		{Name: "duckduckgo-duckassistbot", Operator: "DuckDuckGo", URL: "https://duckduckgo.com/duckassistbot.json", Status: crawlerlog.ListAbsent},
		{Name: "new-list", Operator: "X", URL: "https://example.com/lists/new.json", Status: crawlerlog.ListAbsent},
	}}
	raw, err := json.Marshal(manifest)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, crawlerlog.ManifestFile), raw, 0o644))
	oldBing := []byte(`{"prefixes":[{"ipv4Prefix":"157.55.39.0/24"}]}`)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bingbot.json"), oldBing, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "openai-gptbot.json"), []byte(`{"prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}`), 0o644))

	newGPTBot := `{"creationTime":"2026-11-20T11:00:00Z","prefixes":[{"ipv4Prefix":"20.171.206.0/24"},{"ipv4Prefix":"20.171.207.0/24"}]}`
	mux := http.NewServeMux()
	mux.HandleFunc("GET /openai.com/gptbot.json", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(newGPTBot)) })
	mux.HandleFunc("GET /www.bing.com/toolbox/bingbot.json", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("<html><body>Please enable cookies</body></html>"))
	})
	mux.HandleFunc("GET /example.com/lists/new.json", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"prefixes":[{"ipv6Prefix":"2001:4860:4801:10::/64"}]}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	var out bytes.Buffer
	now := func() time.Time { return time.Date(2026, 11, 27, 23, 30, 0, 0, time.FixedZone("", -5*3600)) }
	err = run(context.Background(), []string{"-dir", dir, "-base-url", srv.URL}, &out, now)
	require.ErrorContains(t, err, "not refreshed: bingbot, duckduckgo-duckassistbot")

	got, err := os.ReadFile(filepath.Join(dir, "openai-gptbot.json"))
	require.NoError(t, err)
	require.Equal(t, newGPTBot, string(got), "stored as the operator publishes it")
	got, err = os.ReadFile(filepath.Join(dir, "bingbot.json"))
	require.NoError(t, err)
	require.Equal(t, oldBing, got, "an invalid download never replaces a list")
	_, err = os.Stat(filepath.Join(dir, "new-list.json"))
	require.NoError(t, err)

	raw, err = os.ReadFile(filepath.Join(dir, crawlerlog.ManifestFile))
	require.NoError(t, err)
	var m crawlerlog.Manifest
	require.NoError(t, json.Unmarshal(raw, &m))
	require.Equal(t, crawlerlog.ManifestList{Name: "openai-gptbot", Operator: "OpenAI", URL: "https://openai.com/gptbot.json", File: "openai-gptbot.json", Status: crawlerlog.ListPresent, Fetched: "2026-11-28"}, m.Lists[0])
	require.Equal(t, manifest.Lists[1], m.Lists[1])
	require.Equal(t, manifest.Lists[2], m.Lists[2])
	require.Equal(t, crawlerlog.ListPresent, m.Lists[3].Status)
	require.Equal(t, "new-list.json", m.Lists[3].File)

	// The refreshed folder loads.
	r, err := crawlerlog.LoadRanges(os.DirFS(dir))
	require.NoError(t, err)
	require.True(t, r.Has("openai-gptbot"))
	require.True(t, r.Has("new-list"))
	require.False(t, r.Has("duckduckgo-duckassistbot"))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 4, "no temporary file is left")
}
