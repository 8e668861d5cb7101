package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strings"
)

// Settings are the AI layer's configuration (GEOSCAN_LLM_*).
type Settings struct {
	// The default engine.
	BaseURL, APIKey, Model string
	// EnginesFile names a JSON file of further engines.
	EnginesFile string
	Limits      Limits
	ExtraCAFile string
}

// fileEngine is one entry of the engines file.
type fileEngine struct {
	Name         string       `json:"name"`
	BaseURL      string       `json:"base_url"`
	Model        string       `json:"model"`
	APIKeyEnv    string       `json:"api_key_env"`
	Capabilities []Capability `json:"capabilities"`
	WebSearchAPI string       `json:"web_search_api"`
	// Temperature false: the model takes only its default temperature.
	Temperature *bool `json:"temperature"`
	// JSONSchema false: the model has no structured output.
	JSONSchema *bool `json:"json_schema"`
}

// enginesFile is the engines file:
//
//	{"engines": [{"name": "perplexity", "base_url": "https://api.perplexity.ai",
//	  "model": "sonar", "api_key_env": "PERPLEXITY_API_KEY",
//	  "capabilities": ["chat", "web_search"]},
//	 {"name": "gpt5", "base_url": "https://api.openai.com/v1", "model": "gpt-5-mini",
//	  "api_key_env": "OPENAI_API_KEY", "temperature": false}]}
//
// The parameter fields say what a model is known not to take; left out,
// the engine sends them and learns from the first 400 that names one.
type enginesFile struct {
	Engines []fileEngine `json:"engines"`
}

var engineName = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,39}$`)

// Build makes the AI layer from its settings; getenv reads the variables
// the engines file names for keys. No engine configured gives a layer
// that is not Enabled, which is not an error.
func Build(s Settings, getenv func(string) string, cache Cache, logger *slog.Logger) (*Layer, error) {
	l := &Layer{Limits: s.Limits, Cache: cache, Logger: logger}
	seen := map[string]bool{}
	add := func(cfg EngineConfig) error {
		if seen[cfg.Name] {
			return fmt.Errorf("engine name %q is used twice", cfg.Name)
		}
		seen[cfg.Name] = true
		e, err := NewOpenAI(cfg)
		if err != nil {
			return err
		}
		if cfg.APIKey != "" {
			l.Secrets = append(l.Secrets, cfg.APIKey)
		}
		if l.Default == nil {
			l.Default = e
		}
		l.Engines = append(l.Engines, e)
		return nil
	}
	if s.BaseURL != "" {
		if s.Model == "" {
			return nil, errors.New("GEOSCAN_LLM_MODEL is required with GEOSCAN_LLM_BASE_URL")
		}
		caps := []Capability{Chat}
		if err := add(EngineConfig{Name: "default", BaseURL: s.BaseURL, Model: s.Model, APIKey: s.APIKey, Capabilities: caps, ExtraCAFile: s.ExtraCAFile}); err != nil {
			return nil, fmt.Errorf("GEOSCAN_LLM_BASE_URL: %w", err)
		}
	} else if s.Model != "" || s.APIKey != "" {
		return nil, errors.New("GEOSCAN_LLM_MODEL and GEOSCAN_LLM_API_KEY need GEOSCAN_LLM_BASE_URL")
	}
	if s.EnginesFile != "" {
		b, err := os.ReadFile(s.EnginesFile)
		if err != nil {
			return nil, fmt.Errorf("GEOSCAN_LLM_ENGINES_FILE: %w", err)
		}
		var f enginesFile
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("GEOSCAN_LLM_ENGINES_FILE %s: %w", s.EnginesFile, err)
		}
		if len(f.Engines) == 0 {
			return nil, fmt.Errorf("GEOSCAN_LLM_ENGINES_FILE %s lists no engines", s.EnginesFile)
		}
		for i, fe := range f.Engines {
			if !engineName.MatchString(fe.Name) {
				return nil, fmt.Errorf("GEOSCAN_LLM_ENGINES_FILE engine %d: name must be 1–40 lower-case letters, digits, '.', '_' or '-', not %q", i+1, fe.Name)
			}
			var key string
			if fe.APIKeyEnv != "" {
				key = strings.TrimSpace(getenv(fe.APIKeyEnv))
				if key == "" {
					return nil, fmt.Errorf("GEOSCAN_LLM_ENGINES_FILE engine %q: the variable %s that should hold its key is empty", fe.Name, fe.APIKeyEnv)
				}
			}
			if err := add(EngineConfig{
				Name: fe.Name, BaseURL: fe.BaseURL, Model: fe.Model, APIKey: key, Capabilities: fe.Capabilities,
				SearchAPI: fe.WebSearchAPI, ExtraCAFile: s.ExtraCAFile,
				DefaultTemperatureOnly: fe.Temperature != nil && !*fe.Temperature,
				NoJSONSchema:           fe.JSONSchema != nil && !*fe.JSONSchema,
			}); err != nil {
				return nil, fmt.Errorf("GEOSCAN_LLM_ENGINES_FILE: %w", err)
			}
		}
	}
	if l.Default != nil && !l.Default.Info().Can(Chat) {
		return nil, fmt.Errorf("the default engine %q must have the chat capability", l.Default.Info().Name)
	}
	return l, nil
}

// Redact replaces every secret in text.
func Redact(text string, secrets []string) string {
	for _, s := range secrets {
		if len(s) >= 4 {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	return text
}
