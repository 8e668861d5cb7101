/*
Package audit is the audit engine's one entry point: [Run] reads a site,
asks answer engines about its brand, runs the GEO checks, scores them,
builds the Site Triage dossier, writes the report for both audiences with
the fixes written for the site, keeps a snapshot of what it read, and
returns all of it with the time each stage took. It touches no database,
no queue and no HTTP handler, so the scan job, the triage recomputation,
the CLI, benchmarks and tests all audit a site the same way: by calling
Run.

# The pipeline

	fetch ─▶ answer engines ─▶ checks ─▶ scores ─▶ dossier ─▶ report (+ fixes) ─▶ snapshot
	(read)   (ask)            (judge)              (write up)

Each stage is a package below this one, and each computes on what the
stages before it produced:

  - Reading the site: [fetch] downloads the homepage, robots.txt, sitemaps,
    llms.txt and key pages through netguard's client; [page] parses HTML,
    [jsonld] reads schema.org data, [robots] evaluates robots.txt for the
    AI crawlers. With [Options.Renderer], [render] loads the homepage (and
    a whole-site audit's sample of pages) in a browser and compares each
    with its HTML, so the checks judge what only JavaScript adds from what
    a browser showed; [Result.Rendering] says which pages were rendered.
  - Asking answer engines: [llm] owns the engines an operator configures
    and one audit's session of calls (budget, cache, concurrency);
    [mentions] asks the brand probes and judges the answers. Given
    [Options.Competitors], their sites are read and judged first (at the
    site's page budget, within a share of its fetch budget) and their
    brands are read for in the same buyer answers: [Result.Competitors]
    and [Result.ShareOfVoice] (competitors.go).
  - Judging: [checks] owns the check catalog and evaluates every check on
    the site; [scoring] owns the rubric (rings, pillars, weights, gates,
    grades). [Score] is the one place outcomes become scores.
  - Writing it up: [triage] builds the dossier of what the site is made
    of and who runs it; [report] builds the report (and renders its PDF);
    [fixes] writes, for the platform the dossier names, what to change on
    the site for each warned or failed check, which the report carries.

A failure to read the homepage is Run's error; everything the engine can
say about a site it could read, including what it could not measure, ends
in a [Result].

# Using it

	site, _ := url.Parse("https://example.com/")
	res, err := audit.Run(ctx, audit.Target{URL: site, BrandName: "Example"}, audit.Options{
		Fetcher:     fetcher,        // fetch.New(...)
		FetchBudget: 50 * time.Second,
		AI:          layer,          // nil: AI checks not measured, template summaries
	})
	if err != nil {
		var home *fetch.HomeError
		if errors.As(err, &home) {
			return home // the site could not be read: home.Message says why
		}
		return err
	}
	fmt.Println(res.Scores.Overall, res.Scores.OverallGrade.Grade)

[Options.Language] is the language the scan asked for; Run resolves it
with the homepage's declared language (i18n.Resolve, as the scan job
stores it) into [Result.Language]. The answer engines are asked the brand
and buyer questions in it when it is German, French or Spanish, and the
summaries, by the default engine or from templates, are written in it;
the rest of the report is stored in English.

The caller keeps what it needs: the scan job (internal/jobs/scanner) stores
the scores, check rows, report, dossier and snapshot in one transaction.
With [Options.Prior] Run recomputes only the dossier of an earlier audit,
from its stored outcomes and snapshot; the triage recompute job uses it.

# Where new things go

  - A new check: the file of its pillar in [checks], its definition above
    its evaluator, its weight scale in [scoring]'s rubric, and
    docs/SCORING.md (a test holds the catalog and that page together). Run
    picks it up through checks.Run; nothing here changes.
  - A new fetch (another file or page the checks read): [fetch], as a new
    Purpose of the site it reads, bounded like the others by its limits.
    What the checks read of it goes on [checks.Input] through [fetch.Site].
  - A new answer engine: an [llm.Engine] (an OpenAI-compatible endpoint is
    configuration, not code); the layer is handed to Run in [Options.AI].
  - A new report section: [report] for the report's body (and its PDF), or
    [triage] for facts about how the site is built; both are stored in the
    contract's shape, so the section starts in openapi.yaml.
  - A fix for a check: a writer in [fixes] for its id, deciding by the
    cause the scan saw; an artifact it offers is read back with the
    project's own readers and checks first. Platform steps live in
    fixes/platform.go.
  - A new stage: a package under internal/audit that computes on what the
    stages before it return, called from Run, with its time in [Timings].

The packages under internal/audit may not import the store, the generated
database code, River, the jobs or the HTTP shell; the linter enforces it.
*/
package audit
