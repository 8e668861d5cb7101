// Package crawlerlog owns the analysis of a site's web-server access logs
// for AI and search crawlers: which crawlers really visit, from addresses
// their operators confirm, which pages they fetch and what the site
// answers them. It reads a log as a stream (Analyze), in bounded memory,
// whatever its format and however damaged, parsing on up to
// Options.Workers goroutines; it never stores, fetches or queues anything:
// its caller stores the Result.
//
// # Formats
//
// Each line is read in the format it fits, so files that mix formats are
// read whole: the Common Log Format family (common, combined, the vhost
// variants of Apache and nginx, with trailing fields such as the request
// time ignored), W3C extended logs (IIS, CloudFront standard logs, with
// or without their #Fields header) and JSON lines (Cloudflare Logpush,
// CloudFront real-time logs, Fastly, Vercel log drains). A line that fits
// none is counted by reason (Result.Unparsed), never fatal. A file saved
// as UTF-16 is decoded; a compressed file is refused with ErrCompressed.
//
// # Verification
//
// A user agent naming a product token of robots.Agents is a claim. It is
// verified the way the operator documents: its published IP ranges
// (embedded from ranges/, with a manifest of sources and dates; refreshed
// by cmd/refresh-ranges) and forward-confirmed reverse DNS where the
// operator documents it (through Options.Resolver, within
// Options.MaxLookups). Only the connecting address counts: X-Forwarded-For
// and similar fields are written by the client and never trusted.
//
// # Cross-checks
//
// CrossCheck sets a Result beside the site's robots.txt (refusals of
// crawlers robots.txt allows, such as a WAF blocking OAI-SearchBot) and
// the pages the audit knows (pages no AI search crawler requested).
//
//	res, err := crawlerlog.Analyze(ctx, logReader, crawlerlog.Options{
//		Domain:   "www.example.com",
//		Resolver: net.DefaultResolver,
//	})
//	if err != nil {
//		return err
//	}
//	cc := crawlerlog.CrossCheck(res, robotsTxt, robotsFetched, pageURLs)
package crawlerlog
