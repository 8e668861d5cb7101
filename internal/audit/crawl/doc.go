/*
Package crawl owns whole-site crawling: building a site's URL inventory,
sampling it so that every page template is represented, and fetching the
sample politely within hard bounds, handing each page to a visitor as it
is read. Every request goes through [fetch.Fetcher] (netguard's client,
its size and time limits); robots.txt is judged by [robots]; pages are
parsed by [page].

# Discovery

[Discover] reads robots.txt, the homepage, the sitemaps (robots.txt's
Sitemap lines and the indexes they lead to, nested up to MaxSitemapDepth;
/sitemap.xml and /sitemap_index.xml when those give nothing; the
homepage's <link rel="sitemap">), llms.txt and the homepage's links into
an [Inventory]. [Run] adds the links, redirect targets and rel=canonical
of every page it fetches. Each URL is kept once, in its [Canonicalize]d
form (tracking parameters dropped, query sorted, …), with where it was
found ([Source]) and what became of it ([State]); a page and its
canonical are merged into one.

The crawl stays on the target's host. The www and apex names are one site
only when the target redirects from one to the other; URLs elsewhere,
sitemaps on other sites and redirects to other hosts are counted
([Skip]), never followed.

# Sampling

URLs are grouped by [Template], their path with ids, dates, slugs and
hashes generalised (/blog/2024/05/some-post → /blog/{yyyy}/{mm}/{slug})
and their query parameters' names. Run requests the homepage first, then
round-robin over the path templates — the query variants of one path
(filters, sorts, pages) share its turn — wave by wave, each wave picked
only when the previous one is merged: the same site gives the same
sample. Waves start at 8 × PerHost pages and double up to 32 × PerHost,
so the first links read steer the sample and a slow page holds up few
waves. A template whose first pages all name another URL as canonical
is left after them. [Result.Sample] says how the sample was drawn and
prints as a table.

# Politeness and bounds

robots.txt is obeyed for GeoScan's token, else the * group, and its
Crawl-delay slows the rate (default 2 requests/s, at most PerHost in
flight, default 2; Unthrottled lifts the rate for tests). A 429 or 503
pauses the whole crawl for its Retry-After (or a backoff) and is retried
up to MaxTries; a Retry-After longer than MaxRetryWait ends the crawl.
Crawl traps are bounded by the pages per template, the URLs kept per
template, the path depth, repeated path segments and the page budget.
The crawl ends cleanly at the first of MaxPages, MaxBytes, the context's
deadline (or MaxDuration) and says which ([Stop]). Only URLs and a few
bytes of state per URL are kept, up to MaxURLs; pages live only for the
visitor's call.

# Streaming

[Run] hands each page to the visitor as soon as it is read, one call at
a time. The crawl reads the links it needs with the HTML tokenizer; the
full [page.Parse] runs when the visitor asks for it ([Page.HTML]), so a
visitor pays for the parses it uses, or in the workers, in parallel,
with ParsePages. PerHost bounds the requests in flight; a few more
workers read, parse and visit the pages already fetched.

# Using it

	res, err := crawl.Crawl(ctx, fetcher, target, crawl.Options{MaxPages: 200},
		func(p *crawl.Page) error {
			if doc := p.HTML(); doc != nil { // parsed on demand
				fmt.Println(p.URL, p.Template, doc.Title)
			}
			return nil
		})
	if err != nil {
		return err // cancelled, or the visitor's error
	}
	fmt.Println(res.Stop, res.Pages)
	fmt.Print(res.Sample)

[Discover] and [Run] are the two halves of [Crawl], for a caller that
looks at the inventory before crawling it.
*/
package crawl
