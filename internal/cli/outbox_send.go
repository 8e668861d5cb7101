package cli

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/config"
	"github.com/geoscan/geoscan/internal/jobs/mail"
)

const outboxSendUsage = `Usage: geoscan outbox send [MESSAGE_ID ...] [--held] [--failed] [--org ORG_ID] [--dry-run]

Queues emails of the outbox for sending again, unchanged (same recipient, subject, body and
Message-ID), through the email job and its retries: the held ones, kept because no SMTP relay
was configured when they were built, and with --failed those the relay refused for good or on
every attempt. Each goes back to pending in the transaction that queues its job, so running
this twice, or from two terminals at once, queues each email once; one sent meanwhile is
skipped, and so is one whose scan was deleted.

The workers send them through their own GEOSCAN_SMTP_URL; this command refuses to run when
GEOSCAN_SMTP_URL is unset here, as the emails would only be held again. A worker that has no
relay holds an email again, and it can be sent later the same way.

`

// errNoRelay refuses `outbox send` without a relay: the workers would hold
// the emails again.
var errNoRelay = errors.New("no SMTP relay is configured (GEOSCAN_SMTP_URL is unset), so the emails would only be held again; " +
	"set GEOSCAN_SMTP_URL as the worker processes have it and run this again (--dry-run shows what would be queued)")

// outboxSend is `geoscan outbox send`: it queues held (and, when asked,
// failed) emails for sending again and prints what it queued.
func outboxSend(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "outbox send")
	held := fs.Bool("held", false, "queue every held email (kept while no SMTP relay was configured)")
	failed := fs.Bool("failed", false, "queue failed emails too (refused by the relay); with MESSAGE_IDs, lets the failed ones among them go")
	orgFlag := fs.String("org", "", "only this organization's emails")
	dryRun := fs.Bool("dry-run", false, "print what would be queued and change nothing")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), outboxSendUsage)
		fs.PrintDefaults()
	}
	pos, err := parseArgs(fs, args, 0, 1000)
	if err != nil {
		return err
	}
	opts := mail.RequeueOpts{Held: *held, Failed: *failed, DryRun: *dryRun}
	for _, a := range pos {
		id, err := uuid.Parse(a)
		if err != nil {
			return fmt.Errorf("%w: %q is not a message id", errUsage, a)
		}
		opts.IDs = append(opts.IDs, id)
	}
	if len(opts.IDs) == 0 && !*held && !*failed {
		return fmt.Errorf("%w: outbox send needs MESSAGE_ID arguments, --held or --failed", errUsage)
	}
	if *orgFlag != "" {
		id, err := uuid.Parse(*orgFlag)
		if err != nil {
			return fmt.Errorf("%w: --org must be an organization id", errUsage)
		}
		opts.OrgID = &id
	}
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	if cfg.SMTPURL == "" {
		if !*dryRun {
			return errNoRelay
		}
		fmt.Fprintln(e.stderr, "geoscan: GEOSCAN_SMTP_URL is unset: without --dry-run this command would refuse to queue anything")
	}
	st, queue, closeFn, err := openQueue(ctx, e)
	if err != nil {
		return err
	}
	defer closeFn()
	n := &mail.Notifier{
		Store: st, Client: queue, RetryDelays: cfg.MailRetryDelays,
		Logger: warnLogger(e),
	}
	res, err := n.Requeue(ctx, opts)
	if errors.Is(err, mail.ErrUnknownMessage) {
		return fmt.Errorf("%w; nothing was queued", err)
	}
	if err != nil {
		return err
	}
	printRequeued(e, res, opts)
	return nil
}

func printRequeued(e env, res []mail.Requeued, opts mail.RequeueOpts) {
	if len(res) == 0 {
		what := "held"
		switch {
		case opts.Held && opts.Failed:
			what = "held or failed"
		case opts.Failed:
			what = "failed"
		}
		printf(e.stdout, "no %s emails to send\n", what)
		return
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tTO\tSUBJECT\tOUTCOME")
	queued := 0
	for _, r := range res {
		outcome := "skipped: " + r.Skipped
		if r.Skipped == "" {
			queued++
			outcome = "queued"
			if opts.DryRun {
				outcome = "would be queued"
			}
		}
		m := r.Message
		printf(tw, "%s\t%s\t%s\t%s\t%s\n", m.ID, m.Status, m.Recipient, m.Subject, outcome)
	}
	_ = tw.Flush()
	if opts.DryRun {
		printf(e.stdout, "dry run: %d would be queued, %d skipped; nothing was changed\n", queued, len(res)-queued)
		return
	}
	printf(e.stdout, "%d queued for sending, %d skipped\n", queued, len(res)-queued)
}
