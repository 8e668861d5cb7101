package testsite

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The megasite's crawler traps: the events calendar, whose every month
// links the next, and the category filters, whose every page links
// further combinations.

// megaCalendarPath is the events calendar, ?month=YYYY-MM.
const megaCalendarPath = "/events/calendar"

// megaMonth is a calendar month; years run past 9999, as the trap needs.
var megaMonth = regexp.MustCompile(`^([0-9]{4,6})-([0-9]{2})$`)

// calendarPage renders one month of the events calendar, or nil for a
// month that does not parse.
func (m *megasite) calendarPage(month string) *webPage {
	t := today()
	y, mo := t.Year(), t.Month()
	if month != "" {
		sm := megaMonth.FindStringSubmatch(month)
		if sm == nil {
			return nil
		}
		y, _ = strconv.Atoi(sm[1])
		n, _ := strconv.Atoi(sm[2])
		if y < 1 || n < 1 || n > 12 {
			return nil
		}
		mo = time.Month(n)
	}
	first := time.Date(y, mo, 1, 0, 0, 0, 0, time.UTC)
	format := func(t time.Time) string { return fmt.Sprintf("%04d-%02d", t.Year(), int(t.Month())) }
	key := format(first)
	label := fmt.Sprintf("%s %d", mo, y)

	type day struct {
		Day    int
		Events []string
	}
	var events []megaEvent
	for _, e := range megaEvents() {
		if e.Month == key {
			events = append(events, e)
		}
	}
	// Weeks start on Monday; blank cells pad the first and last week.
	var weeks [][]day
	week := make([]day, (int(first.Weekday())+6)%7)
	firstSaturday := true
	for d := first; d.Month() == mo; d = d.AddDate(0, 0, 1) {
		c := day{Day: d.Day()}
		if d.Weekday() == time.Saturday && firstSaturday {
			c.Events = append(c.Events, "Repair café, 10am")
			firstSaturday = false
		}
		for _, e := range events {
			if e.When.Day() == d.Day() {
				c.Events = append(c.Events, e.Name)
			}
		}
		week = append(week, c)
		if len(week) == 7 {
			weeks = append(weeks, week)
			week = nil
		}
	}
	if len(week) > 0 {
		weeks = append(weeks, append(week, make([]day, 7-len(week))...))
	}

	extra := map[string]any{"label": label, "weeks": weeks, "next": format(first.AddDate(0, 1, 0))}
	if y > 1 || mo > 1 {
		extra["prev"] = format(first.AddDate(0, -1, 0))
	}
	path := megaCalendarPath + "?month=" + key
	return &webPage{
		Path: path, Body: "calendar.html",
		Title:       "Events calendar: " + label + " | Northwind Outfitters",
		Description: "Workshops, guided walks and repair cafés at Northwind Outfitters in " + label + ".",
		Data:        m.data("calendar", path, extra),
	}
}

type megaFacetLink struct {
	Label, Href string
	On          bool
}

// megaFacetLinks links every colour and size from a filtered category
// page: picking a value appends it, picking it again removes it. Values
// keep the order they were picked in, so every path through the filters
// is its own URL.
func megaFacetLinks(base string, colors, sizes []string) (colorLinks, sizeLinks []megaFacetLink) {
	for _, c := range megaColors {
		colorLinks = append(colorLinks, megaFacetLink{Label: c, Href: base + megaFacetQuery(megaToggle(colors, c), sizes), On: megaHas(colors, c)})
	}
	for _, s := range megaSizes {
		sizeLinks = append(sizeLinks, megaFacetLink{Label: s, Href: base + megaFacetQuery(colors, megaToggle(sizes, s)), On: megaHas(sizes, s)})
	}
	return colorLinks, sizeLinks
}

func megaFacetQuery(colors, sizes []string) string {
	var parts []string
	if len(colors) > 0 {
		parts = append(parts, "color="+strings.Join(colors, ","))
	}
	if len(sizes) > 0 {
		parts = append(parts, "size="+strings.Join(sizes, ","))
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

func megaHas(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func megaToggle(list []string, v string) []string {
	out := make([]string, 0, len(list)+1)
	for _, x := range list {
		if x != v {
			out = append(out, x)
		}
	}
	if len(out) == len(list) {
		out = append(out, v)
	}
	return out
}

// megaFacetValues reads a filter parameter: known values, first
// occurrence kept, in the order given.
func megaFacetValues(q url.Values, key string, known []string) []string {
	var out []string
	for _, raw := range q[key] {
		for _, v := range strings.Split(raw, ",") {
			if megaHas(known, v) && !megaHas(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// facetPage renders a filtered category: every matching product on one
// page, canonical to the unfiltered category as shops do.
func (m *megasite) facetPage(c *megaCat, q url.Values) *webPage {
	colors := megaFacetValues(q, "color", megaColors[:])
	sizes := megaFacetValues(q, "size", megaSizes[:])
	var products []*megaProduct
	for _, p := range c.Products {
		if (len(colors) == 0 || megaHas(colors, p.Color)) && (len(sizes) == 0 || megaAny(p.Sizes, sizes)) {
			products = append(products, p)
		}
	}
	base := "/c/" + c.Slug
	heading := c.Name
	if len(colors) > 0 {
		heading += " in " + strings.Join(colors, ", ")
	}
	if len(sizes) > 0 {
		heading += ", size " + strings.Join(sizes, ", ")
	}
	extra := map[string]any{"cat": c, "heading": heading, "products": products}
	extra["colorLinks"], extra["sizeLinks"] = megaFacetLinks(base, colors, sizes)
	return &webPage{
		Path: base + megaFacetQuery(colors, sizes), Body: "category.html", Published: 1500, Modified: 2,
		Title: heading + " | Northwind Outfitters", Description: c.Blurb,
		Data:   m.data("category", base, extra),
		Schema: megaCollection(c),
	}
}

func megaAny(have, want []string) bool {
	for _, w := range want {
		if megaHas(have, w) {
			return true
		}
	}
	return false
}

// megaSlug makes a URL slug the way CMSs do: lower case, apostrophes
