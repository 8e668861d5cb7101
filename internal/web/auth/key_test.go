package auth

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNewKey(t *testing.T) {
	t.Parallel()

	seen := map[string]bool{}
	for range 200 {
		key, err := NewKey()
		require.NoError(t, err)
		require.Len(t, key, KeyLen)
		require.True(t, strings.HasPrefix(key, "geo_"))
		require.NoError(t, ParseKey(key))
		require.False(t, seen[key], "keys must not repeat")
		seen[key] = true
	}
}

func TestParseKey(t *testing.T) {
	t.Parallel()

	good, err := NewKey()
	require.NoError(t, err)
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}

	tests := []struct {
		name string
		key  string
	}{
		{"empty", ""},
		{"prefix only", "geo_"},
		{"truncated", good[:len(good)-1]},
		{"too long", good + "a"},
		{"wrong prefix", "gep_" + good[4:]},
		{"upper-case prefix", "GEO_" + good[4:]},
		{"bearer", "Bearer " + good},
		{"surrounding space", " " + good[:len(good)-1]},
		{"random part changed", flip(good, 10)},
		{"checksum changed", flip(good, len(good)-1)},
		{"non-base62", good[:10] + "-" + good[11:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.ErrorIs(t, ParseKey(tt.key), ErrMalformedKey)
		})
	}
}

func TestHashAndDisplay(t *testing.T) {
	t.Parallel()

	key, err := NewKey()
	require.NoError(t, err)
	require.Len(t, HashKey(key), 32)
	require.Equal(t, HashKey(key), HashKey(string([]byte(key))), "the hash depends only on the key")
	other, err := NewKey()
	require.NoError(t, err)
	require.NotEqual(t, HashKey(key), HashKey(other))

	shown := DisplayPrefix(key)
	require.Equal(t, key[:8]+"…"+key[len(key)-4:], shown)
	require.NotContains(t, shown, key[8:len(key)-4])
}

func FuzzParseKey(f *testing.F) {
	good, err := NewKey()
	require.NoError(f, err)
	f.Add(good)
	f.Add("geo_")
	f.Add("geo_00000000000000000000000000000000000000")
	f.Fuzz(func(t *testing.T, s string) {
		if ParseKey(s) == nil {
			// Anything accepted has the exact shape of a generated key.
			require.Len(t, s, KeyLen)
			require.True(t, strings.HasPrefix(s, KeyPrefix))
		}
	})
}

func TestIssueKeepsOnlyWhatIsStored(t *testing.T) {
	t.Parallel()

	k, err := Issue()
	require.NoError(t, err)
	require.NoError(t, ParseKey(k.Key))
	require.Equal(t, HashKey(k.Key), k.Hash)
	require.Equal(t, DisplayPrefix(k.Key), k.Display)
	require.NotContains(t, k.Display, k.Key[8:len(k.Key)-4], "the display form cannot be used as the key")
}
