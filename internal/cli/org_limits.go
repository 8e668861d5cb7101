package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/planlimits"
	"github.com/geoscan/geoscan/internal/store"
)

// overrideFlag is one --limit flag: a number, or "plan" to drop the
// organization's own value; unset leaves it as it is.
type overrideFlag struct {
	set   bool
	value *int32
	// min and max bound the value; max 0 is 1000000.
	min, max int
}

func (f *overrideFlag) String() string {
	if f == nil || f.value == nil {
		return "plan"
	}
	return strconv.Itoa(int(*f.value))
}

func (f *overrideFlag) Set(s string) error {
	f.set = true
	if s == "plan" {
		f.value = nil
		return nil
	}
	top := f.max
	if top == 0 {
		top = 1_000_000
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < int64(f.min) || n > int64(top) {
		return fmt.Errorf("must be an integer from %d to %d, or plan", f.min, top)
	}
	v := int32(n)
	f.value = &v
	return nil
}

// rateOverrideFlag is the --crawl-rate flag: requests per second, or
// "plan" to drop the organization's own value; unset leaves it as it is.
type rateOverrideFlag struct {
	set   bool
	value *float64
}

func (f *rateOverrideFlag) String() string {
	if f == nil || f.value == nil {
		return "plan"
	}
	return strconv.FormatFloat(*f.value, 'f', -1, 64)
}

func (f *rateOverrideFlag) Set(s string) error {
	f.set = true
	if s == "plan" {
		f.value = nil
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0 && v <= planlimits.MaxCrawlRate) {
		return fmt.Errorf("must be a number above 0 and at most %g, or plan", planlimits.MaxCrawlRate)
	}
	f.value = &v
	return nil
}

// orgSetLimits is `geoscan org set-limits ORG_ID [--api-read N]
// [--api-write N] [--daily-scans N] [--schedules N] [--crawl-rate R]
// [--crawl-concurrency N] [--clear]`. The
// overrides are read per request (daily scans, schedules), and the change
// of an organization is announced to every API process, which rereads its
// rate limits (within 5 s if it missed the announcement); no restart is
// needed; a crawl's politeness applies to the scans that start after it.
func orgSetLimits(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "org set-limits")
	read := &overrideFlag{min: 1}
	write := &overrideFlag{min: 1}
	daily := &overrideFlag{min: 0}
	schedules := &overrideFlag{min: 0}
	crawlRate := &rateOverrideFlag{}
	crawlConcurrency := &overrideFlag{min: 1, max: planlimits.MaxCrawlConcurrency}
	fs.Var(read, "api-read", "GET requests per minute (api_read), or plan")
	fs.Var(write, "api-write", "POST, PATCH and DELETE requests per minute (api_write), or plan")
	fs.Var(daily, "daily-scans", "scans per UTC day (0 stops new scans), or plan")
	fs.Var(schedules, "schedules", "active schedules, or plan")
	fs.Var(crawlRate, "crawl-rate", "requests per second a whole-site audit's crawl makes to the site (at most 20), or plan")
	fs.Var(crawlConcurrency, "crawl-concurrency", "requests a whole-site audit's crawl has in flight at once (1 to 16), or plan")
	clearAll := fs.Bool("clear", false, "drop every override first: the plan's limits apply except those given with it")
	id, err := orgArg(fs, args, "org set-limits ORG_ID [--api-read N] [--api-write N] [--daily-scans N] [--schedules N] [--crawl-rate R] [--crawl-concurrency N] [--clear]")
	if err != nil {
		return err
	}
	if !*clearAll && !read.set && !write.set && !daily.set && !schedules.set && !crawlRate.set && !crawlConcurrency.set {
		return fmt.Errorf("%w: org set-limits needs at least one limit or --clear", errUsage)
	}
	st, closeFn, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer closeFn()
	var org store.Organization
	err = st.InTx(ctx, func(tx *store.Store) error {
		if err := tx.LockOrganization(ctx, id); err != nil {
			return err
		}
		cur, err := tx.GetOrganization(ctx, id)
		if err != nil {
			return err
		}
		o := cur.Overrides
		if *clearAll {
			o = planlimits.Overrides{}
		}
		apply := func(dst **int32, f *overrideFlag) {
			if f.set {
				*dst = f.value
			}
		}
		apply(&o.ReadPerMinute, read)
		apply(&o.WritePerMinute, write)
		apply(&o.DailyScans, daily)
		apply(&o.ActiveSchedules, schedules)
		apply(&o.CrawlConcurrency, crawlConcurrency)
		if crawlRate.set {
			o.CrawlRate = crawlRate.value
		}
		org, err = tx.SetOverrides(ctx, id, o)
		return err
	})
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no organization with id %s", id)
		}
		return err
	}
	printf(e.stdout, "%s limits (in force at once; rate limits within a second):\n", org.ID)
	return printLimits(e, org)
}

