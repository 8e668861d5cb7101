#!/usr/bin/env bash
# The request path against its physical reference, in one run on one
# PostgreSQL: authenticated reads under load next to pgbench -S, and the CSV
# export next to psql's \copy of the same rows. Every figure of
# docs/PERFORMANCE.md's "Request path" section comes from one run of this
# script, with the ratios it prints.
#
#   bench/http.sh                 # ephemeral cluster (cmd/testdb)
#   GEOSCAN_TEST_DATABASE_URL=... bench/http.sh
#   CONNS=16 DURATION=4s SLICES=2 ROUNDS=1 EXPORT_ROWS=100000 bench/http.sh
#   EXPORT_ROWS=0 bench/http.sh   # the reads only
#   PERF_OUT=list.perf bench/http.sh   # also a CPU profile of the server
#                                      # under the list's load (perf record -g)
#   PERF_OUT=get.perf PERF_LOAD=get bench/http.sh   # ... under another load
#   COMPARE="before=/tmp/before/bin/geoscan" bench/http.sh
#                                 # other builds side by side (below)
#   CONFIGS="limits floor" bench/http.sh   # some configurations only
#
# COMPARE names other builds of geoscan ("name=path", separated by spaces),
# such as the commit before a change built in a worktree: each serves next
# to this build in its first configuration (both rate-limit layers on),
# and the get's and the list's wrk slices go to the builds in turn (see
# load), so that they are measured under the same drift against one
# reference; the summary gives this build's ratios over each one's, round
# by round.
# CONFIGS picks this build's configurations (limits, nolimits, redis,
# floor; all by default, redis only when a Redis answers).
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
# DURATION in seconds ("15s"): each load's time under wrk, and its
# reference's under pgbench.
THREADS=${THREADS:-2}
DURATION=${DURATION:-10s}
# Each load and its reference take turns in SLICES slices (see load); a
# slice lasts DURATION/SLICES, whole seconds, at least 2.
SLICES=${SLICES:-5}
if [ $(( ${DURATION%s} / SLICES )) -lt 2 ]; then
  echo "DURATION/SLICES must be at least 2 seconds" >&2; exit 2
