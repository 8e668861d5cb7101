package mail

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseAddress(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"owner@example.com", "first.last+geo@sub.example.co.uk", "o@localhost", "ü@bücher.example"} {
		got, err := ParseAddress(ok)
		require.NoError(t, err, ok)
		require.Equal(t, ok, got)
	}
	for _, bad := range []string{
		"", "owner", "@example.com", "owner@", "Owner <owner@example.com>", "owner@example.com (Owner)",
		" owner@example.com", "owner@example.com\r\nBcc: victim@example.com", "owner@example.com\nx",
		"a@example.com, b@example.com", "owner@exa mple.com", "own\x00er@example.com", "owner@[127.0.0.1]",
		"\xff@example.com", strings.Repeat("a", 250) + "@x.io",
	} {
		_, err := ParseAddress(bad)
		require.ErrorIs(t, err, ErrAddress, "%q", bad)
	}
}
