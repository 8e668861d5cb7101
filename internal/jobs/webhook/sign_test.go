package webhook

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNewSecret(t *testing.T) {
	t.Parallel()
	s, err := NewSecret()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(s, SecretPrefix))
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, SecretPrefix))
	require.NoError(t, err)
	require.Len(t, raw, 32)
	other, err := NewSecret()
	require.NoError(t, err)
	require.NotEqual(t, s, other)
}
