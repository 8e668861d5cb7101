package agentready

import (
	"fmt"
	"net/url"
	"strings"
)

// Link is one link-value of a Link header (RFC 8288 section 3).
type Link struct {
	// Target is the URI reference as written; Resolved is it resolved
	// against the response's URL ("" when it does not parse).
	Target   string
	Resolved string
	// Rels are the relation types, lower case (registered types are
	// case-insensitive; extension types are URIs, compared as written
	// lower-cased).
	Rels []string
	// Params are the other parameters by lower-case name; the first
	// occurrence of a name wins, as RFC 8288 asks of rel.
	Params map[string]string
}

// maxLinks bounds the links read from one response's headers.
const maxLinks = 64

// ParseLinkHeaders parses every Link header value of a response. Values
// are split on commas outside quoted strings and angle brackets; a
// link-value that does not parse is skipped and described in problems,
// so one broken link does not hide the others.
func ParseLinkHeaders(values []string, base *url.URL) (links []Link, problems []string) {
	for _, v := range values {
		for _, part := range splitLinkValues(v) {
			if strings.TrimSpace(part) == "" {
				continue
			}
			if len(links) == maxLinks {
				problems = append(problems, fmt.Sprintf("more than %d links; the rest were not read", maxLinks))
				return links, problems
			}
			l, err := parseLinkValue(part)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %s", err, clip(strings.TrimSpace(part), 80)))
				continue
			}
			if base != nil {
				if u, err := base.Parse(l.Target); err == nil {
					l.Resolved = u.String()
				}
			}
			links = append(links, l)
		}
	}
	return links, problems
}

// splitLinkValues splits a header value into link-values at commas that
// are outside <…> and quoted strings.
func splitLinkValues(v string) []string {
	var out []string
	start, inURI, inQuote := 0, false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case inQuote:
			switch c {
			case '\\':
				i++
			case '"':
				inQuote = false
			}
		case inURI:
			if c == '>' {
				inURI = false
			}
		case c == '<':
			inURI = true
		case c == '"':
			inQuote = true
		case c == ',':
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	return append(out, v[start:])
}

// parseLinkValue parses `<target>; name=value; name="quoted"; name`.
func parseLinkValue(s string) (Link, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "<") {
		return Link{}, fmt.Errorf("a link must start with <URI>")
	}
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return Link{}, fmt.Errorf("the <URI> is not closed")
	}
	l := Link{Target: strings.TrimSpace(s[1:end]), Params: map[string]string{}}
	rest := s[end+1:]
	relSeen := false
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			break
		}
		if rest[0] != ';' {
			return Link{}, fmt.Errorf("expected ; before a parameter")
		}
		rest = strings.TrimLeft(rest[1:], " \t")
		if rest == "" {
			break // a trailing ; is tolerated
		}
		i := 0
		for i < len(rest) && isTokenChar(rest[i]) {
			i++
		}
		if i == 0 {
			return Link{}, fmt.Errorf("a parameter has no name")
		}
		name := strings.ToLower(rest[:i])
		rest = strings.TrimLeft(rest[i:], " \t")
		value := ""
		if strings.HasPrefix(rest, "=") {
			rest = strings.TrimLeft(rest[1:], " \t")
			var err error
			value, rest, err = paramValue(rest)
			if err != nil {
				return Link{}, fmt.Errorf("parameter %s: %w", name, err)
			}
		}
		if name == "rel" {
			if !relSeen {
				relSeen = true
				l.Rels = strings.Fields(strings.ToLower(value))
			}
			continue
		}
		if _, dup := l.Params[name]; !dup {
			l.Params[name] = value
		}
	}
	if len(l.Rels) == 0 {
		// An empty rel ("rel" or rel="") names no relation either.
		return l, fmt.Errorf("the link has no rel")
	}
	return l, nil
}

// paramValue reads a token or a quoted string (with \-escapes) and returns
// the value and the rest.
func paramValue(s string) (string, string, error) {
	if strings.HasPrefix(s, "\"") {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				if i+1 < len(s) {
					i++
					b.WriteByte(s[i])
				}
			case '"':
				return b.String(), s[i+1:], nil
			default:
				b.WriteByte(s[i])
			}
		}
		return "", "", fmt.Errorf("unterminated quoted string")
	}
	i := 0
	for i < len(s) && s[i] != ';' && s[i] != ' ' && s[i] != '\t' {
		i++
	}
	return s[:i], s[i:], nil
}

// isTokenChar reports an RFC 9110 tchar.
func isTokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// agentRels are relation types that point an agent at a machine-readable
// resource: descriptions of the site or its API (RFC 8631, RFC 9727,
// describedby from POWDER), and the names in use for llms.txt.
var agentRels = map[string]bool{
	"describedby": true, "service-desc": true, "service-doc": true, "service-meta": true,
	"api-catalog": true, "llms-txt": true, "llms-full-txt": true, "mcp": true, "mcp-server-card": true,
	"agent-card": true, "agent-skills": true,
}

// agentTypes are media types that make any link (alternate, say) a
// resource for agents.
var agentTypes = map[string]bool{
	"text/markdown": true, "text/x-markdown": true, "application/linkset+json": true,
	"application/openapi+json": true, "application/openapi+yaml": true, "application/vnd.oai.openapi+json": true,
	"application/mcp-server-card+json": true,
}

// ForAgents reports whether a link points an agent at a resource: by a
// relation type of agentRels, or by a media type of agentTypes (an
// alternate Markdown version, say).
func (l Link) ForAgents() bool {
	for _, r := range l.Rels {
		if agentRels[r] {
			return true
		}
	}
	t := strings.ToLower(strings.TrimSpace(l.Params["type"]))
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	return agentTypes[t]
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
