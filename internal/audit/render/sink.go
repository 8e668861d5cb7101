package render

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
)

// sink is the browser's proxy: a loopback listener that accepts each
// connection and closes it at once. Every request is meant to be answered
// through interception; one that is not (a worker's, a service worker's, a
// connection Chrome opens on its own) reaches this proxy instead of the
// network and fails there. The browser is told to send loopback traffic
// through it too, so nothing dials out directly.
type sink struct {
	ln       net.Listener
	accepted atomic.Int64
	wg       sync.WaitGroup
}

func newSink(ctx context.Context) (*sink, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &sink{ln: ln}
	s.wg.Add(1)
	go s.serve()
	return s, nil
}

func (s *sink) serve() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		s.accepted.Add(1)
		_ = c.Close()
	}
}

// addr is the proxy's host:port.
func (s *sink) addr() string { return s.ln.Addr().String() }

func (s *sink) close() {
	_ = s.ln.Close()
	s.wg.Wait()
}
