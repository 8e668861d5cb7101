package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geoscan/geoscan/gen/client"
)

// Enumerations the tools' inputs accept, as the contract has them.
var (
	audiences     = []any{"marketing", "engineering"}
	languages     = []any{"de", "en", "es", "fr"}
	scanStatuses  = []any{"pending", "running", "completed", "failed"}
	checkStatuses = []any{"pass", "warn", "fail", "na", "info", "error"}
	rings         = []any{"search", "visibility", "trust"}
	pageStatuses  = []any{"audited", "redirect", "not_html", "error"}
	pageSorts     = []any{"position", "-score"}
	listLimit     = [2]float64{1, 100}
)

// topIssues is how many issues get_scan lists.
const topIssues = 5

func (t *tools) register(s *mcp.Server) error {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	return errors.Join(
		addTool(s, &mcp.Tool{
			Name:  "create_scan",
			Title: "Create a scan",
			Description: "Audit a website for AI-engine readiness. The scan runs in the background; with wait=true the tool " +
				"waits (at most wait_seconds, bounded by the server) and returns the report summary when the scan completes, " +
				"otherwise the scan's status: call get_scan later. Each scan uses the organization's daily quota.",
			Annotations: &mcp.ToolAnnotations{OpenWorldHint: ptr(true)},
		}, map[string][]any{"audience": audiences, "language": languages}, map[string][2]float64{"max_pages": {1, 500}, "wait_seconds": {1, 3600}}, t.createScan),
		addTool(s, &mcp.Tool{
			Name:        "get_scan",
			Title:       "Get a scan's summary",
			Description: "A scan's status and, once completed, its report summary: overall and ring scores and grades, gates that capped a ring, check counts, the executive summary and the top issues to fix.",
			Annotations: readOnly,
		}, map[string][]any{"audience": audiences}, nil, t.getScan),
		addTool(s, &mcp.Tool{
			Name:        "get_checks",
			Title:       "List a scan's checks",
			Description: "The checks of a completed scan with their verdicts, scores, impact, expected gain and recommendation, optionally filtered by ring or status.",
			Annotations: readOnly,
		}, map[string][]any{"audience": audiences, "ring": rings, "status": checkStatuses}, nil, t.getChecks),
		addTool(s, &mcp.Tool{
			Name:        "get_fixes",
			Title:       "Get a scan's fixes",
			Description: "The fixes written for a completed scan's warned and failed checks, largest expected gain first: what to change, the artifact to publish (robots.txt patch, llms.txt, JSON-LD, head tags), platform steps and how to verify.",
			Annotations: readOnly,
		}, map[string][]any{"audience": audiences}, nil, t.getFixes),
		addTool(s, &mcp.Tool{
			Name:        "get_triage",
			Title:       "Get a scan's triage dossier",
			Description: "The triage dossier of a completed scan: the platform the site runs on, risk lenses, strengths, and the priority actions with quick wins.",
			Annotations: readOnly,
		}, map[string][]any{"audience": audiences}, nil, t.getTriage),
		addTool(s, &mcp.Tool{
			Name:        "get_pages",
			Title:       "List the pages of a whole-site audit",
			Description: "The pages of a whole-site audit (a scan with max_pages above 1), a page of results at a time: pass next_cursor as cursor for the next.",
			Annotations: readOnly,
		}, map[string][]any{"status": pageStatuses, "sort": pageSorts}, map[string][2]float64{"limit": listLimit}, t.getPages),
		addTool(s, &mcp.Tool{
			Name:        "compare_scans",
			Title:       "Compare two scans",
			Description: "How a site changed between two completed scans: overall and ring score deltas, counts of improved and regressed checks, and each check that changed.",
			Annotations: readOnly,
		}, nil, nil, t.compareScans),
		addTool(s, &mcp.Tool{
			Name:        "list_scans",
			Title:       "List scans",
			Description: "The organization's scans, newest first, a page at a time, optionally filtered by status, project, URL or domain.",
			Annotations: readOnly,
		}, map[string][]any{"status": scanStatuses}, map[string][2]float64{"limit": listLimit}, t.listScans),
		addTool(s, &mcp.Tool{
			Name:        "list_schedules",
			Title:       "List schedules",
			Description: "The organization's periodic scans: URL, frequency, whether active, the next and last runs and the last scan's id.",
			Annotations: readOnly,
		}, nil, map[string][2]float64{"limit": listLimit}, t.listSchedules),
		addTool(s, &mcp.Tool{
			Name:  "upload_crawler_log",
			Title: "Upload an access log",
			Description: fmt.Sprintf("Upload a site's web-server access log to learn which AI crawlers really visit it: whether they are "+
				"who their user agent claims, what they request and what the server answers them. Give the log's text (Combined or "+
				"Common Log Format, W3C, or the JSON lines of Cloudflare, CloudFront, Fastly or Vercel exports) and the site's "+
				"domain, or a schedule_id. The log travels inside this call, so it is bounded: at most %s. For a larger log, or a "+
				"gzip file, use the command line: geoscan logs upload FILE --domain HOST. The log is analysed in the background: "+
				"call get_crawler_log with the returned log_id.", sizeText(t.maxLogBytes)),
			// It adds a log and changes nothing else, on GeoScan alone.
			Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
			// The bound is the handler's, not the schema's maxLength: a
			// schema error would quote the whole log back.
		}, nil, nil, t.uploadCrawlerLog),
		addTool(s, &mcp.Tool{
			Name:  "get_crawler_log",
			Title: "Get an access log's analysis",
			Description: "An uploaded access log's status and, once analysed, each AI crawler's hits, verified or only claimed, " +
				"the status codes it got, and the cross-check with the site's latest audit (pages robots.txt allows that the " +
				"server refused, audited pages no AI search crawler requested); include_days and include_pages add the hits " +
				"per day and the pages each crawler requested most.",
			Annotations: readOnly,
		}, nil, nil, t.getCrawlerLog),
		addTool(s, &mcp.Tool{
			Name:        "list_crawler_logs",
			Title:       "List access logs",
			Description: "The organization's uploaded access logs, newest first, a page at a time, optionally for one domain.",
			Annotations: readOnly,
		}, nil, map[string][2]float64{"limit": listLimit}, t.listCrawlerLogs),
	)
}

