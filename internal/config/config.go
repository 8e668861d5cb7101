// Package config owns the service configuration: the GEOSCAN_* environment
// variables and DATABASE_URL, their defaults and validation, and the help
// table that `geoscan serve --help` prints and docs/OPERATIONS.md copies.
package config

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Environment names the deployment mode.
type Environment string

// The deployment modes. Only dev and test may lift the outbound address rules.
const (
	EnvProduction Environment = "production"
	EnvDev        Environment = "dev"
	EnvTest       Environment = "test"
)

// Config is the resolved configuration of one process.
type Config struct {
	DatabaseURL         string
	Env                 Environment
	HTTPAddr            string
	PublicURL           string
	AllowPrivateTargets bool
	ExtraCAFile         string
	LogLevel            string
	LogFormat           string
	DBMaxConns          int
	ShutdownTimeout     time.Duration
	RequestTimeout      time.Duration
	DataDir             string
	Role                Role
	ScanWorkers         int
	ScanBudget          time.Duration
	// ScanMemoryMiB is the memory, in MiB, the scans of one worker process
	// may hold at once while they judge the sites they read.
	ScanMemoryMiB int
	// ScanOrgShare is how many scans one organization may run at once, in
	// all worker processes together, while another organization's scans
	// wait.
	ScanOrgShare int
	// Render configures the headless browser of a worker process.
	Render RenderConfig
	// Resolve maps host names to addresses, bypassing DNS (dev/test only).
	Resolve map[string][]string
	// PlainHTTPPort is the port of the scanner's http:// probe.
	PlainHTTPPort int
	// WebhookRetryDelays are the waits before each retry of a callback.
	WebhookRetryDelays []time.Duration
	WebhookWorkers     int
	// RedisURL selects the Redis rate-limit backend; empty keeps PostgreSQL.
	RedisURL string
	// IPRateLimit is the per-client-address limit under /api/, per minute.
	IPRateLimit int
	// TrustedProxies are the peers whose X-Forwarded-For is believed.
	TrustedProxies []netip.Prefix
	// DisableRateLimits turns both rate-limit layers off (dev/test only).
	DisableRateLimits bool
	// CrawlUnthrottled lifts the crawl's request rate and robots.txt
	// Crawl-delay for whole-site audits (dev/test only: benchmarks against
	// the local fixture sites).
	CrawlUnthrottled bool
	// RenderRateLimit is an organization's api_render limit: PDF reports
	// rendered (not served from the cache) per minute.
	RenderRateLimit int
	// PDFCacheMB is the memory, in MiB, one process keeps rendered PDF
	// reports in; 0 keeps none.
	PDFCacheMB int
	// PDFCJKFont is the font PDF reports draw Chinese, Japanese and Korean
	// text in; empty is the Debian package's.
	PDFCJKFont string
	// ShareMaxDays is the longest a share link of a report may work.
	ShareMaxDays int
	// CrawlerLogMaxMB is the largest access log, in MiB as uploaded, that
	// POST /crawler-logs accepts.
	CrawlerLogMaxMB int
	// CrawlerLogUploadTimeout bounds one upload of an access log.
	CrawlerLogUploadTimeout time.Duration
	// SchedulerInterval is how often the scheduler looks for due schedules.
	SchedulerInterval time.Duration
	// SMTPURL is the mail relay (smtp:// or smtps://, credentials in the
	// URL); empty keeps emails in the outbox.
	SMTPURL string
	// MailFrom is the From of GeoScan's emails.
	MailFrom string
	// MailRetryDelays are the waits before each retry of an email the
	// relay refused for now.
	MailRetryDelays []time.Duration
	// SnapshotRetention is how long the pages a scan fetched are kept.
	SnapshotRetention time.Duration
	// LLM configures the AI layer (answer engines and their limits).
	LLM LLMConfig
}

// LLMConfig is the AI layer's part of the configuration. The engines'
// endpoints are the operator's own, so plain http:// and loopback are
// allowed here, unlike for scan targets.
type LLMConfig struct {
	BaseURL, APIKey, Model string
	EnginesFile            string
	Runs                   int
	CallTimeout            time.Duration
	MaxCalls, MaxTokens    int
	Concurrency            int
}

// RenderMode says whether a worker process renders pages in a browser.
type RenderMode string

// The rendering modes: render when a browser is found, require one, or
// never render.
const (
	RenderAuto RenderMode = "auto"
	RenderOn   RenderMode = "on"
	RenderOff  RenderMode = "off"
)

