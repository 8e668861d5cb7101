package fixes

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// An llms.txt draft (llmstxt.org) from the site's own pages: its name as
// the title, its description as the summary, and the pages the scan saw,
// with their titles and descriptions, as link lists. Site text lands in
// Markdown: each value is one line, and brackets, which would open or
// close a link, become parentheses.

func llmsTxtFix(s *scan, o checks.Outcome) *Fix {
	r := s.site.LLMsTxt
	u := s.at("/llms.txt")
	fix := &Fix{
		PlatformSteps: s.steps(topicLLMsTxt),
		Notes:         []string{"llms.txt is a proposal: no major AI search engine has said that it reads the file, which is why the check weighs little."},
		Verify: []Verification{
			curlStatus(u, "the file is served as text"),
			rerun("llms_txt_present", "llms_txt_valid"),
		},
	}
	switch {
	case o.Check.ID == "llms_txt_valid":
		fix.Cause = LLMsTxtInvalid
		fix.Summary = Said{
			Engineering: line(o.Result.Summary) + " The draft below follows the layout and is built from the pages the scan saw; keep the links of the current file that it lacks.",
			Marketing:   "Your llms.txt file does not follow the expected layout, so tools that read it get a broken map of your site. A corrected draft built from your pages is attached.",
		}
	case r == nil:
		return nil
	case r.Err != nil || r.Status >= 500:
		fix.Cause = LLMsTxtServerError
		fix.Summary = Said{
			Engineering: fmt.Sprintf("/llms.txt %s: a server fault at that path, whether or not the site means to publish the file. Make it answer 200 with the file below, or 404 if the site does not want one.", statusWords(r)),
			Marketing:   "Asking your site for its llms.txt file gives a server error. Ask your web team to publish the attached file there, or to make the address answer \"not found\".",
		}
	case r.OK() && (r.IsHTML() || looksLikeHTML(r.Body)):
		fix.Cause = LLMsTxtCatchAll
		fix.Summary = Said{
			Engineering: fmt.Sprintf("An HTML page answers /llms.txt (HTTP %d): a catch-all route serves it. Exclude the path from that route and serve the draft below as text.", r.Status),
			Marketing:   "Your site shows a web page where the llms.txt file would be. A draft of the file, built from your own pages, is attached for your web team.",
		}
		fix.Edits = []string{"Exclude /llms.txt from the route that answers unknown paths with a page, so the static file is served."}
	case r.OK():
		fix.Cause = LLMsTxtMissing
		fix.Summary = Said{
			Engineering: fmt.Sprintf("/llms.txt answered HTTP %d but holds no text. The draft below follows the llmstxt.org layout and is built from the pages the scan saw.", r.Status),
			Marketing:   "Your site's llms.txt file is empty. A draft built from your own pages is attached.",
		}
	default:
		fix.Cause = LLMsTxtMissing
		fix.Summary = Said{
			Engineering: fmt.Sprintf("/llms.txt answered HTTP %d: the site publishes none. The draft below follows the llmstxt.org layout and is built from the pages the scan saw.", r.Status),
			Marketing:   "Your site has no llms.txt, a short guide to your site written for AI tools. A draft built from your own pages is attached; it is optional and cheap to add.",
		}
	}
	content, links := s.llmsDraft()
	ids := []string{"llms_txt_present", "llms_txt_valid"}
	if err := s.run(trial{pageURL: s.homeURL, purpose: fetch.Homepage, llmsTxt: content}, ids...); err != nil {
		fix.Notes = append(fix.Notes, "No draft could be written that passes the project's llms.txt checks: "+errText(err))
		return fix
	}
	fix.Artifact = &Artifact{
		Filename: "llms.txt", MediaType: "text/markdown", Kind: File, Location: u, Content: content,
		Checked: []string{checkedBy(fmt.Sprintf("the draft served at /llms.txt (%d links)", links), ids...)},
	}
	if strings.Contains(content, "> REVIEW:") {
		fix.Review = append(fix.Review, "The site states no description the scan could read: replace the REVIEW summary line with one sentence on what the site offers.")
	}
	fix.Review = append(fix.Review, "Check the summary line and the descriptions: they are the site's own meta descriptions and lead paragraphs; put the pages that matter most first.")
	return fix
}

