package mentions

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/llm/scripted"
)

// The winery as a German scan measures it: its markup gives the category,
// an offer and the location, each found in its visible text.
func winery(lang string) Subject {
	return Subject{
		Brand: "Weingut Sonnhalde", Host: "www.sonnhalde.test", Language: lang,
		Facts: []Fact{
			{Key: FactName, Value: "Weingut Sonnhalde", Source: "JSON-LD name"},
			{Key: FactFounded, Value: "1898", Source: "JSON-LD foundingDate"},
			{Key: FactCategory, Value: "Weingut", Source: "JSON-LD @type"},
			{Key: FactOffer, Value: "Spätburgunder", Source: "JSON-LD makesOffer"},
			{Key: FactLocation, Value: "Kaiserstuhl", Source: "JSON-LD address"},
		},
		Visible: visibleSites["de"],
	}
}

// germanWorld answers like an assistant asked in German: it knows the
// winery by name, has nothing on its domain, and lists it second among
// wineries. An English question gets an English answer.
func germanWorld(c scripted.Call) scripted.Reply {
	switch {
	case c.Schema == "fact_verdicts":
		return confirmAll(c)
	case strings.HasPrefix(c.Prompt, "Was ist "):
		return scripted.Reply{Text: "Weingut Sonnhalde ist ein Familienweingut am Kaiserstuhl, gegründet 1898, bekannt für Spätburgunder."}
	case strings.HasPrefix(c.Prompt, "Was bietet "):
		return scripted.Reply{Text: "Leider habe ich keine Informationen über sonnhalde.test."}
	case strings.HasPrefix(c.Prompt, "What "), strings.HasPrefix(c.Prompt, "Which "), strings.HasPrefix(c.Prompt, "I'm "):
		return scripted.Reply{Text: "Weingut Sonnhalde is a family winery on the Kaiserstuhl."}
	}
	return scripted.Reply{Text: "Empfehlenswert sind:\n1. **Weingut Heger** – Spitzenlage\n2. **Weingut Sonnhalde** – Familienbetrieb"}
}

// A German scan asks its branded and buyer questions in German, reads
// the German answers as it reads English ones (known, no information,
// mentioned at a position), and keeps the JSON calls' machine-readable
// shape.
func TestGermanScanAsksInGerman(t *testing.T) {
	t.Parallel()
	b := setup(t, germanWorld)
	res, _ := b.measure(roomy, winery("de"))
	require.Equal(t, "de", res.Language)

	var asked []string
	for _, c := range b.srv.Received() {
		if c.Schema == "" {
			asked = append(asked, c.Prompt)
		}
	}
	require.Contains(t, asked, "Was ist Weingut Sonnhalde?")
	require.Contains(t, asked, "Was bietet sonnhalde.test an?")
	require.Contains(t, asked, "Was sind die besten Optionen im Bereich Weingut in Kaiserstuhl? Nenne konkrete Unternehmen oder Marken.")
	require.Contains(t, asked, "Welchen Anbieter im Bereich Weingut würdest du in Kaiserstuhl empfehlen, und warum?")
	require.Contains(t, asked, "Ich suche Spätburgunder in Kaiserstuhl. Bei wem sollte ich kaufen?")
	for _, p := range asked {
		require.False(t, strings.HasPrefix(p, "What") || strings.HasPrefix(p, "Which") || strings.HasPrefix(p, "I'm"), "asked in English: %q", p)
	}

	for _, r := range res.Recognition.Runs {
		want := Known
		if r.Prompt == "b2" {
			want = NoInformation
		}
		require.Equal(t, want, r.Outcome, "%s run %d: %s", r.Prompt, r.Run, r.Answer)
	}
	require.Equal(t, len(res.Category.Runs), res.Category.Count(Mentioned))
	for _, r := range res.Category.Runs {
		require.Equal(t, 2, r.Position, r.Answer)
		require.Equal(t, []string{"Weingut Heger"}, r.Others)
	}
	require.Len(t, res.Accuracy, 1)
	require.Empty(t, res.Accuracy[0].Error)
	require.NotEmpty(t, res.Accuracy[0].Facts)
}

