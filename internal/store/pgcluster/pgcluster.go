// Package pgcluster runs private PostgreSQL clusters with the server
// binaries (initdb, pg_ctl, postgres): the persistent development cluster of
// `geoscan dev` and the throwaway clusters of the tests. PostgreSQL refuses
// to run as root, so as root the binaries run as the postgres system user,
// as a developer's laptop would run them as the developer.
package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// InstallHint is the error message when the server binaries are missing.
const InstallHint = "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or under /usr/lib/postgresql/*/bin; " +
	"install them with: sudo apt-get install -y postgresql (Debian/Ubuntu), brew install postgresql@16 (macOS), " +
	"or set DATABASE_URL to an existing database"

// debianBinGlob is where Debian and Ubuntu install the server binaries, one
// directory per major version, none of them on PATH.
const debianBinGlob = "/usr/lib/postgresql/*/bin"

// Options describe a cluster.
type Options struct {
	// Dir is the data directory; it is created if absent, and a cluster is
	// initialised in it unless it already holds one.
	Dir string
	// Port is the loopback TCP port; 0 picks a free one at each start.
	Port int
	// Logf receives progress messages; nil discards them.
	Logf func(format string, args ...any)

	// search replaces PATH and the Debian layout, so tests can point the
	// binary search at nothing without touching the environment.
	search *binSearch
}

type binSearch struct {
	path string // a PATH-style list
	glob string // version directories, highest first
}

// Cluster is a cluster in a data directory, running once Start returns it.
type Cluster struct {
	dir     string // absolute
	logPath string
	port    int
	bin     string
	runAs   *account // the postgres user when we are root, else nil
	logf    func(string, ...any)
	// removeRoot is what Remove deletes: the data directory, or the whole
	// temporary directory of an ephemeral cluster.
	removeRoot string
}

// account is the system user the server binaries run as.
type account struct {
	name   string
	uid    uint32
	gid    uint32
	groups []uint32 // supplementary groups, the primary one included
	home   string
}

// Start creates the cluster in o.Dir if needed and starts it, returning once
// it accepts connections.
//
// A data directory has one owner at a time. A server still running in it is
// a leftover of a process that exited without Stop (a crash, a killed test
// binary); it is stopped rather than adopted, because its port and settings
// may not be this start's and the returned Cluster must own the server its
// Stop stops. A postmaster.pid naming a process that is not a server of
// this directory (its PID reused since) is removed; one naming a dead
// process is left for the new server, which replaces it after checking that
// nothing still holds the dead server's shared memory.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	c, err := newCluster(o)
	if err != nil {
		return nil, err
	}
	if err := c.prepare(ctx); err != nil {
		return nil, err
	}
	if err := c.start(ctx, o.Port); err != nil {
		c.cleanUpFailedStart(ctx)
		return nil, err
	}
	if err := c.waitReady(ctx); err != nil {
		c.cleanUpFailedStart(ctx)
		return nil, err
	}
	c.logf("PostgreSQL listening on 127.0.0.1:%d (data in %s)", c.port, c.dir)
	return c, nil
}

// cleanUpFailedStart stops what a failed or cancelled start may have left
// running: pg_ctl gave up waiting, or was stopped after forking the server.
func (c *Cluster) cleanUpFailedStart(ctx context.Context) {
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	_ = c.stopLeftover(stopCtx)
}

// StartEphemeral starts a throwaway cluster in a new directory under the
// system temporary directory; Stop then Remove deletes it. Clusters there
// whose owning process is gone (a test binary killed by its timeout never
// runs its cleanup) are stopped and deleted first.
func StartEphemeral(ctx context.Context, logf func(format string, args ...any)) (*Cluster, error) {
	return startEphemeral(ctx, Options{Logf: logf})
}

const (
	ephemeralPrefix = "geoscan-pg-"
	ownerFile       = "owner.pid" // the PID of the process that started the cluster
)

