package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
)

func TestBrandAliases(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)

	resp, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{
		URL: "https://www.example.com/", BrandName: ptr("Monday"),
		BrandAliases: &[]string{" monday.com ", "Monday", "MONDAY.COM", "Work  OS"},
	})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, resp.StatusCode(), "body: %s", resp.Body)
	require.Equal(t, []string{"monday.com", "Work OS"}, *resp.JSON201.BrandAliases, "trimmed, the brand itself and repeats dropped")
	got, err := org.Client.GetScanWithResponse(ctx, resp.JSON201.ID)
	require.NoError(t, err)
	require.Equal(t, []string{"monday.com", "Work OS"}, *got.JSON200.BrandAliases)

	plain, err := org.Client.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: "https://www.example.com/"})
	require.NoError(t, err)
	require.Equal(t, []string{}, *plain.JSON201.BrandAliases)

	sc, err := org.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{URL: "https://www.example.com/", BrandAliases: &[]string{"Example Inc"}})
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, sc.StatusCode(), "body: %s", sc.Body)
	require.Equal(t, []string{"Example Inc"}, *sc.JSON201.BrandAliases)

	for _, c := range []struct{ name, body, param string }{
		{"blank", `{"url":"https://www.example.com/","brand_aliases":["  "]}`, "brand_aliases"},
		{"empty", `{"url":"https://www.example.com/","brand_aliases":[""]}`, "brand_aliases.0"},
		{"too long", `{"url":"https://www.example.com/","brand_aliases":["` + strings.Repeat("a", 101) + `"]}`, "brand_aliases.0"},
		{"too many", `{"url":"https://www.example.com/","brand_aliases":["a","b","c","d","e","f","g","h","i","j","k"]}`, "brand_aliases"},
		{"not a list", `{"url":"https://www.example.com/","brand_aliases":"monday.com"}`, "brand_aliases"},
	} {
		for _, path := range []string{"/api/v1/scans", "/api/v1/schedules"} {
			t.Log(path, c.name)
			h.Do(t, http.MethodPost, path, org.Key, c.body).RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", c.param)
		}
	}
}
