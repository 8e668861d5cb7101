package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// hostile is text a site, a user or a server could have stored: a screen
// clear (ESC [ 2 J), a bell, a CSI colour, a C1 CSI (U+009B), a
// right-to-left override and a right-to-left isolate.
const hostile = "Acme\x1b[2J\a\x1b[31mred\u009b1m \u202eevil\u2067iso\u2069 end"

// hostileShown is hostile as a terminal must show it.
const hostileShown = `Acme\x1b[2J\a\x1b[31mred\u009b1m \u202eevil\u2067iso\u2069 end`

func TestEscape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"Acme Corp", "Acme Corp"},
		{"café 東京 🚀 a\\b", "café 東京 🚀 a\\b"},
		{"\x1b[2J", `\x1b[2J`},
		{"bell\a", `bell\a`},
		{"\x1b]0;title\a", `\x1b]0;title\a`},
		{"tab\tline\nreturn\r", `tab\tline\nreturn\r`},
		{"\x00\x7f", `\x00\x7f`},
		{"c1 \u009b31m \u0085", `c1 \u009b31m \u0085`},
		{"\u202aLRE\u202bRLE\u202cPDF\u202dLRO\u202eRLO", `\u202aLRE\u202bRLE\u202cPDF\u202dLRO\u202eRLO`},
		{"\u2066LRI\u2067RLI\u2068FSI\u2069PDI", `\u2066LRI\u2067RLI\u2068FSI\u2069PDI`},
		{"\u200eLRM\u200fRLM\u061cALM", `\u200eLRM\u200fRLM\u061cALM`},
		{"line\u2028para\u2029", `line\u2028para\u2029`},
		{"raw \x9b byte \xff", `raw \x9b byte \xff`},
		{"cut \xe2\x80", `cut \xe2\x80`},
		{hostile, hostileShown},
	} {
		require.Equal(t, tc.want, escape(tc.in), "%q", tc.in)
		requireSafe(t, escape(tc.in))
	}
	require.Equal(t, "a\n\tb\\x1b", escapeKeeping("a\n\tb\x1b", true), "text of several lines keeps its line breaks and tabs")

	// printf escapes its arguments whatever the verb, never its format.
	var b bytes.Buffer
	printf(&b, "\r\x1b[K%s|%v|%q|%-6s|%d|%s\n", hostile, fmt.Errorf("e\x1b"), "q\u202e", "x\a", 7, lines("l1\nl2\x1b"))
	require.Equal(t, "\r\x1b[K"+hostileShown+`|e\x1b|"q\u202e"|x\a   |7|l1`+"\n"+`l2\x1b`+"\n", b.String())
}

// requireSafe fails when out holds anything that acts on a terminal: a
// control character other than the layout's line breaks and tabs (the
// flag package's help), a bidi control, a line or paragraph separator, or
// a byte that is not UTF-8.
func requireSafe(t *testing.T, out string) {
	t.Helper()
	require.True(t, utf8.ValidString(out), "not UTF-8: %.300q", out)
	for i, r := range out {
		bad := (unicode.IsControl(r) && r != '\n' && r != '\t') || unicode.Is(unicode.Bidi_Control, r) || unicode.In(r, unicode.Zl, unicode.Zp)
		require.False(t, bad, "%U reaches the terminal at byte %d: %.300q", r, i, out[max(0, i-40):])
	}
}

