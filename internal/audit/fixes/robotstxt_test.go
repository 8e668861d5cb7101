package fixes

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/robots"
)

// The robots.txt patches, on files shaped the way the web writes them:
// groups shared by a training and a search crawler, blanket blocks, the
// typos and line ends Google reads, comments in the site's language,
// several groups for one token, retired tokens. Each patch is applied
// with a strict applier to the file as read, and the result is read with
// package robots (Google's matcher): the crawlers to let in are allowed,
// and every other crawler keeps its verdict.
func TestPatchRobots(t *testing.T) {
	t.Parallel()
	search := []string{"OAI-SearchBot", "Claude-SearchBot", "PerplexityBot", "Googlebot", "Bingbot", "Applebot"}
	for _, tc := range []struct {
		name string
		body string
		work robotsWork
		// blocked must stay blocked at /; kept lists path verdicts the
		// patch must keep for a crawler it lets in.
		blocked []string
		kept    map[string]bool // "token path" → allowed
		diff    []string        // lines the diff holds
		probe   []string        // more paths every other crawler keeps its verdict at
		wantErr string
	}{
		{
			name:    "own group blocks the crawler",
			body:    "User-agent: GPTBot\nDisallow: /\n\nUser-agent: OAI-SearchBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
			work:    robotsWork{allow: []string{"OAI-SearchBot"}, paths: []string{"/"}},
			blocked: []string{"GPTBot"},
			diff:    []string{"@@ -2,7 +2,6 @@", "-Disallow: /"},
		},
		{
			name:    "search crawler shares a group with a training crawler, comment in German",
			body:    "# Keine Nutzung für KI-Training, bitte.\nUser-agent: GPTBot\nUser-agent: OAI-SearchBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /intern/\n",
			work:    robotsWork{allow: []string{"OAI-SearchBot"}, paths: []string{"/"}},
			blocked: []string{"GPTBot", "CCBot"},
			kept:    map[string]bool{"OAI-SearchBot /intern/seite": false},
			diff:    []string{"-User-agent: OAI-SearchBot", "+User-agent: OAI-SearchBot", "+Disallow: /intern/"},
		},
		{
			name:    "blanket block of everyone, comment in Japanese",
			body:    "# すべてのクローラーを禁止します\nUser-agent: *\nDisallow: /\nDisallow: /cart/\n\nSitemap: https://example.jp/sitemap.xml\n",
			work:    robotsWork{allow: search, paths: []string{"/"}},
			blocked: []string{"GPTBot", "CCBot", unnamedAgent},
			kept:    map[string]bool{"Googlebot /cart/x": false, "Bingbot /": true},
			diff:    []string{"+User-agent: Applebot", "+Allow: /", "+Disallow: /cart/"},
		},
		{
			name:    "WordPress rules stay for the crawlers let in",
			body:    "User-agent: *\nDisallow: /\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /*?s=\n",
			work:    robotsWork{allow: []string{"PerplexityBot"}, paths: []string{"/"}},
			blocked: []string{unnamedAgent},
			kept: map[string]bool{
				"PerplexityBot /wp-admin/options.php": false, "PerplexityBot /wp-admin/admin-ajax.php": true, "PerplexityBot /?s=ki": false,
			},
		},
		{
			name: "CRLF, a byte-order mark and no final line end, Spanish comment",
			body: "\xEF\xBB\xBF# Reglas del sitio\r\nUser-agent: *\r\nAllow: /\r\n\r\nUser-agent: Claude-SearchBot\r\nDisallow: /",
			work: robotsWork{allow: []string{"Claude-SearchBot"}, paths: []string{"/"}},
			diff: []string{"-Disallow: /", `\ No newline at end of file`},
		},
		{
			name: "typos Google reads",
			body: "useragent: PerplexityBot\ndissallow: /\n\nuser-agent: *\nallow: /\n",
			work: robotsWork{allow: []string{"PerplexityBot"}, paths: []string{"/"}},
			diff: []string{"-dissallow: /"},
		},
		{
			name: "a product token with a version",
			body: "User-agent: Bingbot/2.0\nDisallow: /\n",
			work: robotsWork{allow: []string{"Bingbot"}, paths: []string{"/"}},
			diff: []string{"-Disallow: /"},
		},
		{
			name: "two groups name the crawler; only the blocking rule goes",
			body: "User-agent: Claude-SearchBot\nDisallow: /privat/\n\nUser-agent: Claude-SearchBot\nDisallow: /\n",
			work: robotsWork{allow: []string{"Claude-SearchBot"}, paths: []string{"/"}},
			kept: map[string]bool{"Claude-SearchBot /privat/notiz": false},
			diff: []string{"@@ -2,4 +2,3 @@", "-Disallow: /"},
		},
		{
			name:    "the homepage's own path is blocked, French site",
			body:    "User-agent: *\nDisallow: /fr/\nDisallow: /brouillons/\n",
			work:    robotsWork{allow: []string{"OAI-SearchBot", "Googlebot"}, paths: []string{"/", "/fr/accueil"}},
			kept:    map[string]bool{"OAI-SearchBot /brouillons/x": false, "Googlebot /fr/accueil": true},
			blocked: nil,
		},
		{
			name:    "retired token gets its successor",
			body:    "User-agent: anthropic-ai\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
			work:    robotsWork{successors: [][2]string{{"anthropic-ai", "ClaudeBot"}}, paths: []string{"/"}},
			blocked: []string{"ClaudeBot", "anthropic-ai"},
			diff:    []string{"@@ -1,4 +1,5 @@", "+User-agent: ClaudeBot"},
		},
		{
			name: "sitemap record after a closing comment without line end, in French",
			body: "User-agent: *\nDisallow: /admin/\n# fin du fichier",
			work: robotsWork{sitemaps: []string{"https://exemple.fr/sitemap.xml"}, paths: []string{"/"}},
			diff: []string{"-# fin du fichier", `\ No newline at end of file`, "+# fin du fichier", "+Sitemap: https://exemple.fr/sitemap.xml"},
		},
		{
			name: "an empty file gets only what it lacks",
			body: "",
			work: robotsWork{sitemaps: []string{"https://example.com/sitemap.xml"}, paths: []string{"/"}},
			diff: []string{"@@ -0,0 +1,1 @@", "+Sitemap: https://example.com/sitemap.xml"},
		},
		{
			name: "Applebot follows the Googlebot group it no longer needs",
			body: "User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
			work: robotsWork{allow: []string{"Googlebot", "Applebot"}, paths: []string{"/"}},
		},
		{
			name:  "a user-agent line without rules ends the file: the group goes before it",
			body:  "User-agent: *\nDisallow: /private/\nDisallow: /\n\nUser-agent: FooBot",
			work:  robotsWork{allow: []string{"OAI-SearchBot"}, paths: []string{"/"}},
			probe: []string{"/private/x"},
			kept:  map[string]bool{"OAI-SearchBot /private/x": false},
			diff:  []string{"+User-agent: OAI-SearchBot", " User-agent: FooBot"},
		},
		{
			name:    "rules past what crawlers read",
			body:    "User-agent: *\nDisallow: /\n" + strings.Repeat("# padding\n", robots.MaxParseBytes/10+1),
			work:    robotsWork{allow: []string{"OAI-SearchBot"}, paths: []string{"/"}},
			wantErr: "larger than",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := patchRobots([]byte(tc.body), tc.work)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			for _, l := range tc.diff {
				require.Contains(t, strings.Split(p.diff, "\n"), l, "diff:\n%s", p.diff)
			}
			applied, err := applyUnifiedDiff(tc.body, p.diff)
			require.NoError(t, err, "diff:\n%s", p.diff)
			require.Equal(t, p.result, applied, "the patch applied to the file is the file that was checked")

			before, after := robots.ParseBody(tc.body), robots.ParseBody(applied)
			for _, tok := range tc.work.allow {
				for _, path := range tc.work.paths {
					require.True(t, after.Allowed(tok, path).Allowed, "%s at %s\n%s", tok, path, applied)
				}
			}
			for _, tok := range tc.blocked {
				require.False(t, after.Allowed(tok, "/").Allowed, "%s stays blocked\n%s", tok, applied)
			}
			for k, want := range tc.kept {
				tok, path, _ := strings.Cut(k, " ")
				require.Equal(t, want, after.Allowed(tok, path).Allowed, "%s at %s\n%s", tok, path, applied)
			}
			for _, pair := range tc.work.successors {
				require.Equal(t, before.Allowed(pair[0], "/").Allowed, after.Allowed(pair[1], "/").Allowed)
			}
			changed := slices.Clone(tc.work.allow)
			for _, pair := range tc.work.successors {
				changed = append(changed, pair[1])
			}
			others := append(before.Groups(), unnamedAgent)
			for _, a := range robots.Agents {
				// Applebot follows Googlebot's group when none names it.
				if a.Fallback == "" || !slices.Contains(tc.work.allow, a.Fallback) || before.Names(a.Token) {
					others = append(others, a.Token)
				}
			}
			for _, tok := range others {
				if tok == "*" || slices.ContainsFunc(changed, func(c string) bool { return strings.EqualFold(c, tok) }) {
					continue
				}
				for _, path := range slices.Concat([]string{"/"}, tc.work.paths, tc.probe) {
					require.Equal(t, before.Allowed(tok, path).Allowed, after.Allowed(tok, path).Allowed, "%s keeps its verdict at %s\n%s", tok, path, applied)
				}
			}
			require.Subset(t, after.Sitemaps(), tc.work.sitemaps)
			require.LessOrEqual(t, len(after.Problems()), len(before.Problems()), "the patch adds no syntax problem: %v", after.Problems())
		})
	}
}

