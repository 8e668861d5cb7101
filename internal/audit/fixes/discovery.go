package fixes

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/robots"
)

// The fixes of how crawlers find and reach the site beyond robots.txt:
// the edge that turns AI crawlers away, and the sitemap.

func edgeFix(s *scan, _ checks.Outcome) *Fix {
	var refused []fetch.BotResult
	var browserServed bool
	for _, b := range s.site.Bots {
		if b.Response == nil {
			continue
		}
		if b.Bot.Role == "browser" {
			browserServed = b.Response.OK() && fetch.Refusal(b.Response) == ""
			continue
		}
		if fetch.Refusal(b.Response) != "" || b.Response.Err != nil || b.Response.Status >= 500 {
			refused = append(refused, b)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	var named, tokens []string
	for _, b := range refused {
		why := fetch.Refusal(b.Response)
		if why == "" {
			why = statusWords(b.Response)
		}
		named = append(named, fmt.Sprintf("%s (%s)", b.Bot.Token, line(why)))
		tokens = append(tokens, b.Bot.Token)
	}
	baseline := "a browser's request was served"
	if !browserServed {
		baseline = "the scan's own request was served"
	}
	fix := &Fix{
		Cause: EdgeBlock,
		Summary: Said{
			Engineering: fmt.Sprintf("The CDN or firewall in front of %s refused %s while %s, so those crawlers are kept out whatever robots.txt allows. No file change fixes this: the bot rules of the edge do.", s.homeURL, andList(named), baseline),
			Marketing:   fmt.Sprintf("Your site's firewall or CDN turns away %s, although it lets ordinary visitors in. Ask whoever manages it to let these AI crawlers through.", andList(tokens)),
		},
		PlatformSteps: edgeSteps(s.in.Platform, s.plat),
		Notes:         []string{"The probes came from GeoScan's network with the crawlers' user agents; an edge that verifies crawlers by IP address may treat the real crawlers differently, in either direction."},
	}
	for _, b := range refused {
		fix.Verify = append(fix.Verify, curlAgent(s.homeURL, b.Bot.Token, fmt.Sprintf("The homepage answers %s's user agent with 200 and the same page a browser gets.", b.Bot.Token)))
	}
	fix.Verify = append(fix.Verify, rerun("edge_bot_reachability"))
	return fix
}

func sitemapFix(s *scan, _ checks.Outcome) *Fix {
	all, unlisted := s.readableSitemaps()
	r := s.site.Robots
	var f *robots.File
	if r != nil {
		f = robots.Parse(r)
	}
	switch {
	case len(all) == 0:
		return s.sitemapStubFix(f)
	case len(unlisted) > 0 && f != nil && len(f.AllSitemaps()) == 0:
		fix := &Fix{
			Cause: SitemapUnlisted,
			Summary: Said{
				Engineering: fmt.Sprintf("The sitemap at %s can be read, but robots.txt has no Sitemap record naming it, so crawlers without a webmaster console (OpenAI, Anthropic, Perplexity) only find it by guessing.", andList(unlisted)),
				Marketing:   "Your sitemap exists, but your robots.txt does not point to it, so some AI crawlers never find it. The fix is one line in robots.txt.",
			},
			PlatformSteps: s.steps(topicRobotsEdit),
			Verify:        []Verification{curlBody(s.robotsURL(), "It lists the sitemap in a Sitemap line."), rerun("sitemap_present")},
		}
		switch f.State() {
		case robots.Rules:
			s.attachRobotsPatch(fix, "adds the Sitemap record")
		case robots.Unavailable:
			nf := s.newRobotsFix(RobotsMissing, r)
			fix.Artifact, fix.Review = nf.Artifact, nf.Review
			fix.Edits = []string{"robots.txt answered HTTP " + fmt.Sprint(r.Status) + ": publish the file below, which lists the sitemap."}
		default:
			fix.Edits = []string{"robots.txt " + statusWords(r) + ": fix that first (see robots_txt_fetchable), then add `Sitemap: " + unlisted[0] + "` to it."}
		}
		return fix
	}
	return &Fix{
		Cause: SitemapFault,
		Summary: Said{
			Engineering: line(s.byID["sitemap_present"].Result.Summary) + " Regenerate the files named so each is valid XML under the protocol's limits (50,000 URLs, 50 MiB) and answers 200.",
			Marketing:   "Part of your sitemap cannot be read by crawlers. Ask your web team to regenerate it.",
		},
		PlatformSteps: s.steps(topicSitemap),
		Verify:        []Verification{rerun("sitemap_present")},
	}
}

// sitemapStubFix offers a sitemap listing the pages the scan saw.
func (s *scan) sitemapStubFix(f *robots.File) *Fix {
	loc := s.at("/sitemap.xml")
	fix := &Fix{
		Cause: SitemapMissing,
		Summary: Said{
			Engineering: "No readable sitemap was found. The stub below lists the pages the scan saw; generate the real one from the CMS or build, publish it at " + loc + " and name it in robots.txt.",
			Marketing:   "Your site has no sitemap, the list of pages crawlers use to find your content. Ask your web team to turn on the sitemap feature of your site's platform; a starting list of the pages we saw is attached.",
		},
		PlatformSteps: s.steps(topicSitemap),
		Notes:         []string{"The stub lists only pages the scan saw (the homepage, the pages it fetched and the homepage's links on the same site); the links were not all fetched, so check that each answers 200."},
		Verify:        []Verification{curlStatus(loc, "the sitemap is served as XML"), rerun("sitemap_present")},
	}
	if f != nil && f.State() == robots.Rules {
		fix.Edits = append(fix.Edits, "Add `Sitemap: "+loc+"` to robots.txt.")
	}
	var urls []string
	add := func(u string) {
		pu, err := url.Parse(u)
		if err != nil || pu.Host != s.origin.Host || (pu.Scheme != "https" && pu.Scheme != "http") || pu.RawQuery != "" {
			return
		}
		pu.Fragment = ""
		v := pu.String()
		if f != nil && f.State() == robots.Rules && !f.Allowed(unnamedAgent, v).Allowed {
			return
		}
		if !slices.ContainsFunc(urls, func(x string) bool { return sameURL(x, v) }) && len(urls) < 500 {
			urls = append(urls, v)
		}
	}
	add(s.homeURL)
	for _, r := range s.site.Pages {
		if r.OK() && s.site.Page(r) != nil {
			add(r.FinalURL)
		}
	}
	if s.home != nil {
		for _, l := range s.home.InternalLinks() {
			add(l)
		}
	}
	content, err := sitemapXML(urls)
	if err != nil {
		fix.Notes = append(fix.Notes, "No sitemap stub could be written that passes the project's sitemap reader: "+errText(err))
		return fix
	}
	fix.Artifact = &Artifact{
		Filename: "sitemap.xml", MediaType: "application/xml", Kind: File, Location: loc, Content: content,
		Checked: []string{fmt.Sprintf("Read back with GeoScan's sitemap reader: a urlset of %d URLs.", len(urls))},
	}
	return fix
}

// sitemapXML writes a urlset and reads it back with the fetcher's reader.
func sitemapXML(urls []string) (string, error) {
	var b strings.Builder
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, u := range urls {
		b.WriteString("  <url><loc>")
		if err := xml.EscapeText(&b, []byte(u)); err != nil {
			return "", err
		}
		b.WriteString("</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	read := fetch.ReadSitemap(&fetch.Response{
		Purpose: fetch.Sitemap, Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/xml"}}, Body: []byte(b.String()),
	}, fetch.SitemapFromDefault, "/sitemap.xml", "")
	if read.Kind != "urlset" || read.Entries != len(urls) {
		return "", fmt.Errorf("it reads as %q with %d entries, not a urlset of %d", read.Kind, read.Entries, len(urls))
	}
	return b.String(), nil
}