// Inputs.

// CreateScanInput are create_scan's arguments.
type CreateScanInput struct {
	URL         string   `json:"url" jsonschema:"the site to audit: a public HTTPS URL"`
	BrandName   string   `json:"brand_name,omitempty" jsonschema:"the brand looked for in AI answers; defaults to the site's domain"`
	Language    string   `json:"language,omitempty" jsonschema:"the language the report is written in; defaults to the site's own"`
	MaxPages    int      `json:"max_pages,omitempty" jsonschema:"page budget: 1 (the default) audits the homepage, more crawls the site (the plan caps it)"`
	Competitors []string `json:"competitors,omitempty" jsonschema:"competitors' sites (public HTTPS URLs) audited beside it and scored in the same AI answers (share of voice); the plan caps how many"`
	Audience    string   `json:"audience,omitempty" jsonschema:"who the summary is written for when wait returns it: marketing (the default) or engineering"`
	Wait        bool     `json:"wait,omitempty" jsonschema:"wait until the scan is finished and return its summary"`
	WaitSeconds int      `json:"wait_seconds,omitempty" jsonschema:"how long to wait at most; the server bounds it"`
}

// ScanInput names a scan.
type ScanInput struct {
	ScanID   string `json:"scan_id" jsonschema:"the scan's id (a UUID)"`
	Audience string `json:"audience,omitempty" jsonschema:"who the texts are written for: marketing (the default) or engineering"`
}

// ChecksInput are get_checks' arguments.
type ChecksInput struct {
	ScanID          string `json:"scan_id" jsonschema:"the scan's id (a UUID)"`
	Audience        string `json:"audience,omitempty" jsonschema:"who the texts are written for: marketing (the default) or engineering"`
	Ring            string `json:"ring,omitempty" jsonschema:"only the checks of this ring"`
	Status          string `json:"status,omitempty" jsonschema:"only the checks with this verdict"`
	IncludeEvidence bool   `json:"include_evidence,omitempty" jsonschema:"add each check's evidence (URLs, headers, extracted values)"`
}

// PagesInput are get_pages' arguments.
type PagesInput struct {
	ScanID string `json:"scan_id" jsonschema:"the scan's id (a UUID)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"pages per answer, 1 to 100"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer"`
	Status string `json:"status,omitempty" jsonschema:"only the pages with this status"`
	Check  string `json:"check,omitempty" jsonschema:"only the pages that warn or fail this check id"`
	Sort   string `json:"sort,omitempty" jsonschema:"position (crawl order, the default) or -score (worst first)"`
}

// CompareInput are compare_scans' arguments.
type CompareInput struct {
	BaseScanID   string `json:"base_scan_id" jsonschema:"the earlier scan's id (a UUID)"`
	TargetScanID string `json:"target_scan_id" jsonschema:"the later scan's id (a UUID)"`
}

// ListScansInput are list_scans' arguments.
type ListScansInput struct {
	Limit   int    `json:"limit,omitempty" jsonschema:"scans per answer, 1 to 100"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer"`
	Status  string `json:"status,omitempty" jsonschema:"only scans with this status"`
	Project string `json:"project,omitempty" jsonschema:"only scans with this project label"`
	URL     string `json:"url,omitempty" jsonschema:"only scans of this URL"`
	Domain  string `json:"domain,omitempty" jsonschema:"only scans of this domain"`
}

// ListSchedulesInput are list_schedules' arguments.
type ListSchedulesInput struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"schedules per answer, 1 to 100"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer"`
	Active *bool  `json:"active,omitempty" jsonschema:"only active (true) or paused (false) schedules"`
}

// UploadLogInput are upload_crawler_log's arguments.
type UploadLogInput struct {
	Domain     string `json:"domain,omitempty" jsonschema:"the site's host name the log is of, such as www.example.com"`
	ScheduleID string `json:"schedule_id,omitempty" jsonschema:"file the log under this schedule's site instead of naming its domain (a UUID)"`
	Log        string `json:"log" jsonschema:"the access log's text, one request per line"`
}

// LogInput are get_crawler_log's arguments.
type LogInput struct {
	LogID        string `json:"log_id" jsonschema:"the log's id (a UUID)"`
	IncludeDays  bool   `json:"include_days,omitempty" jsonschema:"add each crawler's hits per day"`
	IncludePages bool   `json:"include_pages,omitempty" jsonschema:"add the pages each crawler requested most"`
}

// ListLogsInput are list_crawler_logs' arguments.
type ListLogsInput struct {
	Domain string `json:"domain,omitempty" jsonschema:"only logs of this host name"`
	Limit  int    `json:"limit,omitempty" jsonschema:"logs per answer, 1 to 100"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous answer"`
}

// Outputs.

// Scan is a scan's state and scores.
type Scan struct {
	ID              string    `json:"id"`
	URL             string    `json:"url"`
	Status          string    `json:"status" jsonschema:"pending, running, completed or failed"`
	CreatedAt       time.Time `json:"created_at"`
	CompletedAt     string    `json:"completed_at,omitempty"`
	MaxPages        int       `json:"max_pages"`
	PagesDone       *int      `json:"pages_done,omitempty"`
	PagesPlanned    *int      `json:"pages_planned,omitempty"`
	Project         string    `json:"project,omitempty"`
	OverallScore    *float64  `json:"overall_score,omitempty"`
	OverallGrade    string    `json:"overall_grade,omitempty"`
	SearchScore     *int      `json:"search_score,omitempty"`
	VisibilityScore *int      `json:"visibility_score,omitempty"`
	TrustScore      *int      `json:"trust_score,omitempty"`
	ErrorCode       string    `json:"error_code,omitempty"`
	ErrorMessage    string    `json:"error_message,omitempty"`
	Competitors     []string  `json:"competitors,omitempty"`
}

