#!/bin/bash
# What checking WARC files while packaging them costs: 'wacz' of one WARC directory by two builds in alternating
# pairs, so both see the same machine noise; prints wall and CPU seconds (GNU time, JVM start included), then
# medians. The WARC directory is made once by the crawl benchmark (its warm-up and three runs of PAGES pages: 120 MB
# at 20,000). Not part of the build or CI. Build both first (mvn -B -q package -DskipTests in each worktree).
#
#   crawler-core/src/bench/wacz-check.sh BASE_LAUNCHER NEW_LAUNCHER [PAIRS] [PAGES]     (defaults 5 and 20000)
set -euo pipefail
base=$1
new=$2
pairs=${3:-5}
pages=${4:-20000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$new" bench --pages "$pages" --warc "$work/warc" -o /dev/null --log-file "$work/bench.log" -q > /dev/null
echo "WARC: $(du -sb "$work/warc" | cut -f1) bytes in $(ls "$work/warc" | grep -c 'warc.gz$') files"
for i in $(seq 1 "$pairs"); do
  for build in base new; do
    launcher=$base
    [ "$build" = new ] && launcher=$new
    rm -f "$work/out.wacz"
    SIEVECRAWL_CDS=off /usr/bin/time -f "$build wall_s=%e cpu_s=%U+%S" "$launcher" wacz "$work/warc" \
      -o "$work/out.wacz" 2>&1 > /dev/null | awk -F'cpu_s=' '{split($2, c, "+"); printf "%scpu_s=%.2f\n", $1, c[1] + c[2]}'
  done
done | tee "$work/runs.txt"
median() { # median of the numbers after KEY= on the lines of BUILD: median BUILD KEY
  local v n
  mapfile -t v < <(grep "^$1 " "$work/runs.txt" | sed -n "s|.*$2=\([0-9.]*\).*|\1|p" | sort -n)
  n=${#v[@]}
  if ((n % 2)); then echo "${v[n / 2]}"; else awk -v a="${v[n / 2 - 1]}" -v b="${v[n / 2]}" 'BEGIN {print (a + b) / 2}'; fi
}
echo "median base: $(median base wall_s) s wall, $(median base cpu_s) CPU s;" \
  "median new: $(median new wall_s) s wall, $(median new cpu_s) CPU s"
