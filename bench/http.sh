#!/usr/bin/env bash
# HTTP load benchmark of authenticated reads, next to pgbench -S on the same
# PostgreSQL as the physical reference. Writes its figures to stdout; the
# numbers in docs/PERFORMANCE.md come from this script.
#
#   bench/http.sh                 # ephemeral cluster (cmd/testdb)
#   GEOSCAN_TEST_DATABASE_URL=... bench/http.sh
#
# Needs wrk (Debian: apt-get install wrk) and pgbench (postgresql-client).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${GEOSCAN_TEST_DATABASE_URL:-}" ]; then
  exec go run ./cmd/testdb -- "$0" "$@"
fi
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
command -v pgbench >/dev/null || { echo "pgbench is missing: apt-get install postgresql-client" >&2; exit 1; }

CONNS=${CONNS:-32}
THREADS=${THREADS:-2}
DURATION=${DURATION:-15s}
PORT=${PORT:-18080}
admin=$GEOSCAN_TEST_DATABASE_URL
db_url=${admin%/*}/geoscan_bench${admin##*/postgres}
pgb_url=${admin%/*}/geoscan_pgbench${admin##*/postgres}

psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_bench' -c 'CREATE DATABASE geoscan_bench' \
  -c 'DROP DATABASE IF EXISTS geoscan_pgbench' -c 'CREATE DATABASE geoscan_pgbench' >/dev/null

go build -trimpath ${GOFLAGS_EXTRA:-} -o bin/geoscan ./cmd/geoscan
# Both rate-limit layers stay on, so their cost is part of every figure; wrk
# sends far more than a real client from one address and one organization,
# so the address limit and the organization's read limit are raised.
export DATABASE_URL=$db_url GEOSCAN_HTTP_ADDR=127.0.0.1:$PORT GEOSCAN_LOG_LEVEL=error GEOSCAN_ENV=test \
  GEOSCAN_IP_RATE_LIMIT=1000000000
org=$(bin/geoscan org create --name bench --plan pro)
key=$(bin/geoscan key create --org "$org")
psql "$db_url" -qc "UPDATE organizations SET daily_scan_quota_override = 100000,
  rate_limit_read_override = 1000000000 WHERE id = '$org'"

bin/geoscan serve 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done

# The organization's scans: SCANS of them (default 2 000).
psql "$db_url" -qc "INSERT INTO scans (org_id, url, domain, brand_name, created_at)
  SELECT '$org', 'https://site' || g || '.example.com/', 'site' || g || '.example.com', 'site' || g,
         now() - g * interval '1 minute' FROM generate_series(1, ${SCANS:-2000}) g"
scan=$(psql "$db_url" -Atc "SELECT id FROM scans WHERE org_id = '$org' ORDER BY created_at DESC LIMIT 1")

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; wrk -t$THREADS -c$CONNS -d$DURATION --latency"
echo "== GET /api/v1/scans/{id}"
wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H "X-API-Key: $key" "http://127.0.0.1:$PORT/api/v1/scans/$scan" | grep -E 'Requests/sec|Latency|99%|50%|Non-2xx'
echo "== GET /api/v1/scans?limit=20"
wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H "X-API-Key: $key" "http://127.0.0.1:$PORT/api/v1/scans?limit=20" | grep -E 'Requests/sec|Latency|99%|50%|Non-2xx'
kill $server; wait $server 2>/dev/null || true; trap - EXIT

echo "== pgbench -S (select-only), $CONNS clients, same server"
pgbench -i -q -s 10 "$pgb_url" >/dev/null 2>&1
pgbench -S -c "$CONNS" -j "$THREADS" -T "${DURATION%s}" "$pgb_url" 2>/dev/null | grep -E 'tps|latency average'
