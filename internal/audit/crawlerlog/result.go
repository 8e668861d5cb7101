package crawlerlog

// Result is what an access log says about AI and search crawlers. Every
// count is exact for the lines read; the bounded parts (paths, days) say
// when they were cut. It holds no text of a log line except the request
// paths, cut to MaxStoredPath bytes.
type Result struct {
	// Lines counts the non-blank lines read, W3C directive lines (#Fields…)
	// excepted. Lines = ParsedLines + UnparsedLines.
	Lines         int64 `json:"lines"`
	ParsedLines   int64 `json:"parsed_lines"`
	UnparsedLines int64 `json:"unparsed_lines"`
	// Unparsed counts the unparsed lines by reason, most frequent first.
	Unparsed []Unparsed `json:"unparsed"`
	// Formats counts the parsed lines by detected format (FormatCombined…).
	Formats map[string]int64 `json:"formats"`
	// FirstSeen and LastSeen bound the analysed requests (RFC 3339, UTC);
	// empty when none was analysed.
	FirstSeen string `json:"first_seen,omitempty"`
	LastSeen  string `json:"last_seen,omitempty"`
	// OtherHostLines counts parsed lines whose host names another site
	// than Options.Domain; they are not analysed further.
	OtherHostLines int64 `json:"other_host_lines"`
	// OtherHits counts analysed requests whose user agent names no crawler
	// of the table (browsers, other bots). ParsedLines = OtherHostLines +
	// OtherHits + the hits of Bots.
	OtherHits int64 `json:"other_hits"`
	// Bots has one entry per product token seen, most hits first.
	Bots []Bot `json:"bots"`
	// SearchPaths are the distinct paths (query removed) that crawlers of
	// role search requested, hits that failed verification excepted,
	// sorted; at most 10 × Options.MaxPaths.
	SearchPaths          []string `json:"search_paths"`
	SearchPathsTruncated bool     `json:"search_paths_truncated"`
	// Lookups counts the reverse-DNS verifications made (each a PTR query
	// and the forward queries of its names).
	Lookups int `json:"lookups"`
	// RangeLists are the published IP range lists verification used, with
	// the date of each copy.
	RangeLists []RangeList `json:"range_lists"`
}

// Unparsed counts the lines of one reason.
type Unparsed struct {
	Reason string `json:"reason"`
	Count  int64  `json:"count"`
	// FirstLine is the 1-based line number of the first such line.
	FirstLine int64 `json:"first_line"`
}

// The reasons a line is not parsed.
const (
	// ReasonTooLong: longer than Options.MaxLineBytes (skipped unread).
	ReasonTooLong = "line_too_long"
	// ReasonBinary: control bytes or NULs, not a log line.
	ReasonBinary = "binary"
	// ReasonUnrecognized: text in none of the known formats.
	ReasonUnrecognized = "unrecognized"
	// ReasonBadJSON: starts like a JSON object but is not valid JSON.
	ReasonBadJSON = "bad_json"
	// ReasonUnknownJSON: valid JSON without the fields of a known format.
	ReasonUnknownJSON = "unknown_json"
	// ReasonNotARequest: a JSON log line that records no HTTP request
	// (Vercel build or function output).
	ReasonNotARequest = "not_a_request"
	// ReasonBadClientIP: the client address field is not an IP address.
	ReasonBadClientIP = "bad_client_ip"
	// ReasonBadTimestamp: the time is missing, malformed or outside
	// 1990–2199.
	ReasonBadTimestamp = "bad_timestamp"
	// ReasonBadStatus: the status is not a three-digit code (or 000).
	ReasonBadStatus = "bad_status"
	// ReasonBadRequest: the request line has no method and target (TLS
	// handshakes sent to a plain-HTTP port, scanners' junk).
	ReasonBadRequest = "bad_request"
)

// The format names of Result.Formats.
const (
	FormatCombined      = "combined"
	FormatCommon        = "common"
	FormatVhostCombined = "vhost_combined"
	FormatVhostCommon   = "vhost_common"
	FormatW3C           = "w3c"
	FormatCloudFront    = "cloudfront"
	FormatCloudflare    = "cloudflare_json"
	FormatCloudFrontRT  = "cloudfront_realtime_json"
	FormatFastly        = "fastly_json"
	FormatVercel        = "vercel_json"
)

