#!/bin/bash
# What WARC output costs: the crawl benchmark (a generated site on 127.0.0.1, concurrency 32) run in alternating
# pairs without and with --warc, so both see the same machine noise. Prints pages/s, the CPU seconds of the whole
# command (GNU time: JVM start and the benchmark's warm-up run included) and the WARC bytes written; then medians.
# Not part of the build or CI. Build first: mvn -B -q package -DskipTests
#
#   crawler-core/src/bench/warc-overhead.sh [PAIRS] [PAGES]        (defaults 5 and 5000)
set -euo pipefail
cd "$(dirname "$0")/../../.."
pairs=${1:-5}
pages=${2:-5000}
warc=$(mktemp -d)
trap 'rm -rf "$warc"' EXIT
for i in $(seq 1 "$pairs"); do
  for mode in plain warc; do
    rm -rf "${warc:?}"/*
    extra=()
    [ "$mode" = warc ] && extra=(--warc "$warc/files")
    out=$( { /usr/bin/time -f "cpu %U %S" app/target/sievecrawl bench --pages "$pages" --levels 32 --repeat 1 -q \
      --log-file "$warc/bench.log" "${extra[@]}"; } 2>&1 )
    rate=$(echo "$out" | awk '/^32 /{print $4}')
    cpu=$(echo "$out" | awk '/^cpu/{printf "%.2f", $2+$3}')
    bytes=$([ "$mode" = warc ] && du -sb "$warc/files" | cut -f1 || echo 0)
    echo "$mode pages/s=$rate cpu_s=$cpu warc_bytes=$bytes"
  done
done | tee /dev/stderr | awk '
  { split($2, r, "="); split($3, c, "="); rate[$1] = rate[$1] " " r[2]; cpu[$1] = cpu[$1] " " c[2] }
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    printf "median plain: %s pages/s, %s CPU s; median warc: %s pages/s, %s CPU s; warc/plain pages/s %.2f\n",
      median(rate["plain"]), median(cpu["plain"]), median(rate["warc"]), median(cpu["warc"]),
      median(rate["warc"]) / median(rate["plain"])
  }'
