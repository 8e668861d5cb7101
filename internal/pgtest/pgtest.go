// Package pgtest gives every test package its own fresh, migrated database:
// on the server named by GEOSCAN_TEST_DATABASE_URL, or on an ephemeral
// cluster started for the test binary. Databases are cloned from a template
// migrated once per migration set, so a fresh database costs milliseconds.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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

	"github.com/geoscan/geoscan/internal/dbmigrate"
	"github.com/geoscan/geoscan/internal/pgcluster"
)

// EnvAdminURL names an existing server to create test databases on; the URL
// must allow CREATE DATABASE.
const EnvAdminURL = "GEOSCAN_TEST_DATABASE_URL"

// databaseURL is the package database of this test binary. TestMain sets it
// once before any test runs, which is why a package variable is safe here.
var databaseURL string

// URL returns the package database's connection URL; only valid inside
// tests of a package whose TestMain calls Main.
func URL() string {
	if databaseURL == "" {
		panic("pgtest.URL called without pgtest.Main in TestMain")
	}
	return databaseURL
}

// Pool opens a pool to the package database, closed when the test ends.
func Pool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(context.Background(), URL())
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// Main prepares the package database, runs the tests and drops it. Use it
// as `func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }`.
func Main(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	admin := os.Getenv(EnvAdminURL)
	if admin == "" {
		cluster, err := pgcluster.StartEphemeral(ctx, nil)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: no %s and no ephemeral cluster: %v\n", EnvAdminURL, err)
			return 1
		}
		defer func() {
			stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_ = cluster.Stop(stopCtx)
			_ = cluster.Remove()
		}()
		admin = cluster.URL("postgres")
	}

	name, err := createPackageDatabase(ctx, admin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
		return 1
	}
	databaseURL = withDatabase(admin, name)
	cancel()

	code := m.Run()

	dropCtx, dropCancel := context.WithTimeout(context.Background(), time.Minute)
	defer dropCancel()
	if err := dropDatabase(dropCtx, admin, name); err != nil {
		fmt.Fprintf(os.Stderr, "pgtest: drop %s: %v\n", name, err)
	}
	return code
}

// templateLock serialises template building across test binaries that
// share one server.
const templateLock = 7_215_004_312

func createPackageDatabase(ctx context.Context, admin string) (string, error) {
	fp, err := dbmigrate.Fingerprint()
	if err != nil {
		return "", fmt.Errorf("fingerprint migrations: %w", err)
	}
	tmpl := "geoscan_tmpl_" + fp
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", redactURL(admin), err)
	}
	defer conn.Close(ctx)

	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", templateLock); err != nil {
		return "", err
	}
	err = ensureTemplate(ctx, conn, admin, tmpl)
	_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLock)
	if err != nil {
		return "", err
	}

	name := packageDBName()
	if _, err := conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", ident(name), ident(tmpl))); err != nil {
		return "", fmt.Errorf("create %s from template: %w", name, err)
	}
	return name, nil
}

// ensureTemplate builds the migrated template under a temporary name and
// renames it only when complete, so a half-built template is never cloned.
func ensureTemplate(ctx context.Context, conn *pgx.Conn, admin, tmpl string) error {
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", tmpl).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	building := tmpl + "_building"
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(building)+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+ident(building)); err != nil {
		return fmt.Errorf("create template: %w", err)
	}
	pool, err := pgxpool.New(ctx, withDatabase(admin, building))
	if err != nil {
		return err
	}
	err = dbmigrate.Up(ctx, pool)
	pool.Close() // CREATE DATABASE … TEMPLATE needs the template to have no sessions
	if err != nil {
		return fmt.Errorf("migrate template: %w", err)
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", ident(building), ident(tmpl))); err != nil {
		return fmt.Errorf("publish template: %w", err)
	}
	_, err = conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s WITH IS_TEMPLATE true", ident(tmpl)))
	return err
}

func dropDatabase(ctx context.Context, admin, name string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)")
	return err
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9_]+`)

// packageDBName is geoscan_test_<package>_<random>, from the test binary's
// name (api.test → api).
func packageDBName() string {
	pkg := strings.TrimSuffix(filepath.Base(os.Args[0]), ".test")
	pkg = unsafeChars.ReplaceAllString(strings.ToLower(pkg), "_")
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	name := "geoscan_test_" + pkg
	if len(name) > 50 {
		name = name[:50]
	}
	return name + "_" + hex.EncodeToString(suffix)
}

func ident(s string) string { return pgx.Identifier{s}.Sanitize() }

// withDatabase returns admin with its database replaced by name.
func withDatabase(admin, name string) string {
	u, err := url.Parse(admin)
	if err != nil || u.Scheme == "" {
		// A keyword/value connection string.
		return admin + " dbname=" + name
	}
	u.Path = "/" + name
	return u.String()
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}
