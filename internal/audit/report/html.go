package report

import (
	"time"

	"github.com/geoscan/geoscan/gen/api"
)

// The HTML report: the stored report of one audience, served at a share
// link to people without an API key. It is written with html/template
// (so scanned-site text is escaped by context), draws its charts as inline
// SVG, runs no script, and is meant to be sent with HTMLHeaders.

// HTMLInput is what the HTML report shows.
type HTMLInput struct {
	// Report is the stored report of the share's audience
	// (Stored.For).
	Report api.Report
	// Triage is the scan's dossier; nil when it has none.
	Triage *api.TriageDossier
	// History is the overall and ring scores of earlier completed scans of
	// the same site, oldest first, this scan last; it draws the trend.
	History []HistoryPoint
	// Brand is the organization's look; the zero Brand is GeoScan's.
	Brand Brand
	// Language is the report's language tag ("en", "de", "fr", "es").
	Language string
	// Expires is when the share link stops working, shown in the footer.
	Expires time.Time
	// AgentReadiness is the agent-readiness lens to show (the stored
	// report's Stored.AgentReadiness); nil shows the one Report carries,
	// if any.
	AgentReadiness *AgentReadiness
}

// HistoryPoint is one earlier scan's scores.
type HistoryPoint struct {
	At                                 time.Time
	Overall, Search, Visibility, Trust int
}

// Brand is an organization's white-label look, used by the PDF, the HTML
// report and the emails.
type Brand struct {
	// Name replaces "GeoScan" as the report's author when set.
	Name string
	// PrimaryColor is a #rrggbb colour; empty is GeoScan's.
	PrimaryColor string
	// Logo is a PNG, or an SVG already sanitised, with its media type.
	Logo     []byte
	LogoType string
	// Contact and Footer are plain text lines.
	Contact, Footer string
	// HideGeoScan leaves GeoScan's name out of what the reader sees.
	HideGeoScan bool
}
