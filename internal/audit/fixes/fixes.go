// Package fixes owns the fixes written for one site. From what an audit saw
// (the fetched site, the check outcomes with their evidence, and the
// platform Site Triage detected) it writes, for each warned or failed check
// where the cause is known, what to change: an artifact filled in with the
// site's own facts when one can be made (a robots.txt patch against the
// site's own file, an llms.txt draft, JSON-LD, head tags, a sitemap stub),
// the steps on the site's platform, and how to verify the change.
//
// Advice follows the cause the scan saw, not the check: a robots.txt that
// answers 5xx is a server fault with no rule to delete; a robots.txt that
// answers 404 blocks nobody. Every artifact is read back with the
// project's own readers and checks before it is offered (the robots.txt
// evaluation with Google's matcher, the JSON-LD reader and the structured
// data checks, the llms.txt check, the sitemap reader); one that does not
// pass is left out and the fix says so. Text taken from the site is data:
// it is escaped for the syntax it lands in (JSON, HTML, Markdown, XML,
// robots.txt lines, shell words).
package fixes

import (
	"github.com/geoscan/geoscan/internal/audit/checks"
	"github.com/geoscan/geoscan/internal/audit/fetch"
	"github.com/geoscan/geoscan/internal/audit/triage"
)

// Cause is what the scan found behind a warned or failed check; it decides
// the kind of fix.
type Cause string

// The causes.
const (
	// RobotsRule: a rule of robots.txt blocks crawlers that should get in.
	RobotsRule Cause = "robots_rule"
	// RobotsServerError: robots.txt answered 5xx (or 429, or not at all),
	// which makes crawlers stay away from the whole site; the server is at
	// fault, not a rule.
	RobotsServerError Cause = "robots_server_error"
	// RobotsMissing: robots.txt answered 404 (or another 4xx): nothing is
	// blocked, but there is no policy and no Sitemap record.
	RobotsMissing Cause = "robots_missing"
	// RobotsRefused: the edge refused the request for robots.txt.
	RobotsRefused Cause = "robots_refused"
	// RobotsHTML: an HTML page answers at /robots.txt (a catch-all route).
	RobotsHTML Cause = "robots_html"
	// RobotsSyntax: lines of robots.txt crawlers skip.
	RobotsSyntax Cause = "robots_syntax"
	// RobotsOversize: robots.txt is larger than crawlers read.
	RobotsOversize Cause = "robots_oversize"
	// RetiredTokens: groups name crawler tokens no crawler uses any more.
	RetiredTokens Cause = "robots_retired_tokens"
	// SitemapUnlisted: a sitemap exists but robots.txt does not name it.
	SitemapUnlisted Cause = "sitemap_unlisted"
	// SitemapMissing: no readable sitemap was found.
	SitemapMissing Cause = "sitemap_missing"
	// SitemapFault: sitemaps exist but some cannot be read or are too large.
	SitemapFault Cause = "sitemap_fault"
	// EdgeBlock: the CDN or firewall turns AI crawler user agents away.
	EdgeBlock Cause = "edge_block"
	// LLMsTxtMissing: there is no /llms.txt.
	LLMsTxtMissing Cause = "llms_txt_missing"
	// LLMsTxtCatchAll: an HTML page answers at /llms.txt.
	LLMsTxtCatchAll Cause = "llms_txt_catch_all"
	// LLMsTxtServerError: /llms.txt answered 5xx or could not be fetched.
	LLMsTxtServerError Cause = "llms_txt_server_error"
	// LLMsTxtInvalid: /llms.txt does not follow the llmstxt.org layout.
	LLMsTxtInvalid Cause = "llms_txt_invalid"
	// MarkupMissing: the schema.org entities the check looks for are absent.
	MarkupMissing Cause = "markup_missing"
	// MarkupIncomplete: they are present but lack properties.
	MarkupIncomplete Cause = "markup_incomplete"
	// MarkupBroken: JSON-LD blocks do not parse.
	MarkupBroken Cause = "markup_broken"
	// TagMissing: a head tag (title, meta description, canonical) is absent.
	TagMissing Cause = "tag_missing"
	// TagWeak: the tag is there but too short, too long, generic or
	// without the brand.
	TagWeak Cause = "tag_weak"
	// TagConflict: the page declares conflicting or wrong values.
	TagConflict Cause = "tag_conflict"
)

// Said is a text for each audience of the report.
type Said struct {
	Marketing, Engineering string
}

// ArtifactKind says what to do with an artifact.
type ArtifactKind string

