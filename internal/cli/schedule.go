package cli

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"time"

	"github.com/geoscan/geoscan/gen/client"
)

const scheduleUsage = `Usage: geoscan schedule COMMAND [flags]

  create URL      scan a homepage every month or quarter [--frequency monthly|quarterly] [--brand NAME]
                  [--notify-email=false] [--notify-to EMAIL] [--language en|de|fr|es] [--competitor URL ...]
  list            the organization's schedules [--active true|false] [--limit N] [--cursor C]
  get ID          one schedule
  update ID       change it [--frequency F] [--notify-email=BOOL] [--notify-to EMAIL|owner] [--active=BOOL]
                  [--competitor URL ... (replaces the list) | --no-competitors]
  delete ID       deactivate it (it stops running and frees a slot)
  runs ID         what each period did: the scan and its score, or why it was skipped, and the email
                  [--limit N] [--cursor C]

  tick            operators: create the scans due now and exit, against DATABASE_URL, not the API
                  [--at RFC3339] [--org ORG_ID]; the servers' scheduler does this every minute

Every command takes --json to print the API's JSON instead of a table.
`

func scheduleCmd(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: schedule needs a command\n\n%s", errUsage, scheduleUsage)
	}
	switch args[0] {
	case "create":
		return scheduleCreate(ctx, e, args[1:])
	case "list":
		return scheduleList(ctx, e, args[1:])
	case "get":
		return scheduleGet(ctx, e, args[1:])
	case "update":
		return scheduleUpdate(ctx, e, args[1:])
	case "delete":
		return scheduleDelete(ctx, e, args[1:])
	case "runs":
		return scheduleRuns(ctx, e, args[1:])
	case "tick":
		return scheduleTick(ctx, e, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, scheduleUsage)
		return nil
	}
	return fmt.Errorf("%w: unknown schedule command %q\n\n%s", errUsage, args[0], scheduleUsage)
}

// setFlags names the flags given on the command line, so an update sends
// only what the user asked to change.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

func printSchedule(e env, s *client.Schedule) error {
	tw := newTable(e.stdout)
	printf(tw, "ID\t%s\n", s.ID)
	printf(tw, "URL\t%s\n", s.URL)
	printf(tw, "Brand\t%s\n", s.BrandName)
	printf(tw, "Frequency\t%s\n", s.Frequency)
	if s.Language != nil {
		printf(tw, "Language\t%s\n", *s.Language)
	}
	printf(tw, "Active\t%t\n", s.Active)
	printf(tw, "Email notification\t%t\n", s.NotifyEmail)
	to := "the owner"
	if s.NotifyTo != nil {
		to = *s.NotifyTo
	}
	printf(tw, "Email to\t%s\n", to)
	printList(tw, "Competitors", s.Competitors)
	printf(tw, "Next run\t%s\n", timeText(s.NextRunAt))
	printf(tw, "Last run\t%s\n", timeText(s.LastRunAt))
	printf(tw, "Last scan\t%s\n", orDash(s.LastScanID))
	if s.LastSkipReason != nil {
		printf(tw, "Last skipped\t%s (%s)\n", timeText(s.LastSkippedAt), *s.LastSkipReason)
	}
	printf(tw, "Created\t%s\n", timeText(&s.CreatedAt))
	return tw.Flush()
}

func scheduleCreate(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "schedule create", "Usage: geoscan schedule create URL [flags]\n\nSchedules a recurring scan of a homepage. An existing schedule of the same URL is returned unchanged.\n")
	frequency := fs.String("frequency", "", "monthly or quarterly (the server's default: quarterly)")
	brand := fs.String("brand", "", "brand name (default: the registrable domain)")
	notify := fs.Bool("notify-email", true, "email the organization after each scheduled scan")
	notifyTo := fs.String("notify-to", "", "the address the emails go to (default: the key's member, else the organization's owner)")
	idem := fs.String("idempotency-key", "", "makes retrying this command safe")
	language := fs.String("language", "", "the language of its scans' reports and emails: en, de, fr or es (default: the site's declared language when one of these, else en)")
	var competitors stringList
	fs.Var(&competitors, "competitor", competitorUsage)
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	set := setFlags(fs)
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	body := client.ScheduleCreateRequest{URL: pos[0]}
	if *frequency != "" {
		fr := client.ScheduleCreateRequestFrequency(*frequency)
		body.Frequency = &fr
	}
	if *brand != "" {
		body.BrandName = brand
	}
	if set["notify-email"] {
		body.NotifyEmail = notify
	}
	if set["notify-to"] {
		body.NotifyTo = notifyTo
	}
	if *language != "" {
		// The API names the languages it supports when it refuses one.
		body.Language = (*client.ScheduleCreateRequestLanguage)(language)
	}
	if len(competitors) > 0 {
		body.Competitors = (*[]string)(&competitors)
	}
	var params *client.CreateScheduleParams
	if *idem != "" {
		params = &client.CreateScheduleParams{IdempotencyKey: idem}
	}
	resp, err := a.c.CreateScheduleWithResponse(ctx, params, body)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusCreated, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	s := resp.JSON201
	if s == nil {
		s = resp.JSON200
		fmt.Fprintln(e.stderr, "a schedule of this URL already exists; it is unchanged (geoscan schedule update to change it)")
	}
	return printSchedule(e, s)
}

