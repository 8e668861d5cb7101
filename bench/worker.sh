#!/usr/bin/env bash
# One worker process against slow sites: the fixture sites answer every
# request after LATENCY (default 300ms), as distant real sites do, and one
# worker process with WORKERS concurrent scans (default 200) runs SCANS
# scans (default 600). Prints how many scans were in flight (sampled every
# 100 ms), the throughput, the worker's peak RSS and CPU time, and the
# outcome of every scan. SITES names the fixture sites scanned in turn
# (default: the nine realistic ones; "megasite" is the 516-page shop of
# the crawl fixtures; bench/heavy.sh scans only "heavy", the 4.9 MB store
# homepage). docs/PERFORMANCE.md quotes it.
#
#   bench/worker.sh                              # ephemeral cluster (cmd/testdb)
#   LATENCY=300ms WORKERS=200 SCANS=600 bench/worker.sh
#   SITES="bakery heavy" WORKERS=16 SCANS=32 bench/worker.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${GEOSCAN_TEST_DATABASE_URL:-}" ]; then
  exec go run ./cmd/testdb -- "$0" "$@"
fi
command -v jq >/dev/null || { echo "jq is missing: apt-get install jq" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing: apt-get install time" >&2; exit 1; }

SCANS=${SCANS:-600}
SITES=${SITES:-wordpress nextshell shopify docs edge broken winery wiki bakery}
WORKERS=${WORKERS:-200}
LATENCY=${LATENCY:-300ms}
PORT=${PORT:-18082}
admin=$GEOSCAN_TEST_DATABASE_URL
db_url=${admin%/*}/geoscan_workerbench${admin##*/postgres}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; [ -n "${KEEP:-}" ] && cp "$work/worker.log" "$KEEP"; rm -rf "$work"; }
trap cleanup EXIT

psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_workerbench' -c 'CREATE DATABASE geoscan_workerbench' >/dev/null
go build -trimpath -o bin/geoscan ./cmd/geoscan

bin/geoscan fixtures --ca-dir "$work" --latency "$LATENCY" >"$work/fixtures.env" &
pids+=($!)
for _ in $(seq 100); do grep -q '^# ' "$work/fixtures.env" 2>/dev/null && break; sleep 0.1; done
set -a
# shellcheck disable=SC1091
source <(grep '^GEOSCAN_' "$work/fixtures.env")
set +a
# The fixtures print the realistic sites' URLs; the hostile ones, the
# heavy store among them, are served on the same HTTPS port.
port=$(awk '/^# /{print $3; exit}' "$work/fixtures.env" | sed -E 's#^https://[^/]*:([0-9]+)/.*#\1#')
declare -A url_of=([heavy]="https://everything-store.test:$port/")
while read -r _ name u; do url_of[$name]=$u; done < <(grep '^# ' "$work/fixtures.env")
urls=()
for name in $SITES; do
  [ -n "${url_of[$name]:-}" ] || { echo "unknown fixture site: $name" >&2; exit 1; }
  urls+=("${url_of[$name]}")
done

export DATABASE_URL=$db_url GEOSCAN_HTTP_ADDR=127.0.0.1:$PORT GEOSCAN_LOG_LEVEL=error GEOSCAN_SCAN_WORKERS=$WORKERS
bin/geoscan migrate >/dev/null
org=$(bin/geoscan org create --name bench --plan pro)
key=$(bin/geoscan key create --org "$org")
psql "$db_url" -qc "UPDATE organizations SET daily_scan_quota_override = 1000000,
  rate_limit_write_override = 1000000 WHERE id = '$org'"

GEOSCAN_ROLE=api bin/geoscan serve 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done

# Queue every scan before the worker starts, so it has SCANS waiting.
for i in $(seq 0 $((SCANS - 1))); do echo "${urls[$((i % ${#urls[@]}))]}"; done |
  xargs -P 8 -I{} curl -fs -o /dev/null -X POST -H "X-API-Key: $key" -H 'Content-Type: application/json' \
    -d '{"url":"{}"}' "http://127.0.0.1:$PORT/api/v1/scans"

start=$(date +%s.%N)
GEOSCAN_ROLE=worker GEOSCAN_LOG_LEVEL=info GEOSCAN_LOG_FORMAT=json \
  /usr/bin/time -f '%M %U %S' -o "$work/rss" bin/geoscan serve 2>"$work/worker.log" &
worker=$!
pids+=($worker)
# In flight: scans the worker has started and not finished.
: >"$work/inflight"
while :; do
  read -r left running < <(psql "$db_url" -AtF' ' -c "SELECT count(*) FILTER (WHERE status IN ('pending', 'running')), count(*) FILTER (WHERE status = 'running') FROM scans")
  echo "$running" >>"$work/inflight"
  [ "$left" = 0 ] && break
  sleep 0.1
done
end=$(date +%s.%N)
kill -INT "$(pgrep -P "$worker" geoscan || echo "$worker")" 2>/dev/null || true
wait "$worker" 2>/dev/null || true

echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $SCANS scans of ${#urls[@]} fixture sites ($SITES) answering after $LATENCY; one worker process, GEOSCAN_SCAN_WORKERS=$WORKERS, GEOSCAN_SCAN_MEMORY=${GEOSCAN_SCAN_MEMORY:-default}, GEOSCAN_DB_MAX_CONNS=${GEOSCAN_DB_MAX_CONNS:-auto}"
printf 'wall time: %.1f s (%.1f scans/s)\n' "$(echo "$end - $start" | bc -l)" "$(echo "$SCANS / ($end - $start)" | bc -l)"
sort -n "$work/inflight" | awk '{a[NR]=$1; s+=$1} END {printf "scans in flight: max %d, median %d, mean %.0f (%d samples)\n", a[NR], a[int((NR+1)/2)], s/NR, NR}'
read -r rss user sys <"$work/rss"
echo "worker peak RSS: $((rss / 1024)) MiB; CPU: $(echo "$user + $sys" | bc) s"
psql "$db_url" -Atc "SELECT status, coalesce(error_code, ''), count(*) FROM scans GROUP BY 1, 2 ORDER BY 1, 2" | sed 's/^/scans /'
psql "$db_url" -Atc "SELECT 'per scan, started to finished (ms): p50 ' || round(percentile_cont(0.5) WITHIN GROUP (ORDER BY d)) ||
  ', p99 ' || round(percentile_cont(0.99) WITHIN GROUP (ORDER BY d)) || ', max ' || round(max(d))
  FROM (SELECT extract(epoch FROM completed_at - started_at) * 1000 AS d FROM scans WHERE completed_at IS NOT NULL) s"
grep '"msg":"scan completed"' "$work/worker.log" | jq -s -r '
  "mean per scan (ms): fetch \(map(.fetch_ms) | add / length | floor), parse \(map(.parse_ms) | add / length | floor), checks \(map(.checks_ms) | add / length | floor), store \(map(.store_ms) | add / length | floor)"'
echo "worker error log lines: $(grep -c '"level":"ERROR"' "$work/worker.log" || true)"
{ grep '"level":"ERROR"' "$work/worker.log" || true; } | jq -r '"  \(.msg): \(.error // .err // "" | tostring | .[:200])"' | sort | uniq -c | awk 'NR <= 5'
