package agentready

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/geoscan/geoscan/internal/audit/fetch"
)

// readState is what a response says of a file.
type readState int

const (
	// read: the file was served (2xx), perhaps cut at the size limit.
	read readState = iota
	// absent: the site has no such file (404, 410, another 4xx but a
	// refusal, or an HTML page where a document was asked for).
	absent
	// unreadable: the request failed, was refused (401, 403, 429) or met
	// a server error: nothing can be said of the file.
	unreadable
)

// classify says what r is for a file; document is true for a
// machine-readable file, for which an HTML page is a soft 404. why says
// it in words.
func classify(r *fetch.Response, document bool) (readState, string) {
	switch {
	case r == nil:
		return unreadable, "it was not requested: the time for the agent-readiness fetches ran out"
	case r.Err != nil && !errors.Is(r.Err, fetch.ErrTooLarge):
		return unreadable, "the request failed: " + r.ErrorText()
	case r.Status == 401 || r.Status == 403:
		return unreadable, fmt.Sprintf("the site refused the request (HTTP %d)", r.Status)
	case r.Status == 429:
		return unreadable, "the site asked for fewer requests (HTTP 429)"
	case r.Status >= 500:
		return unreadable, fmt.Sprintf("the site answered HTTP %d", r.Status)
	case r.Status < 200 || r.Status >= 300:
		return absent, fmt.Sprintf("HTTP %d", r.Status)
	case document && looksHTML(r):
		return absent, "an HTML page, a soft 404"
	}
	return read, ""
}

// looksHTML reports a body labelled or shaped as HTML. A JSON body
// labelled text/html is no HTML page: the document was served, under the
// wrong type.
func looksHTML(r *fetch.Response) bool {
	if r.IsHTML() {
		return !json.Valid(r.Body)
	}
	head := bytes.ToLower(bytes.TrimSpace(r.Body[:min(len(r.Body), 512)]))
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	return bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html")) ||
		bytes.Contains(head, []byte("<head>")) || bytes.Contains(head, []byte("<body"))
}

// cut reports a body not read whole: over MaxDocBytes, or over the
// fetcher's own limit.
func cut(r *fetch.Response) bool {
	return r.Truncated || r.Bytes > len(r.Body)
}

// validator checks a parsed document and returns what it found and what
// is wrong with it.
type validator func(doc map[string]any, origin string) (evidence map[string]any, problems []string)

// validators are the document checks per signal.
var validators = map[string]validator{
	MCPServerCard:            validMCPCard,
	A2AAgentCard:             validA2ACard,
	AgentSkills:              validSkillsIndex,
	APICatalog:               validAPICatalog,
	OAuthAuthorizationServer: validOAuthServer,
	OAuthProtectedResource:   validProtectedResource,
	WebBotAuth:               validKeyDirectory,
}

// wantTypes are the media types each document should be served as; any
// JSON type is accepted, and another is only noted.
var wantTypes = map[string]string{
	APICatalog: "application/linkset+json",
	WebBotAuth: "application/http-message-signatures-directory+json",
}

