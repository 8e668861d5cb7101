package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionCmd prints the module version and the commit the binary was built
// from, as the Go toolchain recorded them (go build stamps the VCS details
// when it builds from a checkout; `go install …@version` stamps the version).
func versionCmd(_ context.Context, e env, args []string) error {
	fs := newFlagSet(e, "version")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: geoscan version (or geoscan --version)\n\nPrints the module version, the commit the binary was built from and the Go version.\n")
	}
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		printf(e.stdout, "geoscan (no build information) %s\n", runtime.Version())
		return nil
	}
	printf(e.stdout, "%s\n", versionLine(info))
	return nil
}

// versionLine is "geoscan v1.2.3 (commit 0123456789ab, 2026-11-23T21:26:09Z,
// modified) go1.25.1", leaving out what the build did not record.
func versionLine(info *debug.BuildInfo) string {
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var vcs []string
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		vcs = append(vcs, "commit "+rev)
	}
	if t := settings["vcs.time"]; t != "" {
		vcs = append(vcs, t)
	}
	if settings["vcs.modified"] == "true" {
		vcs = append(vcs, "modified")
	}
	line := "geoscan " + version
	if len(vcs) > 0 {
		line += " (" + strings.Join(vcs, ", ") + ")"
	}
	return line + " " + info.GoVersion
}
