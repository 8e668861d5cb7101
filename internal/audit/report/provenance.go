package report

import "github.com/geoscan/geoscan/gen/api"

// TemplateProvenance says that all four summaries are templates; package
// summary replaces an entry when a language model's text passes its
// validator.
func TemplateProvenance() *api.SummaryProvenances {
	t := api.SummaryProvenance{Source: api.ProvenanceTemplate}
	return &api.SummaryProvenances{Executive: t, Search: t, Visibility: t, Trust: t}
}

func caveats(in Input) *[]string {
	out := append([]string{}, in.Caveats...)
	return &out
}

func countOne(n *int) *int {
	v := 1
	if n != nil {
		v = *n + 1
	}
	return &v
}
