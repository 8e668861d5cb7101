// Package pgcluster runs private PostgreSQL clusters with the server
// binaries (initdb, pg_ctl): the persistent development cluster of
// `geoscan dev` and the throwaway clusters of the tests. PostgreSQL refuses
// to run as root, so as root the binaries run as the postgres system user,
// as a developer's laptop would run them as the developer.
package pgcluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// InstallHint says how to get the server binaries.
const InstallHint = "PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or under /usr/lib/postgresql/*/bin; " +
	"install them with `sudo apt-get install -y postgresql` (Debian/Ubuntu) or `brew install postgresql@16` (macOS), " +
	"or set DATABASE_URL to an existing database"

// Options describe a cluster.
type Options struct {
	// Dir is the data directory; a cluster is created there if it has none.
	Dir string
	// Port is the loopback TCP port; 0 picks a free one at each start.
	Port int
	// Logf receives progress messages; nil discards them.
	Logf func(format string, args ...any)

	// searchPath and searchGlob replace PATH and the Debian layout in tests.
	searchPath *string
	searchGlob string
}

// Cluster is a running cluster.
type Cluster struct {
	dir   string
	port  int
	bin   string
	runAs *user.User
	logf  func(string, ...any)
}

// findBinDir returns the directory holding initdb and pg_ctl.
func findBinDir(o Options) (string, error) {
	path := os.Getenv("PATH")
	if o.searchPath != nil {
		path = *o.searchPath
	}
	for _, dir := range filepath.SplitList(path) {
		if isExec(filepath.Join(dir, "initdb")) && isExec(filepath.Join(dir, "pg_ctl")) {
			// Distribution wrappers on PATH may point elsewhere; resolve them
			// so postgres is found beside pg_ctl.
			if real, err := filepath.EvalSymlinks(filepath.Join(dir, "pg_ctl")); err == nil {
				return filepath.Dir(real), nil
			}
			return dir, nil
		}
	}
	glob := "/usr/lib/postgresql/*/bin"
	if o.searchGlob != "" {
		glob = o.searchGlob
	}
	dirs, _ := filepath.Glob(glob)
	// Highest major version first.
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, dir := range dirs {
		if isExec(filepath.Join(dir, "initdb")) && isExec(filepath.Join(dir, "pg_ctl")) {
			return dir, nil
		}
	}
	return "", errors.New(InstallHint)
}

