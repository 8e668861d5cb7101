package config

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"text/tabwriter"
)

// Client is the configuration of the client commands (geoscan scan,
// schedule, usage, webhook), which talk to a GeoScan server over its API
// and need none of the server's settings.
type Client struct {
	// APIURL is the base of the API, ending in /api/v1.
	APIURL string
	APIKey string
}

// clientVariable describes one variable of the client commands, like
// variable does for the server.
type clientVariable struct {
	name    string
	def     string
	help    string
	setFunc func(c *Client, v string) error
}

func clientVariables() []clientVariable {
	return []clientVariable{
		{
			"GEOSCAN_API_URL", "http://127.0.0.1:8080", "Base URL of the GeoScan server the client commands talk to; /api/v1 is added when the URL does not end with it.",
			func(c *Client, v string) error {
				u, err := url.Parse(strings.TrimRight(v, "/"))
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return fmt.Errorf("must be an http:// or https:// URL, not %q", v)
				}
				if !strings.HasSuffix(u.Path, "/api/v1") {
					u.Path += "/api/v1"
				}
				c.APIURL = u.String()
				return nil
			},
		},
		{
			"GEOSCAN_API_KEY", "", "API key (geo_…) of the organization the client commands act for; `geoscan key create` prints one.",
			func(c *Client, v string) error { c.APIKey = strings.TrimSpace(v); return nil },
		},
	}
}

// LoadClient reads the client configuration through getenv; the key is
// required.
func LoadClient(getenv func(string) string) (Client, error) {
	var c Client
	var errs []error
	for _, v := range clientVariables() {
		val := getenv(v.name)
		if val == "" {
			val = v.def
		}
		if err := v.setFunc(&c, val); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", v.name, err))
		}
	}
	if c.APIKey == "" {
		errs = append(errs, errors.New("GEOSCAN_API_KEY is not set: export the organization's API key (geoscan key create --org ORG_ID prints a new one)"))
	}
	return c, errors.Join(errs...)
}

// WriteClientHelp prints the client variables with defaults and
// descriptions.
func WriteClientHelp(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VARIABLE\tDEFAULT\tDESCRIPTION")
	for _, v := range clientVariables() {
		def := v.def
		if def == "" {
			def = "(unset)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.name, def, v.help)
	}
	return tw.Flush()
}

// WriteClientMarkdown prints the same table as Markdown, for docs/CLI.md.
func WriteClientMarkdown(w io.Writer) error {
	if _, err := fmt.Fprintln(w, "| Variable | Default | Description |\n|---|---|---|"); err != nil {
		return err
	}
	for _, v := range clientVariables() {
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
