package fixes

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// An artifact is offered only when the project's own checks pass on a
// site that has it: the checks run on a copy of the page (or file) as it
// would be once the artifact is published, read with the same parsers a
// scan uses.

// trial is a site made of one page, built to run checks on.
type trial struct {
	pageURL string
	purpose fetch.Purpose
	lang    string
	// head and body are the HTML of the page; extra JSON-LD blocks of the
	// real page go into head too.
	head, body string
	// llmsTxt, when set, is served at /llms.txt.
	llmsTxt string
}

// run evaluates the checks on the trial site and returns the first that
// does not pass, as an error naming its summary.
func (s *scan) run(t trial, ids ...string) error {
	in, err := s.trialInput(t)
	if err != nil {
		return err
	}
	for _, id := range ids {
		c := checks.Lookup(id)
		if c == nil {
			return fmt.Errorf("no check %s", id)
		}
		r, err := eval(c, in)
		if err != nil {
			return err
		}
		if r.Status != checks.Pass {
			return fmt.Errorf("%s would be %s: %s", id, r.Status, r.Summary)
		}
	}
	return nil
}

// eval runs one evaluator, turning a panic into an error.
func eval(c *checks.Check, in *checks.Input) (r checks.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s could not be evaluated: %v", c.ID, p)
		}
	}()
	return c.Eval(in), nil
}

func (s *scan) trialInput(t trial) (*checks.Input, error) {
	u, err := url.Parse(t.pageURL)
	if err != nil {
		return nil, err
	}
	doc := "<!DOCTYPE html>\n<html lang=\"" + html.EscapeString(nonEmpty(t.lang, "en")) + "\"><head><meta charset=\"utf-8\">\n" +
		t.head + "</head><body>" + t.body + "</body></html>\n"
	resp := &fetch.Response{
		Purpose: t.purpose, URL: t.pageURL, FinalURL: t.pageURL, Status: http.StatusOK, Method: http.MethodGet,
		Header: http.Header{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(doc), Bytes: len(doc),
	}
	p, err := page.Parse(resp.Body, u)
	if err != nil {
		return nil, err
	}
	site := &fetch.Site{Target: s.site.Target, Parsed: map[*fetch.Response]*page.Page{resp: p}}
	in := &checks.Input{Site: site, BrandName: s.in.BrandName}
	if t.purpose == fetch.Homepage || t.purpose == "" {
		resp.Purpose = fetch.Homepage
		site.Home, site.HomePage, in.Home = resp, p, p
	} else {
		site.Pages = []*fetch.Response{resp}
	}
	site.All = append(site.All, resp)
	if t.llmsTxt != "" {
		site.LLMsTxt = &fetch.Response{
			Purpose: fetch.LLMsTxt, URL: s.at("/llms.txt"), FinalURL: s.at("/llms.txt"), Status: http.StatusOK, Method: http.MethodGet,
			Header: http.Header{"Content-Type": {"text/markdown; charset=utf-8"}}, Body: []byte(t.llmsTxt), Bytes: len(t.llmsTxt),
		}
	}
	return in, nil
}

// scriptBlock wraps JSON-LD text in its script element. The text comes
// from json.Marshal, which escapes <, > and &, so it cannot close the
// element.
func scriptBlock(jsonText string) string {
	return "<script type=\"application/ld+json\">\n" + jsonText + "\n</script>\n"
}

// existingBlocks are the JSON-LD blocks of a real page, for a trial that
// adds to them. A block's text came out of a script element, so it holds
// no "</script"; one that does is left out rather than trusted.
func existingBlocks(p *page.Page) string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, t := range p.JSONLDTexts {
		if !strings.Contains(strings.ToLower(t), "</script") {
			b.WriteString(scriptBlock(t))
		}
	}
	return b.String()
}

// checkedBy says which checks passed on a trial.
func checkedBy(what string, ids ...string) string {
	return fmt.Sprintf("Checked with GeoScan's own checks on %s: %s %s.", what, andList(ids), map[bool]string{true: "passes", false: "pass"}[len(ids) == 1])
}