// Every print of the package's commands goes through printf (or sprintf):
// a call of fmt's printers may only print constants, and the format of
// printf and sprintf is a constant, so no text from a user, a site or the
// server reaches a terminal unescaped. Raw writes (--json, documents) are
// io.Writer.Write calls and not printers.
func TestPrintsGoThroughEscaping(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	consts := map[string]bool{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		require.NoError(t, err)
		files = append(files, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						consts[n.Name] = true
					}
				}
			}
		}
	}
	var constant func(e ast.Expr) bool
	constant = func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.BasicLit:
			return true
		case *ast.Ident:
			return consts[e.Name]
		case *ast.BinaryExpr:
			return constant(e.X) && constant(e.Y)
		case *ast.ParenExpr:
			return constant(e.X)
		}
		return false
	}
	printers := map[string]int{ // fmt's printers: the index of their first printed argument
		"Fprint": 1, "Fprintf": 1, "Fprintln": 1, "Print": 0, "Printf": 0, "Println": 0,
	}
	for _, f := range files {
		name := fset.File(f.Pos()).Name()
		if name == "terminal.go" {
			continue // the escaping itself
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			at := fset.Position(call.Pos())
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				pkg, ok := fn.X.(*ast.Ident)
				first, printer := printers[fn.Sel.Name]
				if !ok || pkg.Name != "fmt" || !printer {
					return true
				}
				for _, a := range call.Args[first:] {
					require.True(t, constant(a), "%s: fmt.%s prints something that is not a constant; use printf", at, fn.Sel.Name)
				}
			case *ast.Ident:
				switch fn.Name {
				case "printf":
					require.True(t, constant(call.Args[1]), "%s: the format of printf must be a constant", at)
				case "sprintf":
					require.True(t, constant(call.Args[0]), "%s: the format of sprintf must be a constant", at)
				}
			}
			return true
		})
	}
}

