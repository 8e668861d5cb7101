package webhook_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/jobs/webhook"
	"github.com/geoscan/geoscan/internal/store"
)

// A whole-site audit's callback says how many pages it judged; a homepage
// audit's body is the specification's fields and nothing else.
func TestCallbackOfAWholeSiteAuditCountsItsPages(t *testing.T) {
	t.Parallel()
	cb := "https://hooks.example.com/geoscan"
	score := 61.5
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	scan := store.Scan{ScanView: store.ScanView{
		ID: uuid.New(), URL: "https://www.example.com/", CallbackURL: &cb,
		Status: store.ScanCompleted, OverallScore: &score, CreatedAt: at, UpdatedAt: at.Add(time.Minute),
		MaxPages: 1,
	}, OrgID: uuid.New()}
	keys := func(s store.Scan) map[string]any {
		n, err := webhook.NewDelivery(s)
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(n.Payload, &m))
		return m
	}
	home := keys(scan)
	require.NotContains(t, home, "pages_audited")
	require.Len(t, home, 8, "the specification's eight fields")

	scan.MaxPages, scan.PagesDone = 200, 137
	site := keys(scan)
	require.InDelta(t, 137, site["pages_audited"], 0)

	scan.Status, scan.OverallScore = store.ScanFailed, nil
	msg := "the site could not be read"
	scan.ErrorMessage = &msg
	require.NotContains(t, keys(scan), "pages_audited", "a failed scan judged no site")
}