// judgeFile judges a /.well-known/ signal from the responses tried for it.
func judgeFile(id string, tried []*fetch.Response, origin string) Signal {
	s := Signal{ID: id, Evidence: map[string]any{}}
	if len(tried) == 0 {
		return notChecked(s, "it was not requested: the time for the agent-readiness fetches ran out")
	}
	var paths []string
	for _, r := range tried {
		paths = append(paths, pathOf(r.URL))
	}
	s.Evidence["tried"] = paths
	last := tried[len(tried)-1]
	state, why := classify(last, true)
	for _, r := range tried[:len(tried)-1] {
		// An earlier path that could not be read leaves the answer open.
		if st, w := classify(r, true); st == unreadable {
			return notChecked(s, pathOf(r.URL)+": "+w)
		}
	}
	switch state {
	case unreadable:
		return notChecked(s, pathOf(last.URL)+": "+why)
	case absent:
		s.Status = NotFound
		s.Summary = fmt.Sprintf("No %s: %s answered %s.", Titles[id], strings.Join(paths, " and "), why)
		return s
	}
	s.Evidence["url"] = last.FinalURL
	s.Evidence["content_type"] = last.ContentType()
	if cut(last) {
		return invalid(s, fmt.Sprintf("%s is larger than the %d KiB read of a discovery file (%d bytes)", pathOf(last.URL), MaxDocBytes>>10, last.Bytes))
	}
	var doc map[string]any
	if err := json.Unmarshal(last.Body, &doc); err != nil {
		return invalid(s, fmt.Sprintf("%s is not a JSON object: %s", pathOf(last.URL), jsonError(err)))
	}
	if doc == nil {
		return invalid(s, pathOf(last.URL)+" is JSON null, not an object")
	}
	ev, problems := validators[id](doc, origin)
	for k, v := range ev {
		s.Evidence[k] = v
	}
	ct := last.ContentType()
	if want := wantTypes[id]; want != "" && ct != want {
		s.Evidence["expected_content_type"] = want
	} else if ct != "" && ct != "application/json" && !strings.HasSuffix(ct, "+json") && want == "" {
		s.Evidence["expected_content_type"] = "application/json"
	}
	if len(problems) > 0 {
		return invalid(s, pathOf(last.URL)+": "+strings.Join(problems, "; "))
	}
	s.Status = Found
	s.Summary = fmt.Sprintf("%s at %s is well formed.", Titles[id], pathOf(last.URL))
	if want, ok := s.Evidence["expected_content_type"]; ok {
		s.Summary += fmt.Sprintf(" It is served as %q; %s is expected.", ct, want)
	}
	return s
}

func notChecked(s Signal, why string) Signal {
	s.Status, s.Reason = NotChecked, why
	s.Summary = "Not checked: " + why + "."
	return s
}

func invalid(s Signal, why string) Signal {
	s.Status, s.Reason = Invalid, why
	s.Summary = "Declared but invalid: " + why + "."
	return s
}

func pathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Path == "" {
		return raw
	}
	return u.Path
}

// jsonError words a decoding error without echoing the document.
func jsonError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("syntax error at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return "the document is a JSON " + typ.Value
	}
	return clip(err.Error(), 120)
}

// str returns doc[key] as a trimmed string, "" when it is not one.
func str(doc map[string]any, key string) string {
	s, _ := doc[key].(string)
	return strings.TrimSpace(s)
}

func obj(doc map[string]any, key string) map[string]any {
	m, _ := doc[key].(map[string]any)
	return m
}

func arr(doc map[string]any, key string) ([]any, bool) {
	a, ok := doc[key].([]any)
	return a, ok
}

// missing lists the keys whose string values are absent or empty.
func missing(doc map[string]any, keys ...string) []string {
	var out []string
	for _, k := range keys {
		if str(doc, k) == "" {
			out = append(out, k)
		}
	}
	return out
}

// requireMembers is the problem of missing members, if any.
func requireMembers(names []string) []string {
	if len(names) > 0 {
		return []string{"missing required " + strings.Join(names, ", ")}
	}
	return nil
}

// validMCPCard checks an MCP server card (SEP-2127: name, version and the
// remotes to connect to; the older serverInfo and transport shape is
// accepted too).
func validMCPCard(doc map[string]any, _ string) (map[string]any, []string) {
	ev := map[string]any{}
	name, version := str(doc, "name"), str(doc, "version")
	if info := obj(doc, "serverInfo"); info != nil {
		name, version = firstOf(name, str(info, "name")), firstOf(version, str(info, "version"))
	}
	var problems []string
	var need []string
	if name == "" {
		need = append(need, "name")
	}
	if version == "" {
		need = append(need, "version")
	}
	problems = append(problems, requireMembers(need)...)
	var endpoints []string
	if remotes, ok := arr(doc, "remotes"); ok {
		for _, r := range remotes {
			if m, ok := r.(map[string]any); ok && str(m, "url") != "" {
				endpoints = append(endpoints, str(m, "url"))
			}
		}
	}
	if t := obj(doc, "transport"); t != nil && str(t, "endpoint") != "" {
		endpoints = append(endpoints, str(t, "endpoint"))
	}
	if u := firstOf(str(doc, "url"), str(doc, "endpoint")); u != "" {
		endpoints = append(endpoints, u)
	}
	if len(endpoints) == 0 {
		problems = append(problems, "no endpoint to connect to (remotes[].url)")
	}
	ev["name"], ev["version"], ev["endpoints"] = name, version, limit(endpoints, 5)
	if tools, ok := arr(doc, "tools"); ok {
		ev["tools"] = len(tools)
	}
	return ev, problems
}

