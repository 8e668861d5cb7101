// Command refresh-ranges downloads every IP range list of the crawler-log
// manifest from its operator, checks it and, when it is a usable list,
// replaces the embedded copy and dates it in the manifest:
//
//	go run ./internal/audit/crawlerlog/cmd/refresh-ranges
//
// A list that fails to download or to validate keeps its old copy; the
// command then exits 1 after trying every list. -base-url sends every
// request to a test server instead (BASE/HOST/PATH).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/geoscan/geoscan/internal/audit/crawlerlog"
)

// maxListBytes bounds a download; Google's largest list is under 100 KB.
const maxListBytes = 8 << 20

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, time.Now)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "refresh-ranges:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer, now func() time.Time) error {
	fs := flag.NewFlagSet("refresh-ranges", flag.ContinueOnError)
	dir := fs.String("dir", filepath.Join("internal", "audit", "crawlerlog", "ranges"), "the ranges folder (manifest.json and the lists)")
	base := fs.String("base-url", "", "fetch BASE/HOST/PATH instead of each list's URL (tests)")
	timeout := fs.Duration("timeout", 30*time.Second, "time limit of one download")
	if err := fs.Parse(args); err != nil {
		return err
	}
	manifestPath := filepath.Join(*dir, crawlerlog.ManifestFile)
	raw, err := os.ReadFile(manifestPath) //nolint:gosec // the folder the developer names
	if err != nil {
		return err
	}
	var m crawlerlog.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	client := &http.Client{Timeout: *timeout}
	today := now().UTC().Format(time.DateOnly)
	var failed []string
	for i := range m.Lists {
		l := &m.Lists[i]
		n, err := refresh(ctx, client, *dir, *base, l)
		if err != nil {
			failed = append(failed, l.Name)
			fmt.Fprintf(out, "%-40s kept (%s): %v\n", l.Name, keptState(l), err)
			continue
		}
		l.Status, l.Fetched, l.CopiedFrom, l.Note = crawlerlog.ListPresent, today, "", ""
		fmt.Fprintf(out, "%-40s %d prefixes\n", l.Name, n)
	}
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(manifestPath, append(body, '\n')); err != nil {
		return err
	}
	if len(failed) > 0 {
		return fmt.Errorf("not refreshed: %s", strings.Join(failed, ", "))
	}
	return nil
}

func keptState(l *crawlerlog.ManifestList) string {
	if l.Status == crawlerlog.ListPresent {
		return "copy of " + l.Fetched
	}
	return l.Status
}

// refresh downloads one list and, once it validates, replaces its file.
func refresh(ctx context.Context, client *http.Client, dir, base string, l *crawlerlog.ManifestList) (int, error) {
	target := l.URL
	if base != "" {
		u, err := url.Parse(l.URL)
		if err != nil {
			return 0, err
		}
		target = strings.TrimSuffix(base, "/") + "/" + u.Host + u.EscapedPath()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s answered %s", target, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxListBytes+1))
	if err != nil {
		return 0, err
	}
	if len(body) > maxListBytes {
		return 0, errors.New("the list is larger than 8 MiB")
	}
	prefixes, err := crawlerlog.ParseRangeList(body)
	if err != nil {
		return 0, err
	}
	if l.File == "" {
		l.File = l.Name + ".json"
	}
	if err := writeAtomic(filepath.Join(dir, l.File), body); err != nil {
		return 0, err
	}
	return len(prefixes), nil
}

// writeAtomic replaces a file by renaming a complete temporary one, so an
// interrupted refresh leaves the old file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".refresh-*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
