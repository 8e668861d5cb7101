package mentions

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/publicsuffix"
)

// Every entry of the lists is a registrable domain or a single name
// followed by ".*", and no entry is in two lists.
func TestSourceListsAreWellFormed(t *testing.T) {
	t.Parallel()
	seen := map[string]string{}
	for kind, list := range map[string]string{
		SourceMarketplace: marketplaceSites, SourceEditorial: editorialSites, SourceReview: reviewSites,
	} {
		entries := strings.Fields(list)
		require.NotEmpty(t, entries, kind)
		for _, d := range entries {
			require.Equal(t, strings.ToLower(d), d, "%s is in lower case", d)
			if name, ok := strings.CutSuffix(d, ".*"); ok {
				require.NotContains(t, name, ".", "%s: a wildcard entry is one name", d)
				require.NotEmpty(t, name, d)
			} else {
				etld1, err := publicsuffix.EffectiveTLDPlusOne(d)
				require.NoError(t, err, d)
				require.Equal(t, etld1, d, "%s is a registrable domain", d)
			}
			prev, dup := seen[d]
			require.False(t, dup, "%s is listed as %s and as %s", d, prev, kind)
			seen[d] = kind
		}
	}
}

func TestClassifySource(t *testing.T) {
	t.Parallel()
	competitors := map[string]bool{"greggs.co.uk": true, "amazon.com": true}
	for _, c := range []struct{ host, want string }{
		// The scan's own sites first, whatever the lists say.
		{"www.millbrook-bakery.test", SourceOwnSite},
		{"shop.millbrook-bakery.test", SourceOwnSite},
		{"greggs.co.uk", SourceCompetitor},
		{"www.amazon.com", SourceCompetitor},
		// A listed domain and its subdomains.
		{"en.wikipedia.org", SourceEditorial},
		{"www.theguardian.com", SourceEditorial},
		{"www.g2.com", SourceReview},
		{"booking.com", SourceMarketplace},
		// A name listed for any public suffix.
		{"www.amazon.co.uk", SourceMarketplace},
		{"amazon.de", SourceMarketplace},
		{"de.trustpilot.com", SourceReview},
		{"uk.trustpilot.com", SourceReview},
		{"www.tripadvisor.fr", SourceReview},
		{"capterra.com.au", SourceReview},
		{"www.ebay.fr", SourceMarketplace},
		// A name listed for one domain only is that domain only.
		{"booking.fr", SourceOther},
		{"g2.co.uk", SourceOther},
		// Not listed: other; a longer name is not the listed one.
		{"reddit.com", SourceOther},
		{"notamazon.com", SourceOther},
		{"amazon.example.com", SourceOther},
		{"", SourceOther},
	} {
		got := classifySource(RegistrableDomain(c.host), "millbrook-bakery.test", competitors)
		require.Equal(t, c.want, got, c.host)
	}
}