// RenderConfig is the part of the configuration about rendering pages in a
// headless Chromium, beside the raw fetch.
type RenderConfig struct {
	Mode RenderMode
	// Chromium is the browser to run; empty looks for one on the PATH.
	Chromium string
	// Tabs is how many pages one worker process renders at once, each in
	// a tab of its one browser.
	Tabs int
	// PageTimeout bounds the rendering of one page.
	PageTimeout time.Duration
}

// Role is what a process runs.
type Role string

// The roles: the HTTP API, the scan workers, or both in one process.
const (
	RoleAll    Role = "all"
	RoleAPI    Role = "api"
	RoleWorker Role = "worker"
)

// variable describes one environment variable; the table below is the single
// source of names, defaults and help texts.
type variable struct {
	name    string
	def     string
	help    string
	secret  bool
	setFunc func(c *Config, v string) error
}

func variables() []variable {
	return []variable{
		{
			"DATABASE_URL", "", "PostgreSQL connection URL. Unset under `geoscan dev` / `make run`: a private cluster under GEOSCAN_DATA_DIR is started.", true,
			func(c *Config, v string) error { c.DatabaseURL = v; return nil },
		},
		{
			"GEOSCAN_ENV", "production", "Deployment mode: production, dev or test.", false,
			func(c *Config, v string) error {
				switch Environment(v) {
				case EnvProduction, EnvDev, EnvTest:
					c.Env = Environment(v)
					return nil
				}
				return fmt.Errorf("must be production, dev or test, not %q", v)
			},
		},
		{
			"GEOSCAN_HTTP_ADDR", "127.0.0.1:8080", "Address the HTTP API listens on.", false,
			func(c *Config, v string) error { c.HTTPAddr = v; return nil },
		},
		{
			"GEOSCAN_PUBLIC_URL", "", "Public base URL of this service, used in links and the crawler's User-Agent. Defaults to http://GEOSCAN_HTTP_ADDR.", false,
			func(c *Config, v string) error { c.PublicURL = strings.TrimRight(v, "/"); return nil },
		},
		{
			"GEOSCAN_ALLOW_PRIVATE_TARGETS", "false", "Allow loopback/private scan targets and callback receivers on any port. Refused unless GEOSCAN_ENV is dev or test.", false,
			func(c *Config, v string) error { b, err := strconv.ParseBool(v); c.AllowPrivateTargets = b; return err },
		},
		{
			"GEOSCAN_EXTRA_CA_FILE", "", "PEM bundle of extra CA certificates trusted for outbound TLS, beside the system roots (which honour SSL_CERT_FILE).", false,
			func(c *Config, v string) error { c.ExtraCAFile = v; return nil },
		},
		{
			"GEOSCAN_LOG_LEVEL", "info", "Log level: debug, info, warn or error. geoscan serve writes debug and info lines in batches, at most 100 ms late; warnings and errors at once.", false,
			func(c *Config, v string) error {
				switch v {
				case "debug", "info", "warn", "error":
					c.LogLevel = v
					return nil
				}
				return fmt.Errorf("must be debug, info, warn or error, not %q", v)
			},
		},
		{
			"GEOSCAN_LOG_FORMAT", "json", "Log format: json or text.", false,
			func(c *Config, v string) error {
				if v != "json" && v != "text" {
					return fmt.Errorf("must be json or text, not %q", v)
				}
				c.LogFormat = v
				return nil
			},
		},
		{
			"GEOSCAN_DB_MAX_CONNS", "auto", "Most PostgreSQL connections this process opens; auto is 4 per CPU core (more only adds contention on a small machine, see docs/PERFORMANCE.md).", false,
			func(c *Config, v string) error {
				if v == "auto" {
					c.DBMaxConns = 4 * runtime.NumCPU()
					return nil
				}
				return positiveInt(v, &c.DBMaxConns)
			},
		},
		{
			"GEOSCAN_SHUTDOWN_TIMEOUT", "15s", "Grace period after SIGTERM or SIGINT: API requests, scans and callbacks in flight get this long to finish; scans and callbacks still running are then put back in the queue untouched for the next worker. Give the process this plus 10 s before a SIGKILL.", false,
			func(c *Config, v string) error { return positiveDuration(v, &c.ShutdownTimeout) },
		},
		{
			"GEOSCAN_REQUEST_TIMEOUT", "30s", "Longest time one API request may take.", false,
			func(c *Config, v string) error { return positiveDuration(v, &c.RequestTimeout) },
		},
		{
			"GEOSCAN_ROLE", "all", "What this process runs: api (HTTP only; scans are queued), worker (scan workers only) or all. Any number of each may share one database.", false,
			func(c *Config, v string) error {
				switch Role(v) {
				case RoleAll, RoleAPI, RoleWorker:
					c.Role = Role(v)
					return nil
				}
				return fmt.Errorf("must be api, worker or all, not %q", v)
			},
		},
		{
			"GEOSCAN_SCAN_WORKERS", "8", "Scans one worker process runs at the same time. A scan mostly waits on the target site, so on sites that answer slowly raise it: one process holds 200 scans in flight in under 400 MiB (bench/worker.sh, docs/PERFORMANCE.md). Each scan makes at most 4 requests to its site at once.", false,
			func(c *Config, v string) error { return positiveInt(v, &c.ScanWorkers) },
		},
		{
			"GEOSCAN_SCAN_BUDGET", "120s", "Longest time one scan may take, fetching included; a scan over budget fails with a timeout.", false,
			func(c *Config, v string) error { return positiveDuration(v, &c.ScanBudget) },
		},
		{
			"GEOSCAN_SCAN_MEMORY", "320", "Memory, in MiB, that the scans one worker process runs at once may hold for the pages they parse and judge, each estimated from its HTML (16 bytes a byte, at least 2 MiB) and asked for before its homepage is parsed. A scan that does not fit waits, holding only what it fetched, for others to finish, within its budget: one that runs out of time waiting fails with a timeout that says so. A scan estimated above the whole budget runs alone. The default fits four scans of a 5 MB homepage beside a few ordinary ones. A worker process (GEOSCAN_ROLE=worker) sets Go's soft memory limit to this plus 32 MiB unless GOMEMLIMIT is set.", false,
			func(c *Config, v string) error { return positiveInt(v, &c.ScanMemoryMiB) },
		},
		{
			"GEOSCAN_SCAN_ORG_SHARE", "auto", "Scans one organization may run at once while another organization's scans wait for a worker, counted in the database across every worker process; with no one else waiting it may use every worker. auto is half of this process's GEOSCAN_SCAN_WORKERS, at least 1: right for one worker process. With several, set it to about half of all their workers together, the same in each.", false,
			func(c *Config, v string) error {
				if v == "auto" {
					c.ScanOrgShare = 0 // resolved once GEOSCAN_SCAN_WORKERS is known
					return nil
				}
				return positiveInt(v, &c.ScanOrgShare)
			},
		},
		{
			"GEOSCAN_RENDER", "auto", "Whether a worker process also loads the pages it scans in a headless Chromium, to compare what AI crawlers (raw HTML, no JavaScript) and people (a browser) get: auto renders when a browser is found (GEOSCAN_CHROMIUM, or the first of chromium-headless-shell, chromium, chromium-browser and google-chrome on the PATH) and otherwise scans without rendering; on refuses to start a worker without one; off never renders. Debian/Ubuntu: apt-get install chromium-headless-shell. Not to be confused with GEOSCAN_RENDER_RATE_LIMIT, which is about PDF reports.", false,
			func(c *Config, v string) error {
				switch RenderMode(v) {
				case RenderAuto, RenderOn, RenderOff:
					c.Render.Mode = RenderMode(v)
					return nil
				}
				return fmt.Errorf("must be auto, on or off, not %q", v)
			},
		},
		{
			"GEOSCAN_CHROMIUM", "", "Path (or name on the PATH) of the Chromium that renders pages; unset: the first of chromium-headless-shell, chromium, chromium-browser and google-chrome on the PATH. Set but not found, or found but not starting, it stops a worker process from starting unless GEOSCAN_RENDER is off.", false,
			func(c *Config, v string) error { c.Render.Chromium = strings.TrimSpace(v); return nil },
		},
		{
			"GEOSCAN_RENDER_TABS", "2", "Pages one worker process renders at once (1–32), each in a tab of the one browser the process keeps; a scan waits for a free tab within its budget. Each tab holds the memory of a browser page (tens to a few hundred MiB), outside GEOSCAN_SCAN_MEMORY.", false,
			func(c *Config, v string) error {
				if err := positiveInt(v, &c.Render.Tabs); err != nil || c.Render.Tabs > 32 {
					return fmt.Errorf("must be an integer from 1 to 32, not %q", v)
				}
				return nil
			},
		},
		{
			"GEOSCAN_RENDER_TIMEOUT", "15s", "Longest time the rendering of one page may take, from navigation to a settled DOM (at most 5m); a page over it is reported not measured, never the scan failed.", false,
			func(c *Config, v string) error {
				if err := positiveDuration(v, &c.Render.PageTimeout); err != nil || c.Render.PageTimeout > 5*time.Minute {
					return fmt.Errorf("must be a positive duration of at most 5m such as 15s, not %q", v)
				}
				return nil
			},
		},
		{
			"GEOSCAN_WEBHOOK_RETRY_DELAYS", "5s,25s,125s", "Waits before each retry of a failed callback; the first attempt is immediate, so the default makes 4 attempts.", false,
			func(c *Config, v string) error { return durationList(v, &c.WebhookRetryDelays) },
		},
		{
			"GEOSCAN_WEBHOOK_WORKERS", "20", "Callbacks one worker process sends at the same time.", false,
			func(c *Config, v string) error { return positiveInt(v, &c.WebhookWorkers) },
		},
		{
			"GEOSCAN_RESOLVE", "", "Host names resolved without DNS, as host=address pairs separated by commas (dev/test only; the fixture sites use it).", false,
			func(c *Config, v string) error {
				if v == "" {
					return nil
				}
				c.Resolve = map[string][]string{}
				for _, pair := range strings.Split(v, ",") {
					host, addr, ok := strings.Cut(strings.TrimSpace(pair), "=")
					if !ok || host == "" || net.ParseIP(addr) == nil {
						return fmt.Errorf("must be host=address pairs separated by commas, not %q", pair)
					}
					c.Resolve[strings.ToLower(host)] = append(c.Resolve[strings.ToLower(host)], addr)
				}
				return nil
			},
		},
		{
			"GEOSCAN_PLAIN_HTTP_PORT", "80", "Port of the scanner's http:// to https:// redirect probe (another port only in dev/test).", false,
			func(c *Config, v string) error { return positiveInt(v, &c.PlainHTTPPort) },
		},
		{
			"GEOSCAN_REDIS_URL", "", "Redis URL (redis:// or rediss://) for the rate-limit counters; unset keeps them in PostgreSQL. Either way every API process shares them; if the backend fails, requests are allowed and the failure logged.", true,
			func(c *Config, v string) error { c.RedisURL = v; return nil },
		},
		{
			"GEOSCAN_IP_RATE_LIMIT", "600", "Requests per minute one client address may make under /api/, counted before authentication (requests with bad or missing keys included).", false,
			func(c *Config, v string) error { return positiveInt(v, &c.IPRateLimit) },
		},
		{
			"GEOSCAN_TRUSTED_PROXIES", "", "Addresses or CIDR ranges of reverse proxies, separated by commas, whose X-Forwarded-For names the client. Unset: X-Forwarded-For is ignored and the TCP peer is the client.", false,
			func(c *Config, v string) error { return prefixList(v, &c.TrustedProxies) },
		},
		{
			"GEOSCAN_DISABLE_RATE_LIMITS", "false", "Turn off both rate-limit layers. Refused unless GEOSCAN_ENV is dev or test.", false,
			func(c *Config, v string) error { b, err := strconv.ParseBool(v); c.DisableRateLimits = b; return err },
		},
		{
			"GEOSCAN_CRAWL_UNTHROTTLED", "false", "Crawl whole-site audits as fast as the site answers: no request rate and no robots.txt Crawl-delay (robots.txt rules, Retry-After and the requests in flight still apply). For benchmarks against the fixture sites; refused unless GEOSCAN_ENV is dev or test.", false,
			func(c *Config, v string) error { b, err := strconv.ParseBool(v); c.CrawlUnthrottled = b; return err },
		},
		{
			"GEOSCAN_RENDER_RATE_LIMIT", "30", "PDF reports one organization may have rendered per minute (the api_render group): a PDF download not served from the cache counts against it as well as against api_read.", false,
			func(c *Config, v string) error { return positiveInt(v, &c.RenderRateLimit) },
		},
		{
			"GEOSCAN_PDF_CACHE_MB", "64", "Memory (MiB) one API process keeps rendered PDF reports in, least recently used dropped first; a report renders once and is then served from memory until its scan's report or dossier changes. 0 turns the cache off.", false,
			func(c *Config, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 || n > 1<<20 {
					return fmt.Errorf("must be a whole number of MiB from 0 to 1048576, not %q", v)
				}
				c.PDFCacheMB = n
				return nil
			},
		},
		{
			"GEOSCAN_PDF_CJK_FONT", "", "TrueType font (.ttf, or a .ttc whose first font is taken) PDF reports draw Chinese, Japanese and Korean text in; unset: /usr/share/fonts/truetype/wqy/wqy-microhei.ttc (apt-get install fonts-wqy-microhei). Without it such text is marked □ and the PDF says the font is not installed.", false,
			func(c *Config, v string) error { c.PDFCJKFont = v; return nil },
		},
		{
			"GEOSCAN_SHARE_MAX_DAYS", "365", "The longest, in days, a share link of a report (POST /api/v1/scans/{scan_id}/shares, and the links in scheduled-scan emails) may work before it expires; a longer expiry asked for is refused.", false,
			func(c *Config, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 3650 {
					return fmt.Errorf("must be a whole number of days from 1 to 3650, not %q", v)
				}
				c.ShareMaxDays = n
				return nil
			},
		},
		{
			"GEOSCAN_CRAWLER_LOG_MAX_MB", "1024", "The largest access log, in MiB as uploaded (compressed when gzip), POST /api/v1/crawler-logs accepts; a larger one is refused with 413. The upload is kept in PostgreSQL until it is analysed.", false,
			func(c *Config, v string) error {
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 || n > 1<<20 {
					return fmt.Errorf("must be a whole number of MiB from 1 to 1048576, not %q", v)
				}
				c.CrawlerLogMaxMB = n
				return nil
			},
		},
		{
			"GEOSCAN_CRAWLER_LOG_UPLOAD_TIMEOUT", "30m", "How long one upload of an access log may take, from its first byte to its last (the other requests' GEOSCAN_REQUEST_TIMEOUT does not apply to it).", false,
			func(c *Config, v string) error { return positiveDuration(v, &c.CrawlerLogUploadTimeout) },
		},
		{
			"GEOSCAN_SCHEDULER_INTERVAL", "1m", "How often the elected worker process creates the scans of due schedules (a River periodic job; any number of processes create each due scan once).", false,
			func(c *Config, v string) error { return positiveDuration(v, &c.SchedulerInterval) },
		},
		{
			"GEOSCAN_LLM_BASE_URL", "", "Base URL of the default answer engine, any OpenAI-compatible API (https://api.openai.com/v1, https://api.perplexity.ai, http://127.0.0.1:11434/v1 for Ollama …). It writes the summaries, judges accuracy and is asked the AI mention prompts. Unset (and no engines file): the four llm_* checks are na and summaries are templates.", false,
			func(c *Config, v string) error { c.LLM.BaseURL = v; return nil },
		},
		{
			"GEOSCAN_LLM_API_KEY", "", "API key of the default answer engine (sent as a bearer token; never logged or stored). Empty for endpoints without keys.", true,
			func(c *Config, v string) error { c.LLM.APIKey = v; return nil },
		},
		{
			"GEOSCAN_LLM_MODEL", "", "Model of the default answer engine; required with GEOSCAN_LLM_BASE_URL.", false,
			func(c *Config, v string) error { c.LLM.Model = v; return nil },
		},
		{
			"GEOSCAN_LLM_ENGINES_FILE", "", "JSON file of further answer engines asked the mention prompts, one object per engine under `engines` with `name`, `base_url`, `model`, `api_key_env` (the variable that holds its key), `capabilities` (`chat`, `web_search`) and `web_search_api` (`responses`, or `chat` for engines such as Perplexity that search inside a chat completion). The first is the default engine when GEOSCAN_LLM_BASE_URL is unset. See docs/AI.md.", false,
			func(c *Config, v string) error { c.LLM.EnginesFile = v; return nil },
		},
		{
			"GEOSCAN_LLM_RUNS", "4", "How often each AI mention prompt is asked per engine (1–20); rates are reported with their 95 % interval.", false,
			func(c *Config, v string) error {
				if err := positiveInt(v, &c.LLM.Runs); err != nil || c.LLM.Runs > 20 {
					return fmt.Errorf("must be an integer from 1 to 20, not %q", v)
				}
				return nil
			},
		},
		{
			"GEOSCAN_LLM_CALL_TIMEOUT", "30s", "Longest time one answer engine call may take; a call over it leaves its check error, never the scan failed.", false,
			func(c *Config, v string) error { return positiveDuration(v, &c.LLM.CallTimeout) },
		},
		{
			"GEOSCAN_LLM_MAX_CALLS", "80", "Most answer engine calls one scan makes (cached answers are free); calls beyond it are not made and their runs are reported not checked.", false,
			func(c *Config, v string) error { return positiveInt(v, &c.LLM.MaxCalls) },
		},
		{
			"GEOSCAN_LLM_MAX_TOKENS", "100000", "Most tokens (prompt and answer) the answer engine calls of one scan may use.", false,
			func(c *Config, v string) error { return positiveInt(v, &c.LLM.MaxTokens) },
		},
		{
			"GEOSCAN_LLM_CONCURRENCY", "16", "Answer engine calls of one scan in flight at once.", false,
			func(c *Config, v string) error { return positiveInt(v, &c.LLM.Concurrency) },
		},
		{
			"GEOSCAN_SMTP_URL", "", "SMTP relay for the emails of scheduled scans: smtp://user:password@host:587 (STARTTLS, required when credentials are given) or smtps://user:password@host:465 (TLS); percent-encode special characters. Unset: emails are kept in the outbox table and logged (geoscan outbox list); geoscan outbox send sends them once it is set.", true,
			func(c *Config, v string) error { c.SMTPURL = v; return checkSMTPURL(v) },
		},
		{
			"GEOSCAN_MAIL_FROM", "", "From address of GeoScan's emails, bare or with a name (GeoScan <reports@example.com>). Defaults to GeoScan <noreply@HOST>, HOST from GEOSCAN_PUBLIC_URL.", false,
			func(c *Config, v string) error {
				if v == "" {
					return nil
				}
				a, err := mail.ParseAddress(v)
				if err != nil {
					return fmt.Errorf("must be an email address, not %q", v)
				}
				c.MailFrom = a.String()
				return nil
			},
		},
		{
			"GEOSCAN_MAIL_RETRY_DELAYS", "1m,5m,30m,2h,6h", "Waits before each retry of an email the SMTP relay refused for now or could not be reached for; the first attempt is immediate.", false,
			func(c *Config, v string) error { return durationList(v, &c.MailRetryDelays) },
		},
		{
			"GEOSCAN_SNAPSHOT_RETENTION", "90d", "How long the pages a scan fetched are kept (days as 90d, or a duration); older ones are deleted by the retention job. Reports and triage dossiers stay; a dossier recomputed later fetches the site again.", false,
			func(c *Config, v string) error { return days(v, &c.SnapshotRetention) },
		},
		{
			"GEOSCAN_DATA_DIR", ".data", "Where `geoscan dev` keeps its private PostgreSQL cluster and development key.", false,
			func(c *Config, v string) error { c.DataDir = v; return nil },
		},
	}
}

