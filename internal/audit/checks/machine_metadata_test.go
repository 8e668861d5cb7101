package checks

import (
	"strings"
	"testing"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// TestMachineMetadata covers the machine_metadata pillar.
func TestMachineMetadata(t *testing.T) {
	t.Parallel()
	withTitle := func(title string) string { return simplePage(title, "<p>Hello.</p>") }
	withDesc := func(d string) string {
		return `<html lang="en"><head><title>x</title><meta name="description" content="` + d + `"></head><body></body></html>`
	}
	withMeta := func(meta string) string {
		return `<html lang="en"><head><title>x</title>` + meta + `</head><body></body></html>`
	}
	langPage := func(lang, text string) string {
		return `<html lang="` + lang + `"><head><title>x</title></head><body><p>` + text + `</p></body></html>`
	}
	german := strings.Repeat("Die Software ist für kleine Teams und wir helfen mit der Buchhaltung, auch von zu Hause. ", 8)
	goodLLMs := "# Example\n\n> Accounting software for small teams.\n\nSome notes.\n\n## Docs\n\n- [Quick start](https://example.com/docs/start.md): first steps\n- [API](https://example.com/docs/api/)\n\n## Optional\n\n- [Blog](https://example.com/blog/)\n"
	llms := func(body string, links ...*fetch.Response) func(t *testing.T) *Input {
		return func(t *testing.T) *Input {
			extra := append([]*fetch.Response{resp(fetch.LLMsTxt, "https://example.com/llms.txt", 200, body)}, links...)
			return inputOf(t, fixtureYoastHome(), extra...)
		}
	}
	// home serves a homepage with the given headers; pages are shaped like
	// the winery that declared nothing and the shops that declare late.
	home := func(body string, headers ...string) func(t *testing.T) *Input {
		return withSite("", resp(fetch.Homepage, testOrigin, 200, body, headers...))
	}
	const undeclared = "<!doctype html><html lang=de><head><title>Germany′s Frühburgunder</title></head><body><p>Spätburgunder und Frühburgunder – 12,90 €</p></body></html>"
	lateMeta := "<!doctype html><html><head><!-- " + strings.Repeat("build info ", 120) + "--><meta charset=\"utf-8\"><title>Frühburgunder</title></head><body><p>Frühburgunder</p></body></html>"
	ok := func(u string) *fetch.Response { return resp(fetch.LLMsLink, u, 200, "") }
	gone := func(u string) *fetch.Response { return resp(fetch.LLMsLink, u, 404, "") }
	testPillar(t, pillarMachineMetadata, []pillarCheck{
		{id: "title_quality", cases: []checkCase{
			{"descriptive with brand", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "names the brand", ev("includes_brand", true)},
			{"generic", func(t *testing.T) *Input { return inputOf(t, withTitle("Home")) }, Warn, "generic wording", nil},
			{"brandless", func(t *testing.T) *Input { return inputOf(t, withTitle("Accounting software for small teams")) }, Warn, `brand "Example" missing`, nil},
			{"domain as brand", func(t *testing.T) *Input {
				in := inputOf(t, withTitle("EXAMPLE accounting for small teams"))
				in.BrandName = "example.com"
				return in
			}, Pass, "", nil},
			{"& in the title, \"and\" in the domain", func(t *testing.T) *Input {
				in := inputOf(t, withTitle("Crumb &amp; Kettle – Sourdough bakery in Leeds"))
				in.BrandName = "crumb-and-kettle"
				return in
			}, Pass, "names the brand", ev("includes_brand", true)},
			{"and in the title, & in the brand", func(t *testing.T) *Input {
				in := inputOf(t, withTitle("Crumb and Kettle | Sourdough bakery"))
				in.BrandName = "Crumb & Kettle"
				return in
			}, Pass, "names the brand", nil},
			{"missing", func(t *testing.T) *Input { return inputOf(t, "<html><body><p>x</p></body></html>") }, Fail, "no <title>", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "meta_description", cases: []checkCase{
			{"good length", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "characters", nil},
			{"too short", func(t *testing.T) *Input { return inputOf(t, withDesc("Accounting.")) }, Warn, "11 characters", ev("length", 11)},
			{"missing", func(t *testing.T) *Input { return inputOf(t, withTitle("x")) }, Fail, "no meta description", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "open_graph", cases: []checkCase{
			{"complete", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "absolute https og:image", nil},
			{"partial", func(t *testing.T) *Input { return inputOf(t, withMeta(`<meta property="og:title" content="x">`)) }, Warn, "lacks og:description", nil},
			{"relative image", func(t *testing.T) *Input {
				return inputOf(t, withMeta(strings.Replace(fixtureHead, "https://example.com/og.png", "/og.png", 1)))
			}, Warn, "not an absolute https URL", ev("og_image_absolute_https", false)},
			{"none", func(t *testing.T) *Input { return inputOf(t, withMeta("")) }, Fail, "none of", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "html_lang", cases: []checkCase{
			{"english", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Pass, "matching", ev("detected_language", "en")},
			{"regional tag", func(t *testing.T) *Input { return inputOf(t, langPage("de-DE", german)) }, Pass, "", ev("detected_language", "de")},
			{"underscore", func(t *testing.T) *Input { return inputOf(t, langPage("en_US", fixtureProse(60, "x"))) }, Warn, "not a valid BCP 47", nil},
			{"wrong language", func(t *testing.T) *Input { return inputOf(t, langPage("fr", german)) }, Warn, `reads as "de"`, nil},
			{"missing", func(t *testing.T) *Input { return inputOf(t, "<html><body><p>x</p></body></html>") }, Fail, "no lang", nil},
			{"no homepage", noHomeInput, NA, "", nil},
		}},
		{id: "charset_declared", cases: []checkCase{
			{"in the header", home(undeclared, "Content-Type", "text/html; charset=UTF-8"), Pass, "https://example.com/ declares the encoding (utf-8) in the Content-Type header", nil},
			{
				"meta in the first 1024 bytes", home(`<!doctype html><html><head><meta charset="utf-8"><title>Frühburgunder</title></head><body>x</body></html>`, "Content-Type", "text/html"),
				Pass, "in a <meta> in the first 1,024 bytes", nil,
			},
			{
				"http-equiv in the first 1024 bytes, CR line endings", home("<html>\r<head>\r<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\">\r<title>Fr\xfchburgunder</title></head><body>x</body></html>", "Content-Type", "text/html"),
				Pass, "(windows-1252) in a <meta>", nil,
			},
			{"byte-order mark", home("\xef\xbb\xbf<html><head><title>Frühburgunder</title></head><body>x</body></html>", "Content-Type", "text/html"), Pass, "in a byte-order mark", nil},
			{"every page", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, fixtureArticle(fixtureArticleGraph)))
			}, Pass, "All 2 fetched HTML pages declare the encoding (utf-8) in the Content-Type header", nil},
			{
				"nothing declared, UTF-8 bytes", home(undeclared, "Content-Type", "text/html"), Fail, "https://example.com/ declares no encoding in the Content-Type header or the first 1,024 bytes, so browsers and crawlers have to guess (GeoScan read it as utf-8",
				ev("pages", []map[string]any{{"url": testOrigin, "verdict": "none", "decoded_as": "utf-8", "decided_by": "sniffed", "bom": "", "header_charset": "", "meta_first_1024_bytes": "", "meta_later_in_head": ""}}),
			},
			{"nothing declared, windows-1252 bytes", home("<html><head><title>Fr\xfchburgunder</title></head><body><p>Sp\xe4tburgunder 12,90 \x80</p></body></html>", "Content-Type", "text/html"), Fail, "read it as windows-1252", nil},
			{"a label browsers do not know", home(undeclared, "Content-Type", "text/html; charset=utf8mb4"), Fail, "declares no encoding", nil},
			{"an article declares nothing", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.Article, articleURL, 200, undeclared, "Content-Type", "text/html"))
			}, Fail, articleURL + " declares no encoding", nil},
			{"declared only after the first 1024 bytes", home(lateMeta, "Content-Type", "text/html"), Warn, "declares the encoding (utf-8) only after the first 1,024 bytes", nil},
			{
				"header and meta disagree", home(`<html><head><meta charset="utf-8"><title>Frühburgunder</title></head><body>x</body></html>`, "Content-Type", "text/html; charset=ISO-8859-1"),
				Warn, "says windows-1252 but its <meta> says utf-8; browsers follow the header", nil,
			},
			{
				"plain ASCII, nothing declared", home("<html><head><title>Pinot Noir</title></head><body><p>Pinot Noir, 12.90 EUR</p></body></html>", "Content-Type", "text/html"),
				Warn, "declares no encoding; its bytes are plain ASCII", nil,
			},
			{"no homepage", noHomeInput, NA, "No fetched page is an HTML document", nil},
		}},
		{id: "llms_txt_valid", cases: []checkCase{
			{"well formed", llms(goodLLMs, ok("https://example.com/docs/start.md"), ok("https://example.com/docs/api/"),
				resp(fetch.LLMsFullTxt, "https://example.com/llms-full.txt", 200, "")), Pass, "llms-full.txt exists", ev("optional_section", true, "links", 3)},
			{"relative links, no summary", llms("# Example\n\n## Docs\n\n- [Start](/docs/start)\nSome prose line.\n### Deep\n"), Warn, "1 relative link (absolute URLs expected)", nil},
			{"html catch-all", llms("<!doctype html><html><body>app</body></html>"), NA, "catch-all", ev("html_catch_all", true)},
			{"no title first", llms("Welcome to Example\n# Example\n"), Fail, "first line is not an H1", nil},
			{"broken links", llms(goodLLMs, gone("https://example.com/docs/start.md"), gone("https://example.com/docs/api/")), Fail, "2 of 2", nil},
			{"absent", func(t *testing.T) *Input {
				return inputOf(t, fixtureYoastHome(), resp(fetch.LLMsTxt, "https://example.com/llms.txt", 404, "not found"))
			}, NA, "no /llms.txt", ev("status", 404)},
		}},
		{id: "markdown_alternates", never: []Status{Warn, Fail}, cases: []checkCase{
			{"link alternate", func(t *testing.T) *Input {
				return inputOf(t, `<html><head><link rel="alternate" type="text/markdown" href="/index.md"></head><body></body></html>`)
			}, Pass, "https://example.com/index.md", nil},
			{"md links in llms.txt", llms(goodLLMs), Pass, "https://example.com/docs/start.md", nil},
			{"none", func(t *testing.T) *Input { return inputOf(t, fixtureYoastHome()) }, Info, "No Markdown alternates", nil},
			{"nothing fetched", noHomeInput, NA, "", nil},
		}},
	})
}