func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func isExec(p string) bool {
	st, err := os.Stat(p) //nolint:gosec // a PATH entry, looked at, not opened
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// Start creates the cluster in o.Dir if needed and starts it. A server left
// running from an earlier crash is stopped first, so the port and settings
// are always this start's.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	bin, err := findBinDir(o)
	if err != nil {
		return nil, err
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	c := &Cluster{dir: o.Dir, port: o.Port, bin: bin, logf: logf}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, PostgreSQL must run as the postgres system user, which does not exist: %w", err)
		}
		c.runAs = u
	}
	// The parent is ours and must stay enterable by the postgres user; the
	// data directory itself is private to the server.
	if err := os.MkdirAll(filepath.Dir(o.Dir), 0o755); err != nil { //nolint:gosec // must be enterable by the postgres user
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	if c.runAs != nil {
		if err := c.prepareForPostgresUser(); err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		logf("initialising PostgreSQL cluster in %s", o.Dir)
		if out, err := c.run(ctx, "initdb", "-D", o.Dir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"); err != nil {
			return nil, fmt.Errorf("initdb: %w: %s", err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "postmaster.pid")); err == nil {
		logf("stopping a PostgreSQL server left running in %s", o.Dir)
		_, _ = c.run(ctx, "pg_ctl", "stop", "-D", o.Dir, "-m", "fast", "-w")
	}
	if c.port == 0 {
		if c.port, err = freePort(ctx); err != nil {
			return nil, err
		}
	}
	// fsync and friends are off: this cluster holds development and test
	// data only, and losing it to a power cut costs nothing.
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", c.port)
	logFile := filepath.Join(o.Dir, "server.log")
	if out, err := c.run(ctx, "pg_ctl", "start", "-D", o.Dir, "-l", logFile, "-w", "-t", "60", "-o", opts); err != nil {
		tail, _ := os.ReadFile(logFile) //nolint:gosec // the server log in our data directory
		return nil, fmt.Errorf("pg_ctl start: %w: %s\n%s", err, out, lastLines(string(tail), 10))
	}
	if err := c.waitReady(ctx); err != nil {
		_ = c.Stop(context.WithoutCancel(ctx))
		return nil, err
	}
	logf("PostgreSQL listening on 127.0.0.1:%d", c.port)
	return c, nil
}

// StartEphemeral starts a throwaway cluster in a new temporary directory;
// Stop then Remove deletes it.
func StartEphemeral(ctx context.Context, logf func(string, ...any)) (*Cluster, error) {
	dir, err := os.MkdirTemp("", "geoscan-pg-")
	if err != nil {
		return nil, err
	}
	// MkdirTemp makes it 0700; the postgres user must be able to pass through.
	if err := os.Chmod(dir, 0o711); err != nil { //nolint:gosec // traversal only, nothing is listable
		return nil, err
	}
	c, err := Start(ctx, Options{Dir: filepath.Join(dir, "data"), Logf: logf})
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return c, nil
}

// prepareForPostgresUser makes the data directory the postgres user's and
// checks that the user can reach it at all.
func (c *Cluster) prepareForPostgresUser() error {
	abs, err := filepath.Abs(c.dir)
	if err != nil {
		return err
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if st.Mode().Perm()&0o001 == 0 {
			return fmt.Errorf("the postgres user cannot enter %s (mode %v), so it cannot reach the data directory %s; set DATABASE_URL to an existing database or move the checkout", dir, st.Mode().Perm(), abs)
		}
		if dir == "/" {
			break
		}
	}
	uid, _ := strconv.Atoi(c.runAs.Uid)
	gid, _ := strconv.Atoi(c.runAs.Gid)
	return filepath.Walk(abs, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid) //nolint:gosec // our own data directory, and Lchown never follows links
	})
}

// run runs a server binary, as the postgres user when we are root.
func (c *Cluster) run(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(c.bin, name), args...) //nolint:gosec // our own binaries and arguments
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if c.runAs != nil {
		uid, _ := strconv.Atoi(c.runAs.Uid)
		gid, _ := strconv.Atoi(c.runAs.Gid)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
		cmd.Dir = "/"
		cmd.Env = append(cmd.Env, "HOME="+c.runAs.HomeDir)
	}
	err := cmd.Run()
	return strings.TrimSpace(out.String()), err
}

func (c *Cluster) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			_ = conn.Close(ctx)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// URL is the connection URL of database dbname.
func (c *Cluster) URL(dbname string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, dbname)
}

// Dir is the data directory.
func (c *Cluster) Dir() string { return c.dir }

// EnsureDatabase creates database name unless it exists.
func (c *Cluster) EnsureDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	return err
}

// Stop shuts the server down (fast mode: sessions are ended).
func (c *Cluster) Stop(ctx context.Context) error {
	if out, err := c.run(ctx, "pg_ctl", "stop", "-D", c.dir, "-m", "fast", "-w", "-t", "60"); err != nil {
		return fmt.Errorf("pg_ctl stop: %w: %s", err, out)
	}
	return nil
}

// Remove deletes the data directory (and the temporary parent of an
// ephemeral cluster).
func (c *Cluster) Remove() error {
	parent := filepath.Dir(c.dir)
	if strings.HasPrefix(filepath.Base(parent), "geoscan-pg-") {
		return os.RemoveAll(parent)
	}
	return os.RemoveAll(c.dir)
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