func positiveInt(v string, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return fmt.Errorf("must be a positive integer, not %q", v)
	}
	*dst = n
	return nil
}

func positiveDuration(v string, dst *time.Duration) error {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("must be a positive duration such as 15s, not %q", v)
	}
	*dst = d
	return nil
}

// days reads a positive number of days ("90d") or a Go duration ("36h").
func days(v string, dst *time.Duration) error {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		d, err := strconv.Atoi(n)
		if err != nil || d <= 0 || d > 100*365 {
			return fmt.Errorf("must be a positive number of days such as 90d, or a duration such as 36h, not %q", v)
		}
		*dst = time.Duration(d) * 24 * time.Hour
		return nil
	}
	if err := positiveDuration(v, dst); err != nil {
		return fmt.Errorf("must be a positive number of days such as 90d, or a duration such as 36h, not %q", v)
	}
	return nil
}

// durationList reads comma-separated positive durations ("5s,25s,125s").
func durationList(v string, dst *[]time.Duration) error {
	var out []time.Duration
	for _, part := range strings.Split(v, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d <= 0 {
			return fmt.Errorf("must be positive durations separated by commas, such as 5s,25s,125s, not %q", v)
		}
		out = append(out, d)
	}
	if len(out) > 20 {
		return fmt.Errorf("must list at most 20 delays, not %d", len(out))
	}
	*dst = out
	return nil
}

