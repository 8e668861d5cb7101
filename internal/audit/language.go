package audit

import (
	"github.com/geoscan/geoscan/internal/audit/page"
	"github.com/geoscan/geoscan/internal/i18n"
)

// language is the audit's language: the one asked for when there is a
// catalogue for it, else the homepage's declared one when there is, else
// English (i18n.Resolve, the rule the scan job stores the scan's language
// by).
func (o Options) language(home *page.Page) string {
	declared := ""
	if home != nil {
		declared = home.Lang
	}
	return i18n.Resolve(o.Language, declared)
}
