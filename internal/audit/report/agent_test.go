package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit"
	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/audit/scoring"
	"github.com/geoscan/geoscan/internal/testing/audittest"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// agentBuilt audits an agent-readiness fixture with the fetcher, so the
// lens reads the site's own files.
func agentBuilt(t *testing.T, name string) fixture {
	t.Helper()
	_, f := audittest.Sites(t)
	res := audittest.Run(t, name, "", audit.Options{Fetcher: f})
	require.NoError(t, res.TriageErr)
	return fixture{report: *res.Report, dossier: *res.Triage}
}

// The PDF shows the lens given to it: the level and its meaning, that it
// is not scored, and every signal with its status and what was found,
// after the rings and before the fixes. Without a lens there is no
// section.
func TestRenderPDFAgentReadiness(t *testing.T) {
	t.Parallel()
	f := agentBuilt(t, testsite.AgentBroken)
	require.NotNil(t, f.report.AgentReadiness)
	for _, aud := range []scoring.Audience{scoring.Marketing, scoring.Engineering} {
		d := f.dossier.For(aud)
		var buf bytes.Buffer
		require.NoError(t, report.RenderPDFWith(&buf, f.report.For(aud), &d, report.PDFOptions{AgentReadiness: f.report.AgentReadiness}))
		text := pdfText(t, buf.Bytes())
		require.Contains(t, text, "Agent readiness (not scored)")
		require.Contains(t, text, "Level: none — no agent-readiness signal was found.")
		require.Contains(t, text, "count in none of the scores")
		require.Contains(t, text, "A2A agent card")
		require.Contains(t, text, "INVALID")
		require.Contains(t, text, "NOT CHECKED")
		require.Contains(t, text, "missing required description, version, capabilities")
		at := strings.Index(text, "Agent readiness (not scored)")
		require.Greater(t, at, strings.LastIndex(text, "AI trust"), "after the rings")
	}

	var buf bytes.Buffer
	plain := agentBuilt(t, testsite.AgentNone)
	plain.report.AgentReadiness = nil // a report made before the lens
	require.NoError(t, report.RenderPDFWith(&buf, plain.report.For(scoring.Marketing), nil, report.PDFOptions{}))
	requireAbsent(t, pdfText(t, buf.Bytes()), "Agent readiness \\(not scored\\)")
}

// The HTML report shows the same section; the engineering edition adds
// each signal's evidence. Text from the site is escaped.
func TestWriteHTMLAgentReadiness(t *testing.T) {
	t.Parallel()
	f := agentBuilt(t, testsite.AgentReady)
	lens := f.report.AgentReadiness
	require.NotNil(t, lens)
	page := string(f.htmlOf(t, scoring.Engineering, report.HTMLInput{AgentReadiness: lens}))
	require.Contains(t, page, `<h2 id="agent-h">Agent readiness (not scored)</h2>`)
	require.Contains(t, page, "<strong>Level: advanced</strong>")
	require.Contains(t, page, "MCP server card")
	require.Contains(t, page, `<span class="pill st-pass">FOUND</span>`)
	require.Contains(t, page, "<dt>vary_accept</dt><dd>true</dd>")
	require.Less(t, strings.Index(page, `id="agent-h"`), strings.Index(page, `id="fixes-h"`))

	marketing := string(f.htmlOf(t, scoring.Marketing, report.HTMLInput{AgentReadiness: lens}))
	require.Contains(t, marketing, "Agent readiness (not scored)")
	require.NotContains(t, marketing, "<dt>vary_accept</dt>")

	hostile := *lens
	hostile.Signals = append([]report.AgentSignal(nil), lens.Signals...)
	hostile.Signals[0].Summary = `<script>alert("summary")</script>`
	hostile.Signals[0].Evidence = map[string]any{"target": `<img src=x onerror=alert(1)>`}
	page = string(f.htmlOf(t, scoring.Engineering, report.HTMLInput{AgentReadiness: &hostile}))
	require.NotContains(t, page, `<script>alert`)
	require.NotContains(t, page, `<img src=x`)
	require.Contains(t, page, "&lt;script&gt;alert(&#34;summary&#34;)&lt;/script&gt;")

	before := f
	before.report.AgentReadiness = nil // a report made before the lens
	none := string(before.htmlOf(t, scoring.Engineering, report.HTMLInput{}))
	require.NotContains(t, none, `id="agent-h"`)
}