// ScanSummary is get_scan's (and a waiting create_scan's) answer.
type ScanSummary struct {
	Scan Scan `json:"scan"`
	// Report is present once the scan completed.
	Report *ReportSummary `json:"report,omitempty"`
	// Waited says why a waiting create_scan returned before the scan ended.
	Waited string `json:"waited,omitempty"`
}

// ReportSummary is the essence of a scan's report.
type ReportSummary struct {
	Audience         string         `json:"audience"`
	OverallScore     float64        `json:"overall_score"`
	OverallGrade     string         `json:"overall_grade"`
	GradeDescriptor  string         `json:"grade_descriptor"`
	Rings            []Ring         `json:"rings"`
	GatesFired       []Gate         `json:"gates_fired"`
	Counts           map[string]int `json:"counts"`
	ExecutiveSummary string         `json:"executive_summary"`
	TopIssues        []Issue        `json:"top_issues"`
	BestCombination  *Combination   `json:"best_combination,omitempty"`
	Caveats          []string       `json:"caveats,omitempty"`
	ScoringVersion   string         `json:"scoring_version"`
}

// Ring is one ring's score.
type Ring struct {
	Ring            string `json:"ring"`
	Score           int    `json:"score"`
	Grade           string `json:"grade"`
	GradeDescriptor string `json:"grade_descriptor"`
	CappedBy        string `json:"capped_by,omitempty"`
}

// Gate is a gate that capped a ring.
type Gate struct {
	ID      string `json:"id"`
	CheckID string `json:"check_id"`
	Ring    string `json:"ring"`
	Cap     int    `json:"cap"`
	Message string `json:"message"`
}

// Issue is a warned or failed check, as get_scan lists it.
type Issue struct {
	CheckID        string   `json:"check_id"`
	Title          string   `json:"title"`
	Status         string   `json:"status"`
	Ring           string   `json:"ring"`
	Impact         string   `json:"impact"`
	Effort         string   `json:"effort"`
	ExpectedGain   *float64 `json:"expected_gain,omitempty"`
	Recommendation string   `json:"recommendation,omitempty"`
	HasFix         bool     `json:"has_fix"`
}

// Combination is the fixes that together add the most.
type Combination struct {
	CheckIDs     []string `json:"check_ids"`
	ExpectedGain float64  `json:"expected_gain"`
}

// Check is one check's result.
type Check struct {
	ID             string   `json:"id"`
	Title          string   `json:"title"`
	Ring           string   `json:"ring"`
	Pillar         string   `json:"pillar"`
	Status         string   `json:"status"`
	Score          *float64 `json:"score,omitempty"`
	Impact         string   `json:"impact"`
	Effort         string   `json:"effort"`
	ExpectedGain   *float64 `json:"expected_gain,omitempty"`
	Summary        string   `json:"summary"`
	Recommendation string   `json:"recommendation,omitempty"`
	HasFix         bool     `json:"has_fix"`
	Evidence       any      `json:"evidence,omitempty"`
}

// Checks is get_checks' answer.
type Checks struct {
	ScanID string  `json:"scan_id"`
	Checks []Check `json:"checks"`
}

// Fix is the fix of one check.
type Fix struct {
	CheckID      string   `json:"check_id"`
	Title        string   `json:"title"`
	Status       string   `json:"status"`
	ExpectedGain *float64 `json:"expected_gain,omitempty"`
	// Fix is the contract's CheckFix as the API sent it.
	Fix any `json:"fix"`
}

// Fixes is get_fixes' answer.
type Fixes struct {
	ScanID string `json:"scan_id"`
	Fixes  []Fix  `json:"fixes"`
}

// Triage is get_triage's answer.
type Triage struct {
	ScanID string `json:"scan_id"`
	// Dossier is the contract's TriageDossier as the API sent it.
	Dossier any `json:"dossier"`
}

// Page is one page of a whole-site audit.
type Page struct {
	ID         string   `json:"id"`
	URL        string   `json:"url"`
	Position   int      `json:"position"`
	Status     string   `json:"status"`
	HTTPStatus int      `json:"http_status"`
	Score      *float64 `json:"score,omitempty"`
	Type       string   `json:"type"`
	Group      string   `json:"group"`
	Error      string   `json:"error,omitempty"`
}

