package scanner

import (
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

func TestReportLanguage(t *testing.T) {
	site := func(lang string) *fetch.Site { return &fetch.Site{HomePage: &page.Page{Lang: lang}} }
	for _, c := range []struct {
		name      string
		requested *string
		site      *fetch.Site
		want      string
	}{
		{"requested", new("fr"), site("de"), "fr"},
		{"site's region", nil, site("de-AT"), "de"},
		{"site's unsupported", nil, site("ja"), "en"},
		{"site undeclared", nil, site(""), "en"},
		{"no homepage", nil, &fetch.Site{}, "en"},
		{"no site", nil, nil, "en"},
	} {
		if got := reportLanguage(c.requested, c.site); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
