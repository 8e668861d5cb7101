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
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"

	"github.com/geoscan/geoscan/internal/api"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/dbmigrate"
	"github.com/geoscan/geoscan/internal/httpserver"
	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/webhook"
)

// App is a running (or ready to run) GeoScan process.
type App struct {
	cfg    config.Config
	logger *slog.Logger
	pool   *pgxpool.Pool
	store  *store.Store
	echo   *echo.Echo
	server *http.Server
	ln     net.Listener
	served chan error
}

// Options adjust an App beyond Config; tests use them.
type Options struct {
	// Resolver replaces DNS for target checks (tests map names to addresses).
	Resolver netguard.Resolver
	NowFunc  func() time.Time
}

// New connects to the database, applies migrations and wires the server.
func New(ctx context.Context, cfg config.Config, logger *slog.Logger, opts Options) (*App, error) {
	if cfg.DatabaseURL == "" {
		return nil, errors.New("DATABASE_URL is not set (use `geoscan dev` or `make run` for a private development database)")
	}

	// Database.
	poolCfg, err := pgxpool.ParseConfig(cfg.DatabaseURL)
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

	// Outbound: callbacks never follow redirects and go only to public
	// addresses unless the dev/test setting lifts that.
	webhooks, err := netguard.NewClient(netguard.ClientOptions{
		AllowPrivate: cfg.AllowPrivateTargets, ExtraCAFile: cfg.ExtraCAFile,
		Timeout: webhook.Timeout, MaxRedirects: 0, UserAgent: webhook.UserAgent,
	})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("webhook client: %w", err)
	}

	// HTTP.
	handlers := api.NewServer(api.Deps{
		Store: st, Logger: logger, Webhooks: webhooks, NowFunc: opts.NowFunc,
		Targets: netguard.Policy{AllowPrivate: cfg.AllowPrivateTargets, Resolver: opts.Resolver},
	})
	// Requests carry their own contexts; building the server needs none.
	e, err := httpserver.New(httpserver.Deps{Logger: logger, Store: st, Handler: handlers, RequestTimeout: cfg.RequestTimeout}) //nolint:contextcheck // see above
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("http server: %w", err)
	}
	srv := &http.Server{
		Handler:           e,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      cfg.RequestTimeout + 10*time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	return &App{cfg: cfg, logger: logger, pool: pool, store: st, echo: e, server: srv}, nil
}

// Store exposes the store (the CLI's dev command creates its key with it).
func (a *App) Store() *store.Store { return a.store }

// Listen binds the HTTP address; GEOSCAN_HTTP_ADDR may use port 0.
func (a *App) Listen(ctx context.Context) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", a.cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.HTTPAddr, err)
	}
	a.ln = ln
	return nil
}

// Addr is the bound address, after Listen.
func (a *App) Addr() string { return a.ln.Addr().String() }

// Start serves HTTP in the background; Listen is called if it was not.
func (a *App) Start(ctx context.Context) error {
	if a.ln == nil {
		if err := a.Listen(ctx); err != nil {
			return err
		}
	}
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

// Shutdown stops accepting requests, lets those in flight finish within the
// timeout, then closes the pool.
func (a *App) Shutdown(ctx context.Context) error {
	var errs []error
	if a.served != nil {
		ctx, cancel := context.WithTimeout(ctx, a.cfg.ShutdownTimeout)
		defer cancel()
		if err := a.server.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("http shutdown: %w", err))
		}
	}
	a.pool.Close()
	return errors.Join(errs...)
}