// Bot is what one product token did.
type Bot struct {
	Token string `json:"token"`
	Owner string `json:"owner"`
	// Role is the token's role in robots.Agents: search, user_fetch,
	// training, mixed or control.
	Role string `json:"role"`
	Hits int64  `json:"hits"`
	// VerifiedHits came from an address the operator's published method
	// confirms; UnverifiedHits = Hits − VerifiedHits (failed or not
	// checked).
	VerifiedHits   int64        `json:"verified_hits"`
	UnverifiedHits int64        `json:"unverified_hits"`
	Verification   Verification `json:"verification"`
	// Statuses counts hits by HTTP status (0 for CloudFront's 000).
	Statuses map[int]int64 `json:"statuses"`
	// Days counts hits by UTC date, oldest first; at most MaxDays dates.
	Days          []Day `json:"days"`
	DaysTruncated bool  `json:"days_truncated"`
	// Pages are the most requested paths (query removed), at most
	// MaxPagesShown, most hits first.
	Pages []Page `json:"pages"`
	// DistinctPaths counts the paths tracked, at most Options.MaxPaths;
	// PagesTruncated is set when Pages does not show them all or the limit
	// was reached, and UntrackedHits counts the hits to paths seen after
	// it.
	DistinctPaths  int   `json:"distinct_paths"`
	PagesTruncated bool  `json:"pages_truncated"`
	UntrackedHits  int64 `json:"untracked_hits"`
	// Refused are the paths whose hits got a refusal (RefusalStatus), hits
	// that failed verification excepted — a forged bot being blocked is
	// no problem. At most MaxRefusedShown, most hits first.
	Refused          []Page `json:"refused"`
	RefusedTruncated bool   `json:"refused_truncated"`
	FirstSeen        string `json:"first_seen"`
	LastSeen         string `json:"last_seen"`
}

// The methods of Verification.Method.
const (
	// MethodIPRanges: the operator publishes its addresses (and, for some,
	// also documents reverse DNS, tried when an address is not listed).
	MethodIPRanges = "ip_ranges"
	// MethodReverseDNS: forward-confirmed reverse DNS is the only
	// documented method.
	MethodReverseDNS = "reverse_dns"
	// MethodNone: the operator documents no way to verify, or its list
	// could not be obtained.
	MethodNone = "none"
)

// Verification says how a token's claims were checked.
type Verification struct {
	Method string `json:"method"`
	// FailedHits came from addresses the operator's method refutes:
	// "claims to be X, not from X's addresses".
	FailedHits int64 `json:"failed_hits"`
	// NotCheckedHits could not be checked: no method, an absent list,
	// no resolver, the lookup budget spent or a DNS error. Never counted
	// as failed.
	NotCheckedHits int64 `json:"not_checked_hits"`
	// ReverseDNSHits are the verified hits confirmed by reverse DNS
	// rather than by a published list.
	ReverseDNSHits int64 `json:"reverse_dns_hits"`
}

// Day counts one UTC date's hits.
type Day struct {
	Date         string `json:"date"`
	Hits         int64  `json:"hits"`
	VerifiedHits int64  `json:"verified_hits"`
}

// Page counts the hits on one path.
type Page struct {
	Path         string        `json:"path"`
	Hits         int64         `json:"hits"`
	VerifiedHits int64         `json:"verified_hits"`
	Statuses     map[int]int64 `json:"statuses"`
}

// Bounds of the Result beyond Options.
const (
	// MaxStoredPath cuts the paths kept: longer ones are counted under
	// their first MaxStoredPath bytes, so a log of huge URLs cannot make
	// the analysis hold more than MaxPaths × MaxStoredPath bytes per bot.
	MaxStoredPath = 256
	// MaxDays bounds the dates kept per bot (a forged log can hold any
	// number of dates).
	MaxDays = 1000
	// MaxPagesShown and MaxRefusedShown bound the pages listed per bot.
	MaxPagesShown   = 100
	MaxRefusedShown = 500
)

// RefusalStatus reports the statuses that refuse a crawler rather than
// answer it, the ones WAFs, rate limiters and bot filters send:
// authentication required, forbidden, too many requests, nginx's 444
// (connection closed unanswered), unavailable for legal reasons and
// service unavailable.
func RefusalStatus(status int) bool {
	switch status {
	case 401, 403, 429, 444, 451, 503:
		return true
	}
	return false
}
