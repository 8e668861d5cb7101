package branding

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/geoscan/geoscan/internal/audit/report"
	"github.com/geoscan/geoscan/internal/store"
)

// The bounds of a branding.
const (
	MaxName      = 100
	MaxContact   = 200
	MaxFooter    = 300
	MaxLogoBytes = 256 << 10
	MaxLogoSide  = 2000
)

// The logo media types.
const (
	TypePNG = "image/png"
	TypeSVG = "image/svg+xml"
)

// Input is a branding as a customer sends it.
type Input struct {
	Name, PrimaryColor string
	// Logo is a data: URI with base64 content; empty for none.
	Logo            string
	Contact, Footer string
	ShowGeoScan     bool
}

// FieldError names the field of an Input that is wrong.
type FieldError struct {
	Param   string
	Message string
}

func (e *FieldError) Error() string { return e.Param + ": " + e.Message }

func fieldErr(param, format string, args ...any) *FieldError {
	return &FieldError{Param: param, Message: fmt.Sprintf(format, args...)}
}

var colorRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// Check turns an Input into the branding to store for orgID, or says which
// field is wrong with a *FieldError.
func Check(orgID uuid.UUID, in Input) (store.Branding, error) {
	b := store.Branding{OrgID: orgID, ShowGeoScan: in.ShowGeoScan}
	var err error
	if b.Name, err = line("name", in.Name, MaxName); err != nil {
		return store.Branding{}, err
	}
	if b.Contact, err = line("contact", in.Contact, MaxContact); err != nil {
		return store.Branding{}, err
	}
	if b.Footer, err = line("footer", in.Footer, MaxFooter); err != nil {
		return store.Branding{}, err
	}
	if c := strings.TrimSpace(in.PrimaryColor); c != "" {
		if !colorRE.MatchString(c) {
			return store.Branding{}, fieldErr("primary_color", "primary_color must be a colour written #rrggbb, such as #0a7c59.")
		}
		b.PrimaryColor = strings.ToLower(c)
	}
	if in.Logo != "" {
		if b.Logo, b.LogoType, err = Logo(in.Logo); err != nil {
			return store.Branding{}, err
		}
	}
	return b, nil
}

// line is a trimmed one-line text field of at most limit characters.
func line(param, s string, limit int) (string, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) {
		return "", fieldErr(param, "%s must be UTF-8 text.", param)
	}
	if n := utf8.RuneCountInString(s); n > limit {
		return "", fieldErr(param, "%s must be at most %d characters, not %d.", param, limit, n)
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return "", fieldErr(param, "%s must be one line of text without control characters.", param)
	}
	return s, nil
}

// Logo decodes a data: URI and checks its image: a PNG within bounds is kept
// as sent, an SVG is sanitised.
func Logo(uri string) ([]byte, string, error) {
	rest, ok := strings.CutPrefix(uri, "data:")
	meta, data, comma := strings.Cut(rest, ",")
	if !ok || !comma {
		return nil, "", fieldErr("logo", "logo must be a data: URI such as data:image/png;base64,….")
	}
	mediaType, isBase64 := strings.CutSuffix(strings.ToLower(strings.TrimSpace(meta)), ";base64")
	if !isBase64 {
		return nil, "", fieldErr("logo", "logo must be base64 data: data:image/png;base64,… or data:image/svg+xml;base64,….")
	}
	// Parameters such as charset=utf-8 say nothing the check needs.
	mediaType, _, _ = strings.Cut(mediaType, ";")
	mediaType = strings.TrimSpace(mediaType)
	if base64.StdEncoding.DecodedLen(len(data)) > MaxLogoBytes+3 {
		return nil, "", fieldErr("logo", "logo must be at most %d KiB.", MaxLogoBytes>>10)
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return nil, "", fieldErr("logo", "logo is not valid base64.")
	}
	if len(raw) > MaxLogoBytes {
		return nil, "", fieldErr("logo", "logo must be at most %d KiB.", MaxLogoBytes>>10)
	}
	switch mediaType {
	case TypePNG:
		cfg, err := png.DecodeConfig(bytes.NewReader(raw))
		if err != nil {
			return nil, "", fieldErr("logo", "logo is not a PNG image.")
		}
		if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxLogoSide || cfg.Height > MaxLogoSide {
			return nil, "", fieldErr("logo", "logo must be at most %d×%d pixels, not %d×%d.", MaxLogoSide, MaxLogoSide, cfg.Width, cfg.Height)
		}
		// The whole image is decoded too: a valid header on broken pixel
		// data would fail only later, in the PDF.
		if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
			return nil, "", fieldErr("logo", "logo is not a PNG image.")
		}
		return raw, TypePNG, nil
	case TypeSVG:
		clean, err := SanitizeSVG(raw)
		if err != nil {
			return nil, "", fieldErr("logo", "logo is not a usable SVG image: %v.", err)
		}
		return clean, TypeSVG, nil
	default:
		return nil, "", fieldErr("logo", "logo must be a PNG or SVG image (image/png or image/svg+xml), not %q.", mediaType)
	}
}

// DataURI writes a stored logo back as the data: URI the API takes.
func DataURI(logo []byte, logoType string) string {
	if len(logo) == 0 {
		return ""
	}
	return "data:" + logoType + ";base64," + base64.StdEncoding.EncodeToString(logo)
}

// Brand is the look reports and emails take from a stored branding.
func Brand(b store.Branding) report.Brand {
	return report.Brand{
		Name: b.Name, PrimaryColor: b.PrimaryColor, Logo: b.Logo, LogoType: b.LogoType,
		Contact: b.Contact, Footer: b.Footer, HideGeoScan: !b.ShowGeoScan,
	}
}

// Getter is the part of the store Load needs.
type Getter interface {
	GetBranding(ctx context.Context, orgID uuid.UUID) (store.Branding, error)
}

// Load returns the organization's brand; GeoScan's (the zero Brand) when it
// never set one.
func Load(ctx context.Context, st Getter, orgID uuid.UUID) (report.Brand, error) {
	b, err := st.GetBranding(ctx, orgID)
	if err != nil {
		return report.Brand{}, fmt.Errorf("branding: %w", err)
	}
	return Brand(b), nil
}