// TestHostileTextIsEscaped stores hostile text where every client command
// reads it (a scan's brand, URL, project and error, its report's summary,
// titles and check summaries, its dossier, a schedule) and shows it through
// each human-readable command: nothing reaches the output raw, and the
// escapes show that something was there. --json and a document written
// anywhere but a terminal stay exactly what the API sent.
func TestHostileTextIsEscaped(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)
	ctx := context.Background()
	pool := c.h.Store.Pool()

	code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.Docs), "--wait", "--project", "hostile")
	require.Equal(t, 0, code, "stderr: %s", errOut)
	id := scanID(t, out)
	exec := func(sql string, args ...any) {
		t.Helper()
		_, err := pool.Exec(ctx, sql, args...)
		require.NoError(t, err)
	}
	exec(`UPDATE scans SET brand_name = $2, project = $2, url = url || $2 WHERE id = $1`, id, hostile)
	// Every title and check summary of the marketing report, its brand and
	// executive summary; the dossier's texts and platform.
	exec(`UPDATE reports SET body = jsonb_set(jsonb_set(jsonb_set(jsonb_set(body,
		'{marketing,brand_name}', to_jsonb($2::text)),
		'{marketing,url}', to_jsonb((body->'marketing'->>'url') || $2)),
		'{marketing,summaries,executive}', to_jsonb($2 || ' ' || (body->'marketing'->'summaries'->>'executive'))),
		'{marketing,checks}', (SELECT jsonb_agg(jsonb_set(jsonb_set(ch, '{title}', to_jsonb($2 || (ch->>'title'))),
			'{summary}', to_jsonb($2 || (ch->>'summary'))) ORDER BY i)
			FROM jsonb_array_elements(body->'marketing'->'checks') WITH ORDINALITY AS x(ch, i)))
		WHERE scan_id = $1`, id, hostile)
	exec(`UPDATE triage_dossiers SET body = jsonb_set(jsonb_set(jsonb_set(jsonb_set(body,
		'{marketing,summary_paragraph}', to_jsonb($2::text)),
		'{marketing,platform,cms}', to_jsonb($2::text)),
		'{marketing,risk_lenses}', (SELECT jsonb_agg(jsonb_set(l, '{label}', to_jsonb($2 || (l->>'label'))) ORDER BY i)
			FROM jsonb_array_elements(body->'marketing'->'risk_lenses') WITH ORDINALITY AS x(l, i))),
		'{marketing,priority_actions}', (SELECT coalesce(jsonb_agg(jsonb_set(a, '{label}', to_jsonb($2 || (a->>'label'))) ORDER BY i), '[]')
			FROM jsonb_array_elements(body->'marketing'->'priority_actions') WITH ORDINALITY AS x(a, i)))
		WHERE scan_id = $1`, id, hostile)
	// A failed scan with the server's error in it; it has no job, so no
	// worker touches it.
	failed := uuid.New()
	exec(`INSERT INTO scans (id, org_id, url, domain, brand_name, status, error_code, error_message)
		VALUES ($1, $2, 'https://lumen-docs.test/', 'lumen-docs.test', $3, 'failed', 'fetch_failed', $3)`, failed, c.org.ID, hostile)

	code, out, errOut = c.geoscan(t, "schedule", "create", c.sites.URL(testsite.Docs))
	require.Equal(t, 0, code, errOut)
	schedule := scanID(t, out)
	exec(`UPDATE schedules SET brand_name = $2, url = url || $2 WHERE id = $1`, schedule, hostile)

	for _, args := range [][]string{
		{"scan", "get", id},
		{"scan", "get", failed.String()},
		{"scan", "list"},
		{"scan", "list", "--all"},
		{"scan", "report", id},
		{"scan", "triage", id},
		{"scan", "checks", id},
		{"schedule", "get", schedule},
		{"schedule", "list"},
	} {
		code, out, errOut := c.geoscan(t, args...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		requireSafe(t, out)
		requireSafe(t, errOut)
		require.Contains(t, out, `\x1b[2J`, "%v shows that something was there", args)
		require.Contains(t, out, `\u202e`, "%v", args)
		require.Contains(t, out, `\u009b`, "%v", args)
	}
	code, out, errOut = c.geoscan(t, "scan", "report", id)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, hostileShown+" (", "the brand, escaped whole")

	// --json is the API's body byte for byte, hostile text and all.
	for _, args := range [][]string{
		{"scan", "get", id, "--json"},
		{"scan", "report", id, "--json"},
		{"scan", "triage", id, "--json"},
		{"schedule", "get", schedule, "--json"},
	} {
		code, out, errOut := c.geoscan(t, args...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		path := map[string]string{
			"scan get": "/scans/" + id, "scan report": "/scans/" + id + "/report",
			"scan triage": "/scans/" + id + "/triage", "schedule get": "/schedules/" + schedule,
		}[args[0]+" "+args[1]]
		api := c.h.Do(t, "GET", "/api/v1"+path, c.org.Key, nil)
		require.Equal(t, http.StatusOK, api.Status)
		require.Equal(t, strings.TrimSuffix(string(api.Body), "\n")+"\n", out, "%v", args)
		require.Contains(t, out, "\u202e", "%v: raw, as sent", args)
	}

	// The export: as sent to a pipe or a file, escaped on a terminal.
	code, raw, errOut := c.geoscan(t, "scan", "export", "--project", hostile)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, raw, "\x1b[2J", "an export to a pipe is the CSV as sent")
	csvPath := filepath.Join(t.TempDir(), "scans.csv")
	code, _, errOut = c.geoscan(t, "scan", "export", "--project", hostile, "-o", csvPath)
	require.Equal(t, 0, code, errOut)
	written, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	require.Equal(t, raw, string(written), "an export written to a file is the CSV as sent")
	onTerminal := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		vars := map[string]string{"GEOSCAN_API_URL": c.h.BaseURL, "GEOSCAN_API_KEY": c.org.Key}
		e := env{
			getenv: func(k string) string { return vars[k] }, stdout: &stdout, stderr: &stderr, httpClient: c.h.HTTP,
			terminal: func(io.Writer) bool { return true },
		}
		code := mainWith(ctx, e, args)
		return code, stdout.String(), stderr.String()
	}
	code, out, errOut = onTerminal("scan", "export", "--project", hostile)
	require.Equal(t, 0, code, errOut)
	requireSafe(t, out)
	require.Equal(t, strings.Count(raw, "\n"), strings.Count(out, "\n"), "the rows stay rows")
	require.Contains(t, out, hostileShown)
	code, out, errOut = onTerminal("scan", "pdf", id, "-o", "-")
	require.Equal(t, 0, code, errOut)
	requireSafe(t, out)
	require.True(t, strings.HasPrefix(out, "%PDF-"))
}

