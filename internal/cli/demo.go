package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/geoscan/geoscan/gen/client"
	"github.com/geoscan/geoscan/internal/app"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/testing/testsite"
	"github.com/geoscan/geoscan/webhook"
)

// demo shows the whole job offline: it starts the local fixture sites and a
// server (with the private PostgreSQL of `geoscan dev` when DATABASE_URL is
// unset), scans every fixture through the public API with the generated
// client, and prints the rings and grades.
func demo(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "demo")
	timeout := fs.Duration("timeout", 3*time.Minute, "give up waiting for the scans after this long")
	pdfDir := fs.String("pdf-dir", "", "also save both editions of each fixture's PDF report in this directory")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: geoscan demo [--timeout 3m] [--pdf-dir DIR]\n\nScans the built-in fixture sites (served on loopback with a test CA) through the API and prints\nthe results. Needs no internet. The AI mention checks and summaries use GeoScan's scripted demo\nengine, an OpenAI-compatible server on loopback whose answers are canned: they show the shape of\nthe results, not what any real assistant says.\n")
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	sites, err := testsite.Start() //nolint:contextcheck // the sites live until Close, not for one request
	if err != nil {
		return fmt.Errorf("fixture sites: %w", err)
	}
	defer sites.Close()

	// The fixture hosts resolve to loopback and their CA is trusted only
	// here; dev mode is what permits both.
	getenv := func(k string) string {
		switch k {
		case "GEOSCAN_ENV":
			return string(config.EnvDev)
		case "GEOSCAN_LOG_FORMAT":
			return "text"
		case "GEOSCAN_LOG_LEVEL":
			if v := e.getenv(k); v != "" {
				return v
			}
			return "warn"
		case "GEOSCAN_ALLOW_PRIVATE_TARGETS":
			return "true"
		case "GEOSCAN_HTTP_ADDR":
			return "127.0.0.1:0"
		case "GEOSCAN_ROLE":
			return string(config.RoleAll)
		}
		return e.getenv(k)
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	logger := newLogger(cfg, e.stderr)
	caDir := filepath.Join(cfg.DataDir, "demo")
	if err := os.MkdirAll(caDir, 0o755); err != nil { //nolint:gosec // beside the cluster, which the postgres user enters
		return err
	}
	caFile, err := sites.WriteCAFile(caDir)
	if err != nil {
		return err
	}
	cfg.ExtraCAFile = caFile
	stop, err := privateDatabase(ctx, e, &cfg, logger)
	if err != nil {
		return err
	}
	defer stop()

	engine, stopEngine, err := demoEngine(ctx)
	if err != nil {
		return err
	}
	defer stopEngine()
	a, err := app.New(ctx, cfg, logger, app.Options{Resolver: sites.Resolver(), PlainHTTPPort: sites.HTTPPort(), Engines: []llm.Engine{engine}})
	if err != nil {
		return err
	}
	if err := a.Start(ctx); err != nil {
		_ = a.Shutdown(context.WithoutCancel(ctx))
		return err
	}
	defer func() { _ = a.Shutdown(context.WithoutCancel(ctx)) }()

	// The scans go to the development organization, so `make run` serves
	// them afterwards with the same key.
	keyFile := filepath.Join(cfg.DataDir, "dev-api-key")
	key, err := devKey(ctx, a.Store(), keyFile)
	if err != nil {
		return err
	}
	c, err := client.NewClientWithResponses("http://"+a.Addr()+"/api/v1", client.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-API-Key", key)
		return nil
	}))
	if err != nil {
		return err
	}

	printf(e.stdout, "Scanning %d fixture sites through %s/api/v1 ...\n\n", len(testsite.Realistic), "http://"+a.Addr())
	ids := make([]client.Scan, 0, len(testsite.Realistic))
	for _, name := range testsite.Realistic {
		resp, err := c.CreateScanWithResponse(ctx, nil, client.ScanCreateRequest{URL: sites.URL(name)})
		if err != nil {
			return err
		}
		if resp.JSON201 == nil {
			return fmt.Errorf("create scan of %s: HTTP %d: %s", name, resp.StatusCode(), resp.Body)
		}
		ids = append(ids, *resp.JSON201)
	}
	waitCtx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	results := make([]client.Scan, len(ids))
	for i, s := range ids {
		for {
			resp, err := c.GetScanWithResponse(waitCtx, s.ID)
			if err != nil {
				return fmt.Errorf("waiting for the scans: %w", err)
			}
			if resp.JSON200 != nil && webhook.IsFinished(string(resp.JSON200.Status)) {
				results[i] = *resp.JSON200
				break
			}
			select {
			case <-waitCtx.Done():
				return errors.New("the scans did not finish in time")
			case <-time.After(200 * time.Millisecond):
			}
		}
	}

	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FIXTURE\tHOST\tSTATUS\tOVERALL\tSEARCH\tVISIBILITY\tTRUST")
	for i, s := range results {
		name := testsite.Realistic[i]
		if s.Status != client.ScanStatusCompleted {
			printf(tw, "%s\t%s\t%s\t%s\t\t\t\n", name, sites.Host(name), s.Status, deref(s.ErrorMessage))
			continue
		}
		printf(tw, "%s\t%s\t%s\t%.1f %s\t%s\t%s\t%s\n", name, sites.Host(name), s.Status,
			deref(s.OverallScore), deref(s.OverallGrade),
			ring(s.SearchScore, s.SearchGrade), ring(s.VisibilityScore, s.VisibilityGrade), ring(s.TrustScore, s.TrustGrade))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := printTriage(waitCtx, e, c, results); err != nil {
		return err
	}
	if err := printAI(waitCtx, e, c, results); err != nil {
		return err
	}
	if *pdfDir != "" {
		if err := savePDFs(waitCtx, c, results, *pdfDir); err != nil {
			return err
		}
		printf(e.stdout, "\nPDF reports of both audiences saved in %s.\n", *pdfDir)
	}
	// The demo's own server stops with it: the hint names the address
	// `make run` (geoscan dev) listens on with the same environment.
	printf(e.stdout, "\nThe scans belong to the development organization: run `make run` and read them with the key in %s,\nfor example: curl -s -H \"X-API-Key: $(cat %s)\" %s/api/v1/scans/%s/report\n",
		relative(keyFile), relative(keyFile), devURL(e.getenv), results[0].ID)
	return nil
}

