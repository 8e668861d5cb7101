package scoring

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown prints the rubric tables shown in docs/SCORING.md.
func WriteMarkdown(w io.Writer, checks []CheckDef) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Rubric version: `%s`\n\n", Version)
	b.WriteString("### Rings\n\n| Ring | Share of overall | Pillars (share of ring) |\n|---|---|---|\n")
	for _, ring := range Rings {
		var ps []string
		for _, p := range Pillars {
			if p.Ring == ring {
				ps = append(ps, fmt.Sprintf("`%s` %.2f", p.ID, p.Weight))
			}
		}
		fmt.Fprintf(&b, "| %s | %.2f | %s |\n", ring, RingWeights[ring], strings.Join(ps, ", "))
	}
	b.WriteString("\n### Gates\n\n| Gate | Fires when this check fails | Caps | At |\n|---|---|---|---|\n")
	for _, g := range Gates {
		rings := make([]string, len(g.Rings))
		for i, r := range g.Rings {
			rings[i] = string(r)
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %d |\n", g.ID, g.CheckID, strings.Join(rings, ", "), g.Cap)
	}
	b.WriteString("\n### Grades\n\n| Grade | Lowest score |\n|---|---|\n")
	for _, g := range Grades {
		fmt.Fprintf(&b, "| %s | %g |\n", g.Grade, g.Min)
	}
	b.WriteString("\n### Checks\n\n| Check | Ring | Pillar | Weight | Effort |\n|---|---|---|---|---|\n")
	for _, c := range checks {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %g | %s |\n", c.ID, c.Ring, c.Pillar, c.Weight, c.Effort)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CheckDef is the part of a catalog entry the rubric table shows.
type CheckDef struct {
	ID             string
	Ring           Ring
	Pillar, Effort string
	Weight         float64
}
