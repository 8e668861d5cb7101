package scanner

import (
	"fmt"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/storable"
)

// makeStorable makes everything a completion derived from the site storable
// in PostgreSQL (see internal/store/storable): summaries, evidence, the report and the
// triage dossier may quote titles, headers, structured data and file
// contents holding NUL bytes or invalid UTF-8, which text and jsonb
// columns refuse — and one refused value would fail the whole scan.
func makeStorable(c *store.Completion) error {
	for i := range c.Checks {
		row := &c.Checks[i]
		row.Summary = storable.Text(row.Summary)
		ev, err := storable.Map(row.Evidence)
		if err != nil {
			return fmt.Errorf("evidence of %s: %w", row.CheckID, err)
		}
		row.Evidence = ev
	}
	doc, err := storable.Marshal(c.Report)
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	c.Report = doc
	if c.Triage != nil {
		body, err := storable.Marshal(c.Triage.Body)
		if err != nil {
			return fmt.Errorf("encode triage: %w", err)
		}
		c.Triage.Body = body
	}
	return nil
}
