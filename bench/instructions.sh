#!/usr/bin/env bash
# The server's own instructions per request, counted by valgrind's callgrind:
# an API process (--role api, both rate-limit layers on, the access log on)
# and bench/floor answering GET /scans/{id}, each warmed and then counted over
# a light wrk load. Instruction counts are the user-space work of the server
# only (the kernel's is not counted) and repeat within about 1 % from run to
# run whatever else the machine does, so they show a change to the request
# path that throughput on two shared cores cannot resolve. docs/PERFORMANCE.md
# reports them next to bench/http.sh's ratios.
#
#   bench/instructions.sh          # ephemeral cluster (cmd/testdb)
#   GEOSCAN_TEST_DATABASE_URL=... COUNT=20s bench/instructions.sh
#   CALLGRIND_OUT=dir bench/instructions.sh   # keep the profiles
#                                             # (callgrind_annotate FILE)
#   COMPARE="before=/tmp/before/bin/geoscan" bench/instructions.sh
#                                 # also other builds' gets ("name=path",
#                                 # separated by spaces), counted alike
#
# Needs valgrind and wrk (Debian: apt-get install valgrind wrk) and psql.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${GEOSCAN_TEST_DATABASE_URL:-}" ]; then
  exec go run ./cmd/testdb -- "$0" "$@"
fi
for tool in valgrind callgrind_control callgrind_annotate wrk psql; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install valgrind wrk postgresql-client)" >&2; exit 1; }
done

COUNT=${COUNT:-15s}
PORT=${PORT:-18081}
admin=$GEOSCAN_TEST_DATABASE_URL
db_url=${admin%/*}/geoscan_instr${admin##*/postgres}
work=$(mktemp -d)
out=${CALLGRIND_OUT:-$work}
mkdir -p "$out"
server=
stop_server() { if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=; fi; }
trap 'stop_server; rm -rf "$work"' EXIT

psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_instr' -c 'CREATE DATABASE geoscan_instr' >/dev/null 2>&1
go build -trimpath -o bin/geoscan ./cmd/geoscan
go build -trimpath -o bin/floor ./bench/floor
export DATABASE_URL=$db_url GEOSCAN_HTTP_ADDR=127.0.0.1:$PORT GEOSCAN_ENV=test GEOSCAN_ROLE=api \
  GEOSCAN_IP_RATE_LIMIT=1000000000 GEOSCAN_LOG_LEVEL=error
bin/geoscan migrate >/dev/null
org=$(bin/geoscan org create --name instructions --plan pro)
key=$(bin/geoscan key create --org "$org")
psql "$db_url" -qc "UPDATE organizations SET rate_limit_read_override = 1000000000 WHERE id = '$org'"
psql "$db_url" -qc "INSERT INTO scans (org_id, url, domain, brand_name, created_at)
  SELECT '$org', 'https://site' || g || '.example.com/', 'site' || g || '.example.com', 'site' || g,
         now() - g * interval '1 minute' FROM generate_series(1, 2000) g" -c "VACUUM ANALYZE scans"
scan=$(psql "$db_url" -Atc "SELECT id FROM scans WHERE org_id = '$org' ORDER BY created_at DESC LIMIT 1")

# count NAME PATH CMD...: CMD under callgrind with counting off, warmed
# (the pool's connections opened, statements prepared, the heap grown),
# then counted over COUNT of wrk with 4 connections. Go's asynchronous
# preemption signals are turned off: callgrind does not survive them.
count() {
  local name=$1 path=$2 n ir
  shift 2
  rm -f "$work"/cg.*
  GODEBUG=asyncpreemptoff=1 GEOSCAN_LOG_LEVEL=info valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$work/cg.%p" "$@" >"$work/$name.log" 2>&1 &
  server=$!
  for _ in $(seq 600); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.2; done
  curl -fsS -o /dev/null -H "X-API-Key: $key" "http://127.0.0.1:$PORT$path"
  wrk -t1 -c4 -d5s -H "X-API-Key: $key" "http://127.0.0.1:$PORT$path" >/dev/null
  callgrind_control -i on "$server" >/dev/null 2>&1
  wrk -t1 -c4 -d"$COUNT" -H "X-API-Key: $key" "http://127.0.0.1:$PORT$path" >"$work/wrk.out"
  callgrind_control -i off "$server" >/dev/null 2>&1
  callgrind_control -d "$server" >/dev/null 2>&1
  stop_server
  if grep -q 'Non-2xx' "$work/wrk.out"; then echo "$name: non-2xx answers" >&2; exit 1; fi
  # A count over few requests is mostly the process's own background
  # work (timers, the pool's health checks, the collector).
  if grep -q 'Socket errors' "$work/wrk.out" || [ "$(awk '/requests in/{print $1}' "$work/wrk.out")" -lt 5000 ]; then
    echo "$name: the count ran over too few requests or with socket errors; run again" >&2
    cat "$work/wrk.out" >&2
  fi
  n=$(awk '/requests in/{print $1}' "$work/wrk.out")
  local profile
  profile=$(ls -S "$work"/cg.* | head -1)
  cp "$profile" "$out/$name.callgrind"
  ir=$(callgrind_annotate "$profile" 2>/dev/null | awk '/PROGRAM TOTALS/{gsub(",", "", $1); print $1}')
  echo "$name $n $ir" >>"$work/results"
}

count get "/api/v1/scans/$scan" bin/geoscan serve
for c in ${COMPARE:-}; do
  count "get@${c%%=*}" "/api/v1/scans/$scan" "${c#*=}" serve
done
count floor "/scans/$scan" bin/floor -addr "127.0.0.1:$PORT" -org "$org"

printf '%-36s %10s %16s %18s\n' "" "requests" "instructions" "per request"
while read -r name n ir; do
  case $name in
    get) label="GET /scans/{id} (API, limits on)" ;;
    get@*) label="GET /scans/{id}, ${name#get@}" ;;
    *) label="the stack's floor (bench/floor)" ;;
  esac
  printf '%-36s %10d %16d %18d\n' "$label" "$n" "$ir" "$((ir / n))"
done <"$work/results"
awk '{ per[$1] = $3 / $2 } END { printf "the API'"'"'s own work: %d instructions per get (%.2f × the floor'"'"'s)\n", per["get"] - per["floor"], per["get"] / per["floor"] }' "$work/results"
if [ -n "${CALLGRIND_OUT:-}" ]; then echo "profiles in $out (callgrind_annotate FILE)"; fi
