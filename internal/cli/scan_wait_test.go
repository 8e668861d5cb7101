package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestProgressBar(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		done, planned, width int
		want                 string
	}{
		{212, 500, 12, "[#####.......] 212/500 pages"},
		{0, 500, 10, "[..........] 0/500 pages"},
		{500, 500, 10, "[##########] 500/500 pages"},
		{1, 3, 6, "[##....] 1/3 pages"},
		{7, 0, 4, "[....] 7/0 pages"},  // nothing planned yet
		{9, 5, 5, "[#####] 9/5 pages"}, // more done than planned fills it, no more
		{-1, -2, 3, "[...] 0/0 pages"}, // nonsense from a server is held to zero
		{499, 500, 24, "[#######################.] 499/500 pages"},
	} {
		require.Equal(t, c.want, progressBar(c.done, c.planned, c.width), "%d/%d", c.done, c.planned)
	}
}

// TestWaitShowsCrawlProgress answers --wait with a whole-site audit that
// moves from 2 to 7 of 10 pages, then completes: on a terminal the bar is
// redrawn in place and the last line ends the line; elsewhere each new
// count is a line of its own.
func TestWaitShowsCrawlProgress(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	site := "https://example.com/\x1b[2Jshop"
	newServer := func() *httptest.Server {
		var mu sync.Mutex
		polls := 0
		states := []struct {
			status      string
			done, total int
		}{{"running", 2, 10}, {"running", 2, 10}, {"running", 7, 10}, {"completed", 10, 10}}
		scan := func(i int) map[string]any {
			st := states[min(i, len(states)-1)]
			s := map[string]any{
				"id": id, "url": site, "domain": "example.com", "brand_name": "Example",
				"status": st.status, "created_at": time.Now().UTC(), "updated_at": time.Now().UTC(), "max_pages": 10,
				"progress": map[string]any{"pages_done": st.done, "pages_planned": st.total},
			}
			if st.status == "completed" {
				s["overall_score"], s["overall_grade"] = 71.5, "C"
			}
			return s
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			switch {
			case r.Method == http.MethodPost && r.URL.Path == "/api/v1/scans":
				w.WriteHeader(http.StatusCreated)
				s := scan(0)
				s["status"], s["progress"] = "pending", nil
				_ = json.NewEncoder(w).Encode(s)
			case r.Method == http.MethodGet && r.URL.Path == "/api/v1/scans/"+id.String():
				mu.Lock()
				i := polls
				polls++
				mu.Unlock()
				_ = json.NewEncoder(w).Encode(scan(i))
			default:
				w.WriteHeader(http.StatusNotFound)
			}
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	run := func(tty bool) (int, string, string) {
		srv := newServer()
		vars := map[string]string{"GEOSCAN_API_URL": srv.URL, "GEOSCAN_API_KEY": "geo_test"}
		var stdout, stderr bytes.Buffer
		e := env{
			getenv: func(k string) string { return vars[k] }, stdout: &stdout, stderr: &stderr,
			terminal: func(w io.Writer) bool { return tty && w == &stderr },
		}
		code := mainWith(context.Background(), e, []string{"scan", "create", "https://example.com/", "--max-pages", "10", "--wait"})
		return code, stdout.String(), stderr.String()
	}

	code, out, errOut := run(false)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "completed")
	require.NotContains(t, errOut, "\r", "no in-place redraw when stderr is not a terminal")
	require.Equal(t, []string{
		"scan " + id.String() + " is running",
		"scan " + id.String() + " [####....................] 2/10 pages",
		"scan " + id.String() + " [################........] 7/10 pages",
		"scan " + id.String() + " completed",
	}, strings.Split(strings.TrimSuffix(errOut, "\n"), "\n"), "one line per change, the count unchanged is not repeated")

	code, _, errOut = run(true)
	require.Equal(t, 0, code, errOut)
	frames := strings.Split(errOut, "\r\x1b[K")
	require.Len(t, frames, 6, "a frame per poll, and the last line: %q", errOut)
	require.Contains(t, frames[1], "[####....................] 2/10 pages")
	require.Contains(t, frames[3], "[################........] 7/10 pages")
	for _, f := range frames[1:4] {
		require.NotContains(t, f, "\n", "redrawn in place")
		require.Contains(t, f, `https://example.com/\x1b[2Jshop is running`, "the site's text is escaped")
	}
	require.True(t, strings.HasSuffix(errOut, "\n"), "the bar ends with its line")
	require.Contains(t, frames[5], `https://example.com/\x1b[2Jshop completed after`)
	requireSafe(t, strings.ReplaceAll(errOut, "\r\x1b[K", ""))
}
