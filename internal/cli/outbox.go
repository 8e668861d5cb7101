package cli

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/store"
)

// outbox is `geoscan outbox list|show|send`: the emails GeoScan built,
// sent or not; without an SMTP relay they wait here (status held) until
// `outbox send` queues them.
func outbox(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: outbox needs a subcommand: list, show or send", errUsage)
	}
	switch args[0] {
	case "send":
		return outboxSend(ctx, e, args[1:])
	case "list":
		fs := newFlagSet(e, "outbox list")
		orgFlag := fs.String("org", "", "only this organization's emails")
		status := fs.String("status", "", "only emails in this state: pending, sent, held or failed")
		limit := fs.Int("limit", 50, "most emails listed, newest first (1-1000)")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		var f store.OutboxFilter
		if *orgFlag != "" {
			id, err := uuid.Parse(*orgFlag)
			if err != nil {
				return fmt.Errorf("%w: --org must be an organization id", errUsage)
			}
			f.OrgID = &id
		}
		if *status != "" {
			if !oneOf(*status, store.EmailPending, store.EmailSent, store.EmailHeld, store.EmailFailed) {
				return fmt.Errorf("%w: --status must be pending, sent, held or failed", errUsage)
			}
			f.Status = status
		}
		if *limit < 1 || *limit > 1000 {
			return fmt.Errorf("%w: --limit must be between 1 and 1000", errUsage)
		}
		st, closeFn, err := openStore(ctx, e)
		if err != nil {
			return err
		}
		defer closeFn()
		msgs, err := st.ListOutboxMessages(ctx, f, *limit)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tCREATED\tSTATUS\tATTEMPTS\tTO\tSUBJECT\tSCAN")
		for _, m := range msgs {
			scan := "-"
			if m.ScanID != nil {
				scan = m.ScanID.String()
			}
			printf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", m.ID, m.CreatedAt.UTC().Format(time.RFC3339), m.Status, m.Attempts, m.Recipient, m.Subject, scan)
		}
		return tw.Flush()
	case "show":
		pos, err := positional(e, "outbox show", "MESSAGE_ID", "Prints a notification email as built: recipient, subject, status and text.", args[1:], 1)
		if err != nil {
			return err
		}
		id, err := uuid.Parse(pos[0])
		if err != nil {
			return fmt.Errorf("%w: %q is not a message id", errUsage, pos[0])
		}
		st, closeFn, err := openStore(ctx, e)
		if err != nil {
			return err
		}
		defer closeFn()
		m, err := st.GetOutboxMessage(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no outbox message with id %s", id)
		}
		if err != nil {
			return err
		}
		printf(e.stdout, "To: %s\nSubject: %s\nStatus: %s (%d attempts)\nCreated: %s\n", m.Recipient, m.Subject, m.Status, m.Attempts, m.CreatedAt.UTC().Format(time.RFC3339))
		if m.LastError != nil {
			printf(e.stdout, "Last error: %s\n", *m.LastError)
		}
		printf(e.stdout, "\n%s", lines(m.TextBody))
		return nil
	}
	return fmt.Errorf("%w: unknown outbox subcommand %q", errUsage, args[0])
}