// validA2ACard checks an A2A agent card: the members the A2A
// specification requires, and an endpoint (url, or supportedInterfaces in
// later versions).
func validA2ACard(doc map[string]any, _ string) (map[string]any, []string) {
	ev := map[string]any{"name": str(doc, "name"), "version": str(doc, "version")}
	if pv := str(doc, "protocolVersion"); pv != "" {
		ev["protocol_version"] = pv
	}
	need := missing(doc, "name", "description", "version")
	if obj(doc, "capabilities") == nil {
		need = append(need, "capabilities")
	}
	for _, k := range []string{"defaultInputModes", "defaultOutputModes", "skills"} {
		if _, ok := arr(doc, k); !ok {
			need = append(need, k)
		}
	}
	problems := requireMembers(need)
	endpoint := str(doc, "url")
	if ifaces, ok := arr(doc, "supportedInterfaces"); ok && endpoint == "" {
		for _, i := range ifaces {
			if m, ok := i.(map[string]any); ok && str(m, "url") != "" {
				endpoint = str(m, "url")
				break
			}
		}
	}
	if endpoint == "" {
		problems = append(problems, "no endpoint (url or supportedInterfaces[].url)")
	}
	ev["url"] = endpoint
	if skills, ok := arr(doc, "skills"); ok {
		ev["skills"] = len(skills)
	}
	return ev, problems
}

// skillName is the Agent Skills specification's name rule.
var skillName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// validSkillsIndex checks an agent skills index: a skills array whose
// entries have a valid name and a description.
func validSkillsIndex(doc map[string]any, _ string) (map[string]any, []string) {
	skills, ok := arr(doc, "skills")
	if !ok {
		return map[string]any{}, []string{"missing required skills array"}
	}
	var names, problems []string
	bad := 0
	for i, e := range skills {
		m, _ := e.(map[string]any)
		name := str(m, "name")
		switch {
		case m == nil:
			bad++
			problems = appendFew(problems, bad, fmt.Sprintf("skills[%d] is not an object", i))
		case name == "" || len(name) > 64 || !skillName.MatchString(name):
			bad++
			problems = appendFew(problems, bad, fmt.Sprintf("skills[%d] has no valid name (lower-case letters, digits and single hyphens, at most 64)", i))
		case str(m, "description") == "":
			bad++
			problems = appendFew(problems, bad, fmt.Sprintf("skill %q has no description", name))
		default:
			names = append(names, name)
		}
	}
	if len(skills) == 0 {
		problems = append(problems, "the skills array is empty")
	}
	if bad > 3 {
		problems = append(problems, fmt.Sprintf("and %d more entries", bad-3))
	}
	return map[string]any{"skills": len(skills), "names": limit(names, 10)}, problems
}

// validAPICatalog checks an RFC 9727 API catalog: a linkset (RFC 9264) of
// link context objects, each with an anchor and target links with href.
func validAPICatalog(doc map[string]any, _ string) (map[string]any, []string) {
	set, ok := arr(doc, "linkset")
	if !ok {
		return map[string]any{}, []string{"missing required linkset array (RFC 9264)"}
	}
	if len(set) == 0 {
		return map[string]any{"contexts": 0}, []string{"the linkset is empty"}
	}
	var anchors, problems []string
	rels := map[string]bool{}
	bad := 0
	for i, e := range set {
		m, _ := e.(map[string]any)
		if m == nil || str(m, "anchor") == "" {
			bad++
			problems = appendFew(problems, bad, fmt.Sprintf("linkset[%d] has no anchor", i))
			continue
		}
		anchors = append(anchors, str(m, "anchor"))
		targets := 0
		for rel, v := range m {
			list, ok := v.([]any)
			if rel == "anchor" || !ok {
				continue
			}
			for _, t := range list {
				if tm, ok := t.(map[string]any); ok && str(tm, "href") != "" {
					targets++
					rels[rel] = true
				}
			}
		}
		if targets == 0 {
			bad++
			problems = appendFew(problems, bad, fmt.Sprintf("linkset[%d] (%s) has no target with an href", i, clip(str(m, "anchor"), 60)))
		}
	}
	return map[string]any{"contexts": len(set), "anchors": limit(anchors, 5), "relations": sortedKeys(rels)}, problems
}