// prefixList reads comma-separated addresses and CIDR ranges; an address
// alone is its own single-address range.
func prefixList(v string, dst *[]netip.Prefix) error {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var out []netip.Prefix
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if p, err := netip.ParsePrefix(part); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(part)
		if err != nil {
			return fmt.Errorf("must be addresses or CIDR ranges separated by commas, not %q", part)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	*dst = out
	return nil
}

// checkSMTPURL accepts an empty value or smtp(s)://[user[:password]@]host[:port].
func checkSMTPURL(v string) error {
	if v == "" {
		return nil
	}
	// The value carries a password: errors never repeat it.
	u, err := url.Parse(v)
	if err != nil {
		return errors.New("must be a URL such as smtp://user:password@mail.example.com:587")
	}
	if u.Scheme != "smtp" && u.Scheme != "smtps" {
		return errors.New("must start with smtp:// or smtps://")
	}
	if u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("must be smtp(s)://[user:password@]host[:port] with nothing after the port")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return errors.New("has an invalid port")
		}
	}
	return nil
}

// defaultMailFrom is GeoScan <noreply@HOST> with the public URL's host, or
// localhost when that is an address rather than a name.
func defaultMailFrom(publicURL string) string {
	host := "localhost"
	if u, err := url.Parse(publicURL); err == nil {
		if h := u.Hostname(); h != "" && net.ParseIP(h) == nil && strings.Contains(h, ".") {
			host = h
		}
	}
	return (&mail.Address{Name: "GeoScan", Address: "noreply@" + host}).String()
}

