package cli

import (
	"context"
	"errors"
	"io"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/mcpserver"
)

const mcpUsage = `Usage: geoscan mcp [--max-wait DURATION]

Serves GeoScan's tools to an AI assistant over the Model Context Protocol on stdin and stdout
(create_scan, get_scan, get_checks, get_fixes, get_triage, get_pages, compare_scans, list_scans,
list_schedules, upload_crawler_log, get_crawler_log, list_crawler_logs). Every tool calls the GeoScan API at GEOSCAN_API_URL with GEOSCAN_API_KEY, so the
organization's scope and rate limits apply. The assistant starts this command itself: see
docs/API.md, "MCP", for a client configuration. Nothing but the protocol is written to stdout.
`

func mcpCmd(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "mcp")
	maxWait := fs.Duration("max-wait", mcpserver.DefaultMaxWait, "longest time create_scan waits for a scan with wait=true")
	fs.Usage = func() {
		printf(fs.Output(), "%s", lines(mcpUsage))
		printf(fs.Output(), "\nFlags:\n")
		fs.PrintDefaults()
		printf(fs.Output(), "\nEnvironment:\n")
		_ = config.WriteClientHelp(fs.Output())
	}
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	cfg, err := config.LoadClient(e.getenv)
	if err != nil {
		return err
	}
	doer := e.httpClient
	if doer == nil {
		// Above the longest wait between polls and any API answer; the
		// wait itself is bounded by --max-wait.
		doer = &http.Client{Timeout: 2 * time.Minute}
	}
	srv, err := mcpserver.New(mcpserver.Options{
		APIURL: cfg.APIURL, Key: cfg.APIKey, HTTPClient: doer, MaxWait: *maxWait, Version: moduleVersion(),
	})
	if err != nil {
		return err
	}
	t := &mcp.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}}
	return endOfSession(ctx, srv.Run(ctx, t))
}

// endOfSession is the command's error for how the session ended: the
// client closing stdin, or the signal that ends the process, is the end
// of the session, not a failure.
func endOfSession(ctx context.Context, err error) error {
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, mcp.ErrConnectionClosed):
		return nil
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return nil
	}
	return err
}

// moduleVersion is the version the binary was built as, for the handshake.
func moduleVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
