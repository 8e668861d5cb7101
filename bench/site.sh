#!/usr/bin/env bash
# The memory of whole-site audits: one worker process audits the megasite
# fixture whole, first with a page budget of SMALL pages (default 500),
# then with LARGE (default 5000), each in a fresh process, and prints each
# process's peak RSS (VmHWM) and the ratio of the two. The target: a
# 5 000-page audit peaks at 300 MiB at most, and within 20 % of a 500-page
# audit of the same site. docs/PERFORMANCE.md quotes it.
#
# The fixture server (`geoscan fixtures --megasite-pages LARGE`) serves the
# megasite grown to at least LARGE pages on its templates; the crawl is
# unthrottled (GEOSCAN_CRAWL_UNTHROTTLED, test mode) so the audit runs at
# the speed of the two processes, not at a real site's polite 2 requests a
# second. Scans are created through the API of a --role api process; the
# pro plan allows 500 pages a scan, so the larger budget is written into
# the queued scan's row before the worker starts.
#
#   bench/site.sh                                # ephemeral cluster (cmd/testdb)
#   SMALL=500 LARGE=5000 ROUNDS=3 bench/site.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${GEOSCAN_TEST_DATABASE_URL:-}" ]; then
  exec go run ./cmd/testdb -- "$0" "$@"
fi
command -v jq >/dev/null || { echo "jq is missing: apt-get install jq" >&2; exit 1; }

SMALL=${SMALL:-500}
LARGE=${LARGE:-5000}
ROUNDS=${ROUNDS:-1}
PORT=${PORT:-18083}
admin=$GEOSCAN_TEST_DATABASE_URL
db_url=${admin%/*}/geoscan_sitebench${admin##*/postgres}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_sitebench' -c 'CREATE DATABASE geoscan_sitebench' >/dev/null
go build -trimpath -o bin/geoscan ./cmd/geoscan

bin/geoscan fixtures --ca-dir "$work" --megasite-pages "$LARGE" >"$work/fixtures.env" &
pids+=($!)
for _ in $(seq 300); do grep -q '^# megasite ' "$work/fixtures.env" 2>/dev/null && break; sleep 0.1; done
set -a
# shellcheck disable=SC1091
source <(grep '^GEOSCAN_' "$work/fixtures.env")
set +a
site=$(awk '$2 == "megasite" {print $3}' "$work/fixtures.env")

export DATABASE_URL=$db_url GEOSCAN_HTTP_ADDR=127.0.0.1:$PORT GEOSCAN_LOG_LEVEL=error \
  GEOSCAN_CRAWL_UNTHROTTLED=true GEOSCAN_SCAN_BUDGET=${GEOSCAN_SCAN_BUDGET:-1800s}
bin/geoscan migrate >/dev/null
org=$(bin/geoscan org create --name bench --plan pro)
key=$(bin/geoscan key create --org "$org")
psql "$db_url" -qc "UPDATE organizations SET daily_scan_quota_override = 1000000,
  rate_limit_write_override = 1000000 WHERE id = '$org'"

GEOSCAN_ROLE=api bin/geoscan serve 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done

# audit PAGES: queue one scan of the megasite with that page budget, run
# it in a fresh worker process, and print "PAGES PEAK_KIB SECONDS DONE".
audit() {
  local pages=$1 id start worker status kib=0 rss
  id=$(curl -fs -X POST -H "X-API-Key: $key" -H 'Content-Type: application/json' \
    -d "{\"url\":\"$site\",\"max_pages\":$((pages < 500 ? pages : 500))}" \
    "http://127.0.0.1:$PORT/api/v1/scans" | jq -r .id)
  psql "$db_url" -qc "UPDATE scans SET max_pages = $pages WHERE id = '$id'"
  start=$(date +%s.%N)
  GEOSCAN_ROLE=worker GEOSCAN_LOG_FORMAT=json bin/geoscan serve 2>>"$work/worker.log" &
  worker=$!
  pids+=($worker)
  while :; do
    status=$(psql "$db_url" -Atc "SELECT status FROM scans WHERE id = '$id'")
    rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$worker/status" 2>/dev/null || echo 0)
    kib=$((rss > kib ? rss : kib))
    case $status in completed | failed) break ;; esac
    sleep 0.5
  done
  kill -INT "$worker" 2>/dev/null || true
  wait "$worker" 2>/dev/null || true
  read -r done planned < <(psql "$db_url" -AtF' ' -c "SELECT pages_done, coalesce(pages_planned, 0) FROM scans WHERE id = '$id'")
  [ "$status" = completed ] || { echo "scan of $pages pages $status: $(psql "$db_url" -Atc "SELECT error_code, error_message FROM scans WHERE id = '$id'")" >&2; exit 1; }
  printf '%d %d %.1f %d %d\n' "$pages" "$kib" "$(echo "$(date +%s.%N) - $start" | bc -l)" "$done" "$planned"
}

echo "== machine: $(nproc) cores, load $(cut -d" " -f1-3 /proc/loadavg); the megasite grown to at least $LARGE pages, unthrottled; a fresh worker process per audit, GEOSCAN_SCAN_MEMORY=${GEOSCAN_SCAN_MEMORY:-default}"
for round in $(seq "$ROUNDS"); do
  small=$(audit "$SMALL")
  large=$(audit "$LARGE")
  read -r _ small_kib small_s small_done _ <<<"$small"
  read -r _ large_kib large_s large_done _ <<<"$large"
  printf 'round %d: %d pages: peak RSS %d MiB (%.0f s); %d pages: peak RSS %d MiB (%.0f s); ratio %.2f\n' \
    "$round" "$small_done" $((small_kib / 1024)) "$small_s" "$large_done" $((large_kib / 1024)) "$large_s" \
    "$(echo "$large_kib / $small_kib" | bc -l)"
done
echo "worker error log lines: $(grep -c '"level":"ERROR"' "$work/worker.log" || true)"
