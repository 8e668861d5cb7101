// Package app is the composition root: it builds the pool, store, outbound
// clients, handlers and HTTP server from a Config, and starts and stops them
// in order. Commands and integration tests both use it.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/geoscan/geoscan/internal/audit/crawl"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/audit/render"
	"github.com/geoscan/geoscan/internal/audit/triage"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/jobs/crawlerlogs"
	"github.com/geoscan/geoscan/internal/jobs/mail"
	"github.com/geoscan/geoscan/internal/jobs/retention"
	"github.com/geoscan/geoscan/internal/jobs/scanner"
	"github.com/geoscan/geoscan/internal/jobs/schedule"
	"github.com/geoscan/geoscan/internal/jobs/webhook"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/dbmigrate"
	"github.com/geoscan/geoscan/internal/web/api"
	"github.com/geoscan/geoscan/internal/web/httpserver"
	"github.com/geoscan/geoscan/internal/web/ratelimit"
)

// App is a running (or ready to run) GeoScan process.
type App struct {
	river  *river.Client[pgx.Tx]
	runner *scanner.Runner
	// scheduler creates the scans of due schedules: a periodic job in
	// worker roles, and by hand (Scheduler) in any.
	scheduler *schedule.Scheduler
	// scans queues the runs of new scans, for the API and the scheduler.
	scans *scanner.Queuer
	logs  *crawlerlogs.Queuer
	// queuer stores callbacks and queues their delivery jobs.
	queuer *webhook.Queuer
	// notifier queues, builds and sends the emails of scheduled scans.
	notifier *mail.Notifier
	cfg      config.Config
	logger   *slog.Logger
	pool     *pgxpool.Pool
	store    *store.Store
	echo     *echo.Echo
	server   *http.Server
	ln       net.Listener
	served   chan error
	// closeLimiter releases the rate-limit backend's connections, if any.
	closeLimiter func(ctx context.Context) error
	// leased, when rate limits are on, follows other processes' grants
	// while the API serves.
	leased *ratelimit.Leased
	// authCache listens for key revocations while the API serves.
	authCache *httpserver.AuthCache
	// stopCache stops both listeners; cacheDone is closed when they are.
	stopCache context.CancelFunc
	cacheDone chan struct{}
	// renderer is the one browser of a worker process's scans, nil when
	// rendering is off; rendering says which, or why not.
	renderer  *render.Browser
	rendering string
}

// Options adjust an App beyond Config; tests use them.
type Options struct {
	// Resolver replaces DNS for target checks (tests map names to addresses).
	Resolver netguard.Resolver
	NowFunc  func() time.Time
	// PlainHTTPPort overrides the port of the http:// probe (fixture sites).
	PlainHTTPPort int
	// Engines replace the answer engines of the configuration (the demo's
	// scripted engine); the first is the default.
	Engines []llm.Engine
	// ManualScheduler leaves out the scheduler's periodic job: schedules
	// run only when Scheduler().Tick is called, so a test that moves
	// NowFunc decides when.
	ManualScheduler bool
}

// staticResolver answers from a fixed map (GEOSCAN_RESOLVE) and refuses
// every other name, so a dev/test process never leaks lookups to DNS.
type staticResolver map[string][]string

func (r staticResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	addrs, ok := r[strings.ToLower(strings.TrimSuffix(host, "."))]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, 0, len(addrs))
	for _, a := range addrs {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	return out, nil
}

