package cli

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

var urlLine = regexp.MustCompile(`(?m)^URL\s+(\S+)$`)

func TestScanShareCommands(t *testing.T) {
	t.Parallel()
	c := newClientEnv(t)

	code, out, errOut := c.geoscan(t, "scan", "create", c.sites.URL(testsite.Docs), "--wait")
	require.Equal(t, 0, code, errOut)
	scan := scanID(t, out)

	code, out, errOut = c.geoscan(t, "scan", "share", "create", scan, "--audience", "engineering", "--days", "7", "--label", "agency\x1b[31m")
	require.Equal(t, 0, code, errOut)
	share := scanID(t, out)
	m := urlLine.FindStringSubmatch(out)
	require.NotNil(t, m, "no URL line in %q", out)
	require.Contains(t, m[1], "/r/gss_")
	require.Regexp(t, `(?m)^Audience\s+engineering$`, out)
	require.NotContains(t, out, "\x1b", "the label reaches the terminal escaped")
	require.Contains(t, errOut, "shown only now")

	page := c.h.Do(t, "GET", m[1][strings.Index(m[1], "/r/"):], "", nil)
	require.Equal(t, http.StatusOK, page.Status, "the link opens without a key")

	code, out, _ = c.geoscan(t, "scan", "share", "list", scan)
	require.Equal(t, 0, code)
	require.Regexp(t, share+`\s+live\s+engineering\s+en\s+`, out)
	require.NotContains(t, out, "gss_", "no link is listed with its token")

	code, out, errOut = c.geoscan(t, "scan", "share", "revoke", scan, share)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "revoked share link "+share)
	require.Equal(t, http.StatusGone, c.h.Do(t, "GET", m[1][strings.Index(m[1], "/r/"):], "", nil).Status)

	code, out, _ = c.geoscan(t, "scan", "share", "list", scan, "--json")
	require.Equal(t, 0, code)
	var list client.ShareList
	require.NoError(t, json.Unmarshal([]byte(out), &list))
	require.Len(t, list.Data, 1)
	require.NotNil(t, list.Data[0].RevokedAt)

	code, _, errOut = c.geoscan(t, "scan", "share", "create", scan, "--language", "it")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "invalid_parameter")
	code, _, errOut = c.geoscan(t, "scan", "share", "create", scan, "--days", "3", "--expires", "2030-01-01T00:00:00Z")
	require.Equal(t, 2, code, "a command-line mistake")
	require.Contains(t, errOut, "not both")
	code, _, errOut = c.geoscan(t, "scan", "share", "revoke", scan, "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "share_not_found")
}
