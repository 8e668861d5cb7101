package scanner

import (
	"fmt"

	"github.com/geoscan/geoscan/internal/pgsafe"
	"github.com/geoscan/geoscan/internal/store"
)

// storable makes everything a completion derived from the site storable
// in PostgreSQL (see pgsafe): summaries, evidence, the report and the
// triage dossier may quote titles, headers, structured data and file
// contents holding NUL bytes or invalid UTF-8, which text and jsonb
// columns refuse — and one refused value would fail the whole scan.
func storable(c *store.Completion) error {
	for i := range c.Checks {
		row := &c.Checks[i]
		row.Summary = pgsafe.Text(row.Summary)
		ev, err := pgsafe.Map(row.Evidence)
		if err != nil {
			return fmt.Errorf("evidence of %s: %w", row.CheckID, err)
		}
		row.Evidence = ev
	}
	doc, err := pgsafe.Marshal(c.Report)
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	c.Report = doc
	if c.Triage != nil {
		body, err := pgsafe.Marshal(c.Triage.Body)
		if err != nil {
			return fmt.Errorf("encode triage: %w", err)
		}
		c.Triage.Body = body
	}
	return nil
}
