// Package pgtest gives every test package its own fresh, migrated database:
// on the server named by GEOSCAN_TEST_DATABASE_URL, or on an ephemeral
// cluster started for the test binary. Databases are cloned from a template
// migrated once per migration set, so a fresh database costs milliseconds.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/store/dbmigrate"
	"github.com/geoscan/geoscan/internal/store/pgcluster"
)

// EnvAdminURL names an existing server to create test databases on; the URL
// must allow CREATE DATABASE.
const EnvAdminURL = "GEOSCAN_TEST_DATABASE_URL"

// databaseURL is the package database of this test binary. Main sets it in
// TestMain, before any test runs and so before any reader, and never again:
// that ordering makes this one package-level variable safe.
var databaseURL string

// URL returns the package database's connection URL. It panics outside a
// test binary whose TestMain calls Main, a wiring mistake no test survives.
func URL() string {
	if databaseURL == "" {
		panic("pgtest.URL: TestMain must call pgtest.Main")
	}
	return databaseURL
}

// Pool opens a pool to the package database, closed when the test ends.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	require.NotEmpty(t, databaseURL, "pgtest.Pool: TestMain must call pgtest.Main")
	pool, err := store.NewPool(context.Background(), databaseURL)
	require.NoError(t, err, "open the package database")
	t.Cleanup(pool.Close)
	return pool
}

// Tx begins a transaction on the package database that is rolled back when
// the test ends (River's TestTx idea): a test sees only its own rows, even
// beside parallel tests, and leaves none behind. The code under test must
// not commit it; savepoints (a nested InTx) are fine.
func Tx(t testing.TB) pgx.Tx {
	t.Helper()
	tx, err := Pool(t).Begin(context.Background())
	require.NoError(t, err, "begin a test transaction")
	t.Cleanup(func() { _ = tx.Rollback(context.Background()) })
	return tx
}

// Main prepares the package database, runs the tests and drops it. Use it
// as `func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }`. Without a
// database the tests fail (exit code 1) rather than skip.
func Main(m *testing.M) int {
	code, err := run(m)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// setupTimeout bounds starting a cluster, waiting for another process's
// template build and building one.
const setupTimeout = 5 * time.Minute

func run(m *testing.M) (code int, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()

	admin := os.Getenv(EnvAdminURL)
	if admin == "" {
		cluster, startErr := pgcluster.StartEphemeral(ctx, nil)
		if startErr != nil {
			return 1, fmt.Errorf("%s is not set, and starting an ephemeral PostgreSQL cluster failed: %w", EnvAdminURL, startErr)
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if stopErr := errors.Join(cluster.Stop(stopCtx), cluster.Remove()); stopErr != nil {
				err = errors.Join(err, fmt.Errorf("remove the ephemeral cluster: %w", stopErr))
			}
		}()
		admin = cluster.URL("postgres")
	}

	name := packageDBName(os.Args[0], randomSuffix())
	if err := createPackageDatabase(ctx, admin, name); err != nil {
		return 1, err
	}
	databaseURL = withDatabase(admin, name)
	cancel()

	code = m.Run()

	dropCtx, dropCancel := context.WithTimeout(context.Background(), time.Minute)
	defer dropCancel()
	if err := dropDatabase(dropCtx, admin, name); err != nil {
		return code, fmt.Errorf("drop the package database %s: %w", name, err)
	}
	return code, nil
}

// templateLock serialises template building among the test binaries that
// share a server. Advisory locks are per database; every binary takes it in
// the admin URL's database.
const templateLock = 7_215_004_312

// createPackageDatabase makes sure the migrated template exists and clones
// database name from it.
func createPackageDatabase(ctx context.Context, admin, name string) error {
	fp, err := dbmigrate.Fingerprint()
	if err != nil {
		return fmt.Errorf("fingerprint migrations: %w", err)
	}
	tmpl := "geoscan_tmpl_" + fp
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", redactURL(admin), err)
	}
	defer conn.Close(ctx)

	if err := ensureTemplate(ctx, conn, admin, tmpl); err != nil {
		return err
	}
	// A finished template takes no connections, so nothing can stop the clone
	// ("source database is being accessed by other users").
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident(name)+" TEMPLATE "+ident(tmpl)); err != nil {
		return fmt.Errorf("create %s from template %s: %w", name, tmpl, err)
	}
	return nil
}