// looksLikeHTML reports a body that starts as an HTML document.
func looksLikeHTML(b []byte) bool {
	head := strings.ToLower(strings.TrimSpace(string(b[:min(len(b), 512)])))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html")
}

// md makes site text one line of Markdown text that opens no link.
func md(s string) string {
	return strings.NewReplacer("[", "(", "]", ")", "`", "'").Replace(line(s))
}

// mdURL makes a URL safe inside a Markdown link target.
func mdURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace(u.String())
}

type llmsLink struct{ title, url, note string }

// llmsDraft writes the draft and counts its links.
func (s *scan) llmsDraft() (string, int) {
	name := s.siteName()
	desc := s.describe()
	if desc == "" {
		desc = "REVIEW: one sentence on what " + name + " offers and to whom."
	}
	seen := map[string]bool{}
	var main, articles, products, optional []llmsLink
	add := func(list *[]llmsLink, p *page.Page, href, text string) {
		u := mdURL(href)
		if u == "" || !absoluteHTTP(u) {
			return
		}
		key := strings.TrimSuffix(strings.ToLower(u), "/")
		if seen[key] {
			return
		}
		seen[key] = true
		l := llmsLink{title: clip(md(text), 80), url: u}
		if p != nil {
			// A page titled only with the site's name is named by its link.
			if t := nonEmpty(firstH1(p), titleParts(p.Title)[0]); t != "" && brandKey(t) != brandKey(name) {
				l.title = clip(md(t), 80)
			}
			l.note = clip(md(nonEmpty(p.MetaContent("description"), p.MetaContent("og:description"))), 160)
		}
		if l.title == "" {
			l.title = md(titleFromPath(u))
		}
		*list = append(*list, l)
	}
	home := s.homeURL
	seen[strings.TrimSuffix(strings.ToLower(mdURL(home)), "/")] = true
	byURL := map[string]*page.Page{}
	for _, r := range s.site.Pages {
		if p := s.site.Page(r); p != nil && r.OK() {
			byURL[strings.TrimSuffix(strings.ToLower(r.FinalURL), "/")] = p
			switch r.Purpose {
			case fetch.About, fetch.Contact:
				add(&main, p, r.FinalURL, "")
			case fetch.Article:
				add(&articles, p, r.FinalURL, "")
			case fetch.Product:
				add(&products, p, r.FinalURL, "")
			case fetch.Privacy, fetch.Terms:
				add(&optional, p, r.FinalURL, "")
			}
		}
	}
	if s.home != nil {
		for _, l := range s.home.Links {
			if !l.Internal || l.Href == "" || len(main) >= 20 {
				continue
			}
			pu, err := url.Parse(l.Href)
			if err != nil || pu.RawQuery != "" || pu.Fragment != "" || pu.Host != s.origin.Host || assetPath(pu.Path) {
				continue
			}
			add(&main, byURL[strings.TrimSuffix(strings.ToLower(l.Href), "/")], l.Href, l.Text)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n> %s\n", md(name), md(desc))
	links := 0
	section := func(title string, list []llmsLink) {
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		for _, l := range list {
			links++
			if l.note != "" {
				fmt.Fprintf(&b, "- [%s](%s): %s\n", l.title, l.url, l.note)
			} else {
				fmt.Fprintf(&b, "- [%s](%s)\n", l.title, l.url)
			}
		}
	}
	if len(main) == 0 {
		main = append(main, llmsLink{title: md(name), url: mdURL(home)})
	}
	section("Main pages", main)
	section("Articles", articles)
	section("Products", products)
	section("Optional", optional)
	return b.String(), links
}

// assetPath reports a link to a file rather than a page.
func assetPath(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".pdf", ".zip", ".css", ".js", ".xml", ".ico", ".mp4", ".mp3":
		return true
	}
	return false
}

// titleFromPath names a page by the last segment of its path:
// "/about-us/" → "About us".
func titleFromPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	seg := path.Base(strings.TrimSuffix(u.Path, "/"))
	if seg == "." || seg == "/" || seg == "" {
		return u.Host
	}
	seg = strings.TrimSuffix(seg, path.Ext(seg))
	if un, err := url.PathUnescape(seg); err == nil {
		seg = un
	}
	seg = strings.NewReplacer("-", " ", "_", " ").Replace(seg)
	if seg == "" || slices.Contains([]string{"index"}, seg) {
		return u.Host
	}
	return capitalise(seg)
}
