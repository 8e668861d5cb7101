package crawl

import (
	"fmt"
	"sort"
	"strings"
)

// SampleMethod says how Run draws its sample, for a report.
const SampleMethod = "homepage first, then round-robin over path templates: each round takes the next URL " +
	"(in the order found) of every path template with the fewest taken so far, its query variants taking turns; " +
	"redirect targets as soon as they are found; a template whose first pages are all canonical copies of others is left"

// Sample says how a crawl's sample was drawn from the inventory.
type Sample struct {
	Method string `json:"method"`
	// Known is the number of distinct pages known (see Inventory.Known);
	// Sampled the number requested.
	Known   int `json:"known"`
	Sampled int `json:"sampled"`
	// TemplateCap is MaxTemplatePages.
	TemplateCap int             `json:"template_cap"`
	Templates   []TemplateCount `json:"templates"`
	// NotKept counts the URLs found once the inventory held URLCap
	// (MaxURLs): discovery was cut there, and the sample was drawn from
	// the URLs found before.
	NotKept int `json:"not_kept,omitempty"`
	URLCap  int `json:"url_cap,omitempty"`
}

// TemplateCount is one template's share of the sample.
type TemplateCount struct {
	Template string `json:"template"`
	Known    int    `json:"known"`
	Sampled  int    `json:"sampled"`
	// Capped marks a template that reached MaxTemplatePages with pages
	// left.
	Capped bool `json:"capped,omitempty"`
	// Copies counts the pages requested whose rel=canonical names another
	// URL; when the first three all did, the template was sampled no
	// further (Copied): its pages say they are copies.
	Copies int  `json:"copies,omitempty"`
	Copied bool `json:"copied,omitempty"`
}

func (inv *Inventory) sample() Sample {
	s := Sample{Method: SampleMethod, TemplateCap: inv.opts.MaxTemplatePages, NotKept: inv.skips.count(ReasonInventoryCap)}
	if s.NotKept > 0 {
		s.URLCap = inv.opts.MaxURLs
	}
	for _, g := range inv.groups {
		tc := TemplateCount{Template: g.template, Sampled: g.taken, Copies: g.copies, Copied: g.copied()}
		left := false
		for _, i := range g.urls {
			switch inv.entries[i].state {
			case Merged:
				continue
			case Known:
				left = true
			}
			tc.Known++
		}
		tc.Capped = left && g.taken >= inv.opts.MaxTemplatePages
		if tc.Known == 0 && tc.Sampled == 0 {
			continue
		}
		s.Known += tc.Known
		s.Sampled += tc.Sampled
		s.Templates = append(s.Templates, tc)
	}
	sort.SliceStable(s.Templates, func(i, j int) bool {
		a, b := s.Templates[i], s.Templates[j]
		if a.Known != b.Known {
			return a.Known > b.Known
		}
		return a.Template < b.Template
	})
	return s
}

// maxPrintedTemplates bounds the rows String prints.
const maxPrintedTemplates = 25

// String renders the sample as plain text: a sentence and a table of the
// largest templates. Templates are built from escaped URL paths, so they
// hold no spaces or control characters.
func (s Sample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Sampled %d of %d known pages over %d templates (%s).\n", s.Sampled, s.Known, len(s.Templates), s.Method)
	if s.NotKept > 0 {
		fmt.Fprintf(&b, "Discovery was cut at the crawl's limit of %d URLs: %d more URLs found were not kept, and the sample was drawn from those found before.\n", s.URLCap, s.NotKept)
	}
	width := len("template")
	for i, t := range s.Templates {
		if i == maxPrintedTemplates {
			break
		}
		width = max(width, min(len(t.Template), 60))
	}
	fmt.Fprintf(&b, "  %-*s %8s %8s\n", width, "template", "known", "sampled")
	for i, t := range s.Templates {
		if i == maxPrintedTemplates {
			fmt.Fprintf(&b, "  … and %d more templates\n", len(s.Templates)-i)
			break
		}
		note := ""
		switch {
		case t.Capped:
			note = fmt.Sprintf("  (capped at %d)", s.TemplateCap)
		case t.Copied:
			note = "  (its pages name others as canonical)"
		}
		fmt.Fprintf(&b, "  %-*s %8d %8d%s\n", width, clip(t.Template, 60), t.Known, t.Sampled, note)
	}
	return b.String()
}
