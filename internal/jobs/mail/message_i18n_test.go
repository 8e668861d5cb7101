package mail

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An email in German says its words, dates and schedule in German, both
// bodies; the client's texts are as they were given.
func TestComposeGerman(t *testing.T) {
	t.Parallel()
	r := report()
	r.Language = "de"
	m, err := Compose(r)
	require.NoError(t, err)
	require.Equal(t, "GeoScan: www.example.com erreicht 81.4 (B)", m.Subject)
	for _, want := range []string{
		"Die geplante Prüfung von Example (www.example.com) wurde am 31.03.2027 09:04 UTC abgeschlossen.",
		"Schnelle Erfolge:\n",
		"Bericht: https://geoscan.example/r/gss_abc\n",
		"Öffnet sich ohne Schlüssel bis zum 30.04.2027",
		"Die nächste Prüfung dieses monatlichen Zeitplans ist am 30.04.2027 fällig.",
		"Remove the Disallow rule.",
	} {
		require.Contains(t, m.Text, want)
	}
	require.NotContains(t, m.Text, "Quick wins")
	require.Contains(t, m.HTML, `<html lang="de">`)
	require.Contains(t, m.HTML, "<h2 style=\"font-size: 16px;\">Schnelle Erfolge</h2>")
	require.Contains(t, m.HTML, ">Bericht</a>")

	r.Failed, r.Error = true, "DNS"
	m, err = Compose(r)
	require.NoError(t, err)
	require.Equal(t, "GeoScan: Die geplante Prüfung von www.example.com ist fehlgeschlagen", m.Subject)
	require.Contains(t, m.Text, "Warum: DNS")
}
