package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/jobs/mail"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/web/auth"
)

func org(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: org needs a subcommand: create, set-subscription, set-limits, show or branding", errUsage)
	}
	switch args[0] {
	case "set-limits":
		return orgSetLimits(ctx, e, args[1:])
	case "show":
		return orgShow(ctx, e, args[1:])
	case "branding":
		return orgBranding(ctx, e, args[1:])
	case "create":
		fs := newFlagSet(e, "org create")
		name := fs.String("name", "", "organization name (required)")
		planName := fs.String("plan", "free", "plan: free or pro")
		inactive := fs.Bool("inactive", false, "create without an active subscription")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		if strings.TrimSpace(*name) == "" {
			return fmt.Errorf("%w: --name is required", errUsage)
		}
		if !oneOf(*planName, "free", "pro") {
			return fmt.Errorf("%w: --plan must be free or pro", errUsage)
		}
		st, closeFn, err := openStore(ctx, e)
		if err != nil {
			return err
		}
		defer closeFn()
		o, err := st.CreateOrganization(ctx, strings.TrimSpace(*name), *planName, !*inactive)
		if err != nil {
			return err
		}
		printf(e.stdout, "%s\n", o.ID)
		return nil
	case "set-subscription":
		pos, err := positional(e, "org set-subscription", "ORG_ID active|inactive", "Turns an organization's subscription on or off; without one, its scans answer 402 subscription_required.", args[1:], 2)
		if err != nil {
			return err
		}
		if !oneOf(pos[1], "active", "inactive") {
			return fmt.Errorf("%w: org set-subscription ORG_ID active|inactive", errUsage)
		}
		id, err := uuid.Parse(pos[0])
		if err != nil {
			return fmt.Errorf("%w: %q is not an organization id", errUsage, pos[0])
		}
		st, closeFn, err := openStore(ctx, e)
		if err != nil {
			return err
		}
		defer closeFn()
		o, err := st.SetSubscription(ctx, id, store.SubscriptionStatus(pos[1]) == store.SubscriptionActive)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no organization with id %s", id)
		}
		if err != nil {
			return err
		}
		printf(e.stdout, "%s subscription %s\n", o.ID, o.SubscriptionStatus)
		return nil
	}
	return fmt.Errorf("%w: unknown org subcommand %q", errUsage, args[0])
}

func key(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: key needs a subcommand: create, list or revoke", errUsage)
	}
	switch args[0] {
	case "create", "list":
		fs := newFlagSet(e, "key "+args[0])
		orgID := fs.String("org", "", "organization id (required)")
		name := fs.String("name", "", "a label for the key")
		memberEmail := ""
		if args[0] == "create" {
			fs.StringVar(&memberEmail, "member", "", "email of the member the key belongs to (geoscan member add)")
		}
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		id, err := uuid.Parse(*orgID)
		if err != nil {
			return fmt.Errorf("%w: --org must be an organization id", errUsage)
		}
		st, closeFn, err := openStore(ctx, e)
		if err != nil {
			return err
		}
		defer closeFn()
		if _, err := st.GetOrganization(ctx, id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no organization with id %s", id)
			}
			return err
		}
		if args[0] == "create" {
			var memberID *uuid.UUID
			if memberEmail != "" {
				m, err := st.GetMemberByEmail(ctx, id, memberEmail)
				if errors.Is(err, store.ErrNotFound) {
					return fmt.Errorf("organization %s has no member %s (geoscan member add)", id, memberEmail)
				}
				if err != nil {
					return err
				}
				memberID = &m.ID
			}
			k, err := createKey(ctx, st, id, memberID, *name)
			if err != nil {
				return err
			}
			// The key alone on stdout, so scripts can capture it.
			printf(e.stdout, "%s\n", k)
			return nil
		}
		keys, err := st.ListAPIKeys(ctx, id)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tKEY\tNAME\tCREATED\tLAST USED\tREVOKED")
		for _, k := range keys {
			printf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.DisplayPrefix, k.Name, k.CreatedAt.UTC().Format(time.RFC3339), fmtTime(k.LastUsedAt), fmtTime(k.RevokedAt))
		}
		return tw.Flush()
	case "revoke":
		pos, err := positional(e, "key revoke", "KEY_ID", "Revokes an API key: every API process refuses it within a second.", args[1:], 1)
		if err != nil {
			return err
		}
		id, err := uuid.Parse(pos[0])
		if err != nil {
			return fmt.Errorf("%w: %q is not a key id", errUsage, pos[0])
		}
		st, closeFn, err := openStore(ctx, e)
		if err != nil {
			return err
		}
		defer closeFn()
		k, err := st.RevokeAPIKey(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no api key with id %s", id)
		}
		if err != nil {
			return err
		}
		printf(e.stdout, "%s revoked at %s\n", k.ID, fmtTime(k.RevokedAt))
		return nil
	}
	return fmt.Errorf("%w: unknown key subcommand %q", errUsage, args[0])
}

