package mentions

import (
	"strings"

	"golang.org/x/net/publicsuffix"
)

// The kinds of site an answer cites, for share of voice's sources. The
// scanned site and the competitors' sites are known from the scan; the
// third-party kinds come from the lists below.
const (
	SourceOwnSite     = "own_site"
	SourceCompetitor  = "competitor"
	SourceMarketplace = "marketplace"
	SourceEditorial   = "editorial"
	SourceReview      = "review"
	SourceOther       = "other"
)

// The third-party sites GeoScan recognises among the sources of answers,
// by kind. It is a short list of the sites buyers' questions are answered
// from most often, not a directory: a site not listed is "other". Each
// entry is a registrable domain ("booking.com": that domain only), or a
// name followed by ".*" for a brand that runs one site per country under
// any public suffix ("amazon.*": amazon.com, amazon.co.uk, amazon.de). A
// subdomain counts as its registrable domain (en.wikipedia.org is
// wikipedia.org).
const (
	// Marketplaces and aggregators: shops of many sellers, booking and
	// comparison sites, delivery platforms and launch directories.
	marketplaceSites = `
		amazon.* ebay.* etsy.com walmart.com alibaba.com aliexpress.com temu.com wish.com
		rakuten.* mercadolibre.* allegro.pl zalando.* otto.de bol.com cdiscount.com kaufland.de
		idealo.* wayfair.* target.com bestbuy.com homedepot.com lowes.com costco.com newegg.com
		flipkart.com taobao.com tmall.com jd.com shopee.* lazada.* asos.com chewy.com
		booking.com expedia.* hotels.com airbnb.* agoda.com trivago.* kayak.* skyscanner.* vrbo.com
		opentable.* thefork.* ubereats.com doordash.com deliveroo.* just-eat.* lieferando.de grubhub.com
		instacart.com producthunt.com appsumo.com
	`
	// Editorial sites: news, business and trade media, and Wikipedia.
	editorialSites = `
		wikipedia.org nytimes.com theguardian.com bbc.co.uk bbc.com reuters.com apnews.com bloomberg.com
		wsj.com ft.com economist.com washingtonpost.com cnn.com forbes.com fortune.com businessinsider.com
		cnbc.com time.com theatlantic.com npr.org usatoday.com latimes.com independent.co.uk telegraph.co.uk
		techcrunch.com theverge.com wired.com arstechnica.com engadget.com zdnet.com cnet.com pcmag.com
		techradar.com tomsguide.com tomshardware.com venturebeat.com mashable.com gizmodo.com fastcompany.com
		inc.com entrepreneur.com hbr.org axios.com eater.com timeout.com seriouseats.com foodandwine.com
		spiegel.de zeit.de faz.net sueddeutsche.de handelsblatt.com welt.de heise.de t3n.de
		lemonde.fr lefigaro.fr liberation.fr lesechos.fr elpais.com elmundo.es lavanguardia.com expansion.com
	`
	// Review sites: ratings and reviews by customers, of software,
	// businesses, places and employers, and consumer testing.
	reviewSites = `
		trustpilot.* g2.com capterra.* getapp.* softwareadvice.com trustradius.com clutch.co goodfirms.co
		yelp.* tripadvisor.* sitejabber.com consumeraffairs.com bbb.org reviews.io feefo.com
		trustedshops.* ekomi.* glassdoor.* kununu.com productreview.com.au resellerratings.com
		angi.com checkatrade.com which.co.uk consumerreports.org rtings.com
	`
)

// sourceKinds maps each entry of the lists to its kind.
var sourceKinds = func() map[string]string {
	m := map[string]string{}
	for kind, list := range map[string]string{
		SourceMarketplace: marketplaceSites, SourceEditorial: editorialSites, SourceReview: reviewSites,
	} {
		for _, d := range strings.Fields(list) {
			m[d] = kind
		}
	}
	return m
}()

// sourceKind is the kind of third-party site a registrable domain is:
// the kind of its entry, or of its name under any public suffix, else
// other.
func sourceKind(domain string) string {
	if k, ok := sourceKinds[domain]; ok {
		return k
	}
	suffix, _ := publicsuffix.PublicSuffix(domain)
	if name, ok := strings.CutSuffix(domain, "."+suffix); ok && !strings.Contains(name, ".") {
		if k, ok := sourceKinds[name+".*"]; ok {
			return k
		}
	}
	return SourceOther
}

// classifySource is the kind of a cited registrable domain: the scanned
// site, a competitor's, or a third party's (sourceKind). The scanned
// site's domain wins over a competitor's, and both over the lists.
func classifySource(domain, own string, competitors map[string]bool) string {
	switch {
	case domain == "":
		return SourceOther
	case domain == own:
		return SourceOwnSite
	case competitors[domain]:
		return SourceCompetitor
	}
	return sourceKind(domain)
}
