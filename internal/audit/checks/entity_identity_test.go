package checks

import (
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

const (
	aboutURL   = "https://example.com/about/"
	contactURL = "https://example.com/contact/"
)

// TestEntityIdentity covers the entity_identity pillar.
func TestEntityIdentity(t *testing.T) {
	t.Parallel()
	homeWith := func(head, body string) string {
		return `<!doctype html><html lang="en"><head><title>Example – Accounting</title>` + head + `</head><body>` + body + `</body></html>`
	}
	yoast := func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }
	brandPage := func(siteName, orgName string) string {
		return `<!doctype html><html lang="en"><head><title>Example – Accounting</title><meta property="og:site_name" content="` + siteName + `">` +
			ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"`+orgName+`"}`) + `</head><body><footer>© 2020–2026 Example Inc. All rights reserved.</footer></body></html>`
	}
	about := func(status int) *fetch.Response {
		return resp(fetch.About, aboutURL, status, simplePage("About", "<h1>About Example</h1><p>We build software.</p>"))
	}
	contact := func(body string) *fetch.Response {
		return resp(fetch.Contact, contactURL, 200, simplePage("Contact", body))
	}
	local := func(phone string) string {
		return `<!doctype html><html lang="en"><head><title>Example Dental</title>` +
			ldBlock(`{"@context":"https://schema.org","@type":"Dentist","name":"Example Dental","telephone":"+1 555 010 9999","address":{"@type":"PostalAddress","streetAddress":"12 Harbor Road","postalCode":"90210","addressLocality":"Springfield"}}`) +
			`</head><body><main><h1>Example Dental</h1></main><footer><address>Example Dental, 12 Harbor Road, Springfield 90210</address><p>Call ` + phone + `</p></footer></body></html>`
	}
	testPillar(t, pillarEntityIdentity, []pillarCheck{
		{id: "organization_entity", cases: []checkCase{
			{"complete organization", yoast, Pass, `Organization "Example"`, ev("logo", "https://example.com/logo.png")},
			{"logo by @id reference", func(t *testing.T) *Input {
				return inputOf(t, homeWith(ldBlock(`{"@context":"https://schema.org","@graph":[{"@type":"Organization","@id":"#org","name":"Example","url":"https://example.com/","logo":{"@id":"#logo"},"address":{"@type":"PostalAddress","streetAddress":"1 Main St"}},{"@type":"ImageObject","@id":"#logo","url":"https://example.com/l.png"}]}`), ""))
			}, Pass, "", ev("logo", "https://example.com/l.png")},
			{"name only", func(t *testing.T) *Input {
				return inputOf(t, homeWith(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example","logo":"/logo.png"}`), ""))
			}, Warn, "lacks url, logo, contact", nil},
			{
				"in microdata only", func(t *testing.T) *Input { return inputOf(t, microdataHome()) }, Pass,
				`Organization "株式会社サンプル" (in microdata) declares name, url, logo and contact details.`, ev("syntax", []string{"microdata"}, "logo", "https://example.com/logo.png"),
			},
			{
				"in RDFa only", func(t *testing.T) *Input { return inputOf(t, rdfaHome()) }, Pass,
				`Bakery "Müller Bäckerei" (in RDFa) declares name, url, logo and contact details.`, ev("syntax", []string{"RDFa"}, "url", "https://example.com/"),
			},
			{
				"in JSON-LD and again in microdata", func(t *testing.T) *Input { return inputOf(t, yoastWithMicrodata()) }, Pass,
				`Organization "Example" (in JSON-LD and microdata) declares`, ev("syntax", []string{"JSON-LD", "microdata"}),
			},
			{"a name in microdata, nothing more", func(t *testing.T) *Input {
				return inputOf(t, homeWith("", `<div itemscope itemtype="https://schema.org/Organization"><h1 itemprop="name">ООО «Ромашка»</h1></div>`))
			}, Warn, `Organization "ООО «Ромашка»" (in microdata) lacks url, logo, contact.`, ev("syntax", []string{"microdata"})},
			{"none", func(t *testing.T) *Input { return inputOf(t, homeWith("", "<p>x</p>")) }, Fail, "No Organization, LocalBusiness or Person entity describes the site on the fetched pages, in JSON-LD, microdata or RDFa.", nil},
			{"nothing fetched", noHomeInput, NA, "", nil},
		}},
		{id: "sameas_profiles", cases: []checkCase{
			{"three profiles", yoast, Pass, "LinkedIn, GitHub, X", ev("count", 3, "syntax", []string{"JSON-LD"})},
			{
				"profiles in JSON-LD and microdata", func(t *testing.T) *Input { return inputOf(t, yoastWithMicrodata()) }, Pass,
				"4 authoritative profiles (LinkedIn, GitHub, X, YouTube)", ev("syntax", []string{"JSON-LD", "microdata"}),
			},
			{"one profile", func(t *testing.T) *Input {
				return inputOf(t, homeWith(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example","sameAs":["https://www.facebook.com/example","https://example.org/other"]}`), ""))
			}, Warn, "only one", ev("authoritative_platforms", []string{"Facebook"})},
			{"footer links but no sameAs", func(t *testing.T) *Input {
				return inputOf(t, homeWith(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example"}`), `<footer><a href="https://www.youtube.com/@example">YouTube</a></footer>`))
			}, Fail, "homepage links 1 profile", ev("profile_links_on_homepage", []string{"https://www.youtube.com/@example"})},
			{"share buttons are no profiles", func(t *testing.T) *Input {
				return inputOf(t, homeWith(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example","sameAs":[`+
					`"https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fexample.com%2F","https://twitter.com/intent/tweet?url=https%3A%2F%2Fexample.com%2F",`+
					`"https://www.linkedin.com/shareArticle?mini=true&url=https%3A%2F%2Fexample.com%2F","https://x.com/"]}`),
					`<div class="share"><a href="https://www.facebook.com/sharer.php?u=https://example.com/">Teilen</a>`+
						`<a href="https://twitter.com/intent/tweet?text=Hola">Compartir</a><a href="https://www.linkedin.com/sharing/share-offsite/?url=x">Поделиться</a>`+
						`<a href="https://www.youtube.com/embed/abc">Video</a></div>`))
			}, Fail, "No sameAs link to an authoritative profile (", ev("count", 0, "profile_links_on_homepage", []string{})},
			{"profiles beside share buttons", func(t *testing.T) *Input {
				return inputOf(t, homeWith(ldBlock(`{"@context":"https://schema.org","@type":"Organization","name":"Example","sameAs":[`+
					`"https://www.facebook.com/sharer.php?u=https://example.com/","https://www.facebook.com/ExampleInc","https://www.linkedin.com/company/example"]}`), ""))
			}, Pass, "2 authoritative profiles (Facebook, LinkedIn)", ev("authoritative_platforms", []string{"Facebook", "LinkedIn"})},
			{"no entity", func(t *testing.T) *Input { return inputOf(t, homeWith("", "")) }, Fail, "No sameAs", nil},
			{"nothing fetched", noHomeInput, NA, "", nil},
		}},
		{id: "brand_name_consistency", cases: []checkCase{
			{"consistent", yoast, Pass, `All 6 brand mentions on the homepage use "Example"`, nil},
			{"legal suffix and short form", func(t *testing.T) *Input {
				in := inputOf(t, brandPage("Example", "Example, Inc."))
				in.BrandName = "Example Software"
				return in
			}, Pass, "", nil},
			{"& and \"and\" read alike", func(t *testing.T) *Input {
				in := inputOf(t, `<!doctype html><html lang="en"><head><title>Crumb &amp; Kettle – Sourdough bakery in Leeds</title><meta property="og:site_name" content="Crumb + Kettle">`+
					ldBlock(`{"@context":"https://schema.org","@type":"Bakery","name":"Crumb and Kettle Ltd"}`)+`</head><body><header><img src="/logo.svg" alt="Crumb 'n' Kettle logo"></header>`+
					`<footer>© 2026 Crumb &amp; Kettle Ltd. All rights reserved.</footer></body></html>`)
				in.BrandName = "crumb-and-kettle"
				return in
			}, Pass, `All 5 brand mentions on the homepage use "crumb-and-kettle"`, nil},
			{"one outlier", func(t *testing.T) *Input { return inputOf(t, brandPage("Exemplar", "Example Inc.")) }, Warn, `og:site_name "Exemplar" differs`, nil},
			{"conflicting", func(t *testing.T) *Input { return inputOf(t, brandPage("Exemplar", "Samples Ltd")) }, Fail, "2 of 4", nil},
			{"too few mentions", func(t *testing.T) *Input { return inputOf(t, simplePage("Example", "<p>x</p>")) }, NA, "too few", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "about_contact_pages", cases: []checkCase{
			{"both linked", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), about(200), contact(`<form action="/send"><input type="email" name="e"><textarea></textarea></form><a href="tel:+15550100">Call</a>`))
			}, Pass, "phone, form", nil},
			{"both but unlinked", func(t *testing.T) *Input {
				return inputOf(t, simplePage("x", "<p>no links</p>"), about(200), contact(`<p>Mail hello@example.com</p>`))
			}, Warn, "does not link", nil},
			{"contact page without contact details", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), about(200), contact(`<form role="search"><input type="search"></form>`))
			}, Warn, "no contact page", nil},
			{"neither", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome(), about(404)) }, Fail, "Neither", nil},
			{"nothing fetched", noHomeInput, NA, "", nil},
		}},
		{id: "local_nap_consistency", never: []Status{Fail}, cases: []checkCase{
			{"matching footer", func(t *testing.T) *Input { return inputOf(t, local("(555) 010-9999")) }, Pass, `Dentist "Example Dental"`, nil},
			{"different phone", func(t *testing.T) *Input { return inputOf(t, local("(555) 222-3333")) }, Warn, "1 of the 4", nil},
			{"not local", yoast, NA, "No LocalBusiness", nil},
		}},
	})
}