func startEphemeral(ctx context.Context, o Options) (*Cluster, error) {
	sweepAbandoned(ctx, o)
	root, err := os.MkdirTemp("", ephemeralPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("start ephemeral cluster: %w", err)
	}
	// MkdirTemp makes it 0700; the postgres user must be able to pass through.
	err = os.Chmod(root, 0o711) //nolint:gosec // traversal only, nothing is listable
	if err == nil {
		err = os.WriteFile(filepath.Join(root, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600)
	}
	if err != nil {
		_ = os.RemoveAll(root)
		return nil, fmt.Errorf("start ephemeral cluster: %w", err)
	}
	o.Dir = filepath.Join(root, "data")
	c, err := Start(ctx, o)
	if err != nil {
		_ = os.RemoveAll(root)
		return nil, err
	}
	c.removeRoot = root
	return c, nil
}

// sweepAbandoned stops and deletes ephemeral clusters of ours whose owner
// process has exited. It is best effort: what it cannot clean stays.
func sweepAbandoned(ctx context.Context, o Options) {
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	roots, _ := filepath.Glob(filepath.Join(os.TempDir(), ephemeralPrefix+"*")) // a fixed, valid pattern
	for _, root := range roots {
		if !abandoned(root) {
			continue
		}
		o.Dir = filepath.Join(root, "data")
		c, err := newCluster(o)
		if err != nil {
			return
		}
		if err := c.stopLeftover(ctx); err != nil {
			logf("leaving the abandoned cluster %s: %v", root, err)
			continue
		}
		if err := os.RemoveAll(root); err == nil {
			logf("removed the abandoned cluster %s", root)
		}
	}
}

// abandoned reports whether root is an ephemeral cluster directory of this
// user whose owner has certainly exited. A directory without a readable
// owner (still being created) or with a live owner is not.
func abandoned(root string) bool {
	info, err := os.Lstat(root)
	if err != nil || !info.IsDir() {
		return false
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return false
	}
	pid, ok := readPID(filepath.Join(root, ownerFile))
	return ok && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// newCluster resolves the binaries, the data directory and the account,
// without touching the disk.
func newCluster(o Options) (*Cluster, error) {
	if o.Dir == "" {
		return nil, errors.New("start cluster: no data directory given")
	}
	search := binSearch{path: os.Getenv("PATH"), glob: debianBinGlob}
	if o.search != nil {
		search = *o.search
	}
	bin, err := findBinDir(search)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, fmt.Errorf("start cluster: %w", err)
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	c := &Cluster{dir: dir, logPath: filepath.Join(dir, "log", "postgres.log"), port: o.Port, bin: bin, logf: logf, removeRoot: dir}
	if os.Geteuid() == 0 {
		if c.runAs, err = lookupAccount("postgres"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// findBinDir returns a directory holding initdb, pg_ctl and postgres: from
// PATH, else the highest version matching the glob.
func findBinDir(s binSearch) (string, error) {
	for _, dir := range filepath.SplitList(s.path) {
		if dir == "" || !hasAll(dir, "initdb", "pg_ctl") {
			continue
		}
		// Symlinks on PATH (Homebrew, /usr/local/bin) may live apart from
		// postgres, which pg_ctl and initdb look for beside their real file.
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "pg_ctl")); err == nil && hasAll(filepath.Dir(real), "initdb", "pg_ctl", "postgres") {
			dir = filepath.Dir(real)
		} else if !hasAll(dir, "postgres") {
			continue
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		return abs, nil
	}
	dirs, _ := filepath.Glob(s.glob) // the only error is a malformed pattern: nothing found
	slices.SortFunc(dirs, func(a, b string) int { return slices.Compare(versionOf(b), versionOf(a)) })
	for _, dir := range dirs {
		if hasAll(dir, "initdb", "pg_ctl", "postgres") {
			return dir, nil
		}
	}
	return "", errors.New(InstallHint)
}

func hasAll(dir string, names ...string) bool {
	for _, name := range names {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

// versionOf reads the version of .../postgresql/<version>/bin: 15 → [15],
// 9.6 → [9 6]; anything else sorts lowest.
func versionOf(binDir string) []int {
	var v []int
	for _, part := range strings.Split(filepath.Base(filepath.Dir(binDir)), ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			return nil
		}
		v = append(v, n)
	}
	return v
}

func lookupAccount(name string) (*account, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL must run as the %s system user, which was not found (install the postgresql package, or set DATABASE_URL): %w", name, err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %s: uid %q: %w", name, u.Uid, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("user %s: gid %q: %w", name, u.Gid, err)
	}
	a := &account{name: name, uid: uint32(uid), gid: uint32(gid), groups: []uint32{uint32(gid)}, home: u.HomeDir}
	if ids, err := u.GroupIds(); err == nil {
		for _, id := range ids {
			if g, err := strconv.ParseUint(id, 10, 32); err == nil && !slices.Contains(a.groups, uint32(g)) {
				a.groups = append(a.groups, uint32(g))
			}
		}
	}
	return a, nil
}

// prepare creates the data directory, hands it to the server's user and
// initialises a cluster in it unless it holds one.
func (c *Cluster) prepare(ctx context.Context) error {
	// Ancestors are created enterable, so the server's user can reach the
	// data directory; the data directory itself is private to the server.
	if err := os.MkdirAll(filepath.Dir(c.dir), 0o755); err != nil { //nolint:gosec // must be enterable by the postgres user
		return fmt.Errorf("create data directory: %w", err)
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	if c.runAs != nil {
		if err := checkReachable(c.dir, c.runAs); err != nil {
			return err
		}
	}
	// Before anything walks the directory: a running server changes it.
	if err := c.stopLeftover(ctx); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(c.dir, "PG_VERSION")); errors.Is(err, fs.ErrNotExist) {
		if err := c.own(); err != nil {
			return err
		}
		c.logf("initialising a PostgreSQL cluster in %s", c.dir)
		// --no-sync, like fsync=off below: durability is not worth waiting for here.
		if out, err := c.run(ctx, "initdb", "-D", c.dir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("initdb in %s: %w", c.dir, ctx.Err())
			}
			return fmt.Errorf("initdb in %s: %w: %s", c.dir, err, out)
		}
	} else if err != nil {
		return fmt.Errorf("inspect data directory: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(c.logPath), 0o700); err != nil {
		return fmt.Errorf("create log directory: %w", err)
	}
	return c.own()
}

// own gives the data directory, log included, to the server's user and
// makes it private, as the server insists.
func (c *Cluster) own() error {
	if c.runAs != nil {
		if err := chownTree(c.dir, int(c.runAs.uid), int(c.runAs.gid)); err != nil {
			return fmt.Errorf("give %s to the %s user: %w", c.dir, c.runAs.name, err)
		}
	}
	if err := os.Chmod(c.dir, 0o700); err != nil { //nolint:gosec // a directory: its owner must enter it
		return fmt.Errorf("make data directory private: %w", err)
	}
	return nil
}

// chownTree is chown -R confined to dir: links inside are changed, never
// followed out of it.
func chownTree(dir string, uid, gid int) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer func() { _ = root.Close() }() // read-only use: nothing to flush
	return fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // gone meanwhile: nothing to own
		}
		if err != nil {
			return err
		}
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) == uid && int(st.Gid) == gid {
				return nil
			}
		}
		if err := root.Lchown(p, uid, gid); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
}