// ensureTemplate builds the migrated template tmpl unless it exists. It is
// built under a temporary name and renamed only when complete, so a
// half-built template is never cloned.
func ensureTemplate(ctx context.Context, conn *pgx.Conn, admin, tmpl string) error {
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLock); err != nil {
		return fmt.Errorf("take the template lock: %w", err)
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLock) }()

	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tmpl).Scan(&exists); err != nil {
		return fmt.Errorf("look for template %s: %w", tmpl, err)
	}
	if exists {
		return nil
	}

	building := tmpl + "_building"
	// Left over from a build whose process died (and with it its lock).
	if err := dropIfExists(ctx, conn, building); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident(building)); err != nil {
		return fmt.Errorf("create template %s: %w", building, err)
	}
	pool, err := pgxpool.New(ctx, withDatabase(admin, building))
	if err != nil {
		return fmt.Errorf("connect to template %s: %w", building, err)
	}
	err = dbmigrate.Up(ctx, pool)
	pool.Close()
	if err != nil {
		return fmt.Errorf("migrate template %s: %w", building, err)
	}
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident(building)+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"); err != nil {
		return fmt.Errorf("seal template %s: %w", building, err)
	}
	// RENAME waits a few seconds for the migration's sessions to end.
	if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident(building)+" RENAME TO "+ident(tmpl)); err != nil {
		return fmt.Errorf("publish template %s: %w", tmpl, err)
	}
	return nil
}

// dropIfExists drops database name, which may have been sealed as a
// template (templates cannot be dropped).
func dropIfExists(ctx context.Context, conn *pgx.Conn, name string) error {
	var isTemplate bool
	err := conn.QueryRow(ctx, "SELECT datistemplate FROM pg_database WHERE datname = $1", name).Scan(&isTemplate)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("look for %s: %w", name, err)
	}
	if isTemplate {
		if _, err := conn.Exec(ctx, "ALTER DATABASE "+ident(name)+" WITH IS_TEMPLATE false"); err != nil {
			return fmt.Errorf("unseal %s: %w", name, err)
		}
	}
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop %s: %w", name, err)
	}
	return nil
}

func dropDatabase(ctx context.Context, admin, name string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", redactURL(admin), err)
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)")
	return err
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9_]+`)

// maxIdentifier is PostgreSQL's identifier limit (NAMEDATALEN-1 bytes);
// longer names would be silently truncated.
const maxIdentifier = 63

// packageDBName is geoscan_test_<package>_<suffix>, the package taken from
// the test binary's name (…/api.test → api) and reduced to [a-z0-9_].
func packageDBName(binary, suffix string) string {
	pkg := strings.ToLower(filepath.Base(binary))
	pkg = strings.TrimSuffix(strings.TrimSuffix(pkg, ".exe"), ".test")
	pkg = strings.Trim(unsafeChars.ReplaceAllString(pkg, "_"), "_")
	if pkg == "" {
		pkg = "pkg"
	}
	prefix := "geoscan_test_"
	if room := maxIdentifier - len(prefix) - 1 - len(suffix); len(pkg) > room {
		pkg = pkg[:room]
	}
	return prefix + pkg + "_" + suffix
}

// randomSuffix keeps the databases of concurrent runs of one package apart.
func randomSuffix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // never fails
	return hex.EncodeToString(b)
}

func ident(s string) string { return pgx.Identifier{s}.Sanitize() }

// withDatabase returns admin with its database replaced by name, which
// needs no quoting: every name here is [a-z0-9_].
func withDatabase(admin, name string) string {
	u, err := url.Parse(admin)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return admin + " dbname=" + name // keyword/value form: the last dbname wins
	}
	u.Path = "/" + name
	u.RawPath = ""
	return u.String()
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return "the configured server"
	}
	return u.Redacted()
}
