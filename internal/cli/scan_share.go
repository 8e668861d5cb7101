package cli

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/geoscan/geoscan/gen/client"
)

const scanShareUsage = `Usage: geoscan scan share COMMAND [flags]

  create SCAN_ID     a link to the scan's report that opens without a key; its URL is shown once
                     [--audience marketing|engineering] [--language en|de|fr|es] [--days N | --expires RFC3339]
                     [--label TEXT]
  list SCAN_ID       the scan's links (never their URLs) [--limit N] [--cursor C]
  revoke SCAN_ID SHARE_ID
                     revoke a link at once: it answers 410 Gone from then on

Every command takes --json to print the API's JSON instead of a table.
`

func scanShareCmd(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: scan share needs a command\n\n%s", errUsage, scanShareUsage)
	}
	switch args[0] {
	case "create":
		return scanShareCreate(ctx, e, args[1:])
	case "list":
		return scanShareList(ctx, e, args[1:])
	case "revoke":
		return scanShareRevoke(ctx, e, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, scanShareUsage)
		return nil
	}
	return fmt.Errorf("%w: unknown scan share command %q\n\n%s", errUsage, args[0], scanShareUsage)
}

func scanShareCreate(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan share create", "Usage: geoscan scan share create SCAN_ID [flags]\n\n"+
		"Creates a link to a completed scan's report that opens without an API key. The URL is shown\n"+
		"only now: keep it or send it on.\n")
	audience := fs.String("audience", "", "whose report the link shows: marketing (the default) or engineering")
	language := fs.String("language", "", "the page's language: en (the default), de, fr or es")
	days := fs.Int("days", 0, "days until the link stops working (the server's default is 30)")
	expires := fs.String("expires", "", "when the link stops working, RFC 3339 (instead of --days)")
	label := fs.String("label", "", "a note for yourself, such as who the link is for")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	var body client.ShareCreateRequest
	if *audience != "" {
		body.Audience = (*client.ShareCreateRequestAudience)(audience)
	}
	if *language != "" {
		body.Language = (*client.ShareCreateRequestLanguage)(language)
	}
	if *label != "" {
		body.Label = label
	}
	switch {
	case *days != 0 && *expires != "":
		return fmt.Errorf("%w: give --days or --expires, not both", errUsage)
	case *days != 0:
		body.ExpiresInDays = days
	case *expires != "":
		at, err := time.Parse(time.RFC3339, *expires)
		if err != nil {
			return fmt.Errorf("%w: --expires %q is not an RFC 3339 time", errUsage, *expires)
		}
		body.ExpiresAt = &at
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.CreateScanShareWithResponse(ctx, id, body)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusCreated); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	s := resp.JSON201
	tw := newTable(e.stdout)
	printf(tw, "URL\t%s\n", s.URL)
	printf(tw, "ID\t%s\n", s.ID)
	printf(tw, "Audience\t%s\n", s.Audience)
	printf(tw, "Language\t%s\n", s.Language)
	printf(tw, "Label\t%s\n", orDash(s.Label))
	printf(tw, "Expires\t%s\n", timeText(&s.ExpiresAt))
	if err := tw.Flush(); err != nil {
		return err
	}
	printf(e.stderr, "the URL is shown only now: anyone who has it can read the report until it expires or is revoked\n")
	return nil
}

func scanShareList(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan share list", "Usage: geoscan scan share list SCAN_ID [flags]\n\nLists a scan's share links, newest first; their URLs were shown once, when they were created.\n")
	limit := fs.Int("limit", 20, "page size (1-100)")
	cursor := fs.String("cursor", "", "the next_cursor of the previous page")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	params := &client.ListScanSharesParams{Limit: limit}
	if *cursor != "" {
		params.Cursor = cursor
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.ListScanSharesWithResponse(ctx, id, params)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	tw := newTable(e.stdout)
	fmt.Fprintln(tw, "ID\tSTATE\tAUDIENCE\tLANGUAGE\tEXPIRES\tLABEL")
	now := time.Now()
	for _, s := range resp.JSON200.Data {
		state := "live"
		switch {
		case s.RevokedAt != nil:
			state = "revoked"
		case !now.Before(s.ExpiresAt):
			state = "expired"
		}
		printf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, state, s.Audience, s.Language, timeText(&s.ExpiresAt), orDash(s.Label))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if resp.JSON200.HasMore && resp.JSON200.NextCursor != nil {
		printf(e.stderr, "more links: geoscan scan share list %s --cursor %s\n", id, *resp.JSON200.NextCursor)
	}
	return nil
}

func scanShareRevoke(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan share revoke", "Usage: geoscan scan share revoke SCAN_ID SHARE_ID\n\nRevokes a share link at once.\n")
	pos, err := parseArgs(fs, args, 2, 2)
	if err != nil {
		return err
	}
	scanID, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	shareID, err := parseID(pos[1], "share id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.RevokeScanShareWithResponse(ctx, scanID, shareID)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusNoContent); err != nil {
		return err
	}
	if a.json {
		return nil // 204: the API sends no JSON
	}
	printf(e.stdout, "revoked share link %s\n", shareID)
	return nil
}