// An answer cached for a German question is not an English answer: the
// same site measured in English asks afresh, and each language finds its
// own answers in the cache the next time.
func TestAnswerCacheSeparatesLanguages(t *testing.T) {
	t.Parallel()
	b := setup(t, germanWorld)
	layer := &llm.Layer{Default: b.engines[0], Engines: b.engines, Limits: roomy, Cache: &llm.MemoryCache{}}
	measure := func(lang string) *Result {
		return Measure(context.Background(), layer.Session(testDay), winery(lang))
	}
	probes := func(r *Result) []Run { return append(append([]Run{}, r.Recognition.Runs...), r.Category.Runs...) }

	for _, r := range probes(measure("de")) {
		require.False(t, r.Cached)
	}
	calls := b.srv.Calls()
	en := measure("en")
	require.Empty(t, en.Language)
	for _, r := range probes(en) {
		require.False(t, r.Cached, "%s: an English question is not answered from the German cache", r.Prompt)
	}
	require.Greater(t, b.srv.Calls(), calls)

	calls = b.srv.Calls()
	for _, lang := range []string{"de", "en"} {
		for _, r := range probes(measure(lang)) {
			require.True(t, r.Cached, "%s %s", lang, r.Prompt)
		}
	}
	require.Equal(t, calls, b.srv.Calls())
}

func TestQuestionsInEachLanguage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, b1, c2 string
	}{
		{"en", "What is Acme?", "Which bakery would you recommend in Lyon, and why?"},
		{"", "What is Acme?", "Which bakery would you recommend in Lyon, and why?"},
		{"it", "What is Acme?", "Which bakery would you recommend in Lyon, and why?"},
		{"de", "Was ist Acme?", "Welchen Anbieter im Bereich bakery würdest du in Lyon empfehlen, und warum?"},
		{"fr", "Qu'est-ce que Acme ?", "Quelle entreprise recommanderais-tu en matière de bakery à Lyon, et pourquoi ?"},
		{"es", "¿Qué es Acme?", "¿Qué empresa de bakery recomendarías en Lyon y por qué?"},
	} {
		require.Equal(t, c.b1, brandedPrompts("Acme", "acme.test", c.lang)[0].Text, c.lang)
		ps := categoryPrompts("bakery", "bread", "Lyon", c.lang)
		require.Len(t, ps, 4, c.lang)
		require.Equal(t, c.c2, ps[1].Text, c.lang)
		require.Equal(t, questionLanguage(c.lang), promptRequest(ps[1], c.lang).Language, c.lang)
		for _, p := range ps {
			require.Equal(t, KindCategory, p.Kind)
			require.Contains(t, p.Text, "Lyon", c.lang)
		}
	}
}

// A model says it does not know a brand in any of the questions'
// languages; an answer that merely negates something is not that.
func TestSaysNoInformationInEachLanguage(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"Ich habe keine Informationen über Acme.",
		"Leider habe ich keine spezifischen Informationen zu Acme.",
		"Zu Acme liegen mir leider keine Informationen vor.",
		"Acme ist mir nicht bekannt.",
		"Ich kenne Acme nicht.",
		"Je n'ai pas d'informations sur Acme.",
		"Je ne dispose d'aucune information fiable concernant Acme.",
		"Je ne connais pas Acme.",
		"No tengo información sobre Acme.",
		"No dispongo de datos fiables acerca de Acme.",
		"No estoy familiarizado con Acme.",
	} {
		require.True(t, SaysNoInformation(text), text)
	}
	for _, text := range []string{
		"Acme ist eine Bäckerei in Lyon. Ich kenne nicht alle Anbieter, aber Acme ist beliebt.",
		"Acme propose du pain au levain ; je ne suis pas sûr des horaires.",
		"Acme es una panadería: no tiene tienda online.",
	} {
		require.False(t, SaysNoInformation(text), text)
	}
}

// Words of the questions' languages around an ordinary-word brand mark it
// as a name, as "app" or "Inc" do in English.
func TestOrdinaryBrandInContextInEachLanguage(t *testing.T) {
	t.Parallel()
	m := NewMatcher("Notion", nil, "notion.so")
	for _, text := range []string{
		"Die Plattform Notion eignet sich dafür.",
		"La plateforme Notion convient bien.",
		"La empresa Notion ofrece plantillas.",
	} {
		ok, _ := m.Mentions(text)
		require.True(t, ok, text)
	}
	ok, _ := m.Mentions("Notion ist ein schönes Wort.")
	require.False(t, ok)
}