// Pages is get_pages' answer.
type Pages struct {
	ScanID     string `json:"scan_id"`
	Pages      []Page `json:"pages"`
	HasMore    bool   `json:"has_more"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// Delta is a score before and after.
type Delta struct {
	Base   *float64 `json:"base"`
	Target *float64 `json:"target"`
	Delta  *float64 `json:"delta"`
}

// CheckChange is a check whose verdict changed.
type CheckChange struct {
	CheckID      string   `json:"check_id"`
	Ring         string   `json:"ring"`
	Change       string   `json:"change" jsonschema:"improved, regressed, added or removed"`
	BaseStatus   string   `json:"base_status,omitempty"`
	TargetStatus string   `json:"target_status,omitempty"`
	Delta        *float64 `json:"delta,omitempty"`
}

// Comparison is compare_scans' answer.
type Comparison struct {
	BaseScanID           string           `json:"base_scan_id"`
	TargetScanID         string           `json:"target_scan_id"`
	SameURL              bool             `json:"same_url"`
	ScoringVersionsMatch bool             `json:"scoring_versions_match"`
	Overall              Delta            `json:"overall"`
	Rings                map[string]Delta `json:"rings"`
	Improved             int              `json:"improved"`
	Regressed            int              `json:"regressed"`
	Unchanged            int              `json:"unchanged"`
	Added                int              `json:"added"`
	Removed              int              `json:"removed"`
	Changes              []CheckChange    `json:"changes"`
}

// ScanList is list_scans' answer.
type ScanList struct {
	Scans      []Scan `json:"scans"`
	HasMore    bool   `json:"has_more"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// Schedule is a periodic scan.
type Schedule struct {
	ID         string `json:"id"`
	URL        string `json:"url"`
	Frequency  string `json:"frequency"`
	Active     bool   `json:"active"`
	NextRunAt  string `json:"next_run_at,omitempty"`
	LastRunAt  string `json:"last_run_at,omitempty"`
	LastScanID string `json:"last_scan_id,omitempty"`
}

// ScheduleList is list_schedules' answer.
type ScheduleList struct {
	Schedules  []Schedule `json:"schedules"`
	HasMore    bool       `json:"has_more"`
	NextCursor string     `json:"next_cursor,omitempty"`
}

// CrawlerLogEntry is an uploaded access log, as upload_crawler_log and
// list_crawler_logs show it.
type CrawlerLogEntry struct {
	ID           string    `json:"log_id"`
	Domain       string    `json:"domain"`
	ScheduleID   string    `json:"schedule_id,omitempty"`
	Status       string    `json:"status" jsonschema:"queued, running, succeeded or failed"`
	Bytes        int64     `json:"bytes"`
	Gzip         bool      `json:"gzip"`
	CreatedAt    time.Time `json:"created_at"`
	CompletedAt  string    `json:"completed_at,omitempty"`
	Lines        *int64    `json:"lines,omitempty"`
	Crawlers     *int      `json:"crawlers,omitempty" jsonschema:"how many AI or search crawlers the log names, once analysed"`
	ErrorCode    string    `json:"error_code,omitempty"`
	ErrorMessage string    `json:"error_message,omitempty"`
}

// CrawlerLog is get_crawler_log's answer.
type CrawlerLog struct {
	LogID  string `json:"log_id"`
	Status string `json:"status" jsonschema:"queued, running, succeeded or failed"`
	// Log is the contract's CrawlerLog as the API sent it.
	Log any `json:"log"`
}

// CrawlerLogList is list_crawler_logs' answer.
type CrawlerLogList struct {
	Logs       []CrawlerLogEntry `json:"logs"`
	HasMore    bool              `json:"has_more"`
	NextCursor string            `json:"next_cursor,omitempty"`
}

// Handlers.

func (t *tools) createScan(ctx context.Context, req *mcp.CallToolRequest, in CreateScanInput) (*mcp.CallToolResult, ScanSummary, error) {
	if strings.TrimSpace(in.URL) == "" {
		return nil, ScanSummary{}, &InputError{Param: "url", Message: "give the site's URL, such as https://www.example.com/"}
	}
	body := client.ScanCreateRequest{URL: strings.TrimSpace(in.URL)}
	if in.BrandName != "" {
		body.BrandName = &in.BrandName
	}
	if in.Language != "" {
		l := client.ScanCreateRequestLanguage(in.Language)
		body.Language = &l
	}
	if in.MaxPages != 0 {
		body.MaxPages = &in.MaxPages
	}
	if len(in.Competitors) > 0 {
		body.Competitors = &in.Competitors
	}
	resp, err := t.api.CreateScanWithResponse(ctx, nil, body)
	if err != nil {
		return nil, ScanSummary{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusCreated); err != nil {
		return nil, ScanSummary{}, err
	}
	scan := *resp.JSON201
	if !in.Wait {
		return result(ScanSummary{Scan: toScan(scan)}, "Scan %s of %s is %s. Call get_scan with this id for its summary once it has completed.", scan.ID, scan.URL, scan.Status)
	}

	wait := t.maxWait
	if in.WaitSeconds > 0 {
		wait = min(wait, time.Duration(in.WaitSeconds)*time.Second)
	}
	waitCtx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	progress := scanProgress(ctx, req)
	progress(scan)
	for !finished(scan.Status) {
		timer := time.NewTimer(t.pollInterval)
		select {
		case <-waitCtx.Done():
			timer.Stop()
			if ctx.Err() != nil {
				return nil, ScanSummary{}, ctx.Err()
			}
			return result(ScanSummary{Scan: toScan(scan), Waited: fmt.Sprintf("not finished after %s", wait)},
				"Scan %s of %s is still %s after waiting %s. Call get_scan with this id later.", scan.ID, scan.URL, scan.Status, wait)
		case <-timer.C:
		}
		got, err := t.api.GetScanWithResponse(ctx, scan.ID)
		if err != nil {
			return nil, ScanSummary{}, err
		}
		if err := expect(got.HTTPResponse, got.Body, http.StatusOK); err != nil {
			return nil, ScanSummary{}, err
		}
		scan = *got.JSON200
		progress(scan)
	}
	return t.summary(ctx, scan, in.Audience)
}

// scanProgress tells a client that asked for progress (a progress token
// in the call's _meta) how a waiting create_scan's scan is getting on: a
// notification whenever its status or its pages judged change, numbered
// so that the progress only grows, as the protocol requires. A client
// that asked for none gets none.
func scanProgress(ctx context.Context, req *mcp.CallToolRequest) func(client.Scan) {
	if req == nil || req.Session == nil || req.Params == nil || req.Params.GetProgressToken() == nil {
		return func(client.Scan) {}
	}
	token := req.Params.GetProgressToken()
	var step float64
	last := ""
	return func(s client.Scan) {
		msg := fmt.Sprintf("Scan %s of %s is %s.", s.ID, s.URL, s.Status)
		if p := s.Progress; p != nil {
			msg = fmt.Sprintf("Scan %s of %s is %s: %d of %d pages judged.", s.ID, s.URL, s.Status, p.PagesDone, p.PagesPlanned)
		}
		if msg == last {
			return
		}
		last, step = msg, step+1
		// A notification that cannot be sent changes nothing of the call.
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: step, Message: msg})
	}
}

func finished(s client.ScanStatus) bool {
	return s == client.ScanStatusCompleted || s == client.ScanStatusFailed
}

