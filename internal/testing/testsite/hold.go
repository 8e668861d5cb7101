package testsite

import "sync"

// Hold makes a site's HTTPS requests wait until release is called (or the
// request is cancelled, or the server closes): a scan can then be caught
// mid-fetch, as the worker-crash test needs. Release may be called more
// than once.
func (s *Server) Hold(site string) (release func()) {
	f := s.sites[site]
	if f == nil {
		panic("testsite: unknown site " + site)
	}
	gate := make(chan struct{})
	s.mu.Lock()
	if s.holds == nil {
		s.holds = map[string]chan struct{}{}
	}
	s.holds[site] = gate
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			if s.holds[site] == gate {
				delete(s.holds, site)
			}
			s.mu.Unlock()
			close(gate)
		})
	}
}

// held returns the gate a site's requests wait on, or nil.
func (s *Server) held(site string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holds[site]
}