// printTriage shows what each completed scan's dossier says the site is
// built with, its biggest risk and its quick wins.
func printTriage(ctx context.Context, e env, c *client.ClientWithResponses, results []client.Scan) error {
	fmt.Fprintln(e.stdout)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FIXTURE\tPLATFORM\tCOMPLEXITY\tBIGGEST RISK\tQUICK WINS")
	rank := map[client.TriageRiskLensBucket]int{client.TriageRiskLensBucketLow: 0, client.TriageRiskLensBucketModerate: 1, client.TriageRiskLensBucketHigh: 2, client.TriageRiskLensBucketCritical: 3}
	for i, s := range results {
		if s.Status != client.ScanStatusCompleted {
			continue
		}
		resp, err := c.GetScanTriageWithResponse(ctx, s.ID, nil)
		if err != nil {
			return fmt.Errorf("read the triage of %s: %w", s.ID, err)
		}
		d := resp.JSON200
		if d == nil {
			printf(tw, "%s\t(no dossier: HTTP %d)\t\t\t\n", testsite.Realistic[i], resp.StatusCode())
			continue
		}
		var parts []string
		for _, p := range []*string{d.Platform.Cms, d.Platform.PageBuilder, d.Platform.JsFramework} {
			if p != nil {
				parts = append(parts, *p)
			}
		}
		platform := strings.Join(parts, " + ")
		if platform == "" {
			platform = "not recognised"
		}
		risk := "none above low"
		worst := -1
		for _, l := range d.RiskLenses {
			if r := rank[l.Bucket]; r > 0 && r > worst {
				worst, risk = r, string(l.LensID)+" "+string(l.Bucket)
			}
		}
		printf(tw, "%s\t%s\t%s\t%s\t%d of %d actions\n", testsite.Realistic[i], platform, d.Platform.ComplexityBucket, risk, d.QuickWinCount, d.ActionCount)
	}
	return tw.Flush()
}

// savePDFs downloads both editions of each completed scan's PDF report as
// DIR/<fixture>-<audience>.pdf (make docs/pdf-samples renders pages of them).
func savePDFs(ctx context.Context, c *client.ClientWithResponses, results []client.Scan, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil { //nolint:gosec // documents meant to be read
		return err
	}
	for i, s := range results {
		if s.Status != client.ScanStatusCompleted {
			continue
		}
		for _, a := range []client.GetScanPdfParamsAudience{client.GetScanPdfParamsAudienceMarketing, client.GetScanPdfParamsAudienceEngineering} {
			resp, err := c.GetScanPdfWithResponse(ctx, s.ID, &client.GetScanPdfParams{Audience: &a})
			if err != nil {
				return fmt.Errorf("download the PDF of %s: %w", s.ID, err)
			}
			if resp.StatusCode() != http.StatusOK {
				return fmt.Errorf("download the PDF of %s: HTTP %d: %s", s.ID, resp.StatusCode(), resp.Body)
			}
			path := filepath.Join(dir, fmt.Sprintf("%s-%s.pdf", testsite.Realistic[i], a))
			if err := os.WriteFile(path, resp.Body, 0o644); err != nil { //nolint:gosec // documents meant to be read
				return err
			}
		}
	}
	return nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func ring(score *int, grade *string) string {
	if score == nil {
		return "-"
	}
	return fmt.Sprintf("%d %s", *score, deref(grade))
}