func (t *tools) getScan(ctx context.Context, _ *mcp.CallToolRequest, in ScanInput) (*mcp.CallToolResult, ScanSummary, error) {
	id, err := parseUUID("scan_id", in.ScanID)
	if err != nil {
		return nil, ScanSummary{}, err
	}
	resp, err := t.api.GetScanWithResponse(ctx, id)
	if err != nil {
		return nil, ScanSummary{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, ScanSummary{}, err
	}
	return t.summary(ctx, *resp.JSON200, in.Audience)
}

// summary answers with a scan and, when it completed, its report summary.
func (t *tools) summary(ctx context.Context, scan client.Scan, audience string) (*mcp.CallToolResult, ScanSummary, error) {
	out := ScanSummary{Scan: toScan(scan)}
	switch scan.Status {
	case client.ScanStatusCompleted:
	case client.ScanStatusFailed:
		return result(out, "Scan %s of %s failed: %s.", scan.ID, scan.URL, deref(scan.ErrorCode))
	default:
		return result(out, "Scan %s of %s is %s; its report comes when it has completed.", scan.ID, scan.URL, scan.Status)
	}
	var params client.GetScanReportParams
	if audience != "" {
		a := client.GetScanReportParamsAudience(audience)
		params.Audience = &a
	}
	resp, err := t.api.GetScanReportWithResponse(ctx, scan.ID, &params)
	if err != nil {
		return nil, ScanSummary{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, ScanSummary{}, err
	}
	rep := toReportSummary(*resp.JSON200)
	out.Report = &rep
	var text strings.Builder
	fmt.Fprintf(&text, "Scan %s of %s completed: overall %.1f (%s); ", scan.ID, scan.URL, rep.OverallScore, rep.OverallGrade)
	for i, r := range rep.Rings {
		if i > 0 {
			text.WriteString(", ")
		}
		fmt.Fprintf(&text, "%s %d (%s)", r.Ring, r.Score, r.Grade)
	}
	fmt.Fprintf(&text, ". %d failed and %d warned checks; %d top issues listed.", rep.Counts["fail"], rep.Counts["warn"], len(rep.TopIssues))
	return result(out, "%s", text.String())
}

func (t *tools) getChecks(ctx context.Context, _ *mcp.CallToolRequest, in ChecksInput) (*mcp.CallToolResult, Checks, error) {
	id, err := parseUUID("scan_id", in.ScanID)
	if err != nil {
		return nil, Checks{}, err
	}
	params := client.ListScanChecksParams{}
	if in.Audience != "" {
		a := client.ListScanChecksParamsAudience(in.Audience)
		params.Audience = &a
	}
	if in.Ring != "" {
		r := client.Ring(in.Ring)
		params.Ring = &r
	}
	if in.Status != "" {
		s := client.CheckStatus(in.Status)
		params.Status = &s
	}
	resp, err := t.api.ListScanChecksWithResponse(ctx, id, &params)
	if err != nil {
		return nil, Checks{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, Checks{}, err
	}
	out := Checks{ScanID: id.String(), Checks: []Check{}}
	counts := map[string]int{}
	for _, c := range resp.JSON200.Data {
		out.Checks = append(out.Checks, toCheck(c, in.IncludeEvidence))
		counts[string(c.Status)]++
	}
	return result(out, "%d checks of scan %s: %d pass, %d warn, %d fail, %d other.", len(out.Checks), id,
		counts["pass"], counts["warn"], counts["fail"], len(out.Checks)-counts["pass"]-counts["warn"]-counts["fail"])
}

func (t *tools) getFixes(ctx context.Context, _ *mcp.CallToolRequest, in ScanInput) (*mcp.CallToolResult, Fixes, error) {
	id, err := parseUUID("scan_id", in.ScanID)
	if err != nil {
		return nil, Fixes{}, err
	}
	params := client.ListScanChecksParams{}
	if in.Audience != "" {
		a := client.ListScanChecksParamsAudience(in.Audience)
		params.Audience = &a
	}
	resp, err := t.api.ListScanChecksWithResponse(ctx, id, &params)
	if err != nil {
		return nil, Fixes{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, Fixes{}, err
	}
	out := Fixes{ScanID: id.String(), Fixes: []Fix{}}
	for _, c := range resp.JSON200.Data {
		if c.Fix == nil {
			continue
		}
		out.Fixes = append(out.Fixes, Fix{CheckID: c.ID, Title: c.Title, Status: string(c.Status), ExpectedGain: c.ExpectedGain, Fix: c.Fix})
	}
	slices.SortStableFunc(out.Fixes, func(a, b Fix) int { return cmp.Compare(gain(b.ExpectedGain), gain(a.ExpectedGain)) })
	if len(out.Fixes) == 0 {
		return result(out, "Scan %s has no fixes: no warned or failed check has one.", id)
	}
	return result(out, "%d fixes for scan %s, largest expected gain first.", len(out.Fixes), id)
}

func (t *tools) getTriage(ctx context.Context, _ *mcp.CallToolRequest, in ScanInput) (*mcp.CallToolResult, Triage, error) {
	id, err := parseUUID("scan_id", in.ScanID)
	if err != nil {
		return nil, Triage{}, err
	}
	params := client.GetScanTriageParams{}
	if in.Audience != "" {
		a := client.GetScanTriageParamsAudience(in.Audience)
		params.Audience = &a
	}
	resp, err := t.api.GetScanTriageWithResponse(ctx, id, &params)
	if err != nil {
		return nil, Triage{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, Triage{}, err
	}
	d := resp.JSON200
	return result(Triage{ScanID: id.String(), Dossier: json.RawMessage(resp.Body)},
		"Triage dossier of scan %s: %d priority actions, %d quick wins, %d strengths.", id, len(d.PriorityActions), d.QuickWinCount, len(d.Strengths))
}

func (t *tools) getPages(ctx context.Context, _ *mcp.CallToolRequest, in PagesInput) (*mcp.CallToolResult, Pages, error) {
	id, err := parseUUID("scan_id", in.ScanID)
	if err != nil {
		return nil, Pages{}, err
	}
	params := client.ListScanPagesParams{}
	if in.Limit != 0 {
		params.Limit = &in.Limit
	}
	if in.Cursor != "" {
		params.Cursor = &in.Cursor
	}
	if in.Status != "" {
		s := client.PageStatus(in.Status)
		params.Status = &s
	}
	if in.Check != "" {
		params.Check = &in.Check
	}
	if in.Sort != "" {
		s := client.ListScanPagesParamsSort(in.Sort)
		params.Sort = &s
	}
	resp, err := t.api.ListScanPagesWithResponse(ctx, id, &params)
	if err != nil {
		return nil, Pages{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, Pages{}, err
	}
	list := resp.JSON200
	out := Pages{ScanID: id.String(), Pages: []Page{}, HasMore: list.HasMore, NextCursor: deref(list.NextCursor)}
	for _, p := range list.Data {
		out.Pages = append(out.Pages, Page{
			ID: p.ID.String(), URL: p.URL, Position: p.Position, Status: string(p.Status), HTTPStatus: p.HTTPStatus,
			Score: p.Score, Type: p.Type, Group: p.Group, Error: p.Error,
		})
	}
	more := ""
	if out.HasMore {
		more = " More: call again with cursor=next_cursor."
	}
	return result(out, "%d pages of scan %s.%s", len(out.Pages), id, more)
}

func (t *tools) compareScans(ctx context.Context, _ *mcp.CallToolRequest, in CompareInput) (*mcp.CallToolResult, Comparison, error) {
	base, err := parseUUID("base_scan_id", in.BaseScanID)
	if err != nil {
		return nil, Comparison{}, err
	}
	target, err := parseUUID("target_scan_id", in.TargetScanID)
	if err != nil {
		return nil, Comparison{}, err
	}
	resp, err := t.api.CompareScansWithResponse(ctx, &client.CompareScansParams{Base: base, Target: target})
	if err != nil {
		return nil, Comparison{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, Comparison{}, err
	}
	c := resp.JSON200
	out := Comparison{
		BaseScanID: c.Base.ID.String(), TargetScanID: c.Target.ID.String(),
		SameURL: c.SameURL, ScoringVersionsMatch: c.ScoringVersionsMatch,
		Overall: toDelta(c.Overall),
		Rings: map[string]Delta{
			"search": toDelta(c.Rings.Search), "visibility": toDelta(c.Rings.Visibility), "trust": toDelta(c.Rings.Trust),
		},
		Improved: c.Summary.Improved, Regressed: c.Summary.Regressed, Unchanged: c.Summary.Unchanged,
		Added: c.Summary.Added, Removed: c.Summary.Removed,
		Changes: []CheckChange{},
	}
	for _, d := range c.Checks {
		if d.Change == client.Unchanged {
			continue
		}
		ch := CheckChange{CheckID: d.CheckID, Ring: string(d.Ring), Change: string(d.Change), Delta: d.Delta}
		if d.BaseStatus != nil {
			ch.BaseStatus = string(*d.BaseStatus)
		}
		if d.TargetStatus != nil {
			ch.TargetStatus = string(*d.TargetStatus)
		}
		out.Changes = append(out.Changes, ch)
	}
	return result(out, "Scan %s against %s: overall %s; %d checks improved, %d regressed.",
		target, base, deltaText(out.Overall), out.Improved, out.Regressed)
}

func (t *tools) listScans(ctx context.Context, _ *mcp.CallToolRequest, in ListScansInput) (*mcp.CallToolResult, ScanList, error) {
	params := client.ListScansParams{}
	if in.Limit != 0 {
		params.Limit = &in.Limit
	}
	if in.Cursor != "" {
		params.Cursor = &in.Cursor
	}
	if in.Status != "" {
		s := client.ScanStatus(in.Status)
		params.Status = &s
	}
	if in.Project != "" {
		params.Project = &in.Project
	}
	if in.URL != "" {
		params.URL = &in.URL
	}
	if in.Domain != "" {
		params.Domain = &in.Domain
	}
	resp, err := t.api.ListScansWithResponse(ctx, &params)
	if err != nil {
		return nil, ScanList{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, ScanList{}, err
	}
	out := ScanList{Scans: []Scan{}, HasMore: resp.JSON200.HasMore, NextCursor: deref(resp.JSON200.NextCursor)}
	for _, s := range resp.JSON200.Data {
		out.Scans = append(out.Scans, toScan(s))
	}
	more := ""
	if out.HasMore {
		more = " More: call again with cursor=next_cursor."
	}
	return result(out, "%d scans, newest first.%s", len(out.Scans), more)
}

func (t *tools) listSchedules(ctx context.Context, _ *mcp.CallToolRequest, in ListSchedulesInput) (*mcp.CallToolResult, ScheduleList, error) {
	params := client.ListSchedulesParams{Active: in.Active}
	if in.Limit != 0 {
		params.Limit = &in.Limit
	}
	if in.Cursor != "" {
		params.Cursor = &in.Cursor
	}
	resp, err := t.api.ListSchedulesWithResponse(ctx, &params)
	if err != nil {
		return nil, ScheduleList{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, ScheduleList{}, err
	}
	out := ScheduleList{Schedules: []Schedule{}, HasMore: resp.JSON200.HasMore, NextCursor: deref(resp.JSON200.NextCursor)}
	for _, s := range resp.JSON200.Data {
		sc := Schedule{
			ID: s.ID.String(), URL: s.URL, Frequency: string(s.Frequency), Active: s.Active,
			NextRunAt: timeText(s.NextRunAt), LastRunAt: timeText(s.LastRunAt),
		}
		if s.LastScanID != nil {
			sc.LastScanID = s.LastScanID.String()
		}
		out.Schedules = append(out.Schedules, sc)
	}
	return result(out, "%d schedules.", len(out.Schedules))
}

func (t *tools) uploadCrawlerLog(ctx context.Context, _ *mcp.CallToolRequest, in UploadLogInput) (*mcp.CallToolResult, CrawlerLogEntry, error) {
	params := client.CreateCrawlerLogParams{}
	domain := strings.TrimSpace(in.Domain)
	switch {
	case domain != "" && in.ScheduleID != "":
		return nil, CrawlerLogEntry{}, &InputError{Param: "schedule_id", Message: "give domain or schedule_id, not both"}
	case domain != "":
		params.Domain = &domain
	case in.ScheduleID != "":
		id, err := parseUUID("schedule_id", in.ScheduleID)
		if err != nil {
			return nil, CrawlerLogEntry{}, err
		}
		params.ScheduleID = &id
	default:
		return nil, CrawlerLogEntry{}, &InputError{Param: "domain", Message: "name the site the log is of: domain (www.example.com) or schedule_id"}
	}
	if len(in.Log) > t.maxLogBytes {
		return nil, CrawlerLogEntry{}, &InputError{Param: "log", Message: fmt.Sprintf(
			"the log is %s; a log passed to this tool may be at most %s. Upload a larger one with the command line: geoscan logs upload FILE --domain HOST",
			sizeText(len(in.Log)), sizeText(t.maxLogBytes))}
	}
	if strings.TrimSpace(in.Log) == "" {
		return nil, CrawlerLogEntry{}, &InputError{Param: "log", Message: "the log is empty: give its text, one request per line"}
	}
	resp, err := t.api.CreateCrawlerLogWithBodyWithResponse(ctx, &params, "text/plain; charset=utf-8", strings.NewReader(in.Log))
	if err != nil {
		return nil, CrawlerLogEntry{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusAccepted); err != nil {
		return nil, CrawlerLogEntry{}, err
	}
	out := toLogEntry(*resp.JSON202)
	return result(out, "Access log %s of %s is %s. Call get_crawler_log with this log_id for its analysis; a log of this size takes seconds.", out.ID, out.Domain, out.Status)
}

func (t *tools) getCrawlerLog(ctx context.Context, _ *mcp.CallToolRequest, in LogInput) (*mcp.CallToolResult, CrawlerLog, error) {
	id, err := parseUUID("log_id", in.LogID)
	if err != nil {
		return nil, CrawlerLog{}, err
	}
	var include []client.GetCrawlerLogParamsInclude
	if in.IncludeDays {
		include = append(include, client.CrawlerLogIncludeDays)
	}
	if in.IncludePages {
		include = append(include, client.CrawlerLogIncludePages)
	}
	params := client.GetCrawlerLogParams{}
	if len(include) > 0 {
		params.Include = &include
	}
	resp, err := t.api.GetCrawlerLogWithResponse(ctx, id, &params)
	if err != nil {
		return nil, CrawlerLog{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, CrawlerLog{}, err
	}
	l := resp.JSON200
	out := CrawlerLog{LogID: id.String(), Status: string(l.Status), Log: json.RawMessage(resp.Body)}
	switch l.Status {
	case client.CrawlerLogSucceeded:
	case client.CrawlerLogFailed:
		code := ""
		if l.Error != nil {
			code = l.Error.Code
		}
		return result(out, "Access log %s of %s could not be analysed (%s).", id, l.Domain, code)
	default:
		return result(out, "Access log %s of %s is %s; call get_crawler_log again in a few seconds.", id, l.Domain, l.Status)
	}
	var text strings.Builder
	fmt.Fprintf(&text, "Access log %s of %s: %d lines, %d read; %d AI or search crawlers", id, l.Domain, deref64(l.Lines), deref64(l.ParsedLines), len(l.Bots))
	for i, b := range l.Bots {
		if i == topCrawlers {
			fmt.Fprintf(&text, "; %d more", len(l.Bots)-topCrawlers)
			break
		}
		sep := ", "
		if i == 0 {
			sep = ": "
		}
		// The token comes from GeoScan's own table of crawlers, not from the log.
		fmt.Fprintf(&text, "%s%s %d hits (%d verified, %d claim to be %s unverified)", sep, b.Token, b.Hits, b.VerifiedHits, b.UnverifiedHits, b.Token)
	}
	text.WriteString(".")
	if cc := l.CrossCheck; cc != nil && cc.Status == client.CrossCheckMeasured {
		fmt.Fprintf(&text, " Cross-check with the latest audit: %d pages refused although robots.txt allows them, %d audited pages no AI search crawler requested.",
			cc.RefusedButAllowed.Count, cc.NeverCrawled.Count)
	}
	return result(out, "%s", text.String())
}

// topCrawlers is how many crawlers get_crawler_log's text names.
const topCrawlers = 5

func (t *tools) listCrawlerLogs(ctx context.Context, _ *mcp.CallToolRequest, in ListLogsInput) (*mcp.CallToolResult, CrawlerLogList, error) {
	params := client.ListCrawlerLogsParams{}
	if in.Limit != 0 {
		params.Limit = &in.Limit
	}
	if in.Cursor != "" {
		params.Cursor = &in.Cursor
	}
	if d := strings.TrimSpace(in.Domain); d != "" {
		params.Domain = &d
	}
	resp, err := t.api.ListCrawlerLogsWithResponse(ctx, &params)
	if err != nil {
		return nil, CrawlerLogList{}, err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return nil, CrawlerLogList{}, err
	}
	out := CrawlerLogList{Logs: []CrawlerLogEntry{}, HasMore: resp.JSON200.HasMore, NextCursor: deref(resp.JSON200.NextCursor)}
	for _, l := range resp.JSON200.Data {
		out.Logs = append(out.Logs, toLogEntry(l))
	}
	more := ""
	if out.HasMore {
		more = " More: call again with cursor=next_cursor."
	}
	return result(out, "%d access logs, newest first.%s", len(out.Logs), more)
}

// Mappers.

func toScan(s client.Scan) Scan {
	out := Scan{
		ID: s.ID.String(), URL: s.URL, Status: string(s.Status), CreatedAt: s.CreatedAt.UTC(),
		CompletedAt: timeText(s.CompletedAt), MaxPages: s.MaxPages, Project: deref(s.Project),
		OverallScore: s.OverallScore, OverallGrade: deref(s.OverallGrade),
		SearchScore: s.SearchScore, VisibilityScore: s.VisibilityScore, TrustScore: s.TrustScore,
		ErrorCode: deref(s.ErrorCode), ErrorMessage: deref(s.ErrorMessage),
	}
	if s.Progress != nil {
		out.PagesDone, out.PagesPlanned = &s.Progress.PagesDone, &s.Progress.PagesPlanned
	}
	if len(s.Competitors) > 0 {
		out.Competitors = s.Competitors
	}
	return out
}

func toLogEntry(l client.CrawlerLog) CrawlerLogEntry {
	out := CrawlerLogEntry{
		ID: l.ID.String(), Domain: l.Domain, Status: string(l.Status), Bytes: l.Bytes, Gzip: l.Gzip,
		CreatedAt: l.CreatedAt.UTC(), CompletedAt: timeText(l.CompletedAt), Lines: l.Lines,
	}
	if l.ScheduleID != nil {
		out.ScheduleID = l.ScheduleID.String()
	}
	if l.Status == client.CrawlerLogSucceeded {
		out.Crawlers = ptr(len(l.Bots))
	}
	if l.Error != nil {
		out.ErrorCode, out.ErrorMessage = l.Error.Code, l.Error.Message
	}
	return out
}

// sizeText is a size in bytes as a person reads it: "5 MiB", "812 KiB".
func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func deref64(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func toReportSummary(r client.Report) ReportSummary {
	out := ReportSummary{
		Audience: string(r.Audience), OverallScore: r.OverallScore, OverallGrade: string(r.OverallGrade),
		GradeDescriptor: r.GradeDescriptor, ExecutiveSummary: r.Summaries.Executive, ScoringVersion: r.ScoringVersion,
		Counts: map[string]int{
			"pass": r.Counts.Pass, "warn": r.Counts.Warn, "fail": r.Counts.Fail, "na": r.Counts.Na, "info": r.Counts.Info,
		},
		TopIssues: []Issue{},
	}
	if r.Counts.Error != nil {
		out.Counts["error"] = *r.Counts.Error
	}
	for _, rr := range []client.RingResult{r.Rings.Search, r.Rings.Visibility, r.Rings.Trust} {
		out.Rings = append(out.Rings, Ring{Ring: string(rr.Ring), Score: rr.Score, Grade: string(rr.Grade), GradeDescriptor: rr.GradeDescriptor, CappedBy: deref(rr.CappedBy)})
	}
	out.GatesFired = []Gate{}
	for _, g := range r.GatesFired {
		out.GatesFired = append(out.GatesFired, Gate{ID: g.ID, CheckID: g.CheckID, Ring: string(g.Ring), Cap: g.Cap, Message: g.Message})
	}
	if r.Caveats != nil {
		out.Caveats = *r.Caveats
	}
	if b := r.BestCombination; b != nil && len(b.CheckIds) > 0 {
		out.BestCombination = &Combination{CheckIDs: b.CheckIds, ExpectedGain: b.ExpectedGain}
	}
	var issues []client.CheckResult
	for _, c := range r.Checks {
		if c.Status == client.CheckStatusFail || c.Status == client.CheckStatusWarn {
			issues = append(issues, c)
		}
	}
	// Most to gain first; then the larger impact, failures before warnings.
	slices.SortStableFunc(issues, func(a, b client.CheckResult) int {
		return cmp.Or(
			cmp.Compare(gain(b.ExpectedGain), gain(a.ExpectedGain)),
			cmp.Compare(levelRank(b.Impact), levelRank(a.Impact)),
			cmp.Compare(statusRank(b.Status), statusRank(a.Status)),
		)
	})
	for _, c := range issues[:min(len(issues), topIssues)] {
		out.TopIssues = append(out.TopIssues, Issue{
			CheckID: c.ID, Title: c.Title, Status: string(c.Status), Ring: string(c.Ring),
			Impact: string(c.Impact), Effort: string(c.Effort), ExpectedGain: c.ExpectedGain,
			Recommendation: deref(c.Recommendation), HasFix: c.Fix != nil,
		})
	}
	return out
}

func toCheck(c client.CheckResult, evidence bool) Check {
	out := Check{
		ID: c.ID, Title: c.Title, Ring: string(c.Ring), Pillar: c.Pillar, Status: string(c.Status), Score: c.Score,
		Impact: string(c.Impact), Effort: string(c.Effort), ExpectedGain: c.ExpectedGain,
		Summary: c.Summary, Recommendation: deref(c.Recommendation), HasFix: c.Fix != nil,
	}
	if evidence && len(c.Evidence) > 0 {
		out.Evidence = c.Evidence
	}
	return out
}

func toDelta(d client.ScoreDelta) Delta { return Delta{Base: d.Base, Target: d.Target, Delta: d.Delta} }

func deltaText(d Delta) string {
	if d.Base == nil || d.Target == nil || d.Delta == nil {
		return "not comparable"
	}
	return fmt.Sprintf("%.1f → %.1f (%+.1f)", *d.Base, *d.Target, *d.Delta)
}

func gain(g *float64) float64 {
	if g == nil {
		return 0
	}
	return *g
}

func levelRank(l client.Level) int {
	switch l {
	case client.LevelHigh:
		return 3
	case client.LevelMedium:
		return 2
	case client.LevelLow:
		return 1
	}
	return 0
}

func statusRank(s client.CheckStatus) int {
	if s == client.CheckStatusFail {
		return 1
	}
	return 0
}

func timeText(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func deref[T ~string](p *T) T {
	if p == nil {
		return ""
	}
	return *p
}

func ptr[T any](v T) *T { return &v }
