package mentions

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMatcherWholeWordsCaseAware(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		brand   string
		aliases []string
		host    string
		text    string
		want    bool
	}{
		// Distinctive names: whole words, any case.
		{"Millbrook Bakery", nil, "www.millbrook-bakery.test", "Try millbrook bakery on Mill Lane.", true},
		{"Millbrook Bakery", nil, "www.millbrook-bakery.test", "Millbrook-Bakery is popular.", true},
		{"Millbrook Bakery", nil, "www.millbrook-bakery.test", "The Millbrookbakery chain", false},
		{"Millbrook Bakery", nil, "www.millbrook-bakery.test", "Millbrook. Bakery shops abound.", false},
		{"Acme", nil, "acme.test", "Acmeville is a town.", false},
		{"Acme", nil, "acme.test", "I like ACME for this.", true},
		// The domain, a subdomain, with a path or trailing dot; not a
		// longer host that merely contains it.
		{"Brand", nil, "www.geoready.app", "See shop.geoready.app/pricing.", true},
		{"Brand", nil, "www.geoready.app", "Visit geoready.app.", true},
		{"Brand", nil, "www.geoready.app", "Visit geoready.app.evil.test for more", false},
		{"Brand", nil, "www.geoready.app", "mygeoready.app is different", false},
		{"Brand", nil, "shop.example.co.uk", "example.co.uk sells it", true},
		// Acronyms only in capitals.
		{"GEO", nil, "geo-tools.test", "GEO is a practice.", true},
		{"GEO", nil, "geo-tools.test", "geo data", false},
		// Ordinary words: only capitalised and in brand context.
		{"Monday", nil, "monday.com", "See you on Monday at the office.", false},
		{"Monday", nil, "monday.com", "Use Monday or Asana.", false},
		{"Monday", nil, "monday.com", "1. **Monday** – a work OS", true},
		{"Monday", nil, "monday.com", "- Monday: boards and automations", true},
		{"Monday", nil, "monday.com", "Monday (monday.com) is a work platform.", true},
		{"Monday", nil, "monday.com", "The Monday app has boards.", true},
		{"Zoom", nil, "zoom.test", "Zoom in to see the details.", false},
		{"Zoom", nil, "zoom.test", "You can zoom out.", false},
		{"Zoom", nil, "zoom.test", "Zoom's pricing is clear.", true},
		{"Zoom", []string{"Zoom Video Communications"}, "zoom.test", "zoom video communications builds it", true},
		// All-word names need title case.
		{"Green Garden", nil, "greengarden.test", "Plant a green garden this year.", false},
		{"Green Garden", nil, "greengarden.test", "Green Garden delivers seedlings.", true},
		// Aliases count.
		{"Weingut Sonnhalde", []string{"Sonnhalde"}, "weingut-sonnhalde.test", "Sonnhalde makes Riesling.", true},
		{"", nil, "", "", false},
	} {
		m := NewMatcher(c.brand, c.aliases, c.host)
		got, _ := m.Mentions(c.text)
		require.Equal(t, c.want, got, "%q in %q", c.brand, c.text)
	}
}

func TestNoInformationAnswers(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"I don't have any specific information about Millbrook Bakery.":      true,
		"I’m not familiar with a company called Acme Widgets.":               true,
		"I couldn't find reliable information on that brand.":                true,
		"There is no publicly available information about it.":               true,
		"I do not know this company.":                                        true,
		"Millbrook Bakery is a bakery in Hebden Bridge known for sourdough.": false,
		"I know several good bakeries; Millbrook Bakery is one.":             false,
	} {
		require.Equal(t, want, SaysNoInformation(text), text)
	}
}

func TestNamedBrandsInOrder(t *testing.T) {
	t.Parallel()
	text := "Here are some options:\n\n1. **Greggs** – a chain with many shops.\n2. **Millbrook Bakery**: sourdough in Hebden Bridge\n" +
		"3. Bettys (Harrogate) is famous.\n- lowercase item is ignored\nAlso consider **Hambleton Bakery**."
	require.Equal(t, []string{"Greggs", "Millbrook Bakery", "Bettys", "Hambleton Bakery"}, NamedBrands(text))
	m := NewMatcher("Millbrook Bakery", nil, "millbrook-bakery.test")
	require.Equal(t, 2, position(m, NamedBrands(text)))
	require.Equal(t, []string{"Greggs", "Bettys", "Hambleton Bakery"}, withoutBrand(m, NamedBrands(text)))
	require.Empty(t, NamedBrands("No list here, just prose."))
}

func TestCleanURLAndDomain(t *testing.T) {
	t.Parallel()
	require.Equal(t, "https://www.example.com/a?x=1", CleanURL("https://www.example.com/a?utm_source=openai&x=1&utm_medium=x#frag"))
	require.Equal(t, "not a url", CleanURL(" not a url "))
	require.True(t, OnDomain("https://blog.example.com/x", "example.com"))
	require.True(t, OnDomain("https://EXAMPLE.com./", "example.com"))
	require.False(t, OnDomain("https://notexample.com/", "example.com"))
	require.False(t, OnDomain("https://example.com.evil.test/", "example.com"))
	require.False(t, OnDomain("::", "example.com"))
	require.Equal(t, "example.co.uk", RegistrableDomain("www.shop.example.co.uk"))
	require.Equal(t, "millbrook-bakery.test", RegistrableDomain("www.millbrook-bakery.test:8443"))
}

func TestWilson(t *testing.T) {
	t.Parallel()
	lo, hi := Wilson(0, 12)
	require.InDelta(t, 0, lo, 1e-9)
	require.InDelta(t, 0.242, hi, 1e-9)
	lo, hi = Wilson(6, 12)
	require.InDelta(t, 0.254, lo, 1e-9)
	require.InDelta(t, 0.746, hi, 1e-9)
	lo, hi = Wilson(3, 3)
	require.InDelta(t, 0.439, lo, 1e-9)
	require.InDelta(t, 1, hi, 1e-9)
	lo, hi = Wilson(0, 0)
	require.Zero(t, lo+hi)
}
