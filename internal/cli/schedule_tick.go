package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/jobs/scanner"
	"github.com/geoscan/geoscan/internal/jobs/schedule"
)

// scheduleTick is `geoscan schedule tick [--at RFC3339]`: an operator's
// run of the scheduler against the database, outside any server. It
// creates the scans due at the instant (now by default) and exits; the
// row locks that make concurrent ticks safe make a repeat for the same
// instant create nothing.
func scheduleTick(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "schedule tick")
	at := fs.String("at", "", "serve the schedules due at this instant (RFC 3339, e.g. 2027-03-01T00:00:00Z); default now")
	orgFlag := fs.String("org", "", "serve only this organization's schedules")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var orgID *uuid.UUID
	if *orgFlag != "" {
		id, err := uuid.Parse(*orgFlag)
		if err != nil {
			return fmt.Errorf("%w: --org must be an organization id", errUsage)
		}
		orgID = &id
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: schedule tick takes no arguments", errUsage)
	}
	instant := time.Now().UTC()
	if *at != "" {
		t, err := time.Parse(time.RFC3339, *at)
		if err != nil {
			return fmt.Errorf("%w: --at must be an RFC 3339 time such as 2027-03-01T00:00:00Z", errUsage)
		}
		instant = t.UTC()
	}
	st, queue, closeFn, err := openQueue(ctx, e)
	if err != nil {
		return err
	}
	defer closeFn()
	sched := &schedule.Scheduler{
		Store: st, Scans: &scanner.Queuer{Client: queue},
		Logger: warnLogger(e),
	}
	var (
		runs    []schedule.Run
		tickErr error
	)
	if orgID != nil {
		runs, tickErr = sched.TickOrg(ctx, instant, *orgID)
	} else {
		runs, tickErr = sched.Tick(ctx, instant)
	}
	printRuns(e, runs, instant)
	return tickErr
}

func printRuns(e env, runs []schedule.Run, at time.Time) {
	if len(runs) == 0 {
		printf(e.stdout, "no schedule due at %s\n", at.Format(time.RFC3339))
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCHEDULE\tDUE\tOUTCOME\tSCAN OR REASON\tNEXT RUN")
	created := 0
	for _, r := range runs {
		outcome, detail := "scanned", ""
		if r.ScanID != nil {
			created++
			detail = r.ScanID.String()
		} else {
			outcome, detail = "skipped", r.SkipReason
		}
		printf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ScheduleID, r.DueAt.Format(time.RFC3339), outcome, detail, r.NextRunAt.Format(time.RFC3339))
	}
	_ = tw.Flush()
	printf(e.stdout, "%d scans created, %d runs skipped at %s\n", created, len(runs)-created, at.Format(time.RFC3339))
}
