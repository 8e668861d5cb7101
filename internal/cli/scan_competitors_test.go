package cli

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/scoring"
)

// benchReport is a report with two competitors, one that could not be
// audited, and a share of voice; version is its rubric.
func benchReport(t *testing.T, version, sov string) *client.Report {
	t.Helper()
	body := `{"url":"https://millbrook-bakery.test/","brand_name":"Millbrook Bakery","scoring_version":"` + version + `",
		"overall_score":71.4,"overall_grade":"B",
		"rings":{"search":{"score":80,"grade":"B"},"visibility":{"score":70,"grade":"B"},"trust":{"score":60,"grade":"C"}},
		"checks":[
			{"id":"robots_txt_reachable","ring":"search","pillar":"crawl_access","status":"pass","weight":3},
			{"id":"title_tag","ring":"visibility","pillar":"machine_metadata","status":"pass","weight":2},
			{"id":"https_tls","ring":"trust","pillar":"site_security","status":"pass","weight":3},
			{"id":"llm_brand_recognition","ring":"trust","pillar":"ai_mentions","status":"fail","weight":3}],
		"fetch":{"pages":6},
		"competitors":[
			{"url":"https://bakehouse.test/","host":"bakehouse.test","brand":"Bake\u001b[2Jhouse","status":"audited","pages_audited":7,
			 "overall_score":90.9,"overall_grade":"A","rings":{"search":{"score":98,"grade":"A+"},"visibility":{"score":89,"grade":"A"},"trust":{"score":85,"grade":"A"}}},
			{"url":"https://crumb.test/","host":"crumb.test","brand":"Crumb","status":"failed","pages_audited":0,
			 "overall_score":null,"overall_grade":null,"rings":null,"reason":"The homepage could not be fetched: DNS."}],
		"share_of_voice":` + sov + `}`
	var r client.Report
	require.NoError(t, json.Unmarshal([]byte(body), &r))
	return &r
}

const measuredSOV = `{"status":"measured","prompt_set":"2026-11.3","small_sample":false,
	"brands":[
		{"brand":"Millbrook Bakery","domain":"millbrook-bakery.test","you":true,"k":11,"n":22,"rate":0.5,"interval":{"low":0.307,"high":0.693},"mean_position":1.64,"small_sample":false,
		 "engines":[{"engine":"openai","k":11,"n":22,"rate":0.5,"interval":{"low":0.307,"high":0.693},"mean_position":1.64,"small_sample":false}]},
		{"brand":"Crumb","domain":"crumb.test","you":false,"k":1,"n":3,"rate":0.333,"interval":{"low":0.061,"high":0.792},"mean_position":3,"small_sample":true,
		 "engines":[{"engine":"openai","k":0,"n":0,"rate":null,"interval":null,"mean_position":null,"small_sample":true}]}],
	"sources":[
		{"domain":"wikipedia.org","category":"editorial","citations":8,"brands":["millbrook-bakery.test"]},
		{"domain":"trust\u001bpilot.com","category":"review","citations":4,"brands":["crumb.test"]}],
	"citing_competitors_not_you":["trust\u001bpilot.com"]}`

// The benchmark is printed as the PDF shows it, every text escaped: the
// site's row on the competitors' footing (its AI mention check left
// out), a competitor that could not be audited with the reason, the
// share of voice with small samples and engines not checked said so, the
// sources by kind and the sites cited for competitors only.
func TestPrintBenchmark(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, printBenchmark(&out, benchReport(t, scoring.Version, measuredSOV)))
	text := out.String()
	require.NotContains(t, text, "\x1b")
	require.Contains(t, text, "your scores here leave out the AI mention checks")
	require.Regexp(t, `Millbrook Bakery \(you\)\s+millbrook-bakery.test\s+100.0 A\+\s+100 A\+\s+100 A\+\s+100 A\+\s+6`, text,
		"the failed AI mention check is left out: every other check passes")
	require.Regexp(t, `Bake\\x1b\[2Jhouse\s+bakehouse.test\s+90.9 A\s+98 A\+\s+89 A\s+85 A\s+7`, text)
	require.Regexp(t, `Crumb\s+crumb.test\s+not audited: The homepage could not be fetched: DNS`, text)
	require.Regexp(t, `Millbrook Bakery \(you\)\s+all\s+11 of 22\s+50%\s+31–69%\s+1.6`, text)
	require.Regexp(t, `Crumb\s+all\s+1 of 3 \(small sample\)\s+33%\s+6–79%\s+3.0`, text)
	require.Regexp(t, `openai\s+no answer read \(not checked\)\s+-\s+-\s+-`, text)
	require.Contains(t, text, "A small sample is fewer than 4 answers")
	require.Contains(t, text, "  editorial: wikipedia.org (8)\n")
	require.Contains(t, text, `  review: trust\x1bpilot.com (4)`)
	require.Contains(t, text, `Cited for competitors, never for you: trust\x1bpilot.com.`)

	// A report by another rubric shows its own scores and says so; share
	// of voice and sources not measured are said so.
	out.Reset()
	require.NoError(t, printBenchmark(&out, benchReport(t, "2025.1",
		`{"status":"measured","prompt_set":"2026-11.3","brands":[],"sources":[],"citing_competitors_not_you":null}`)))
	text = out.String()
	require.Contains(t, text, "your scores here are the report's, AI mention checks included")
	require.Regexp(t, `Millbrook Bakery \(you\)\s+millbrook-bakery.test\s+71.4 B\s+80 B\s+70 B\s+60 C\s+6`, text)
	require.Contains(t, text, "Sources: not measured")

	out.Reset()
	require.NoError(t, printBenchmark(&out, benchReport(t, scoring.Version,
		`{"status":"not_measured","reason":"no answer engine is configured.","brands":[],"sources":[],"citing_competitors_not_you":null}`)))
	require.Contains(t, out.String(), "Share of voice in AI answers: not measured: no answer engine is configured.\n")

	out.Reset()
	r := benchReport(t, scoring.Version, measuredSOV)
	r.Competitors = nil
	require.NoError(t, printBenchmark(&out, r))
	require.Empty(t, out.String())
}
