package cli

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestOrgBranding(t *testing.T) {
	t.Parallel()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	code, out, errOut := runCLI(t, vars, "org", "create", "--name", "Acme")
	require.Equal(t, 0, code, errOut)
	id := strings.TrimSpace(out)

	code, out, errOut = runCLI(t, vars, "org", "branding", "show", id)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `Name\s+-\n`, out)
	require.Regexp(t, `GeoScan shown\s+yes\n`, out)
	require.Contains(t, out, "never set: GeoScan's look")

	dir := t.TempDir()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 30, 10))))
	logo := filepath.Join(dir, "logo.png")
	require.NoError(t, os.WriteFile(logo, buf.Bytes(), 0o600))

	code, out, errOut = runCLI(t, vars, "org", "branding", "set", id, "--name", "Acme Agency", "--color", "#0A7C59",
		"--logo", logo, "--contact", "hello@acme.example", "--show-geoscan=false")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `Name\s+Acme Agency\n`, out)
	require.Regexp(t, `Colour\s+#0a7c59\n`, out)
	require.Regexp(t, `Logo\s+image/png, \d+ bytes\n`, out)
	require.Regexp(t, `GeoScan shown\s+no\n`, out)

	// set changes only the flags given.
	code, out, errOut = runCLI(t, vars, "org", "branding", "set", id, "--footer", "Prepared by Acme")
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `Name\s+Acme Agency\n`, out)
	require.Regexp(t, `Logo\s+image/png`, out)
	require.Regexp(t, `Footer\s+Prepared by Acme\n`, out)

	svg := filepath.Join(dir, "logo.svg")
	require.NoError(t, os.WriteFile(svg, []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="4" height="4"/></svg>`), 0o600))
	code, out, errOut = runCLI(t, vars, "org", "branding", "set", id, "--logo", svg)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, `Logo\s+image/svg\+xml, \d+ bytes \(the PDF shows the name instead\)\n`, out)

	notImage := filepath.Join(dir, "logo.txt")
	require.NoError(t, os.WriteFile(notImage, []byte("hello"), 0o600))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--color", "teal"}, "#rrggbb"},
		{[]string{"--logo", notImage}, "not a usable SVG"},
		{[]string{"--name", strings.Repeat("n", 101)}, "at most 100 characters"},
	} {
		code, _, errOut = runCLI(t, vars, append([]string{"org", "branding", "set", id}, c.args...)...)
		require.Equal(t, 2, code, c.args)
		require.Contains(t, errOut, c.want)
	}

	code, out, errOut = runCLI(t, vars, "org", "branding", "reset", id)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "branding reset")
	code, out, _ = runCLI(t, vars, "org", "branding", "show", id)
	require.Equal(t, 0, code)
	require.Contains(t, out, "never set: GeoScan's look")

	code, _, errOut = runCLI(t, vars, "org", "branding", "show", uuid.NewString())
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no organization")
	code, _, _ = runCLI(t, vars, "org", "branding", "paint", id)
	require.Equal(t, 2, code)
}
