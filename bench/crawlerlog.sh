#!/usr/bin/env bash
# Throughput and memory of the crawler-log analysis (internal/audit/crawlerlog)
# on a realistic mixed log of about 1 GB: mostly browsers, some crawlers from
# their operators' addresses, some forged crawlers and other bots, in
# segments of nginx combined, Apache vhost_combined, common, CloudFront
# (W3C), Cloudflare, Fastly, Vercel and CloudFront real-time (JSON) lines.
# The log is generated once (fixed seed) and kept in the temp dir. Then the
# same file is read twice, each in its own process: by a bare bufio.Scanner
# counting lines (the floor), then by crawlerlog.Analyze. It prints lines/s
# of each, their ratio (target: Analyze ≥ 0.25 × the scanner), the same
# ratio of CPU time (what the wall-time ratio would be on one core, whatever
# else the machine runs) and each process's peak resident memory (VmHWM;
# target: ≤ 200 MiB for Analyze). Analyze parses on GOMAXPROCS workers (at
# most 4), so its wall time depends on the cores free during the run.
# docs/PERFORMANCE.md, "Crawler log analysis", quotes it.
#
#   bench/crawlerlog.sh                 # 1 GB, three rounds
#   SIZE=200000000 ROUNDS=1 bench/crawlerlog.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE=${SIZE:-1073741824}
ROUNDS=${ROUNDS:-3}
dir=${TMPDIR:-/tmp}/geoscan-crawlerlog-bench
log=$dir/access-$SIZE.log
mkdir -p "$dir"
go build -trimpath -o "$dir/crawlerlog" ./bench/crawlerlog
if [ ! -s "$log" ]; then
  echo "generating $log"
  "$dir/crawlerlog" generate -out "$log.tmp" -size "$SIZE"
  mv "$log.tmp" "$log"
fi
ls -l "$log"
# Both readers get the file from the page cache.
cat "$log" >/dev/null

for round in $(seq "$ROUNDS"); do
  scan=$("$dir/crawlerlog" scan "$log")
  analyze=$("$dir/crawlerlog" analyze "$log" 2>"$dir/analyze.err")
  echo "round $round"
  echo "  $scan"
  echo "  $analyze"
  field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p" <<<"$2"; }
  awk -v s="$(field lines_per_s "$scan")" -v a="$(field lines_per_s "$analyze")" \
    -v sc="$(field cpu_seconds "$scan")" -v ac="$(field cpu_seconds "$analyze")" \
    'BEGIN { printf "  ratio analyze/scan = %.3f (target >= 0.25); of CPU time per line = %.3f\n", a / s, sc / ac }'
done
cat "$dir/analyze.err"
