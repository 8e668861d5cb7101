package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PoolConfig parses a database URL into a pool configuration whose
// connections know the Go types of gen/db (RegisterTypes). Every pool that
// a Store runs on should come from it.
func PoolConfig(databaseURL string) (*pgxpool.Config, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	cfg.AfterConnect = func(_ context.Context, conn *pgx.Conn) error {
		RegisterTypes(conn.TypeMap())
		return nil
	}
	cfg.ConnConfig.BuildContextWatcherHandler = keepConnOnCancel
	return cfg, nil
}

// cancelGrace is how long a statement may still run after its context
// ends (see keepConnOnCancel).
const cancelGrace = 250 * time.Millisecond

// keepConnOnCancel makes an ended context cost a connection only when its
// statement is slow. pgx's default breaks the connection the moment the
// context ends: a client that hung up while its read was in flight cost
// the pool a connection, and its replacement a fork on the server and a
// backend that stays slow until its caches warm (several seconds under
// load). Here the connection's deadline is set cancelGrace after the
// context ends, so a statement that finishes within it (a read of one
// row takes well under a millisecond) leaves the connection in the pool,
// and a slower one is broken off as before. A LISTEN wait whose context
// ends returns after the grace, with the connection kept.
func keepConnOnCancel(conn *pgconn.PgConn) ctxwatch.Handler {
	return &pgconn.DeadlineContextWatcherHandler{Conn: conn.Conn(), DeadlineDelay: cancelGrace}
}

// NewPool opens a pool configured by PoolConfig.
func NewPool(ctx context.Context, databaseURL string) (*pgxpool.Pool, error) {
	cfg, err := PoolConfig(databaseURL)
	if err != nil {
		return nil, err
	}
	return pgxpool.NewWithConfig(ctx, cfg)
}

// RegisterTypes teaches m the Go types of gen/db. It moves
// github.com/google/uuid.UUID, the type sqlc generates for uuid columns,
// as the 16 bytes PostgreSQL sends: pgx knows that type only through
// database/sql's interfaces, so a parameter went through its string form,
// a failed binary encoding (an error built with fmt) and a parse, and a
// column through a formatted string parsed again, for each id of every
// query. And it scans nullable columns into pointers without reflection
// (tryNullableScanPlan).
func RegisterTypes(m *pgtype.Map) {
	t := &pgtype.Type{Name: "uuid", OID: pgtype.UUIDOID, Codec: uuidCodec{}}
	m.RegisterType(t)
	m.RegisterType(&pgtype.Type{Name: "_uuid", OID: pgtype.UUIDArrayOID, Codec: &pgtype.ArrayCodec{ElementType: t}})
	// Where a statement does not say a parameter's type (the simple
	// protocol), these values are uuids too.
	m.RegisterDefaultPgType(uuid.UUID{}, "uuid")
	m.RegisterDefaultPgType([]uuid.UUID{}, "_uuid")
	m.TryWrapScanPlanFuncs = append([]pgtype.TryWrapScanPlanFunc{tryNullableScanPlan}, m.TryWrapScanPlanFuncs...)
}

// tryNullableScanPlan plans a nullable column's scan into a pointer field
// of the types gen/db uses for them (sqlc's pointers for NULL): NULL is a
// nil pointer, anything else a new value scanned by pgx's plan for it.
// pgx's own plan for a pointer to a pointer does the same through
// reflect, which was a good part of reading a page of scans.
func tryNullableScanPlan(target any) (pgtype.WrappedScanPlanNextSetter, any, bool) {
	switch target.(type) {
	case **string:
		return &nullableScanPlan[string]{}, (*string)(nil), true
	case **int32:
		return &nullableScanPlan[int32]{}, (*int32)(nil), true
	case **int64:
		return &nullableScanPlan[int64]{}, (*int64)(nil), true
	case **float64:
		return &nullableScanPlan[float64]{}, (*float64)(nil), true
	case **bool:
		return &nullableScanPlan[bool]{}, (*bool)(nil), true
	case **time.Time:
		return &nullableScanPlan[time.Time]{}, (*time.Time)(nil), true
	case **uuid.UUID:
		return &nullableScanPlan[uuid.UUID]{}, (*uuid.UUID)(nil), true
	}
	return nil, nil, false
}

type nullableScanPlan[T any] struct{ next pgtype.ScanPlan }

func (p *nullableScanPlan[T]) SetNext(next pgtype.ScanPlan) { p.next = next }

func (p *nullableScanPlan[T]) Scan(src []byte, dst any) error {
	field := dst.(**T) //nolint:forcetypeassert // planned for **T only
	if src == nil {
		*field = nil
		return nil
	}
	v := new(T)
	if err := p.next.Scan(src, v); err != nil {
		return err
	}
	*field = v
	return nil
}

// uuidCodec is pgx's uuid codec with direct plans for uuid.UUID values
// and *uuid.UUID targets; pointers to them (nullable columns) reach these
// plans through pgx's own pointer handling. Anything else is left to pgx.
type uuidCodec struct{ pgtype.UUIDCodec }

func (c uuidCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	if _, ok := value.(uuid.UUID); ok {
		switch format {
		case pgtype.BinaryFormatCode:
			return encodeUUIDBinary{}
		case pgtype.TextFormatCode:
			return encodeUUIDText{}
		}
	}
	return c.UUIDCodec.PlanEncode(m, oid, format, value)
}

func (c uuidCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	if _, ok := target.(*uuid.UUID); ok {
		switch format {
		case pgtype.BinaryFormatCode:
			return scanUUIDBinary{}
		case pgtype.TextFormatCode:
			return scanUUIDText{}
		}
	}
	return c.UUIDCodec.PlanScan(m, oid, format, target)
}

type encodeUUIDBinary struct{}

func (encodeUUIDBinary) Encode(value any, buf []byte) ([]byte, error) {
	u := value.(uuid.UUID) //nolint:forcetypeassert // planned for uuid.UUID only
	return append(buf, u[:]...), nil
}

type encodeUUIDText struct{}

func (encodeUUIDText) Encode(value any, buf []byte) ([]byte, error) {
	u := value.(uuid.UUID) //nolint:forcetypeassert // planned for uuid.UUID only
	return append(buf, u.String()...), nil
}

// NULL scans into a uuid.UUID as the zero UUID, as uuid.UUID's own Scan
// does: these plans change how ids travel, not what a query returns.

type scanUUIDBinary struct{}

func (scanUUIDBinary) Scan(src []byte, dst any) error {
	if src == nil {
		*dst.(*uuid.UUID) = uuid.Nil //nolint:forcetypeassert // planned for *uuid.UUID only
		return nil
	}
	if len(src) != len(uuid.UUID{}) {
		return fmt.Errorf("invalid length for uuid: %d", len(src))
	}
	copy(dst.(*uuid.UUID)[:], src) //nolint:forcetypeassert // planned for *uuid.UUID only
	return nil
}

type scanUUIDText struct{}

func (scanUUIDText) Scan(src []byte, dst any) error {
	if src == nil {
		*dst.(*uuid.UUID) = uuid.Nil //nolint:forcetypeassert // planned for *uuid.UUID only
		return nil
	}
	u, err := uuid.ParseBytes(src)
	if err != nil {
		return err
	}
	*dst.(*uuid.UUID) = u //nolint:forcetypeassert // planned for *uuid.UUID only
	return nil
}