fi
WARMUP=${WARMUP:-5s}
# pgbench's warm-up, and the share of its transactions it logs.
PGWARMUP=${PGWARMUP:-5s}
PGSAMPLE=${PGSAMPLE:-0.1}
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
# The reference's pgbench run, while a load is measured (it may be stopped).
pgb=
stop_pgbench() { if [ -n "$pgb" ]; then kill -CONT "$pgb" 2>/dev/null || true; kill "$pgb" 2>/dev/null || true; wait "$pgb" 2>/dev/null || true; pgb=; fi; }
# COMPARE's builds, while they serve: "NAME=PID:PORT" each.
compared_servers=()
stop_compared() {
  local c pid
  for c in "${compared_servers[@]}"; do
    pid=${c#*=}; pid=${pid%%:*}
    kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  done
  compared_servers=()
}
trap 'stop_pgbench; stop_server; stop_compared; rm -rf "$work"' EXIT

psql "$admin" -qc 'DROP DATABASE IF EXISTS geoscan_bench' -c 'CREATE DATABASE geoscan_bench' \
  -c 'DROP DATABASE IF EXISTS geoscan_pgbench' -c 'CREATE DATABASE geoscan_pgbench' >/dev/null 2>&1
pgbench -i -q -s 10 "$pgb_url" >/dev/null 2>&1

go build -trimpath ${GOFLAGS_EXTRA:-} -o bin/geoscan ./cmd/geoscan
go build -trimpath ${GOFLAGS_EXTRA:-} -o bin/floor ./bench/floor
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


results=$work/results
# wrk prints each slice's latency quantiles at every 0.1 % (in µs) with
# its request count, so that p50 and p99 are those of all the slices'
# requests together.
cat >"$work/quantiles.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("requests %d\n", summary.requests))
  for i = 1, 1000 do
    io.write(string.format("q %d\n", latency:percentile(i / 10)))
  end
end
LUA
# quantile Q FILE...: the Qth quantile (0 – 1) of the requests of the
# slices whose wrk output the files hold, in milliseconds: each slice's
# 1 000 quantiles stand for a thousandth of its requests each.
quantile() {
  local q=$1
  shift
  awk '/^requests /{ w = $2 / 1000; next } /^q /{ print $2, w }' "$@" | sort -n |
    awk -v q="$q" '{ v[NR] = $1; c[NR] = $2; t += $2 } END { for (i = 1; i <= NR; i++) { s += c[i]; if (s >= q * t) { printf "%.2fms\n", v[i] / 1000; exit } } }'
}
# cpu_ticks PID: a server process's CPU time so far, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
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
# load NAME PATH [OTHER=PID:PORT...]: the load next to its reference, in
# slices. One pgbench -S run and wrk take turns, SLICES times each for
# DURATION/SLICES, with one more pgbench slice at the end: pgbench is
# stopped (SIGSTOP) while wrk runs and continued after it. The reference
# drifts by 10 – 25 % over tens of seconds on this kind of machine, and
# alternating slices of a few seconds puts the same drift under both.
# pgbench stays one run with the same connections: a fresh PostgreSQL
# backend is slow for its first seconds (pgbench -S climbs by a quarter
# over its first five here), while the API's pool keeps its connections,
# so the reference starts PGWARMUP after pgbench does, and the API's after
# WARMUP of wrk. pgbench logs a sample of its transactions with their end
# times, from which each of its slices' rate is counted.
#
# Other servers given as OTHER=PID:PORT (COMPARE's builds) take part in
# the same load: wrk's slices go to each server in turn, SLICES each, with
# a pgbench slice between every two, so that the machine's drift falls on
# all of them alike and they share one reference.
#
# Appends "NAME rps p50 p99 cpu pgcpu pgbench pgbench-lowest
# pgbench-highest" for each server: rps is all its wrk slices' requests
# over their time, p50 and p99 those of all their requests; cpu is the
# server's CPU time per request and pgcpu PostgreSQL's, in microseconds,
# figures that other work on the machine barely moves. PostgreSQL's is
# read from half a second after each wrk slice starts to half a second
# before it ends and divided by the requests of those windows at the
# slice's rate: when wrk closes its connections, requests in flight are
# cancelled and pgx closes the connections that were running them, whose
# backends would take their time with them.
load() {
  local name=$1 path=$2 slice=$(( ${DURATION%s} / SLICES )) c0 c1 s k out w0 w1 sn st
  shift 2
  local names=("$name") pids=("$server") ports=("$PORT") o
  for o in "$@"; do
    names+=("${o%%=*}"); o=${o#*=}
    pids+=("${o%%:*}"); ports+=("${o#*:}")
  done
  local t=${#names[@]} windows=$work/windows
  local n=() secs=() cpu=() pgticks=() pgreq=()
  for k in $(seq 0 $((t - 1))); do
    n[k]=0 secs[k]=0 cpu[k]=0 pgticks[k]=0 pgreq[k]=0
    # Steady state only: a fresh process first opens its pool's
    # connections, prepares its statements on each and grows its heap.
    if [ "${WARMUP%s}" -gt 0 ]; then
      wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -H "X-API-Key: $key" "http://127.0.0.1:${ports[k]}$path" >/dev/null
    fi
  done
  rm -f "$work"/pgb.* "$work"/wrk.[0-9]*
  : >"$windows"
  local slices=$((SLICES * t))
  # Long enough for every slice; ended once the last is measured.
  pgbench -S -c "$CONNS" -j "$THREADS" -T $(( ${PGWARMUP%s} + 4 * (slices + 1) * slice + 60 )) \
    -l --sampling-rate="$PGSAMPLE" --log-prefix="$work/pgb" "$pgb_url" >/dev/null 2>&1 &
  pgb=$!
  sleep "${PGWARMUP%s}"
  for s in $(seq 0 "$slices"); do
    w0=$(date +%s.%N)
    sleep "$slice"
    w1=$(date +%s.%N)
    echo "$w0 $w1" >>"$windows"
    [ "$s" -lt "$slices" ] || break
    k=$((s % t))
    kill -STOP "$pgb"
    c0=$(cpu_ticks "${pids[k]}")
    wrk -t"$THREADS" -c"$CONNS" -d"${slice}s" -s "$work/quantiles.lua" -H "X-API-Key: $key" "http://127.0.0.1:${ports[k]}$path" >"$work/wrk.out" &
    local wrk_pid=$! perf_pid=
    if [ -n "${PERF_OUT:-}" ] && [ "$name" = "${PERF_LOAD:-list}" ] && [ "$s" = 0 ]; then
      perf record -q -F 999 -g -p "$server" -o "$PERF_OUT" -- sleep "$slice" >/dev/null 2>&1 &
      perf_pid=$!
    fi
    sleep 0.5
    pg_snapshot "$work/pg0"
    w0=$(date +%s.%N)
    sleep $((slice - 1))
    pg_snapshot "$work/pg1"
    w1=$(date +%s.%N)
    wait "$wrk_pid"
    if [ -n "$perf_pid" ]; then wait "$perf_pid" || true; fi
    c1=$(cpu_ticks "${pids[k]}")
    kill -CONT "$pgb"
    cp "$work/wrk.out" "$work/wrk.$k.$s"
    out=$(cat "$work/wrk.out")
    if grep -q 'Non-2xx' <<<"$out"; then echo "${names[k]}: non-2xx answers" >&2; grep 'Non-2xx' <<<"$out" >&2; fi
    # "28113 requests in 2.00s, 14.53MB read"
    read -r sn st < <(awk '/requests in/{t = $4; sub(/s,?$/, "", t); print $1, t}' <<<"$out")
    n[k]=$((n[k] + sn))
    secs[k]=$(echo "${secs[k]} + $st" | bc -l)
    cpu[k]=$((cpu[k] + c1 - c0))
    if [ -s "$work/pg1" ]; then
      pgticks[k]=$((pgticks[k] + $(pg_ticks_between "$work/pg0" "$work/pg1")))
      pgreq[k]=$(echo "${pgreq[k]} + $sn / $st * ($w1 - $w0)" | bc -l)
    fi
  done
  # The lines pgbench still buffers are of transactions after the last
  # window.
  sleep 0.2
  stop_pgbench
  local tps=()
  # Log lines: client, transaction, latency µs, script, end time s, µs.
  mapfile -t tps < <(awk -v rate="$PGSAMPLE" 'NR == FNR { a[FNR] = $1; b[FNR] = $2; k = FNR; next }
    { t = $5 + $6 / 1e6; for (i = 1; i <= k; i++) if (t >= a[i] && t < b[i]) { c[i]++; break } }
    END { for (i = 1; i <= k; i++) printf "%d\n", c[i] / rate / (b[i] - a[i]) }' "$windows" "$work"/pgb.*)
  local tck rps pgcpu ref lo hi
  tck=$(getconf CLK_TCK)
  read -r ref lo hi < <(printf '%s\n' "${tps[@]}" | awk '{ s += $1; if (NR == 1 || $1 < l) l = $1; if ($1 > h) h = $1 } END { printf "%d %d %d\n", s / NR, l, h }')
  for k in $(seq 0 $((t - 1))); do
    rps=$(echo "${n[k]} / ${secs[k]}" | bc -l | cut -d. -f1)
    pgcpu=-
    if [ -n "$postmaster" ]; then
      pgcpu=$(echo "${pgticks[k]} * 1000000 / $tck / ${pgreq[k]}" | bc -l | cut -d. -f1)
    fi
    echo "${names[k]} $rps $(quantile 0.5 "$work"/wrk."$k".*) $(quantile 0.99 "$work"/wrk."$k".*) $((cpu[k] * 1000000 / tck / n[k])) $pgcpu $ref $lo $hi" >>"$results"
  done
}


echo "== machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, load $(cut -d' ' -f1-3 /proc/loadavg); wrk -t$THREADS -c$CONNS --latency for $DURATION after $WARMUP of warm-up, taking turns with pgbench -S -c$CONNS -j$THREADS in $SLICES slices; $SCANS scans in the organization"
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
    floor) echo "the stack's floor (bench/floor)" ;;
    get@*) echo "GET /scans/{id}, ${1#get@}" ;;
    list@*) echo "GET /scans?limit=20, ${1#list@}" ;;
  esac
}
redis=false
if redis-cli -u "$REDIS_URL" ping >/dev/null 2>&1; then redis=true; fi
# start_floor: bench/floor in place of the API, reading the same scans.
start_floor() {
  stop_server
  bin/floor -addr "127.0.0.1:$PORT" -org "$org" 2>/dev/null &
  server=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && return; sleep 0.1; done
  echo "floor did not start" >&2; exit 1
}
# start_compared: COMPARE's builds, each on a port of its own after
# PORT's, configured as this build's first configuration.
start_compared() {
  local c i=0 port
  for c in ${COMPARE:-}; do
    i=$((i + 1)) port=$((PORT + i))
    env GEOSCAN_HTTP_ADDR="127.0.0.1:$port" GEOSCAN_LOG_LEVEL=info "${c#*=}" serve 2>/dev/null &
    compared_servers+=("${c%%=*}=$!:$port")
    for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && continue 2; sleep 0.1; done
    echo "${c%%=*} did not start" >&2; exit 1
  done
}
# run_config NAME: one process configuration's loads.
run_config() {
  case $1 in
    limits)
      start_server
      start_compared
      load get "/api/v1/scans/$scan" "${compared_servers[@]/#/get@}"
      load list "/api/v1/scans?limit=20" "${compared_servers[@]/#/list@}"
      stop_compared ;;
    nolimits)
      start_server GEOSCAN_DISABLE_RATE_LIMITS=true
      load get_nolimits "/api/v1/scans/$scan"
      load list_nolimits "/api/v1/scans?limit=20" ;;
    redis)
      start_server GEOSCAN_REDIS_URL="$REDIS_URL"
      load get_redis "/api/v1/scans/$scan" ;;
    floor)
      start_floor
      load floor "/scans/$scan" ;;
  esac
}
configs=(limits nolimits)
if $redis; then configs+=(redis); fi
configs+=(floor)
if [ -n "${CONFIGS:-}" ]; then read -ra configs <<<"$CONFIGS"; fi
compared=()
for c in ${COMPARE:-}; do
  [ -x "${c#*=}" ] || { echo "COMPARE: ${c#*=} is not an executable" >&2; exit 2; }
  compared+=("${c%%=*}")
