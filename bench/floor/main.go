// Command floor serves the least an authenticated API read could do on the
// service's stack: net/http and a pgx pool of the API's size, one query per
// request (the columns and conditions of GET /scans/{id}), the row's bytes
// written as they came, with no middleware, decoding or JSON. bench/http.sh
// measures it next to the API's get, so that the API's ratio to pgbench can
// be read against what the stack itself reaches on the machine: the
// difference is the API's own work (authentication, rate limits,
// validation, logging, decoding and encoding).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/geoscan/geoscan/internal/store"
)

const query = `SELECT id, schedule_id, source, url, domain, brand_name, brand_aliases, callback_url, project, tracked_url,
       status, error_code, error_message, overall_score, overall_grade, search_score, search_grade,
       visibility_score, visibility_grade, trust_score, trust_grade, scoring_version,
       created_at, updated_at, started_at, completed_at, max_pages, pages_done, pages_planned, language, competitors
FROM scans WHERE id = $1 AND org_id = $2`

func main() {
	addr := flag.String("addr", "127.0.0.1:18090", "listen address")
	org := flag.String("org", "", "the organization whose scans are read")
	flag.Parse()
	if err := run(*addr, *org); err != nil {
		log.Fatal(err)
	}
}

func run(addr, org string) error {
	// The API's pool: its configuration (a client hanging up costs no
	// connection) and default size (GEOSCAN_DB_MAX_CONNS).
	cfg, err := store.PoolConfig(os.Getenv("DATABASE_URL"))
	if err != nil {
		return err
	}
	cfg.MaxConns = int32(4 * runtime.NumCPU())

	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /scans/{id}", func(w http.ResponseWriter, r *http.Request) {
		rows, err := pool.Query(r.Context(), query, r.PathValue("id"), org)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		defer rows.Close()
		if !rows.Next() {
			http.NotFound(w, r)
			return
		}
		size := 0
		for _, v := range rows.RawValues() {
			size += len(v) + 1
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Length", strconv.Itoa(size))
		buf := make([]byte, 0, size)
		for _, v := range rows.RawValues() {
			buf = append(append(buf, v...), '\n')
		}
		_, _ = w.Write(buf) //nolint:gosec // bytes for a load generator, sent as octet-stream with nosniff
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := pool.Ping(r.Context()); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
