// Package mailtest is an SMTP server for tests (go-smtp on loopback) that
// keeps what it receives, decoded, and can refuse messages on demand.
package mailtest

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"
)

// Options shape the server's answers.
type Options struct {
	// RefuseFirst answers the first n DATA commands with 451 (try later).
	RefuseFirst int
	// Reject answers RCPT TO for these addresses with 550 (no such user).
	Reject []string
	// TLS offers STARTTLS with this configuration.
	TLS *tls.Config
	// Username and Password, when set, are required through AUTH PLAIN,
	// which the server offers only over TLS.
	Username, Password string
}

// Message is one received email, decoded.
type Message struct {
	From    string
	To      []string
	Header  mail.Header
	Subject string
	Text    string
	HTML    string
	Raw     []byte
}

// Server is a running test SMTP server.
type Server struct {
	Addr string

	mu       sync.Mutex
	opts     Options
	msgs     []Message
	attempts int
	logins   int
	errs     []error
}

// Start runs a server on 127.0.0.1 until the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	s := &Server{opts: opts}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "mail.test"
	srv.TLSConfig = opts.TLS
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s.Addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// URL is the GEOSCAN_SMTP_URL of the server.
func (s *Server) URL() string { return "smtp://" + s.Addr }

// Messages returns what was accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Attempts counts DATA commands, refused ones included.
func (s *Server) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

// Errors lists messages that could not be decoded.
func (s *Server) Errors() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]error(nil), s.errs...)
}

type session struct {
	s      *Server
	from   string
	to     []string
	authed bool
}

// AuthMechanisms offers PLAIN when credentials are configured; go-smtp
// offers it only on a TLS connection.
func (ss *session) AuthMechanisms() []string {
	if ss.s.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != ss.s.opts.Username || password != ss.s.opts.Password {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "bad credentials"}
		}
		ss.authed = true
		ss.s.mu.Lock()
		ss.s.logins++
		ss.s.mu.Unlock()
		return nil
	}), nil
}

// Logins counts successful authentications.
func (s *Server) Logins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.opts.Username != "" && !ss.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	for _, r := range ss.s.opts.Reject {
		if strings.EqualFold(r, to) {
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
		}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s := ss.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.attempts++
	if s.attempts <= s.opts.RefuseFirst {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	m, err := decode(raw)
	if err != nil {
		s.errs = append(s.errs, err)
		return err
	}
	m.From, m.To = ss.from, append([]string(nil), ss.to...)
	s.msgs = append(s.msgs, m)
	return nil
}

// decode reads the subject and the text and HTML parts of a message.
func decode(raw []byte) (Message, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Message{}, fmt.Errorf("read message: %w", err)
	}
	out := Message{Header: msg.Header, Raw: raw}
	if out.Subject, err = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil {
		return Message{}, fmt.Errorf("subject: %w", err)
	}
	err = walk(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body, &out)
	return out, err
}

func walk(contentType, encoding string, body io.Reader, out *Message) error {
	mediaType, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return fmt.Errorf("content type %q: %w", contentType, err)
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := walk(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, out); err != nil {
				return err
			}
		}
	}
	r := body
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	case "base64":
		r = newBase64Reader(body)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("decode %s part: %w", mediaType, err)
	}
	// Lines end in CRLF on the wire; tests compare with Go strings.
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	switch mediaType {
	case "text/plain":
		out.Text = text
	case "text/html":
		out.HTML = text
	}
	return nil
}

// newBase64Reader decodes base64 split over lines.
func newBase64Reader(r io.Reader) io.Reader {
	return base64.NewDecoder(base64.StdEncoding, &lineStripper{r: r})
}

// lineStripper drops line breaks, which base64 bodies carry every 76
// characters.
type lineStripper struct{ r io.Reader }

func (l *lineStripper) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	j := 0
	for _, c := range p[:n] {
		if c != '\r' && c != '\n' {
			p[j] = c
			j++
		}
	}
	return j, err
}
