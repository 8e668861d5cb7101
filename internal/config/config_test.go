package config

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	t.Parallel()

	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:8080", c.HTTPAddr)
	require.Equal(t, EnvProduction, c.Env)
	require.False(t, c.AllowPrivateTargets)
	require.Equal(t, "http://127.0.0.1:8080", c.PublicURL)
	require.Equal(t, 15*time.Second, c.ShutdownTimeout)
}

func TestLoadRefusesPrivateTargetsInProduction(t *testing.T) {
	t.Parallel()

	_, err := Load(env(map[string]string{"GEOSCAN_ALLOW_PRIVATE_TARGETS": "true"}))
	require.ErrorContains(t, err, "GEOSCAN_ALLOW_PRIVATE_TARGETS=true is refused in production mode")

	for _, mode := range []string{"dev", "test"} {
		c, err := Load(env(map[string]string{"GEOSCAN_ALLOW_PRIVATE_TARGETS": "true", "GEOSCAN_ENV": mode}))
		require.NoError(t, err)
		require.True(t, c.AllowPrivateTargets)
	}
}

func TestLoadRejectsBadValues(t *testing.T) {
	t.Parallel()

	_, err := Load(env(map[string]string{
		"GEOSCAN_ENV":              "staging",
		"GEOSCAN_DB_MAX_CONNS":     "-1",
		"GEOSCAN_SHUTDOWN_TIMEOUT": "soon",
		"GEOSCAN_LOG_LEVEL":        "loud",
	}))
	require.ErrorContains(t, err, "GEOSCAN_ENV")
	require.ErrorContains(t, err, "GEOSCAN_DB_MAX_CONNS")
	require.ErrorContains(t, err, "GEOSCAN_SHUTDOWN_TIMEOUT")
	require.ErrorContains(t, err, "GEOSCAN_LOG_LEVEL")
}

func TestHelpListsEveryVariable(t *testing.T) {
	t.Parallel()

	var buf bytes.Buffer
	require.NoError(t, WriteHelp(&buf))
	for _, v := range variables() {
		require.Contains(t, buf.String(), v.name)
	}
	require.Contains(t, buf.String(), "127.0.0.1:8080")
}

func TestRedactedHidesDatabaseURL(t *testing.T) {
	t.Parallel()

	c, err := Load(env(map[string]string{"DATABASE_URL": "postgres://u:secret@h/db"}))
	require.NoError(t, err)
	for _, v := range c.Redacted() {
		require.NotContains(t, v, "secret")
	}
}

func TestLoadRateLimitSettings(t *testing.T) {
	t.Parallel()

	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, 600, c.IPRateLimit)
	require.Empty(t, c.TrustedProxies, "no proxy is trusted unless configured")
	require.False(t, c.DisableRateLimits)
	require.Empty(t, c.RedisURL)

	c, err = Load(env(map[string]string{
		"GEOSCAN_IP_RATE_LIMIT":   "50",
		"GEOSCAN_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7,2001:db8::/32",
		"GEOSCAN_REDIS_URL":       "redis://:hunter2@cache:6379/0",
	}))
	require.NoError(t, err)
	require.Equal(t, 50, c.IPRateLimit)
	require.Equal(t, "[10.0.0.0/8 192.0.2.7/32 2001:db8::/32]", fmt.Sprint(c.TrustedProxies))
	require.Equal(t, "(set)", c.Redacted()["GEOSCAN_REDIS_URL"], "the Redis URL may carry a password")

	_, err = Load(env(map[string]string{"GEOSCAN_TRUSTED_PROXIES": "proxy.internal", "GEOSCAN_IP_RATE_LIMIT": "0"}))
	require.ErrorContains(t, err, "GEOSCAN_TRUSTED_PROXIES")
	require.ErrorContains(t, err, "GEOSCAN_IP_RATE_LIMIT")

	_, err = Load(env(map[string]string{"GEOSCAN_DISABLE_RATE_LIMITS": "true"}))
	require.ErrorContains(t, err, "GEOSCAN_DISABLE_RATE_LIMITS=true is refused in production mode")
	for _, mode := range []string{"dev", "test"} {
		c, err := Load(env(map[string]string{"GEOSCAN_DISABLE_RATE_LIMITS": "true", "GEOSCAN_ENV": mode}))
		require.NoError(t, err)
		require.True(t, c.DisableRateLimits)
	}
}