// The kinds of artifact.
const (
	// File is published as it is at Location.
	File ArtifactKind = "file"
	// Patch is a unified diff against the site's own file at Location,
	// with the line numbers of the file the scan read.
	Patch ArtifactKind = "patch"
	// Snippet is markup that goes into the page at Location (its <head>).
	Snippet ArtifactKind = "snippet"
)

// Artifact is a file written for the site.
type Artifact struct {
	// Filename is a bare file name: letters, digits, dot, dash, underscore.
	Filename  string
	MediaType string
	Kind      ArtifactKind
	// Location is the URL the file is served at, or of the page the
	// snippet goes into.
	Location string
	Content  string
	// Checked says how the artifact was read back before it was offered.
	Checked []string
}

// Verification is one way to see that a fix took effect.
type Verification struct {
	Step Said
	// Command is a shell command (curl) for engineers; "" when the step is
	// done by hand or by running the scan again.
	Command string
}

// Fix is what to change for one check of one site.
type Fix struct {
	CheckID string
	Cause   Cause
	Summary Said
	// Platform names the platform the steps are written for ("WordPress",
	// "Next.js" …) or is "generic".
	Platform string
	// Edits are the changes to the site's own files, line by line, for
	// engineers; PlatformSteps say where to make them on the platform.
	Edits         []string
	PlatformSteps []string
	Artifact      *Artifact
	Verify        []Verification
	// Review lists the values in the artifact to check or replace before
	// publishing; each placeholder in it starts with "REVIEW:".
	Review []string
	// Notes say what limits the fix: weak evidence, what the scan could
	// not see.
	Notes []string
}

// Platform is what the site is built with, as Site Triage names it.
type Platform struct {
	CMS, Builder, Framework string
	// Technologies are the other technologies recognised (CDNs, bot
	// management, SEO plugins).
	Technologies []string
	// Known is false when no dossier could be built.
	Known bool
}

// PlatformOf reads the platform from a dossier; nil (the dossier could not
// be built) is an unknown platform.
func PlatformOf(d *triage.Stored) Platform {
	if d == nil {
		return Platform{}
	}
	p := d.Engineering.Platform
	out := Platform{Known: true}
	for dst, v := range map[*string]*string{&out.CMS: p.Cms, &out.Builder: p.PageBuilder, &out.Framework: p.JsFramework} {
		if v != nil {
			*dst = *v
		}
	}
	for _, t := range p.Technologies {
		out.Technologies = append(out.Technologies, t.Name)
	}
	return out
}

// Input is what fixes are written from.
type Input struct {
	Site     *fetch.Site
	Outcomes []checks.Outcome
	// BrandName is the brand the scan was made for; the site's own name
	// (og:site_name, its Organization) is preferred where it states one.
	BrandName string
	Platform  Platform
}

// writer writes the fix of one check; nil when it has none for this
// outcome.
type writer func(s *scan, o checks.Outcome) *Fix

// writers are the checks fixes are written for, by check id.
var writers = map[string]writer{
	"robots_txt_fetchable":     robotsFetchableFix,
	"robots_txt_syntax":        robotsSyntaxFix,
	"ai_search_bots_allowed":   robotsAccessFix,
	"ai_user_fetchers_allowed": robotsAccessFix,
	"stale_ai_tokens":          staleTokensFix,
	"edge_bot_reachability":    edgeFix,
	"sitemap_present":          sitemapFix,
	"llms_txt_present":         llmsTxtFix,
	"llms_txt_valid":           llmsTxtFix,
	"jsonld_valid":             siteEntitiesFix,
	"schema_site_entities":     siteEntitiesFix,
	"organization_entity":      siteEntitiesFix,
	"sameas_profiles":          siteEntitiesFix,
	"schema_page_type_match":   pageTypeFix,
	"schema_required_props":    requiredPropsFix,
	"title_quality":            titleFix,
	"meta_description":         descriptionFix,
	"canonical_valid":          canonicalFix,
}

// write runs one writer; one that panics writes no fix rather than costing
// the scan its report.
func write(w writer, s *scan, o checks.Outcome) (f *Fix) {
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	return w(s, o)
}

// Generate writes the fixes of a site's warned and failed checks, in the
// order of the outcomes. A check without a writer, or whose cause the scan
// could not tell, gets none.
func Generate(in Input) []Fix {
	if in.Site == nil {
		return nil
	}
	s := newScan(in)
	var out []Fix
	for _, o := range in.Outcomes {
		if o.Check == nil || (o.Result.Status != checks.Warn && o.Result.Status != checks.Fail) {
			continue
		}
		w := writers[o.Check.ID]
		if w == nil {
			continue
		}
		f := write(w, s, o)
		if f == nil {
			continue
		}
		f.CheckID = o.Check.ID
		s.finish(f)
		out = append(out, *f)
	}
	return out
}
