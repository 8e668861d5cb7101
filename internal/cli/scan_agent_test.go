package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// The report's agent-readiness lens is printed with its level and every
// signal, escaped; a report without one prints nothing.
func TestPrintAgentReadiness(t *testing.T) {
	t.Parallel()
	body := []byte(`{"url":"https://kestrel-tools.test/","agent_readiness":{"level":"ready","signals":[
		{"id":"markdown_negotiation","title":"Markdown on request (Accept: text/markdown)","status":"found","summary":"The homepage is served as Markdown.","evidence":{}},
		{"id":"a2a_agent_card","title":"A2A agent card","status":"invalid","summary":"Declared but invalid: missing required name\u001b[2J.","reason":"missing required name","evidence":{}},
		{"id":"web_bot_auth","title":"","status":"not_checked","summary":"Not checked: HTTP 503.","evidence":{}}]}}`)
	var out bytes.Buffer
	require.NoError(t, printAgentReadiness(&out, body))
	text := out.String()
	require.Contains(t, text, "Agent readiness (emerging signals, not scored): level ready.")
	require.Regexp(t, `found\s+Markdown on request \(Accept: text/markdown\)\s+The homepage is served as Markdown\.`, text)
	require.Regexp(t, `INVALID\s+A2A agent card\s+Declared but invalid: missing required name\\x1b\[2J\.`, text)
	require.Regexp(t, `not checked\s+web_bot_auth\s+Not checked: HTTP 503\.`, text)
	require.NotContains(t, text, "\x1b")

	for _, b := range []string{`{"url":"https://x.test/"}`, `{"agent_readiness":null}`, `not json`, `{"agent_readiness":{"level":"none","signals":[]}}`} {
		out.Reset()
		require.NoError(t, printAgentReadiness(&out, []byte(b)))
		require.Empty(t, out.String(), b)
	}
}
