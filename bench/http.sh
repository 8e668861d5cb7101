#!/usr/bin/env bash
# The request path against its physical reference, in one run on one
# PostgreSQL: authenticated reads under load next to pgbench -S, and the CSV
# export next to psql's \copy of the same rows. Every figure of
# docs/PERFORMANCE.md's "Request path" section comes from one run of this
# script, with the ratios it prints.
#
#   bench/http.sh                 # ephemeral cluster (cmd/testdb)
#   GEOSCAN_TEST_DATABASE_URL=... bench/http.sh
#   CONNS=16 DURATION=5s ROUNDS=1 EXPORT_ROWS=100000 bench/http.sh
#   EXPORT_ROWS=0 bench/http.sh   # the reads only
#   PERF_OUT=list.perf bench/http.sh   # also a CPU profile of the server
#                                      # under the list's load (perf record -g)
#   PERF_OUT=get.perf PERF_LOAD=get bench/http.sh   # ... under another load
#
# Needs wrk (Debian: apt-get install wrk), pgbench and psql
# (postgresql-client); the Redis rows need a Redis at REDIS_URL
# (default redis://127.0.0.1:6379/0) and are skipped without one.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${GEOSCAN_TEST_DATABASE_URL:-}" ]; then
  exec go run ./cmd/testdb -- "$0" "$@"
fi
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
command -v pgbench >/dev/null || { echo "pgbench is missing: apt-get install postgresql-client" >&2; exit 1; }

CONNS=${CONNS:-32}
# DURATION in seconds ("15s"); PostgreSQL's CPU is read from 3s on.
THREADS=${THREADS:-2}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-2s}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-18080}
SCANS=${SCANS:-2000}
EXPORT_ROWS=${EXPORT_ROWS:-1000000}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/0}
admin=$GEOSCAN_TEST_DATABASE_URL
db_url=${admin%/*}/geoscan_bench${admin##*/postgres}
pgb_url=${admin%/*}/geoscan_pgbench${admin##*/postgres}
work=$(mktemp -d)
server=
stop_server() { if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=; fi; }
trap 'stop_server; rm -rf "$work"' EXIT

psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_bench' -c 'CREATE DATABASE geoscan_bench' \
  -c 'DROP DATABASE IF EXISTS geoscan_pgbench' -c 'CREATE DATABASE geoscan_pgbench' >/dev/null 2>&1
pgbench -i -q -s 10 "$pgb_url" >/dev/null 2>&1

go build -trimpath ${GOFLAGS_EXTRA:-} -o bin/geoscan ./cmd/geoscan
# An API process (--role api) in its default configuration, both rate-limit
# layers on: wrk sends far more than
# a real client from one address and one organization, so the address
# limit and the organization's read limit are raised, not turned off.
export DATABASE_URL=$db_url GEOSCAN_HTTP_ADDR=127.0.0.1:$PORT GEOSCAN_LOG_LEVEL=error GEOSCAN_ENV=test GEOSCAN_ROLE=api \
  GEOSCAN_IP_RATE_LIMIT=1000000000
bin/geoscan migrate >/dev/null
org=$(bin/geoscan org create --name bench --plan pro)
key=$(bin/geoscan key create --org "$org")
psql "$db_url" -qc "UPDATE organizations SET rate_limit_read_override = 1000000000 WHERE id = '$org'"
psql "$db_url" -qc "INSERT INTO scans (org_id, url, domain, brand_name, created_at)
  SELECT '$org', 'https://site' || g || '.example.com/', 'site' || g || '.example.com', 'site' || g,
         now() - g * interval '1 minute' FROM generate_series(1, $SCANS) g" -c "ANALYZE scans"
scan=$(psql "$db_url" -Atc "SELECT id FROM scans WHERE org_id = '$org' ORDER BY created_at DESC LIMIT 1")
# Settle before measuring: pgbench's initialization and the inserts leave
# dirty buffers that a timed checkpoint would otherwise write during the
# first load, and tables that autovacuum would visit then.
psql "$pgb_url" -qc 'VACUUM ANALYZE' >/dev/null
psql "$db_url" -qc 'VACUUM ANALYZE' -c 'CHECKPOINT' >/dev/null