// New connects to the database, applies migrations and wires the server.
func New(ctx context.Context, cfg config.Config, logger *slog.Logger, opts Options) (*App, error) {
	if cfg.DatabaseURL == "" {
		return nil, errors.New("DATABASE_URL is not set (use `geoscan dev` or `make run` for a private development database)")
	}

	// Database.
	poolCfg, err := store.PoolConfig(cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("parse DATABASE_URL: %w", err)
	}
	poolCfg.MaxConns = int32(cfg.DBMaxConns)
	pool, err := pgxpool.NewWithConfig(ctx, poolCfg)
	if err != nil {
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	if err := dbmigrate.Up(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	st := store.New(pool)

	resolver := opts.Resolver
	if resolver == nil && len(cfg.Resolve) > 0 {
		resolver = staticResolver(cfg.Resolve)
	}

	// Outbound: callbacks never follow redirects and go only to public
	// addresses unless the dev/test setting lifts that.
	webhooks, err := netguard.NewClient(netguard.ClientOptions{
		AllowPrivate: cfg.AllowPrivateTargets, ExtraCAFile: cfg.ExtraCAFile,
		Timeout: webhook.Timeout, MaxRedirects: 0, UserAgent: webhook.UserAgent, Resolver: resolver,
	})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("webhook client: %w", err)
	}

	// Queue: API processes only insert jobs; workers also run them.
	a := &App{cfg: cfg, logger: logger, pool: pool, store: st}
	a.queuer = &webhook.Queuer{Schedule: webhook.Schedule(cfg.WebhookRetryDelays)}
	a.scans = &scanner.Queuer{}
	a.logs = &crawlerlogs.Queuer{}
	a.notifier = &mail.Notifier{
		Store: st, From: cfg.MailFrom, PublicURL: cfg.PublicURL, RetryDelays: cfg.MailRetryDelays,
		ShareDays: min(mail.DefaultShareDays, cfg.ShareMaxDays), NowFunc: opts.NowFunc,
		Logger: logger.With(slog.String("component", "mail")),
	}
	if cfg.SMTPURL != "" {
		roots, err := netguard.LoadCertPool(cfg.ExtraCAFile)
		if err != nil {
			pool.Close()
			return nil, fmt.Errorf("smtp trust roots: %w", err)
		}
		if a.notifier.Sender, err = mail.NewSMTP(cfg.SMTPURL, roots); err != nil {
			pool.Close()
			return nil, err
		}
	}
	a.scheduler = &schedule.Scheduler{
		Store: st, Scans: a.scans, NowFunc: opts.NowFunc,
		Logger: logger.With(slog.String("component", "scheduler")),
	}
	a.rendering = "off (GEOSCAN_ROLE=api: this process runs no scans)"
	if cfg.Role != config.RoleAPI {
		if a.renderer, a.rendering, err = startRenderer(ctx, cfg, resolver, logger); err != nil {
			pool.Close()
			return nil, err
		}
	}
	if err := a.setUpQueue(cfg, logger, resolver, webhooks, opts); err != nil {
		_ = a.closeRenderer()
		pool.Close()
		return nil, err
	}

	// HTTP.
	handlers := api.NewServer(api.Deps{
		Store: st, Logger: logger, Webhooks: webhooks, NowFunc: opts.NowFunc,
		Targets: netguard.Policy{AllowPrivate: cfg.AllowPrivateTargets, Resolver: resolver},
		Scans:   a.scans, Deliveries: a.queuer, CrawlerLogs: a.logs, CrawlerLogMaxBytes: int64(cfg.CrawlerLogMaxMB) << 20,
		PDFCacheBytes: int64(cfg.PDFCacheMB) << 20, RenderPerMinute: cfg.RenderRateLimit, PDFCJKFont: cfg.PDFCJKFont,
		PublicURL: cfg.PublicURL, ShareMaxDays: cfg.ShareMaxDays,
	})
	limits, err := a.rateLimits(ctx, cfg, logger)
	if err != nil {
		_ = a.closeRenderer()
		pool.Close()
		return nil, err
	}
	a.authCache = httpserver.NewAuthCache(st, logger)
	// Requests carry their own contexts; building the server needs none.
	e, err := httpserver.New(httpserver.Deps{ //nolint:contextcheck // see above
		Logger: logger, Store: st, Handler: handlers, RequestTimeout: cfg.RequestTimeout, RateLimits: limits,
		UploadTimeout: cfg.CrawlerLogUploadTimeout,
		AuthCache:     a.authCache, SharedReport: handlers.SharedReport,
	})
	if err != nil {
		a.closeRateLimiter(ctx)
		_ = a.closeRenderer()
		pool.Close()
		return nil, fmt.Errorf("http server: %w", err)
	}
	srv := &http.Server{
		Handler:           e,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cfg.RequestTimeout + 10*time.Second,
		IdleTimeout:       120 * time.Second,
		// Above the application's own limit, so that it is the
		// application that answers 431, with the envelope.
		MaxHeaderBytes: httpserver.ServerMaxHeaderBytes,
		ErrorLog:       slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	a.echo, a.server = e, srv
	return a, nil
}

// rateLimits picks the rate-limit backend: none when disabled (dev/test
// only), Redis when GEOSCAN_REDIS_URL is set, PostgreSQL otherwise; either
// way requests are decided in process from leases on the shared buckets
// (and, while the API serves, Start follows the grants of other processes). An
// unreachable Redis does not stop the start: the limiter fails open and
// logs until it answers.
func (a *App) rateLimits(ctx context.Context, cfg config.Config, logger *slog.Logger) (httpserver.RateLimits, error) {
	limits := httpserver.RateLimits{IPPerMinute: cfg.IPRateLimit, TrustedProxies: cfg.TrustedProxies, RenderPerMinute: cfg.RenderRateLimit}
	switch {
	case cfg.DisableRateLimits:
		logger.Warn("rate limits are disabled (GEOSCAN_DISABLE_RATE_LIMITS)")
	case cfg.RedisURL != "":
		r, err := ratelimit.NewRedis(cfg.RedisURL)
		if err != nil {
			return limits, err
		}
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if err := r.Ping(pctx); err != nil {
			logger.Error("redis for rate limits does not answer; requests are allowed until it does", slog.String("error", err.Error()))
		}
		l := ratelimit.NewLeased(ctx, r, logger)
		a.leased = l
		limits.Limiter, a.closeLimiter = l, func(ctx context.Context) error { l.Close(ctx); return r.Close() }
	default:
		l := ratelimit.NewLeased(ctx, ratelimit.NewPostgres(a.store), logger)
		a.leased = l
		limits.Limiter, a.closeLimiter = l, func(ctx context.Context) error { l.Close(ctx); return nil }
	}
	return limits, nil
}

func (a *App) closeRateLimiter(ctx context.Context) {
	if a.closeLimiter != nil {
		if err := a.closeLimiter(ctx); err != nil {
			a.logger.Warn("close rate limiter", slog.String("error", err.Error()))
		}
	}
}

// setUpQueue builds the River client: insert-only for the api role, with
// the scan workers, the sweeper, the callback workers and the retention
// sweeps otherwise.
func (a *App) setUpQueue(cfg config.Config, logger *slog.Logger, resolver netguard.Resolver, webhooks *http.Client, opts Options) error {
	riverCfg := &river.Config{Logger: logger.With(slog.String("component", "queue"))}
	if cfg.Role != config.RoleAPI {
		plainPort := cfg.PlainHTTPPort
		if opts.PlainHTTPPort != 0 {
			plainPort = opts.PlainHTTPPort
		}
		fetcher, err := fetch.New(fetch.Options{
			UserAgent:    "Mozilla/5.0 (compatible; GeoScan/1.0; +" + strings.TrimSuffix(cfg.PublicURL, "/") + "/bot)",
			AllowPrivate: cfg.AllowPrivateTargets, ExtraCAFile: cfg.ExtraCAFile, Resolver: resolver,
			PlainHTTPPort: plainPort, Scans: cfg.ScanWorkers,
		})
		if err != nil {
			return fmt.Errorf("fetcher: %w", err)
		}
		ai, err := aiLayer(cfg, a.store, logger, opts)
		if err != nil {
			return err
		}
		a.runner = &scanner.Runner{
			Store: a.store, Fetcher: fetcher, Logger: logger, Budget: cfg.ScanBudget, Now: opts.NowFunc,
			Callbacks: a.queuer, Emails: a.notifier, AI: ai, OrgShare: cfg.ScanOrgShare,
			Memory: scanner.NewMemoryBudget(int64(cfg.ScanMemoryMiB) << 20),
			Crawl:  crawl.Options{Unthrottled: cfg.CrawlUnthrottled},
		}
		if a.renderer != nil {
			a.runner.Renderer = a.renderer
		}
		deliverer := &webhook.Worker{
			Store: a.store, Client: webhooks, Schedule: a.queuer.Schedule, Logger: logger, NowFunc: opts.NowFunc,
			Targets: netguard.Policy{AllowPrivate: cfg.AllowPrivateTargets, Resolver: resolver},
		}
		workers := river.NewWorkers()
		river.AddWorker(workers, &scanner.Worker{Runner: a.runner})
		river.AddWorker(workers, &scanner.Sweeper{Runner: a.runner, Grace: cfg.ScanBudget})
		river.AddWorker(workers, &scanner.TriageWorker{Runner: a.runner})
		river.AddWorker(workers, deliverer)
		river.AddWorker(workers, &retention.Worker{Store: a.store, Logger: logger, SnapshotRetention: cfg.SnapshotRetention, NowFunc: opts.NowFunc})
		river.AddWorker(workers, &schedule.TickWorker{Scheduler: a.scheduler})
		river.AddWorker(workers, &mail.Worker{Notifier: a.notifier})
		river.AddWorker(workers, &crawlerlogs.Worker{
			Store: a.store, Logger: logger.With(slog.String("component", "crawler_logs")), JobTimeout: cfg.ScanBudget,
		})
		riverCfg.Workers = workers
		riverCfg.Queues = map[string]river.QueueConfig{
			// A scan job held back by its organization's share is snoozed
			// behind the jobs already waiting; a worker goes past the held
			// jobs queued ahead of another organization's scan one fetch at
			// a time, so fetches may follow each other closely.
			scanner.Queue: {MaxWorkers: cfg.ScanWorkers, FetchCooldown: 20 * time.Millisecond},
			// Callbacks are due the moment a scan ends: poll often, so a job
			// whose insert notification was coalesced with another's still
			// starts within a fraction of a second.
			webhook.Queue:   {MaxWorkers: cfg.WebhookWorkers, FetchCooldown: 20 * time.Millisecond, FetchPollInterval: 100 * time.Millisecond},
			retention.Queue: {MaxWorkers: 1},
			schedule.Queue:  {MaxWorkers: 1},
			mail.Queue:      {MaxWorkers: 4},
			// One analysis at a time per process: each holds up to the
			// engine's bounded memory (docs/PERFORMANCE.md).
			crawlerlogs.Queue: {MaxWorkers: 1},
		}
		riverCfg.JobTimeout = cfg.ScanBudget + 5*time.Second
		// A job running this long belongs to a dead worker: run it again.
		// It must exceed the longest job's own timeout, or a live job would
		// be run twice.
		riverCfg.RescueStuckJobsAfter = max(cfg.ScanBudget, webhook.Timeout+10*time.Second) + 10*time.Second
		riverCfg.PeriodicJobs = []*river.PeriodicJob{
			river.NewPeriodicJob(river.PeriodicInterval(time.Minute),
				func() (river.JobArgs, *river.InsertOpts) { return scanner.SweepArgs{}, nil },
				&river.PeriodicJobOpts{RunOnStart: true}),
			retention.PeriodicJob(),
		}
		if !opts.ManualScheduler {
			// Periodic jobs are inserted by the elected leader only, so the
			// scheduler ticks once per interval whatever the process count.
			riverCfg.PeriodicJobs = append(riverCfg.PeriodicJobs, river.NewPeriodicJob(river.PeriodicInterval(cfg.SchedulerInterval),
				func() (river.JobArgs, *river.InsertOpts) { return schedule.TickArgs{}, nil },
				&river.PeriodicJobOpts{RunOnStart: true}))
		}
	}
	client, err := river.NewClient(riverpgxv5.New(a.pool), riverCfg)
	if err != nil {
		return fmt.Errorf("queue client: %w", err)
	}
	a.river = client
	a.queuer.Client = client
	a.scans.Client = client
	a.logs.Client = client
	a.notifier.Client = client
	return nil
}

// Scheduler creates the scans of due schedules; tests and
// `geoscan schedule tick` call its Tick with the instant they choose.
func (a *App) Scheduler() *schedule.Scheduler { return a.scheduler }

// Runner is the scan runner of a worker process (nil for the api role).
func (a *App) Runner() *scanner.Runner { return a.runner }

// QueueTriage queues the recomputation of a scan's triage dossier; queued
// is false when one is already waiting or running.
func (a *App) QueueTriage(ctx context.Context, scanID uuid.UUID) (queued bool, err error) {
	res, err := a.river.Insert(ctx, scanner.TriageArgs{ScanID: scanID}, nil)
	if err != nil {
		return false, err
	}
	return !res.UniqueSkippedAsDuplicate, nil
}

// AuthCache is the API's cache of verified keys (tests wait until it is
// listening).
func (a *App) AuthCache() *httpserver.AuthCache { return a.authCache }

// Store exposes the store (the CLI's dev command creates its key with it).
func (a *App) Store() *store.Store { return a.store }

// Listen binds the HTTP address; GEOSCAN_HTTP_ADDR may use port 0.
func (a *App) Listen(ctx context.Context) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", a.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.HTTPAddr, err)
	}
	// net/http's own refusals (no Host header, headers beyond its limit)
	// get the error envelope too.
	a.ln = httpserver.EnvelopeListener(ln)
	return nil
}