// A value that would end a robots.txt line, or start a comment, never
// becomes one.
func TestRobotsLinesCannotBeInjected(t *testing.T) {
	t.Parallel()
	for _, v := range []string{
		"https://example.com/sitemap.xml\nDisallow: /",
		"https://example.com/sitemap.xml\rUser-agent: *",
		"https://example.com/sitemap.xml\u2028Disallow: /",
		"https://example.com/sitemap.xml # comment",
		"",
	} {
		require.False(t, robotsSafe(v), "%q", v)
	}
	content, _, err := newRobotsFile([]string{"https://example.com/a.xml\nDisallow: /", "https://example.com/sitemap.xml"})
	require.NoError(t, err)
	require.Equal(t, "User-agent: *\nAllow: /\n\nSitemap: https://example.com/sitemap.xml\n", content)
	p, err := patchRobots([]byte("User-agent: *\nAllow: /\n"), robotsWork{sitemaps: []string{"https://example.com/s.xml\r\nDisallow: /"}, paths: []string{"/"}})
	require.Error(t, err, "nothing safe is left to do, so there is no patch")
	require.Nil(t, p)
}

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	body := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	f := splitText(body)

	// Changes far apart make two hunks; near ones one.
	e := newEdits()
	e.del[2] = true
	e.ins[11] = []string{"x"}
	diff := unifiedDiff("f.txt", f, e)
	require.Equal(t, "--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,4 @@\n a\n-b\n c\n d\n e\n@@ -9,4 +8,5 @@\n i\n j\n k\n+x\n l\n", diff)
	got, err := applyUnifiedDiff(body, diff)
	require.NoError(t, err)
	want, _ := e.result(f)
	require.Equal(t, want, got)

	e = newEdits()
	e.del[4], e.del[6] = true, true
	e.ins[0] = []string{"start"}
	diff = unifiedDiff("f.txt", f, e)
	require.Equal(t, 1, strings.Count(diff, "@@ -"), diff)
	got, err = applyUnifiedDiff(body, diff)
	require.NoError(t, err)
	want, _ = e.result(f)
	require.Equal(t, want, got)

	// A file without a final line end keeps it unless its end changes.
	f = splitText("a\nb")
	e = newEdits()
	e.del[1] = true
	diff = unifiedDiff("f.txt", f, e)
	require.Equal(t, "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,1 @@\n-a\n b\n\\ No newline at end of file\n", diff)
	got, err = applyUnifiedDiff("a\nb", diff)
	require.NoError(t, err)
	require.Equal(t, "b", got)
	want, _ = e.result(f)
	require.Equal(t, "b", want)

	e = newEdits()
	e.del[2] = true
	diff = unifiedDiff("f.txt", f, e)
	got, err = applyUnifiedDiff("a\nb", diff)
	require.NoError(t, err)
	require.Equal(t, "a\n", got)

	// The applier refuses a patch whose context is not the file's.
	_, err = applyUnifiedDiff("a\nc", diff)
	require.Error(t, err)
}
