package fetch

import (
	"fmt"
	"strings"
)

// Who was refused: GeoScan's own user agent (the auditor), a browser, or
// an AI crawler. An edge that challenges GeoScan but serves browsers says
// nothing about the site's openness to AI; an edge that serves GeoScan but
// challenges GPTBot says a lot. The Site records which request saw what so
// that findings name the right cause.

// AuditorToken names GeoScan's own user agent in Access rows.
const AuditorToken = "GeoScan"

// Access is the homepage as one requester saw it.
type Access struct {
	// Requester is AuditorToken, or the probe's token ("Browser",
	// "GPTBot", …).
	Requester string
	// Role is "auditor", "browser" or the crawler role ("search",
	// "user_fetch", "training").
	Role      string
	UserAgent string // "" for GeoScan's own
	// Retry marks the browser-like re-fetch of the homepage made because
	// GeoScan's own user agent was refused.
	Retry    bool
	Status   int
	Error    string
	Refusal  string // why the answer counts as refused; "" when served
	Response *Response
}

// Refused reports an answer that turned the requester away.
func (a Access) Refused() bool { return a.Refusal != "" }

// challengeTexts are texts of the interstitial pages of bot managers
// (Cloudflare, Imperva, DDoS-Guard, Sucuri, DataDome, PerimeterX, Akamai).
// Most of them count only with an error status: "Just a moment..." is also
// the loading text of ordinary apps. The script markers of Cloudflare's
// and Imperva's challenges are proof at any status.
var challengeTexts = []struct {
	label, needle string
	anyStatus     bool
}{
	{"_cf_chl", "_cf_chl", true},
	{"cf-browser-verification", "cf-browser-verification", true},
	{"Incapsula incident", "incapsula incident id", true},
	{"Just a moment", "just a moment...", false},
	{"DDoS-Guard", "ddos-guard", false},
	{"Sucuri firewall", "sucuri website firewall", false},
	{"DataDome captcha", "captcha-delivery.com", false},
	{"PerimeterX challenge", "px-captcha", false},
	{"Access denied", "<title>access denied</title>", false},
}

// refusalWindow is how much of a body Refusal reads: challenge pages say
// what they are near the top. The bot probes keep no more of their bodies.
const refusalWindow = 64 << 10

// Refusal says why a response turned its requester away: a refusing
// status (401, 403, 429), a bot manager's challenge header, or a
// challenge interstitial (whatever its status). "" means the page was
// served. A 5xx without a challenge is the server failing, not refusing.
func Refusal(r *Response) string {
	if r == nil || r.Err != nil || r.Status == 0 {
		return ""
	}
	if v := r.Header.Get("Cf-Mitigated"); v != "" {
		return "cf-mitigated: " + v
	}
	body := r.Body
	if len(body) > refusalWindow {
		body = body[:refusalWindow]
	}
	lower := strings.ToLower(string(body))
	for _, c := range challengeTexts {
		if (c.anyStatus || r.Status >= 400) && strings.Contains(lower, c.needle) {
			return "challenge page (" + c.label + ")"
		}
	}
	switch r.Status {
	case 401, 403, 429:
		return fmt.Sprintf("HTTP %d", r.Status)
	}
	return ""
}

// HomeAccess lists the homepage as each requester saw it: GeoScan's own
// request first, then the browser-like retry when there was one, then the
// probes (a browser baseline and the AI crawlers).
func (s *Site) HomeAccess() []Access {
	var out []Access
	row := func(r *Response, who, role string, retry bool) {
		if r == nil {
			return
		}
		a := Access{Requester: who, Role: role, UserAgent: r.UserAgent, Retry: retry, Status: r.Status, Refusal: Refusal(r), Response: r}
		if r.Err != nil {
			a.Error = r.ErrorText()
		}
		out = append(out, a)
	}
	auditor := s.Home
	if s.AuditorHome != nil {
		auditor = s.AuditorHome
	}
	row(auditor, AuditorToken, "auditor", false)
	row(s.BrowserHome, "Browser", "browser", true)
	for _, b := range s.Bots {
		row(b.Response, b.Bot.Token, b.Bot.Role, false)
	}
	return out
}

// AuditorRefused reports that the homepage refused GeoScan's own user
// agent (whatever a browser got).
func (s *Site) AuditorRefused() bool {
	if s.AuditorHome != nil {
		return true
	}
	return Refusal(s.Home) != "" && s.Home.UserAgent == ""
}

// browserBot is the browser of the probe list, used for the retry.
func browserBot() Bot {
	for _, b := range ProbeBots {
		if b.Role == "browser" {
			return b
		}
	}
	return ProbeBots[0]
}
