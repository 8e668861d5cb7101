package i18n_test

// The check texts' catalogues. checks.en.toml is written from the check
// catalog (package checks stays the source of the English), and the
// translations are held to it: the same ids, nothing left empty or in
// English, every code span and number carried over, and each made from the
// English as it is now (a translation carries the hash of its English, the
// way goi18n merge marks it, so a changed English text shows up as an
// outdated translation rather than going unnoticed). The test lives in
// the external test package so that package checks may one day use this
// one without an import cycle.

import (
	"bytes"
	"crypto/sha1"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/i18n"
)

var update = flag.Bool("update", false, "rewrite locales/checks.en.toml from the check catalog")

// checkTranslations is the languages the check texts are translated
// into: every supported language but English, the source.
func checkTranslations() []string {
	var out []string
	for _, lang := range i18n.Supported {
		if lang != i18n.English {
			out = append(out, lang)
		}
	}
	return out
}

func checksFile(lang string) string {
	return filepath.Join("locales", "checks."+lang+".toml")
}

// checkMessages is every check text of the catalog by message id, in
// report order.
func checkMessages() (ids []string, texts map[string]string) {
	texts = map[string]string{}
	for _, c := range checks.All() {
		for _, a := range []struct {
			name string
			text checks.Text
		}{{"marketing", c.Marketing}, {"engineering", c.Engineering}} {
			for _, f := range []struct{ name, text string }{
				{"title", a.text.Title}, {"why", a.text.Why}, {"fix", a.text.Fix},
			} {
				id := "check." + c.ID + "." + a.name + "." + f.name
				ids = append(ids, id)
				texts[id] = f.text
			}
		}
	}
	return ids, texts
}

// englishCheckCatalog is checks.en.toml as the catalog writes it.
func englishCheckCatalog() []byte {
	ids, texts := checkMessages()
	var b bytes.Buffer
	b.WriteString("# The English texts of the checks, written from the check catalog\n")
	b.WriteString("# (internal/audit/checks): change a text there, then run\n")
	b.WriteString("#   go test ./internal/i18n -run TestCheckCatalog -update\n")
	b.WriteString("# The ids are check.<check id>.<marketing|engineering>.<title|why|fix>.\n")
	b.WriteString("# A translation carries the hash of the English it was made from.\n")
	last := ""
	for _, id := range ids {
		check := strings.Split(id, ".")[1]
		if check != last {
			fmt.Fprintf(&b, "\n# %s\n", check)
			last = check
		} else {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "[%s]\nother = %s\n", tomlString(id), tomlString(texts[id]))
	}
	return b.Bytes()
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// sourceHash is the hash a translation of english carries: what goi18n
// merge writes for a message without a description.
func sourceHash(english string) string {
	return fmt.Sprintf("sha1-%x", sha1.Sum([]byte(english)))
}

// readCheckCatalog is a checks.<lang>.toml as go-i18n reads it.
func readCheckCatalog(t *testing.T, lang string) map[string]*goi18n.Message {
	t.Helper()
	buf, err := os.ReadFile(checksFile(lang))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := goi18n.ParseMessageFileBytes(buf, filepath.Base(checksFile(lang)),
		map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*goi18n.Message{}
	for _, m := range mf.Messages {
		out[m.ID] = m
	}
	return out
}

func TestCheckCatalog(t *testing.T) {
	want := englishCheckCatalog()
	if *update {
		if err := os.WriteFile(checksFile("en"), want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(checksFile("en"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not the check catalog's English; run go test ./internal/i18n -run TestCheckCatalog -update", checksFile("en"))
	}
	// What go-i18n reads back is the catalog's text, character for
	// character, and none of it is taken for a template.
	ids, texts := checkMessages()
	read := readCheckCatalog(t, "en")
	if len(read) != len(ids) {
		t.Errorf("go-i18n reads %d messages from %s, the catalog has %d", len(read), checksFile("en"), len(ids))
	}
	for _, id := range ids {
		if m := read[id]; m == nil || m.Other != texts[id] {
			t.Errorf("%s does not read back as %q", id, texts[id])
		}
		if strings.Contains(texts[id], "{{") {
			t.Errorf("%s contains {{, which go-i18n would run as a template", id)
		}
	}
}

// codeSpan is a `code span` of a text: a file name, a tag, a header or a
// token that is written the same in every language.
var codeSpan = regexp.MustCompile("`[^`]*`")

// number is a number in prose; its grouping and decimal marks may follow
// the language ("50,000" is "50.000" in German and "50 000" in French).
var number = regexp.MustCompile(`\d+(?:[.,\x{00A0}\x{202F}]\d+)*`)

// numbers is the digits of every number of s outside code spans, in order.
func numbers(s string) []string {
	var out []string
	for _, n := range number.FindAllString(codeSpan.ReplaceAllString(s, " "), -1) {
		out = append(out, strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, n))
	}
	slices.Sort(out)
	return out
}

func TestCheckCatalogTranslations(t *testing.T) {
	ids, english := checkMessages()
	for _, lang := range checkTranslations() {
		t.Run(lang, func(t *testing.T) {
			got := readCheckCatalog(t, lang)
			for _, id := range ids {
				m, ok := got[id]
				if !ok {
					t.Errorf("%s has no %s", checksFile(lang), id)
					continue
				}
				tr, en := m.Other, english[id]
				if want := sourceHash(en); m.Hash != want {
					t.Errorf("%s: %s was translated from another English text than %q; translate it anew and set its hash to %q", lang, id, en, want)
				}
				if strings.TrimSpace(tr) == "" {
					t.Errorf("%s: %s is empty", lang, id)
					continue
				}
				if tr == en && len(strings.Fields(en)) > 3 {
					t.Errorf("%s: %s is the English text", lang, id)
				}
				if strings.Contains(tr, "{{") {
					t.Errorf("%s: %s contains {{, which go-i18n would run as a template", lang, id)
				}
				spans := codeSpan.FindAllString(en, -1)
				trSpans := codeSpan.FindAllString(tr, -1)
				slices.Sort(spans)
				slices.Sort(trSpans)
				if !slices.Equal(spans, trSpans) {
					t.Errorf("%s: %s has the code spans %q, the English %q", lang, id, trSpans, spans)
				}
				if n, want := numbers(tr), numbers(en); !slices.Equal(n, want) {
					t.Errorf("%s: %s has the numbers %q, the English %q", lang, id, n, want)
				}
			}
			for id := range got {
				if _, ok := english[id]; !ok {
					t.Errorf("%s has %s, which is no check text", checksFile(lang), id)
				}
			}
		})
	}
}
