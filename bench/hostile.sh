#!/usr/bin/env bash
# Peak memory of the real server under hostile request bodies: ROUNDS rounds
# of PARALLEL (16) bodies of about 1 MB at once, each kind the JSON guard
# must refuse cheaply (deep nesting, huge arrays, many keys, duplicate keys)
# or pass on (a long string), without a key and with one. Prints the
# server's resident memory before, its peak (VmHWM) after, and the
# difference; docs/RELIABILITY.md quotes it.
#
#   bench/hostile.sh                 # ephemeral cluster (cmd/testdb)
#   GEOSCAN_TEST_DATABASE_URL=... bench/hostile.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${GEOSCAN_TEST_DATABASE_URL:-}" ]; then
  exec go run ./cmd/testdb -- "$0" "$@"
fi

PARALLEL=${PARALLEL:-16}
ROUNDS=${ROUNDS:-4}
PORT=${PORT:-18081}
admin=$GEOSCAN_TEST_DATABASE_URL
db_url=${admin%/*}/geoscan_hostile${admin##*/postgres}
psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_hostile' -c 'CREATE DATABASE geoscan_hostile' >/dev/null

go build -trimpath -o bin/geoscan ./cmd/geoscan
export DATABASE_URL=$db_url GEOSCAN_HTTP_ADDR=127.0.0.1:$PORT GEOSCAN_LOG_LEVEL=error GEOSCAN_ENV=test \
  GEOSCAN_IP_RATE_LIMIT=1000000000 GEOSCAN_ROLE=api
org=$(bin/geoscan org create --name hostile --plan pro)
key=$(bin/geoscan key create --org "$org")
psql "$db_url" -qc "UPDATE organizations SET rate_limit_write_override = 1000000000 WHERE id = '$org'"

work=$(mktemp -d)
bin/geoscan serve 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.1; done

# Bodies of 990 000 bytes, under the 1 MiB body limit.
size=990000
python3 - "$work" "$size" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
def fill(name, prefix, unit, suffix):
    k = (n - len(prefix) - len(suffix)) // len(unit)
    open(f"{d}/{name}", "w").write(prefix + unit * k + suffix)
fill("brackets", "", "[", "")
fill("braces", "", '{"a":', "")
fill("array", "[", "1,", "1]")
fill("string", '{"url":"https://example.com/', "a", '"}')
keys = "{" + "".join(f'"k{i}":0,' for i in range(4990)) + '"k0":1}'
open(f"{d}/dupkeys", "w").write(keys + " " * (n - len(keys)))
PY

status() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$server/status"; }
# Warm up with ordinary requests so the baseline is a serving process.
for _ in $(seq 50); do curl -s -o /dev/null -H "X-API-Key: $key" "http://127.0.0.1:$PORT/api/v1/scans?limit=5"; done
rss_before=$(status VmRSS); hwm_before=$(status VmHWM)

codes=$work/codes
for round in $(seq "$ROUNDS"); do
  for kind in ${KINDS:-brackets braces array dupkeys string}; do
    for i in $(seq "$PARALLEL"); do
      hdr=()
      if [ $((i % 2)) = 0 ]; then hdr=(-H "X-API-Key: $key"); fi
      curl -s -o /dev/null -w '%{http_code}\n' "${hdr[@]}" -H 'Content-Type: application/json' \
        --data-binary "@$work/$kind" "http://127.0.0.1:$PORT${TARGET:-/api/v1/scans}" >>"$codes" &
    done
    wait $(jobs -p | grep -v "^$server\$") 2>/dev/null || true
  done
  echo "round $round done" >&2
done
hwm_after=$(status VmHWM); rss_after=$(status VmRSS)

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; Go $(go env GOVERSION)"
echo "== $ROUNDS rounds x 5 kinds x $PARALLEL parallel bodies of $size bytes (half with a valid key)"
echo "answers: $(sort "$codes" | uniq -c | awk '{printf "%s x %s, ", $1, $2}' | sed 's/, $//')"
echo "rss before: $((rss_before / 1024)) MiB (peak so far $((hwm_before / 1024)) MiB)"
echo "peak rss during: $((hwm_after / 1024)) MiB; rss after: $((rss_after / 1024)) MiB"
echo "peak rise: $(((hwm_after - hwm_before) / 1024)) MiB"