// checkReachable fails unless a can enter every ancestor of dir: the server
// runs as a, while the directory was named by root.
func checkReachable(dir string, a *account) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("resolve data directory: %w", err)
	}
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("inspect %s: %w", d, err)
		}
		if !a.canEnter(info) {
			return fmt.Errorf("PostgreSQL runs as the %s user (it refuses to run as root), which cannot enter %s (mode %v), so it cannot reach the data directory %s; "+
				"set DATABASE_URL (GEOSCAN_TEST_DATABASE_URL for tests) to an existing database, move the checkout under a directory others can enter, or allow it with chmod o+x %s",
				a.name, d, info.Mode().Perm(), dir, d)
		}
		if parent := filepath.Dir(d); parent == d {
			return nil
		}
	}
}

// canEnter applies the permission bits the kernel would: the owner's, else
// the group's, else the others'. ACLs are not considered.
func (a *account) canEnter(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return true // no ownership to judge by; initdb will say if it cannot
	}
	perm := info.Mode().Perm()
	switch {
	case st.Uid == a.uid:
		return perm&0o100 != 0
	case slices.Contains(a.groups, st.Gid):
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}

// stopLeftover stops a server of this data directory still running from an
// earlier process. A postmaster.pid naming a dead process stays: the new
// server replaces it after checking that no process of the dead one still
// holds its shared memory.
func (c *Cluster) stopLeftover(ctx context.Context) error {
	pidFile := filepath.Join(c.dir, "postmaster.pid")
	pid, ok := readPID(pidFile)
	if !ok || !c.alive(pid) {
		return nil
	}
	if !c.isOurServer(pid) {
		// The server died and its PID now belongs to an unrelated process
		// (even another PostgreSQL), which pg_ctl would signal and which
		// would make the new server refuse to start.
		if err := c.waitForOrphans(ctx); err != nil {
			return err
		}
		c.logf("removing the stale %s (PID %d is not a server of this directory)", pidFile, pid)
		if err := os.Remove(pidFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove stale lock file: %w", err)
		}
		return nil
	}
	c.logf("stopping a PostgreSQL server (PID %d) left running in %s", pid, c.dir)
	if out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.dir, "-m", "fast", "-w", "-t", "60"); err != nil && c.isOurServer(pid) {
		return fmt.Errorf("stop the server left running in %s: %w: %s", c.dir, err, out)
	}
	return nil
}

