#!/bin/bash
# The replay target of page requisites and revisits, in one command: the PostgreSQL 15 manual of Debian's
# postgresql-doc-15, served by nginx on 127.0.0.1, is crawled with --warc, packaged and replayed in headless Chromium
# with ReplayWeb.page (replay-wacz.sh), then recrawled with --set recrawl.after=0s (every page and stylesheet.css a
# 304, written as server-not-modified revisits), packaged again and replayed at the newest captures. By default N
# pages of the manual (every k-th by name, so that they are of every kind) are the seeds, at --max-depth 0; with -a
# the whole manual is crawled from index.html and the first N pages of each package's pages.jsonl are replayed.
# Prints replay-wacz.sh's lines for the crawl and for the recrawl, and how many stylesheet.css records each holds.
# Not part of the build or CI. Needs nginx, unzip, node and Debian's chromium.
#
#   crawler-core/src/bench/replay-postgres.sh [-n PAGES] [-a] [-s LAUNCHER]
#
#   -n PAGES     how many pages replay (default 20)
#   -a           crawl the whole manual, not PAGES pages of it
#   -s LAUNCHER  the sievecrawl launcher (default app/target/sievecrawl)
set -euo pipefail

pages=20
whole=
dir=/usr/share/doc/postgresql-doc-15/html
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
launcher=$root/app/target/sievecrawl
while getopts "n:as:h" opt; do
  case $opt in
    n) pages=$OPTARG ;;
    a) whole=1 ;;
    s) launcher=$OPTARG ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
  esac
done
[ -f "$dir/index.html" ] || { echo "the PostgreSQL manual is missing: apt-get install postgresql-doc-15" >&2; exit 1; }
. "$here/nginx.sh"
work=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "work directory: $work" >&2
trap 'stop_nginx "$work"; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
chmod 755 "$work"
start_nginx "$work" "$dir"
if [ -n "$whole" ]; then
  echo "http://127.0.0.1:$port/index.html" > "$work/seeds.txt"
  depth=()
else
  all=$(cd "$dir" && find . -name '*.html' | sed 's|^\./||' | sort)
  step=$(( $(echo "$all" | wc -l) / pages > 0 ? $(echo "$all" | wc -l) / pages : 1 ))
  echo "$all" | awk -v step="$step" -v n="$pages" 'NR % step == 1 % step && taken < n { print; taken++ }' \
      | sed "s|^|http://127.0.0.1:$port/|" > "$work/seeds.txt"
  depth=(--max-depth 0)
fi
"$launcher" crawl "$work/seeds.txt" "${depth[@]}" --delay 0ms -q --warc "$work/warc" --job "$work/job" \
    -o "$work/crawl.jsonl" --log-file "$work/crawl.log"
"$launcher" wacz "$work/job" -o "$work/crawl.wacz" >/dev/null
sheets() { unzip -p "$1" indexes/index.cdxj | grep -c '/stylesheet.css ' || true; }
echo "crawl: $(grep -c . "$work/crawl.jsonl") records ($(grep -c '"requisite":true' "$work/crawl.jsonl") requisites), $(sheets "$work/crawl.wacz") stylesheet.css index lines"
"$here/replay-wacz.sh" -n "$pages" "$work/crawl.wacz" || true
crawled=$(grep -c . "$work/crawl.jsonl")
"$launcher" recrawl "$work/job" --set recrawl.after=0s -q --log-file "$work/recrawl.log" # appends its records
tail -n +$((crawled + 1)) "$work/crawl.jsonl" > "$work/recrawl.jsonl"
"$launcher" wacz "$work/job" -o "$work/recrawl.wacz" >/dev/null
echo "recrawl: $(grep -c '"revisit":"server-not-modified"' "$work/recrawl.jsonl") of" \
    "$(grep -c . "$work/recrawl.jsonl") records server-not-modified revisits," \
    "$(sheets "$work/recrawl.wacz") stylesheet.css index lines"
"$here/replay-wacz.sh" -n "$pages" "$work/recrawl.wacz" || true