// Load reads the configuration through getenv (os.Getenv in production, a
// map in tests) and validates it.
func Load(getenv func(string) string) (Config, error) {
	var c Config
	var errs []error
	for _, v := range variables() {
		val := getenv(v.name)
		if val == "" {
			val = v.def
		}
		if err := v.setFunc(&c, val); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", v.name, err))
		}
	}
	if c.AllowPrivateTargets && c.Env != EnvDev && c.Env != EnvTest {
		errs = append(errs, fmt.Errorf("GEOSCAN_ALLOW_PRIVATE_TARGETS=true is refused in %s mode: it lets scans and callbacks reach private and loopback addresses; set GEOSCAN_ENV=dev or test to use it", c.Env))
	}
	if c.DisableRateLimits && c.Env != EnvDev && c.Env != EnvTest {
		errs = append(errs, fmt.Errorf("GEOSCAN_DISABLE_RATE_LIMITS=true is refused in %s mode: it removes the brute-force and abuse protection of the API; set GEOSCAN_ENV=dev or test to use it", c.Env))
	}
	if c.CrawlUnthrottled && c.Env != EnvDev && c.Env != EnvTest {
		errs = append(errs, fmt.Errorf("GEOSCAN_CRAWL_UNTHROTTLED=true is refused in %s mode: real sites are crawled at a polite rate; set GEOSCAN_ENV=dev or test to use it", c.Env))
	}
	if c.Env != EnvDev && c.Env != EnvTest {
		if len(c.Resolve) > 0 {
			errs = append(errs, fmt.Errorf("GEOSCAN_RESOLVE is refused in %s mode: it would let names point scans anywhere; set GEOSCAN_ENV=dev or test to use it", c.Env))
		}
		if c.PlainHTTPPort != 80 {
			errs = append(errs, fmt.Errorf("GEOSCAN_PLAIN_HTTP_PORT is refused in %s mode: the http:// probe uses port 80", c.Env))
		}
	}
	if c.ScanOrgShare == 0 {
		c.ScanOrgShare = max(1, c.ScanWorkers/2)
	}
	if c.PublicURL == "" {
		c.PublicURL = "http://" + c.HTTPAddr
	}
	if c.MailFrom == "" {
		c.MailFrom = defaultMailFrom(c.PublicURL)
	}
	return c, errors.Join(errs...)
}