// TestServerTextIsEscapedInErrorsAndProgress answers the client commands
// with a server that puts hostile text in what the CLI prints on stderr:
// the --wait progress line redrawn on a terminal, the failed scan's exit
// message, the error envelope, and a body that is not the API's.
func TestServerTextIsEscapedInErrorsAndProgress(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	scan := func(status string) map[string]any {
		s := map[string]any{
			"id": id, "url": "https://example.com/" + hostile, "domain": "example.com", "brand_name": hostile,
			"status": status, "created_at": time.Now().UTC(), "updated_at": time.Now().UTC(),
		}
		if status == "failed" {
			s["error_code"] = "fetch_failed\x1b[8m"
			s["error_message"] = hostile + "\nsecond line"
		}
		return s
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/scans":
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(scan("pending"))
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/scans/"+id.String():
			_ = json.NewEncoder(w).Encode(scan("failed"))
		case r.URL.Path == "/api/v1/usage":
			w.WriteHeader(http.StatusForbidden)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
				"type": "forbidden", "code": "nope\x1b[5m", "message": hostile, "param": "p\u202e",
			}})
		default:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "<h1>bad \x1b[2J gateway \x9b\u202e</h1>")
		}
	}))
	t.Cleanup(srv.Close)
	vars := map[string]string{"GEOSCAN_API_URL": srv.URL, "GEOSCAN_API_KEY": "geo_test"}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		e := env{
			getenv: func(k string) string { return vars[k] }, stdout: &stdout, stderr: &stderr,
			terminal: func(w io.Writer) bool { return w == &stderr },
		}
		code := mainWith(context.Background(), e, args)
		return code, stdout.String(), stderr.String()
	}

	code, out, errOut := run("scan", "create", "https://example.com/", "--wait")
	require.Equal(t, exitScanFailed, code, errOut)
	requireSafe(t, out)
	require.Contains(t, errOut, "\r\x1b[K", "the progress line is redrawn in place")
	requireSafe(t, strings.ReplaceAll(errOut, "\r\x1b[K", ""))
	require.Contains(t, errOut, "https://example.com/"+hostileShown+" failed after")
	require.Contains(t, errOut, "failed: "+hostileShown+`\nsecond line (fetch_failed\x1b[8m)`)
	require.Contains(t, out, hostileShown)

	code, _, errOut = run("usage")
	require.Equal(t, 1, code)
	requireSafe(t, errOut)
	require.Contains(t, errOut, "geoscan: "+hostileShown+` (nope\x1b[5m, param p\u202e, HTTP 403`)

	code, _, errOut = run("scan", "list")
	require.Equal(t, 1, code)
	requireSafe(t, errOut)
	require.Contains(t, errOut, `HTTP 502 <h1>bad \x1b[2J gateway \x9b\u202e</h1>`)

	// The flag package echoes the command line.
	code, _, errOut = run("scan", "list", "--\x1b[2J")
	require.Equal(t, 2, code)
	requireSafe(t, errOut)
	require.Contains(t, errOut, `-\x1b[2J`)
}

// TestAdminTextIsEscaped shows names, emails' subjects and bodies stored
// by the administration commands and the mail job.
func TestAdminTextIsEscaped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	st := store.New(pgtest.Pool(t))

	code, out, errOut := runCLI(t, vars, "org", "create", "--name", hostile)
	require.Equal(t, 0, code, errOut)
	orgID := strings.TrimSpace(out)
	code, _, errOut = runCLI(t, vars, "member", "add", "--org", orgID, "--email", "ada@example.com", "--name", hostile)
	require.Equal(t, 0, code, errOut)
	code, _, errOut = runCLI(t, vars, "key", "create", "--org", orgID, "--name", hostile)
	require.Equal(t, 0, code, errOut)
	m := storedMessage(t, st, uuid.MustParse(orgID), "hostile.example.com", store.EmailHeld)
	_, err := st.Pool().Exec(ctx, `UPDATE outbox SET subject = $2, text_body = $3 WHERE id = $1`,
		m.ID, hostile, "Hello,\n\n"+hostile+"\nBye\n")
	require.NoError(t, err)

	for _, args := range [][]string{
		{"org", "show", orgID},
		{"member", "list", "--org", orgID},
		{"key", "list", "--org", orgID},
		{"outbox", "list", "--org", orgID},
		{"outbox", "show", m.ID.String()},
		{"outbox", "send", m.ID.String(), "--dry-run"},
	} {
		code, out, errOut := runCLI(t, vars, args...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		requireSafe(t, out)
		require.Contains(t, out, hostileShown, "%v", args)
	}
	code, out, _ = runCLI(t, vars, "outbox", "show", m.ID.String())
	require.Equal(t, 0, code)
	require.Contains(t, out, "Hello,\n\n"+hostileShown+"\nBye\n", "an email's body keeps its lines")
}