# start_server ENV...: a fresh API process with extra settings, logging at
# the default level (an access-log line per request) to /dev/null.
start_server() {
  stop_server
  env GEOSCAN_LOG_LEVEL=info "$@" bin/geoscan serve 2>/dev/null &
  server=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && return; sleep 0.1; done
  echo "server did not start" >&2; exit 1
}

pgbench_tps() {
  pgbench -S -c "$CONNS" -j "$THREADS" -T "${DURATION%s}" "$pgb_url" 2>/dev/null | awk '/^tps/{printf "%d\n", $3}'
}

results=$work/results
# cpu_ticks: the server process's CPU time so far, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
# The PostgreSQL server's processes, when it runs on this machine: its
# postmaster (from postmaster.pid in its data directory) and the children
# it forks, a backend per connection among them.
postmaster=$(head -1 "$(psql "$admin" -Atc 'SHOW data_directory' 2>/dev/null)/postmaster.pid" 2>/dev/null || true)
# pg_snapshot FILE: the CPU time so far of each of PostgreSQL's processes,
# "pid ticks" per line (nothing when PostgreSQL is not local).
pg_snapshot() {
  : >"$1"
  [ -n "$postmaster" ] && [ -r "/proc/$postmaster/stat" ] || return 0
  # Processes may end while they are read. /proc/PID/stat's second field
  # may hold spaces: the fields after it are counted from the closing
  # parenthesis (ppid is the 2nd, utime and stime the 12th and 13th).
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v pm="$postmaster" '{ pid = $1; sub(/^.*\) /, "") }
    pid == pm || $2 == pm { print pid, $12 + $13 }' >"$1"
}
# pg_ticks_between F0 F1: PostgreSQL's CPU time between two snapshots, in
# clock ticks, from the processes alive at the second: a process that
# ended in between (an autovacuum worker, a closed connection) takes its
# time with it.
pg_ticks_between() {
  awk 'NR == FNR { t0[$1] = $2; next } { d += $2 - t0[$1] } END { print d + 0 }' "$1" "$2"
}
# load NAME PATH: wrk against the running server; appends "NAME rps p50
# p99 cpu pgcpu", cpu being the server's CPU time per request and pgcpu
# PostgreSQL's, in microseconds: figures that other work on the machine
# barely moves. PostgreSQL's is read from a second after wrk starts to a
# second before it ends and divided by the requests of that window at the
# run's rate: when wrk closes its connections, requests in flight are
# cancelled and pgx closes the connections that were running them, whose
# backends would take their time with them.
load() {
  local out c0 c1 n tck secs w0 w1
  secs=${DURATION%s}
  # Steady state only: a fresh process first opens its pool's connections,
  # prepares its statements on each and grows its heap.
  if [ "${WARMUP%s}" -gt 0 ]; then
    wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -H "X-API-Key: $key" "http://127.0.0.1:$PORT$2" >/dev/null
  fi
  c0=$(cpu_ticks)
  wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H "X-API-Key: $key" "http://127.0.0.1:$PORT$2" >"$work/wrk.out" &
  local wrk_pid=$! perf_pid=
  if [ -n "${PERF_OUT:-}" ] && [ "$1" = "${PERF_LOAD:-list}" ]; then
    perf record -q -F 999 -g -p "$server" -o "$PERF_OUT" -- sleep "$secs" >/dev/null 2>&1 &
    perf_pid=$!
  fi
  : >"$work/pg1"
  if [ "$secs" -ge 3 ]; then
    sleep 1
    pg_snapshot "$work/pg0"
    w0=$(date +%s.%N)
    sleep $((secs - 2))
    pg_snapshot "$work/pg1"
    w1=$(date +%s.%N)
  fi
  wait "$wrk_pid"
  if [ -n "$perf_pid" ]; then wait "$perf_pid" || true; fi
  c1=$(cpu_ticks)
  out=$(cat "$work/wrk.out")
  n=$(awk '/requests in/{print $1}' <<<"$out")
  tck=$(getconf CLK_TCK)
  if grep -q 'Non-2xx' <<<"$out"; then echo "$1: non-2xx answers" >&2; grep 'Non-2xx' <<<"$out" >&2; fi
  local rps p50 p99 pgcpu=-
  rps=$(awk '/Requests\/sec/{printf "%d", $2}' <<<"$out")
  p50=$(awk '$1=="50%"{print $2}' <<<"$out")
  p99=$(awk '$1=="99%"{print $2}' <<<"$out")
  if [ -s "$work/pg1" ]; then
    pgcpu=$(echo "$(pg_ticks_between "$work/pg0" "$work/pg1") * 1000000 / $tck / ($rps * ($w1 - $w0))" | bc -l | cut -d. -f1)
  fi
  echo "$1 $rps $p50 $p99 $(( (c1 - c0) * 1000000 / tck / n )) ${pgcpu:-0}" >>"$results"
}

echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, load $(cut -d' ' -f1-3 /proc/loadavg); wrk -t$THREADS -c$CONNS -d$DURATION --latency after $WARMUP of warm-up; $SCANS scans in the organization"
# The reference moves by 10 – 20 % between runs of pgbench a minute apart
# on this kind of machine, so pgbench runs before each load and after the
# last, and each load is compared with the mean of the runs either side.
# The sequence is run ROUNDS times; the summary gives each load's median
# ratio and its range.
label() {
  case $1 in
    get) echo "GET /scans/{id}" ;;
    list) echo "GET /scans?limit=20" ;;
    get_nolimits) echo "GET /scans/{id}, rate limits off" ;;
    list_nolimits) echo "GET /scans?limit=20, rate limits off" ;;
    get_redis) echo "GET /scans/{id}, GEOSCAN_REDIS_URL" ;;
  esac
}
redis=false
if redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then redis=true; fi
# run_config NAME: one process configuration's loads, each after a pgbench
# run. The process is started before the first of them, so that every load
# meets a process (and PostgreSQL backends) of some seconds' age.
run_config() {
  case $1 in
    limits)
      start_server
      pgbench_tps >>"$work/pgbench"
      load get "/api/v1/scans/$scan"
      pgbench_tps >>"$work/pgbench"
      load list "/api/v1/scans?limit=20" ;;
    nolimits)
      start_server GEOSCAN_DISABLE_RATE_LIMITS=true
      pgbench_tps >>"$work/pgbench"
      load get_nolimits "/api/v1/scans/$scan"
      pgbench_tps >>"$work/pgbench"
      load list_nolimits "/api/v1/scans?limit=20" ;;
    redis)
      start_server GEOSCAN_REDIS_URL="$REDIS_URL"
      pgbench_tps >>"$work/pgbench"
      load get_redis "/api/v1/scans/$scan" ;;
  esac
}
configs=(limits nolimits)
if $redis; then configs+=(redis); fi
for round in $(seq "$ROUNDS"); do
  : >"$results"
  : >"$work/pgbench"
  # The first load of a round measures lower than the same load later in
  # it (seen in every run, cause not found), so each round starts with
  # another configuration.
  n=${#configs[@]}
  for k in $(seq 0 $((n - 1))); do
    run_config "${configs[$(( (round - 1 + k) % n ))]}"
  done
  stop_server
  pgbench_tps >>"$work/pgbench"

  mapfile -t pgs <"$work/pgbench"
  echo "round $round: pgbench -S -c$CONNS -j$THREADS before each load and after the last: ${pgs[*]} tps"
  printf '%-36s %10s %8s %8s %10s %10s %10s %10s\n' "" "req/s" "p50" "p99" "pgbench" "× pgbench" "server CPU" "PG CPU"
  i=0
  while read -r name rps p50 p99 cpu pgcpu; do
    pg=$(( (pgs[i] + pgs[i + 1]) / 2 ))
    ratio=$(echo "$rps / $pg" | bc -l)
    printf '%-36s %10d %8s %8s %10d %10.2f %7d µs %7s µs\n' "$(label "$name")" "$rps" "$p50" "$p99" "$pg" "$ratio" "$cpu" "$pgcpu"
    echo "$name $ratio $p99 $cpu $pgcpu" >>"$work/all"
    i=$((i + 1))
  done <"$results"
done
if [ "$ROUNDS" -gt 1 ]; then
  echo "over $ROUNDS rounds: median (lowest – highest)"
  printf '%-36s %20s %22s %18s %18s\n' "" "× pgbench" "p99" "server CPU µs" "PG CPU µs"
  for name in get list get_nolimits list_nolimits get_redis; do
    grep -q "^$name " "$work/all" || continue
    # p99 as wrk prints it (7.48ms, 1.02s) in milliseconds.
    awk -v n="$name" '$1 == n { r[++k] = $2; p = $3; m = p ~ /ms$/ ? 1 : p ~ /us$/ ? 0.001 : 1000; sub(/[a-z]+$/, "", p); q[k] = p * m; c[k] = $4; g[k] = $5 == "-" ? -1 : $5 }
      function med(a,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } ; return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
      function lo(a,   i, v) { v = a[1]; for (i = 2; i <= k; i++) if (a[i] < v) v = a[i]; return v }
      function hi(a,   i, v) { v = a[1]; for (i = 2; i <= k; i++) if (a[i] > v) v = a[i]; return v }
      END { pg = lo(g) < 0 ? "-" : sprintf("%d (%d – %d)", med(g), lo(g), hi(g))
            printf "%.2f (%.2f – %.2f)|%.1f ms (%.1f – %.1f)|%d (%d – %d)|%s\n", med(r), lo(r), hi(r), med(q), lo(q), hi(q), med(c), lo(c), hi(c), pg }' "$work/all" |
      { IFS='|' read -r a b c d; printf '%-36s %20s %22s %18s %18s\n' "$(label "$name")" "$a" "$b" "$c" "$d"; }
  done
fi

# The export: EXPORT_ROWS scans of another organization, streamed in one
# response, next to psql's \copy of the same rows; the server's peak RSS
# is read before and after, from a fresh process. EXPORT_ROWS=0 skips it.
[ "$EXPORT_ROWS" -gt 0 ] || exit 0
org2=$(bin/geoscan org create --name export --plan pro)
key2=$(bin/geoscan key create --org "$org2")
psql "$db_url" -qc "INSERT INTO scans (org_id, url, domain, brand_name, project, status, overall_score, overall_grade, created_at, completed_at)
  SELECT '$org2', 'https://site' || g || '.example.com/', 'site' || g || '.example.com', 'Site ' || g, 'project ' || (g % 10),
         'completed', 50 + (g % 50), 'B', now() - g * interval '1 second', now() - g * interval '1 second' + interval '40 seconds'
  FROM generate_series(1, $EXPORT_ROWS) g" -c "VACUUM ANALYZE scans"
start_server
curl -fs -o /dev/null -H "X-API-Key: $key2" "http://127.0.0.1:$PORT/api/v1/scans/export?limit=10"
hwm_before=$(awk '/VmHWM/{print $2}' "/proc/$server/status")
t0=$(date +%s.%N)
curl -fsS -o "$work/export.csv" -D "$work/export.headers" -H "X-API-Key: $key2" "http://127.0.0.1:$PORT/api/v1/scans/export"
t1=$(date +%s.%N)
hwm_after=$(awk '/VmHWM/{print $2}' "/proc/$server/status")
stop_server
rows=$(( $(wc -l <"$work/export.csv") - 1 ))
t2=$(date +%s.%N)
psql "$db_url" -qc "\\copy (SELECT * FROM scans WHERE org_id = '$org2' ORDER BY created_at DESC, id DESC) TO '$work/copy.csv' WITH (FORMAT csv, HEADER)"
t3=$(date +%s.%N)
export_rps=$(echo "$rows / ($t1 - $t0)" | bc -l)
copy_rps=$(echo "$EXPORT_ROWS / ($t3 - $t2)" | bc -l)
printf 'GET /scans/export, %d rows in one response: %.2f s, %.0f rows/s, %.1f MiB\n' "$rows" "$(echo "$t1 - $t0" | bc -l)" "$export_rps" "$(echo "$(stat -c %s "$work/export.csv") / 1048576" | bc -l)"
printf 'psql \\copy of the same rows:               %.2f s, %.0f rows/s\n' "$(echo "$t3 - $t2" | bc -l)" "$copy_rps"
printf 'export / \\copy: %.2f\n' "$(echo "$export_rps / $copy_rps" | bc -l)"
echo "server peak RSS: $((hwm_before / 1024)) MiB before the export, $((hwm_after / 1024)) MiB after it"