// WriteHelp prints every variable with its default and description.
func WriteHelp(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIABLE\tDEFAULT\tDESCRIPTION")
	for _, v := range variables() {
		def := v.def
		if def == "" {
			def = "(unset)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.name, def, v.help)
	}
	return tw.Flush()
}

// WriteMarkdown prints the same table as Markdown, for docs/OPERATIONS.md.
func WriteMarkdown(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "| Variable | Default | Description |\n|---|---|---|"); err != nil {
		return err
	}
	for _, v := range variables() {
		def := "`" + v.def + "`"
		if v.def == "" {
			def = "(unset)"
		}
		if _, err := fmt.Fprintf(w, "| `%s` | %s | %s |\n", v.name, def, v.help); err != nil {
			return err
		}
	}
	return nil
}

// Redacted lists the resolved values for logging, secrets masked.
func (c Config) Redacted() map[string]string {
	out := map[string]string{}
	for _, v := range variables() {
		if v.secret {
			continue
		}
		out[v.name] = ""
	}
	out["GEOSCAN_ENV"] = string(c.Env)
	out["GEOSCAN_HTTP_ADDR"] = c.HTTPAddr
	out["GEOSCAN_PUBLIC_URL"] = c.PublicURL
	out["GEOSCAN_ALLOW_PRIVATE_TARGETS"] = strconv.FormatBool(c.AllowPrivateTargets)
	out["GEOSCAN_EXTRA_CA_FILE"] = c.ExtraCAFile
	out["GEOSCAN_LOG_LEVEL"] = c.LogLevel
	out["GEOSCAN_LOG_FORMAT"] = c.LogFormat
	out["GEOSCAN_DB_MAX_CONNS"] = strconv.Itoa(c.DBMaxConns)
	out["GEOSCAN_SCAN_MEMORY"] = strconv.Itoa(c.ScanMemoryMiB)
	out["GEOSCAN_SCAN_ORG_SHARE"] = strconv.Itoa(c.ScanOrgShare)
	out["GEOSCAN_RENDER"] = string(c.Render.Mode)
	out["GEOSCAN_CHROMIUM"] = c.Render.Chromium
	out["GEOSCAN_RENDER_TABS"] = strconv.Itoa(c.Render.Tabs)
	out["GEOSCAN_RENDER_TIMEOUT"] = c.Render.PageTimeout.String()
	out["GEOSCAN_SHUTDOWN_TIMEOUT"] = c.ShutdownTimeout.String()
	out["GEOSCAN_REQUEST_TIMEOUT"] = c.RequestTimeout.String()
	out["GEOSCAN_DATA_DIR"] = c.DataDir
	delays := make([]string, len(c.WebhookRetryDelays))
	for i, d := range c.WebhookRetryDelays {
		delays[i] = d.String()
	}
	out["GEOSCAN_WEBHOOK_RETRY_DELAYS"] = strings.Join(delays, ",")
	out["GEOSCAN_WEBHOOK_WORKERS"] = strconv.Itoa(c.WebhookWorkers)
	out["GEOSCAN_IP_RATE_LIMIT"] = strconv.Itoa(c.IPRateLimit)
	proxies := make([]string, len(c.TrustedProxies))
	for i, p := range c.TrustedProxies {
		proxies[i] = p.String()
	}
	out["GEOSCAN_TRUSTED_PROXIES"] = strings.Join(proxies, ",")
	out["GEOSCAN_DISABLE_RATE_LIMITS"] = strconv.FormatBool(c.DisableRateLimits)
	out["GEOSCAN_CRAWL_UNTHROTTLED"] = strconv.FormatBool(c.CrawlUnthrottled)
	out["GEOSCAN_RENDER_RATE_LIMIT"] = strconv.Itoa(c.RenderRateLimit)
	out["GEOSCAN_PDF_CACHE_MB"] = strconv.Itoa(c.PDFCacheMB)
	out["GEOSCAN_PDF_CJK_FONT"] = c.PDFCJKFont
	out["GEOSCAN_SHARE_MAX_DAYS"] = strconv.Itoa(c.ShareMaxDays)
	out["GEOSCAN_CRAWLER_LOG_MAX_MB"] = strconv.Itoa(c.CrawlerLogMaxMB)
	out["GEOSCAN_CRAWLER_LOG_UPLOAD_TIMEOUT"] = c.CrawlerLogUploadTimeout.String()
	out["GEOSCAN_LLM_BASE_URL"] = c.LLM.BaseURL
	out["GEOSCAN_LLM_MODEL"] = c.LLM.Model
	out["GEOSCAN_LLM_ENGINES_FILE"] = c.LLM.EnginesFile
	out["GEOSCAN_LLM_RUNS"] = strconv.Itoa(c.LLM.Runs)
	out["GEOSCAN_LLM_CALL_TIMEOUT"] = c.LLM.CallTimeout.String()
	out["GEOSCAN_LLM_MAX_CALLS"] = strconv.Itoa(c.LLM.MaxCalls)
	out["GEOSCAN_LLM_MAX_TOKENS"] = strconv.Itoa(c.LLM.MaxTokens)
	out["GEOSCAN_LLM_CONCURRENCY"] = strconv.Itoa(c.LLM.Concurrency)
	if c.LLM.APIKey != "" {
		out["GEOSCAN_LLM_API_KEY"] = "(set)"
	}
	out["GEOSCAN_SCHEDULER_INTERVAL"] = c.SchedulerInterval.String()
	out["GEOSCAN_SNAPSHOT_RETENTION"] = c.SnapshotRetention.String()
	out["GEOSCAN_MAIL_FROM"] = c.MailFrom
	mailDelays := make([]string, len(c.MailRetryDelays))
	for i, d := range c.MailRetryDelays {
		mailDelays[i] = d.String()
	}
	out["GEOSCAN_MAIL_RETRY_DELAYS"] = strings.Join(mailDelays, ",")
	if u, err := url.Parse(c.SMTPURL); err == nil && c.SMTPURL != "" {
		// Scheme and host only: the user and password stay out of logs.
		out["GEOSCAN_SMTP_URL"] = u.Scheme + "://" + u.Host
	}
	if c.RedisURL != "" {
		out["GEOSCAN_REDIS_URL"] = "(set)"
	}
	if c.DatabaseURL != "" {
		out["DATABASE_URL"] = "(set)"
	}
	return out
}
