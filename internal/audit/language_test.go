package audit_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// An audit asked for in German asks the answer engines in German and has
// the summaries written in German; one asked for in a language without a
// catalogue follows the site's declared language (English here).
func TestAuditLanguage(t *testing.T) {
	t.Parallel()
	srv := scripted.Start(func(c scripted.Call) scripted.Reply {
		if c.Schema != "" {
			return scripted.Reply{Text: "{}"}
		}
		return scripted.Reply{Text: "Millbrook Bakery ist eine Bäckerei in Hebden Bridge."}
	})
	t.Cleanup(srv.Close)
	res := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{
		Language: "de", AI: fakeLayer(t, srv, llm.DefaultLimits, &llm.MemoryCache{}),
	})
	require.Equal(t, "de", res.Language)
	var asked []string
	summaries := 0
	for _, c := range srv.Received() {
		switch c.Schema {
		case "":
			asked = append(asked, c.Prompt)
		case "report_summaries":
			summaries++
			require.Contains(t, c.Prompt, "Write every text in German")
		}
	}
	require.Contains(t, asked, "Was ist Millbrook Bakery?")
	for _, p := range asked {
		require.False(t, strings.HasPrefix(p, "What "), "asked in English: %q", p)
	}
	require.Equal(t, 2, summaries)

	quiet := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{Language: "de"})
	require.Contains(t, quiet.Report.Marketing.Summaries.Executive, "Millbrook Bakery erreicht ")

	english := audittest.Run(t, testsite.Bakery, "Millbrook Bakery", audit.Options{Language: "it"})
	require.Equal(t, "en", english.Language)
	require.Contains(t, english.Report.Marketing.Summaries.Executive, "Millbrook Bakery scores ")
}
