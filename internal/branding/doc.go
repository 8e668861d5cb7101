// Package branding checks an organization's white-label look on its way in
// and turns the stored one into the report's [report.Brand].
//
// Everything a customer sends ends up in PDFs, HTML reports and emails that
// other people open, so the text fields are bounded plain text, the colour is
// #rrggbb, and the logo is either a PNG that decodes within bounds or an SVG
// rebuilt from an allow-list of drawing elements and presentation attributes
// (see [SanitizeSVG]): nothing that runs, loads or embeds something else is
// kept.
package branding