// orgShow is `geoscan org show ORG_ID`: plan, subscription, limits with
// their overrides, today's usage, members and keys.
func orgShow(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "org show")
	id, err := orgArg(fs, args, "org show ORG_ID")
	if err != nil {
		return err
	}
	st, closeFn, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer closeFn()
	org, err := st.GetOrganization(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no organization with id %s", id)
	}
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	used, err := st.DailyUsage(ctx, id, now)
	if err != nil {
		return err
	}
	active, err := st.CountActiveSchedules(ctx, id)
	if err != nil {
		return err
	}
	members, err := st.ListMembers(ctx, id)
	if err != nil {
		return err
	}
	keys, err := st.ListAPIKeys(ctx, id)
	if err != nil {
		return err
	}
	live := 0
	for _, k := range keys {
		if k.RevokedAt == nil {
			live++
		}
	}
	limits := store.Limits(org)
	printf(e.stdout, "Organization  %s (%s)\n", org.ID, org.Name)
	printf(e.stdout, "Plan          %s, subscription %s\n", org.Plan, org.SubscriptionStatus)
	printf(e.stdout, "Created       %s\n\n", org.CreatedAt.UTC().Format(time.RFC3339))
	if err := printLimits(e, org); err != nil {
		return err
	}
	printf(e.stdout, "\nUsage on %s (UTC): %d of %d scans; %d of %d active schedules\n",
		now.Format("2006-01-02"), used, limits.DailyScans, active, limits.ActiveSchedules)
	printf(e.stdout, "API keys: %d active, %d revoked\n\nMembers:\n", live, len(keys)-live)
	if len(members) == 0 {
		fmt.Fprintln(e.stdout, "  none (schedule emails go only to notify_to addresses; geoscan member add)")
		return nil
	}
	return printMembers(e, members)
}

func orgArg(fs *flag.FlagSet, args []string, synopsis string) (uuid.UUID, error) {
	// The id may come before or after the flags.
	var rest []string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		rest, args = args[:1], args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return uuid.Nil, err
	}
	rest = append(rest, fs.Args()...)
	if len(rest) != 1 {
		return uuid.Nil, fmt.Errorf("%w: %s", errUsage, synopsis)
	}
	id, err := uuid.Parse(rest[0])
	if err != nil {
		return uuid.Nil, fmt.Errorf("%w: %q is not an organization id", errUsage, rest[0])
	}
	return id, nil
}

func printLimits(e env, org store.Organization) error {
	defaults := planlimits.Defaults(org.Plan)
	limits := store.Limits(org)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LIMIT\tPLAN\tOVERRIDE\tIN FORCE")
	row := func(name string, planValue int, override *int32, inForce int) {
		o := "-"
		if override != nil {
			o = strconv.Itoa(int(*override))
		}
		printf(tw, "%s\t%d\t%s\t%d\n", name, planValue, o, inForce)
	}
	row("daily scans", defaults.DailyScans, org.Overrides.DailyScans, limits.DailyScans)
	row("active schedules", defaults.ActiveSchedules, org.Overrides.ActiveSchedules, limits.ActiveSchedules)
	row("api_write per minute", defaults.WritePerMinute, org.Overrides.WritePerMinute, limits.WritePerMinute)
	row("api_read per minute", defaults.ReadPerMinute, org.Overrides.ReadPerMinute, limits.ReadPerMinute)
	rate := "-"
	if org.Overrides.CrawlRate != nil {
		rate = strconv.FormatFloat(*org.Overrides.CrawlRate, 'f', -1, 64)
	}
	printf(tw, "%s\t%s\t%s\t%s\n", "crawl requests per second", strconv.FormatFloat(defaults.CrawlRate, 'f', -1, 64), rate,
		strconv.FormatFloat(limits.CrawlRate, 'f', -1, 64))
	row("crawl requests in flight", defaults.CrawlConcurrency, org.Overrides.CrawlConcurrency, limits.CrawlConcurrency)
	return tw.Flush()
}
