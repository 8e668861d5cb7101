package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/debtool"
)

// commandPaths is every command of the table, groups and their
// subcommands, as words.
func commandPaths(t *testing.T) [][]string {
	t.Helper()
	var paths [][]string
	for _, n := range completionTree(context.Background()) {
		if n.path != "" {
			paths = append(paths, strings.Fields(n.path))
		}
	}
	require.Greater(t, len(paths), 40)
	return paths
}

// TestHelpOnStdoutForEveryCommand asks every command and group for help:
// the usage is the answer, so it goes to stdout, with exit 0, and nothing
// runs (no database, no server is configured here).
func TestHelpOnStdoutForEveryCommand(t *testing.T) {
	t.Parallel()
	for _, path := range commandPaths(t) {
		for _, h := range []string{"--help", "-h"} {
			args := append(slices.Clone(path), h)
			code, out, errOut := runCLI(t, nil, args...)
			require.Equal(t, 0, code, "%v: %s", args, errOut)
			require.Empty(t, errOut, "%v", args)
			require.True(t, strings.HasPrefix(out, "Usage"), "%v: %q", args, out)
		}
	}
	code, out, errOut := runCLI(t, nil, "--help")
	require.Equal(t, 0, code)
	require.Empty(t, errOut)
	require.Equal(t, usage, out)
	// A mistake still shows the usage on stderr, with exit 2.
	code, out, errOut = runCLI(t, nil, "scan", "list", "--bogus")
	require.Equal(t, 2, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "flag provided but not defined: -bogus")
	require.Contains(t, errOut, "Usage: geoscan scan list")
}

// TestJSONIsHonouredOrRefused: a command without JSON output refuses
// --json with a message that says so, instead of ignoring it.
func TestJSONIsHonouredOrRefused(t *testing.T) {
	t.Parallel()
	id := "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"
	refused := 0
	for _, n := range completionTree(context.Background()) {
		if n.path == "" || len(n.subs) > 0 {
			continue
		}
		path := strings.Fields(n.path)
		takesJSON := slices.ContainsFunc(n.flags, func(f completionFlag) bool { return f.name == "json" })
		switch {
		case n.path == "scan pdf":
			path = append(path, id)
		case n.path == "scan export":
		case takesJSON:
			continue // prints the API's JSON: the client tests read it
		}
		code, out, errOut := runCLI(t, nil, append(path, "--json")...)
		require.Equal(t, 2, code, "%v --json: %s", path, errOut)
		require.Empty(t, out)
		require.Regexp(t, `(prints no JSON|not JSON)`, errOut, "%v --json", path)
		require.NotContains(t, errOut, "flag provided but not defined", "%v: the refusal says why", path)
		refused++
	}
	require.Greater(t, refused, 20)
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := runCLI(t, nil, args...)
		require.Equal(t, 0, code, errOut)
		require.True(t, strings.HasPrefix(out, "geoscan "), out)
		require.True(t, strings.HasSuffix(out, " "+runtime.Version()+"\n"), out)
	}
	info := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-23T21:26:09Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	require.Equal(t, "geoscan v1.4.0 (commit 0123456789ab, 2026-11-23T21:26:09Z, modified) go1.26.0", versionLine(info))
	require.Equal(t, "geoscan (devel) go1.26.0", versionLine(&debug.BuildInfo{GoVersion: "go1.26.0"}))
}

// TestVersionOfABuiltBinary builds geoscan from this checkout: the go
// command stamps the commit it was built from (-buildvcs=true, whatever
// GOFLAGS says), and --version prints it.
func TestVersionOfABuiltBinary(t *testing.T) {
	t.Parallel()
	debtool.Require(t, "git", "git")
	head, err := exec.CommandContext(t.Context(), "git", "rev-parse", "HEAD").Output()
	require.NoError(t, err, "the tests run in a git checkout")
	bin := filepath.Join(t.TempDir(), "geoscan")
	build := exec.CommandContext(t.Context(), "go", "build", "-buildvcs=true", "-o", bin, "github.com/geoscan/geoscan/cmd/geoscan") //nolint:gosec // our own temporary directory
	res, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", res)
	out, err := exec.CommandContext(t.Context(), bin, "--version").Output() //nolint:gosec // the binary just built
	require.NoError(t, err)
	require.Regexp(t, `^geoscan \S+ \(commit `+string(head[:12])+`, \d{4}-\d\d-\d\dT[^)]*\) go\S+\n$`, string(out))
}

// TestCompletionScripts loads each shell's script into that shell: bash
// completes commands, subcommands, flags and flag values; zsh and fish
// parse theirs.
func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	scripts := map[string]string{}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := runCLI(t, nil, "completion", sh)
		require.Equal(t, 0, code, errOut)
		scripts[sh] = out
		path := filepath.Join(t.TempDir(), "geoscan."+sh)
		require.NoError(t, os.WriteFile(path, []byte(out), 0o600))
		debtool.Require(t, sh, sh)
		check := map[string][]string{"bash": {"-n", path}, "zsh": {"-n", path}, "fish": {"--no-execute", path}}[sh]
		res, err := exec.CommandContext(t.Context(), sh, check...).CombinedOutput() //nolint:gosec // the shells, on our own script
		require.NoError(t, err, "%s does not parse its script: %s", sh, res)
	}
	require.Contains(t, scripts["fish"], `complete -c geoscan -n "__geoscan_at 'scan create'" -l sarif -r -F`)
	require.Contains(t, scripts["zsh"], "compdef _geoscan geoscan")

	complete := func(line string) []string {
		t.Helper()
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		script := scripts["bash"] + `
COMP_WORDS=(` + strings.Join(quoteAll(words), " ") + `)
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_geoscan
printf '%s\n' "${COMPREPLY[@]}"
`
		out, err := exec.CommandContext(t.Context(), "bash", "-c", script).CombinedOutput() //nolint:gosec // our own script
		require.NoError(t, err, "%s", out)
		return strings.Fields(string(out))
	}
	require.Contains(t, complete("geoscan "), "scan")
	require.Contains(t, complete("geoscan "), "completion")
	require.Equal(t, []string{"scan", "schedule", "serve"}, sorted(complete("geoscan s")))
	require.Equal(t, []string{"share"}, complete("geoscan scan sh"))
	require.Equal(t, []string{"create", "list", "revoke"}, sorted(complete("geoscan scan share ")))
	require.Equal(t, []string{"--sarif"}, complete("geoscan scan create https://example.com/ --sa"))
	require.Contains(t, complete("geoscan scan report ID --"), "--junit")
	require.Contains(t, complete("geoscan scan report ID --"), "--fail-under")
	require.Equal(t, []string{"de", "en", "es", "fr"}, sorted(complete("geoscan scan create URL --language ")))
	require.Equal(t, []string{"engineering"}, complete("geoscan scan report ID --audience e"))
	require.Equal(t, []string{"--role"}, complete("geoscan serve --r"))
	require.Equal(t, []string{"bash"}, complete("geoscan completion b"))
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = shellQuote(w)
	}
	return out
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
