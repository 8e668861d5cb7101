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

	_, err = Load(env(map[string]string{"GEOSCAN_CRAWL_UNTHROTTLED": "true"}))
	require.ErrorContains(t, err, "GEOSCAN_CRAWL_UNTHROTTLED=true is refused in production mode")
	c, err = Load(env(map[string]string{"GEOSCAN_CRAWL_UNTHROTTLED": "true", "GEOSCAN_ENV": "test"}))
	require.NoError(t, err)
	require.True(t, c.CrawlUnthrottled)
}

func TestLoadMailSettings(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Empty(t, c.SMTPURL)
	require.Equal(t, `"GeoScan" <noreply@localhost>`, c.MailFrom, "the default public URL is an address, not a name")
	require.Len(t, c.MailRetryDelays, 5)

	c, err = Load(env(map[string]string{
		"GEOSCAN_SMTP_URL": "smtps://mailer:s3cret@smtp.example.com:465", "GEOSCAN_PUBLIC_URL": "https://geoscan.example.com",
		"GEOSCAN_MAIL_RETRY_DELAYS": "10s,1m",
	}))
	require.NoError(t, err)
	require.Equal(t, `"GeoScan" <noreply@geoscan.example.com>`, c.MailFrom)
	require.Equal(t, "smtps://smtp.example.com:465", c.Redacted()["GEOSCAN_SMTP_URL"], "no credentials in the logged configuration")
	for _, v := range c.Redacted() {
		require.NotContains(t, v, "s3cret")
	}
	require.Equal(t, []time.Duration{10 * time.Second, time.Minute}, c.MailRetryDelays)

	c, err = Load(env(map[string]string{"GEOSCAN_MAIL_FROM": "Reports <reports@example.com>"}))
	require.NoError(t, err)
	require.Equal(t, `"Reports" <reports@example.com>`, c.MailFrom)

	for _, bad := range []string{"http://u:s3cret@smtp.example.com", "smtp://u:s3cret@", "smtp://u:s3cret@smtp.example.com/x", "smtp://u:s3cret@smtp.example.com?tls=no", "smtp://u:s3cret@smtp.example.com:0"} {
		_, err := Load(env(map[string]string{"GEOSCAN_SMTP_URL": bad}))
		require.ErrorContains(t, err, "GEOSCAN_SMTP_URL", bad)
		require.NotContains(t, err.Error(), "s3cret", "an error never repeats the password")
	}
	_, err = Load(env(map[string]string{"GEOSCAN_MAIL_FROM": "not an address"}))
	require.ErrorContains(t, err, "GEOSCAN_MAIL_FROM")
}

func TestLoadSnapshotRetention(t *testing.T) {
	t.Parallel()
	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, 90*24*time.Hour, c.SnapshotRetention)
	for v, want := range map[string]time.Duration{"7d": 7 * 24 * time.Hour, "36h": 36 * time.Hour, "1d": 24 * time.Hour} {
		c, err := Load(env(map[string]string{"GEOSCAN_SNAPSHOT_RETENTION": v}))
		require.NoError(t, err, v)
		require.Equal(t, want, c.SnapshotRetention, v)
	}
	for _, bad := range []string{"0d", "-3d", "d", "ninety", "0s", "1.5d"} {
		_, err := Load(env(map[string]string{"GEOSCAN_SNAPSHOT_RETENTION": bad}))
		require.ErrorContains(t, err, "GEOSCAN_SNAPSHOT_RETENTION", bad)
	}
}

func TestLoadPDFSettings(t *testing.T) {
	t.Parallel()

	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, 30, c.RenderRateLimit)
	require.Equal(t, 64, c.PDFCacheMB)

	c, err = Load(env(map[string]string{"GEOSCAN_RENDER_RATE_LIMIT": "5", "GEOSCAN_PDF_CACHE_MB": "0"}))
	require.NoError(t, err)
	require.Equal(t, 5, c.RenderRateLimit)
	require.Zero(t, c.PDFCacheMB, "0 turns the cache off")
	require.Equal(t, "0", c.Redacted()["GEOSCAN_PDF_CACHE_MB"])

	_, err = Load(env(map[string]string{"GEOSCAN_RENDER_RATE_LIMIT": "0", "GEOSCAN_PDF_CACHE_MB": "-1"}))
	require.ErrorContains(t, err, "GEOSCAN_RENDER_RATE_LIMIT")
	require.ErrorContains(t, err, "GEOSCAN_PDF_CACHE_MB")
	_, err = Load(env(map[string]string{"GEOSCAN_PDF_CACHE_MB": "64MB"}))
	require.ErrorContains(t, err, "GEOSCAN_PDF_CACHE_MB")
}

func TestLoadScanOrgShare(t *testing.T) {
	t.Parallel()

	c, err := Load(env(nil))
	require.NoError(t, err)
	require.Equal(t, 4, c.ScanOrgShare, "auto: half of the default 8 workers")

	for workers, share := range map[string]int{"1": 1, "2": 1, "3": 1, "200": 100} {
		c, err := Load(env(map[string]string{"GEOSCAN_SCAN_WORKERS": workers}))
		require.NoError(t, err)
		require.Equal(t, share, c.ScanOrgShare, "auto with %s workers", workers)
	}

	c, err = Load(env(map[string]string{"GEOSCAN_SCAN_ORG_SHARE": "30", "GEOSCAN_SCAN_WORKERS": "8"}))
	require.NoError(t, err)
	require.Equal(t, 30, c.ScanOrgShare, "a share above this process's workers counts the other processes'")
	require.Equal(t, "30", c.Redacted()["GEOSCAN_SCAN_ORG_SHARE"])

	for _, bad := range []string{"0", "-2", "half", "1.5"} {
		_, err := Load(env(map[string]string{"GEOSCAN_SCAN_ORG_SHARE": bad}))
		require.ErrorContains(t, err, "GEOSCAN_SCAN_ORG_SHARE", bad)
	}
}
