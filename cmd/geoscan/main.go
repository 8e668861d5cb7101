// Command geoscan is the GeoScan service: API server, migrations, and the
// administration commands for organizations and API keys.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/geoscan/geoscan/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
