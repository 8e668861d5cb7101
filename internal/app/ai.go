package app

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/geoscan/geoscan/internal/audit/llm"
	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/store"
)

// aiLayer builds the answer engines of a worker from the configuration (or
// the engines the options bring), with the answer cache in PostgreSQL.
func aiLayer(cfg config.Config, st *store.Store, logger *slog.Logger, opts Options) (*llm.Layer, error) {
	limits := llm.Limits{
		Runs: cfg.LLM.Runs, CallTimeout: cfg.LLM.CallTimeout, MaxCalls: cfg.LLM.MaxCalls,
		MaxTokens: cfg.LLM.MaxTokens, Concurrency: cfg.LLM.Concurrency,
	}
	log := logger.With(slog.String("component", "answer_engines"))
	if len(opts.Engines) > 0 {
		return &llm.Layer{Default: opts.Engines[0], Engines: opts.Engines, Limits: limits, Cache: st, Logger: log}, nil
	}
	l, err := llm.Build(llm.Settings{
		BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model, EnginesFile: cfg.LLM.EnginesFile,
		Limits: limits, ExtraCAFile: cfg.ExtraCAFile,
	}, os.Getenv, st, log)
	if err != nil {
		return nil, fmt.Errorf("answer engines: %w", err)
	}
	if l.Enabled() {
		for _, e := range l.Engines {
			i := e.Info()
			log.Info("answer engine configured", slog.String("engine", i.Name), slog.String("host", i.Host), slog.String("model", i.Model))
		}
	} else {
		log.Info("no answer engine configured: the AI mention checks are na and summaries are templates")
	}
	return l, nil
}