// waitForOrphans waits until no process works in the data directory: with
// the lock file gone, the new server could no longer tell that the children
// of a dead one still use its shared memory. Children notice their
// postmaster's death and exit within moments. Only Linux is checked.
func (c *Cluster) waitForOrphans(ctx context.Context) error {
	real, err := filepath.EvalSymlinks(c.dir)
	if err != nil {
		return fmt.Errorf("resolve data directory: %w", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var pids []string
		entries, _ := os.ReadDir("/proc") // no procfs: nothing to check
		for _, e := range entries {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			if cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd"); err == nil && cwd == real {
				pids = append(pids, e.Name())
			}
		}
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes of an earlier server (PIDs %s) still run in %s; stop them and start again", strings.Join(pids, ", "), c.dir)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for an earlier server's processes: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// alive reports whether pid exists and could be our server: unless we are
// root, our server runs as us, so another user's process cannot be it.
func (c *Cluster) alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || (errors.Is(err, syscall.EPERM) && c.runAs != nil)
}

// isOurServer reports whether pid is alive and a postmaster of this data
// directory. On Linux the postmaster's working directory is its data
// directory; elsewhere a live PID is trusted, as pg_ctl trusts it.
func (c *Cluster) isOurServer(pid int) bool {
	if !c.alive(pid) {
		return false
	}
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		return true
	}
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(c.dir)
	if err != nil {
		real = c.dir
	}
	return cwd == real
}

// readPID reads the first line of postmaster.pid.
func readPID(path string) (int, bool) {
	b, err := os.ReadFile(path) //nolint:gosec // the lock file of our data directory
	if err != nil {
		return 0, false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	return pid, err == nil && pid > 0
}

// Start failures that another port or a moment cures.
var (
	errPortTaken = errors.New("port taken")
	errShmemBusy = errors.New("processes of an earlier server still hold its shared memory")
)

// start runs pg_ctl start. With no fixed port it picks a free one, and picks
// again if another process binds it first; it also waits out the processes
// of a crashed server that still hold its shared memory.
func (c *Cluster) start(ctx context.Context, fixedPort int) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		if fixedPort == 0 {
			port, err := freePort(ctx)
			if err != nil {
				return err
			}
			c.port = port
		}
		err := c.startOnce(ctx)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errPortTaken) && fixedPort != 0:
			return fmt.Errorf("start cluster in %s: port %d is in use", c.dir, fixedPort)
		case !errors.Is(err, errPortTaken) && !errors.Is(err, errShmemBusy):
			return err
		case time.Now().After(deadline):
			return fmt.Errorf("start cluster in %s: %w", c.dir, err)
		}
		c.logf("retrying PostgreSQL start: %v", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("start cluster: %w", ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (c *Cluster) startOnce(ctx context.Context) error {
	// fsync and friends are off: this cluster holds development and test
	// data only, and losing it to a power cut costs nothing.
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories='' "+
		"-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", c.port)
	var logStart int64
	if st, err := os.Stat(c.logPath); err == nil {
		logStart = st.Size()
	}
	out, err := c.run(ctx, "pg_ctl", "start", "-D", c.dir, "-l", c.logPath, "-w", "-t", "60", "-o", opts)
	if err == nil {
		return nil
	}
	log := c.logSince(logStart)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("start cluster: %w", ctx.Err())
	case strings.Contains(log, "Address already in use"):
		return errPortTaken
	case strings.Contains(log, "pre-existing shared memory block"):
		return errShmemBusy
	}
	return fmt.Errorf("pg_ctl start in %s: %w: %s\n%s", c.dir, err, out, lastLines(log, 15))
}

