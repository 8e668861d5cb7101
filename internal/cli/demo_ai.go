package cli

import (
	"context"
	"fmt"
	"net"
	"strings"
	"text/tabwriter"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// demoEngine starts the scripted demo engine on loopback and returns it
// as an answer engine labelled as such in every piece of evidence.
func demoEngine(ctx context.Context) (llm.Engine, func(), error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("scripted demo engine: %w", err)
	}
	srv := scripted.Listen(ln, scripted.Demo())
	e, err := llm.NewOpenAI(llm.EngineConfig{
		Name: scripted.DemoName, BaseURL: srv.URL, Model: scripted.DemoModel,
		Capabilities: []llm.Capability{llm.Chat, llm.WebSearch}, Scripted: true,
	})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return e, srv.Close, nil
}

// printAI shows each completed scan's AI mention verdicts and who wrote
// its executive summary.
func printAI(ctx context.Context, e env, c *client.ClientWithResponses, results []client.Scan) error {
	fmt.Fprintln(e.stdout, "\nAI mentions, measured with the scripted demo engine (canned answers, not a real assistant):")
	engineering := client.GetScanReportParamsAudienceEngineering
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FIXTURE\tRECOGNITION\tACCURACY\tCATEGORY MENTIONS\tSEARCH CITATION\tSUMMARY BY")
	for i, s := range results {
		if s.Status != client.ScanStatusCompleted {
			continue
		}
		resp, err := c.GetScanReportWithResponse(ctx, s.ID, &client.GetScanReportParams{Audience: &engineering})
		if err != nil {
			return fmt.Errorf("read the report of %s: %w", s.ID, err)
		}
		r := resp.JSON200
		if r == nil {
			continue
		}
		cells := map[string]string{}
		for _, ch := range r.Checks {
			if ch.Pillar != "ai_mentions" {
				continue
			}
			cell := string(ch.Status)
			if k, ok := ch.Evidence["k"].(float64); ok {
				cell += fmt.Sprintf(" %d/%.0f", int(k), ch.Evidence["n"])
			}
			cells[ch.ID] = cell
		}
		by := "template"
		if p := r.Summaries.Provenance; p != nil && p.Executive.Source == client.ProvenanceLlm {
			by = "llm: " + deref(p.Executive.Model)
		}
		printf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", testsite.Realistic[i], cells["llm_brand_recognition"], cells["llm_brand_accuracy"],
			cells["llm_category_mention_rate"], cells["llm_search_citation"], strings.TrimSpace(by))
	}
	return tw.Flush()
}
