package jsonshape

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// RequirePinned fails the test unless the shape of v is the one in the
// golden file at path; with update it writes the file first (go test
// -update). why says what a change means for what is already stored.
func RequirePinned(t testing.TB, path string, v any, update bool, why string) {
	t.Helper()
	got := Of(v)
	if update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o750))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644)) //nolint:gosec // a golden file of the repository, readable like the rest
	}
	want, err := os.ReadFile(path) //nolint:gosec // the test names its own golden file
	require.NoError(t, err, "run with -update to create the golden file")
	require.Equal(t, string(want), got, why)
}

// RequireRoundTrip fails the test unless v survives storing: decoding its
// JSON into a T and encoding that again gives the same bytes.
func RequireRoundTrip[T any](t testing.TB, v T) {
	t.Helper()
	stored, err := json.Marshal(v)
	require.NoError(t, err)
	var served T
	require.NoError(t, json.Unmarshal(stored, &served))
	again, err := json.Marshal(served)
	require.NoError(t, err)
	require.Equal(t, string(stored), string(again))
}
