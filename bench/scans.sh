#!/usr/bin/env bash
# End-to-end scan throughput on the fixture sites: SCANS scans (default 100)
# are queued through the API, then one worker process with WORKERS
# concurrent scans (default 8) runs them all. Prints the wall time from the
# worker's start to the last scan finished, the worker's peak RSS, and the
# mean time per phase from the worker's logs. docs/PERFORMANCE.md quotes it.
#
#   bench/scans.sh                       # ephemeral cluster (cmd/testdb)
#   SCANS=20 WORKERS=4 bench/scans.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${GEOSCAN_TEST_DATABASE_URL:-}" ]; then
  exec go run ./cmd/testdb -- "$0" "$@"
fi
command -v jq >/dev/null || { echo "jq is missing: apt-get install jq" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install time" >&2; exit 1; }

SCANS=${SCANS:-100}
WORKERS=${WORKERS:-8}
PORT=${PORT:-18081}
admin=$GEOSCAN_TEST_DATABASE_URL
db_url=${admin%/*}/geoscan_scanbench${admin##*/postgres}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_scanbench' -c 'CREATE DATABASE geoscan_scanbench' >/dev/null
go build -trimpath -o bin/geoscan ./cmd/geoscan

bin/geoscan fixtures --ca-dir "$work" >"$work/fixtures.env" &
pids+=($!)
for _ in $(seq 100); do grep -q '^# ' "$work/fixtures.env" 2>/dev/null && break; sleep 0.1; done
set -a
# shellcheck disable=SC1091
source <(grep '^GEOSCAN_' "$work/fixtures.env")
set +a
mapfile -t urls < <(awk '/^# /{print $3}' "$work/fixtures.env")

export DATABASE_URL=$db_url GEOSCAN_HTTP_ADDR=127.0.0.1:$PORT GEOSCAN_LOG_LEVEL=error GEOSCAN_SCAN_WORKERS=$WORKERS
bin/geoscan migrate >/dev/null
org=$(bin/geoscan org create --name bench --plan pro)
key=$(bin/geoscan key create --org "$org")
# The bench queues SCANS scans as fast as curl goes: lift the organization's
# quota and api_write limit (pro allows 60 a minute) with overrides, as an
# operator would for a bulk customer; the limiter itself stays on.
psql "$db_url" -qc "UPDATE organizations SET daily_scan_quota_override = 1000000,
  rate_limit_write_override = 1000000 WHERE id = '$org'"

GEOSCAN_ROLE=api bin/geoscan serve 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done

for i in $(seq 0 $((SCANS - 1))); do
  url=${urls[$((i % ${#urls[@]}))]}
  curl -fs -o /dev/null -X POST -H "X-API-Key: $key" -H 'Content-Type: application/json' \
    -d "{\"url\":\"$url\"}" "http://127.0.0.1:$PORT/api/v1/scans"
done

start=$(date +%s.%N)
GEOSCAN_ROLE=worker GEOSCAN_LOG_LEVEL=info GEOSCAN_LOG_FORMAT=json \
  /usr/bin/time -f '%M' -o "$work/rss" bin/geoscan serve 2>"$work/worker.log" &
worker=$!
pids+=($worker)
while :; do
  left=$(psql "$db_url" -Atc "SELECT count(*) FROM scans WHERE status IN ('pending', 'running')")
  [ "$left" = 0 ] && break
  sleep 0.2
done
end=$(date +%s.%N)
kill -INT "$(pgrep -P "$worker" geoscan || echo "$worker")" 2>/dev/null || true
wait "$worker" 2>/dev/null || true

echo "== machine: $(nproc) cores; $SCANS scans of ${#urls[@]} fixture sites, $WORKERS concurrent scans in one worker process"
printf 'wall time: %.1f s (%.2f scans/s)\n' "$(echo "$end - $start" | bc -l)" "$(echo "$SCANS / ($end - $start)" | bc -l)"
echo "worker peak RSS: $(( $(cat "$work/rss") / 1024 )) MiB"
psql "$db_url" -Atc "SELECT status, count(*) FROM scans GROUP BY status" | sed 's/^/scans /'
psql "$db_url" -Atc "SELECT 'per scan, started to finished (ms): p50 ' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY d)) ||
  ', p99 ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY d)) || ', max ' || round(max(d))
  FROM (SELECT extract(epoch FROM completed_at - started_at) * 1000 AS d FROM scans) s"
grep '"msg":"scan completed"' "$work/worker.log" | jq -s -r '
  "mean per scan (ms): fetch \(map(.fetch_ms) | add / length | floor), parse \(map(.parse_ms) | add / length | floor), checks \(map(.checks_ms) | add / length | floor), store \(map(.store_ms) | add / length | floor)"'