done
for round in $(seq "$ROUNDS"); do
  : >"$results"
  # The first load of a round measures lower than the same load later in
  # it (seen in every run, cause not found), so each round starts with
  # another configuration.
  n=${#configs[@]}
  for k in $(seq 0 $((n - 1))); do
    run_config "${configs[$(( (round - 1 + k) % n ))]}"
  done
  stop_server

  echo "round $round:"
  printf '%-36s %8s %8s %8s %22s %10s %10s %10s\n' "" "req/s" "p50" "p99" "pgbench (slices)" "× pgbench" "server CPU" "PG CPU"
  while read -r name rps p50 p99 cpu pgcpu ref lo hi; do
    ratio=$(echo "$rps / $ref" | bc -l)
    printf '%-36s %8d %8s %8s %22s %10.2f %7d µs %7s µs\n' "$(label "$name")" "$rps" "$p50" "$p99" "$ref ($lo – $hi)" "$ratio" "$cpu" "$pgcpu"
    echo "$name $ratio $p99 $cpu $pgcpu $round" >>"$work/all"
  done <"$results"
done
if [ "$ROUNDS" -gt 1 ]; then
  echo "over $ROUNDS rounds: median (lowest – highest)"
  printf '%-36s %20s %22s %18s %18s\n' "" "× pgbench" "p99" "server CPU µs" "PG CPU µs"
  for name in get list get_nolimits list_nolimits get_redis floor ${compared[@]/#/get@} ${compared[@]/#/list@}; do
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
# This build's ratio over each compared build's, from the two loads of
# the same round (pgbench is each load's own reference), then their median.
for c in "${compared[@]}"; do
  for l in get list; do
    awk -v a="$l" -v b="$l@$c" -v what="$(label "$l") ÷ $c" '$1 == a { x[$6] = $2; if ($6 > n) n = $6 } $1 == b { y[$6] = $2 }
      END { for (r = 1; r <= n; r++) if ((r in x) && (r in y)) { v[++k] = x[r] / y[r]; s = s sprintf(" %.3f", v[k]) }
            if (!k) exit
            for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            printf "%s, by round:%s; median %.3f\n", what, s, k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }' "$work/all"
  done
done

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
