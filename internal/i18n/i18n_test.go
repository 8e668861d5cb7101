package i18n

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCatalogueComplete fails when a message of any catalogue file is
// missing in another language, or when a translation's placeholders are
// not the English text's.
func TestCatalogueComplete(t *testing.T) {
	files, err := fs.Glob(localeFiles, "locales/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	// Each catalogue (report, checks, ...) must exist in every language.
	stems := map[string][]string{}
	for _, f := range files {
		base := strings.TrimSuffix(strings.TrimPrefix(f, "locales/"), ".toml")
		i := strings.LastIndex(base, ".")
		if i < 0 {
			t.Errorf("%s: name is not <catalogue>.<lang>.toml", f)
			continue
		}
		stems[base[:i]] = append(stems[base[:i]], base[i+1:])
	}
	if len(stems) == 0 {
		t.Fatal("no catalogue files embedded")
	}
	for stem, langs := range stems {
		for _, lang := range Supported {
			if !slices.Contains(langs, lang) {
				t.Errorf("catalogue %s has no %s file", stem, lang)
			}
		}
		for _, lang := range langs {
			if !IsSupported(lang) {
				t.Errorf("catalogue %s.%s.toml is in an unsupported language", stem, lang)
			}
		}
	}

	en, err := Messages(English)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Supported[1:] {
		other, err := Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		for id, text := range en {
			tr, ok := other[id]
			switch {
			case !ok:
				t.Errorf("%s: %q is missing", lang, id)
			case strings.TrimSpace(tr) == "" && strings.TrimSpace(text) != "":
				t.Errorf("%s: %q is empty", lang, id)
			case !slices.Equal(placeholders(text), placeholders(tr)):
				t.Errorf("%s: %q has placeholders %v, English %v", lang, id, placeholders(tr), placeholders(text))
			}
		}
		for id := range other {
			if _, ok := en[id]; !ok {
				t.Errorf("%s: %q is not in the English catalogue", lang, id)
			}
		}
	}
}

var placeholder = regexp.MustCompile(`{{\s*\.([A-Za-z0-9_]+)\s*}}`)

// placeholders is the sorted set of a template's fields.
func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestPlaceholdersSeeMismatch(t *testing.T) {
	// The completeness test relies on this: a renamed field differs.
	if slices.Equal(placeholders("{{.Date}} and {{ .Rubric }}"), placeholders("{{.Datum}} {{.Rubric}}")) {
		t.Fatal("placeholders do not tell Date from Datum")
	}
}

func TestResolve(t *testing.T) {
	for _, c := range []struct{ requested, site, want string }{
		{"fr", "de", "fr"},
		{"", "de-AT", "de"},
		{"", "es_MX", "es"},
		{"", "FR", "fr"},
		{"", "pt-BR", "en"},
		{"", "", "en"},
		{"it", "de", "de"},
		{"it", "nl", "en"},
	} {
		if got := Resolve(c.requested, c.site); got != c.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", c.requested, c.site, got, c.want)
		}
	}
}

func TestT(t *testing.T) {
	de := For("de")
	if got := de.T("html.summary", nil); got != "Zusammenfassung" {
		t.Errorf("de html.summary = %q", got)
	}
	if got := de.T("html.grade", map[string]any{"Grade": "B"}); got != "Note B" {
		t.Errorf("de html.grade = %q", got)
	}
	if got := For("xx").T("html.summary", nil); got != "Executive summary" {
		t.Errorf("unsupported language: %q", got)
	}
	if got := de.T("html.no_such_message", nil); got != "html.no_such_message" {
		t.Errorf("unknown id: %q", got)
	}
}

func TestCheckText(t *testing.T) {
	if got := For("fr").CheckText("no_such_check", "marketing", "title", "English title"); got != "English title" {
		t.Errorf("missing translation: %q", got)
	}
	if got := For("en").CheckText("no_such_check", "marketing", "title", "English title"); got != "English title" {
		t.Errorf("English: %q", got)
	}
	// Every translated check text is found by its id.
	en, err := Messages(English)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Supported[1:] {
		tr, err := Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		for id, text := range tr {
			parts := strings.Split(id, ".")
			if len(parts) != 5 || parts[0] != "check" {
				continue
			}
			if got := For(lang).CheckText(parts[1], parts[2], parts[3], en[id]); got != text {
				t.Errorf("%s %s: CheckText = %q, want %q", lang, id, got, text)
			}
		}
	}
}

func TestFormats(t *testing.T) {
	day := time.Date(2026, 3, 7, 23, 0, 0, 0, time.UTC)
	for _, c := range []struct{ lang, n, date string }{
		{"en", "1,234,567", "7 Mar 2026"},
		{"de", "1.234.567", "07.03.2026"},
		{"fr", "1\u00a0234\u00a0567", "07/03/2026"},
		{"es", "1.234.567", "07/03/2026"},
	} {
		l := For(c.lang)
		if got := l.Int(1234567); got != c.n {
			t.Errorf("%s Int = %q, want %q", c.lang, got, c.n)
		}
		if got := l.Date(day); got != c.date {
			t.Errorf("%s Date = %q, want %q", c.lang, got, c.date)
		}
	}
	if got := For("de").Number(12.5, 1); got != "12,5" {
		t.Errorf("de Number = %q", got)
	}
}
