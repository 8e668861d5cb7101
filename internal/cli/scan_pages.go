package cli

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/geoscan/geoscan/gen/client"
)

// scanPages lists the pages of a whole-site audit, as GET
// /scans/{id}/pages does, with its filters and sorts.
func scanPages(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "scan pages", "Usage: geoscan scan pages ID [flags]\n\nLists the pages a whole-site audit judged, in crawl order unless --sort says otherwise.\n")
	status := fs.String("status", "", "only pages with this status: audited, redirect, not_html or error")
	check := fs.String("check", "", "only pages where this check failed or warned")
	group := fs.String("group", "", "only pages of this template, e.g. /blog/{yyyy}/{mm}/{slug}")
	scoreLt := fs.String("score-lt", "", "only pages scored below this")
	sort := fs.String("sort", "", "position (default), url, score or -score")
	limit := fs.Int("limit", 20, "page size (1-100)")
	cursor := fs.String("cursor", "", "the next_cursor of the previous page")
	all := fs.Bool("all", false, "follow the cursor through every page (tables only)")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "scan id")
	if err != nil {
		return err
	}
	params := &client.ListScanPagesParams{Limit: limit}
	if *status != "" {
		st := client.PageStatus(*status)
		params.Status = &st
	}
	if *check != "" {
		params.Check = check
	}
	if *group != "" {
		params.Group = group
	}
	if *scoreLt != "" {
		v, err := strconv.ParseFloat(*scoreLt, 64)
		if err != nil {
			return fmt.Errorf("%w: --score-lt must be a number", errUsage)
		}
		params.ScoreLt = &v
	}
	if *sort != "" {
		s := client.ListScanPagesParamsSort(*sort)
		params.Sort = &s
	}
	if *cursor != "" {
		params.Cursor = cursor
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	tw := newTable(e.stdout)
	if !a.json {
		printf(tw, "ID\tSTATUS\tHTTP\tSCORE\tGROUP\tURL\n")
	}
	for {
		resp, err := a.c.ListScanPagesWithResponse(ctx, id, params)
		if err != nil {
			return err
		}
		if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
			return err
		}
		if a.json {
			return a.printJSON(resp.Body)
		}
		page := resp.JSON200
		for _, p := range page.Data {
			score := "-"
			if p.Score != nil {
				score = strconv.FormatFloat(*p.Score, 'f', 1, 64)
			}
			printf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", p.ID, p.Status, p.HTTPStatus, score, p.Group, p.URL)
		}
		if !page.HasMore || page.NextCursor == nil {
			break
		}
		if !*all {
			if err := tw.Flush(); err != nil {
				return err
			}
			printf(e.stderr, "more pages: geoscan scan pages %s --cursor %s\n", id, *page.NextCursor)
			return nil
		}
		params.Cursor = page.NextCursor
	}
	return tw.Flush()
}
