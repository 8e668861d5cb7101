package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/geoscan/geoscan/gen/client"
)

const scanFixesUsage = `Usage: geoscan scan fixes ID [--dir DIR] [--force] [--json]

Writes the fixes of a completed scan to a directory: each file written for the site (a robots.txt
patch, llms.txt, JSON-LD, head tags, a sitemap stub) and FIXES.md, which says for each finding
what to change, where on the site's platform, what to review and how to verify it. Existing files
are kept unless --force is given.
`

// artifactName is the contract's pattern of an artifact's file name: a
// bare name, so a file can only land in the directory asked for.
var artifactName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// fixesIndex is the file that describes every fix.
const fixesIndex = "FIXES.md"

func scanFixes(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan fixes", scanFixesUsage)
	dir := fs.String("dir", "", "directory to write the files to, created if missing (default: geoscan-fixes-ID)")
	force := fs.Bool("force", false, "overwrite files that already exist in the directory")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	aud := client.ListScanChecksParamsAudienceEngineering
	resp, err := a.c.ListScanChecksWithResponse(ctx, id, &client.ListScanChecksParams{Audience: &aud})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if *dir == "" {
		*dir = "geoscan-fixes-" + id.String()
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil { //nolint:gosec // a directory the user asked for
		return err
	}
	var withFix []client.CheckResult
	for _, c := range resp.JSON200.Data {
		if c.Fix != nil {
			withFix = append(withFix, c)
		}
	}
	written, names, err := writeArtifacts(*dir, withFix, *force)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(*dir, fixesIndex), []byte(fixesMarkdown(id.String(), withFix, names)), *force); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	if len(withFix) == 0 {
		printf(e.stdout, "Scan %s has no fixes: no warned or failed check has one. %s says so.\n", id, filepath.Join(*dir, fixesIndex))
		return nil
	}
	printf(e.stdout, "%d fixes, %d files in %s:\n", len(withFix), len(written)+1, *dir)
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, "FILE\tKIND\tFOR\tCHECKS")
	for _, w := range written {
		printf(tw, "%s\t%s\t%s\t%s\n", w.name, w.kind, w.location, w.checks)
	}
	printf(tw, "%s\t%s\t%s\t%s\n", fixesIndex, "index", "what to change, review and verify", "all")
	return tw.Flush()
}

// writtenFile is one artifact written, with the checks it fixes.
type writtenFile struct {
	name, kind, location, checks string
}

// writeArtifacts writes each distinct artifact once; two different files
// of one name are told apart by the check they fix. names maps a check id
// to the file its artifact was written to.
func writeArtifacts(dir string, list []client.CheckResult, force bool) ([]writtenFile, map[string]string, error) {
	var out []writtenFile
	names := map[string]string{}
	contentOf := map[string]string{} // file name → content written
	index := map[string]int{}        // file name → position in out
	for _, c := range list {
		art := c.Fix.Artifact
		if art == nil {
			continue
		}
		name := art.Filename
		if !artifactName.MatchString(name) || strings.EqualFold(name, fixesIndex) {
			return nil, nil, fmt.Errorf("the server named a file %q, which is not a bare file name", name)
		}
		if prev, ok := contentOf[name]; ok && prev != art.Content {
			name = c.ID + "-" + name
		}
		if prev, ok := contentOf[name]; ok && prev == art.Content {
			names[c.ID] = name
			out[index[name]].checks += ", " + c.ID
			continue
		}
		if err := writeFile(filepath.Join(dir, name), []byte(art.Content), force); err != nil {
			return nil, nil, err
		}
		contentOf[name], names[c.ID], index[name] = art.Content, name, len(out)
		out = append(out, writtenFile{name: name, kind: string(art.Kind), location: art.Location, checks: c.ID})
	}
	return out, names, nil
}

// writeFile writes a new file, or replaces one only with force.
func writeFile(path string, body []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644) //nolint:gosec // a file the user asked for
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; use --force to replace it, or --dir for another directory", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(body); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// fixesMarkdown describes every fix for the person applying them.
func fixesMarkdown(scanID string, list []client.CheckResult, names map[string]string) string {
	var b strings.Builder
	printf(&b, "# Fixes of scan %s\n\n", scanID)
	if len(list) == 0 {
		b.WriteString("No warned or failed check of this scan has a fix.\n")
		return b.String()
	}
	b.WriteString("Written for the site from what the scan saw. Values starting with REVIEW in the files are placeholders to replace before publishing.\n")
	for _, c := range list {
		f := c.Fix
		printf(&b, "\n## %s\n\n`%s` · %s · cause `%s` · steps for %s\n\n%s\n", oneLine(c.Title), c.ID, c.Status, f.Cause, oneLine(f.Platform), lines(f.Summary))
		list := func(title string, items []string) {
			if len(items) == 0 {
				return
			}
			printf(&b, "\n%s:\n\n", title)
			for _, it := range items {
				first, rest, multi := strings.Cut(it, "\n")
				printf(&b, "- %s\n", first)
				if multi {
					b.WriteString(fenced(rest, "  "))
				}
			}
		}
		list("Changes", f.Edits)
		list("On "+oneLine(f.Platform), f.PlatformSteps)
		if art := f.Artifact; art != nil {
			printf(&b, "\nFile: `%s` (%s, for %s)\n", names[c.ID], art.Kind, art.Location)
			list("Checked", art.Checked)
		}
		list("Before publishing", f.Review)
		if len(f.Verify) > 0 {
			b.WriteString("\nHow to verify:\n\n")
			for _, v := range f.Verify {
				printf(&b, "- %s\n", v.Step)
				if v.Command != nil {
					b.WriteString(fenced(*v.Command, "  "))
				}
			}
		}
		list("Notes", f.Notes)
	}
	return b.String()
}

// fenced is a code block longer-fenced than any run of backticks in s.
func fenced(s, indent string) string {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	var b strings.Builder
	b.WriteString(indent + fence + "\n")
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(indent + l + "\n")
	}
	b.WriteString(indent + fence + "\n")
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
