package fetch

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/geoscan/geoscan/internal/audit/page"
)

// SnapshotFormat versions the snapshot encoding.
const SnapshotFormat = 1

// maxSnapshotBytes bounds a decompressed snapshot when it is read back.
const maxSnapshotBytes = 64 << 20

// snapshot is the part of a Site that derived documents read again later:
// the homepage (with GeoScan's refused answer and the browser retry when
// there were), the sampled pages and the bot probes, with headers and
// HTML bodies, and robots.txt, which an access log uploaded later is set
// beside. Sitemaps and llms.txt are summarised by the stored check
// results and are not kept.
type snapshot struct {
	Target       string          `json:"target"`
	Home         *snapResponse   `json:"home"`
	AuditorHome  *snapResponse   `json:"auditor_home,omitempty"`
	BrowserHome  *snapResponse   `json:"browser_home,omitempty"`
	AuditedAs    string          `json:"audited_as,omitempty"`
	Pages        []*snapResponse `json:"pages"`
	Bots         []snapBot       `json:"bots"`
	SitemapTotal int             `json:"sitemap_total"`
	// Robots is absent from snapshots made before it was kept.
	Robots *snapResponse `json:"robots,omitempty"`
}

type snapResponse struct {
	Purpose   Purpose     `json:"purpose"`
	URL       string      `json:"url"`
	FinalURL  string      `json:"final_url"`
	UserAgent string      `json:"user_agent,omitempty"`
	Agent     string      `json:"agent,omitempty"`
	Status    int         `json:"status"`
	Header    http.Header `json:"header"`
	Body      []byte      `json:"body,omitempty"` // HTML only
	// Bytes is the size read when Body holds only its start (the bot
	// probes keep their first 64 KiB); 0 when Body is all of it.
	Bytes     int     `json:"bytes,omitempty"`
	Truncated bool    `json:"truncated,omitempty"`
	Charset   Charset `json:"charset,omitzero"`
	Err       string  `json:"error,omitempty"`
}

type snapBot struct {
	Bot      Bot           `json:"bot"`
	Response *snapResponse `json:"response"`
}

func toSnap(r *Response) *snapResponse {
	if r == nil {
		return nil
	}
	s := &snapResponse{Purpose: r.Purpose, URL: r.URL, FinalURL: r.FinalURL, Status: r.Status, Header: r.Header, Truncated: r.Truncated, Charset: r.Charset, UserAgent: r.UserAgent, Agent: r.Agent}
	if r.IsHTML() {
		s.Body = r.Body
		if r.Bytes > len(r.Body) && !r.Truncated {
			s.Bytes = r.Bytes
		}
	}
	if r.Err != nil {
		s.Err = r.Err.Error()
	}
	return s
}

func (s *snapResponse) response() *Response {
	if s == nil {
		return nil
	}
	r := &Response{Purpose: s.Purpose, URL: s.URL, FinalURL: s.FinalURL, Status: s.Status, Header: s.Header, Body: s.Body, Bytes: len(s.Body), Truncated: s.Truncated, Charset: s.Charset, UserAgent: s.UserAgent, Agent: s.Agent}
	if s.Bytes > 0 {
		r.Bytes = s.Bytes
	}
	if r.Header == nil {
		r.Header = http.Header{}
	}
	if s.Err != "" {
		r.Err = errors.New(s.Err)
	}
	return r
}

// Snapshot encodes what Restore needs to rebuild the site's pages.
func Snapshot(site *Site) ([]byte, error) {
	snap := snapshot{
		Home: toSnap(site.Home), AuditorHome: toSnap(site.AuditorHome), BrowserHome: toSnap(site.BrowserHome),
		AuditedAs: site.AuditedAs, SitemapTotal: site.SitemapTotal,
	}
	if snap.Robots = toSnap(site.Robots); snap.Robots != nil {
		snap.Robots.Body = site.Robots.Body // text, at most robots.txt's read limit
	}
	if site.Target != nil {
		snap.Target = site.Target.String()
	}
	for _, r := range site.Pages {
		snap.Pages = append(snap.Pages, toSnap(r))
	}
	for _, b := range site.Bots {
		snap.Bots = append(snap.Bots, snapBot{Bot: b.Bot, Response: toSnap(b.Response)})
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(snap); err != nil {
		return nil, fmt.Errorf("encode snapshot: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("compress snapshot: %w", err)
	}
	return buf.Bytes(), nil
}

// Restore rebuilds a Site from a snapshot, parsing its HTML again. The
// site has no sitemaps or llms.txt, and robots.txt only when the snapshot
// kept it: only what Snapshot keeps.
func Restore(data []byte) (*Site, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("open snapshot: %w", err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxSnapshotBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read snapshot: %w", err)
	}
	if len(raw) > maxSnapshotBytes {
		return nil, errors.New("snapshot exceeds its size limit")
	}
	var snap snapshot
	if err := json.Unmarshal(raw, &snap); err != nil {
		return nil, fmt.Errorf("decode snapshot: %w", err)
	}
	site := &Site{SitemapTotal: snap.SitemapTotal, Parsed: map[*Response]*page.Page{}}
	if site.Target, err = url.Parse(snap.Target); err != nil {
		return nil, fmt.Errorf("snapshot target: %w", err)
	}
	parse := func(r *Response) *page.Page {
		if r == nil || len(r.Body) == 0 {
			return nil
		}
		u, err := url.Parse(r.FinalURL)
		if err != nil || r.FinalURL == "" {
			u, _ = url.Parse(r.URL)
		}
		p, err := page.Parse(r.Body, u)
		if err != nil {
			return nil
		}
		site.Parsed[r] = p
		return p
	}
	site.Home = snap.Home.response()
	site.HomePage = parse(site.Home)
	site.AuditorHome, site.BrowserHome, site.AuditedAs = snap.AuditorHome.response(), snap.BrowserHome.response(), snap.AuditedAs
	for _, s := range snap.Pages {
		r := s.response()
		parse(r)
		site.Pages = append(site.Pages, r)
		site.All = append(site.All, r)
	}
	for _, b := range snap.Bots {
		site.Bots = append(site.Bots, BotResult{Bot: b.Bot, Response: b.Response.response()})
	}
	site.Robots = snap.Robots.response()
	return site, nil
}