// validOAuthServer checks RFC 8414 metadata: issuer (identical to the
// origin the well-known URI was formed from, section 3.3),
// response_types_supported, and an endpoint.
func validOAuthServer(doc map[string]any, origin string) (map[string]any, []string) {
	issuer := str(doc, "issuer")
	ev := map[string]any{"issuer": issuer}
	for _, k := range []string{"authorization_endpoint", "token_endpoint", "registration_endpoint"} {
		if v := str(doc, k); v != "" {
			ev[k] = v
		}
	}
	if b, ok := doc["client_id_metadata_document_supported"].(bool); ok {
		ev["client_id_metadata_document_supported"] = b
	}
	need := missing(doc, "issuer")
	if _, ok := arr(doc, "response_types_supported"); !ok {
		need = append(need, "response_types_supported")
	}
	problems := requireMembers(need)
	if str(doc, "authorization_endpoint") == "" && str(doc, "token_endpoint") == "" {
		problems = append(problems, "neither authorization_endpoint nor token_endpoint")
	}
	if issuer != "" && !sameOrigin(issuer, origin) {
		problems = append(problems, fmt.Sprintf("issuer %q is not %s, the origin the metadata was read from (RFC 8414 section 3.3)", clip(issuer, 80), origin))
	}
	return ev, problems
}

// validProtectedResource checks RFC 9728 metadata: resource, identical to
// the origin the well-known URI was formed from (section 3.3), and
// authorization_servers when given.
func validProtectedResource(doc map[string]any, origin string) (map[string]any, []string) {
	resource := str(doc, "resource")
	ev := map[string]any{"resource": resource}
	problems := requireMembers(missing(doc, "resource"))
	if resource != "" && !sameOrigin(resource, origin) {
		problems = append(problems, fmt.Sprintf("resource %q is not %s, the origin the metadata was read from (RFC 9728 section 3.3)", clip(resource, 80), origin))
	}
	if v, present := doc["authorization_servers"]; present {
		list, ok := v.([]any)
		var servers []string
		for _, s := range list {
			if s, ok := s.(string); ok && s != "" {
				servers = append(servers, s)
			}
		}
		if !ok || len(servers) != len(list) {
			problems = append(problems, "authorization_servers is not an array of URLs")
		}
		ev["authorization_servers"] = limit(servers, 5)
	}
	return ev, problems
}

// validKeyDirectory checks a Web Bot Auth key directory: a JWKS-like
// keys array whose keys have a kty (and, for OKP keys, crv and x).
func validKeyDirectory(doc map[string]any, _ string) (map[string]any, []string) {
	keys, ok := arr(doc, "keys")
	if !ok {
		return map[string]any{}, []string{"missing required keys array"}
	}
	var problems, types []string
	bad := 0
	for i, k := range keys {
		m, _ := k.(map[string]any)
		kty := str(m, "kty")
		switch {
		case m == nil || kty == "":
			bad++
			problems = appendFew(problems, bad, fmt.Sprintf("keys[%d] has no kty", i))
		case kty == "OKP" && (str(m, "crv") == "" || str(m, "x") == ""):
			bad++
			problems = appendFew(problems, bad, fmt.Sprintf("keys[%d] is an OKP key without crv and x", i))
		default:
			types = append(types, firstOf(str(m, "crv"), kty))
		}
	}
	if len(keys) == 0 {
		problems = append(problems, "the keys array is empty")
	}
	return map[string]any{"keys": len(keys), "key_types": limit(types, 5)}, problems
}

// sameOrigin compares an identifier with an origin, a trailing slash
// aside.
func sameOrigin(id, origin string) bool {
	return strings.EqualFold(strings.TrimSuffix(id, "/"), strings.TrimSuffix(origin, "/"))
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// appendFew keeps the first three problems of a kind.
func appendFew(problems []string, n int, p string) []string {
	if n <= 3 {
		return append(problems, p)
	}
	return problems
}

// limit keeps the first n strings, clipped, never nil.
func limit(s []string, n int) []string {
	out := make([]string, 0, min(len(s), n))
	for _, v := range s[:min(len(s), n)] {
		out = append(out, clip(v, 200))
	}
	return out
}
