package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
)

func TestUUIDRoundTrip(t *testing.T) {
	t.Parallel()
	pool, ctx := pgtest.Pool(t), context.Background()
	id := uuid.MustParse("0b9e2f4c-7a1d-4e5f-9c3b-2d8a6f1e0c47")
	for name, mode := range map[string]pgx.QueryExecMode{
		"binary": pgx.QueryExecModeCacheStatement, // parameters and columns in binary
		"text":   pgx.QueryExecModeSimpleProtocol, // everything as text
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var (
				got, arrayElem uuid.UUID
				nullable       *uuid.UUID
				null           = &id
				asText         string
				arr            []uuid.UUID
			)
			err := pool.QueryRow(ctx, `SELECT $1::uuid, $2::uuid, NULL::uuid, $1::uuid::text, ARRAY[$1::uuid, $2::uuid], ($3::uuid[])[2]`,
				mode, id, &id, []uuid.UUID{uuid.Nil, id}).
				Scan(&got, &nullable, &null, &asText, &arr, &arrayElem)
			require.NoError(t, err)
			require.Equal(t, id, got)
			require.Equal(t, &id, nullable)
			require.Nil(t, null, "NULL scans into a nil *uuid.UUID")
			require.Equal(t, id.String(), asText)
			require.Equal(t, []uuid.UUID{id, id}, arr)
			require.Equal(t, id, arrayElem)

			var nilParam *uuid.UUID
			var isNull bool
			require.NoError(t, pool.QueryRow(ctx, `SELECT $1::uuid IS NULL`, mode, nilParam).Scan(&isNull))
			require.True(t, isNull, "a nil *uuid.UUID is sent as NULL")

			require.NoError(t, pool.QueryRow(ctx, `SELECT NULL::uuid`, mode).Scan(&got))
			require.Equal(t, uuid.Nil, got, "NULL scans into a uuid.UUID as the zero UUID, as uuid.UUID's Scan does")
		})
	}
}

// The registered plans move the 16 bytes directly: encoding an id into a
// buffer with room allocates nothing, where pgx's fallback through
// database/sql's interfaces allocates a string, an error and a parse.
// Not parallel: AllocsPerRun counts the allocations of the whole process.
func TestUUIDEncodesWithoutAllocating(t *testing.T) {
	m := pgtype.NewMap()
	store.RegisterTypes(m)
	id := uuid.New()
	var value any = id // boxed once: the conversion allocates, not the encoding
	buf := make([]byte, 0, 64)
	var err error
	allocs := testing.AllocsPerRun(100, func() {
		buf, err = m.Encode(pgtype.UUIDOID, pgtype.BinaryFormatCode, value, buf[:0])
	})
	require.NoError(t, err)
	require.Equal(t, id[:], buf)
	require.Zero(t, allocs)

	var back uuid.UUID
	allocs = testing.AllocsPerRun(100, func() {
		err = m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, buf, &back)
	})
	require.NoError(t, err)
	require.Equal(t, id, back)
	require.Zero(t, allocs)
}

func TestNullableColumnsRoundTrip(t *testing.T) {
	t.Parallel()
	pool, ctx := pgtest.Pool(t), context.Background()
	at := time.Date(2026, 11, 23, 21, 26, 9, 123456000, time.UTC)
	id := uuid.MustParse("0b9e2f4c-7a1d-4e5f-9c3b-2d8a6f1e0c47")
	const values = `SELECT 'text'::text, 7::int4, 8::int8, 72.5::float8, true, $1::timestamptz, $2::uuid`
	const nulls = `SELECT NULL::text, NULL::int4, NULL::int8, NULL::float8, NULL::bool, NULL::timestamptz, NULL::uuid`
	for name, mode := range map[string]pgx.QueryExecMode{"binary": pgx.QueryExecModeCacheStatement, "text": pgx.QueryExecModeSimpleProtocol} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var (
				s  *string
				i4 *int32
				i8 *int64
				f  *float64
				b  *bool
				ts *time.Time
				u  *uuid.UUID
			)
			// Rounds: a NULL after a value and a value after a NULL on
			// the same connection's prepared statements.
			for range 3 {
				require.NoError(t, pool.QueryRow(ctx, values, mode, at, id).Scan(&s, &i4, &i8, &f, &b, &ts, &u))
				require.Equal(t, "text", *s)
				require.Equal(t, int32(7), *i4)
				require.Equal(t, int64(8), *i8)
				require.InDelta(t, 72.5, *f, 0)
				require.True(t, *b)
				require.True(t, at.Equal(*ts), "%v", *ts)
				require.Equal(t, id, *u)

				require.NoError(t, pool.QueryRow(ctx, nulls, mode).Scan(&s, &i4, &i8, &f, &b, &ts, &u))
				require.Nil(t, s)
				require.Nil(t, i4)
				require.Nil(t, i8)
				require.Nil(t, f)
				require.Nil(t, b)
				require.Nil(t, ts)
				require.Nil(t, u)
			}

			err := pool.QueryRow(ctx, `SELECT 'x'::text`, mode).Scan(&i4)
			require.Error(t, err, "a value that does not fit fails as pgx's own plan does")
		})
	}

	// The registered plan is the one used.
	m := pgtype.NewMap()
	store.RegisterTypes(m)
	plan := m.PlanScan(pgtype.TextOID, pgtype.BinaryFormatCode, new(*string))
	require.Contains(t, fmt.Sprintf("%T", plan), "nullableScanPlan")
	failed := m.PlanScan(pgtype.TextOID, pgtype.BinaryFormatCode, new(int32))
	require.Error(t, failed.Scan([]byte("x"), new(int32)), "a target pgx cannot fill still fails")
}