// logSince returns the server log written after offset.
func (c *Cluster) logSince(offset int64) string {
	b, err := os.ReadFile(c.logPath)
	if err != nil || int64(len(b)) < offset {
		return ""
	}
	return string(b[offset:])
}

// waitReady confirms the server accepts connections; pg_ctl -w already
// waited, so this rarely loops.
func (c *Cluster) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		attemptCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
		conn, err := pgx.Connect(attemptCtx, c.URL("postgres"))
		cancel()
		if err == nil {
			return conn.Close(ctx)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres on port %d did not accept connections: %w", c.port, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for postgres: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// run runs a server binary, as the postgres user when we are root, and
// returns its combined output.
func (c *Cluster) run(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...) //nolint:gosec // our own binaries and arguments
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Cancellation asks politely first: initdb then removes a half-made
	// cluster instead of leaving one that would never start.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	// All paths are absolute, and the postgres user may be unable to enter
	// our working directory.
	cmd.Dir = "/"
	cmd.Env = serverEnv(os.Environ())
	if c.runAs != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: c.runAs.uid, Gid: c.runAs.gid, Groups: c.runAs.groups}}
		// The last of duplicate variables wins.
		cmd.Env = append(cmd.Env, "HOME="+c.runAs.home, "USER="+c.runAs.name, "LOGNAME="+c.runAs.name)
	}
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}

// serverEnv is env without what would change the server's behaviour behind
// our arguments' back: PGDATA, PGPORT and friends, and the locale.
func serverEnv(env []string) []string {
	kept := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "PG") || strings.HasPrefix(k, "LC_") || k == "LANG" || k == "LANGUAGE" {
			continue
		}
		kept = append(kept, kv)
	}
	return append(kept, "LC_ALL=C")
}

// URL is the connection URL of database dbname.
func (c *Cluster) URL(dbname string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User("postgres"),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)),
		Path:     "/" + dbname,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// Dir is the data directory.
func (c *Cluster) Dir() string { return c.dir }

// Port is the TCP port the server listens on at 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// EnsureDatabase creates database name unless it exists.
func (c *Cluster) EnsureDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return fmt.Errorf("ensure database %s: %w", name, err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return fmt.Errorf("ensure database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database: created meanwhile
		return nil
	}
	if err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// Stop shuts the server down (fast mode: sessions are ended). Stopping a
// stopped cluster succeeds.
func (c *Cluster) Stop(ctx context.Context) error {
	out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.dir, "-m", "fast", "-w", "-t", "60")
	if err == nil {
		return nil
	}
	if pid, ok := readPID(filepath.Join(c.dir, "postmaster.pid")); !ok || !c.isOurServer(pid) {
		return nil
	}
	return fmt.Errorf("stop cluster in %s: %w: %s", c.dir, err, out)
}

// Remove deletes the data directory, or all of an ephemeral cluster's
// temporary directory. It refuses while the server runs: a server whose
// files were deleted would run on, unreachable by pg_ctl.
func (c *Cluster) Remove() error {
	if pid, ok := readPID(filepath.Join(c.dir, "postmaster.pid")); ok && c.isOurServer(pid) {
		return fmt.Errorf("remove cluster in %s: the server (PID %d) is still running; stop it first", c.dir, pid)
	}
	if err := os.RemoveAll(c.removeRoot); err != nil {
		return fmt.Errorf("remove cluster: %w", err)
	}
	return nil
}

func freePort(ctx context.Context) (int, error) {
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
