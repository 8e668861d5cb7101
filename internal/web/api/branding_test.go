package api_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/debtool"
)

func brandingPNG(t *testing.T, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))))
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
}

func brandingSVG(s string) string {
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(s))
}

func TestBrandingSetGetReset(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	other := h.NewOrg(t, "pro", true)

	got, err := org.Client.GetBrandingWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode(), "body: %s", got.Body)
	require.Equal(t, client.Branding{ShowGeoscan: true}, *got.JSON200, "never set: GeoScan's look")

	logo := brandingPNG(t, 120, 40)
	set, err := org.Client.SetBrandingWithResponse(ctx, client.BrandingRequest{
		Name: ptr("Acme Agency"), PrimaryColor: ptr("#0A7C59"), Logo: &logo,
		Contact: ptr("hello@acme.example"), Footer: ptr("Prepared by Acme"), ShowGeoscan: ptr(false),
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, set.StatusCode(), "body: %s", set.Body)
	require.Equal(t, "#0a7c59", *set.JSON200.PrimaryColor)
	require.Equal(t, logo, *set.JSON200.Logo, "a PNG is kept as sent")
	require.NotNil(t, set.JSON200.UpdatedAt)

	got, err = org.Client.GetBrandingWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, *set.JSON200, *got.JSON200)
	require.False(t, got.JSON200.ShowGeoscan)

	theirs, err := other.Client.GetBrandingWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, client.Branding{ShowGeoscan: true}, *theirs.JSON200, "one organization's branding is not another's")

	// PUT replaces the whole branding: what is left out goes back to its default.
	set, err = org.Client.SetBrandingWithResponse(ctx, client.BrandingRequest{Name: ptr("Acme")})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, set.StatusCode(), "body: %s", set.Body)
	require.Nil(t, set.JSON200.Logo)
	require.True(t, set.JSON200.ShowGeoscan)

	reset, err := org.Client.ResetBrandingWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, reset.StatusCode())
	got, err = org.Client.GetBrandingWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, client.Branding{ShowGeoscan: true}, *got.JSON200)
	reset, err = org.Client.ResetBrandingWithResponse(ctx)
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, reset.StatusCode(), "resetting twice is not an error")
}

func TestBrandingSanitisesSVG(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	hostile := `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)">
<script>alert(2)</script>
<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"/></body></foreignObject>
<use xlink:href="https://evil.example/sprite.svg#logo"/>
<rect width="10" height="10" fill="#0a7c59" onclick="alert(3)"/>
</svg>`
	set, err := org.Client.SetBrandingWithResponse(ctx, client.BrandingRequest{Logo: ptr(brandingSVG(hostile))})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, set.StatusCode(), "body: %s", set.Body)
	uri := *set.JSON200.Logo
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(uri, "data:image/svg+xml;base64,"))
	require.NoError(t, err)
	svg := string(raw)
	for _, gone := range []string{"script", "alert", "onload", "onclick", "foreignObject", "iframe", "evil.example", "<use"} {
		require.NotContains(t, svg, gone)
	}
	require.Contains(t, svg, `<rect width="10" height="10" fill="#0a7c59"></rect>`)
}

