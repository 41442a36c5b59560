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
done | tee "$warc/runs.txt"
median() { # median of the numbers after KEY= on the lines of MODE: median MODE KEY
  local v n
  mapfile -t v < <(grep "^$1 " "$warc/runs.txt" | sed -n "s|.* $2=\([0-9.]*\).*|\1|p" | sort -n)
  n=${#v[@]}
  if ((n % 2)); then echo "${v[n / 2]}"; else awk -v a="${v[n / 2 - 1]}" -v b="${v[n / 2]}" 'BEGIN {print (a + b) / 2}'; fi
}
p=$(median plain pages/s); w=$(median warc pages/s)
echo "median plain: $p pages/s, $(median plain cpu_s) CPU s; median warc: $w pages/s, $(median warc cpu_s) CPU s;" \
  "warc/plain pages/s $(awk -v w="$w" -v p="$p" 'BEGIN {printf "%.2f", w / p}')"
