package webhook

import (
	"context"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/netguard"
	"github.com/geoscan/geoscan/internal/store"
)

// names maps test host names to addresses; anything else does not resolve.
type names map[string][]string

func (n names) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	addrs, ok := n[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]net.IPAddr, 0, len(addrs))
	for _, a := range addrs {
		out = append(out, net.IPAddr{IP: net.ParseIP(a)})
	}
	return out, nil
}

var hostileNames = names{
	"inward.example.com":   {"127.0.0.1"},
	"mixed.example.com":    {"93.184.216.38", "10.0.0.1"},
	"v6inward.example.com": {"::1"},
	"mapped.example.com":   {"::ffff:127.0.0.1"},
	"metadata.example.com": {"169.254.169.254"},
}

// hostileCallbacks are refused at send time whatever was checked when the
// scan was created: the production guard is on (no AllowPrivate).
var hostileCallbacks = []string{
	"https://127.0.0.1/hook",
	"https://127.255.255.254/",
	"https://10.0.0.1/",
	"https://172.16.0.1/",
	"https://172.31.255.255/",
	"https://192.168.0.1/",
	"https://169.254.169.254/latest/meta-data/",
	"https://100.64.0.1/",
	"https://100.100.100.200/",
	"https://224.0.0.1/",
	"https://0.0.0.0/",
	"https://[::1]/",
	"https://[::]/",
	"https://[::ffff:127.0.0.1]/",
	"https://[::ffff:7f00:1]/",
	"https://[::ffff:169.254.169.254]/",
	"https://[fd00:ec2::254]/",
	"https://[fe80::1]/",
	"https://2130706433/",
	"https://0x7f000001/",
	"https://127.1/",
	"https://0177.0.0.1/",
	"https://inward.example.com/",
	"https://mixed.example.com/",
	"https://v6inward.example.com/",
	"https://mapped.example.com/",
	"https://metadata.example.com/",
}

func guardedWorker(t *testing.T) *Worker {
	t.Helper()
	c, err := netguard.NewClient(netguard.ClientOptions{Timeout: Timeout, UserAgent: UserAgent, Resolver: hostileNames})
	require.NoError(t, err)
	return &Worker{Client: c, Targets: netguard.Policy{Resolver: hostileNames}, Schedule: DefaultSchedule}
}

func TestHostileCallbacksRefusedAtSendTime(t *testing.T) {
	t.Parallel()
	w := guardedWorker(t)
	for _, u := range hostileCallbacks {
		t.Run(u, func(t *testing.T) {
			t.Parallel()
			d := store.DeliveryToSend{Secret: "whsec_dGVzdA=="}
			d.ID, d.URL, d.Event, d.Payload = uuid.New(), u, EventCompleted, []byte(`{}`)
			res := w.attempt(context.Background(), d, time.Now())
			require.False(t, res.Delivered)
			require.True(t, res.Blocked(), "class %q: %v", res.Class, res.Err)
			require.Nil(t, res.StatusCode)
		})
	}
}

// The dial-time guard alone refuses too: a URL that somehow skipped the
// send-time check (or a name that rebinds between check and dial) never
// gets a connection.
func TestDialGuardRefusesWithoutURLCheck(t *testing.T) {
	t.Parallel()
	w := guardedWorker(t)
	for _, u := range []string{"https://127.0.0.1/", "https://10.0.0.1/", "https://169.254.169.254/", "https://[::1]/", "https://[::ffff:127.0.0.1]/", "https://inward.example.com/"} {
		res := Send(context.Background(), w.Client, Delivery{ID: uuid.NewString(), URL: u, Event: EventTest, Secret: "whsec_dGVzdA==", Body: []byte(`{}`)}, time.Now())
		require.True(t, res.Blocked(), "%s: class %q: %v", u, res.Class, res.Err)
	}

	// A listener on loopback sees no connection from either path.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	for _, u := range []string{"https://127.0.0.1:" + port + "/", "https://inward.example.com:" + port + "/"} {
		res := Send(context.Background(), w.Client, Delivery{ID: uuid.NewString(), URL: u, Event: EventTest, Secret: "whsec_dGVzdA==", Body: []byte(`{}`)}, time.Now())
		require.True(t, res.Blocked(), "%s: class %q: %v", u, res.Class, res.Err)
		d := store.DeliveryToSend{Secret: "whsec_dGVzdA=="}
		d.ID, d.URL, d.Event, d.Payload = uuid.New(), u, EventCompleted, []byte(`{}`)
		require.True(t, w.attempt(context.Background(), d, time.Now()).Blocked())
	}
	require.Zero(t, accepted.Load(), "no connection reached the loopback listener")
}

func TestSchedule(t *testing.T) {
	t.Parallel()
	s := DefaultSchedule
	require.Equal(t, 4, s.MaxAttempts())
	require.Equal(t, 5*time.Second, s.Delay(1))
	require.Equal(t, 25*time.Second, s.Delay(2))
	require.Equal(t, 125*time.Second, s.Delay(3))
	require.Equal(t, 125*time.Second, s.Delay(9), "a rescued job past the schedule waits the longest delay")
	require.Equal(t, 1, Schedule(nil).MaxAttempts())
}
