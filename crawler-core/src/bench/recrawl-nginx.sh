#!/bin/bash
# Crawls the OpenJDK 17 javadoc (about 10,000 pages) served by nginx on 127.0.0.1, then recrawls it unchanged with
# recrawl.after=0s, and counts in nginx's access log what each run was answered: an unchanged site must answer 304
# to every page of the recrawl, no body sent again. Then validates the WARC files (revisit records included) with
# jwarc's validate, and reports the bytes per page of the visit file and of the exact store. Not part of the build
# or CI. Needs nginx and the corpus (installed with apt-get if missing, as root).
#
#   crawler-core/src/bench/recrawl-nginx.sh [LAUNCHER]      (default: app/target/sievecrawl)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
launcher=${1:-$root/app/target/sievecrawl}
[ -x "$launcher" ] || { echo "no launcher at $launcher: build with mvn -B -q package -DskipTests" >&2; exit 1; }
if ! command -v nginx >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || { echo "nginx is missing: apt-get install nginx-light" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light >&2
fi
corpus=$("$here/javadoc-corpus.sh")
jar=$(find "$HOME/.m2/repository/org/netpreserve/jwarc" -name 'jwarc-*.jar' | sort | tail -1)

work=$(mktemp -d /tmp/recrawl-nginx.XXXXXX)
. "$here/nginx.sh"
start_nginx "$work" "$corpus"
trap 'stop_nginx "$work"; rm -rf "$work"' EXIT
echo "http://127.0.0.1:$port/index.html" > "$work/seeds.txt"
fast=(--delay 0ms --concurrency 8 --host-concurrency 8) # a server of our own: no politeness needed

statuses() { # what nginx answered since the log was emptied: count per status, and body bytes sent
  awk '{ n[$9]++; bytes += $10 } END { for (s in n) printf "%s: %d, ", s, n[s]; printf "body bytes sent: %d\n", bytes }' \
    "$work/nginx/access.log"
}

: > "$work/nginx/access.log"
"$launcher" crawl "$work/seeds.txt" --job "$work/job" -o "$work/results.jsonl" --warc "$work/warc" \
  --log-file "$work/sievecrawl.log" -q "${fast[@]}"
echo "crawl:   $(statuses)"
pages=$(wc -l < "$work/results.jsonl")
visits=$(stat -c %s "$work/job/visits-0.jsonl")
seen=$(find "$work/job/frontier" -name 'seen-*.run' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
admitted=$(grep -o 'URLs admitted: *[0-9,]*' "$work/sievecrawl.log" | tail -1 | tr -dc '0-9')
echo "visit file: $visits bytes for $pages pages ($((visits / pages)) bytes a page);" \
  "exact store: $seen bytes of runs for $admitted URLs admitted"

: > "$work/nginx/access.log"
"$launcher" recrawl "$work/job" --set recrawl.after=0s --warc "$work/warc" --log-file "$work/sievecrawl.log" -q \
  "${fast[@]}"
echo "recrawl: $(statuses)"
revisits=$(tail -n "$pages" "$work/results.jsonl" | grep -c '"revisit":"server-not-modified"' || true)
echo "recrawl records: $(tail -n "$pages" "$work/results.jsonl" | wc -l), of which server-not-modified: $revisits"
java -cp "$jar" org.netpreserve.jwarc.tools.WarcTool validate "$work"/warc/*.warc.gz > "$work/validate.txt" 2>&1 \
  && echo "jwarc validate: every file valid" || { echo "jwarc validate failed:"; tail -20 "$work/validate.txt"; }
echo "WARC records by type: $(zcat "$work"/warc/*.warc.gz | grep -a '^WARC-Type: ' | sort | uniq -c \
  | awk '{ printf "%s %s  ", $3, $1 }')"