// Addr is the bound address, after Listen ("" for a worker).
func (a *App) Addr() string {
	if a.ln == nil {
		return ""
	}
	return a.ln.Addr().String()
}

// Start runs the workers and serves HTTP in the background, as the role
// asks; Listen is called if it was not.
func (a *App) Start(ctx context.Context) error {
	if a.cfg.Role != config.RoleAPI {
		// Workers outlive the request context that started them; Shutdown stops them.
		if err := a.river.Start(context.WithoutCancel(ctx)); err != nil {
			return fmt.Errorf("start workers: %w", err)
		}
		a.logger.Info("scan workers started", slog.Int("workers", a.cfg.ScanWorkers), slog.Duration("budget", a.cfg.ScanBudget),
			slog.Int("org_share", a.cfg.ScanOrgShare))
		// Compile the fingerprint database now rather than in the first scan.
		go func() {
			if err := triage.Warm(); err != nil {
				a.logger.Error("fingerprint database did not load; triage uses the in-house table only", slog.Any("error", err))
			}
		}()
	}
	if a.cfg.Role == config.RoleWorker {
		return nil
	}
	if a.ln == nil {
		if err := a.Listen(ctx); err != nil {
			return err
		}
	}
	cctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	a.stopCache, a.cacheDone = stop, make(chan struct{})
	go func() {
		defer close(a.cacheDone)
		var wg sync.WaitGroup
		wg.Go(func() { a.authCache.Run(cctx) })
		if a.leased != nil {
			wg.Go(func() { a.leased.Run(cctx) })
		}
		wg.Wait()
	}()
	a.served = make(chan error, 1)
	go func() {
		err := a.server.Serve(a.ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		a.served <- err
	}()
	a.logger.Info("serving", slog.String("addr", a.Addr()), slog.String("env", string(a.cfg.Env)))
	return nil
}

// Done reports a server that stopped on its own.
func (a *App) Done() <-chan error { return a.served }

// stopMargin is how long stopping workers may take after the grace period:
// cancelled jobs return and River records them as interrupted.
const stopMargin = 10 * time.Second

// Shutdown stops taking new work at once — the listener closes and the
// workers fetch no more jobs — and gives what is in flight the shutdown
// timeout (GEOSCAN_SHUTDOWN_TIMEOUT), HTTP and workers at the same time,
// then closes the pool. Scans and callbacks still running after the grace
// are cancelled; their jobs go back to the queue untouched (see stopWorkers).
func (a *App) Shutdown(ctx context.Context) error {
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
	)
	if a.cfg.Role != config.RoleAPI && a.river != nil {
		wg.Go(func() {
			if err := a.stopWorkers(ctx); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	if a.served != nil {
		ctx, cancel := context.WithTimeout(ctx, a.cfg.ShutdownTimeout)
		defer cancel()
		if err := a.server.Shutdown(ctx); err != nil {
			mu.Lock()
			errs = append(errs, fmt.Errorf("http shutdown: %w", err))
			mu.Unlock()
		}
	}
	wg.Wait()
	// The workers have stopped, so no scan renders any more.
	if err := a.closeRenderer(); err != nil {
		errs = append(errs, err)
	}
	if a.stopCache != nil {
		a.stopCache()
		<-a.cacheDone
	}
	a.closeRateLimiter(ctx)
	a.pool.Close()
	return errors.Join(errs...)
}

// stopWorkers stops the River client: producers fetch no more jobs at once,
// running jobs get the grace period (or what is left of ctx, if shorter) to
// finish, and those still running then have their contexts cancelled with
// River's stop cause. A scan or callback cancelled that way returns a
// cancellation error without recording anything (scanner.ErrInterrupted,
// webhook.Worker), and River makes its job available again with the attempt
// not counted, so the next worker runs it promptly and it never uses up its
// MaxAttempts. A job that ignored the cancellation would be left running and
// rescued later (RescueStuckJobsAfter).
func (a *App) stopWorkers(ctx context.Context) error {
	grace, cancel := context.WithTimeout(ctx, a.cfg.ShutdownTimeout)
	defer cancel()
	if err := a.river.Stop(grace); err == nil {
		return nil
	}
	a.logger.Info("grace period over; interrupting running jobs, which go back to the queue")
	hard, hcancel := context.WithTimeout(context.WithoutCancel(ctx), stopMargin)
	defer hcancel()
	err := a.river.StopAndCancel(hard)
	if errors.Is(err, context.DeadlineExceeded) {
		a.logger.Warn("a job did not stop when cancelled; River will rescue it", slog.Duration("after", stopMargin))
		return nil
	}
	if err != nil {
		return fmt.Errorf("stop workers: %w", err)
	}
	return nil
}
