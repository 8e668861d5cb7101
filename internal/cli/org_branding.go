package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/geoscan/geoscan/internal/branding"
	"github.com/geoscan/geoscan/internal/store"
)

const brandingSynopsis = "org branding show|set|reset ORG_ID [--name NAME] [--color #rrggbb] [--logo FILE] [--contact TEXT] [--footer TEXT] [--show-geoscan=true|false]"

// orgBranding shows, changes or resets an organization's white-label look.
// set changes only the fields given; --logo "" removes the logo.
func orgBranding(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: %s", errUsage, brandingSynopsis)
	}
	sub := args[0]
	fs := newFlagSet(e, "org branding "+sub)
	var name, color, logo, contact, footer *string
	var show *bool
	if sub == "set" {
		name = fs.String("name", "", "the name shown instead of GeoScan (at most 100 characters)")
		color = fs.String("color", "", "the accent colour, #rrggbb")
		logo = fs.String("logo", "", `a PNG or SVG file (at most 256 KiB); "" removes the logo`)
		contact = fs.String("contact", "", "a contact line (at most 200 characters)")
		footer = fs.String("footer", "", "a footer line (at most 300 characters)")
		show = fs.Bool("show-geoscan", true, "name GeoScan beside the brand")
	}
	if !oneOf(sub, "show", "set", "reset") {
		return fmt.Errorf("%w: %s", errUsage, brandingSynopsis)
	}
	id, err := orgArg(fs, args[1:], brandingSynopsis)
	if err != nil {
		return err
	}
	st, closeFn, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	defer closeFn()
	if _, err := st.GetOrganization(ctx, id); errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no organization with id %s", id)
	} else if err != nil {
		return err
	}
	switch sub {
	case "reset":
		if err := st.ResetBranding(ctx, id); err != nil {
			return err
		}
		printf(e.stdout, "%s branding reset to GeoScan's\n", id)
		return nil
	case "set":
		cur, err := st.GetBranding(ctx, id)
		if err != nil {
			return err
		}
		in := branding.Input{
			Name: cur.Name, PrimaryColor: cur.PrimaryColor, Logo: branding.DataURI(cur.Logo, cur.LogoType),
			Contact: cur.Contact, Footer: cur.Footer, ShowGeoScan: cur.ShowGeoScan,
		}
		var readErr error
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "name":
				in.Name = *name
			case "color":
				in.PrimaryColor = *color
			case "contact":
				in.Contact = *contact
			case "footer":
				in.Footer = *footer
			case "show-geoscan":
				in.ShowGeoScan = *show
			case "logo":
				in.Logo, readErr = logoURI(*logo)
			}
		})
		if readErr != nil {
			return readErr
		}
		b, err := branding.Check(id, in)
		var fe *branding.FieldError
		if errors.As(err, &fe) {
			return fmt.Errorf("%w: %s", errUsage, fe.Message)
		}
		if err != nil {
			return err
		}
		if _, err := st.SetBranding(ctx, b); err != nil {
			return err
		}
	}
	b, err := st.GetBranding(ctx, id)
	if err != nil {
		return err
	}
	return printBranding(e, b)
}

// logoURI reads a logo file into the data: URI branding.Check takes; its
// type is read from its first bytes, and the check decides whether it is
// really that.
func logoURI(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	f, err := os.Open(path) //nolint:gosec // the operator names the file
	if err != nil {
		return "", fmt.Errorf("logo: %w", err)
	}
	defer func() { _ = f.Close() }()
	// One byte more than allowed tells a file that is too large.
	data, err := io.ReadAll(io.LimitReader(f, branding.MaxLogoBytes+1))
	if err != nil {
		return "", fmt.Errorf("logo: %w", err)
	}
	typ := branding.TypeSVG
	if bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		typ = branding.TypePNG
	}
	return "data:" + typ + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

func printBranding(e env, b store.Branding) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	row := func(k, v string) { printf(tw, "%s\t%s\n", k, v) }
	orNone := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	row("Name", orNone(b.Name))
	row("Colour", orNone(b.PrimaryColor))
	logo := "-"
	if len(b.Logo) > 0 {
		logo = fmt.Sprintf("%s, %d bytes", b.LogoType, len(b.Logo))
		if b.LogoType == branding.TypeSVG {
			logo += " (the PDF shows the name instead)"
		}
	}
	row("Logo", logo)
	row("Contact", orNone(b.Contact))
	row("Footer", orNone(b.Footer))
	shown := "yes"
	if !b.ShowGeoScan {
		shown = "no"
	}
	row("GeoScan shown", shown)
	updated := "never set: GeoScan's look"
	if !b.UpdatedAt.IsZero() {
		updated = b.UpdatedAt.UTC().Format(time.RFC3339)
	}
	row("Updated", updated)
	return tw.Flush()
}