func TestBrandingRefusesBadFields(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "pro", true)

	oversized := "data:image/png;base64," + base64.StdEncoding.EncodeToString(make([]byte, 256<<10+1))
	for _, c := range []struct {
		body  map[string]any
		param string
	}{
		{map[string]any{"primary_color": "green"}, "primary_color"},
		{map[string]any{"primary_color": "#12345"}, "primary_color"},
		{map[string]any{"name": strings.Repeat("n", 101)}, "name"},
		{map[string]any{"contact": strings.Repeat("c", 201)}, "contact"},
		{map[string]any{"footer": strings.Repeat("f", 301)}, "footer"},
		{map[string]any{"logo": oversized}, "logo"},
		{map[string]any{"logo": brandingPNG(t, 2001, 10)}, "logo"},
		{map[string]any{"logo": "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("GIF89a not a png"))}, "logo"},
		{map[string]any{"logo": "data:text/plain;base64,aGVsbG8="}, "logo"},
		{map[string]any{"logo": brandingSVG(`<svg><script>alert(1)</script></svg>`)}, "logo"},
		{map[string]any{"logo": brandingSVG(`<!DOCTYPE svg [<!ENTITY e "x">]><svg><text>&e;</text></svg>`)}, "logo"},
		{map[string]any{"logo": "https://acme.example/logo.png"}, "logo"},
	} {
		h.Do(t, "PUT", "/api/v1/branding", org.Key, c.body).RequireError(t, 422, "invalid_parameter", c.param)
	}

	got := h.Do(t, "GET", "/api/v1/branding", org.Key, nil)
	require.Equal(t, http.StatusOK, got.Status)
	require.JSONEq(t, `{"show_geoscan": true}`, string(got.Body), "a refused PUT changes nothing")
}

// The PDF of a scan is drawn in its organization's look, and a branding
// set after a download makes the next download another document.
func TestBrandingShapesThePDF(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	id := pdfScan(t, h, org, "https://example.com/", "Example", time.Date(2026, 2, 3, 9, 0, 0, 0, time.UTC))

	plain := getPDF(t, h, org, id, "")
	require.Equal(t, http.StatusOK, plain.Status, "body: %.300s", plain.Body)
	require.Equal(t, `attachment; filename="geoscan-example.com-2026-02-03.pdf"`, plain.Header.Get("Content-Disposition"))

	set, err := org.Client.SetBrandingWithResponse(ctx, client.BrandingRequest{
		Name: ptr("Acme Agency"), Contact: ptr("hello@acme.example"), ShowGeoscan: ptr(false),
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, set.StatusCode(), "body: %s", set.Body)

	branded := getPDF(t, h, org, id, "")
	require.Equal(t, http.StatusOK, branded.Status, "body: %.300s", branded.Body)
	require.NotEqual(t, plain.Header.Get("ETag"), branded.Header.Get("ETag"))
	require.Equal(t, `attachment; filename="geo-audit-example.com-2026-02-03.pdf"`, branded.Header.Get("Content-Disposition"))
	text := brandingPDFText(t, branded.Body)
	require.Contains(t, text, "GEO audit report · by Acme Agency")
	require.Contains(t, text, "hello@acme.example")
	require.NotContains(t, brandingPDFText(t, plain.Body), "Acme Agency")
}

func brandingPDFText(t *testing.T, pdf []byte) string {
	t.Helper()
	debtool.Require(t, "pdftotext", "poppler-utils")
	path := filepath.Join(t.TempDir(), "report.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(t.Context(), "pdftotext", "-enc", "UTF-8", path, "-").Output()
	require.NoError(t, err)
	return strings.Join(strings.Fields(string(out)), " ")
}

// A member's key may change the branding only when the member is an owner;
// any key may read it.
func TestBrandingNeedsAnOwner(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	owner, err := h.Store.CreateMember(ctx, org.ID, "owner@acme.example", "Ana", store.RoleOwner)
	require.NoError(t, err)
	member, err := h.Store.CreateMember(ctx, org.ID, "member@acme.example", "Ben", store.RoleMember)
	require.NoError(t, err)
	ownerKey, _ := h.NewMemberKey(t, org.ID, &owner.ID, "owner")
	memberKey, _ := h.NewMemberKey(t, org.ID, &member.ID, "member")
	body := map[string]any{"name": "Acme"}

	h.Do(t, "PUT", "/api/v1/branding", memberKey, body).RequireError(t, http.StatusForbidden, "owner_required", "")
	h.Do(t, "DELETE", "/api/v1/branding", memberKey, nil).RequireError(t, http.StatusForbidden, "owner_required", "")
	require.Equal(t, http.StatusOK, h.Do(t, "PUT", "/api/v1/branding", ownerKey, body).Status)
	read := h.Do(t, "GET", "/api/v1/branding", memberKey, nil)
	require.Equal(t, http.StatusOK, read.Status)
	require.Contains(t, string(read.Body), `"name":"Acme"`)
	require.Equal(t, http.StatusNoContent, h.Do(t, "DELETE", "/api/v1/branding", org.Key, nil).Status, "the organization's own key")
}