func scheduleList(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "schedule list", "Usage: geoscan schedule list [flags]\n\nLists the organization's schedules, newest first.\n")
	active := fs.String("active", "", "only active (true) or inactive (false) schedules")
	limit := fs.Int("limit", 20, "page size (1-100)")
	cursor := fs.String("cursor", "", "the next_cursor of the previous page")
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	params := &client.ListSchedulesParams{Limit: limit}
	switch *active {
	case "":
	case "true", "false":
		b := *active == "true"
		params.Active = &b
	default:
		return fmt.Errorf("%w: --active must be true or false", errUsage)
	}
	if *cursor != "" {
		params.Cursor = cursor
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.ListSchedulesWithResponse(ctx, params)
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
	fmt.Fprintln(tw, "ID\tACTIVE\tFREQUENCY\tNEXT RUN\tURL")
	for _, s := range resp.JSON200.Data {
		next := "-"
		if s.NextRunAt != nil {
			next = s.NextRunAt.UTC().Format(time.RFC3339)
		}
		printf(tw, "%s\t%t\t%s\t%s\t%s\n", s.ID, s.Active, s.Frequency, next, s.URL)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if resp.JSON200.HasMore && resp.JSON200.NextCursor != nil {
		printf(e.stderr, "more schedules: geoscan schedule list --cursor %s\n", *resp.JSON200.NextCursor)
	}
	return nil
}

func scheduleGet(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "schedule get", "Usage: geoscan schedule get ID [--json]\n")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "schedule id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.GetScheduleWithResponse(ctx, id)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	return printSchedule(e, resp.JSON200)
}

func scheduleUpdate(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "schedule update", "Usage: geoscan schedule update ID [flags]\n\nChanges only the settings given.\n")
	frequency := fs.String("frequency", "", "monthly or quarterly")
	notify := fs.Bool("notify-email", true, "email the organization after each scheduled scan")
	notifyTo := fs.String("notify-to", "", "the address the emails go to; owner sends them to the owner again")
	active := fs.Bool("active", true, "run the schedule (false pauses it)")
	var competitors stringList
	fs.Var(&competitors, "competitor", "a competitor's site to benchmark against; repeat it for each: the sites given replace the schedule's list")
	noCompetitors := fs.Bool("no-competitors", false, "remove the schedule's competitors")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "schedule id")
	if err != nil {
		return err
	}
	set := setFlags(fs)
	var body client.ScheduleUpdateRequest
	if *frequency != "" {
		fr := client.ScheduleUpdateRequestFrequency(*frequency)
		body.Frequency = &fr
	}
	if set["notify-email"] {
		body.NotifyEmail = notify
	}
	if set["active"] {
		body.Active = active
	}
	if set["notify-to"] {
		if *notifyTo == "owner" {
			body.NotifyTo.SetNull()
		} else {
			body.NotifyTo.Set(*notifyTo)
		}
	}
	switch {
	case len(competitors) > 0 && *noCompetitors:
		return fmt.Errorf("%w: give --competitor or --no-competitors, not both", errUsage)
	case len(competitors) > 0:
		body.Competitors = (*[]string)(&competitors)
	case *noCompetitors:
		body.Competitors = &[]string{}
	}
	if body.Frequency == nil && body.NotifyEmail == nil && body.Active == nil && !set["notify-to"] && body.Competitors == nil {
		return fmt.Errorf("%w: schedule update needs at least one of --frequency, --notify-email, --notify-to, --active, --competitor, --no-competitors", errUsage)
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.UpdateScheduleWithResponse(ctx, id, body)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	return printSchedule(e, resp.JSON200)
}

func scheduleDelete(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "schedule delete", "Usage: geoscan schedule delete ID [--json]\n\nDeactivates the schedule; it stops running and frees a slot under the plan's limit.\n")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "schedule id")
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.DeleteScheduleWithResponse(ctx, id)
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	if a.json {
		return a.printJSON(resp.Body)
	}
	return printSchedule(e, resp.JSON200)
}

func scheduleRuns(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "schedule runs", "Usage: geoscan schedule runs ID [flags]\n\nLists what each period of the schedule did, newest first.\n")
	limit := fs.Int("limit", 20, "page size (1-100)")
	cursor := fs.String("cursor", "", "the next_cursor of the previous page")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	id, err := parseID(pos[0], "schedule id")
	if err != nil {
		return err
	}
	params := &client.ListScheduleRunsParams{Limit: limit}
	if *cursor != "" {
		params.Cursor = cursor
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.ListScheduleRunsWithResponse(ctx, id, params)
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
	fmt.Fprintln(tw, "DUE\tOUTCOME\tSCAN\tSTATUS\tSCORE\tTRIES\tEMAIL")
	for _, r := range resp.JSON200.Data {
		outcome := string(r.Outcome)
		if r.SkipReason != nil {
			outcome += " (" + *r.SkipReason + ")"
		}
		score := "-"
		if r.OverallScore != nil {
			score = fmt.Sprintf("%.1f %s", *r.OverallScore, orDash(r.OverallGrade))
		}
		email := orDash(r.EmailStatus)
		if r.EmailDetail != nil {
			email += ": " + *r.EmailDetail
		}
		printf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.DueAt.UTC().Format(time.RFC3339), outcome,
			orDash(r.ScanID), orDash(r.ScanStatus), score, r.Attempts, email)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if resp.JSON200.HasMore && resp.JSON200.NextCursor != nil {
		printf(e.stderr, "more runs: geoscan schedule runs %s --cursor %s\n", id, *resp.JSON200.NextCursor)
	}
	return nil
}
