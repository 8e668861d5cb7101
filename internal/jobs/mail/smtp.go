package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Envelope is one email to send.
type Envelope struct {
	// MessageID is stable across retries (the outbox id), so a receiving
	// server can drop a duplicate when an attempt's reply was lost.
	MessageID string
	From      string
	To        string
	Subject   string
	Text      string
	HTML      string
}

// Sender sends an email; Permanent tells a refusal worth no retry.
type Sender interface {
	Send(ctx context.Context, e Envelope) error
}

// SMTPTimeout bounds one attempt: connect, TLS, authentication and data.
const SMTPTimeout = 30 * time.Second

// SMTP sends through a relay named by a GEOSCAN_SMTP_URL.
type SMTP struct {
	host string
	opts []gomail.Option
}

// NewSMTP reads smtp://[user[:password]@]host[:port] (STARTTLS: required
// when credentials are given, so they never cross in clear, used when
// offered otherwise; port 587 by default) or smtps://… (TLS from the first
// byte; port 465). roots verifies the relay's certificate; nil means the
// system roots. Errors never repeat the URL, which carries a password.
func NewSMTP(rawURL string, roots *x509.CertPool) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, errors.New("GEOSCAN_SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…")
	}
	host := u.Hostname()
	s := &SMTP{host: host}
	s.opts = append(s.opts,
		gomail.WithTimeout(SMTPTimeout),
		gomail.WithTLSConfig(&tls.Config{ServerName: host, RootCAs: roots, MinVersion: tls.VersionTLS12}),
	)
	port := 587
	if u.Scheme == "smtps" {
		port = 465
		s.opts = append(s.opts, gomail.WithSSL())
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, errors.New("GEOSCAN_SMTP_URL has an invalid port")
		}
	}
	s.opts = append(s.opts, gomail.WithPort(port))
	if u.User != nil && u.User.Username() != "" {
		password, _ := u.User.Password()
		s.opts = append(s.opts, gomail.WithTLSPolicy(gomail.TLSMandatory),
			gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(password))
	} else if u.Scheme == "smtp" {
		s.opts = append(s.opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	return s, nil
}

// Send makes one attempt: plain text with an HTML alternative.
func (s *SMTP) Send(ctx context.Context, e Envelope) error {
	m := gomail.NewMsg()
	if err := m.From(e.From); err != nil {
		return permanent{fmt.Errorf("from address: %w", err)}
	}
	if err := m.To(e.To); err != nil {
		return permanent{fmt.Errorf("recipient address: %w", err)}
	}
	m.Subject(e.Subject)
	if e.MessageID != "" {
		domain := "geoscan.invalid"
		if a, err := netmail.ParseAddress(e.From); err == nil {
			if _, d, ok := strings.Cut(a.Address, "@"); ok {
				domain = d
			}
		}
		m.SetMessageIDWithValue(e.MessageID + "@" + domain)
	}
	m.SetDate()
	m.SetBodyString(gomail.TypeTextPlain, e.Text)
	m.AddAlternativeString(gomail.TypeTextHTML, e.HTML)
	c, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, SMTPTimeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		var se *gomail.SendError
		if errors.As(err, &se) && se.ErrorCode() >= 500 {
			return permanent{err}
		}
		return err
	}
	return nil
}

// permanent marks an error a retry cannot fix: the relay refused the
// message or an address for good (5xx), or an address is malformed.
type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// Permanent reports whether retrying err is pointless.
func Permanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}