// createKey issues a key for an organization and stores what is kept of
// it; the key itself is returned, the only time it exists.
func createKey(ctx context.Context, st *store.Store, orgID uuid.UUID, memberID *uuid.UUID, name string) (string, error) {
	k, err := auth.Issue()
	if err != nil {
		return "", err
	}
	if _, err := st.CreateAPIKey(ctx, store.NewAPIKey{OrgID: orgID, MemberID: memberID, Name: name, Hash: k.Hash, DisplayPrefix: k.Display}); err != nil {
		return "", err
	}
	return k.Key, nil
}

func fmtTime(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func member(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: member needs a subcommand: add or list", errUsage)
	}
	switch args[0] {
	case "add", "list":
		fs := newFlagSet(e, "member "+args[0])
		orgID := fs.String("org", "", "organization id (required)")
		var email, name, role *string
		if args[0] == "add" {
			email = fs.String("email", "", "the member's email address (required)")
			name = fs.String("name", "", "the member's name")
			role = fs.String("role", store.RoleMember, "owner or member; an owner gets the emails of schedules no member created")
		}
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		id, err := uuid.Parse(*orgID)
		if err != nil {
			return fmt.Errorf("%w: --org must be an organization id", errUsage)
		}
		if args[0] == "add" {
			if _, err := mail.ParseAddress(*email); err != nil {
				return fmt.Errorf("%w: --email %w", errUsage, err)
			}
			if !oneOf(*role, store.RoleOwner, store.RoleMember) {
				return fmt.Errorf("%w: --role must be owner or member", errUsage)
			}
		}
		st, closeFn, err := openStore(ctx, e)
		if err != nil {
			return err
		}
		defer closeFn()
		if args[0] == "add" {
			m, err := st.CreateMember(ctx, id, *email, strings.TrimSpace(*name), *role)
			switch {
			case errors.Is(err, store.ErrNotFound):
				return fmt.Errorf("no organization with id %s", id)
			case errors.Is(err, store.ErrConflict):
				return fmt.Errorf("organization %s already has a member %s", id, *email)
			case err != nil:
				return err
			}
			printf(e.stdout, "%s\n", m.ID)
			return nil
		}
		if _, err := st.GetOrganization(ctx, id); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no organization with id %s", id)
			}
			return err
		}
		members, err := st.ListMembers(ctx, id)
		if err != nil {
			return err
		}
		return printMembers(e, members)
	}
	return fmt.Errorf("%w: unknown member subcommand %q", errUsage, args[0])
}

func printMembers(e env, members []store.Member) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tEMAIL\tNAME\tROLE\tCREATED")
	for _, m := range members {
		printf(tw, "%s\t%s\t%s\t%s\t%s\n", m.ID, m.Email, m.Name, m.Role, m.CreatedAt.UTC().Format(time.RFC3339))
	}
	return tw.Flush()
}
