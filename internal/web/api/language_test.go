package api_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/testing/apitest"
)

// A scan and a schedule keep the language they are given, show it, and
// refuse one there is no catalogue for with a message naming those there
// are.
func TestLanguageOfScansAndSchedules(t *testing.T) {
	t.Parallel()
	h := start(t)
	org := h.NewOrg(t, "free", true)

	requireNamesLanguages := func(t *testing.T, r apitest.Response, msg string) {
		t.Helper()
		r.RequireError(t, http.StatusUnprocessableEntity, "invalid_parameter", "language")
		for _, lang := range []string{"en", "de", "fr", "es"} {
			require.Contains(t, msg, lang, "the message names the supported languages")
		}
	}

	t.Run("Scan", func(t *testing.T) {
		t.Parallel()
		r := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://www.example.com/", "language": "de"})
		require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		var s api.Scan
		r.JSON(t, &s)
		require.NotNil(t, s.Language)
		require.Equal(t, api.ScanLanguageDe, *s.Language)

		got := h.Do(t, "GET", "/api/v1/scans/"+s.ID.String(), org.Key, nil)
		require.Equal(t, http.StatusOK, got.Status)
		var again api.Scan
		got.JSON(t, &again)
		require.NotNil(t, again.Language, "body: %s", got.Body)
		require.Equal(t, api.ScanLanguageDe, *again.Language, "stored")

		r = h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://www.example.com/"})
		require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		var plain api.Scan
		r.JSON(t, &plain)
		require.Nil(t, plain.Language, "resolved from the site when the scan completes")

		bad := h.Do(t, "POST", "/api/v1/scans", org.Key, map[string]any{"url": "https://www.example.com/", "language": "it"})
		requireNamesLanguages(t, bad, bad.Error(t).Error.Message)
	})

	t.Run("Schedule", func(t *testing.T) {
		t.Parallel()
		r := h.Do(t, "POST", "/api/v1/schedules", org.Key, map[string]any{"url": "https://example.com/", "language": "fr"})
		require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		var s api.Schedule
		r.JSON(t, &s)
		require.Equal(t, api.ScheduleLanguageFr, *s.Language)

		path := "/api/v1/schedules/" + s.ID.String()
		r = h.Do(t, "PATCH", path, org.Key, map[string]any{"language": "es"})
		require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
		r.JSON(t, &s)
		require.Equal(t, api.ScheduleLanguageEs, *s.Language)

		r = h.Do(t, "PATCH", path, org.Key, map[string]any{"notify_email": false})
		require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
		r.JSON(t, &s)
		require.Equal(t, api.ScheduleLanguageEs, *s.Language, "a change of something else keeps the language")

		bad := h.Do(t, "PATCH", path, org.Key, map[string]any{"language": "pt"})
		requireNamesLanguages(t, bad, bad.Error(t).Error.Message)
		bad = h.Do(t, "POST", "/api/v1/schedules", org.Key, map[string]any{"url": "https://shop.example.co.uk/", "language": "pt"})
		requireNamesLanguages(t, bad, bad.Error(t).Error.Message)
	})
}
