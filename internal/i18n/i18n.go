// Package i18n holds the languages GeoScan writes for people in (reports,
// their HTML page and PDF, the emails): one message catalogue per language,
// embedded from locales/*.<lang>.toml, and the rules that choose a
// language for a scan.
//
// English is the source: every message has an English text, and a message
// missing from another catalogue falls back to it, so a reader never sees a
// message id. The catalogue test fails when a message is missing in any
// language, or when a translation's placeholders differ from the English.
package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Supported is the languages there is a catalogue for, English first.
var Supported = []string{"en", "de", "fr", "es"}

// English is the source language and the fallback.
const English = "en"

//go:embed locales/*.toml
var localeFiles embed.FS

// bundle holds every catalogue; it is read once, at start, and only read
// after.
var bundle = func() *goi18n.Bundle {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := fs.Glob(localeFiles, "locales/*.toml")
	if err != nil {
		panic("i18n: list catalogues: " + err.Error())
	}
	for _, name := range names {
		buf, err := localeFiles.ReadFile(name)
		if err != nil {
			panic("i18n: read " + name + ": " + err.Error())
		}
		if _, err := b.ParseMessageFileBytes(buf, path.Base(name)); err != nil {
			panic("i18n: parse " + name + ": " + err.Error())
		}
	}
	return b
}()

// IsSupported is whether there is a catalogue for the language tag lang.
func IsSupported(lang string) bool {
	return slices.Contains(Supported, lang)
}

// Resolve is the language of a scan: the one requested when there is a
// catalogue for it; else the primary subtag of the site's declared
// language (<html lang>, "de-AT" is "de") when there is one for that; else
// English.
func Resolve(requested, siteLang string) string {
	if IsSupported(requested) {
		return requested
	}
	primary, _, _ := strings.Cut(strings.TrimSpace(siteLang), "-")
	primary, _, _ = strings.Cut(primary, "_")
	primary = strings.ToLower(primary)
	if IsSupported(primary) {
		return primary
	}
	return English
}

// Localizer writes the messages of one language.
type Localizer struct {
	lang    string
	loc     *goi18n.Localizer
	printer *message.Printer
}

// For is the localizer of lang; an unsupported one is English's.
func For(lang string) *Localizer {
	if !IsSupported(lang) {
		lang = English
	}
	return &Localizer{
		lang:    lang,
		loc:     goi18n.NewLocalizer(bundle, lang, English),
		printer: message.NewPrinter(language.MustParse(lang)),
	}
}

// Lang is the localizer's language tag.
func (l *Localizer) Lang() string { return l.lang }

// T is the message id in the localizer's language, its placeholders filled
// from data; English when the language lacks it, and the id itself only when
// no catalogue has it (a programming error the catalogue test catches).
func (l *Localizer) T(id string, data map[string]any) string {
	s, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if err != nil || s == "" {
		return id
	}
	return s
}

// Tf is T with the placeholders given as name, value pairs, for templates:
// {{.W.Tf "html.grade" "Grade" .Grade}}.
func (l *Localizer) Tf(id string, pairs ...any) string {
	data := make(map[string]any, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		if k, ok := pairs[i].(string); ok {
			data[k] = pairs[i+1]
		}
	}
	return l.T(id, data)
}

// CheckText is a check's text for an audience ("marketing" or
// "engineering") and a field ("title", "why" or "fix") in the localizer's
// language: the message check.<id>.<audience>.<field>, or english when
// there is no translation.
func (l *Localizer) CheckText(id, audience, field, english string) string {
	if l.lang == English {
		return english
	}
	msgID := "check." + id + "." + audience + "." + field
	s, tag, err := l.loc.LocalizeWithTag(&goi18n.LocalizeConfig{MessageID: msgID})
	if err != nil || s == "" || tag != language.MustParse(l.lang) {
		return english
	}
	return s
}

// Int is n with the language's digit grouping ("1,234", "1.234").
func (l *Localizer) Int(n int) string {
	return l.printer.Sprintf("%d", n)
}

// Number is f with the language's grouping and decimal mark, to the given
// decimals.
func (l *Localizer) Number(f float64, decimals int) string {
	return l.printer.Sprintf("%.*f", decimals, f)
}

// dateLayouts are the day's written forms, numeric where the month's name
// would need a translation.
var dateLayouts = map[string]string{
	"en": "2 Jan 2006",
	"de": "02.01.2006",
	"fr": "02/01/2006",
	"es": "02/01/2006",
}

// Date is t's day in the language's form, in UTC.
func (l *Localizer) Date(t time.Time) string {
	return t.UTC().Format(dateLayouts[l.lang])
}

// Messages is every message id of lang's catalogues with its text (the
// "other" form), for the catalogue test and tools that list them.
func Messages(lang string) (map[string]string, error) {
	names, err := fs.Glob(localeFiles, "locales/*."+lang+".toml")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, name := range names {
		buf, err := localeFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		mf, err := goi18n.ParseMessageFileBytes(buf, path.Base(name), map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal})
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		for _, m := range mf.Messages {
			out[m.ID] = m.Other
		}
	}
	return out, nil
}
