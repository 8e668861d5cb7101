#!/usr/bin/env bash
# One worker process against heavy pages: WORKERS scans at once (default
# 16) of the heavy fixture, a 4.9 MB store homepage that misbehaves only by
# its size, SCANS in all (default 48, three rounds). bench/worker.sh does
# the work (same database, fixtures and figures); what matters here is the
# worker's peak RSS against its memory budget (GEOSCAN_SCAN_MEMORY).
# docs/PERFORMANCE.md quotes it.
#
#   bench/heavy.sh                                   # ephemeral cluster (cmd/testdb)
#   GEOSCAN_SCAN_MEMORY=256 WORKERS=16 SCANS=16 bench/heavy.sh
set -euo pipefail
SITES=heavy WORKERS=${WORKERS:-16} SCANS=${SCANS:-48} exec "$(dirname "$0")/worker.sh" "$@"
