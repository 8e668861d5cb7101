package agentready

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/page"
)

// The parity of a Markdown answer with the HTML page: the share of the
// page's distinct words (title and main text, words of four letters or
// more) the Markdown also has. Below minOverlap it says something else;
// with fewer than minWords such words in the page there is too little to
// compare.
const (
	minOverlap = 0.3
	minWords   = 8
	// parityWords bounds the page's words compared.
	parityWords = 400
)

// tokenHeaders are the headers that state a Markdown answer's size in
// tokens (Cloudflare's Markdown for Agents and its imitators).
var tokenHeaders = []string{"X-Markdown-Tokens", "X-Original-Tokens"}

// judgeMarkdown judges the homepage asked for with Accept: text/markdown.
func judgeMarkdown(site *fetch.Site, got *Fetched) Signal {
	s := Signal{ID: MarkdownNegotiation, Evidence: map[string]any{}}
	var home *page.Page
	if site != nil {
		home = site.HomePage
	}
	if home != nil {
		for _, a := range home.Alternates {
			if t := strings.ToLower(a.Type); t == "text/markdown" || t == "text/x-markdown" {
				s.Evidence["html_alternate"] = clip(a.Href, 200)
				break
			}
		}
	}
	if got == nil {
		return notChecked(s, "the homepage was not requested as Markdown in this audit")
	}
	r := got.Markdown
	state, why := classify(r, false)
	switch state {
	case unreadable:
		return notChecked(s, "the homepage asked for as Markdown: "+why)
	case absent:
		s.Status = NotFound
		s.Summary = "Asked for Markdown (Accept: text/markdown), the homepage answered " + why + "."
		return s
	}
	ct := r.ContentType()
	s.Evidence["content_type"] = ct
	s.Evidence["vary_accept"] = varies(r)
	for _, h := range tokenHeaders {
		if v := strings.TrimSpace(r.Header.Get(h)); v != "" {
			if n, err := strconv.Atoi(v); err == nil {
				s.Evidence[strings.ToLower(strings.ReplaceAll(h, "-", "_"))] = n
			} else {
				s.Evidence[strings.ToLower(strings.ReplaceAll(h, "-", "_"))] = clip(v, 40)
			}
		}
	}
	if ct != "text/markdown" && ct != "text/x-markdown" {
		s.Status = NotFound
		shown := ct
		if shown == "" {
			shown = "no content type"
		}
		s.Summary = fmt.Sprintf("Asked for Markdown (Accept: text/markdown), the homepage answers with %s: it does not negotiate Markdown.", shown)
		return s
	}
	s.Evidence["bytes"] = r.Bytes
	if looksHTML(r) {
		return invalid(s, "the homepage's answer is labelled "+ct+" but is an HTML page")
	}
	if cut(r) {
		s.Evidence["compared_bytes"] = len(r.Body)
	}
	md := wordSet(string(r.Body), 0)
	s.Evidence["markdown_words"] = len(md)
	if home != nil {
		pageWords := wordSet(home.Title+" "+home.MainText, parityWords)
		if len(pageWords) >= minWords {
			shared := 0
			for w := range pageWords {
				if md[w] {
					shared++
				}
			}
			overlap := float64(shared) / float64(len(pageWords))
			s.Evidence["word_overlap"] = float64(int(overlap*100+0.5)) / 100
			title := wordSet(home.Title, 0)
			inTitle := 0
			for w := range title {
				if md[w] {
					inTitle++
				}
			}
			s.Evidence["title_words_in_markdown"] = fmt.Sprintf("%d of %d", inTitle, len(title))
			if overlap < minOverlap {
				return invalid(s, fmt.Sprintf("the Markdown says something else than the HTML page: only %.0f%% of the page's words appear in it", overlap*100))
			}
		} else {
			s.Evidence["word_overlap"] = nil
		}
	}
	s.Status = Found
	s.Summary = "The homepage is served as Markdown when an agent asks for it (Accept: text/markdown)"
	if v, _ := s.Evidence["vary_accept"].(bool); v {
		s.Summary += ", with Vary: Accept."
	} else {
		s.Summary += ", but without Vary: Accept, so a shared cache may serve one version to everyone."
	}
	if _, ok := s.Evidence["x_markdown_tokens"]; ok {
		s.Summary += " It states its size in tokens (x-markdown-tokens)."
	}
	return s
}

// varies reports a Vary header naming Accept (or *).
func varies(r *fetch.Response) bool {
	for _, v := range r.Header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "*" || strings.EqualFold(f, "accept") {
				return true
			}
		}
	}
	return false
}

// wordSet returns the distinct lower-case words of four letters or more
// in text, at most limit of them (0: all).
func wordSet(text string, limit int) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) < 4 {
			continue
		}
		out[strings.ToLower(w)] = true
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out
}
