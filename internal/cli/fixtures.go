package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/geoscan/geoscan/internal/testing/testsite"
)

// fixtures serves the fixture sites until interrupted and prints the
// settings a dev/test server needs to scan them (the benchmark scripts and
// manual testing use it).
func fixtures(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "fixtures")
	dir := fs.String("ca-dir", ".data/fixtures", "directory for the fixture CA certificate")
	latency := fs.Duration("latency", 0, "delay every response by this long, as a distant site would (e.g. 300ms)")
	megasite := fs.Int("megasite-pages", 0, "serve the megasite with at least this many pages (default: its 516)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: geoscan fixtures [--ca-dir DIR] [--latency DURATION] [--megasite-pages N]\n\nServes the fixture sites on loopback and prints, as shell assignments, the GEOSCAN_* settings\nthat let a dev/test server scan them. Runs until interrupted.\n")
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	sites, err := testsite.StartWith(testsite.Options{MegasitePages: *megasite}) //nolint:contextcheck // the sites live until Close, not for one request
	if err != nil {
		return err
	}
	defer sites.Close()
	sites.SetLatency(*latency)
	if err := os.MkdirAll(*dir, 0o755); err != nil { //nolint:gosec // a readable certificate
		return err
	}
	ca, err := sites.WriteCAFile(*dir)
	if err != nil {
		return err
	}
	if abs, err := filepath.Abs(ca); err == nil {
		ca = abs
	}
	var resolve []string
	for _, name := range slices.Concat(testsite.Realistic, testsite.Crawl, testsite.Rendering, testsite.Hostile) {
		resolve = append(resolve, sites.Host(name)+"=127.0.0.1")
	}
	printf(e.stdout, "GEOSCAN_ENV=test\nGEOSCAN_ALLOW_PRIVATE_TARGETS=true\nGEOSCAN_EXTRA_CA_FILE=%s\nGEOSCAN_RESOLVE=%s\nGEOSCAN_PLAIN_HTTP_PORT=%d\n",
		ca, strings.Join(resolve, ","), sites.HTTPPort())
	for _, name := range slices.Concat(testsite.Realistic, testsite.Crawl, testsite.Rendering) {
		printf(e.stdout, "# %s %s\n", name, sites.URL(name))
	}
	<-ctx.Done()
	return nil
}
